"""Metrics against NumPy references written here, accumulation over batches, and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.train import metrics


def batches(seed=0, n=60, c=5, parts=3):
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal((n, c))
    labels = rng.integers(0, c, n)
    return scores, labels, np.array_split(np.arange(n), parts)


def feed(metric, scores, labels, splits, as_tensor=True):
    metric.clear()
    for idx in splits:
        s, y = scores[idx], labels[idx]
        metric.update(ms.Tensor(s) if as_tensor else s, ms.Tensor(y) if as_tensor else list(y))
    return metric


def test_accuracy_matches_numpy_over_batches_and_one_hot_labels():
    s, y, parts = batches()
    expected = np.mean(np.argmax(s, axis=1) == y)
    assert feed(nn.Accuracy(), s, y, parts).eval() == pytest.approx(expected)
    assert feed(nn.Accuracy(), s, y, parts, as_tensor=False).eval() == pytest.approx(expected)
    one_hot = np.eye(5)[y]
    assert nn.Accuracy()(s, one_hot) == pytest.approx(expected)


def test_accuracy_multilabel_counts_samples_with_every_label_right():
    pred = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    true = np.array([[1, 0, 1], [0, 0, 0], [1, 1, 0]])
    assert nn.Accuracy('multilabel')(pred, true) == pytest.approx(2 / 3)


def test_accuracy_over_extra_dimensions():
    rng = np.random.default_rng(1)
    s = rng.standard_normal((4, 3, 5))          # (N, C, positions)
    y = rng.integers(0, 3, (4, 5))
    assert nn.Accuracy()(s, y) == pytest.approx(np.mean(s.argmax(1) == y))


@pytest.mark.parametrize('k', [1, 2, 3, 5])
def test_top_k_matches_numpy(k):
    s, y, parts = batches(seed=k)
    ranks = (s > s[np.arange(len(y)), y][:, None]).sum(axis=1)   # scores above the label's
    expected = np.mean(ranks < k)
    assert feed(nn.TopKCategoricalAccuracy(k), s, y, parts).eval() == pytest.approx(expected)
    if k == 1:
        assert feed(nn.Top1CategoricalAccuracy(), s, y, parts).eval() == pytest.approx(expected)
    if k == 5:
        assert feed(nn.Top5CategoricalAccuracy(), s, y, parts).eval() == 1.0
    assert nn.TopKCategoricalAccuracy(k)(s, np.eye(5)[y]) == pytest.approx(expected)


def confusion(s, y, c=5):
    pred = s.argmax(1)
    return np.array([[np.sum((pred == p) & (y == t)) for t in range(c)] for p in range(c)])


def test_precision_recall_fbeta_match_numpy():
    s, y, parts = batches(seed=3)
    m = confusion(s, y)
    tp = np.diag(m).astype(float)
    precision = tp / m.sum(axis=1)
    recall = tp / m.sum(axis=0)
    np.testing.assert_allclose(feed(nn.Precision(), s, y, parts).eval(), precision)
    np.testing.assert_allclose(feed(nn.Recall(), s, y, parts).eval(), recall)
    assert feed(nn.Recall(), s, y, parts).eval(average=True) == pytest.approx(recall.mean())
    for beta in (0.5, 1.0, 2.0):
        f = (1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall)
        np.testing.assert_allclose(feed(nn.Fbeta(beta), s, y, parts).eval(), f)
    f1 = feed(nn.F1(), s, y, parts)
    assert f1.eval(average=True) == pytest.approx(np.mean(2 * precision * recall /
                                                          (precision + recall)))


def test_precision_recall_multilabel_are_per_sample():
    pred = np.array([[1, 0, 1], [0, 1, 1]])
    true = np.array([[1, 1, 0], [0, 1, 1]])
    np.testing.assert_allclose(nn.Precision('multilabel')(pred, true), [0.5, 1.0])
    np.testing.assert_allclose(nn.Recall('multilabel')(pred, true), [0.5, 1.0])
    m = nn.Precision('multilabel')
    m.update(pred, true)
    assert m.eval(average=True) == pytest.approx(0.75)


def test_loss_mae_mse():
    m = nn.Loss()
    for v in (ms.Tensor(1.0), np.array([2.0, 4.0]), [0.5]):
        m.update(v)
    assert m.eval() == pytest.approx((1 + 3 + 0.5) / 3)
    rng = np.random.default_rng(5)
    p, t = rng.standard_normal((6, 2)), rng.standard_normal((6, 2))
    assert nn.MAE()(p, t) == pytest.approx(np.abs(p - t).sum() / 6)
    assert nn.MSE()(ms.Tensor(p), ms.Tensor(t.reshape(12))) == pytest.approx(((p - t) ** 2).sum()
                                                                            / 6)


def test_set_indexes_picks_the_inputs():
    s, y, _ = batches()
    m = nn.Accuracy().set_indexes([2, 0])
    assert m.indexes == [2, 0]
    assert m(y, 'ignored', s) == pytest.approx(np.mean(s.argmax(1) == y))
    with pytest.raises(ValueError, match=r"indexes \[2, 0\] do not fit 2 inputs"):
        m.update(s, y)
    with pytest.raises(ValueError, match="indexes must be a list of ints"):
        nn.Accuracy().set_indexes((0, 1))


def test_custom_metric_with_rearrange_inputs():
    class Count(nn.Metric):
        def clear(self):
            self.n = 0

        @nn.rearrange_inputs
        def update(self, *inputs):
            self.n += len(self._convert_data(inputs[0]))

        def eval(self):
            return self.n
    m = Count().set_indexes([1])
    assert m([1], [1, 2, 3]) == 3
    with pytest.raises(TypeError, match="Can't instantiate abstract class"):
        nn.Metric()


def test_names_and_factory():
    # MindSpore 2.10's train.names()
    assert metrics.names() == [
        'F1', 'acc', 'accuracy', 'auc', 'bleu_score', 'confusion_matrix',
        'confusion_matrix_metric', 'cosine_similarity', 'dice', 'hausdorff_distance', 'loss',
        'mae', 'mean_surface_distance', 'mse', 'occlusion_sensitivity', 'perplexity',
        'precision', 'recall', 'roc', 'root_mean_square_distance', 'top_1_accuracy',
        'top_5_accuracy', 'topk']
    assert isinstance(metrics.get_metric_fn('dice', smooth=0.5), metrics.Dice)
    assert isinstance(nn.get_metric_fn('topk', 3), nn.TopKCategoricalAccuracy)
    got = metrics.get_metrics({'accuracy', 'loss'})
    assert isinstance(got['accuracy'], nn.Accuracy) and isinstance(got['loss'], nn.Loss)
    mine = nn.Accuracy()
    assert metrics.get_metrics({'acc': mine})['acc'] is mine
    assert metrics.get_metrics(None) == {}


@pytest.mark.parametrize('call,err,match', [
    (lambda: nn.Accuracy('regression'), TypeError, "eval_type must be 'classification' or "
     "'multilabel', got 'regression'"),
    (lambda: nn.Accuracy().update(np.zeros((2, 3))), ValueError, r"expected 2 inputs"),
    (lambda: nn.Accuracy().update(np.zeros((2, 3)), 5), TypeError,
     "inputs must be Tensors, lists or NumPy arrays, got int"),
    (lambda: nn.Accuracy().update(np.zeros((2, 3)), np.zeros(3)), ValueError,
     r"got y_pred \(2, 3\) and y \(3,\)"),
    (lambda: nn.Accuracy('multilabel').update(np.zeros((2, 3)), np.zeros((2, 2))), ValueError,
     "must have the same shape"),
    (lambda: nn.Accuracy('multilabel').update(np.full((2, 3), 0.5), np.zeros((2, 3))),
     ValueError, "must be 0 or 1"),
    (lambda: nn.Accuracy().eval(), RuntimeError, "Accuracy.eval: no samples"),
    (lambda: nn.Precision().update(np.zeros((2, 3)), np.array([0, 3])), ValueError,
     r"labels must be class indices in \[0, 3\)"),
    (lambda: nn.Precision().eval(average=1), TypeError, "average must be a bool"),
    (lambda: nn.Recall().eval(), RuntimeError, "Recall.eval: no samples"),
    (lambda: nn.TopKCategoricalAccuracy(0), ValueError, "k must be an int >= 1, got 0"),
    (lambda: nn.TopKCategoricalAccuracy(2.0), TypeError, "k must be an int >= 1"),
    (lambda: nn.TopKCategoricalAccuracy(2).update(np.zeros(3), np.zeros(3)), ValueError,
     r"expected y_pred of shape \(N, C\)"),
    (lambda: nn.Top1CategoricalAccuracy().eval(), RuntimeError, "no samples"),
    (lambda: nn.Fbeta(0), ValueError, "beta must be a number > 0, got 0"),
    (lambda: nn.Fbeta('1'), TypeError, "beta must be a number > 0"),
    (lambda: nn.F1().eval(), RuntimeError, "F1.eval: no samples"),
    (lambda: nn.F1().eval(average=None), TypeError, "average must be a bool"),
    (lambda: nn.Loss().update(1.0, 2.0), ValueError, "expected 1 input"),
    (lambda: nn.Loss().update(np.zeros((2, 2))), ValueError, "scalar or 1-d"),
    (lambda: nn.Loss().eval(), RuntimeError, "Loss.eval: no samples"),
    (lambda: nn.MAE().update(np.zeros(3), np.zeros(4)), ValueError, "does not match"),
    (lambda: nn.MSE().eval(), RuntimeError, "MSE.eval: no samples"),
    (lambda: nn.get_metric_fn('area'), KeyError, "unknown metric 'area'"),
    (lambda: metrics.get_metrics(['accuracy']), TypeError, "must be None, a set of names"),
    (lambda: metrics.get_metrics({'a': 'accuracy'}), TypeError, "str names to Metric objects"),
])
def test_metric_errors(call, err, match):
    with pytest.raises(err, match=match):
        call()


def test_class_count_must_stay_the_same_across_batches():
    m = nn.Accuracy()
    m.update(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match="y_pred has 4 classes, but earlier batches had 3"):
        m.update(np.zeros((2, 4)), np.zeros(2))
