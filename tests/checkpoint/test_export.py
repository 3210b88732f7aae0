"""export / load / GraphCell: a network traced in predict mode, written, read and replayed."""
import json

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.autograd.function import Op
from hookgrad.train.graph_cell import FuncGraph, GraphCell

rng = np.random.default_rng(0)


def cnn():
    return nn.SequentialCell([
        nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
        nn.Dense(98, 4), nn.Dropout(p=0.5), nn.Softmax()])


def image():
    return ms.Tensor(rng.random((2, 1, 8, 8)).astype(np.float32))


def export_and_load(net, *inputs, path):
    ms.export(net, *inputs, file_name=str(path), file_format='HOOKGRAD')
    return GraphCell(ms.load(str(path) + '.hookgrad'))


class Mixed(nn.Cell):
    """Embedding, LayerNorm, indexing, concat, casts, a scalar, several inputs and a dict of
    outputs with a list in it."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.fc1 = nn.Dense(4, 5)
        self.act = nn.GELU()
        self.ln = nn.LayerNorm((5,))
        self.fc2 = nn.Dense(5, 3)

    def construct(self, ids, extra, scale):
        h = self.act(self.fc1(self.emb(ids)))
        z = self.ln(h)[:, -1, :]
        z = ops.concat([z, z * scale], axis=0)
        z = self.fc2(z.astype(ms.float32)).mean(axis=0, keep_dims=True) + extra
        first = h[ms.Tensor(np.array([1, 0])), 0]
        return {'out': z, 'parts': [first, ops.stack([z, z]).transpose(1, 0, 2)]}


def test_round_trip_gives_the_predict_mode_outputs_bit_for_bit(tmp_path):
    net = cnn()
    net.set_train(True)
    x = image()
    gc = export_and_load(net, x, path=tmp_path / 'cnn')
    assert net.training and all(c.training for _, c in net.cells_and_names())   # restored
    net.set_train(False)
    np.testing.assert_array_equal(gc(x).asnumpy(), net(x).asnumpy())
    assert [n for n, _ in gc.parameters_and_names()] == [
        '0.weight', '1.gamma', '1.beta', '1.moving_mean', '1.moving_variance', '5.weight',
        '5.bias']
    assert not gc.parameters_dict()['1.moving_mean'].requires_grad
    assert repr(gc) == 'GraphCell()'


def test_many_ops_inputs_and_output_structures(tmp_path):
    net = Mixed()
    ids = ms.Tensor(rng.integers(0, 10, (2, 6)).astype(np.int32))
    extra = ms.Tensor(np.ones(3, np.float32))
    gc = export_and_load(net, ids, extra, 2.0, path=tmp_path / 'mixed')
    want, got = net(ids, extra, 2.0), gc(ids, extra)       # 2.0 is fixed in the program
    assert list(got) == ['out', 'parts'] and isinstance(got['parts'], list)
    np.testing.assert_array_equal(got['out'].asnumpy(), want['out'].asnumpy())
    for a, b in zip(got['parts'], want['parts']):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_returned_constants_and_detached_values(tmp_path):
    class Net(nn.Cell):
        def construct(self, x):
            return x.detach() * 2, ms.Tensor(3.0), 7, None

    x = ms.Tensor(np.ones((2, 3), np.float32))
    a, b, c, d = export_and_load(Net(), x, path=tmp_path / 'consts')(x)
    assert a.tolist() == [[2.0] * 3] * 2 and b.shape == () and b.item() == 3.0
    assert (c, d) == (7, None)


def test_a_loaded_network_computes_gradients_like_the_original(tmp_path):
    net = nn.SequentialCell([nn.Dense(3, 4), nn.Tanh(), nn.Dense(4, 2)])
    x = ms.Tensor(rng.random((5, 3)).astype(np.float32))
    gc = export_and_load(net, x, path=tmp_path / 'mlp')
    want = ms.grad(lambda x: net(x).sum(), 0, net.trainable_params())(x)
    got = ms.grad(lambda x: gc(x).sum(), 0, gc.trainable_params())(x)
    np.testing.assert_array_equal(got[0].asnumpy(), want[0].asnumpy())
    for a, b in zip(got[1], want[1]):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_a_loaded_network_runs_under_jit_and_with_hooks(tmp_path):
    x = image()
    net = cnn()
    gc = export_and_load(net, x, path=tmp_path / 'cnn')
    net.set_train(False)
    jitted = ms.jit(gc)
    for _ in range(2):
        np.testing.assert_array_equal(jitted(x).asnumpy(), net(x).asnumpy())
    assert jitted.traces == 1 and jitted.replays == 1
    seen = []
    gc.register_forward_hook(lambda cell, inputs, output: seen.append(output.shape))
    gc(x)
    assert seen == [(2, 4)]


def test_graph_cells_share_the_graphs_parameters(tmp_path):
    net = nn.Dense(3, 2)
    x = ms.Tensor(np.ones((4, 3), np.float32))
    ms.export(net, x, file_name=str(tmp_path / 'dense'), file_format='HOOKGRAD')
    graph = ms.load(str(tmp_path / 'dense.hookgrad'))
    assert isinstance(graph, FuncGraph) and list(graph.parameters) == ['weight', 'bias']
    assert graph.inputs == [((4, 3), ms.float32)]
    first = GraphCell(graph)
    second = GraphCell(graph, params_init={'weight': ms.Tensor(np.zeros((2, 3), np.float32)),
                                           'other': ms.Tensor(1.0)})
    np.testing.assert_array_equal(first(x).asnumpy(), np.tile(net.bias.asnumpy(), (4, 1)))
    np.testing.assert_array_equal(second(x).asnumpy(), graph(x).asnumpy())
    with pytest.warns(UserWarning, match=r"\['weight'\] are not loaded"):
        ms.load_param_into_net(first, {'bias': ms.Parameter(ms.Tensor([1.0, 2.0]))})
    assert second(x).tolist() == [[1.0, 2.0]] * 4


def test_graph_cell_errors(tmp_path):
    net = nn.Dense(3, 2)
    x = ms.Tensor(np.ones((4, 3), np.float32))
    ms.export(net, x, file_name=str(tmp_path / 'dense'), file_format='HOOKGRAD')
    graph = ms.load(str(tmp_path / 'dense.hookgrad'))
    gc = GraphCell(graph)
    with pytest.raises(ValueError, match=r"GraphCell: input 0 has shape \(5, 3\) and dtype "
                                         r"Float32, but the network was exported for shape "
                                         r"\(4, 3\) and dtype Float32; export it again for "
                                         r"other inputs"):
        gc(ms.Tensor(np.ones((5, 3), np.float32)))
    with pytest.raises(ValueError, match="dtype Float64, but the network was exported for "
                                         "shape"):
        gc(ms.Tensor(np.ones((4, 3))))
    with pytest.raises(ValueError, match="GraphCell: the network was exported with 1 Tensor "
                                         "input, got 2"):
        gc(x, x)
    with pytest.raises(TypeError, match="GraphCell: input 0 must be a Tensor, got ndarray"):
        gc(np.ones((4, 3), np.float32))
    with pytest.raises(TypeError, match="GraphCell: graph must be a FuncGraph loaded by load, "
                                        "got int"):
        GraphCell(3)
    with pytest.raises(TypeError, match="GraphCell: params_init must be a dict, got list"):
        GraphCell(graph, params_init=[1])
    with pytest.raises(TypeError, match="GraphCell: params_init must map str names to Tensors "
                                        "or Parameters, got 1: Tensor"):
        GraphCell(graph, params_init={1: x})
    with pytest.raises(ValueError, match=r"GraphCell: params_init\['weight'\] has shape "
                                         r"\(3,\), the parameter \(2, 3\)"):
        GraphCell(graph, params_init={'bias': ms.Tensor([5.0, 5.0]),
                                      'weight': ms.Tensor([1.0, 2.0, 3.0])})
    assert graph.parameters['bias'].tolist() != [5.0, 5.0]      # nothing was changed
    with pytest.raises(NotImplementedError, match="GraphCell: model obfuscation "
                                                  r"\(obf_random_seed\) is not supported"):
        GraphCell(graph, obf_random_seed=1)


# ----------------------------------------------------------------- the file
def test_file_name_suffix_and_content(tmp_path):
    import safetensors
    net = nn.Dense(3, 2)
    x = ms.Tensor(np.ones((1, 3), np.float32))
    ms.export(net, x, file_name=str(tmp_path / 'a.foo'), file_format='HOOKGRAD')
    ms.export(net, x, file_name=tmp_path / 'b.hookgrad', file_format='HOOKGRAD')
    assert sorted(p.name for p in tmp_path.iterdir()) == ['a.foo.hookgrad', 'b.hookgrad']
    with safetensors.safe_open(str(tmp_path / 'b.hookgrad'), 'numpy') as f:
        meta = f.metadata()
        assert sorted(f.keys()) == ['bias', 'weight']
    assert meta['format'] == 'hookgrad.export' and meta['version'] == '1'
    program = json.loads(meta['program'])
    assert program['inputs'] == [{'slot': 0, 'shape': [1, 3], 'dtype': 'Float32'}]
    assert [s['op'] for s in program['steps']] == ['Dense']
    assert program['outputs'] == {'slot': 3}


@pytest.mark.parametrize('fmt, what', [('MINDIR', 'MindIR \\(MindSpore IR\\)'),
                                       ('AIR', 'AIR \\(Ascend IR\\)'), ('ONNX', 'ONNX')])
def test_mindspore_formats_are_out_of_scope(tmp_path, fmt, what):
    with pytest.raises(ValueError, match=f"export: file_format '{fmt}' is not supported: "
                                         f"hookgrad does not write {what} files \\(MindIR, AIR "
                                         f"and ONNX are out of its scope\\); use "
                                         f"file_format='HOOKGRAD', hookgrad's own format, which "
                                         f"ms.load reads back \\(docs/checkpoints.md\\)"):
        ms.export(nn.Dense(1, 1), ms.Tensor([[1.0]]), file_name=str(tmp_path / 'n'),
                  file_format=fmt)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize('kwargs, error, msg', [
    (dict(file_format='mindir'), ValueError,
     "export: file_format must be 'HOOKGRAD' \\(hookgrad's format\\), got 'mindir'"),
    (dict(file_format=3), TypeError, "export: file_format must be a str, got int"),
    (dict(file_format='HOOKGRAD', enc_key=b'k' * 16), ValueError,
     "export: encryption is not supported \\(enc_key must be None\\)"),
    (dict(file_format='HOOKGRAD', enc_mode=1), TypeError, "export: enc_mode must be a str"),
    (dict(file_format='HOOKGRAD', incremental=1), TypeError,
     "export: incremental must be a bool, got 1"),
    (dict(file_format='HOOKGRAD', dataset=[1]), ValueError,
     "export: dataset is not supported: a hookgrad export holds the network only"),
    (dict(file_format='HOOKGRAD', custom_func=print), ValueError,
     "export: custom_func is not supported: it edits a MindIR proto"),
    (dict(file_format='HOOKGRAD', obf_config={}), TypeError,
     "export: unexpected keyword argument 'obf_config'"),
])
def test_export_argument_errors(tmp_path, kwargs, error, msg):
    with pytest.raises(error, match=msg):
        ms.export(nn.Dense(1, 1), ms.Tensor([[1.0]]), file_name=str(tmp_path / 'n'), **kwargs)
    assert list(tmp_path.iterdir()) == []


def test_export_input_and_path_errors(tmp_path):
    net, x = nn.Dense(1, 1), ms.Tensor([[1.0]])
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: "
                                        "'file_format'"):
        ms.export(net, x, file_name='n')
    with pytest.raises(TypeError, match="export: net must be a Cell or a function, got int"):
        ms.export(3, x, file_name=str(tmp_path / 'n'), file_format='HOOKGRAD')
    with pytest.raises(TypeError, match=r"export: inputs\[1\]\[0\] must be a Tensor, a number, "
                                        r"a str, None, or a tuple/list of them, got dict"):
        ms.export(net, x, [{}], file_name=str(tmp_path / 'n'), file_format='HOOKGRAD')
    with pytest.raises(TypeError, match="export: file_name must be a str or path-like, got int"):
        ms.export(net, x, file_name=3, file_format='HOOKGRAD')
    with pytest.raises(FileNotFoundError, match="export: the directory '.*nowhere' of"):
        ms.export(net, x, file_name=str(tmp_path / 'nowhere' / 'n'), file_format='HOOKGRAD')


# ----------------------------------------------------------------- forwards that cannot be exported
class Assign(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name='p')

    def construct(self, x):
        ops.assign(self.p, x[0])
        return x + self.p


class SetItem(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[0] = 5.0
        return y


class Branch(nn.Cell):
    def construct(self, x):
        return x if x.sum() > 0 else -x


class Switch(nn.Cell):
    def construct(self, x):
        with ms.no_grad():
            return x * 2


class Scaled(Op):
    """y = x * scale(), with a function as parameter."""

    @staticmethod
    def forward(ctx, x, scale):
        return x * scale()

    @staticmethod
    def backward(ctx, gy):
        return (gy,)


class CallsScaled(nn.Cell):
    def construct(self, x):
        return Scaled.apply(x, scale=lambda: 2.0)


def hooked():
    net = nn.Dense(3, 3)
    net.register_forward_hook(lambda cell, inputs, output: None)
    return net


@pytest.mark.parametrize('make, msg', [
    (hooked, r"it runs a hook \('hookgrad\.hooks\.cell_hooks\._forward_hook'\), which an "
             r"exported program does not replay; remove hooks and in-place updates from the "
             r"predict-mode forward"),
    (Assign, r"it runs an in-place assignment \('hookgrad\.ops\.creation\._assign'\)"),
    (SetItem, r"it runs an in-place assignment \('hookgrad\.ops\.indexing\._write'\)"),
    (Branch, r"Python code reads the values of a tensor the call depends on \(\.item\(\), "
             r"\.asnumpy\(\), bool\(\), a shape or index taken from a tensor\.\.\.\) \(at "
             r".*test_export\.py:\d+\)"),
    (Switch, r"it switches grad mode \(no_grad / enable_grad\), which an exported program "
             r"does not replay"),
    (CallsScaled, r"op 'Scaled' parameter 'scale' is a function \(<function CallsScaled"),
])
def test_forwards_that_cannot_be_exported_say_why(tmp_path, make, msg):
    x = ms.Tensor(np.ones((3, 3), np.float32))
    with pytest.raises(ValueError, match="export: the forward cannot be exported: " + msg):
        ms.export(make(), x, file_name=str(tmp_path / 'n'), file_format='HOOKGRAD')
    assert list(tmp_path.iterdir()) == []


def test_loading_an_op_this_hookgrad_lacks(tmp_path, monkeypatch):
    from hookgrad.autograd.function import OPS

    class Halve(nn.Cell):
        def construct(self, x):
            return ScaleBy.apply(x, factor=0.5)

    x = ms.Tensor(np.ones(2, np.float32))
    ms.export(Halve(), x, file_name=str(tmp_path / 'h'), file_format='HOOKGRAD')
    assert GraphCell(ms.load(str(tmp_path / 'h.hookgrad')))(x).tolist() == [0.5, 0.5]
    monkeypatch.delitem(OPS, 'ScaleBy')
    with pytest.raises(RuntimeError, match="load: '.*h.hookgrad' uses op 'ScaleBy', which is "
                                           "not registered in this hookgrad; import the module "
                                           "that defines it before loading"):
        ms.load(str(tmp_path / 'h.hookgrad'))


class ScaleBy(Op):
    """y = x * factor."""

    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, gy):
        return (gy * ctx.factor,)


# ----------------------------------------------------------------- load errors
@pytest.fixture
def exported(tmp_path):
    ms.export(nn.Dense(3, 2), ms.Tensor(np.ones((1, 3), np.float32)),
              file_name=str(tmp_path / 'd'), file_format='HOOKGRAD')
    return tmp_path / 'd.hookgrad'


def test_load_argument_errors(tmp_path, exported):
    with pytest.raises(ValueError, match="load: file_name must be a str or path-like, got int"):
        ms.load(3)
    with pytest.raises(ValueError, match="load: the file '.*nope.hookgrad' does not exist"):
        ms.load(str(tmp_path / 'nope.hookgrad'))
    with pytest.raises(ValueError, match=r"load: decryption is not supported \(dec_key must be "
                                         r"None\)"):
        ms.load(exported, dec_key=b'k' * 16)
    with pytest.raises(TypeError, match="load: dec_mode must be a str, got int"):
        ms.load(exported, dec_mode=1)
    with pytest.raises(NotImplementedError, match=r"load: model obfuscation \(obf_func\) is not "
                                                  r"supported"):
        ms.load(exported, obf_func=print)
    with pytest.raises(TypeError, match="load: unexpected keyword argument 'x'"):
        ms.load(exported, x=1)


def test_load_refuses_other_files(tmp_path, exported):
    mindir = tmp_path / 'net.mindir'
    mindir.write_bytes(b'\x0a\x05proto-bytes')
    with pytest.raises(RuntimeError, match=r"load: '.*net.mindir' is not a readable hookgrad "
                                           r"export \(damaged or another format\)"):
        ms.load(str(mindir))
    ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'p.ckpt')      # MindSpore's protobuf
    with pytest.raises(RuntimeError, match=r"load: '.*p.ckpt' is not a readable hookgrad "
                                           r"export \(damaged or another format\)"):
        ms.load(str(tmp_path / 'p.ckpt'))
    ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'w.safetensors', format='safetensors')
    with pytest.raises(RuntimeError, match=r"load: '.*w.safetensors' is not a network exported by "
                                           r"hookgrad \(MindIR, AIR and ONNX files are not "
                                           r"read\); export it with ms.export\(net, \*inputs, "
                                           r"file_name=\.\.\., file_format='HOOKGRAD'\)"):
        ms.load(str(tmp_path / 'w.safetensors'))
    data = exported.read_bytes()
    (tmp_path / 'cut.hookgrad').write_bytes(data[:len(data) - 5])
    with pytest.raises(RuntimeError, match="is not a readable hookgrad export"):
        ms.load(str(tmp_path / 'cut.hookgrad'))


def _rewrite(path, program=None, version='1', tensors=None):
    import safetensors
    import safetensors.numpy
    with safetensors.safe_open(str(path), 'numpy') as f:
        meta = f.metadata()
        arrays = {k: f.get_tensor(k) for k in f.keys()}
    meta['version'] = version
    if program is not None:
        meta['program'] = program(json.loads(meta['program']))
    if tensors is not None:
        arrays = tensors(arrays)
    path.write_bytes(safetensors.numpy.save(arrays, metadata=meta))


def test_load_detects_damage(exported):
    _rewrite(exported, tensors=lambda a: dict(a, bias=a['bias'] + 1))
    with pytest.raises(RuntimeError, match=r"load: '.*d.hookgrad' is damaged: ValueError: "
                                           r"tensor 'bias' does not match its record \(dtype "
                                           r"Float32, CRC32\)"):
        ms.load(exported)


def test_load_detects_a_damaged_program(exported):
    _rewrite(exported, program=lambda p: json.dumps(dict(p, steps=[{'in': [0]}])))
    with pytest.raises(RuntimeError, match="load: '.*d.hookgrad' is damaged: KeyError: 'op'"):
        ms.load(exported)


def test_load_refuses_a_newer_version(exported):
    _rewrite(exported, version='2')
    with pytest.raises(RuntimeError, match="load: '.*d.hookgrad' has export format version "
                                           "'2'; this hookgrad reads version '1'"):
        ms.load(exported)


def test_mindspore_paths():
    from hookgrad.train import serialization
    assert serialization.export is ms.export and serialization.load is ms.load
    assert ms.train.export is ms.export and ms.train.load is ms.load
