"""Loss cells: LossBase.get_loss, each loss against its functional form and NumPy, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad


def _log_softmax(x):
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


class Squares(nn.LossBase):
    """A loss written the MindSpore way: element-wise values, then get_loss."""

    def construct(self, logits, labels):
        return self.get_loss(ops.square(logits - labels))


# ------------------------------------------------------------------------------ LossBase
@pytest.mark.parametrize('reduction,expected', [('mean', 7.5), ('sum', 30.0),
                                                ('none', [[1.0, 4.0], [9.0, 16.0]])])
def test_get_loss_reduces_as_reduction_says(reduction, expected):
    loss = Squares(reduction)
    assert (loss.reduce, loss.average) == (reduction != 'none', reduction == 'mean')
    out = loss(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ops.zeros((2, 2)))
    np.testing.assert_allclose(out.asnumpy(), expected)
    assert out.dtype == ms.float32


def test_get_loss_weights_broadcast_and_the_dtype_is_kept():
    loss = Squares('sum')
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert loss.get_loss(x, ms.Tensor([1.0, 0.0])).item() == 4.0
    assert loss.get_loss(x, 2.0).item() == 20.0
    assert loss.get_loss(x).dtype == ms.float64
    # Float16 is reduced in Float32: the partial sum 120000 would overflow Float16
    half = Squares('mean').get_loss(ms.Tensor(np.array([60000, 60000, -60000], np.float16)))
    assert half.dtype == ms.float16 and half.item() == 20000.0
    assert loss.get_axis(x) == (0, 1)
    check_grad(lambda x: Squares('mean').get_loss(x, ms.Tensor([2.0, 3.0])),
               np.array([[1.0, -2.0], [0.5, 4.0]]))


def test_get_loss_and_reduction_errors():
    with pytest.raises(TypeError, match="nn.Squares.get_loss: x must be a Tensor, got list"):
        Squares().get_loss([1.0])
    for cls in (Squares, nn.MSELoss, nn.L1Loss, nn.CrossEntropyLoss, nn.NLLLoss,
                nn.BCEWithLogitsLoss):
        with pytest.raises(ValueError, match=rf"nn.{cls.__name__}: reduction must be 'none', "
                                             rf"'mean' or 'sum', got 'elementwise'"):
            cls(reduction='elementwise')
    with pytest.raises(ValueError, match="nn.SoftmaxCrossEntropyWithLogits: reduction must be"):
        nn.SoftmaxCrossEntropyWithLogits(reduction=None)


def test_a_loss_base_without_construct_says_so():
    with pytest.raises(TypeError, match="LossBase defines no construct"):
        nn.LossBase()(ops.ones(1), ops.ones(1))


# ------------------------------------------------------------------------------ losses
def test_softmax_cross_entropy_with_logits_dense_and_sparse():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3))
    labels = np.array([0, 2, 1, 2])
    onehot = np.eye(3)[labels]
    per = -_log_softmax(x)[np.arange(4), labels]
    dense = nn.SoftmaxCrossEntropyWithLogits()
    np.testing.assert_allclose(dense(ms.Tensor(x), ms.Tensor(onehot)).asnumpy(), per, rtol=1e-12)
    np.testing.assert_allclose(dense(ms.Tensor(x), ms.Tensor(onehot.astype(np.int64))).asnumpy(),
                               per, rtol=1e-12)                 # integer one-hot labels
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    assert sparse(ms.Tensor(x), ms.Tensor(labels)).item() == pytest.approx(per.mean(), rel=1e-12)
    summed = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='sum')
    assert summed(ms.Tensor(x), ms.Tensor(labels)).item() == pytest.approx(per.sum(), rel=1e-12)
    check_grad(lambda x: sparse(x, ms.Tensor(labels)), x)
    check_grad(lambda x, t: dense(x, t), x, onehot * 0.7 + 0.1)
    assert repr(sparse) == 'SoftmaxCrossEntropyWithLogits()'


@pytest.mark.parametrize('labels,error,message', [
    (ms.Tensor([0, 1]), ValueError,
     r"nn.SoftmaxCrossEntropyWithLogits 'SoftmaxCrossEntropyWithLogits': labels must have "
     r"shape \(2, 3\) \(sparse=False\), got \(2,\)"),
    ([0, 1], TypeError, "labels must be a Tensor, got list"),
])
def test_softmax_cross_entropy_with_logits_errors(labels, error, message):
    with pytest.raises(error, match=message):
        nn.SoftmaxCrossEntropyWithLogits()(ops.zeros((2, 3)), labels)
    with pytest.raises(ValueError, match=r"logits must be a 2-d Tensor \(N, C\), got \(3,\)"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=True)(ops.zeros(3), ms.Tensor(0))
    with pytest.raises(TypeError, match="nn.SoftmaxCrossEntropyWithLogits: sparse must be a bool"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=1)


def test_cross_entropy_loss_cell_passes_its_settings():
    rng = np.random.default_rng(1)
    x = ms.Tensor(rng.standard_normal((5, 4)))
    y = ms.Tensor([0, 3, -1, 2, -1])
    w = ms.Tensor(rng.uniform(0.5, 2.0, 4))
    cell = nn.CrossEntropyLoss(weight=w, ignore_index=-1, reduction='sum', label_smoothing=0.1)
    np.testing.assert_allclose(
        cell(x, y).asnumpy(),
        ops.cross_entropy(x, y, w, -1, 'sum', 0.1).asnumpy(), rtol=1e-12)
    probs = ops.softmax(ms.Tensor(rng.standard_normal((5, 4))))
    np.testing.assert_allclose(nn.CrossEntropyLoss()(x, probs).asnumpy(),
                               ops.cross_entropy(x, probs).asnumpy(), rtol=1e-12)
    assert repr(cell) == 'CrossEntropyLoss()'


def test_nll_loss_cell_after_log_softmax_equals_cross_entropy():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 3))
    y = ms.Tensor([2, 0, 1, 1])
    nll = nn.NLLLoss(weight=ms.Tensor([1.0, 2.0, 0.5]), ignore_index=0)
    np.testing.assert_allclose(
        nll(ops.log_softmax(ms.Tensor(x)), y).asnumpy(),
        nn.CrossEntropyLoss(weight=ms.Tensor([1.0, 2.0, 0.5]), ignore_index=0)(ms.Tensor(x),
                                                                               y).asnumpy(),
        rtol=1e-12)
    check_grad(lambda x: nll(ops.log_softmax(x), y), x)


@pytest.mark.parametrize('cls,ref', [(nn.MSELoss, lambda d: d * d), (nn.L1Loss, np.abs)])
@pytest.mark.parametrize('reduction', ['none', 'mean', 'sum'])
def test_mse_and_l1_cells(cls, ref, reduction):
    rng = np.random.default_rng(3)
    x, t = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    want = ref(x - t)
    want = want if reduction == 'none' else want.mean() if reduction == 'mean' else want.sum()
    cell = cls(reduction)
    np.testing.assert_allclose(cell(ms.Tensor(x), ms.Tensor(t)).asnumpy(), want, rtol=1e-12)
    check_grad(cell, x, t)


def test_bce_with_logits_cell():
    rng = np.random.default_rng(4)
    x, t = rng.standard_normal((3, 2)), rng.uniform(0, 1, (3, 2))
    w, pw = ms.Tensor([[1.0], [2.0], [0.5]]), ms.Tensor([3.0, 1.0])
    cell = nn.BCEWithLogitsLoss('sum', weight=w, pos_weight=pw)
    s = 1 / (1 + np.exp(-x))
    want = -(w.asnumpy() * (pw.asnumpy() * t * np.log(s) + (1 - t) * np.log(1 - s))).sum()
    assert cell(ms.Tensor(x), ms.Tensor(t)).item() == pytest.approx(want, rel=1e-12)
    check_grad(lambda x: cell(x, ms.Tensor(t)), x)


@pytest.mark.parametrize('make,error,message', [
    (lambda: nn.CrossEntropyLoss(weight=[1.0]), TypeError,
     "nn.CrossEntropyLoss: weight must be a Tensor or None, got list"),
    (lambda: nn.CrossEntropyLoss(ignore_index='x'), TypeError,
     "nn.CrossEntropyLoss: ignore_index must be an int, got 'x'"),
    (lambda: nn.CrossEntropyLoss(label_smoothing=2.0), ValueError,
     r"nn.CrossEntropyLoss: label_smoothing must be in \[0.0, 1.0\], got 2.0"),
    (lambda: nn.CrossEntropyLoss(label_smoothing=None), TypeError,
     "nn.CrossEntropyLoss: label_smoothing must be a float, got NoneType"),
    (lambda: nn.NLLLoss(weight=np.ones(2)), TypeError,
     "nn.NLLLoss: weight must be a Tensor or None, got ndarray"),
    (lambda: nn.NLLLoss(ignore_index=True), TypeError,
     "nn.NLLLoss: ignore_index must be an int, got True"),
    (lambda: nn.BCEWithLogitsLoss(pos_weight=2.0), TypeError,
     "nn.BCEWithLogitsLoss: pos_weight must be a Tensor or None, got float"),
])
def test_loss_cells_reject_bad_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


# ------------------------------------------------------------------------------ label mistakes
def test_cross_entropy_loss_float_index_labels_suggest_int_labels():
    # MindSpore 2.10 raises TypeError too: "For 'CrossEntropyLoss', the 'labels' should be
    # Int32, but got 'mindspore.float32'"
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.loss = nn.CrossEntropyLoss()

        def construct(self, x, y):
            return self.loss(x, y)
    logits = ms.Tensor(np.zeros((4, 3), np.float32))
    labels = np.array([0, 1, 2, 1])
    with pytest.raises(TypeError, match=r"^nn.CrossEntropyLoss 'Net.loss': labels are Float32 "
                                        r"of shape \(4,\), the shape of class indices for "
                                        r"logits of shape \(4, 3\): pass class indices as int "
                                        r"labels \(labels.astype\(ms.int32\)\); floating labels "
                                        r"are class probabilities and have the logits' shape$"):
        Net()(logits, ms.Tensor(labels.astype(np.float32)))
    with pytest.raises(TypeError, match=r"labels are Float64 of shape \(2, 5\), the shape of "
                                        r"class indices for logits of shape \(2, 3, 5\)"):
        nn.CrossEntropyLoss()(ops.zeros((2, 3, 5)), ops.zeros((2, 5), ms.float64))
    assert Net()(logits, ms.Tensor(labels)).item() == pytest.approx(np.log(3))
    probs = ms.Tensor(np.full((4, 3), 1 / 3, np.float32))        # probabilities still work
    assert Net()(logits, probs).item() == pytest.approx(np.log(3))


@pytest.mark.parametrize('cls', [nn.MSELoss, nn.L1Loss, nn.MAELoss])
def test_elementwise_losses_warn_once_per_call_site_when_labels_broadcast(cls):
    import warnings
    x, t = ms.Tensor(np.ones((4, 1), np.float32)), ms.Tensor(np.zeros(4, np.float32))
    loss = cls()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('default')
        for _ in range(3):
            out = loss(x, t)                                     # one call site
        loss(x, x)                                               # same shapes: silent
    assert out.item() == 1.0
    assert [(w.category, w.filename) for w in caught] == [(UserWarning, __file__)]
    assert str(caught[0].message) == (
        f"nn.{cls.__name__} '{cls.__name__}': labels of shape (4,) are broadcast against "
        f"logits of shape (4, 1) to (4, 4), which is likely to give a wrong loss; give them "
        f"the same shape (e.g. labels.reshape(4, 1))")
    with pytest.warns(UserWarning, match=r"labels of shape \(\) are broadcast against logits "
                                         r"of shape \(4, 1\) to \(4, 1\), which is likely to "
                                         r"give a wrong loss; give them the same shape$"):
        loss(x, ms.Tensor(0.0))


def test_bce_with_logits_loss_rejects_labels_of_another_shape():
    # MindSpore 2.10: ValueError "two inputs 'input' and 'target' shape are not equal"
    with pytest.raises(ValueError, match=r"^nn.BCEWithLogitsLoss 'BCEWithLogitsLoss': logits "
                                         r"and labels must have the same shape, got \(4, 1\) "
                                         r"and \(4,\)$"):
        nn.BCEWithLogitsLoss()(ops.zeros((4, 1)), ops.zeros((4,)))
