"""nn.Embedding: lookup values, scatter-add gradients, padding_idx, one-hot path, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.common.initializer import Normal


def _table(vocab=6, size=3, seed=0):
    return np.random.default_rng(seed).standard_normal((vocab, size)).astype(np.float32)


@pytest.mark.parametrize('use_one_hot', [False, True])
@pytest.mark.parametrize('ids', [[3], [[0, 5], [2, 2]], [[[1]], [[4]]]])
def test_lookup_returns_the_rows(use_one_hot, ids):
    table = _table()
    emb = nn.Embedding(6, 3, use_one_hot=use_one_hot, embedding_table=ms.Tensor(table))
    out = emb(ms.Tensor(ids, dtype=ms.int32))
    ids = np.array(ids)
    assert out.shape == ids.shape + (3,) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), table[ids], rtol=1e-6)


@pytest.mark.parametrize('use_one_hot', [False, True])
def test_repeated_ids_accumulate_their_gradients(use_one_hot):
    emb = nn.Embedding(5, 2, use_one_hot=use_one_hot, embedding_table=ms.Tensor(_table(5, 2)))
    ids = ms.Tensor([[1, 3, 1], [1, 0, 3]])
    g = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    (gt,) = ms.grad(lambda i: (emb(i) * ms.Tensor(g)).sum(), None, emb.trainable_params())(ids)
    want = np.zeros((5, 2), np.float32)
    np.add.at(want, ids.asnumpy(), g)
    np.testing.assert_allclose(gt.asnumpy(), want)
    assert gt.asnumpy()[1].tolist() == [0 + 4 + 6, 1 + 5 + 7] and not gt.asnumpy()[2].any()


@pytest.mark.parametrize('use_one_hot', [False, True])
def test_padding_row_starts_at_zero_and_trains_like_any_row(use_one_hot):
    # MindSpore 2.10: only the initial values of the padding row are zeros; with ids
    # [[0, 1], [2, 0]] and padding_idx=0 its gradient of sum(emb(ids)) is 2 per element
    emb = nn.Embedding(4, 3, use_one_hot=use_one_hot, embedding_table=ms.Tensor(_table(4, 3)),
                       padding_idx=2)
    np.testing.assert_array_equal(emb.embedding_table.asnumpy()[2], 0.0)
    emb.embedding_table.set_data(ms.Tensor(_table(4, 3, seed=1)))     # a non-zero padding row
    ids = ms.Tensor([[2, 0], [2, 2]])
    out = emb(ids)
    np.testing.assert_allclose(out.asnumpy(), _table(4, 3, seed=1)[ids.asnumpy()], rtol=1e-6)
    out.sum().backward()
    grad = emb.embedding_table.grad.asnumpy()
    np.testing.assert_array_equal(grad[2], 3.0)
    np.testing.assert_array_equal(grad[0], 1.0)
    np.testing.assert_array_equal(grad[[1, 3]], 0.0)
    ms_case = nn.Embedding(4, 2, padding_idx=0, embedding_table='ones')
    grads = ms.grad(lambda x: ms_case(x).sum(), None, ms_case.trainable_params())(
        ms.Tensor([[0, 1], [2, 0]], ms.int32))
    np.testing.assert_array_equal(grads[0].asnumpy(), [[2, 2], [1, 1], [1, 1], [0, 0]])


def test_default_table_is_normal_with_sigma_0_01_and_seeded():
    ms.set_seed(3)
    a = nn.Embedding(200, 50)
    ms.set_seed(3)
    b = nn.Embedding(200, 50)
    table = a.embedding_table.asnumpy()
    assert table.dtype == np.float32 and table.shape == (200, 50)
    assert abs(table.std() - 0.01) < 1e-3 and abs(table.mean()) < 1e-3
    np.testing.assert_array_equal(table, b.embedding_table.asnumpy())
    c = nn.Embedding(3, 2, embedding_table=Normal(sigma=2.0))
    assert c.embedding_table.asnumpy().std() > 0.1


def test_parameter_name_and_repr():
    emb = nn.Embedding(3, 2, embedding_table='zeros', padding_idx=1)
    assert [(n, p.name, p.shape) for n, p in emb.parameters_and_names()] == [
        ('embedding_table', 'embedding_table', (3, 2))]
    assert repr(emb) == ('Embedding(vocab_size=3, embedding_size=2, use_one_hot=False, '
                         'embedding_table=Parameter (name=embedding_table, shape=(3, 2), '
                         'dtype=Float32, requires_grad=True), dtype=Float32, padding_idx=1)')


def test_ids_of_any_integer_dtype_are_accepted():
    emb = nn.Embedding(4, 2, embedding_table=ms.Tensor(_table(4, 2)))
    for dt in (ms.int8, ms.int32, ms.int64, ms.uint8):
        np.testing.assert_allclose(emb(ms.Tensor([3, 1], dtype=dt)).asnumpy(),
                                   _table(4, 2)[[3, 1]], rtol=1e-6)
    assert emb(ms.Tensor(np.zeros((0,), np.int32))).shape == (0, 2)


@pytest.mark.parametrize('make,error,message', [
    (lambda: nn.Embedding(0, 2), ValueError, "nn.Embedding: vocab_size must be a positive int, "
                                             "got 0"),
    (lambda: nn.Embedding(3, 2.5), TypeError, "nn.Embedding: embedding_size must be a positive "
                                              "int, got 2.5"),
    (lambda: nn.Embedding(3, 2, use_one_hot=None), TypeError,
     "nn.Embedding: use_one_hot must be a bool, got None"),
    (lambda: nn.Embedding(3, 2, dtype=ms.bool_), TypeError,
     "nn.Embedding: dtype must be a number type, got Bool"),
    (lambda: nn.Embedding(3, 2, padding_idx=3), ValueError,
     r"nn.Embedding: padding_idx must be in \[0, 3\), got 3"),
    (lambda: nn.Embedding(3, 2, padding_idx=-1), ValueError,
     r"nn.Embedding: padding_idx must be in \[0, 3\), got -1"),
    (lambda: nn.Embedding(3, 2, padding_idx=1.0), TypeError,
     "nn.Embedding: padding_idx must be an int or None, got 1.0"),
    (lambda: nn.Embedding(3, 2, embedding_table=ops.ones((2, 3))), ValueError,
     r"nn.Embedding: embedding_table has shape \(2, 3\), expected \(3, 2\)"),
])
def test_bad_arguments_are_rejected(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize('ids,error,message', [
    (ms.Tensor([0, 3]), ValueError, r"nn.Embedding 'Embedding': ids must be in \[0, 3\), got 3"),
    (ms.Tensor([-1, 0]), ValueError, r"nn.Embedding 'Embedding': ids must be in \[0, 3\), "
                                     r"got -1"),
    (ms.Tensor([0.0, 1.0]), TypeError,
     "nn.Embedding 'Embedding': expected a Tensor of integer ids, got dtype Float32"),
    ([0, 1], TypeError, "nn.Embedding 'Embedding': expected a Tensor of integer ids, got list"),
])
def test_bad_ids_are_rejected(ids, error, message):
    with pytest.raises(error, match=message):
        nn.Embedding(3, 2)(ids)
