"""conv2d, conv1d and the Conv2D Primitive against a loop-based NumPy reference and finite
differences (first and second order), and the two gradient ops Conv2DBackpropInput and
Conv2DBackpropFilter against their own references."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops.conv import BufferPool
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


# ------------------------------------------------------------------------------ reference
def same_pads(size, k, s, d):
    out = -(-size // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def pads_of(pad_mode, padding, hw, kernel, stride, dilation):
    if pad_mode == 'same':
        return (same_pads(hw[0], kernel[0], stride[0], dilation[0])
                + same_pads(hw[1], kernel[1], stride[1], dilation[1]))
    if pad_mode == 'valid':
        return (0, 0, 0, 0)
    if isinstance(padding, int):
        return (padding,) * 4
    if len(padding) == 2:
        return (padding[0], padding[0], padding[1], padding[1])
    return tuple(padding)


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def out_size(padded, kernel, stride, dilation):
    return tuple((p - d * (k - 1) - 1) // s + 1
                 for p, k, s, d in zip(padded, kernel, stride, dilation))


def taps(w_shape, out_hw, stride, dilation, groups):
    """(output channel, its input channels, i, j, a, e, row, col) for every output position
    (i, j) and kernel tap (a, e): the padded input element (row, col) that tap reads."""
    o, cg, kh, kw = w_shape
    for oc in range(o):
        g = oc // (o // groups)
        chans = slice(g * cg, (g + 1) * cg)
        for i in range(out_hw[0]):
            for j in range(out_hw[1]):
                for a in range(kh):
                    for e in range(kw):
                        yield (oc, chans, i, j, a, e, i * stride[0] + a * dilation[0],
                               j * stride[1] + e * dilation[1])


def padded(x, pads):
    n, c, h, wd = x.shape
    pt, pb, pl, pr = pads
    xp = np.zeros((n, c, h + pt + pb, wd + pl + pr))
    xp[:, :, pt:pt + h, pl:pl + wd] = x
    return xp


def conv2d_ref(x, w, b, stride, pads, dilation, groups):
    """Direct loops over output positions, channels and kernel taps (in float64)."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    xp = padded(x, pads)
    out_hw = out_size(xp.shape[2:], w.shape[2:], stride, dilation)
    y = np.zeros((x.shape[0], w.shape[0]) + out_hw)
    for oc, chans, i, j, a, e, r, q in taps(w.shape, out_hw, stride, dilation, groups):
        y[:, oc, i, j] += xp[:, chans, r, q] @ w[oc, :, a, e]
    if b is not None:
        y += b[:, None, None]
    return y


def input_grad_ref(gy, w, input_hw, stride, pads, dilation, groups):
    """The adjoint of conv2d_ref in x: every tap sends gy * w back to the element it read."""
    gy, w = gy.astype(np.float64), w.astype(np.float64)
    n, c = gy.shape[0], w.shape[1] * groups
    gxp = padded(np.zeros((n, c) + tuple(input_hw)), pads)
    for oc, chans, i, j, a, e, r, q in taps(w.shape, gy.shape[2:], stride, dilation, groups):
        gxp[:, chans, r, q] += np.outer(gy[:, oc, i, j], w[oc, :, a, e])
    h, wd = input_hw
    return gxp[:, :, pads[0]:pads[0] + h, pads[2]:pads[2] + wd]


def filter_grad_ref(gy, x, kernel, stride, pads, dilation, groups):
    """The adjoint of conv2d_ref in w: every tap collects gy times the element it read."""
    gy, x = gy.astype(np.float64), x.astype(np.float64)
    xp = padded(x, pads)
    w_shape = (gy.shape[1], x.shape[1] // groups) + tuple(kernel)
    gw = np.zeros(w_shape)
    for oc, chans, i, j, a, e, r, q in taps(w_shape, gy.shape[2:], stride, dilation, groups):
        gw[oc, :, a, e] += gy[:, oc, i, j] @ xp[:, chans, r, q]
    return gw


# ------------------------------------------------------------------------------ rows
class Conv:
    """One conv2d configuration: input, weight and output shapes, the call's arguments and
    the reference's explicit geometry."""

    def __init__(self, name, xs, ws, stride, pad_mode, padding, dilation, groups, bias):
        self.name, self.xs, self.ws, self.bias = name, xs, ws, bias
        self.kwargs = dict(stride=stride, pad_mode=pad_mode, padding=padding,
                           dilation=dilation, groups=groups)
        stride, dilation = pair(stride), pair(dilation)
        pads = pads_of(pad_mode, padding, xs[2:], ws[2:], stride, dilation)
        self.geometry = dict(stride=stride, pads=pads, dilation=dilation, groups=groups)
        padded_hw = (xs[2] + pads[0] + pads[1], xs[3] + pads[2] + pads[3])
        self.ys = (xs[0], ws[0]) + out_size(padded_hw, ws[2:], stride, dilation)

    def conv(self, x, w, b=None):
        return ops.conv2d(x, w, b, **self.kwargs)

    def ref(self, x, w, b=None):
        return conv2d_ref(x, w, b, **self.geometry)


CONVS = {c.name: c for c in [
    Conv('valid', (2, 3, 6, 5), (4, 3, 3, 3), 1, 'valid', 0, 1, 1, True),
    Conv('same', (2, 3, 5, 6), (4, 3, 3, 3), 1, 'same', 0, 1, 1, True),
    Conv('same-stride2-even-kernel', (2, 2, 7, 6), (3, 2, 2, 2), 2, 'same', 0, 1, 1, False),
    Conv('pad-int', (1, 3, 5, 5), (2, 3, 3, 3), 1, 'pad', 1, 1, 1, True),
    Conv('pad-pair', (2, 2, 5, 4), (3, 2, 3, 2), 1, 'pad', (2, 1), 1, 1, False),
    Conv('pad-four-stride2', (2, 2, 7, 6), (3, 2, 3, 3), 2, 'pad', (1, 2, 0, 1), 1, 1, True),
    Conv('pad-beyond-kernel', (1, 2, 4, 4), (2, 2, 3, 3), 1, 'pad', 3, 1, 1, False),
    Conv('stride-2-1', (2, 2, 7, 5), (3, 2, 3, 2), (2, 1), 'valid', 0, 1, 1, True),
    Conv('stride3-leftover', (1, 2, 8, 8), (2, 2, 2, 2), 3, 'valid', 0, 1, 1, False),
    Conv('dilation2', (2, 2, 7, 7), (3, 2, 3, 3), 1, 'pad', 2, 2, 1, True),
    Conv('dilation-2-1-stride2', (1, 2, 9, 7), (2, 2, 2, 3), 2, 'same', 0, (2, 1), 1, False),
    Conv('groups2', (2, 4, 5, 5), (6, 2, 3, 3), 1, 'same', 0, 1, 2, True),
    Conv('groups2-stride2', (2, 4, 6, 6), (4, 2, 3, 3), 2, 'pad', 1, 1, 2, False),
    Conv('depthwise', (2, 3, 5, 5), (6, 1, 3, 3), 1, 'same', 0, 1, 3, True),
    Conv('pointwise-stride2', (2, 3, 5, 5), (4, 3, 1, 1), 2, 'valid', 0, 1, 1, True),
    Conv('kernel-1x3', (1, 2, 4, 6), (2, 2, 1, 3), 1, 'pad', (0, 0, 1, 1), 1, 1, False),
]}
DOUBLE = {'same', 'pad-four-stride2', 'dilation2', 'groups2-stride2', 'depthwise'}
# configurations whose input and filter gradients (Conv2DBackpropInput, Conv2DBackpropFilter)
# are rows of their own
BACKPROP_CONFIGS = ['pad-four-stride2', 'dilation2', 'depthwise']
BACKPROP_DOUBLE = {'pad-four-stride2'}


def conv2d_row(c):
    shapes = (c.xs, c.ws, (c.ws[0],)) if c.bias else (c.xs, c.ws)
    return Case('Convolution2D', c.conv, ref=c.ref, name=c.name, shapes=[shapes],
                double=c.name in DOUBLE, rtol=1e-12, atol=1e-12)


def gradient_for(f, shape):
    """``(gy, *args) -> d<f(z, *args), gy>/dz`` at z = zeros of ``shape``, recorded so that
    it can be differentiated again (MindSpore's GradOperation with a sensitivity)."""
    grad_with_sens = ops.GradOperation(sens_param=True)

    def fn(gy, *args):
        z = ops.zeros(shape, gy.dtype).requires_grad_()
        return grad_with_sens(lambda z: f(z, *args))(z, gy)
    return fn


def input_grad_row(c):
    g = c.geometry
    return Case('Conv2DBackpropInput', gradient_for(c.conv, c.xs),
                ref=lambda gy, w: input_grad_ref(gy, w, c.xs[2:], **g),
                name=f"input-grad-{c.name}", shapes=[(c.ys, c.ws)],
                double=c.name in BACKPROP_DOUBLE, rtol=1e-12, atol=1e-12)


def filter_grad_row(c):
    g = c.geometry
    return Case('Conv2DBackpropFilter', gradient_for(lambda w, x: c.conv(x, w), c.ws),
                ref=lambda gy, x: filter_grad_ref(gy, x, c.ws[2:], **g),
                name=f"filter-grad-{c.name}", shapes=[(c.ys, c.xs)],
                double=c.name in BACKPROP_DOUBLE, rtol=1e-12, atol=1e-12)


def conv1d_row(stride, pad_mode, padding, dilation, groups, pads):
    def conv1d(x, w, b):
        return ops.conv1d(x, w, b, stride, pad_mode, padding, dilation, groups)

    def ref(x, w, b):
        y = conv2d_ref(x[:, :, None], w[:, :, None], b, (1, stride), (0, 0) + pads,
                       (1, dilation), groups)
        return y[:, :, 0]
    return Case(('Convolution2D', 'Reshape'), conv1d, ref=ref,
                name=f"conv1d-{stride}-{pad_mode}-{padding}-{dilation}-{groups}",
                shapes=[((2, 4, 7), (2, 4 // groups, 3), (2,))], double=False,
                rtol=1e-12, atol=1e-12)


CONV2D = [conv2d_row(c) for c in CONVS.values()]
BACKPROP = [row(CONVS[name]) for name in BACKPROP_CONFIGS
            for row in (input_grad_row, filter_grad_row)]
CONV1D = [
    conv1d_row(1, 'valid', 0, 1, 1, (0, 0)),
    conv1d_row(2, 'same', 0, 1, 1, (1, 1)),
    conv1d_row(1, 'pad', (2, 1), 2, 2, (2, 1)),
    conv1d_row(1, 'pad', 1, 1, 1, (1, 1)),
]
CASES = CONV2D + BACKPROP + CONV1D


globals().update(row_tests(CASES))


def test_input_gradient_is_the_adjoint_of_the_convolution():
    c = CONVS['pad-four-stride2']
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal(c.xs), rng.standard_normal(c.ws)
    xt, wt = ms.Tensor(x, requires_grad=True), ms.Tensor(w)
    y = c.conv(xt, wt)
    gy = np.random.default_rng(6).standard_normal(y.shape)
    y.backward(ms.Tensor(gy))
    # <conv(x), gy> == <x, conv_input_grad(gy)>
    np.testing.assert_allclose(np.sum(y.asnumpy() * gy), np.sum(x * xt.grad.asnumpy()))


@pytest.mark.parametrize('layout', ['channels_last', 'strided', 'nchw_32x32'])
def test_any_memory_layout_gives_the_same_values_and_gradients(layout):
    rng = np.random.default_rng(7)
    if layout == 'nchw_32x32':      # 4 KiB between channels: the two-step transpose path
        x = rng.standard_normal((1, 2, 32, 32)).astype(np.float32)
    elif layout == 'channels_last':
        x = rng.standard_normal((2, 5, 6, 3)).astype(np.float32).transpose(0, 3, 1, 2)
    else:
        x = rng.standard_normal((2, 3, 10, 12)).astype(np.float32)[:, :, ::2, 1::2]
    w = rng.standard_normal((4, x.shape[1], 3, 3)).astype(np.float32)
    for stride in (1, 2):
        xt = ms.Tensor(x, requires_grad=True)
        y = ops.conv2d(xt, ms.Tensor(w), None, stride, 'pad', 1)
        want = conv2d_ref(x.astype(np.float64), w.astype(np.float64), None, (stride,) * 2,
                          (1,) * 4, (1, 1), 1)
        np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-4, atol=1e-4)
        gy = rng.standard_normal(y.shape).astype(np.float32)
        y.backward(ms.Tensor(np.ascontiguousarray(gy)))
        g1 = xt.grad.asnumpy()
        xt.grad = None
        y = ops.conv2d(xt, ms.Tensor(w), None, stride, 'pad', 1)
        y.backward(ms.Tensor(gy.transpose(0, 2, 3, 1).copy().transpose(0, 3, 1, 2)))
        np.testing.assert_allclose(xt.grad.asnumpy(), g1, rtol=1e-5, atol=1e-5)


def test_float32_gradients_stay_float32_and_constant_inputs_get_none():
    x = ms.Tensor(np.ones((1, 2, 4, 4), np.float32))
    w = ms.Tensor(np.ones((3, 2, 3, 3), np.float32), requires_grad=True)
    b = ms.Tensor(np.zeros(3, np.float32), requires_grad=True)
    ops.conv2d(x, w, b, pad_mode='same').sum().backward()
    assert w.grad.dtype == ms.float32 and b.grad.dtype == ms.float32 and x.grad is None
    np.testing.assert_allclose(b.grad.asnumpy(), [16.0, 16.0, 16.0])
    np.testing.assert_allclose(w.grad.asnumpy()[0, 0], [[9, 12, 9], [12, 16, 12], [9, 12, 9]])


def test_no_graph_is_recorded_without_gradients():
    y = ops.conv2d(ops.ones((1, 1, 3, 3)), ops.ones((1, 1, 2, 2)))
    assert not y.requires_grad and y._node is None


def test_second_derivative_of_a_squared_convolution_with_respect_to_the_weight():
    # f(w) = sum(conv(x, w)^2): d2f/dw2 . v = 2 * conv(x, v) correlated with x again
    rng = np.random.default_rng(8)
    x = rng.standard_normal((1, 1, 4, 4))
    w = ms.Tensor(rng.standard_normal((1, 1, 2, 2)), requires_grad=True)
    xt = ms.Tensor(x)
    y = ops.conv2d(xt, w)
    (y * y).sum().backward(create_graph=True)
    g = w.grad
    w.grad = None
    g.sum().backward()
    cols = np.stack([x[0, 0, a:a + 3, e:e + 3].ravel() for a in range(2) for e in range(2)])
    want = 2 * (cols @ cols.T).sum(axis=1)
    np.testing.assert_allclose(w.grad.asnumpy().ravel(), want, rtol=1e-10)


# ------------------------------------------------------------------------------ Conv2D
def test_conv2d_primitive_matches_the_function():
    rng = np.random.default_rng(10)
    x = ms.Tensor(rng.standard_normal((1, 2, 6, 6)))
    w = ms.Tensor(rng.standard_normal((3, 2, 3, 3)))
    prim = ops.Conv2D(out_channel=3, kernel_size=3, pad_mode='pad', pad=(1, 0, 1, 0),
                      stride=(1, 1, 2, 2), dilation=1)
    want = ops.conv2d(x, w, None, 2, 'pad', (1, 0, 1, 0))
    np.testing.assert_array_equal(prim(x, w).asnumpy(), want.asnumpy())
    assert prim.stride == (2, 2) and prim.kernel_size == (3, 3)
    assert repr(prim).startswith("Prim[Conv2D]<out_channel=3, kernel_size=(3, 3), mode=1")


@pytest.mark.parametrize('kwargs,call,err,match', [
    (dict(out_channel=3, kernel_size=3), ((1, 2, 5, 5), (3, 2, 2, 2)), ValueError,
     r"ops.Conv2D: weight of shape \(3, 2, 2, 2\) does not match out_channel=3 and "
     r"kernel_size=\(3, 3\)"),
    (dict(out_channel=3, kernel_size=3, data_format='NHWC'), None, ValueError,
     "ops.Conv2D: data_format must be 'NCHW', got 'NHWC'"),
    (dict(out_channel=0, kernel_size=3), None, ValueError, "ops.Conv2D: out_channel must be >= 1"),
    (dict(out_channel=3, kernel_size=3, mode='x'), None, TypeError,
     "ops.Conv2D: mode must be an int"),
    (dict(out_channel=3, kernel_size=3, pad=1), None, ValueError,
     "ops.Conv2D: padding must be 0 when pad_mode is 'valid'"),
])
def test_conv2d_primitive_errors(kwargs, call, err, match):
    with pytest.raises(err, match=match):
        prim = ops.Conv2D(**kwargs)
        prim(ops.ones(call[0]), ops.ones(call[1]))


# ------------------------------------------------------------------------------ errors
X4, W4 = (1, 2, 5, 5), (3, 2, 3, 3)


@pytest.mark.parametrize('xs,ws,kwargs,err,match', [
    ((2, 5, 5), W4, {}, ValueError, r"ops.conv2d: input must be 4-d \(N, C, H, W\), got shape "
                                    r"\(2, 5, 5\)"),
    (X4, (3, 2, 3), {}, ValueError, r"ops.conv2d: weight must be 4-d"),
    (X4, (3, 3, 3, 3), {}, ValueError, r"ops.conv2d: input of shape \(1, 2, 5, 5\) has 2 "
                                       r"channels, weight of shape \(3, 3, 3, 3\) with groups=1 "
                                       r"expects 3"),
    (X4, (3, 1, 3, 3), dict(groups=2), ValueError, r"has 3 output channels, not divisible by "
                                                   r"groups=2"),
    (X4, W4, dict(groups=0), ValueError, "ops.conv2d: groups must be a positive int, got 0"),
    (X4, W4, dict(bias=np.ones(2, np.float32)), ValueError,
     r"ops.conv2d: bias must have shape \(3,\), got \(2,\)"),
    (X4, W4, dict(bias=np.ones(3, np.float64)), TypeError,
     "ops.conv2d: bias must have the input's dtype Float32, got Float64"),
    (X4, W4, dict(pad_mode='full'), ValueError,
     "ops.conv2d: pad_mode must be one of 'same', 'valid', 'pad', got 'full'"),
    (X4, W4, dict(padding=1), ValueError,
     r"ops.conv2d: padding must be 0 when pad_mode is 'valid', got 1 \(use pad_mode='pad'\)"),
    (X4, W4, dict(pad_mode='pad', padding=-1), ValueError,
     "ops.conv2d: padding must be >= 0, got -1"),
    (X4, W4, dict(pad_mode='pad', padding=(1, 2, 3)), TypeError,
     r"ops.conv2d: padding must be an int or a tuple of 2 or 4 ints, got \(1, 2, 3\)"),
    (X4, W4, dict(stride=0), ValueError, "ops.conv2d: stride must be >= 1, got 0"),
    (X4, W4, dict(stride=1.5), TypeError,
     "ops.conv2d: stride must be an int or a tuple of 2 ints, got 1.5"),
    (X4, W4, dict(dilation=(1, 2, 3)), TypeError, "ops.conv2d: dilation must be an int or a "
                                                  "tuple of 2 ints"),
    (X4, W4, dict(dilation=3), ValueError, r"ops.conv2d: the kernel \(3, 3\) with dilation "
                                           r"\(3, 3\) spans \(7, 7\), more than the padded "
                                           r"input \(5, 5\)"),
])
def test_conv2d_errors(xs, ws, kwargs, err, match):
    bias = kwargs.pop('bias', None)
    with pytest.raises(err, match=match):
        ops.conv2d(ops.ones(xs), ops.ones(ws), bias, **kwargs)


def test_conv2d_dtype_errors():
    with pytest.raises(TypeError, match="ops.conv2d: input must be a floating tensor, got "
                                        "dtype Int64"):
        ops.conv2d(ms.Tensor(np.ones(X4, np.int64)), ops.ones(W4))
    with pytest.raises(TypeError, match="ops.conv2d: input and weight must have the same "
                                        "dtype, got Float32 and Float64"):
        ops.conv2d(ops.ones(X4), ms.Tensor(np.ones(W4)))


@pytest.mark.parametrize('kwargs,err,match', [
    (dict(padding=(1, 1, 1, 1), pad_mode='pad'), TypeError,
     r"ops.conv1d: padding must be an int or a pair \(left, right\)"),
    (dict(stride=(1, 2)), TypeError, r"ops.conv1d: stride must be an int or a tuple of 1 ints"),
    (dict(padding=2), ValueError, "ops.conv1d: padding must be 0 when pad_mode is 'valid'"),
])
def test_conv1d_errors(kwargs, err, match):
    with pytest.raises(err, match=match):
        ops.conv1d(ops.ones((1, 2, 6)), ops.ones((3, 2, 3)), **kwargs)
    with pytest.raises(ValueError, match=r"ops.conv1d: input must be 3-d \(N, C, L\)"):
        ops.conv1d(ops.ones((1, 2, 6, 1)), ops.ones((3, 2, 3)))


# ------------------------------------------------------------------------------ buffer pool
def _address(a):
    return a.__array_interface__['data'][0]


def test_buffer_pool_lends_memory_again_only_once_every_view_is_gone():
    pool = BufferPool(limit=64 << 20)
    a = pool.empty((512, 1024), np.float32)                 # 2 MiB
    assert a.shape == (512, 1024) and a.dtype == np.float32 and a.flags.writeable
    where = _address(a)
    view = a.T[::2]
    del a
    b = pool.empty((512, 1024), np.float32)
    assert _address(b) != where                             # a view still uses the memory
    del view
    c = pool.empty((1024, 256), np.float64)
    assert _address(c) == where and c.shape == (1024, 256) and pool.idle == []
    small = pool.empty((200, 1024), np.float32)              # 0.8 MiB: straight from NumPy
    assert small.flags.owndata and pool.idle == []


def test_buffer_pool_lends_the_smallest_idle_buffer_at_most_a_quarter_larger():
    pool = BufferPool(limit=64 << 20)
    big, mid = pool.empty((5 << 20,), np.uint8), pool.empty((9 << 18,), np.uint8)
    where_big, where_mid = _address(big), _address(mid)
    del big, mid
    assert sorted(b.nbytes for b in pool.idle) == [9 << 18, 5 << 20]
    a = pool.empty((2 << 20,), np.uint8)                     # 2 MiB: 2.25 MiB fits
    assert _address(a) == where_mid
    b = pool.empty((4 << 20,), np.uint8)                     # 4 MiB: 5 MiB fits
    assert _address(b) == where_big and pool.idle == []
    del b
    c = pool.empty((3 << 20,), np.uint8)                     # 3 MiB: 5 MiB is too large
    assert _address(c) != where_big and len(pool.idle) == 1


def test_buffer_pool_keeps_at_most_its_limit_idle():
    pool = BufferPool(limit=3 << 20)
    arrays = [pool.empty((1 << 20,), np.uint8) for _ in range(5)]
    del arrays
    assert len(pool.idle) == 3 and sum(b.nbytes for b in pool.idle) <= 3 << 20


def test_a_retained_graph_keeps_its_pooled_im2col_matrix():
    rng = np.random.default_rng(11)
    x = ms.Tensor(rng.standard_normal((4, 16, 32, 32)).astype(np.float32))    # 2.4 MB im2col
    w = ms.Tensor(rng.standard_normal((8, 16, 3, 3)).astype(np.float32), requires_grad=True)
    y = ops.conv2d(x, w, pad_mode='same')
    y.sum().backward(retain_graph=True)
    first = w.grad.asnumpy().copy()
    w.grad = None
    for _ in range(2):      # other convolutions of the same size borrow and return buffers
        ops.conv2d(ms.Tensor(rng.standard_normal((4, 16, 32, 32)).astype(np.float32)), w,
                   pad_mode='same').sum().backward()
    w.grad = None
    y.sum().backward()
    np.testing.assert_array_equal(w.grad.asnumpy(), first)
