"""ops.pad in its four modes: NumPy's np.pad as reference, float64 finite differences (the
gradient adds every copy back), MindSpore's values and the argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

NP_MODE = {'reflect': 'reflect', 'replicate': 'edge', 'circular': 'wrap'}


def _np_pad(x, padding, mode, value=0.0):
    widths = [(0, 0)] * x.ndim
    for k in range(len(padding) // 2):
        widths[x.ndim - 1 - k] = (padding[2 * k], padding[2 * k + 1])
    if mode == 'constant':
        crop = tuple(slice(max(-b, 0), x.shape[i] - max(-a, 0)) for i, (b, a) in enumerate(widths))
        x = x[crop]
        widths = [(max(b, 0), max(a, 0)) for b, a in widths]
        return np.pad(x, widths, constant_values=value)
    return np.pad(x, widths, mode=NP_MODE[mode])


def _row(name, padding, mode, shapes, op, value=None):
    return Case(op, lambda x: ops.pad(x, padding, mode, value),
                ref=lambda x: _np_pad(x, padding, mode, 0.0 if value is None else value),
                shapes=shapes, name=name, rtol=1e-12, atol=1e-12)


CASES = [
    _row('constant-last', (1, 2), 'constant', [((3, 4),), ((2, 3, 4),), ((5,),)], 'Concat'),
    _row('constant-two-value', (1, 0, 2, 1), 'constant', [((2, 3, 4),)], 'Concat', 1.5),
    _row('constant-crop', (-1, 2, 0, -1), 'constant', [((2, 3, 4),)], 'GetItem'),
    _row('reflect', (2, 3), 'reflect', [((2, 3, 4),), ((4,),)], 'Take'),
    _row('reflect-2d', (2, 1, 1, 2), 'reflect', [((1, 3, 4),)], 'Take'),
    _row('replicate', (2, 5, 1, 0), 'replicate', [((2, 3, 4),)], 'Take'),
    _row('circular', (2, 3), 'circular', [((2, 3, 4),)], 'Take'),
    _row('circular-3d', (1, 1, 1, 0, 2, 1), 'circular', [((2, 3, 4, 2),)], 'Take'),
]

globals().update(row_tests(CASES))

X = ms.Tensor(np.arange(12, dtype=np.float32).reshape(1, 3, 4))


def test_values_match_mindspore():
    # MindSpore 2.10's outputs for X = arange(12).reshape(1, 3, 4)
    assert ops.pad(X, (2, 3), 'reflect').asnumpy()[0, 0].tolist() == \
        [2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 2.0, 1.0, 0.0]
    assert ops.pad(X, (1, 1, 1, 0), 'circular').asnumpy()[0, :, 0].tolist() == \
        [11.0, 3.0, 7.0, 11.0]
    assert ops.pad(X, (2, 5), 'replicate').asnumpy()[0, 1].tolist() == \
        [4.0, 4.0, 4.0, 5.0, 6.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0]
    assert ops.pad(X, (-1, 2)).asnumpy()[0, 2].tolist() == [9.0, 10.0, 11.0, 0.0, 0.0]
    assert ops.pad(X, (1, 2, 0, 1), value=9.).asnumpy()[0, 3].tolist() == [9.0] * 7
    y = ops.pad(ms.Tensor(np.arange(4).reshape(1, 4)), (1, 1), value=3)
    assert y.dtype == ms.int64 and y.asnumpy().tolist() == [[3, 0, 1, 2, 3, 3]]
    g = ms.grad(lambda u: (ops.pad(u, (2, 3), 'reflect') *
                           ms.Tensor(np.arange(9, dtype=np.float32))).sum())(X)
    np.testing.assert_array_equal(g.asnumpy()[0], [[10, 11, 10, 5]] * 3)


@pytest.mark.parametrize('call, error, message', [
    (lambda: ops.pad(X, (1,)), ValueError, "ops.pad: the size of padding must be divisible by 2"),
    (lambda: ops.pad(X, (1,) * 8), ValueError, r"ops.pad: padding \(1, 1, 1, 1, 1, 1, 1, 1\) "
                                               r"pads 4 dimensions of a 3-d input"),
    (lambda: ops.pad(X, (1, 1), 'zeros'), ValueError, "ops.pad: mode must be one of 'constant', "
                                                      "'reflect', 'replicate', 'circular'"),
    (lambda: ops.pad(X, (1, 1), 'reflect', 2.0), ValueError,
     "ops.pad: the padding mode 'reflect' can not set value, got 2.0"),
    (lambda: ops.pad(X, (4, 0), 'reflect'), ValueError,
     r"ops.pad: in 'reflect' mode the padding must be less than the size of the dimension, got "
     r"\(4, 0\) for dimension 2 of size 4"),
    (lambda: ops.pad(X, (5, 0), 'circular'), ValueError,
     "in 'circular' mode the padding must be at most the size of the dimension"),
    (lambda: ops.pad(X, (-1, 0), 'replicate'), ValueError,
     r"ops.pad: negative padding \(-1, 0\) is only allowed in 'constant' mode"),
    (lambda: ops.pad(X, (-3, -2)), ValueError, "crops more than the 4 elements of dimension 2"),
    (lambda: ops.pad(X, (1.0, 1)), TypeError, "ops.pad: padding must be a tuple or list of ints"),
    (lambda: ops.pad(X, (1, 1), value='a'), TypeError, "ops.pad: value must be a number"),
    (lambda: ops.pad([1.0], (1, 1)), TypeError, "ops.pad: input_x must be a Tensor, got list"),
])
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()
