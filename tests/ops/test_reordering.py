"""reverse_sequence and Tensor.choose: MindSpore 2.10's values, gradients and errors; gradients
of every order against finite differences."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _reverse_ref(a, lengths, seq, batch):
    out = np.moveaxis(a.copy(), (batch, seq), (0, 1))
    for b, n in enumerate(lengths):
        out[b, :n] = out[b, :n][::-1].copy()
    return np.moveaxis(out, (0, 1), (batch, seq))


def choice_index(rng, shape):
    return rng.integers(-1, 4, shape).astype(np.int32)


L3 = np.array([1, 3, 0], np.int32)
L4 = np.array([2, 4, 1, 3], np.int32)
CASES = [
    Case('GatherElements', lambda x: ops.reverse_sequence(x, ms.Tensor(L3), 1),
         ref=lambda a: _reverse_ref(a, L3, 1, 0), shapes=[((3, 4),), ((3, 3, 2),)], rtol=0,
         atol=0, name='reverse_sequence'),
    Case('GatherElements', lambda x: ops.reverse_sequence(x, ms.Tensor(L4), 0, 2),
         ref=lambda a: _reverse_ref(a, L4, 0, 2), shapes=[((4, 2, 4),)], rtol=0, atol=0,
         name='reverse_sequence_dims'),
    Case('GatherElements', lambda i, a, b: i.choose([a, b, a * 2]),
         ref=lambda i, a, b: np.choose(np.clip(i, 0, 2), [a, b, a * 2]),
         shapes=[((3, 4), (3, 4), (3, 4)), ((2, 3), (3,), (2, 1))],
         domains=(choice_index,), wrt=(1, 2), name='choose'),
    Case('GatherElements', lambda i, a, b: i.choose((a, b), 'wrap'),
         ref=lambda i, a, b: np.choose(i % 2, [a, b]), shapes=[((3, 4), (3, 4), (4,))],
         domains=(choice_index,), wrt=(1, 2), name='choose_wrap'),
]

globals().update(row_tests(CASES))


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


X = np.arange(12, dtype=np.float32).reshape(3, 4)


# MindSpore 2.10's results (CPU) and its gradients of (out * W).sum()
def test_reverse_sequence_values_and_gradient():
    lengths = t([1, 2, 4], np.int32)
    want = [[0, 1, 2, 3], [5, 4, 6, 7], [11, 10, 9, 8]]
    assert ops.reverse_sequence(t(X), lengths, 1).tolist() == want
    assert t(X).reverse_sequence(lengths, 1).tolist() == want
    assert ops.reverse_sequence(t(X), t([1, 2, 4], np.int64), 1).tolist() == want
    assert ops.reverse_sequence(t(X), t([1, 3, 2, 0], np.int32), 0, 1).tolist() == \
        [[0, 9, 6, 3], [4, 5, 2, 7], [8, 1, 10, 11]]
    assert t(X).reverse_sequence(t([3, 0, 1, 2], np.int32), batch_dim=1).tolist() == \
        [[8, 1, 2, 7], [4, 5, 6, 3], [0, 9, 10, 11]]
    c = t(np.arange(24).reshape(2, 3, 4))
    assert ops.reverse_sequence(c, t([2, 3, 1], np.int32), 2, 1).tolist() == \
        [[[1, 0, 2, 3], [6, 5, 4, 7], [8, 9, 10, 11]],
         [[13, 12, 14, 15], [18, 17, 16, 19], [20, 21, 22, 23]]]
    i = ops.reverse_sequence(t([[0, 1, 2], [3, 4, 5]], np.int32), t([2, 3], np.int32), 1)
    assert i.dtype == ms.int32 and i.tolist() == [[1, 0, 2], [5, 4, 3]]
    assert ops.reverse_sequence(t([[True, False, True]], np.bool_), t([2], np.int32),
                                1).tolist() == [[False, True, True]]
    g = ms.grad(lambda a: (ops.reverse_sequence(a, lengths, 1) * t(X - 5)).sum())(t(X))
    assert g.tolist() == [[-5, -4, -3, -2], [0, -1, 1, 2], [6, 5, 4, 3]]


def test_choose_values_and_gradient():
    ch = [t([[0, 1, 2], [3, 4, 5]], np.int32), t([[10, 11, 12], [13, 14, 15]], np.int32),
          t([[20, 21, 22], [23, 24, 25]], np.int32)]
    a = t([[0, 2, 1], [5, -1, 2]], np.int32)
    assert a.choose(ch).tolist() == [[0, 21, 12], [23, 4, 25]]
    assert a.choose(ch, 'wrap').tolist() == [[0, 21, 12], [23, 24, 25]]
    assert a.choose(ch, 'anything').tolist() == [[0, 21, 12], [23, 4, 25]]
    assert t([0, 1, 2], np.int32).choose((t([1, 2, 3]), t([10, 20, 30]), t([5, 6, 7]))) \
        .tolist() == [1, 20, 7]
    assert t([[0], [1]], np.int32).choose([t([1, 2, 3]), t([10, 20, 30])]).tolist() == \
        [[1, 2, 3], [10, 20, 30]]
    listed = t([0, 1], np.int32).choose([[1, 2], [3, 4]])
    assert listed.dtype == ms.int64 and listed.tolist() == [1, 4]
    assert t([0, 1], np.int32).choose(t([[1, 2], [3, 4]], np.int32)).tolist() == [1, 4]
    assert t([0.0, 1.0]).choose([t([1, 2], np.int32), t([3, 4], np.int32)]).tolist() == [1, 4]
    assert t([0, 1, 1], np.int32).choose([t([1, 2, 3], np.int32),
                                          t([3, 4, 5], np.int32)], 'raise').tolist() == [1, 4, 5]
    gp, gq = ms.grad(lambda p, q: (t([0, 1, 1], np.int32).choose([p, q]) * t([1, 2, 3])).sum(),
                     grad_position=(0, 1))(t([1, 2, 3]), t([4, 5, 6]))
    assert gp.tolist() == [1, 0, 0] and gq.tolist() == [0, 2, 3]


ERRORS = [
    (lambda: ops.reverse_sequence(t(X), t([1, 2, 5], np.int32), 1), RuntimeError,
     r"ops\.reverse_sequence: seq_lengths\[2\] is 5, outside \[0, 4\]"),
    (lambda: ops.reverse_sequence(t(X), t([1, -2, 3], np.int32), 1), RuntimeError,
     r"ops\.reverse_sequence: seq_lengths\[1\] is -2"),
    (lambda: ops.reverse_sequence(t(X), t([1, 2, 3], np.int32), 0, 0), ValueError,
     r"ops\.reverse_sequence: seq_dim and batch_dim must differ, got 0 and 0"),
    (lambda: ops.reverse_sequence(t(X), t([1, 2], np.int32), 1), ValueError,
     r"ops\.reverse_sequence: seq_lengths must have shape \(3,\) \(the length of batch_dim 0\), "
     r"got \(2,\)"),
    (lambda: ops.reverse_sequence(t(X), t([1.0, 2.0, 3.0]), 1), TypeError,
     r"ops\.reverse_sequence: seq_lengths must be an Int32 or Int64 tensor, got Float32"),
    (lambda: ops.reverse_sequence(t(X), t([1, 2, 3], np.int32), -1), ValueError,
     r"ops\.reverse_sequence: seq_dim must be in \[0, 2\), got -1"),
    (lambda: ops.reverse_sequence(t(X), t([1, 2, 3], np.int32), 1.0), TypeError,
     r"ops\.reverse_sequence: seq_dim must be an int, got 1\.0"),
    (lambda: t([0, 1], np.int32).choose([t([1, 2], np.int32), t([1.5, 2.5])]), TypeError,
     r"Tensor\.choose: choices must have one dtype, got Int32, Float32"),
    (lambda: t([0, 1], np.int32).choose([t([1, 2, 3], np.int32), t([3, 4], np.int32)]),
     ValueError, r"Tensor\.choose: shapes \(2,\) and \(3,\), \(2,\) cannot be broadcast"),
    (lambda: t(1, np.int32).choose([t([1, 2], np.int32), t([3, 4], np.int32)]), ValueError,
     r"Tensor\.choose: the indices must not be a scalar \(0-d Tensor\)"),
    (lambda: t([0, 1], np.int32).choose(t(1.0)), ValueError,
     r"Tensor\.choose: choices must not be a scalar \(0-d Tensor\)"),
    (lambda: t([0, 2], np.int32).choose([t([1, 2], np.int32), t([3, 4], np.int32)], 'raise'),
     ValueError, r"Tensor\.choose: indices must be in \[0, 2\) with mode 'raise', got 0 to 2"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
