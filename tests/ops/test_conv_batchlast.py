"""The batch-last convolution kernels (``conv_batchlast``) against the channels-last im2col path.

Narrow layers (at most ``MAX_CHANNELS`` input and output channels) and layers whose input is
stored (C, H, W, N) run batch-last under the default ``ALGORITHM``; 'direct' forces
channels-last im2col everywhere. In float64 both paths add the same products in another order,
so they agree to 1e-12.
"""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import conv_batchlast
from hookgrad.kernels import conv as conv_kernels
from hookgrad.testing import check_grad


def run(x, w, gy, **kwargs):
    """(y, gx, gw) of conv2d at x, w for the output gradient gy."""
    xt, wt = ms.Tensor(x, requires_grad=True), ms.Tensor(w, requires_grad=True)
    y = ops.conv2d(xt, wt, **kwargs)
    y.backward(ms.Tensor(gy))
    return y.asnumpy(), xt.grad.asnumpy(), wt.grad.asnumpy()


def stored(a, order):
    """a (N, C, H, W) with the same values, stored with its axes in ``order`` in memory."""
    return np.ascontiguousarray(a.transpose(order)).transpose(np.argsort(order))


# (batch, in channels, out channels, (H, W), kernel, conv2d keywords)
SHAPES = [
    (3, 1, 6, (12, 12), 5, dict(pad_mode='valid')),                     # LeNet-5's layers
    (3, 6, 16, (9, 9), 5, dict(pad_mode='valid')),
    (2, 3, 4, (7, 9), 3, dict(pad_mode='pad', padding=(2, 0, 1, 3))),
    (2, 4, 5, (9, 8), 3, dict(pad_mode='pad', padding=1, stride=2)),
    (2, 2, 3, (9, 10), 3, dict(pad_mode='pad', padding=2, dilation=2)),
    (1, 5, 2, (8, 7), (2, 4), dict(pad_mode='same', stride=(2, 3))),
    (2, 3, 3, (6, 6), 3, dict(pad_mode='same')),
]
LAYOUTS = {'nchw': (0, 1, 2, 3), 'channels-last': (0, 2, 3, 1), 'batch-last': (1, 2, 3, 0)}


def operands(case, seed=0):
    n, c, o, hw, k, kwargs = case
    k = (k, k) if isinstance(k, int) else k
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c) + hw)
    w = rng.standard_normal((o, c) + k)
    gy = rng.standard_normal(ops.conv2d(ms.Tensor(x), ms.Tensor(w), **kwargs).shape)
    return x, w, gy, kwargs


@pytest.mark.parametrize('layout', list(LAYOUTS))
@pytest.mark.parametrize('case', SHAPES, ids=lambda c: f"{c[1]}-{c[2]}-{c[3]}-k{c[4]}")
def test_batch_last_equals_channels_last_im2col(case, layout, monkeypatch):
    x, w, gy, kwargs = operands(case)
    monkeypatch.setattr(conv_kernels, 'ALGORITHM', 'direct')
    want = run(x, w, gy, **kwargs)
    monkeypatch.setattr(conv_kernels, 'ALGORITHM', 'auto')
    got = run(stored(x, LAYOUTS[layout]), w, stored(gy, LAYOUTS[layout]), **kwargs)
    for g, e in zip(got, want):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)


def test_narrow_output_is_stored_batch_last_and_feeds_the_next_layer_as_is():
    x = np.random.default_rng(1).standard_normal((4, 1, 12, 12)).astype(np.float32)
    w1 = np.ones((6, 1, 5, 5), np.float32)
    y = ops.conv2d(ms.Tensor(x), ms.Tensor(w1)).asnumpy()
    assert y.transpose(1, 2, 3, 0).flags.c_contiguous
    assert conv_batchlast.batch_last(y, 0, 0, 0, 0).base is not None       # a view, no copy
    pooled = ops.max_pool2d(ms.Tensor(y), 2, 2).asnumpy()
    assert pooled.transpose(1, 2, 3, 0).flags.c_contiguous


@pytest.mark.parametrize('case', [SHAPES[2], SHAPES[3], SHAPES[4], SHAPES[5]],
                         ids=['pad-uneven', 'stride-2', 'dilation-2', 'same-strides-2-3'])
def test_batch_last_gradients_match_finite_differences(case, monkeypatch):
    x, w, _, kwargs = operands(case, seed=2)
    calls = []
    for name in ('forward', 'input_grad', 'filter_grad'):
        kernel = getattr(conv_batchlast, name)
        monkeypatch.setattr(conv_batchlast, name,
                            lambda *a, _k=kernel, _n=name, **kw: calls.append(_n) or _k(*a, **kw))
    check_grad(lambda a, b: ops.conv2d(a, b, **kwargs), x[:1], w)
    assert {'forward', 'input_grad', 'filter_grad'} <= set(calls)


def test_second_derivative_through_batch_last():
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((2, 3, 6, 5)), rng.standard_normal((4, 3, 5, 3))

    def grad_norm(a, b):
        conv = lambda p, q: ops.conv2d(p, q, pad_mode='pad', padding=(2, 2, 1, 1))  # noqa: E731
        gx, gw = ms.grad(lambda p, q: (conv(p, q) ** 2).sum(), (0, 1))(a, b)
        return (gx ** 2).sum() + (gw ** 2).sum() + conv(a, b).sum()
    check_grad(grad_norm, x, w, atol=1e-5, rtol=1e-4)


def test_kept_im2col_matrix_gives_the_rebuilt_weight_gradient(monkeypatch):
    x, w, gy, kwargs = operands(SHAPES[1], seed=4)
    kept = run(x, w, gy, **kwargs)
    monkeypatch.setattr(conv_kernels, 'KEEP_COLS_BYTES', 0)
    for got, want in zip(run(x, w, gy, **kwargs), kept):
        np.testing.assert_array_equal(got, want)


def test_long_weight_gradient_product_is_cut_into_pieces(monkeypatch):
    """The (K, M) @ (M, O) product with M over two pieces: batched pieces, the rest added."""
    monkeypatch.setattr(conv_batchlast, 'PIECE', 7)
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((3, 45)), rng.standard_normal((45, 2))
    np.testing.assert_allclose(conv_batchlast._long_product(a, b), a @ b, rtol=1e-12)
    x, w, gy, kwargs = operands(SHAPES[0], seed=5)
    monkeypatch.setattr(conv_kernels, 'ALGORITHM', 'direct')
    want = run(x, w, gy, **kwargs)[2]
    monkeypatch.setattr(conv_kernels, 'ALGORITHM', 'auto')
    np.testing.assert_allclose(run(x, w, gy, **kwargs)[2], want, rtol=1e-12)


@pytest.mark.parametrize('w_shape, stride, batch_last_input, want', [
    ((6, 1, 5, 5), (1, 1), False, 'batch_last'),
    ((16, 16, 3, 3), (2, 2), False, 'batch_last'),
    ((32, 16, 5, 5), (1, 1), False, 'direct'),          # wider than MAX_CHANNELS
    ((32, 16, 5, 5), (1, 1), True, 'batch_last'),       # ... but its input is batch-last
    ((128, 128, 3, 3), (1, 1), True, 'winograd'),
    ((64, 64, 3, 3), (1, 1), True, 'winograd'),
    ((32, 32, 3, 3), (1, 1), True, 'batch_last'),       # below Winograd's channels
    ((8, 8, 1, 1), (1, 1), True, 'pointwise'),
])
def test_kernel_choice_for_narrow_layers(w_shape, stride, batch_last_input, want):
    assert conv_kernels.kernel_choice(w_shape, stride, (1,) * 4 if w_shape[2] > 1 else (0,) * 4,
                                      (1, 1), 1, (8, 8), np.float32,
                                      batch_last_input=batch_last_input) == want


def test_grouped_narrow_convolution_stays_channels_last():
    assert conv_kernels.kernel_choice((4, 2, 3, 3), (1, 1), (1,) * 4, (1, 1), 2, (8, 8),
                                      np.float32) == 'direct'


def test_a_single_sample_does_not_count_as_stored_batch_last():
    """(1, C, H, W) in NCHW order is also C-contiguous as (C, H, W, 1): a wide layer at batch 1
    keeps the channels-last kernels."""
    x = np.zeros((1, 64, 8, 8), np.float32)
    assert not conv_batchlast.stored_batch_last(x)
    assert conv_batchlast.stored_batch_last(np.zeros((8, 4, 3, 2)).transpose(3, 0, 1, 2))
    assert conv_kernels.conv_forward(x, np.zeros((64, 64, 3, 3), np.float32), (2, 2), (1,) * 4,
                                     (1, 1), 1)[1].forward == 'direct'
