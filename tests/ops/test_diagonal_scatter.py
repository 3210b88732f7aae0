"""diagonal_scatter: MindSpore 2.10's values, gradients and errors; gradients of every order
against finite differences."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _ref(a, src, offset=0, dim1=0, dim2=1):
    out = np.moveaxis(a.copy(), (dim1, dim2), (-2, -1))
    n = src.shape[-1]
    i = np.arange(n)
    out[..., i - min(offset, 0), i + max(offset, 0)] = src
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


CASES = [
    Case(('EmbedDiagonal', 'Diagonal'), ops.diagonal_scatter, ref=_ref,
         shapes=[((3, 4), (3,)), ((4, 3), (3,)), ((3, 3), (3,))], rtol=0, atol=0,
         name='diagonal_scatter'),
    Case(('EmbedDiagonal', 'Diagonal'), lambda x, s: ops.diagonal_scatter(x, s, 1),
         ref=lambda a, s: _ref(a, s, 1), shapes=[((3, 4), (3,))], rtol=0, atol=0,
         name='diagonal_scatter_above'),
    Case(('EmbedDiagonal', 'Diagonal'), lambda x, s: ops.diagonal_scatter(x, s, -1, 0, 2),
         ref=lambda a, s: _ref(a, s, -1, 0, 2), shapes=[((3, 2, 4), (2, 2))], rtol=0, atol=0,
         name='diagonal_scatter_dims'),
]

globals().update(row_tests(CASES))


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


X = np.arange(12, dtype=np.float32).reshape(3, 4)


# MindSpore 2.10's results (CPU)
def test_mindspore_values():
    src = t([-1.0, -2.0, -3.0])
    assert ops.diagonal_scatter(t(X), src).tolist() == [[-1, 1, 2, 3], [4, -2, 6, 7],
                                                        [8, 9, -3, 11]]
    assert t(X).diagonal_scatter(src, 1).tolist() == [[0, -1, 2, 3], [4, 5, -2, 7],
                                                      [8, 9, 10, -3]]
    assert ops.diagonal_scatter(t(X), t([-1.0, -2.0]), -1).tolist() == \
        [[0, 1, 2, 3], [-1, 5, 6, 7], [8, -2, 10, 11]]
    assert ops.diagonal_scatter(t(X), src, 0, 1, 0).tolist() == [[-1, 1, 2, 3], [4, -2, 6, 7],
                                                                 [8, 9, -3, 11]]
    c = t(np.arange(24).reshape(2, 3, 4))
    got = ops.diagonal_scatter(c, t(-np.ones((3, 2))), 0, 0, 2)
    assert got.tolist() == [[[-1, 1, 2, 3], [-1, 5, 6, 7], [-1, 9, 10, 11]],
                            [[12, -1, 14, 15], [16, -1, 18, 19], [20, -1, 22, 23]]]
    i = ops.diagonal_scatter(t([[0, 1], [2, 3]], np.int32), t([7, 8], np.int32))
    assert i.dtype == ms.int32 and i.tolist() == [[7, 1], [2, 8]]
    mixed = ops.diagonal_scatter(t(X), t([-1, -2, -3], np.int32))
    assert mixed.dtype == ms.float32 and mixed.tolist()[1][1] == -2


def test_mindspore_gradients():
    w = t(X * 0.5 - 2)
    gx, gs = ms.grad(lambda a, b: (ops.diagonal_scatter(a, b, 1) * w).sum(),
                     grad_position=(0, 1))(t(X), t([-1.0, -2.0, -3.0]))
    assert gx.tolist() == [[-2.0, 0.0, -1.0, -0.5], [0.0, 0.5, 0.0, 1.5], [2.0, 2.5, 3.0, 0.0]]
    assert gs.tolist() == [-1.5, 1.0, 3.5]


ERRORS = [
    (lambda: ops.diagonal_scatter(t(X), t([-1.0, -2.0])), ValueError,
     r"ops\.diagonal_scatter: src of shape \(2,\) does not fit the diagonal of shape \(3,\)"),
    (lambda: ops.diagonal_scatter(t(X), t([1.0, 2.0, 3.0]), 0, 1, 1), ValueError,
     r"ops\.diagonal_scatter: dim1 and dim2 must differ, got 1 and 1"),
    (lambda: ops.diagonal_scatter(t([1.0, 2.0]), t([1.0])), ValueError,
     r"ops\.diagonal_scatter: input must have rank >= 2, got shape \(2,\)"),
    (lambda: ops.diagonal_scatter(t(X), t([1.0, 2.0, 3.0]), 0, 0, 2), ValueError,
     r"ops\.diagonal_scatter: dim2 2 is out of range for a tensor of rank 2"),
    (lambda: ops.diagonal_scatter(t(X), t(np.zeros(0)), 4), ValueError,
     r"ops\.diagonal_scatter: offset must be in \(-3, 4\) for dims of lengths 3 and 4, got 4"),
    (lambda: ops.diagonal_scatter(t(X), [1.0, 2.0, 3.0]), TypeError,
     r"ops\.diagonal_scatter: src must be a Tensor, got list"),
    (lambda: ops.diagonal_scatter(t(X), t([1.0, 2.0, 3.0]), 1.0), TypeError,
     r"ops\.diagonal_scatter: offset must be an int, got 1\.0"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
