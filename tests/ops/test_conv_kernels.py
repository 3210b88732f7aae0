"""The Winograd and pointwise convolution kernels against the im2col path (``conv_kernels``).

Each case runs conv2d's forward and both gradients with ``ALGORITHM`` forced to 'fast'
(Winograd / pointwise wherever they apply) and to 'direct' (im2col), and compares both with a
float64 run. Tolerance: F(2x2, 3x3) rounds like im2col within a small factor, so float32
results must lie within 1e-5 of the largest float64 value (measured: under 1e-6); the 1x1
kernels run the same GEMM as im2col, so they match it within the same bound.
"""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import conv as conv_kernels
from hookgrad.kernels import winograd
from hookgrad.testing import check_grad

RTOL32 = 1e-5


@pytest.fixture
def algorithm(monkeypatch):
    """Set conv_kernels.ALGORITHM for the test, restored after it."""
    def use(name):
        monkeypatch.setattr(conv_kernels, 'ALGORITHM', name)
    return use


def run(x, w, gy, **kwargs):
    """(y, gx, gw) of conv2d at x, w for the output gradient gy."""
    xt, wt = ms.Tensor(x, requires_grad=True), ms.Tensor(w, requires_grad=True)
    y = ops.conv2d(xt, wt, **kwargs)
    y.backward(ms.Tensor(gy))
    return y.asnumpy(), xt.grad.asnumpy(), wt.grad.asnumpy()


# (batch, in channels, out channels, (H, W), kernel, stride, conv2d keywords)
SHAPES = [
    (2, 64, 64, (32, 32), 3, 1, dict(pad_mode='pad', padding=1)),       # ResNet-18 CIFAR
    (2, 128, 128, (16, 16), 3, 1, dict(pad_mode='pad', padding=1)),
    (4, 256, 256, (8, 8), 3, 1, dict(pad_mode='pad', padding=1)),
    (4, 512, 512, (4, 4), 3, 1, dict(pad_mode='pad', padding=1)),
    (2, 3, 5, (7, 9), 3, 1, dict(pad_mode='same')),                     # odd sizes: part tiles
    (2, 4, 3, (5, 6), 3, 1, dict(pad_mode='valid')),
    (1, 2, 3, (6, 5), 3, 1, dict(pad_mode='pad', padding=(2, 0, 1, 3))),
    (2, 6, 4, (3, 3), 3, 1, dict(pad_mode='pad', padding=1)),
    (2, 64, 128, (8, 8), 1, 2, dict()),                          # 1x1 shortcuts
    (2, 5, 7, (7, 9), 1, 2, dict()),
    (2, 5, 3, (4, 5), 1, 1, dict()),
    (1, 3, 2, (7, 8), 1, (2, 3), dict()),
]


def case_operands(case, dtype, seed=0):
    """(x, w, gy, conv2d keywords) of a case; gy has the output's shape."""
    n, c, o, hw, k, stride, kwargs = case
    kwargs = dict(kwargs, stride=stride)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c) + hw)
    w = rng.standard_normal((o, c, k, k)) / np.sqrt(c * k * k)
    gy = rng.standard_normal(ops.conv2d(ms.Tensor(x), ms.Tensor(w), **kwargs).shape)
    return [a.astype(dtype) for a in (x, w, gy)] + [kwargs]


@pytest.mark.parametrize('case', SHAPES, ids=lambda c: f"{c[1]}-{c[2]}-{c[3]}-k{c[4]}-s{c[5]}")
def test_fast_kernels_match_im2col_within_float32_accuracy(case, algorithm):
    x, w, gy, kwargs = case_operands(case, np.float64)
    algorithm('direct')
    exact = run(x, w, gy, **kwargs)
    x32, w32, gy32 = (a.astype(np.float32) for a in (x, w, gy))
    for name in ('fast', 'direct'):
        algorithm(name)
        for got, want in zip(run(x32, w32, gy32, **kwargs), exact):
            assert got.dtype == np.float32 and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=0, atol=RTOL32 * np.abs(want).max())


@pytest.mark.parametrize('case', [SHAPES[4], SHAPES[6], SHAPES[9], SHAPES[11]],
                         ids=['same-odd', 'pad-uneven', '1x1-s2', '1x1-s23'])
def test_fast_kernels_equal_im2col_in_float64(case, algorithm):
    x, w, gy, kwargs = case_operands(case, np.float64, seed=1)
    algorithm('direct')
    exact = run(x, w, gy, **kwargs)
    algorithm('fast')
    for got, want in zip(run(x, w, gy, **kwargs), exact):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('k, kwargs', [(3, dict(pad_mode='pad', padding=1)),
                                       (3, dict(pad_mode='same')),
                                       (1, dict(stride=2))], ids=['3x3-pad', '3x3-same', '1x1-s2'])
def test_fast_kernels_gradients_match_finite_differences(k, kwargs, algorithm):
    algorithm('fast')
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 5, 7))
    w = rng.standard_normal((4, 3, k, k))
    check_grad(lambda a, b: ops.conv2d(a, b, **kwargs), x, w)


def test_kept_im2col_matrix_gives_the_rebuilt_weight_gradient(monkeypatch):
    """A small im2col matrix is kept from the forward; rebuilding it gives the same numbers."""
    x, w, gy, kwargs = case_operands(SHAPES[5], np.float64, seed=3)
    kept = run(x, w, gy, **kwargs)
    monkeypatch.setattr(conv_kernels, 'KEEP_COLS_BYTES', 0)
    for got, want in zip(run(x, w, gy, **kwargs), kept):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize('kwargs', [dict(stride=2, pad_mode='pad', padding=1),
                                    dict(stride=(2, 3), pad_mode='pad', padding=(1, 0, 2, 1),
                                         dilation=2, groups=2)], ids=['s2', 's23-dilated-grouped'])
def test_input_gradient_in_pieces_gives_the_whole_batch_numbers(monkeypatch, algorithm,
                                                                kwargs):
    """The strided input gradient adds each piece's columns into its own images: one image
    per piece gives the numbers of the whole batch at once, which match finite differences."""
    algorithm('direct')
    rng = np.random.default_rng(6)
    x, w = rng.standard_normal((5, 4, 9, 11)), rng.standard_normal((6, 2 if 'groups' in kwargs
                                                                      else 4, 3, 3))
    gy = rng.standard_normal(ops.conv2d(ms.Tensor(x), ms.Tensor(w), **kwargs).shape)
    monkeypatch.setattr(conv_kernels, 'PIECE_BYTES', 1 << 30)
    whole = run(x, w, gy, **kwargs)[1]
    monkeypatch.setattr(conv_kernels, 'PIECE_BYTES', 1)
    np.testing.assert_allclose(run(x, w, gy, **kwargs)[1], whole, rtol=1e-12, atol=1e-12)
    check_grad(lambda a: ops.conv2d(a, ms.Tensor(w), **kwargs), x[:2])


def test_input_gradient_reuses_the_forwards_winograd_kernels(monkeypatch, algorithm):
    """The forward's transformed kernels serve the input gradient (no second transform), with
    the numbers of transforming them again."""
    algorithm('fast')
    x, w, gy, kwargs = case_operands(SHAPES[4], np.float64, seed=5)
    calls = []
    transform = winograd.kernel_transform
    monkeypatch.setattr(winograd, 'kernel_transform', lambda *a: calls.append(1) or transform(*a))
    xt, wt = ms.Tensor(x, requires_grad=True), ms.Tensor(w)
    y = ops.conv2d(xt, wt, **kwargs)
    assert len(calls) == 1
    y.backward(ms.Tensor(gy))
    assert len(calls) == 1
    again = conv_kernels.input_grad(gy, w, x.shape[2:], stride=(1, 1), padding=(1, 1, 1, 1),
                                    dilation=(1, 1), groups=1, how='winograd')
    assert len(calls) == 2
    np.testing.assert_allclose(xt.grad.asnumpy(), again, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('switch', [None, ('direct', 'fast'), ('fast', 'direct')],
                         ids=['kept', 'direct-then-fast', 'fast-then-direct'])
def test_kept_strided_rows_give_the_rebuilt_weight_gradient(monkeypatch, algorithm, switch):
    """A strided 1x1 layer keeps its strided rows for the weight gradient; rebuilding them, or
    a backward run by the other kernel than the forward, gives the same numbers."""
    x, w, gy, kwargs = case_operands(SHAPES[9], np.float64, seed=5)
    algorithm('fast')
    want = run(x, w, gy, **kwargs)
    seen = []
    forward = conv_kernels.conv_forward
    monkeypatch.setattr(conv_kernels, 'conv_forward',
                        lambda *a, **k: seen.append(forward(*a, **k)) or seen[-1])
    from hookgrad.ops import conv as conv_op
    monkeypatch.setattr(conv_op, 'conv_forward', conv_kernels.conv_forward)
    if switch is None:
        monkeypatch.setattr(conv_kernels, 'KEEP_COLS_BYTES', 0)
        got = run(x, w, gy, **kwargs)
    else:
        algorithm(switch[0])
        xt, wt = ms.Tensor(x, requires_grad=True), ms.Tensor(w, requires_grad=True)
        y = ops.conv2d(xt, wt, **kwargs)
        algorithm(switch[1])
        y.backward(ms.Tensor(gy))
        got = (y.asnumpy(), xt.grad.asnumpy(), wt.grad.asnumpy())
    assert seen and (seen[0][4] is None) == (switch is None)
    for g, ref in zip(got, want):
        np.testing.assert_allclose(g, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('kwargs', [dict(pad_mode='valid'), dict(pad_mode='same'),
                                    dict(pad_mode='pad', padding=(2, 0, 1, 1), dilation=2)])
def test_input_gradient_of_a_widening_stride_1_convolution(kwargs):
    """With at least twice the input's channels out, the input gradient runs as col2im."""
    rng = np.random.default_rng(4)
    check_grad(lambda a, b: ops.conv2d(a, b, **kwargs), rng.standard_normal((2, 2, 7, 6)),
               rng.standard_normal((5, 2, 3, 3)))


def test_second_derivative_through_the_fast_kernels(algorithm):
    """Gradients of gradients use the same kernels for the input and the weight."""
    algorithm('fast')
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((2, 3, 5, 6)), rng.standard_normal((4, 3, 3, 3))

    def grad_norm(a, b):
        y = ops.conv2d(a, b, pad_mode='pad', padding=1)
        gx, gw = ms.grad(lambda p, q: (ops.conv2d(p, q, pad_mode='pad', padding=1) ** 2).sum(),
                         (0, 1))(a, b)
        return (gx ** 2).sum() + (gw ** 2).sum() + y.sum()
    check_grad(grad_norm, x, w, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('m', [2, 4])
def test_winograd_transforms_reproduce_the_convolution(m):
    """F(2x2, 3x3) and F(4x4, 3x3), forward, flipped kernel and weight gradient, in float64."""
    rng = np.random.default_rng(4)
    n, h, wd, c, o = 2, 5, 7, 3, 4
    th, tw = winograd.tiles(h, wd, m)
    xh = np.zeros((n, th * m + 2, tw * m + 2, c))
    xh[:, :h + 2, :wd + 2] = rng.standard_normal((n, h + 2, wd + 2, c))
    w = rng.standard_normal((o, c, 3, 3))
    windows = np.lib.stride_tricks.sliding_window_view(xh[:, :h + 2, :wd + 2], (3, 3), (1, 2))
    want = np.einsum('nhwcab,ocab->nhwo', windows, w)
    np.testing.assert_allclose(winograd.convolve(xh, winograd.kernel_transform(w, m), h, wd, m),
                               want, atol=1e-12)
    # the input gradient's kernels: w turned by 180 degrees, input and output channels swapped
    turned = w.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1]
    yo = np.zeros((n, th * m + 2, tw * m + 2, o))
    yo[:, :h + 2, :wd + 2] = rng.standard_normal((n, h + 2, wd + 2, o))
    out_windows = np.lib.stride_tricks.sliding_window_view(yo[:, :h + 2, :wd + 2], (3, 3), (1, 2))
    u, order = winograd.flipped_kernel(w, m)
    np.testing.assert_allclose(winograd.convolve(yo, u, h, wd, m, order),
                               np.einsum('nhwoab,coab->nhwc', out_windows, turned), atol=1e-12)
    gy = rng.standard_normal((n, h, wd, o))
    np.testing.assert_allclose(winograd.filter_grad(gy, xh, m),
                               np.einsum('nhwo,nhwcab->ocab', gy, windows), atol=1e-11)


@pytest.mark.parametrize('w_shape, stride, padding, dilation, groups, out_hw, dtype, want', [
    ((128, 128, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float32, 'winograd'),
    ((64, 64, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float32, 'winograd'),
    ((32, 32, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float32, 'direct'),
    ((128, 128, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float64, 'direct'),
    ((64, 32, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float32, 'direct'),
    ((64, 64, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (2, 2), np.float32, 'direct'),
    ((64, 64, 3, 3), (2, 2), (1,) * 4, (1, 1), 1, (8, 8), np.float32, 'direct'),
    ((64, 64, 3, 3), (1, 1), (2,) * 4, (2, 2), 1, (8, 8), np.float32, 'direct'),
    ((64, 32, 3, 3), (1, 1), (1,) * 4, (1, 1), 2, (8, 8), np.float32, 'direct'),
    ((128, 64, 1, 1), (2, 2), (0,) * 4, (1, 1), 1, (8, 8), np.float64, 'pointwise'),
    ((128, 64, 1, 1), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float32, 'direct'),
])
def test_kernel_choice(w_shape, stride, padding, dilation, groups, out_hw, dtype, want):
    assert conv_kernels.kernel_choice(w_shape, stride, padding, dilation, groups, out_hw,
                                      dtype) == want


def test_kernel_choice_follows_algorithm(algorithm):
    args = ((64, 64, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float32)
    narrow = ((32, 32, 3, 3),) + args[1:]
    for pass_ in (dict(), dict(grad=True), dict(input_grad=True)):      # all from 64 channels
        assert conv_kernels.kernel_choice(*args, **pass_) == 'winograd'
        assert conv_kernels.kernel_choice(*narrow, **pass_) == 'direct'
    algorithm('direct')
    assert conv_kernels.kernel_choice(*args) == 'direct'
    algorithm('fast')
    assert conv_kernels.kernel_choice(*args[:-1], np.float64, grad=True) == 'winograd'


@pytest.mark.parametrize('n, h, wd, images', [(5, 6, 8, 2), (4, 7, 5, 1), (7, 4, 4, 3)])
def test_winograd_in_pieces_gives_the_whole_batch_numbers(monkeypatch, n, h, wd, images):
    """A few images at a time, through parity planes: the numbers of the whole-batch path in
    float64, forward, input-gradient kernels and weight gradient, odd sizes and a last,
    smaller piece."""
    rng = np.random.default_rng(8)
    c, o = 3, 5
    th, tw = winograd.tiles(h, wd, 2)
    xh = np.zeros((n, 2 * th + 2, 2 * tw + 2, c))
    xh[:, :h + 2, :wd + 2] = rng.standard_normal((n, h + 2, wd + 2, c))
    w = rng.standard_normal((o, c, 3, 3))
    windows = np.lib.stride_tricks.sliding_window_view(xh[:, :h + 2, :wd + 2], (3, 3), (1, 2))
    want = np.einsum('nhwcab,ocab->nhwo', windows, w)
    yo = np.zeros((n, 2 * th + 2, 2 * tw + 2, o))
    yo[:, :h + 2, :wd + 2] = rng.standard_normal((n, h + 2, wd + 2, o))
    out_windows = np.lib.stride_tricks.sliding_window_view(yo[:, :h + 2, :wd + 2], (3, 3), (1, 2))
    want_flipped = np.einsum('nhwoab,coab->nhwc', out_windows,
                             w.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1])
    u, order = winograd.flipped_kernel(w, 2)
    calls = []
    pieces = winograd._convolve_pieces
    monkeypatch.setattr(winograd, '_convolve_pieces', lambda *a: calls.append(a[-1]) or pieces(*a))
    monkeypatch.setattr(winograd, '_cores', lambda: 1)
    monkeypatch.setattr(winograd, 'PIECE_ELEMENTS', images * th * tw * c)
    got = winograd.convolve(xh, winograd.kernel_transform(w, 2), h, wd, 2)
    monkeypatch.setattr(winograd, 'PIECE_ELEMENTS', images * th * tw * o)
    got_flipped = winograd.convolve(yo, u, h, wd, 2, order)
    assert calls == [images, images]
    np.testing.assert_allclose(got, want, atol=1e-12)
    np.testing.assert_allclose(got_flipped, want_flipped, atol=1e-12)
    assert got.shape == (n, h, wd, o) and got.flags.c_contiguous
    gy = rng.standard_normal((n, h, wd, o))
    sums = winograd._filter_grad_pieces
    monkeypatch.setattr(winograd, '_filter_grad_pieces',
                        lambda *a: calls.append(a[-1]) or sums(*a))
    monkeypatch.setattr(winograd, 'PIECE_ELEMENTS', images * th * tw * c)
    np.testing.assert_allclose(winograd.filter_grad(gy, xh, 2),
                               np.einsum('nhwo,nhwcab->ocab', gy, windows), atol=1e-11)
    assert calls == [images] * 3


@pytest.mark.parametrize('padding', [1, (2, 0, 1, 3), 3], ids=['1', 'uneven', 'beyond-kernel'])
def test_winograd_pieces_read_the_input_where_it_lies(monkeypatch, algorithm, padding):
    """In pieces, Winograd reads x and gy as they lie (``Padded``), never a padded copy, and
    gives im2col's numbers; padding wider than the kernel drops rows of gy."""
    rng = np.random.default_rng(7)
    x, w = rng.standard_normal((3, 4, 7, 9)), rng.standard_normal((5, 4, 3, 3))
    kwargs = dict(pad_mode='pad', padding=padding)
    gy = rng.standard_normal(ops.conv2d(ms.Tensor(x), ms.Tensor(w), **kwargs).shape)
    algorithm('direct')
    want = run(x, w, gy, **kwargs)
    sources = []
    pieces, sums = winograd._convolve_pieces, winograd._filter_grad_pieces
    monkeypatch.setattr(winograd, '_convolve_pieces',
                        lambda xh, *a: sources.append(type(xh)) or pieces(xh, *a))
    monkeypatch.setattr(winograd, '_filter_grad_pieces',
                        lambda gy, xh, *a: sources.append(type(xh)) or sums(gy, xh, *a))
    monkeypatch.setattr(winograd, '_cores', lambda: 1)
    monkeypatch.setattr(winograd, 'PIECE_ELEMENTS', 1)
    algorithm('fast')
    for got, expected in zip(run(x, w, gy, **kwargs), want):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    assert sources == [winograd.Padded] * 3


@pytest.mark.parametrize('top, left', [(1, 2), (0, 0), (-1, 3), (2, -2)])
def test_padded_array_places_the_values_at_their_offset(top, left):
    a = np.arange(2 * 5 * 4 * 3, dtype=np.float64).reshape(2, 5, 4, 3)
    got = winograd.Padded(a, top, left, 6, 7).array()
    want = np.zeros((2, 6, 7, 3))
    for y in range(6):
        for x in range(7):
            if 0 <= y - top < 5 and 0 <= x - left < 4:
                want[:, y, x] = a[:, y - top, x - left]
    np.testing.assert_array_equal(got, want)


def test_whole_batch_winograd_takes_a_padded_source():
    """Where the batch runs whole, a ``Padded`` gives the numbers of its padded array."""
    rng = np.random.default_rng(8)
    a, w = rng.standard_normal((2, 5, 6, 3)), rng.standard_normal((4, 3, 3, 3))
    source = winograd.Padded(a, 1, 1, 8, 8)
    u = winograd.kernel_transform(w, 2)
    assert not winograd.runs_in_pieces(2, 3, 3, 3, 2)
    np.testing.assert_array_equal(winograd.convolve(source, u, 5, 6, 2),
                                  winograd.convolve(source.array(), u, 5, 6, 2))
    gy = rng.standard_normal((2, 6, 6, 4))
    np.testing.assert_array_equal(winograd.filter_grad(gy, source, 2),
                                  winograd.filter_grad(gy, source.array(), 2))


@pytest.mark.parametrize('n, th, tw, c, images', [
    (32, 16, 16, 64, 4),        # 8 pieces of 4 images (2^16 values each)
    (32, 4, 4, 256, 16),        # one piece per core
    (24, 4, 4, 256, 12),        # 2 pieces of 16 and 8 would leave a core waiting: 12 and 12
    (30, 16, 16, 64, 4),        # 8 pieces, the last of 2 images
    (32, 2, 2, 512, 0),         # one piece of 32 images: fewer pieces than cores, run whole
    (1, 16, 16, 64, 0),
])
def test_winograd_pieces_come_as_many_per_core(monkeypatch, n, th, tw, c, images):
    monkeypatch.setattr(winograd, '_cores', lambda: 2)
    monkeypatch.setattr(winograd, 'PIECE_ELEMENTS', 1 << 16)
    assert winograd._piece_images(n, th, tw, c) == images
    assert winograd.runs_in_pieces(n, th, tw, c, 2) == (images > 0)
