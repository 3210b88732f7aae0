"""EmbeddingLookup, MultiFieldEmbeddingLookup and EmbeddingExt: values against MindSpore
2.10 (PyTorch's documented rules for EmbeddingExt, which MindSpore runs on Ascend only),
gradients, parameter names, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_layer_grad

TABLE = (np.sin(np.arange(24)) * 2).reshape(8, 3).astype(np.float32)
IDS = np.array([[1, 3, 5, 7, 2], [0, 6, 6, 2, 4]], np.int32)
VALUES = np.array([[1.0, 0.5, 0.0, 2.0, -1.0], [0.0, 1.0, 1.0, -0.5, 3.0]], np.float32)
FIELDS = np.array([[0, 2, 2, 0, 1], [1, 1, 0, 1, 0]], np.int32)

# MindSpore 2.10's outputs for the table, ids, values and fields above
MERGED = {
    'SUM': [[[3.62886, -1.54901, -5.30273], [0.55883, -1.31397, -1.97872],
             [0.41212, -0.54402, -0.99999]],
            [[-4.72141, 2.82076, 7.76954], [-1.22256, -0.35723, 0.83653], [0, 0, 0]]],
    'MEAN': [[[1.20962, -0.51634, -1.76758], [0.55883, -1.31397, -1.97872],
              [0.82424, -1.08804, -1.99998]],
             [[-1.18035, 0.70519, 1.94238], [-0.81504, -0.23815, 0.55769], [0, 0, 0]]],
    'MAX': [[[3.34662, -0.03541, -1.91785], [0.55883, -1.31397, -1.97872],
             [0.41212, -0.54402, -0.99999]],
            [[-1.50197, 2.521, 5.94364], [0.27942, 0.29975, 1.82589], [0, 0, 0]]],
}


def test_embedding_lookup_matches_mindspore():
    net = nn.EmbeddingLookup(8, 3, param_init=ms.Tensor(TABLE))
    assert [n for n, _ in net.parameters_and_names()] == ['embedding_table']
    y = net(ms.Tensor(np.array([[0, 4], [1, 9]]), ms.int32)).asnumpy()
    np.testing.assert_allclose(y, [[TABLE[0], TABLE[4]], [TABLE[1], [0, 0, 0]]])   # 9: zeros
    with pytest.raises(ValueError, match=r"nn.EmbeddingLookup 'EmbeddingLookup': indices must "
                                         r"be in \[0, 8\), got values in \[0, 9\]"):
        nn.EmbeddingLookup(8, 3, target='DEVICE', sparse=False)(ms.Tensor([0, 9]))


def test_embedding_lookup_max_norm_clips_each_row():
    # the documented rule (MindSpore's CPU kernel for ClipByNorm with an axis is unreliable)
    y = nn.EmbeddingLookup(8, 3, param_init=ms.Tensor(TABLE), max_norm=1.0)(
        ms.Tensor(np.array([1, 2, 3]))).asnumpy()
    rows = TABLE[[1, 2, 3]]
    norm = np.linalg.norm(rows, axis=1, keepdims=True)
    np.testing.assert_allclose(y, rows / np.maximum(norm, 1.0), rtol=1e-6)


@pytest.mark.parametrize('operator', ['SUM', 'MEAN', 'MAX'])
def test_multi_field_lookup_matches_mindspore(operator):
    net = nn.MultiFieldEmbeddingLookup(8, 3, 3, param_init=ms.Tensor(TABLE), operator=operator)
    y = net(ms.Tensor(IDS), ms.Tensor(VALUES), ms.Tensor(FIELDS))
    assert y.shape == (2, 3, 3)
    np.testing.assert_allclose(y.asnumpy(), MERGED[operator], rtol=1e-5, atol=1e-5)


def test_embedding_ext_rules():
    table = ms.Tensor(TABLE.copy())
    net = nn.EmbeddingExt(8, 3, padding_idx=2, _weight=table)
    assert [n for n, _ in net.parameters_and_names()] == ['weight']
    ids = ms.Tensor(np.array([[2, 1, 1], [-1, 2, 0]]))
    np.testing.assert_array_equal(net(ids).asnumpy(), TABLE[[[2, 1, 1], [7, 2, 0]]])
    g = ms.grad(lambda t: net(t).sum(), grad_position=None, weights=[net.weight])(ids)[0]
    np.testing.assert_array_equal(g.asnumpy()[:, 0], [1, 2, 0, 0, 0, 0, 0, 1])   # row 2: none
    scaled = nn.EmbeddingExt(8, 3, scale_grad_by_freq=True, _weight=ms.Tensor(TABLE.copy()))
    g = ms.grad(lambda t: scaled(t).sum(), grad_position=None, weights=[scaled.weight])(ids)[0]
    np.testing.assert_array_equal(g.asnumpy()[:, 0], [1, 1, 1, 0, 0, 0, 0, 1])
    clipped = nn.EmbeddingExt(8, 3, max_norm=1.0, _weight=ms.Tensor(TABLE.copy()))
    y = clipped(ms.Tensor([1, 3])).asnumpy()
    np.testing.assert_allclose(np.linalg.norm(y, axis=1), [1, 1], rtol=1e-5)
    np.testing.assert_allclose(clipped.weight.asnumpy()[[1, 3]], y)    # renormalized in place
    np.testing.assert_array_equal(clipped.weight.asnumpy()[0], TABLE[0])
    fresh = nn.EmbeddingExt(100, 4, padding_idx=-1)
    assert (fresh.weight.asnumpy()[-1] == 0).all() and 0.7 < fresh.weight.asnumpy().std() < 1.3


def test_gradients():
    table = np.random.default_rng(17).standard_normal((8, 3))
    net = nn.EmbeddingLookup(8, 3, param_init=ms.Tensor(table), dtype=ms.float64,
                             max_norm=1.5)

    class _Values(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = nn.MultiFieldEmbeddingLookup(8, 3, 3, param_init=ms.Tensor(table),
                                                      operator='MAX', dtype=ms.float64)

        def construct(self, v):
            return self.inner(ms.Tensor(IDS), v, ms.Tensor(FIELDS))

    check_layer_grad(_Values(), VALUES.astype(np.float64) + 0.1)

    class _Ids(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = net

        def construct(self, x):
            return self.inner(ms.Tensor(IDS)) * x

    check_layer_grad(_Ids(), np.ones((2, 5, 3)))


def test_reprs():
    assert repr(nn.EmbeddingLookup(5, 3)) == "EmbeddingLookup()"
    assert repr(nn.EmbeddingExt(5, 3, padding_idx=1)) == (
        "EmbeddingExt(num_embeddings=5, embedding_dim=3, padding_idx=1, max_norm=None, "
        "norm_type=2.0, scale_grad_by_freq=False, dtype=Float32)")


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.EmbeddingLookup(5, 3, target='GPU'), ValueError,
     "nn.EmbeddingLookup: target must be 'CPU' or 'DEVICE', got 'GPU'"),
    (lambda: nn.EmbeddingLookup(5, 3, sparse=False), ValueError,
     "nn.EmbeddingLookup: sparse must be True when target is 'CPU'"),
    (lambda: nn.EmbeddingLookup(5, 3, slice_mode='rows'), ValueError,
     "nn.EmbeddingLookup: slice_mode must be one of"),
    (lambda: nn.EmbeddingLookup(5, 3, max_norm=1), ValueError,
     "nn.EmbeddingLookup: max_norm must be None or a positive float, got 1"),
    (lambda: nn.MultiFieldEmbeddingLookup(5, 3, 2, operator='MIN'), ValueError,
     "nn.MultiFieldEmbeddingLookup: operator must be 'SUM', 'MAX' or 'MEAN', got 'MIN'"),
    (lambda: nn.EmbeddingExt(5, 3, sparse=True), ValueError,
     "nn.EmbeddingExt: sparse=True is not supported"),
    (lambda: nn.EmbeddingExt(5, 3, padding_idx=5), ValueError,
     r"nn.EmbeddingExt: padding_idx must be in \[-5, 5\), got 5"),
    (lambda: nn.EmbeddingExt(5, 3, _weight=ops.ones((3, 5))), ValueError,
     r"nn.EmbeddingExt: _weight must be a Tensor of shape \(5, 3\)"),
    (lambda: nn.EmbeddingLookup(5, 3)(ms.Tensor([1.0])), TypeError,
     "nn.EmbeddingLookup 'EmbeddingLookup': indices must be an integer Tensor, got Float32"),
    (lambda: nn.MultiFieldEmbeddingLookup(8, 3, 3)(ms.Tensor(IDS), ms.Tensor(VALUES),
                                                   ms.Tensor(FIELDS[:, :4])), ValueError,
     "input_indices, input_values and field_ids must be 2-d of one shape"),
    (lambda: nn.EmbeddingExt(5, 3)(ms.Tensor([5])), ValueError,
     r"nn.EmbeddingExt 'EmbeddingExt': input ids must be in \[-5, 5\)"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()
