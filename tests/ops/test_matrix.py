"""tril/triu, diagonal, diag, diag_embed and trace: NumPy values, MindSpore's results and errors,
gradients against finite differences."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _embed_ref(a, offset=0, dim1=-2, dim2=-1):
    """diag_embed in NumPy: zeros with a's last axis on the offset diagonal of (dim1, dim2)."""
    n = a.shape[-1] + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), a.dtype)
    i = np.arange(a.shape[-1])
    out[..., i - min(offset, 0), i + max(offset, 0)] = a
    nd = a.ndim + 1
    d1, d2 = dim1 % nd, dim2 % nd
    rest = [k for k in range(nd) if k not in (d1, d2)]
    return np.transpose(out, np.argsort(rest + [d1, d2]))


def _diag_ref(a):
    return np.diag(a.ravel()).reshape(a.shape + a.shape)


CASES = [
    Case('Triangle', ops.tril, ref=np.tril, shapes=[((3, 4),), ((2, 3, 3),), ((4, 2),)],
         rtol=0, atol=0, name='tril'),
    Case('Triangle', lambda x: ops.tril(x, 1), ref=lambda a: np.tril(a, 1),
         shapes=[((3, 4),), ((2, 3, 4),)], rtol=0, atol=0, name='tril_above'),
    Case('Triangle', lambda x: ops.tril(x, -1), ref=lambda a: np.tril(a, -1),
         shapes=[((3, 4),)], rtol=0, atol=0, name='tril_below'),
    Case('Triangle', ops.triu, ref=np.triu, shapes=[((3, 4),), ((2, 3, 3),)],
         rtol=0, atol=0, name='triu'),
    Case('Triangle', lambda x: ops.triu(x, -2), ref=lambda a: np.triu(a, -2),
         shapes=[((4, 3),), ((2, 4, 4),)], rtol=0, atol=0, name='triu_below'),
    Case(('Diagonal', 'EmbedDiagonal'), ops.diagonal, ref=np.diagonal,
         shapes=[((3, 4),), ((4, 3),), ((2, 3, 4),)], rtol=0, atol=0, name='diagonal'),
    Case(('Diagonal', 'EmbedDiagonal'), lambda x: ops.diagonal(x, 1, 1, 2),
         ref=lambda a: np.diagonal(a, 1, 1, 2), shapes=[((2, 3, 4),)], rtol=0, atol=0,
         name='diagonal_offset'),
    Case(('Diagonal', 'EmbedDiagonal'), lambda x: ops.diagonal(x, -1, -1, 0),
         ref=lambda a: np.diagonal(a, -1, -1, 0), shapes=[((3, 2, 4),)], rtol=0, atol=0,
         name='diagonal_negative_dims'),
    Case(('EmbedDiagonal', 'Diagonal'), ops.diag_embed, ref=_embed_ref,
         shapes=[((3,),), ((2, 3),)], rtol=0, atol=0, name='diag_embed'),
    Case(('EmbedDiagonal', 'Diagonal'), lambda x: ops.diag_embed(x, 1),
         ref=lambda a: _embed_ref(a, 1), shapes=[((2, 3),)], rtol=0, atol=0,
         name='diag_embed_offset'),
    Case(('EmbedDiagonal', 'Diagonal'), lambda x: ops.diag_embed(x, -1, 0, 2),
         ref=lambda a: _embed_ref(a, -1, 0, 2), shapes=[((2, 3),)], rtol=0, atol=0,
         name='diag_embed_dims'),
    Case(('EmbedDiagonal', 'Diagonal'), ops.diag, ref=_diag_ref,
         shapes=[((3,),), ((2, 3),)], rtol=0, atol=0, name='diag'),
    Case(('Diagonal', 'ReduceSum'), ops.trace, ref=np.trace, shapes=[((3, 4),), ((3, 3),)],
         rtol=1e-12, name='trace'),
]


globals().update(row_tests(CASES))


def test_mindspore_values():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert ops.tril(x, 1).tolist() == [[0, 1, 0], [3, 4, 5]]
    assert ops.triu(ms.Tensor([[True, True], [True, True]])).tolist() == [[True, True],
                                                                          [False, True]]
    t = ops.trace(ms.Tensor([[1, 2], [3, 4]], ms.int32))
    assert t.dtype == ms.int32 and t.item() == 5
    assert ops.trace(ms.Tensor([[1, 2], [3, 4]])).dtype == ms.int64
    x3 = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    assert ops.diagonal(x3).tolist() == [[0, 16], [1, 17], [2, 18], [3, 19]]
    assert ops.diag_embed(x, -1, 0, 2).shape == (4, 2, 4)
    y = ops.diag(x)
    assert y.shape == (2, 3, 2, 3) and y.asnumpy().ravel()[:8].tolist() == [0, 0, 0, 0, 0, 0, 0, 1]


def test_gradients_keep_integer_free_shapes():
    x = ms.Tensor(np.ones((3, 3)), requires_grad=True)
    ops.trace(x).backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), np.eye(3))


ERRORS = [
    (lambda: ops.tril(ms.Tensor([1.0, 2.0])), ValueError,
     r"ops\.tril: input must have rank >= 2, got shape \(2,\)"),
    (lambda: ops.triu(ms.Tensor(np.ones((2, 2))), 1.5), TypeError,
     r"ops\.triu: diagonal must be an int, got 1\.5"),
    (lambda: ops.diagonal(ms.Tensor(np.ones((2, 2))), 0, 0, 0), ValueError,
     r"ops\.diagonal: dim1 and dim2 must differ, got 0 and 0"),
    (lambda: ops.diagonal(ms.Tensor(np.ones((2, 2))), 0, 0, 2), ValueError,
     r"ops\.diagonal: dim2 2 is out of range for a tensor of rank 2"),
    (lambda: ops.diag_embed(ms.Tensor(np.ones(2)), 0, 0, 5), ValueError,
     r"ops\.diag_embed: dim2 5 is out of range for a result of rank 2"),
    (lambda: ops.diag(ms.Tensor(1.0)), ValueError, r"ops\.diag: input must have rank >= 1"),
    (lambda: ops.trace(ms.Tensor(np.ones((2, 2, 2)))), ValueError,
     r"ops\.trace: input must be 2-d, got shape \(2, 2, 2\)"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
