"""max_pool2d, avg_pool2d and adaptive_avg_pool2d against loop-based NumPy references and
finite differences (first and second order), and the average pooling gradient op AvgPool2DGrad
against its own reference."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import params, row_tests


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def out_len(size, k, s, lo, hi, d, ceil_mode):
    span = size + lo + hi - d * (k - 1) - 1
    out = (math.ceil(span / s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + lo:
        out -= 1
    return out


def max_pool_ref(x, k, s, pads, d, ceil_mode):
    """Loops over windows; the first largest input element wins (padding never does)."""
    n, c, h, w = x.shape
    ho = out_len(h, k[0], s[0], pads[0], pads[1], d[0], ceil_mode)
    wo = out_len(w, k[1], s[1], pads[2], pads[3], d[1], ceil_mode)
    y = np.full((n, c, ho, wo), -np.inf)
    idx = np.zeros((n, c, ho, wo), np.int64)
    for i in range(ho):
        for j in range(wo):
            for a in range(k[0]):
                for e in range(k[1]):
                    r, q = i * s[0] - pads[0] + a * d[0], j * s[1] - pads[2] + e * d[1]
                    if 0 <= r < h and 0 <= q < w:
                        better = x[:, :, r, q] > y[:, :, i, j]
                        y[:, :, i, j] = np.where(better, x[:, :, r, q], y[:, :, i, j])
                        idx[:, :, i, j] = np.where(better, r * w + q, idx[:, :, i, j])
    return y, idx


def avg_windows(hw, k, s, pads, ceil_mode, count_include_pad, divisor_override):
    """(i, j, rows, cols, divisor) for every output (i, j) of average pooling: the input
    rows and columns its window covers and what their sum is divided by."""
    h, w = hw
    ho = out_len(h, k[0], s[0], pads[0], pads[1], 1, ceil_mode)
    wo = out_len(w, k[1], s[1], pads[2], pads[3], 1, ceil_mode)
    for i in range(ho):
        for j in range(wo):
            r0, q0 = i * s[0] - pads[0], j * s[1] - pads[2]
            r1, q1 = min(r0 + k[0], h + pads[1]), min(q0 + k[1], w + pads[3])
            rows, cols = slice(max(r0, 0), min(r1, h)), slice(max(q0, 0), min(q1, w))
            if divisor_override:
                div = divisor_override
            elif count_include_pad:
                div = (r1 - r0) * (q1 - q0)
            else:
                div = (rows.stop - rows.start) * (cols.stop - cols.start)
            yield i, j, rows, cols, div


def avg_pool_ref(x, *geometry):
    windows = list(avg_windows(x.shape[2:], *geometry))
    y = np.zeros(x.shape[:2] + (windows[-1][0] + 1, windows[-1][1] + 1))
    for i, j, rows, cols, div in windows:
        y[:, :, i, j] = x[:, :, rows, cols].sum(axis=(2, 3)) / div
    return y


def avg_pool_grad_ref(gy, input_hw, *geometry):
    """The adjoint of avg_pool_ref: each output's gradient, divided, back over its window."""
    gx = np.zeros(gy.shape[:2] + tuple(input_hw))
    for i, j, rows, cols, div in avg_windows(input_hw, *geometry):
        gx[:, :, rows, cols] += gy[:, :, i, j, None, None] / div
    return gx


def adaptive_ref(x, out):
    h, w = x.shape[-2:]
    y = np.zeros(x.shape[:-2] + out)
    for i in range(out[0]):
        for j in range(out[1]):
            r0, r1 = i * h // out[0], -(-(i + 1) * h // out[0])
            q0, q1 = j * w // out[1], -(-(j + 1) * w // out[1])
            y[..., i, j] = x[..., r0:r1, q0:q1].mean(axis=(-2, -1))
    return y


def four_pads(p):
    if isinstance(p, int):
        return (p,) * 4
    return (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(p)


# ------------------------------------------------------------------------------ rows
def max_pool_row(kernel, stride, padding, dilation, ceil_mode, indices, double=False):
    """max_pool2d, returning (output, indices) with ``indices``, else the output."""
    k = pair(kernel)
    geometry = (k, k if stride is None else pair(stride), four_pads(padding), pair(dilation),
                ceil_mode)

    def max_pool(x):
        return ops.max_pool2d(x, kernel, stride, padding, dilation, indices, ceil_mode)

    def ref(x):
        y, i = max_pool_ref(x, *geometry)
        return (y, i) if indices else y
    name = f"max_pool2d{'-indices' if indices else ''}-{(kernel, stride, padding, dilation)}"
    return Case('MaxPool2D', max_pool, ref=ref, name=f"{name}-ceil={ceil_mode}",
                shapes=[((2, 3, 7, 6),) if indices else ((2, 2, 7, 6),)], double=double,
                rtol=0, atol=0)


def avg_geometry(kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    k = pair(kernel)
    return (k, k if stride is None else pair(stride), four_pads(padding), ceil_mode,
            count_include_pad, divisor_override)


def avg_pool_row(args, double=False):
    """avg_pool2d(x, *args)."""
    geometry = avg_geometry(*args)
    return Case('AvgPool2D', lambda x: ops.avg_pool2d(x, *args),
                ref=lambda x: avg_pool_ref(x, *geometry), name=f"avg_pool2d-{args}",
                shapes=[((2, 3, 7, 6),)], double=double, rtol=1e-14, atol=1e-14)


def avg_pool_grad_row(args, xs):
    """The input gradient of avg_pool2d(x, *args) at x of shape xs for a sensitivity gy,
    recorded (MindSpore's GradOperation) so that it can be differentiated again."""
    geometry = avg_geometry(*args)
    grad_with_sens = ops.GradOperation(sens_param=True)

    def avg_pool_grad(gy):
        x = ops.zeros(xs, gy.dtype).requires_grad_()
        return grad_with_sens(lambda x: ops.avg_pool2d(x, *args))(x, gy)
    ys = avg_pool_ref(np.zeros(xs), *geometry).shape
    return Case('AvgPool2DGrad', avg_pool_grad,
                ref=lambda gy: avg_pool_grad_ref(gy, xs[2:], *geometry),
                name=f"avg_pool2d-grad-{args}", shapes=[(ys,)], rtol=1e-14, atol=1e-14)


def adaptive_row(op, output_size, want, shapes=((2, 3, 7, 6), (3, 7, 6)), double=False):
    """adaptive_avg_pool2d, composed of the ops ``op``, to the output size ``want``."""
    return Case(op, lambda x: ops.adaptive_avg_pool2d(x, output_size),
                ref=lambda x: adaptive_ref(x, want), name=f"adaptive_avg_pool2d-{output_size}",
                shapes=[(s,) for s in shapes], double=double, rtol=1e-12, atol=1e-12)


# kernel, stride, padding, dilation, ceil_mode
MAX_ARGS = [
    (2, None, 0, 1, False),
    (3, 2, 1, 1, False),
    (3, 2, 1, 1, True),
    ((3, 2), (1, 2), (1, 0), (2, 1), False),
    (2, 2, 1, 1, True),
    ((2, 3), 1, (1, 1), 1, False),
]
MAX_DOUBLE = MAX_ARGS[1:4]
# kernel, stride, padding, ceil_mode, count_include_pad, divisor_override
AVG_ARGS = [
    (2, 2, 0, False, True, 0),
    (3, 2, 1, True, True, 0),
    (3, 2, (1, 1, 0, 1), True, False, 0),
    ((3, 2), (1, 2), 1, False, True, 5),
    (2, None, (1, 0), False, False, None),
]
AVG_DOUBLE = AVG_ARGS[1:3]

MAX_POOL_INDICES = [max_pool_row(*args, indices=True) for args in MAX_ARGS]
MAX_POOL = [max_pool_row(*args, indices=False, double=args in MAX_DOUBLE) for args in MAX_ARGS]
AVG_POOL = [avg_pool_row(args, double=args in AVG_DOUBLE) for args in AVG_ARGS]
AVG_POOL_GRAD = [avg_pool_grad_row((3, 2, 1, False, True, 0), (1, 2, 7, 6)),
                 avg_pool_grad_row(AVG_ARGS[2], (1, 2, 7, 6))]
ADAPTIVE = [
    adaptive_row('ReduceMean', 1, (1, 1)),
    adaptive_row(('MatMul', 'Transpose'), (2, 3), (2, 3)),
    adaptive_row(('MatMul', 'Transpose'), (3, None), (3, 6)),
    adaptive_row(('MatMul', 'Transpose'), 4, (4, 4)),
    adaptive_row(('Reshape', 'ReduceMean'), (7, 6), (7, 6)),
    adaptive_row(('MatMul', 'Transpose'), (5, 4), (5, 4)),
    adaptive_row(('MatMul', 'Transpose'), (2, 3), (2, 3), shapes=[(1, 2, 5, 4)], double=True),
]
CASES = MAX_POOL_INDICES + MAX_POOL + AVG_POOL + AVG_POOL_GRAD + ADAPTIVE


globals().update(row_tests(CASES))


# ------------------------------------------------------------------------------ max_pool2d
@pytest.mark.parametrize('case,shapes', params(MAX_POOL_INDICES))
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_max_pool_values_and_int64_indices_are_exact(case, shapes, dtype):
    x, = case.arrays(shapes, dtype)
    y, i = case.fn(ms.Tensor(x))
    want, want_i = case.ref(x)
    assert y.asnumpy().dtype == dtype and i.dtype == ms.int64 and not i.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), want)
    np.testing.assert_array_equal(i.asnumpy(), want_i)


def test_max_pool_gradient_goes_to_the_first_of_tied_maxima():
    x = ms.Tensor(np.ones((1, 1, 3, 3)), requires_grad=True)
    ops.max_pool2d(x, 2, 1).backward(ms.Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]])))
    np.testing.assert_array_equal(x.grad.asnumpy()[0, 0], [[1, 2, 0], [3, 4, 0], [0, 0, 0]])


def test_max_pool_nan_is_the_maximum_and_its_first_position_gets_the_gradient():
    x = ms.Tensor(np.array([[[[1.0, np.nan], [np.nan, 2.0]]]]), requires_grad=True)
    y, i = ops.max_pool2d(x, 2, return_indices=True)
    assert np.isnan(y.asnumpy()).all() and i.asnumpy().item() == 1
    y.backward(ms.Tensor(np.array([[[[5.0]]]])))
    np.testing.assert_array_equal(x.grad.asnumpy()[0, 0], [[0, 5], [0, 0]])


@pytest.mark.parametrize('order', [(0, 2, 3, 1), (1, 2, 3, 0)], ids=['channels-last', 'batch-last'])
@pytest.mark.parametrize('kernel,stride', [(2, 2), (3, 2), (2, 1)])
def test_max_pool_of_an_input_stored_otherwise_keeps_its_layout(kernel, stride, order):
    """An input stored (N, H, W, C) or (C, H, W, N), as convolutions return it, gives values
    and gradients equal to the NCHW input's, and a gradient stored as the input is, whatever
    the layout of the gradient that comes in."""
    rng = np.random.default_rng(3)
    x = np.maximum(rng.standard_normal((2, 3, 7, 7)), 0)                          # ReLU ties
    x_stored = np.ascontiguousarray(x.transpose(order)).transpose(np.argsort(order))
    gy = rng.standard_normal(ops.max_pool2d(ms.Tensor(x), kernel, stride).shape)
    got = []
    for a, g in ((x_stored, gy), (x_stored, np.asfortranarray(gy)), (x, gy)):
        seen = []
        t = ms.Tensor(a, requires_grad=True)
        u = t * 1.0                                 # an intermediate stored as a is
        u.register_hook(lambda g: seen.append(g.asnumpy()))
        y = ops.max_pool2d(u, kernel, stride)
        y.backward(ms.Tensor(g))
        got.append((y.asnumpy(), seen[0]))
    for other in got[1:]:
        np.testing.assert_array_equal(got[0][0], other[0])
        np.testing.assert_array_equal(got[0][1], other[1])
    for grad in (got[0][1], got[1][1]):
        assert grad.transpose(order).flags.c_contiguous
    assert got[2][1].flags.c_contiguous


def test_max_pool_keeps_integer_dtypes():
    x = ms.Tensor(np.arange(16, dtype=np.int32).reshape(1, 1, 4, 4))
    y = ops.max_pool2d(x, 2, 2, padding=1)
    assert y.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[0, 2, 3], [8, 10, 11], [12, 14, 15]])


# ------------------------------------------------------------------------------ errors
@pytest.mark.parametrize('fn,kwargs,err,match', [
    (ops.max_pool2d, dict(kernel_size=2, padding=2), ValueError,
     r"ops.max_pool2d: padding \(top\) 2 is more than half the kernel size 2"),
    (ops.max_pool2d, dict(kernel_size=0), ValueError, "ops.max_pool2d: kernel_size must be >= 1"),
    (ops.max_pool2d, dict(kernel_size=9), ValueError,
     r"ops.max_pool2d: the kernel \(9, 9\) \(dilation \(1, 1\)\) does not fit the padded "
     r"input \(6, 6\)"),
    (ops.max_pool2d, dict(kernel_size=2, ceil_mode=1), TypeError,
     "ops.max_pool2d: ceil_mode must be a bool, got 1"),
    (ops.max_pool2d, dict(kernel_size=2, stride=(1, 2, 3)), TypeError,
     r"ops.max_pool2d: stride must be an int or a tuple of 2 ints"),
    (ops.avg_pool2d, dict(kernel_size=2, padding=(1, 2, 0, 0)), ValueError,
     r"ops.avg_pool2d: padding \(bottom\) 2 is more than half the kernel size 2"),
    (ops.avg_pool2d, dict(kernel_size=2, divisor_override=-1), ValueError,
     "ops.avg_pool2d: divisor_override must be an int >= 0"),
    (ops.avg_pool2d, dict(kernel_size=2, count_include_pad=None), TypeError,
     "ops.avg_pool2d: count_include_pad must be a bool"),
    (ops.adaptive_avg_pool2d, dict(output_size=0), ValueError,
     r"ops.adaptive_avg_pool2d: output_size must be a positive int or a pair"),
    (ops.adaptive_avg_pool2d, dict(output_size=(1, 2, 3)), ValueError,
     r"ops.adaptive_avg_pool2d: output_size must be a positive int or a pair"),
])
def test_pooling_argument_errors(fn, kwargs, err, match):
    with pytest.raises(err, match=match):
        fn(ops.ones((1, 1, 6, 6)), **kwargs)


def test_pooling_input_errors():
    with pytest.raises(ValueError, match=r"ops.max_pool2d: input must be 4-d \(N, C, H, W\), "
                                         r"got shape \(6, 6\)"):
        ops.max_pool2d(ops.ones((6, 6)), 2)
    with pytest.raises(TypeError, match="ops.max_pool2d: expected a real number tensor, got "
                                        "dtype Bool"):
        ops.max_pool2d(ms.Tensor(np.ones((1, 1, 4, 4), bool)), 2)
    with pytest.raises(TypeError, match="ops.avg_pool2d: expected a floating tensor, got dtype "
                                        "Int64"):
        ops.avg_pool2d(ms.Tensor(np.ones((1, 1, 4, 4), np.int64)), 2)
    with pytest.raises(ValueError, match=r"ops.adaptive_avg_pool2d: input must be 3-d"):
        ops.adaptive_avg_pool2d(ops.ones((4, 4)), 2)
    with pytest.raises(TypeError, match="ops.adaptive_avg_pool2d: expected a floating tensor"):
        ops.adaptive_avg_pool2d(ms.Tensor(np.ones((1, 4, 4), np.int64)), 2)


def test_avg_pool_gradient_sums_windows_in_output_order():
    """Overlapping windows add into an element in output order (row by row), so the float32
    gradient is bit for bit MindSpore 2.10's (AvgPool(3, 2, 'SAME'), sens 1..9)."""
    x = ms.Tensor(np.array([[0, 1, 2, 3, -4, -5], [6, 7, 8, 9, -10, -11], [12, 13, 14, -15, -16, -17],
                            [18, 19, 20, 21, 22, 23], [24, 25, 26, 27, 28, 29],
                            [30, 31, 32, 33, 34, 35]], np.float32).reshape(1, 1, 6, 6))
    pool = ops.AvgPool(kernel_size=3, strides=2, pad_mode="SAME")
    sens = ms.Tensor(np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3))
    (gx,) = ops.GradOperation(get_all=True, sens_param=True)(pool)(x, sens)
    want = np.array([[1038323257, 1038323257, 1051372203, 1046711865, 1060692878, 1056964608],
                     [1038323257, 1038323257, 1051372203, 1046711865, 1060692878, 1056964608],
                     [1057896676, 1057896676, 1068149419, 1061624946, 1074906908, 1069547520],
                     [1055100473, 1055100473, 1065353216, 1057896676, 1070013554, 1065353216],
                     [1070479587, 1070479587, 1080033280, 1072809757, 1084518855, 1078984704],
                     [1066751317, 1066751317, 1075838976, 1068149419, 1080382806, 1074790400]],
                    np.int32)
    np.testing.assert_array_equal(gx.asnumpy()[0, 0].view(np.int32), want)


@pytest.mark.parametrize('kernel, stride, padding, dilation, ceil', [
    (2, 2, 0, 1, False),        # windows tile the input
    (2, 3, 0, 1, False),        # apart, not tiling
    (3, 2, 1, 1, False),        # overlapping
    (2, 2, 1, 1, True),         # padding and a ceil-mode partial window
    (2, 3, 0, 2, False),        # dilated, apart
])
def test_max_pool_on_a_device_matches_the_cpu(kernel, stride, padding, dilation, ceil):
    """A device copies the windows once and reduces them (first maximum, first NaN), and
    places the gradient in one write where windows do not overlap."""
    from hookgrad.kernels import backend
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3, 9, 8)).round(1)       # ties inside windows
    a[0, 0, 1, 1] = a[1, 2, 4, 3] = np.nan
    gy = None
    results = []
    for device in (backend.CPU, backend.gpu()):
        with backend.default_device(device):
            x = ms.Tensor(a, requires_grad=True)
            y, idx = ops.max_pool2d(x, kernel, stride, padding, dilation, return_indices=True,
                                    ceil_mode=ceil)
            if gy is None:
                gy = rng.standard_normal(y.shape)
            (y * ms.Tensor(gy)).sum().backward()
            results.append([y.asnumpy(), idx.asnumpy(), x.grad.asnumpy()])
    for got, want in zip(*results[::-1]):
        np.testing.assert_array_equal(got, want)
