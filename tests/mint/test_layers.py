"""``mindspore.mint.nn`` layers: forward (and batch norm's moved statistics) against MindSpore
2.10's values, gradients against central differences, the parameters and the Cell they are."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint
from tests.mint import layer_cases
from hookgrad.kernels import backend
from tests.mint.test_functions import DEVICES, check

with open(os.path.join(os.path.dirname(__file__), 'mindspore_values.json')) as f:
    RECORDED = json.load(f)


def build(name):
    """The case's layer with its parameters set as the recorder set MindSpore's."""
    make, inputs, train = layer_cases.LAYERS[name]      # name: 'Layer' or 'Layer#form'
    layer = make(mint.nn)
    params = sorted(layer.parameters_and_names(), key=lambda item: item[0])
    for pname, p in params:
        p.set_data(ms.Tensor(layer_cases.parameter_values(pname, p.shape)).astype(p.dtype))
    layer.set_train(train)
    return layer, params, inputs


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('name', list(layer_cases.LAYERS))
def test_layer_matches_mindspore(name, device):
    record = RECORDED[f'mint.nn.{name}']
    if record['source'] is None:
        pytest.skip(f"MindSpore 2.10 on the CPU cannot compute mint.nn.{name}: "
                    f"{record['error']}")
    precision = ms.device_context.gpu.op_precision
    precision.conv_allow_tf32(False)        # TF32 (a GPU's default) rounds convolutions
    try:
        with backend.default_device(DEVICES[device]):
            layer, params, inputs = build(name)
            assert isinstance(layer, ms.nn.Cell)
            out = layer(*(ms.Tensor(x) for x in inputs))
    finally:
        precision.conv_allow_tf32(True)
    check([out, [p for _, p in params]], record['value'], f'mint.nn.{name}',
          record['source'] == 'mint')


def test_reflection_pad3d_pads_each_of_the_last_three_dimensions():
    # MindSpore 2.10 has no CPU kernel for 3-D reflection: NumPy's reflect is the reference
    x = layer_cases.VOL
    out = mint.nn.ReflectionPad3d(1)(ms.Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), np.pad(x, [(0, 0)] * 2 + [(1, 1)] * 3,
                                                        'reflect'))


GRAD_LAYERS = ['Linear', 'Conv1d', 'Conv2d', 'Conv3d', 'ConvTranspose2d', 'BatchNorm2d',
               'SyncBatchNorm', 'LayerNorm', 'GroupNorm', 'Embedding', 'PReLU', 'Unfold', 'Fold',
               'CrossEntropyLoss', 'MaxPool2d', 'AvgPool3d', 'UpsamplingBilinear2d']


def central_difference(loss, get, put, k, step=1e-2):
    """``d loss / d element k`` of the array ``get()`` (written back with ``put``)."""
    flat = get().reshape(-1)
    shifted = []
    for delta in (step, -step):
        value = flat.copy()
        value[k] += delta
        put(value)
        shifted.append(loss())
    put(flat)
    return (shifted[0] - shifted[1]) / (2 * step)


@pytest.mark.parametrize('name', GRAD_LAYERS)
def test_layer_gradients_match_central_differences(name):
    layer, params, inputs = build(name)
    trainable = [p for _, p in params if p.requires_grad]
    x = [ms.Tensor(a) for a in inputs]
    skip = 3 if name == 'Embedding' else 0      # the padding row: no gradient by design
    shape = layer(*x).shape
    weights = np.cos(np.arange(int(np.prod(shape)))).reshape(shape)

    def loss():
        return float((layer(*x).asnumpy().astype(np.float64) * weights).sum())

    def objective(*args):
        return (layer(*args) * ms.Tensor(weights.astype(np.float32))).sum()

    differentiable_input = inputs[0].dtype.kind == 'f'
    grads = ms.grad(objective, grad_position=0 if differentiable_input else None,
                    weights=trainable)(*x)
    if differentiable_input:
        gx, grads = grads
        data = inputs[0]

        def put(value):
            x[0] = ms.Tensor(value.reshape(data.shape))
        for k in range(0, data.size, max(1, data.size // 7)):
            if name == 'PReLU' and abs(data.flat[k]) < 0.02:
                continue                # the kink at 0
            np.testing.assert_allclose(
                gx.asnumpy().reshape(-1)[k], central_difference(loss, lambda: data, put, k),
                rtol=2e-3, atol=2e-3, err_msg=f'{name} input[{k}]')
        x[0] = ms.Tensor(data)
    for p, g in zip(trainable, grads):
        def put(value, p=p):
            p.set_data(ms.Tensor(value.reshape(p.shape)))
        for k in range(skip, p.size, max(1, p.size // 5)):
            np.testing.assert_allclose(
                g.asnumpy().reshape(-1)[k],
                central_difference(loss, lambda p=p: p.asnumpy(), put, k),
                rtol=2e-3, atol=2e-3, err_msg=f'{name}.{p.name}[{k}]')


def test_grid_sample_gradients_reach_the_input_and_the_grid():
    from tests.mint.cases import GRID, IMG
    F = mint.nn.functional
    w = np.cos(np.arange(2 * 4 * 3 * 4)).reshape(2, 4, 3, 4)
    for mode, padding, align in (('bilinear', 'zeros', False), ('bilinear', 'reflection', True),
                                 ('bilinear', 'border', False)):
        args = [ms.Tensor(IMG), ms.Tensor(GRID)]

        def loss():
            out = F.grid_sample(*args, mode, padding, align).asnumpy().astype(np.float64)
            return float((out * w).sum())
        grads = ms.grad(lambda a, g: (F.grid_sample(a, g, mode, padding, align)
                                      * ms.Tensor(w.astype(np.float32))).sum(),
                        grad_position=(0, 1))(*args)
        for i, data in enumerate((IMG, GRID)):
            def put(value, i=i, data=data):
                args[i] = ms.Tensor(value.reshape(data.shape).astype(np.float32))
            for k in range(0, data.size, max(1, data.size // 9)):
                np.testing.assert_allclose(
                    grads[i].asnumpy().reshape(-1)[k],
                    central_difference(loss, lambda data=data: data, put, k, 1e-3),
                    rtol=1e-2, atol=1e-2, err_msg=f'grid_sample {mode} {padding} arg {i}[{k}]')


def test_embedding_padding_row_starts_at_zero_and_gets_no_gradient():
    emb = mint.nn.Embedding(4, 2, padding_idx=1)
    np.testing.assert_array_equal(emb.weight.asnumpy()[1], [0, 0])
    grad = ms.grad(lambda i: emb(i).sum(), grad_position=None, weights=[emb.weight])(
        ms.Tensor(np.array([1, 2, 1])))[0]
    np.testing.assert_array_equal(grad.asnumpy(), [[0, 0], [0, 0], [1, 1], [0, 0]])


def test_parameters_have_mindspore_names_and_pytorch_defaults():
    bn = mint.nn.BatchNorm2d(3)
    assert sorted(n for n, _ in bn.parameters_and_names()) == \
        ['bias', 'num_batches_tracked', 'running_mean', 'running_var', 'weight']
    assert bn.momentum == 0.1 and bn.num_batches_tracked.dtype == ms.int64
    assert [n for n, _ in mint.nn.BatchNorm1d(3, affine=False).parameters_and_names()] == \
        ['running_mean', 'running_var', 'num_batches_tracked']
    conv = mint.nn.Conv2d(2, 4, 3)
    assert conv.weight.shape == (4, 2, 3, 3) and conv.bias.shape == (4,)
    assert np.abs(conv.weight.asnumpy()).max() <= 1 / np.sqrt(18)
    assert mint.nn.ConvTranspose2d(2, 3, 3).weight.shape == (2, 3, 3, 3)
    assert mint.nn.Conv1d(2, 4, 3, bias=False).bias is None
    assert [n for n, _ in mint.nn.LayerNorm(4).parameters_and_names()] == ['weight', 'bias']
    assert mint.nn.PReLU().weight.asnumpy().tolist() == [0.25]


def test_printed_forms_match_mindspore():
    assert repr(mint.nn.Conv2d(2, 4, 3)) == (
        'Conv2d(input_channels=2, output_channels=4, kernel_size=(3, 3), stride=(1, 1), '
        'padding=(0, 0), dilation=(1, 1), groups=1, bias=True)')
    assert repr(mint.nn.BatchNorm2d(3)) == (
        'BatchNorm2d(num_features=3, eps=1e-05, momentum=0.1, affine=True, '
        'track_running_stats=True)')
    assert repr(mint.nn.GroupNorm(2, 4)) == \
        'GroupNorm(num_groups=2, num_channels=4, eps=1e-05, affine=True)'


def test_batch_norm_in_eval_mode_uses_and_keeps_the_running_statistics():
    bn = mint.nn.BatchNorm2d(2).set_train(False)
    x = ms.Tensor(layer_cases.IMG[:, :2])
    np.testing.assert_allclose(bn(x).asnumpy(), layer_cases.IMG[:, :2] / np.sqrt(1 + 1e-5),
                               rtol=1e-6)
    assert bn.num_batches_tracked.asnumpy() == 0
    assert bn.running_mean.asnumpy().tolist() == [0, 0]


def test_dropout_in_training_zeros_and_rescales():
    ms.set_seed(1)
    out = mint.nn.Dropout(0.5).set_train(True)(mint.ones((1000,))).asnumpy()
    assert set(np.unique(out)) == {0.0, 2.0} and 400 < (out == 0).sum() < 600
    assert mint.nn.Dropout(0.5).set_train(False)(mint.ones((3,))).asnumpy().tolist() == [1, 1, 1]


def test_hooks_see_a_mint_layer_call():
    seen = []
    lin = mint.nn.Linear(4, 2)
    handle = lin.register_forward_hook(lambda cell, inputs, output: seen.append(output.shape))
    net = mint.nn.ReLU()
    net(lin(ms.Tensor(layer_cases.X)))
    handle.remove()
    lin(ms.Tensor(layer_cases.X))
    assert seen == [(3, 2)]


def test_max_unpool2d_layer_is_the_function():
    x = ms.Tensor(layer_cases.IMG[:, :, :4, :4])
    values, indices = mint.nn.functional.max_pool2d(x, 2, return_indices=True)
    layer = mint.nn.MaxUnpool2d(2)
    np.testing.assert_array_equal(layer(values, indices).asnumpy(),
                                  mint.nn.functional.max_unpool2d(values, indices, 2).asnumpy())
    assert isinstance(layer, ms.nn.Cell)


@pytest.mark.parametrize('device', DEVICES)
def test_reflection_pad3d_against_numpy(device):
    # MindSpore 2.10's CPU build cannot compute it (no 5-d reflect kernel): NumPy is the reference
    x = layer_cases.VOL
    with backend.default_device(DEVICES[device]):
        y = ms.mint.nn.ReflectionPad3d(1)(ms.Tensor(x))
    assert y.device.startswith(device)
    np.testing.assert_array_equal(y.asnumpy(),
                                  np.pad(x, ((0, 0), (0, 0)) + ((1, 1),) * 3, mode='reflect'))
