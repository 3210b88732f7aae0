"""MindSpore's *Ext layers (AvgPool1d/2d/3dExt, MaxPool2dExt, DropoutExt, Dropout2dExt,
LayerNormExt, LogSoftmaxExt, PReLUExt): MindSpore runs them on Ascend only, so PyTorch's
documented semantics, written out in NumPy, are the reference; gradients, repr, errors."""
import itertools

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_layer_grad, det


def _pool(x, k, s, p, ceil, include_pad, divisor, reduce):
    """Reference PyTorch pooling over the trailing len(k) axes, by loops over windows."""
    nd = len(k)
    spatial = x.shape[-nd:]
    outs = []
    for n, kk, ss, pp in zip(spatial, k, s, p):
        span = n + 2 * pp - kk
        o = (-(-span // ss) if ceil else span // ss) + 1
        if ceil and (o - 1) * ss >= n + pp:
            o -= 1
        outs.append(o)
    y = np.zeros(x.shape[:-nd] + tuple(outs))
    for idx in itertools.product(*[range(o) for o in outs]):
        lo = [i * ss - pp for i, ss, pp in zip(idx, s, p)]
        hi = [min(a + kk, n + pp) for a, kk, n, pp in zip(lo, k, spatial, p)]
        size = np.prod([h - a for a, h in zip(lo, hi)])
        clo = [max(a, 0) for a in lo]
        chi = [min(h, n) for h, n in zip(hi, spatial)]
        win = x[(...,) + tuple(slice(a, b) for a, b in zip(clo, chi))]
        win = win.reshape(win.shape[:-nd] + (-1,))
        if reduce == 'max':
            y[(...,) + idx] = win.max(-1)
            continue
        count = divisor or (size if include_pad else np.prod([b - a for a, b in zip(clo, chi)]))
        y[(...,) + idx] = win.sum(-1) / count
    return y


@pytest.mark.parametrize('cell,kwargs,shape,k,s,p', [
    (nn.AvgPool1dExt, dict(kernel_size=3), (2, 3, 8), (3,), (3,), (0,)),
    (nn.AvgPool1dExt, dict(kernel_size=3, stride=2, padding=1, ceil_mode=True,
                           count_include_pad=False), (3, 8), (3,), (2,), (1,)),
    (nn.AvgPool2dExt, dict(kernel_size=(2, 3), stride=(2, 1), padding=(1, 1),
                           ceil_mode=True), (1, 2, 5, 6), (2, 3), (2, 1), (1, 1)),
    (nn.AvgPool2dExt, dict(kernel_size=3, stride=2, padding=1, divisor_override=4),
     (2, 5, 5), (3, 3), (2, 2), (1, 1)),
    (nn.AvgPool3dExt, dict(kernel_size=(2, 3, 2), padding=(1, 1, 0), ceil_mode=True,
                           count_include_pad=False), (1, 2, 4, 5, 5), (2, 3, 2), (2, 3, 2),
     (1, 1, 0)),
], ids=['1d', '1d-ceil', '2d', '2d-divisor', '3d'])
def test_average_pools_follow_pytorch(cell, kwargs, shape, k, s, p):
    x = det(shape).astype(np.float64)
    want = _pool(x, k, s, p, kwargs.get('ceil_mode', False),
                 kwargs.get('count_include_pad', True), kwargs.get('divisor_override'), 'avg')
    np.testing.assert_allclose(cell(**kwargs)(ms.Tensor(x)).asnumpy(), want, rtol=1e-12)


def test_max_pool_ext_follows_pytorch():
    x = det((2, 3, 7, 6)).astype(np.float64)
    y, at = nn.MaxPool2dExt(3, 2, 1, return_indices=True, ceil_mode=True)(ms.Tensor(x))
    want = _pool(x, (3, 3), (2, 2), (1, 1), True, True, None, 'max')
    assert y.shape == want.shape == (2, 3, 4, 4)
    np.testing.assert_array_equal(y.asnumpy(), want)
    flat = x.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, at.asnumpy().reshape(2, 3, -1), 2)
                                  .reshape(y.shape), y.asnumpy())
    assert nn.MaxPool2dExt(2)(ms.Tensor(x[0])).shape == (3, 3, 3)      # stride = kernel


def test_dropouts():
    ms.set_seed(3)
    x = ops.ones((50, 40, 2, 2))
    net = nn.DropoutExt(0.3)
    assert net(x) is x
    y = net.set_train()(x).asnumpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.7)} and 0.2 < (y == 0).mean() < 0.4
    y = nn.Dropout2dExt(0.3).set_train()(x).asnumpy().reshape(50, 40, -1)
    assert (y.min(-1) == y.max(-1)).all() and 0.2 < (y[..., 0] == 0).mean() < 0.4
    assert nn.DropoutExt(0.0).set_train()(x) is x


def test_layer_norm_ext_and_its_parameters():
    x = det((2, 3, 4)).astype(np.float64)
    net = nn.LayerNormExt((3, 4), eps=1e-3, dtype=ms.float64)
    assert [(n, p.shape) for n, p in net.parameters_and_names()] == [('weight', (3, 4)),
                                                                    ('bias', (3, 4))]
    flat = x.reshape(2, -1)
    want = (flat - flat.mean(1, keepdims=True)) / np.sqrt(flat.var(1, keepdims=True) + 1e-3)
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), want.reshape(x.shape), rtol=1e-12)
    assert nn.LayerNormExt(4, bias=False).bias is None
    assert nn.LayerNormExt(4, elementwise_affine=False).trainable_params() == []


def test_log_softmax_ext_and_prelu_ext():
    x = det((2, 3, 4)).astype(np.float64)
    for dim, axis in ((None, 0), (2, 2), (-2, 1)):         # None: PyTorch's axis 0 for 3-d
        y = nn.LogSoftmaxExt(dim)(ms.Tensor(x)).asnumpy()
        np.testing.assert_allclose(np.exp(y).sum(axis), 1.0, rtol=1e-12)
    assert nn.LogSoftmaxExt()(ms.Tensor(det((2, 3)))).asnumpy().argmax(1).shape == (2,)
    net = nn.PReLUExt(3, init=0.1)
    assert net.weight.shape == (3,) and [n for n, _ in net.parameters_and_names()] == ['weight']
    y = net(ms.Tensor(x.astype(np.float32))).asnumpy()
    np.testing.assert_allclose(y, np.where(x > 0, x, 0.1 * x), rtol=1e-6)


@pytest.mark.parametrize('net,shape', [
    (nn.AvgPool1dExt(3, 2, 1, ceil_mode=True), (1, 2, 7)),
    (nn.AvgPool3dExt(2, padding=1, count_include_pad=False), (1, 1, 3, 3, 3)),
    (nn.MaxPool2dExt(2, 1, dilation=2), (1, 2, 5, 5)),
    (nn.LayerNormExt(4, dtype=ms.float64), (2, 3, 4)),
    (nn.LogSoftmaxExt(-1), (2, 3)),
    (nn.PReLUExt(2, dtype=ms.float64), (2, 2, 3)),
], ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else '')
def test_gradients(net, shape):
    rng = np.random.default_rng(16)
    x = rng.permutation(np.prod(shape)).reshape(shape) / 7.0 - 1.3     # distinct values
    check_layer_grad(net, x)


def test_reprs_print_as_mindspore():
    assert repr(nn.LayerNormExt(4)) == ("LayerNormExt(normalized_shape=(4,), eps=1e-05, "
                                        "elementwise_affine=True)")
    for cell in (nn.AvgPool2dExt(2), nn.MaxPool2dExt(2), nn.DropoutExt(), nn.Dropout2dExt(),
                 nn.LogSoftmaxExt(1), nn.PReLUExt(), nn.AvgPool1dExt(2), nn.AvgPool3dExt(2)):
        assert repr(cell) == f"{type(cell).__name__}()"


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.AvgPool2dExt(2, padding=2), ValueError,
     "nn.AvgPool2dExt: padding 2 is more than half the kernel size 2"),
    (lambda: nn.AvgPool3dExt(2, divisor_override=0), ValueError,
     "nn.AvgPool3dExt: divisor_override must be None or an int >= 1, got 0"),
    (lambda: nn.MaxPool2dExt((2, 2, 2)), TypeError,
     "nn.MaxPool2dExt: kernel_size must be an int or a tuple of 2 ints"),
    (lambda: nn.DropoutExt(1.5), ValueError, r"nn.DropoutExt: p must be a number in \[0, 1\]"),
    (lambda: nn.LayerNormExt('a'), TypeError, "nn.LayerNormExt: normalized_shape must be"),
    (lambda: nn.LayerNormExt(()), ValueError, "nn.LayerNormExt: normalized_shape must hold"),
    (lambda: nn.LayerNormExt(4)(ops.ones((2, 3))), ValueError,
     r"input of shape \(2, 3\) does not end with normalized_shape \(4,\)"),
    (lambda: nn.LogSoftmaxExt(1.0), TypeError, "nn.LogSoftmaxExt: dim must be an int or None"),
    (lambda: nn.PReLUExt(0), ValueError, "nn.PReLUExt: num_parameters must be a positive int"),
    (lambda: nn.AvgPool1dExt(2)(ops.ones((2, 3, 4, 5))), ValueError,
     r"nn.AvgPool1dExt 'AvgPool1dExt': expected a 2-d or 3-d input"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()
