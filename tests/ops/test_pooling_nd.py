"""1-d, 3-d and adaptive pooling and their Primitives: outputs and input gradients against
MindSpore 2.10's recorded values (pooling_nd_mindspore_values.json, written by
make_pooling_nd_values.py from the calls of pooling_nd_inputs.py), on the CPU and the GPU;
gradients of first and second order against finite differences; argument errors."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import backend
from hookgrad.testing.cases import device_named
from hookgrad.testing.gradcheck import check_double_grad, check_grad
from tests.ops.pooling_nd_inputs import CALLS, INPUTS

with open(os.path.join(os.path.dirname(__file__), 'pooling_nd_mindspore_values.json')) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
@pytest.mark.parametrize('name', sorted(CALLS))
def test_matches_mindspore(name, device):
    source, which = CALLS[name]
    fn = eval(source, {'ops': ops})
    want = RECORDED[name]
    with backend.default_device(device_named(device)):
        x = ms.Tensor(INPUTS[which])
        out = fn(x)
        outs = out if isinstance(out, tuple) else (out,)
        w = ms.Tensor((np.arange(outs[0].size).reshape(outs[0].shape) % 5 + 1)
                      .astype(np.float32))

        def first(v):
            r = fn(v)
            return r[0] if isinstance(r, tuple) else r
        grad = ms.grad(lambda v: (first(v) * w).sum())(x)
    assert [str(o.dtype) for o in outs] == want['dtypes']
    for got, expected in zip(outs, want['outputs']):
        np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-6)
    assert len(outs) == len(want['outputs'])
    np.testing.assert_allclose(grad.asnumpy(), want['grad'], rtol=1e-6)


def _rng(shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape)


@pytest.mark.parametrize('fn, shape', [
    (lambda v: ops.avg_pool1d(v, 3, 2, 1, True, False), (2, 2, 7)),
    (lambda v: ops.avg_pool3d(v, (2, 3, 2), (1, 2, 2), 1, True, False), (1, 2, 4, 5, 5)),
    (lambda v: ops.avg_pool3d(v, 2, 1, 0, False, True, 3), (2, 1, 3, 3, 4)),
    (lambda v: ops.max_pool3d(v, 2, (1, 2, 1), 1), (1, 2, 3, 4, 5)),
    (lambda v: ops.adaptive_avg_pool1d(v, 2), (2, 3, 6)),
    (lambda v: ops.adaptive_avg_pool3d(v, (2, 3, None)), (2, 1, 5, 4, 3)),
    (lambda v: ops.adaptive_max_pool1d(v, 3), (2, 2, 6)),
    (lambda v: ops.adaptive_max_pool2d(v, (3, 2)), (2, 1, 5, 7)),
    (lambda v: ops.adaptive_max_pool2d(v, 3), (2, 4, 5)),
    (lambda v: ops.adaptive_max_pool3d(v, (2, 3, 2)), (1, 2, 3, 5, 4)),
])
def test_gradients_of_first_and_second_order(fn, shape):
    x = _rng(shape)
    check_grad(fn, x)
    check_double_grad(lambda v: fn(v) ** 2, x)


def test_unbatched_inputs_and_indices():
    x = ms.Tensor(_rng((2, 4, 5, 6)).astype(np.float32))
    batched = ops.max_pool3d(ops.expand_dims(x, 0), 2, return_indices=True)
    y, i = ops.max_pool3d(x, 2, return_indices=True)
    np.testing.assert_array_equal(y.asnumpy(), batched[0].asnumpy()[0])
    np.testing.assert_array_equal(i.asnumpy(), batched[1].asnumpy()[0])
    flat = x.asnumpy().reshape(2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, i.asnumpy().reshape(2, -1), 1),
                                  y.asnumpy().reshape(2, -1))
    y, i = ops.adaptive_max_pool2d(x[0], (3, 4), True)
    assert y.shape == (4, 3, 4) and i.dtype == ms.int64
    np.testing.assert_array_equal(
        np.take_along_axis(x.asnumpy()[0].reshape(4, -1), i.asnumpy().reshape(4, -1), 1),
        y.asnumpy().reshape(4, -1))
    y, i = ops.adaptive_max_pool3d(x, (1, 3, 2), True)
    assert y.shape == (2, 1, 3, 2) and i.dtype == ms.int32
    np.testing.assert_array_equal(np.take_along_axis(flat, i.asnumpy().reshape(2, -1), 1),
                                  y.asnumpy().reshape(2, -1))
    np.testing.assert_allclose(ops.adaptive_avg_pool3d(x, 1).asnumpy()[:, 0, 0, 0],
                               x.asnumpy().mean(axis=(1, 2, 3)), rtol=1e-6)


def T(shape, dtype=np.float32):
    return ms.Tensor(np.zeros(shape, dtype))


@pytest.mark.parametrize('call, error, match', [
    (lambda: ops.avg_pool1d(T((1, 2, 3, 4)), 2), ValueError, r'ops.avg_pool1d: input must be 3-d'),
    (lambda: ops.avg_pool1d(T((1, 2, 6), np.int32), 2), TypeError,
     r'ops.avg_pool1d: expected a floating tensor'),
    (lambda: ops.avg_pool1d(T((1, 2, 6)), 2, 1, 2), ValueError,
     r'ops.avg_pool1d: padding .* more than half the kernel'),
    (lambda: ops.avg_pool3d(T((1, 2, 6)), 2), ValueError,
     r'ops.avg_pool3d: input must be 4-d or 5-d'),
    (lambda: ops.avg_pool3d(T((1, 1, 4, 4, 4)), 2, divisor_override=-1), ValueError,
     r'ops.avg_pool3d: divisor_override must be an int >= 0'),
    (lambda: ops.avg_pool3d(T((1, 1, 4, 4, 4)), (2, 2)), TypeError,
     r'ops.avg_pool3d: kernel_size must be an int or a tuple of 3 ints'),
    (lambda: ops.max_pool3d(T((1, 1, 4, 4, 4)), 2, padding=(1, 2, 3, 4)), TypeError,
     r'ops.max_pool3d: padding must be an int or a tuple of 3 ints'),
    (lambda: ops.max_pool3d(T((1, 1, 4, 4, 4)), 2, return_indices=1), TypeError,
     r'ops.max_pool3d: return_indices must be a bool'),
    (lambda: ops.max_pool3d(T((1, 1, 4, 4, 4), np.bool_), 2), TypeError,
     r'ops.max_pool3d: expected a floating tensor'),
    (lambda: ops.adaptive_avg_pool1d(T((1, 2, 7)), 3), ValueError,
     r'ops.adaptive_avg_pool1d: the input\'s last dimension \(7\) must be divisible'),
    (lambda: ops.adaptive_max_pool1d(T((1, 2, 6)), 0), ValueError,
     r'ops.adaptive_max_pool1d: output_size must be a positive int'),
    (lambda: ops.adaptive_avg_pool3d(T((1, 2, 3, 4, 5)), (1, 2)), ValueError,
     r'ops.adaptive_avg_pool3d: output_size must be a positive int or a triple'),
    (lambda: ops.adaptive_max_pool2d(T((2, 3)), 1), ValueError,
     r'ops.adaptive_max_pool2d: input must be 3-d \(C, H, W\) or 4-d'),
    (lambda: ops.adaptive_max_pool2d(T((1, 2, 3)), 1, 'yes'), TypeError,
     r'ops.adaptive_max_pool2d: return_indices must be a bool'),
    (lambda: ops.adaptive_max_pool3d(T((1, 2, 3)), 1), ValueError,
     r'ops.adaptive_max_pool3d: input must be 4-d'),
    (lambda: ops.adaptive_max_pool3d(T((1, 2, 3, 4)), (1, None, 2)), ValueError,
     r'ops.adaptive_max_pool3d: output_size must be a positive int or a triple'),
    (lambda: ops.AdaptiveMaxPool3D()(T((1, 2, 3, 4)), (1, 1, 1)), TypeError,
     r'ops.AdaptiveMaxPool3D: output_size must be an Int32 or Int64 Tensor of shape \(3,\)'),
    (lambda: ops.AvgPool3D(2, pad_mode='valid', pad=1), ValueError,
     r"ops.AvgPool3D: pad must be 0 when pad_mode is 'valid'"),
    (lambda: ops.AvgPool3D(2, pad=(1, 2)), ValueError, r'ops.AvgPool3D: pad must be an int'),
    (lambda: ops.AvgPool3D(2, data_format='NDHWC'), ValueError,
     r"ops.AvgPool3D: data_format must be 'NCDHW'"),
    (lambda: ops.MaxPool3D(2, pad_mode='full'), ValueError, r'ops.MaxPool3D: pad_mode must be'),
    (lambda: ops.MaxPool3D(2)(T((1, 4, 4, 4))), ValueError,
     r'ops.MaxPool3D: x must be a 5-d \(N, C, D, H, W\) Tensor'),
])
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
