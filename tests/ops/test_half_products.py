"""float16 matrix products and convolutions on the CPU run in float32 (kernels/half.py): the
values are NumPy's float16 products (which also sum in float32), or the float32 kernels'
rounded once to float16, with float16 results and gradients."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

H = np.float16


def _rand(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(H)


@pytest.mark.parametrize('sa, sb', [((4, 5), (5, 3)), ((5,), (5, 3)), ((4, 5), (5,)),
                                    ((2, 4, 5), (5, 3)), ((2, 4, 5), (2, 5, 3))])
def test_matmul_values_are_numpys_float16_products(sa, sb):
    a, b = _rand(sa, 0), _rand(sb, 1)
    y = ops.matmul(ms.Tensor(a), ms.Tensor(b))
    assert y.dtype == ms.float16
    np.testing.assert_array_equal(y.asnumpy(), np.matmul(a, b))


def test_dense_and_its_gradients_in_float16():
    x, w, b = _rand((6, 5), 0), _rand((3, 5), 1), _rand((3,), 2)
    gy = _rand((6, 3), 3)
    xt, wt, bt = ms.Tensor(x), ms.Parameter(w, name='w'), ms.Parameter(b, name='b')
    y, (gx, (gw, gb)) = ms.value_and_grad(
        lambda x: (ops.dense(x, wt, bt) * ms.Tensor(gy)).sum(), 0, [wt, bt])(xt)
    np.testing.assert_array_equal(ops.dense(xt, wt, bt).asnumpy(), np.matmul(x, w.T) + b)
    assert gx.dtype == gw.dtype == ms.float16
    np.testing.assert_array_equal(gx.asnumpy(), np.matmul(gy, w))
    np.testing.assert_array_equal(gw.asnumpy(), np.matmul(gy.T, x))


@pytest.mark.parametrize('pad_mode, stride', [('same', 1), ('valid', 2), ('pad', 1)])
def test_conv2d_in_float16_is_the_float32_kernel_rounded_once(pad_mode, stride):
    x, w = _rand((2, 3, 7, 7), 0), _rand((4, 3, 3, 3), 1)
    kw = dict(pad_mode=pad_mode, stride=stride, padding=1 if pad_mode == 'pad' else 0)

    def run(dtype):
        xt, wt = ms.Tensor(x.astype(dtype)), ms.Parameter(w.astype(dtype), name='w')
        y = ops.conv2d(xt, wt, **kw)
        gy = ms.Tensor(_rand(y.shape, 2).astype(dtype))
        gx, gw = ms.grad(lambda a, b: (ops.conv2d(a, b, **kw) * gy).sum(), (0, 1))(xt, wt)
        return y.asnumpy(), gx.asnumpy(), gw.asnumpy()

    half, single = run(H), run(np.float32)
    for got, want in zip(half, single):
        assert got.dtype == H
        np.testing.assert_array_equal(got, want.astype(H))
