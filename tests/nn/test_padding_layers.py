"""Padding layers against MindSpore 2.10's outputs (x = arange(12).reshape(1, 3, 4)), their
gradients, reprs and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.testing import check_grad

X = ms.Tensor(np.arange(12, dtype=np.float32).reshape(1, 3, 4))

# cell, MindSpore 2.10's output for X (shape, values)
MINDSPORE = [
    (lambda: nn.Pad(((0, 0), (1, 1), (2, 0)), 'REFLECT'),
     [[6, 5, 4, 5, 6, 7], [2, 1, 0, 1, 2, 3], [6, 5, 4, 5, 6, 7], [10, 9, 8, 9, 10, 11],
      [6, 5, 4, 5, 6, 7]]),
    (lambda: nn.Pad(((0, 0), (1, 1), (2, 0)), 'SYMMETRIC'),
     [[1, 0, 0, 1, 2, 3], [1, 0, 0, 1, 2, 3], [5, 4, 4, 5, 6, 7], [9, 8, 8, 9, 10, 11],
      [9, 8, 8, 9, 10, 11]]),
    (lambda: nn.Pad(((0, 0), (1, 1), (2, 0))),
     [[0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 2, 3], [0, 0, 4, 5, 6, 7], [0, 0, 8, 9, 10, 11],
      [0, 0, 0, 0, 0, 0]]),
    (lambda: nn.ZeroPad2d((1, 0, 2, 1)),
     [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 2, 3], [0, 4, 5, 6, 7], [0, 8, 9, 10, 11],
      [0, 0, 0, 0, 0]]),
    (lambda: nn.ZeroPad2d(1),
     [[0, 0, 0, 0, 0, 0], [0, 0, 1, 2, 3, 0], [0, 4, 5, 6, 7, 0], [0, 8, 9, 10, 11, 0],
      [0, 0, 0, 0, 0, 0]]),
    (lambda: nn.ConstantPad1d((1, 2), 0.5),
     [[0.5, 0, 1, 2, 3, 0.5, 0.5], [0.5, 4, 5, 6, 7, 0.5, 0.5], [0.5, 8, 9, 10, 11, 0.5, 0.5]]),
    (lambda: nn.ConstantPad1d(1, 0.5),
     [[0.5, 0, 1, 2, 3, 0.5], [0.5, 4, 5, 6, 7, 0.5], [0.5, 8, 9, 10, 11, 0.5]]),
    (lambda: nn.ReflectionPad1d((2, 1)),
     [[2, 1, 0, 1, 2, 3, 2], [6, 5, 4, 5, 6, 7, 6], [10, 9, 8, 9, 10, 11, 10]]),
    (lambda: nn.ReflectionPad2d(1),
     [[5, 4, 5, 6, 7, 6], [1, 0, 1, 2, 3, 2], [5, 4, 5, 6, 7, 6], [9, 8, 9, 10, 11, 10],
      [5, 4, 5, 6, 7, 6]]),
    (lambda: nn.ReplicationPad1d((2, 1)),
     [[0, 0, 0, 1, 2, 3, 3], [4, 4, 4, 5, 6, 7, 7], [8, 8, 8, 9, 10, 11, 11]]),
    (lambda: nn.ReplicationPad2d((1, 0, 1, 2)),
     [[0, 0, 1, 2, 3], [0, 0, 1, 2, 3], [4, 4, 5, 6, 7], [8, 8, 9, 10, 11], [8, 8, 9, 10, 11],
      [8, 8, 9, 10, 11]]),
]


@pytest.mark.parametrize('make, want', MINDSPORE, ids=lambda v: '' if callable(v) else None)
def test_values_match_mindspore(make, want):
    cell = make()
    np.testing.assert_array_equal(cell(X).asnumpy()[0], want)
    assert repr(cell) == f"{type(cell).__name__}()"
    check_grad(lambda t: cell(t), np.random.default_rng(0).standard_normal((2, 3, 4)))


def test_constant_pad_3d_matches_mindspore():
    y = nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 0.5)(X)
    assert y.shape == (2, 4, 5)
    np.testing.assert_array_equal(y.asnumpy()[0], 0.5)
    np.testing.assert_array_equal(y.asnumpy()[1, :, 0], 0.5)
    np.testing.assert_array_equal(y.asnumpy()[1, :3, 1:], X.asnumpy()[0])
    assert nn.ConstantPad2d(1, 2.0)(X).shape == (1, 5, 6)


@pytest.mark.parametrize('make, error, message', [
    (lambda: nn.Pad(((1, 1),), 'EDGE'), ValueError,
     "nn.Pad: mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', got 'EDGE'"),
    (lambda: nn.Pad([[1, 1]]), TypeError, "nn.Pad: paddings must be a tuple, got list"),
    (lambda: nn.Pad(((1, 1, 1),)), ValueError, r"nn.Pad: paddings must be pairs of ints >= 0"),
    (lambda: nn.Pad(((0, 0),) * 5), ValueError, "only paddings of up to 4 dimensions"),
    (lambda: nn.Pad(((0, 0),) * 4)(X), ValueError, r"4 pairs of paddings for an input of shape"),
    (lambda: nn.Pad(((0, 0), (0, 0), (5, 0)), 'SYMMETRIC')(X), ValueError,
     "in 'SYMMETRIC' mode the padding must be at most the size of the dimension"),
    (lambda: nn.ConstantPad1d((1, 2, 3, 4), 0.0), ValueError,
     "nn.ConstantPad1d: padding must hold at most 2 ints, got 4"),
    (lambda: nn.ConstantPad2d((1, 2, 3), 0.0), ValueError,
     "nn.ConstantPad2d: the length of padding must be a multiple of 2, got 3"),
    (lambda: nn.ConstantPad2d([1, 2], 0.0), TypeError,
     "nn.ConstantPad2d: padding must be an int or a tuple, got list"),
    (lambda: nn.ConstantPad3d(1, '0'), TypeError,
     "nn.ConstantPad3d: value must be an int or a float, got str"),
    (lambda: nn.ReflectionPad1d((-1, 1)), ValueError,
     "nn.ReflectionPad1d: every element of padding must be >= 0"),
    (lambda: nn.ReplicationPad2d((1, 1.5)), TypeError,
     "nn.ReplicationPad2d: every element of padding must be an int"),
    (lambda: nn.ReflectionPad2d(4)(X), ValueError,
     "in 'reflect' mode the padding must be less than the size of the dimension"),
])
def test_bad_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()
