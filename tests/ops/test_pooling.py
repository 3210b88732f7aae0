"""max_pool2d, avg_pool2d and adaptive_avg_pool2d against loop-based NumPy references and
finite differences (first and second order)."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops.pooling import AvgPool2DGrad
from hookgrad.testing.gradcheck import check_double_grad, check_grad

COVERED_OPS = {'MaxPool2D', 'AvgPool2D', 'AvgPool2DGrad'}


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


def avg_pool_ref(x, k, s, pads, ceil_mode, count_include_pad, divisor_override):
    n, c, h, w = x.shape
    ho = out_len(h, k[0], s[0], pads[0], pads[1], 1, ceil_mode)
    wo = out_len(w, k[1], s[1], pads[2], pads[3], 1, ceil_mode)
    y = np.zeros((n, c, ho, wo))
    for i in range(ho):
        for j in range(wo):
            r0, q0 = i * s[0] - pads[0], j * s[1] - pads[2]
            r1, q1 = min(r0 + k[0], h + pads[1]), min(q0 + k[1], w + pads[3])
            window = x[:, :, max(r0, 0):min(r1, h), max(q0, 0):min(q1, w)]
            if divisor_override:
                div = divisor_override
            elif count_include_pad:
                div = (r1 - r0) * (q1 - q0)
            else:
                div = window.shape[2] * window.shape[3]
            y[:, :, i, j] = window.sum(axis=(2, 3)) / div
    return y


# ------------------------------------------------------------------------------ max_pool2d
# kernel, stride, padding, dilation, ceil_mode
MAX_CASES = [
    (2, None, 0, 1, False),
    (3, 2, 1, 1, False),
    (3, 2, 1, 1, True),
    ((3, 2), (1, 2), (1, 0), (2, 1), False),
    (2, 2, 1, 1, True),
    ((2, 3), 1, (1, 1), 1, False),
]


def _max_args(case):
    k, s, p, d, ceil = case
    kk = pair(k)
    ss = kk if s is None else pair(s)
    pp = pair(p)
    return kk, ss, (pp[0], pp[0], pp[1], pp[1]), pair(d), ceil


@pytest.mark.parametrize('case', MAX_CASES, ids=str)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_max_pool_forward_and_indices_match_reference(case, dtype):
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 6)).astype(dtype)
    k, s, p, d, ceil = case
    y, i = ops.max_pool2d(ms.Tensor(x), k, s, p, d, True, ceil)
    want, want_i = max_pool_ref(x, *_max_args(case))
    assert y.asnumpy().dtype == dtype and i.dtype == ms.int64 and not i.requires_grad
    np.testing.assert_array_equal(y.asnumpy(), want)
    np.testing.assert_array_equal(i.asnumpy(), want_i)


@pytest.mark.parametrize('case', MAX_CASES, ids=str)
def test_max_pool_backward_matches_finite_differences(case):
    x = np.random.default_rng(1).standard_normal((2, 2, 7, 6))
    k, s, p, d, ceil = case
    check_grad(lambda x: ops.max_pool2d(x, k, s, p, d, False, ceil), x)
    # through the two-output form the indices carry no gradient
    check_grad(lambda x: ops.max_pool2d(x, k, s, p, d, True, ceil)[0], x)


@pytest.mark.parametrize('case', MAX_CASES[1:4], ids=str)
def test_max_pool_double_backward_matches_finite_differences(case):
    x = np.random.default_rng(2).standard_normal((1, 2, 7, 6))
    k, s, p, d, ceil = case
    check_double_grad(lambda x: ops.max_pool2d(x, k, s, p, d, False, ceil) ** 2, x)


def test_max_pool_gradient_goes_to_the_first_of_tied_maxima():
    x = ms.Tensor(np.ones((1, 1, 3, 3)), requires_grad=True)
    ops.max_pool2d(x, 2, 1).backward(ms.Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]])))
    np.testing.assert_array_equal(x.grad.asnumpy()[0, 0], [[1, 2, 0], [3, 4, 0], [0, 0, 0]])


def test_max_pool_keeps_integer_dtypes():
    x = ms.Tensor(np.arange(16, dtype=np.int32).reshape(1, 1, 4, 4))
    y = ops.max_pool2d(x, 2, 2, padding=1)
    assert y.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[0, 2, 3], [8, 10, 11], [12, 14, 15]])


# ------------------------------------------------------------------------------ avg_pool2d
# kernel, stride, padding, ceil_mode, count_include_pad, divisor_override
AVG_CASES = [
    (2, 2, 0, False, True, 0),
    (3, 2, 1, True, True, 0),
    (3, 2, (1, 1, 0, 1), True, False, 0),
    ((3, 2), (1, 2), 1, False, True, 5),
    (2, None, (1, 0), False, False, None),
]


def _avg_pads(p):
    if isinstance(p, int):
        return (p,) * 4
    return (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(p)


@pytest.mark.parametrize('case', AVG_CASES, ids=str)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_avg_pool_forward_matches_reference(case, dtype):
    x = np.random.default_rng(3).standard_normal((2, 3, 7, 6)).astype(dtype)
    k, s, p, ceil, cip, dov = case
    y = ops.avg_pool2d(ms.Tensor(x), k, s, p, ceil, cip, dov)
    kk = pair(k)
    want = avg_pool_ref(x, kk, kk if s is None else pair(s), _avg_pads(p), ceil, cip, dov)
    assert y.asnumpy().dtype == dtype
    tol = 1e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(y.asnumpy(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize('case', AVG_CASES, ids=str)
def test_avg_pool_backward_matches_finite_differences(case):
    x = np.random.default_rng(4).standard_normal((2, 2, 7, 6))
    check_grad(lambda x: ops.avg_pool2d(x, *case), x)


@pytest.mark.parametrize('case', AVG_CASES[1:3], ids=str)
def test_avg_pool_double_backward_matches_finite_differences(case):
    x = np.random.default_rng(5).standard_normal((1, 2, 7, 6))
    check_double_grad(lambda x: ops.avg_pool2d(x, *case) ** 2, x)


def test_avg_pool_grad_op_against_finite_differences():
    p = dict(kernel_size=(3, 3), stride=(2, 2), padding=(1, 1, 1, 1), out_size=(4, 3),
             divisor=np.full((4, 3), 9.0))
    gy = np.random.default_rng(6).standard_normal((1, 2, 4, 3))
    check_grad(lambda g: AvgPool2DGrad.apply(g, input_size=(7, 6), **p), gy)


# ------------------------------------------------------------------------------ adaptive
def adaptive_ref(x, out):
    h, w = x.shape[-2:]
    y = np.zeros(x.shape[:-2] + out)
    for i in range(out[0]):
        for j in range(out[1]):
            r0, r1 = i * h // out[0], -(-(i + 1) * h // out[0])
            q0, q1 = j * w // out[1], -(-(j + 1) * w // out[1])
            y[..., i, j] = x[..., r0:r1, q0:q1].mean(axis=(-2, -1))
    return y


@pytest.mark.parametrize('output_size,want', [
    (1, (1, 1)), ((2, 3), (2, 3)), ((3, None), (3, 6)), (4, (4, 4)), ((7, 6), (7, 6)),
    ((5, 4), (5, 4)),
])
@pytest.mark.parametrize('shape', [(2, 3, 7, 6), (3, 7, 6)])
def test_adaptive_avg_pool_matches_reference_and_finite_differences(output_size, want, shape):
    x = np.random.default_rng(7).standard_normal(shape)
    y = ops.adaptive_avg_pool2d(ms.Tensor(x), output_size)
    np.testing.assert_allclose(y.asnumpy(), adaptive_ref(x, want), rtol=1e-12, atol=1e-12)
    check_grad(lambda x: ops.adaptive_avg_pool2d(x, output_size), x[..., :1, :, :])


def test_adaptive_avg_pool_double_backward():
    x = np.random.default_rng(8).standard_normal((1, 2, 5, 4))
    check_double_grad(lambda x: ops.adaptive_avg_pool2d(x, (2, 3)) ** 2, x)


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
