"""Tensor's in-place methods (trailing ``_``), fills and random fills."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.testing import check_grad

A = np.arange(6, dtype=np.float32).reshape(2, 3)


def t(a=A):
    return ms.Tensor(np.array(a))


# method, arguments, NumPy result on A
INPLACE = [
    ('add_', (1.0,), {'alpha': 2}, A + 2), ('sub_', (ms.Tensor(1.0),), {}, A - 1),
    ('mul_', (2,), {}, A * 2), ('div_', (4,), {'rounding_mode': 'floor'}, np.floor(A / 4)),
    ('floor_divide_', (4,), {}, np.floor_divide(A, 4)), ('remainder_', (4,), {}, A % 4),
    ('clamp_', (1, 3), {}, np.clip(A, 1, 3)), ('exp_', (), {}, np.exp(A)),
    ('floor_', (), {}, np.floor(A)),
    ('sigmoid_', (), {}, 1 / (1 + np.exp(-A))), ('tanh_', (), {}, np.tanh(A)),
    ('sign_', (), {}, np.sign(A)), ('fill_', (7,), {}, np.full_like(A, 7)),
    ('fill_', (ms.Tensor(2.0),), {}, np.full_like(A, 2)), ('zero_', (), {}, np.zeros_like(A)),
    ('copy_', (ms.Tensor([1, 2, 3]),), {}, np.tile([1.0, 2.0, 3.0], (2, 1))),
    ('masked_fill_', (ms.Tensor(A > 2), 0.5), {}, np.where(A > 2, 0.5, A)),
    ('masked_scatter_', (ms.Tensor(A > 3), ms.Tensor([7.0, 8.0])), {},
     np.array([[0, 1, 2], [3, 7, 8]])),
    ('index_fill_', (1, ms.Tensor([0, 2]), 5.0), {}, np.array([[5, 1, 5], [5, 4, 5]])),
    ('index_add_', (1, ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 2), np.float32))), {'alpha': 2},
     np.array([[2, 1, 4], [5, 4, 7]])),
    ('index_copy_', (1, ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 2), np.float32))), {},
     np.array([[1, 1, 1], [1, 4, 1]])),
    ('scatter_', (1, ms.Tensor([[0], [1]]), ms.Tensor([[9.0], [9.0]])), {},
     np.array([[9, 1, 2], [3, 9, 5]])),
    ('scatter_', (1, ms.Tensor([[0], [1]]), 2.0), {'reduce': 'add'},
     np.array([[2, 1, 2], [3, 6, 5]])),
    ('scatter_add_', (1, ms.Tensor([[0], [1]]), ms.Tensor([[9.0], [9.0]])), {},
     np.array([[9, 1, 2], [3, 13, 5]])),
    ('put_', (ms.Tensor([0, 5]), ms.Tensor([9.0, 9.0])), {}, np.array([[9, 1, 2], [3, 4, 9]])),
    ('put_', (ms.Tensor([0, 0]), ms.Tensor([1.0, 1.0])), {'accumulate': True},
     np.array([[2, 1, 2], [3, 4, 5]])),
    ('index_put_', ((ms.Tensor([0, 1]), ms.Tensor([1, 2])), ms.Tensor(7.0)), {},
     np.array([[0, 7, 2], [3, 4, 7]])),
    ('fill_diagonal_', (7.0,), {}, np.array([[7, 1, 2], [3, 7, 5]])),
    ('addmm_', (ms.Tensor(np.eye(2, dtype=np.float32)), t()), {'beta': 2}, 3 * A),
]


@pytest.mark.parametrize("name, args, kwargs, want", INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_modifies_and_returns_self(name, args, kwargs, want):
    x = t()
    before = x._data
    out = getattr(x, name)(*args, **kwargs)
    assert out is x and x.dtype == ms.float32
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    assert x._data is before        # written into the same array (a constant tensor)


def test_log_():
    x = ms.Tensor(np.array([1.0, 4.0]))
    assert x.log_() is x and x.asnumpy().tolist() == [0.0, np.log(4.0)]


def test_inplace_keeps_integer_dtype():
    y = ms.Tensor([1, 2, 3])
    assert y.mul_(1.5) is y and y.dtype == ms.int64 and y.asnumpy().tolist() == [1, 3, 4]


def test_inplace_on_a_graph_tensor_records():
    w = ms.Tensor(np.array([1.0, 2.0]), requires_grad=True)
    y = w * 2
    assert y.add_(w, alpha=3) is y and y.asnumpy().tolist() == [5.0, 10.0]
    y.mul_(w).sum().backward()          # y = 5 w * w
    assert w.grad.asnumpy().tolist() == [10.0, 20.0]


def test_inplace_on_a_leaf_writes_without_recording():
    w = ms.Tensor(np.array([1.0, 2.0]), requires_grad=True)
    assert w.add_(1) is w and w.is_leaf and w.asnumpy().tolist() == [2.0, 3.0]
    with ms.no_grad():
        v = w * 1
        v.masked_fill_(ms.Tensor([True, False]), 0.0)
    assert v.asnumpy().tolist() == [0.0, 3.0] and v.grad_fn is None


def test_inplace_gradients_through_composites():
    a = np.random.default_rng(0).standard_normal((2, 3))

    def clamped(x):
        y = x * 1
        return y.clamp_(-0.5, 0.5)

    def put(x, s):
        y = x * 1
        return y.index_copy_(1, ms.Tensor([2, 0]), s)

    def scattered(x, s):
        y = x * 1
        return y.scatter_add_(1, ms.Tensor([[0, 0], [2, 1]]), s)

    check_grad(clamped, a)
    check_grad(put, a, a[:, :2] * 3)
    check_grad(scattered, a, a[:, :2] + 1)


def test_inplace_errors():
    x = t()
    with pytest.raises(ValueError, match="Tensor.add_: the result has shape \\(3, 2, 3\\), which "
                                         "cannot be written into a tensor of shape \\(2, 3\\)"):
        x.add_(ms.Tensor(np.ones((3, 1, 1), np.float32)))
    with pytest.raises(ValueError, match="Tensor.scatter_: reduce must be None, 'add' or "
                                         "'multiply', got 'max'"):
        x.scatter_(1, ms.Tensor([[0]]), 1.0, reduce='max')
    with pytest.raises(ValueError, match="Tensor.uniform_: generator objects are not available"):
        x.uniform_(generator=object())
    with pytest.raises(TypeError, match="Tensor.assign_value: value must be a Tensor, got list"):
        x.assign_value([1])


def test_fill_and_assign_value():
    x = t()
    assert x.fill(2.0).asnumpy().tolist() == [[2.0] * 3] * 2 and x.fills(1).dtype == ms.float32
    np.testing.assert_array_equal(x.asnumpy(), A)       # fill makes a new tensor
    assert x.assign_value(ms.Tensor([1.0, 2.0])) is x and x.asnumpy().tolist() == [1.0, 2.0]
    tall = ms.Tensor(np.zeros((7, 3), np.float32))
    np.testing.assert_array_equal(tall.fill_diagonal(1.0, wrap=True).asnumpy().nonzero()[0],
                                  [0, 1, 2, 4, 5, 6])       # restarts after a gap row
    with pytest.raises(ValueError, match="Tensor.fill_diagonal: the tensor must have rank >= 2"):
        ms.Tensor([1.0]).fill_diagonal(0.0)


def test_random_fills_follow_set_seed():
    def draw():
        ms.set_seed(3)
        x = ms.Tensor(np.zeros((200,), np.float32))
        return [x.uniform_(2, 5).asnumpy().copy(), x.normal_(1, 0.5).asnumpy().copy(),
                x.random_(0, 4).asnumpy().copy(), x.bernoulli_(0.25).asnumpy().copy(),
                x.exponential_(2.0).asnumpy().copy()]

    first, second = draw(), draw()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    u, n, r, bern, e = first
    assert u.min() >= 2 and u.max() < 5 and abs(n.mean() - 1) < 0.15 and abs(n.std() - 0.5) < 0.1
    assert set(np.unique(r)) <= {0, 1, 2, 3} and set(np.unique(bern)) <= {0, 1}
    assert 0.1 < bern.mean() < 0.4 and e.min() >= 0 and abs(e.mean() - 0.5) < 0.15
    ms.set_seed(0)
    p = ms.Tensor(np.array([0.0, 1.0, 0.0, 1.0], np.float32))
    assert p.bernoulli().asnumpy().tolist() == [0, 1, 0, 1]
    v = p.uniform(-1.0, 1.0).asnumpy()
    assert v.shape == (4,) and v.min() >= -1 and v.max() < 1
    ints = ms.Tensor(np.zeros(50, np.int32)).random_()
    assert ints.dtype == ms.int32 and ints.asnumpy().min() >= 0
    assert (p.log_normal().asnumpy() > 0).all() and p.cauchy().shape == (4,)
    with pytest.raises(ValueError, match="Tensor.random_: from_ must be less than to, got 3 and 3"):
        p.random_(3, 3)
