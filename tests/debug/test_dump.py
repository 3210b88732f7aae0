"""dump / dump_step / compare: the index layout and its values, a planted one-layer difference
found as the first divergence, metrics against NumPy, hygiene, and every error."""
import gc
import json
import os
import pathlib
import re
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import dump, dump_step, compare, Comparison, DumpRow, dump_format
from hookgrad.debug.dump import _metrics


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 6)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(6, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def make_mlp(seed=0):
    ms.set_seed(seed)
    return MLP()


def inputs():
    rng = np.random.default_rng(0)
    return ms.Tensor(rng.normal(size=(5, 4)).astype(np.float32)), \
        ms.Tensor(rng.integers(0, 3, 5).astype(np.int32))


def read_index(directory):
    with open(os.path.join(directory, 'index.json')) as f:
        return json.load(f)


def arrays(directory):
    return {(e['cell'], e['kind'], e['call'], e['index']): np.load(os.path.join(directory,
                                                                                 e['file']))
            for e in read_index(directory)['entries']}


def test_index_layout_order_and_values(tmp_path):
    net = make_mlp()
    x, y = inputs()
    loss = dump(net, tmp_path / 'a', x, loss_fn=nn.CrossEntropyLoss(), target=y, step=7)
    index = read_index(tmp_path / 'a')
    assert index['format'] == 'hookgrad-dump' and index['version'] == 1
    assert index['step'] == 7 and index['complete'] is True
    keys = [(e['cell'], e['kind'], e['call'], e['index']) for e in index['entries']]
    assert keys == [('', 'input', 0, 0), ('fc1', 'input', 0, 0), ('fc1', 'output', 0, 0),
                    ('relu', 'input', 0, 0), ('relu', 'output', 0, 0), ('fc2', 'input', 0, 0),
                    ('fc2', 'output', 0, 0), ('', 'output', 0, 0),
                    ('', 'grad_output', 0, 0), ('fc2', 'grad_output', 0, 0),
                    ('fc2', 'grad_input', 0, 0), ('relu', 'grad_output', 0, 0),
                    ('relu', 'grad_input', 0, 0), ('fc1', 'grad_output', 0, 0),
                    ('fc1', 'grad_input', 0, 0), ('', 'grad_input', 0, 0)]
    assert index['entries'][2]['type'] == 'Dense' and index['entries'][0]['type'] == 'MLP'
    assert index['entries'][2]['shape'] == [5, 6] and index['entries'][2]['dtype'] == 'float32'
    assert sorted(os.listdir(tmp_path / 'a')) == sorted([e['file'] for e in index['entries']]
                                                         + ['index.json'])
    # values against NumPy and against ms.grad
    got = arrays(tmp_path / 'a')
    w1, b1 = net.fc1.weight.asnumpy(), net.fc1.bias.asnumpy()
    h = x.asnumpy() @ w1.T + b1
    np.testing.assert_allclose(got[('fc1', 'output', 0, 0)], h, rtol=1e-6)
    np.testing.assert_array_equal(got[('relu', 'output', 0, 0)], np.maximum(h, 0))
    loss_fn = nn.CrossEntropyLoss()
    gx = ms.grad(lambda t: loss_fn(net(t), y))(x)
    np.testing.assert_allclose(got[('', 'grad_input', 0, 0)], gx.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(float(loss.asnumpy()), float(loss_fn(net(x), y).asnumpy()))
    assert not loss.requires_grad
    # capture mode: no parameter gradient was touched, nothing is left registered
    assert all(p.grad is None for p in net.trainable_params()) and net.hooks() == []


def test_identical_parameters_give_no_divergence(tmp_path):
    x, y = inputs()
    dump(make_mlp(), tmp_path / 'a', x, loss_fn=nn.CrossEntropyLoss(), target=y)
    dump(make_mlp(), tmp_path / 'b', x, loss_fn=nn.CrossEntropyLoss(), target=y)
    result = compare(tmp_path / 'a', tmp_path / 'b')
    assert isinstance(result, Comparison) and result.ok
    assert result.first_divergence is None and result.diverged == []
    assert len(result.rows) == 16 and result.missing == [] and result.extra == []
    assert all(r.max_abs_diff == 0 and r.allclose_ratio == 1 and r.ok for r in result.rows)
    assert 'first divergence: none' in str(result)


def test_a_planted_one_layer_difference_is_the_first_divergence(tmp_path):
    x, y = inputs()
    a, b = make_mlp(), make_mlp()
    w = b.fc2.weight.asnumpy().copy()
    w[1, 2] += 1e-3
    b.fc2.weight.set_data(ms.Tensor(w))
    dump(a, tmp_path / 'a', x, loss_fn=nn.CrossEntropyLoss(), target=y)
    dump(b, tmp_path / 'b', x, loss_fn=nn.CrossEntropyLoss(), target=y)
    result = compare(tmp_path / 'a', tmp_path / 'b')
    first = result.first_divergence
    assert (first.cell, first.kind, first.call, first.index) == ('fc2', 'output', 0, 0)
    rows = {(r.cell, r.kind): r for r in result.rows}
    assert rows[('fc2', 'input')].ok and rows[('fc1', 'output')].ok
    assert not rows[('', 'output')].ok and not result.ok
    assert not rows[('fc2', 'grad_input')].ok        # the backward through fc2 differs too
    # every metric against NumPy on the stored arrays
    got_a, got_b = arrays(tmp_path / 'a'), arrays(tmp_path / 'b')
    for r in result.rows:
        u = got_a[(r.cell, r.kind, r.call, r.index)].astype(np.float64).ravel()
        v = got_b[(r.cell, r.kind, r.call, r.index)].astype(np.float64).ravel()
        assert r.max_abs_diff == pytest.approx(np.abs(u - v).max(), abs=0)
        assert r.allclose_ratio == pytest.approx(np.mean(np.abs(u - v) <= 1e-6 + 1e-5 * np.abs(v)))
        cos = u @ v / (np.linalg.norm(u) * np.linalg.norm(v))
        assert r.cosine == pytest.approx(cos, rel=1e-12)
    assert 0 < rows[('fc2', 'output')].allclose_ratio < 1
    text = str(result)
    assert text.splitlines()[0].endswith('16 tensors, 10 differ, 0 missing, 0 extra')
    assert 'first divergence: fc2 output[0] call 0' in text
    assert any(line.startswith('fc2') and 'output' in line and line.endswith('DIFFERS')
               for line in text.splitlines())
    assert repr(result) == "<Comparison 16 tensors, 10 differ, first_divergence='fc2 output[0] " \
                           "call 0'>"
    # a looser tolerance accepts the difference
    assert compare(tmp_path / 'a', tmp_path / 'b', rtol=0, atol=1e-2).ok


class Reuse(nn.Cell):
    """A cell called twice, a tuple output and a None input."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3)
        self.pair = Pair()

    def construct(self, x):
        h = self.fc(self.fc(x))
        a, b = self.pair(h, None, x)
        return a + b


class Pair(nn.Cell):
    def construct(self, u, nothing, v):
        return u * 2, v - 1


def test_calls_tuples_and_non_tensors(tmp_path):
    ms.set_seed(0)
    net = Reuse()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with dump_step(net, tmp_path / 'a') as d:
        out = net(x)
        out.sum().backward()
    keys = [(e['cell'], e['kind'], e['call'], e['index']) for e in d.entries]
    assert [k for k in keys if k[0] == 'fc'] == [
        ('fc', 'input', 0, 0), ('fc', 'output', 0, 0), ('fc', 'input', 1, 0),
        ('fc', 'output', 1, 0), ('fc', 'grad_output', 0, 0), ('fc', 'grad_input', 0, 0),
        ('fc', 'grad_output', 1, 0), ('fc', 'grad_input', 1, 0)]
    assert [k for k in keys if k[0] == 'pair'] == [
        ('pair', 'input', 0, 0), ('pair', 'input', 0, 2), ('pair', 'output', 0, 0),
        ('pair', 'output', 0, 1), ('pair', 'grad_output', 0, 0), ('pair', 'grad_output', 0, 1),
        ('pair', 'grad_input', 0, 0), ('pair', 'grad_input', 0, 2)]
    got = arrays(tmp_path / 'a')
    first = got[('fc', 'output', 0, 0)]
    np.testing.assert_array_equal(got[('fc', 'input', 1, 0)], first)
    # backward reaches the second call first
    np.testing.assert_array_equal(got[('fc', 'grad_input', 0, 0)],
                                  got[('fc', 'grad_output', 1, 0)])
    assert read_index(tmp_path / 'a')['entries'] == d.entries and net.hooks() == []


def test_missing_and_extra_entries_and_shape_mismatch(tmp_path):
    net = make_mlp()
    x, y = inputs()
    dump(net, tmp_path / 'full', x, loss_fn=nn.CrossEntropyLoss(), target=y)
    with dump_step(net, tmp_path / 'forward'):
        net(x)
    result = compare(tmp_path / 'full', tmp_path / 'forward')
    assert len(result.rows) == 8 and result.first_divergence is None and not result.ok
    assert result.missing[0] == ('', 'grad_output', 0, 0) and len(result.missing) == 8
    assert 'missing from the second dump: (root) grad_output[0] call 0' in str(result)
    back = compare(tmp_path / 'forward', tmp_path / 'full')
    assert back.extra == result.missing and back.missing == []
    assert 'only in the second dump: (root) grad_output[0]' in str(back)
    with dump_step(net, tmp_path / 'batch3'):
        net(x[:3])
    shapes = compare(tmp_path / 'forward', tmp_path / 'batch3')
    first = shapes.first_divergence
    assert first == DumpRow('', 'input', 0, 0, (5, 4), (3, 4), first.max_abs_diff, 0.0,
                            first.cosine, False)
    assert np.isnan(first.max_abs_diff) and np.isnan(first.cosine)
    assert '5x4 vs 3x4' in str(shapes)


def test_a_third_party_dump_with_only_the_required_fields(tmp_path):
    """A writer in another framework needs only cell, kind, call, index and file."""
    net = make_mlp()
    x, _ = inputs()
    dump(net, tmp_path / 'ours', x)
    other = tmp_path / 'theirs'
    other.mkdir()
    entries = []
    w1, b1 = net.fc1.weight.asnumpy(), net.fc1.bias.asnumpy()
    for cell, kind, value in (('fc1', 'input', x.asnumpy()),
                              ('fc1', 'output', x.asnumpy() @ w1.T + b1)):
        np.save(other / f'{cell}-{kind}.npy', value.astype(np.float64))
        entries.append({'cell': cell, 'kind': kind, 'call': 0, 'index': 0,
                        'file': f'{cell}-{kind}.npy'})
    (other / 'index.json').write_text(json.dumps({'format': 'hookgrad-dump', 'version': 1,
                                                  'entries': entries}))
    result = compare(other, tmp_path / 'ours')
    assert [(r.cell, r.kind, r.ok) for r in result.rows] == [('fc1', 'input', True),
                                                             ('fc1', 'output', True)]
    assert result.missing == [] and len(result.extra) == 14
    assert 'fc1' in dump_format and '"version": 1' in dump_format


def test_metrics_edge_cases():
    nan, inf = np.nan, np.inf
    assert _metrics(np.array([1.0, nan, inf]), np.array([1.0, nan, inf]), 0, 0)[:2] == (0.0, 1.0)
    d, ratio, cos, ok = _metrics(np.array([1.0, nan]), np.array([1.0, 2.0]), 0, 0)
    assert ratio == 0.5 and not ok and np.isnan(d)
    assert _metrics(np.zeros(3), np.zeros(3), 0, 0) == (0.0, 1.0, 1.0, True)
    assert _metrics(np.zeros(3), np.ones(3), 0, 0)[2] == 0.0
    assert _metrics(np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0, 0)[2] == 0.0
    assert _metrics(np.zeros((0, 2)), np.zeros((0, 2)), 0, 0) == (0.0, 1.0, 1.0, True)
    assert _metrics(np.array([1, 2], np.int32), np.array([1.0, 2.5]), 0, 0.4)[:2] == (0.5, 0.5)


def test_hooks_are_removed_after_an_exception_and_the_partial_index_is_written(tmp_path):
    net = make_mlp()
    x, _ = inputs()
    with pytest.raises(ValueError, match='planted'):
        with dump_step(net, tmp_path / 'a'):
            net(x)
            raise ValueError('planted')
    assert net.hooks() == []
    index = read_index(tmp_path / 'a')
    assert index['complete'] is False and len(index['entries']) == 8
    with pytest.raises(ValueError, match="input of shape .5, 3. does not match"):
        dump(net, tmp_path / 'b', ms.Tensor(np.ones((5, 3), np.float32)))
    assert net.hooks() == [] and read_index(tmp_path / 'b')['complete'] is False


def test_the_tool_holds_no_network_and_no_tensor(tmp_path):
    net = make_mlp()
    x, _ = inputs()
    step = dump_step(net, tmp_path / 'a')
    with step:
        out = net(x)
        ref_out = weakref.ref(out)
        out.sum().backward()
        del out
        gc.collect()
        assert ref_out() is None
    ref_net = weakref.ref(net)
    del net
    gc.collect()
    assert ref_net() is None and len(step.entries) == 16
    with pytest.raises(RuntimeError, match="the network was deleted"):
        with dump_step(make_mlp(), tmp_path / 'b'):
            pass


def test_dump_errors(tmp_path):
    net = make_mlp()
    x, _ = inputs()
    (tmp_path / 'file').write_text('')
    with pytest.raises(TypeError, match="dump_step: net must be a Cell, got function"):
        dump_step(make_mlp, tmp_path / 'a')
    with pytest.raises(TypeError, match="directory must be a str or path, got int"):
        dump_step(net, 3)
    with pytest.raises(TypeError, match="step must be an int, got float"):
        dump_step(net, tmp_path / 'a', step=1.0)
    with pytest.raises(ValueError, match="step must be >= 0, got -1"):
        dump_step(net, tmp_path / 'a', step=-1)
    with pytest.raises(NotADirectoryError, match="'.*file' exists and is not a directory"):
        dump_step(net, tmp_path / 'file')
    dump(net, tmp_path / 'a', x)
    with pytest.raises(FileExistsError, match="already holds a dump .index.json.; use a new "
                                              "directory"):
        dump(net, tmp_path / 'a', x)
    step = dump_step(net, tmp_path / 'b')
    with step:
        pass
    with pytest.raises(RuntimeError, match="a dump_step can be entered once"):
        with step:
            pass
    with pytest.raises(TypeError, match="dump: expected at least one input"):
        dump(net, tmp_path / 'c')
    with pytest.raises(TypeError, match="loss_fn must be callable or None, got str"):
        dump(net, tmp_path / 'c', x, loss_fn='mse')
    assert not (tmp_path / 'c').exists() and net.hooks() == []


def test_compare_errors(tmp_path):
    net = make_mlp()
    x, _ = inputs()
    good = tmp_path / 'good'
    dump(net, good, x)
    with pytest.raises(FileNotFoundError, match="no dump directory '.*nowhere'"):
        compare(tmp_path / 'nowhere', good)
    (tmp_path / 'empty').mkdir()
    with pytest.raises(FileNotFoundError, match="'.*empty' holds no index.json; it is not a "
                                                "dump"):
        compare(good, tmp_path / 'empty')
    with pytest.raises(TypeError, match="a dump directory must be a str or path, got NoneType"):
        compare(None, good)
    with pytest.raises(ValueError, match="rtol must be a number >= 0, got -1"):
        compare(good, good, rtol=-1)
    with pytest.raises(ValueError, match="atol must be a number >= 0, got nan"):
        compare(good, good, atol=float('nan'))

    def broken(name, text):
        d = tmp_path / name
        d.mkdir()
        (d / 'index.json').write_text(text)
        return d

    with pytest.raises(ValueError, match="is not valid JSON"):
        compare(good, broken('json', '{'))
    with pytest.raises(ValueError, match='is not a dump index .expected "format": '
                                         '"hookgrad-dump".'):
        compare(good, broken('format', '{"format": "other"}'))
    with pytest.raises(ValueError, match="has version 2, this hookgrad reads version 1"):
        compare(good, broken('version', '{"format": "hookgrad-dump", "version": 2}'))
    head = '{"format": "hookgrad-dump", "version": 1, '
    with pytest.raises(ValueError, match="has no list of entries"):
        compare(good, broken('entries', head + '"entries": {}}'))
    with pytest.raises(ValueError, match="entry 0 of .* lacks call, file"):
        compare(good, broken('fields', head + '"entries": [{"cell": "", "kind": "input", '
                                              '"index": 0}]}'))
    entry = '{"cell": "fc1", "kind": "%s", "call": 0, "index": 0, "file": "f.npy"}'
    with pytest.raises(ValueError, match="entry 0 of .* has kind 'weight', expected one of "
                                         "input, output, grad_output, grad_input"):
        compare(good, broken('kind', head + '"entries": [%s]}' % (entry % 'weight')))
    with pytest.raises(ValueError, match="lists fc1 input.0. call 0 twice"):
        compare(good, broken('twice', head + '"entries": [%s, %s]}' % (entry % 'input',
                                                                       entry % 'input')))
    lost = tmp_path / 'lost'
    dump(net, lost, x)
    os.remove(lost / read_index(lost)['entries'][3]['file'])
    with pytest.raises(FileNotFoundError, match="'.*_relu_input_0_0.npy' listed in the index of "
                                                "'.*lost' is missing"):
        compare(good, lost)


def test_the_documented_pytorch_writer_agrees_with_dump(tmp_path):
    """The snippet of docs/debugging.md, run on a PyTorch copy of the MLP."""
    torch = pytest.importorskip('torch')
    text = (pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'debugging.md').read_text()
    code = next(b for b in re.findall(r"```python\n(.*?)\n```", text, re.S)
                if 'def torch_dump(' in b)
    scope = {}
    exec(code, scope)

    class TorchMLP(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.relu, self.fc2 = torch.nn.Linear(4, 6), torch.nn.ReLU(), \
                torch.nn.Linear(6, 3)

        def forward(self, x):
            return self.fc2(self.relu(self.fc1(x)))

    net, tnet = make_mlp(), TorchMLP()
    with torch.no_grad():
        for (_, p), t in zip(net.parameters_and_names(), tnet.parameters()):
            t.copy_(torch.from_numpy(p.asnumpy()))
    x, y = inputs()
    dump(net, tmp_path / 'ms', x, loss_fn=nn.CrossEntropyLoss(), target=y)
    scope['torch_dump'](tnet, tmp_path / 'pt', torch.from_numpy(x.asnumpy()).requires_grad_(),
                        loss_fn=torch.nn.CrossEntropyLoss(),
                        target=torch.from_numpy(y.asnumpy().astype(np.int64)))
    result = compare(tmp_path / 'ms', tmp_path / 'pt', rtol=1e-4, atol=1e-6)
    assert result.ok and len(result.rows) == 16, str(result)
