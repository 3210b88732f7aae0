"""Functional losses: NumPy references, finite differences, stability, reductions and errors."""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops.loss import sparse_softmax_cross_entropy
from hookgrad.testing.cases import Case, normal
from tests.ops.rows import row_tests

REDUCTIONS = ['none', 'mean', 'sum']


# ------------------------------------------------------------------------------ references
def _log_softmax(x, axis):
    z = x - x.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def _index_ref(logp, target, weight, ignore_index, reduction, eps):
    """Per-target loss on log-probabilities written out one target at a time."""
    axis = 1 if logp.ndim >= 2 else 0
    n_classes = logp.shape[axis]
    rows = np.moveaxis(logp, axis, -1).reshape(-1, n_classes)
    w = np.ones(n_classes) if weight is None else weight
    losses, denom = [], 0.0
    for row, t in zip(rows, target.reshape(-1)):
        if t == ignore_index:
            losses.append(0.0)
            continue
        losses.append((1 - eps) * -w[t] * row[t] + eps / n_classes * -(w * row).sum())
        denom += w[t]
    losses = np.array(losses).reshape(target.shape)
    return _reduced(losses, reduction, denom)


def _prob_ref(x, target, weight, reduction, eps):
    axis = 1 if x.ndim >= 2 else 0
    n_classes = x.shape[axis]
    w = np.ones(n_classes) if weight is None else weight
    w = w.reshape((-1,) + (1,) * (x.ndim - 1 - axis))
    q = (1 - eps) * target + eps / n_classes
    losses = -(w * q * _log_softmax(x, axis)).sum(axis=axis)
    return _reduced(losses, reduction, losses.size)


def _reduced(losses, reduction, denom):
    if reduction == 'none':
        return losses
    return losses.sum() / denom if reduction == 'mean' else losses.sum()


def _bce_ref(x, t, w, pw):
    s = 1 / (1 + np.exp(-x))
    pw = 1.0 if pw is None else pw
    loss = -(pw * t * np.log(s) + (1 - t) * np.log(1 - s))
    return loss if w is None else loss * w


# ------------------------------------------------------------------------------ domains
def logits(rng, shape):
    return rng.standard_normal(shape) * 2


def class_indices(n_classes):
    """Class indices in [0, n_classes), the second one ignored (-100) when there are more
    than two targets."""
    def domain(rng, shape):
        y = rng.integers(0, n_classes, size=shape)
        if y.size > 2:
            y.reshape(-1)[1] = -100
        return y
    return domain


def probabilities(rng, shape):
    """Class probabilities along the class axis (1, or 0 for a 1-d input)."""
    t = rng.uniform(0.0, 1.0, shape)
    return t / t.sum(axis=1 if len(shape) >= 2 else 0, keepdims=True)


def unit(rng, shape):
    return rng.uniform(0.0, 1.0, shape)


def weights(rng, shape):
    return rng.uniform(0.5, 2.0, shape)


# ------------------------------------------------------------------------------ rows
# (input shape, class-index target shape)
INDEX_SHAPES = [((5, 4), (5,)), ((4,), ()), ((2, 3, 2, 2), (2, 2, 2))]
PROB_SHAPES = [(5, 4), (4,), (2, 3, 2)]
REGRESSION_SHAPES = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1), (2, 3))]


def _class_axis(xs):
    return 1 if len(xs) >= 2 else 0


def index_row(op, xs, ys, reduction, eps, weighted):
    """cross_entropy (on logits) or nll_loss (on log-probabilities) with class indices:
    inputs x, target and, when ``weighted``, the class weights."""
    n_classes = xs[_class_axis(xs)]
    loss = ops.cross_entropy if op == 'CrossEntropyIndex' else ops.nll_loss

    def fn(x, y, w=None):
        return loss(x, y, w, reduction=reduction, label_smoothing=eps)

    def ref(x, y, w=None):
        logp = _log_softmax(x, _class_axis(xs)) if op == 'CrossEntropyIndex' else x
        return _index_ref(logp, y, w, -100, reduction, eps)
    return Case(op, fn, ref=ref, name=f"{loss.__name__}-{reduction}-eps{eps}-w{int(weighted)}",
                shapes=[(xs, ys) + (((n_classes,),) if weighted else ())],
                domains=(logits, class_indices(n_classes), weights), wrt=(0,),
                rtol=1e-12, atol=1e-12)


def prob_row(reduction, eps, weighted):
    """cross_entropy with class probabilities: inputs x, target and, when ``weighted``, the
    class weights (which are not differentiated)."""
    def fn(x, t, w=None):
        return ops.cross_entropy(x, t, w, reduction=reduction, label_smoothing=eps)

    def ref(x, t, w=None):
        return _prob_ref(x, t, w, reduction, eps)
    shapes = [(xs, xs) + (((xs[_class_axis(xs)],),) if weighted else ()) for xs in PROB_SHAPES]
    return Case('CrossEntropyProb', fn, ref=ref,
                name=f"cross_entropy-prob-{reduction}-eps{eps}-w{int(weighted)}",
                shapes=shapes, domains=(normal, probabilities, weights), wrt=(0, 1),
                rtol=1e-12, atol=1e-12)


def regression_row(op, reduction):
    loss, elementwise = {'MSE': (ops.mse_loss, lambda d: d * d), 'L1': (ops.l1_loss, np.abs)}[op]

    def ref(x, t):
        return _reduced(elementwise(x - t), reduction, np.broadcast(x, t).size)
    return Case(op, lambda x, t: loss(x, t, reduction), ref=ref,
                name=f"{loss.__name__}-{reduction}", shapes=REGRESSION_SHAPES,
                rtol=1e-12, atol=0)


def bce_row(reduction, weighted, pos_weighted):
    """binary_cross_entropy_with_logits: inputs x, target, then weight (3, 1) and pos_weight
    (4,) when asked for; all are differentiated."""
    names = ['weight'] * weighted + ['pos_weight'] * pos_weighted

    def fn(x, t, *extra):
        return ops.binary_cross_entropy_with_logits(x, t, reduction=reduction,
                                                    **dict(zip(names, extra)))

    def ref(x, t, *extra):
        given = dict(zip(names, extra))
        return _reduced(_bce_ref(x, t, given.get('weight'), given.get('pos_weight')),
                        reduction, x.size)
    extra = {'weight': (3, 1), 'pos_weight': (4,)}
    return Case('BCEWithLogits', fn, ref=ref,
                name=f"bce_with_logits-{reduction}-w{int(weighted)}-pw{int(pos_weighted)}",
                shapes=[((3, 4), (3, 4)) + tuple(extra[n] for n in names)],
                domains=(logits, unit, weights, weights), rtol=1e-12, atol=0)


CROSS_ENTROPY_INDEX = [index_row('CrossEntropyIndex', xs, ys, red, eps, weighted)
                       for xs, ys in INDEX_SHAPES for red in REDUCTIONS for eps in (0.0, 0.2)
                       for weighted in (False, True)]
NLL = [index_row('NLLIndex', xs, ys, red, eps, weighted)
       for xs, ys in INDEX_SHAPES for red in REDUCTIONS for eps in (0.0, 0.2)
       for weighted in (False, True)]
CROSS_ENTROPY_PROB = [prob_row(red, eps, weighted) for red in REDUCTIONS
                      for eps, weighted in [(0.0, False), (0.3, True)]]
REGRESSION = [regression_row(op, red) for op in ('MSE', 'L1') for red in REDUCTIONS]
BCE = [bce_row(red, weighted, pos_weighted) for red in REDUCTIONS
       for weighted, pos_weighted in [(False, False), (True, False), (False, True),
                                      (True, True)]]
CASES = CROSS_ENTROPY_INDEX + NLL + CROSS_ENTROPY_PROB + REGRESSION + BCE


globals().update(row_tests(CASES))


# ------------------------------------------------------------------------------ behaviour
def test_huge_logits_stay_finite_and_exact_without_warnings():
    logits = np.array([[1e4, 0.0, -1e4], [-1e4, 1e4, 1e4]])
    labels = np.array([0, 0])
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        for dt in (np.float32, np.float64):
            x = ms.Tensor(logits.astype(dt), requires_grad=True)
            loss = ops.cross_entropy(x, ms.Tensor(labels), reduction='none')
            np.testing.assert_allclose(loss.asnumpy(), [0.0, 2e4 + np.log(2)], rtol=1e-6)
            loss.sum().backward()
            np.testing.assert_allclose(x.grad.asnumpy(), [[0, 0, 0], [-1, 0.5, 0.5]], atol=1e-6)
            soft = ops.cross_entropy(ms.Tensor(logits.astype(dt)),
                                     ms.Tensor(np.eye(3, dtype=dt)[labels]), reduction='none')
            np.testing.assert_allclose(soft.asnumpy(), loss.asnumpy(), rtol=1e-6)
            z = ms.Tensor(logits[0].astype(dt), requires_grad=True)
            bce = ops.binary_cross_entropy_with_logits(
                z, ms.Tensor(np.array([1.0, 1.0, 1.0], dt)), pos_weight=ms.Tensor(dt(2.0)),
                reduction='none')
            np.testing.assert_allclose(bce.asnumpy(), [0.0, 2 * np.log(2), 2e4], rtol=1e-6)
            bce.sum().backward()
            np.testing.assert_allclose(z.grad.asnumpy(), [0.0, -1.0, -2.0], atol=1e-6)


def test_ignored_targets_get_no_gradient_and_do_not_count_in_the_mean():
    rng = np.random.default_rng(5)
    x = ms.Tensor(rng.standard_normal((4, 3)), requires_grad=True)
    y = ms.Tensor([2, -100, 0, -100])
    loss = ops.cross_entropy(x, y)
    both = ops.cross_entropy(x, y, reduction='sum')
    np.testing.assert_allclose(loss.asnumpy(), both.asnumpy() / 2, rtol=1e-12)
    loss.backward()
    np.testing.assert_array_equal(x.grad.asnumpy()[[1, 3]], 0.0)
    assert np.all(x.grad.asnumpy()[[0, 2]] != 0)
    custom = ops.nll_loss(x, ms.Tensor([2, 1, 0, 1]), ignore_index=1, reduction='none')
    np.testing.assert_array_equal(custom.asnumpy()[[1, 3]], 0.0)


def test_every_target_ignored_gives_nan_for_the_mean_and_zero_for_the_sum():
    x = ms.Tensor(np.zeros((2, 3)), requires_grad=True)
    y = ms.Tensor([-100, -100])
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        loss = ops.cross_entropy(x, y)
        assert np.isnan(loss.item())
        loss.backward()
        assert np.isnan(x.grad.asnumpy()).all()
        x.grad = None
        total = ops.cross_entropy(x, y, reduction='sum')
        assert total.item() == 0.0
        total.backward()
        np.testing.assert_array_equal(x.grad.asnumpy(), 0.0)


def test_float32_losses_and_gradients_stay_float32():
    rng = np.random.default_rng(6)
    x = ms.Tensor(rng.standard_normal((4, 3)).astype(np.float32), requires_grad=True)
    for loss in (ops.cross_entropy(x, ms.Tensor([0, 1, 2, 0])),
                 ops.nll_loss(x, ms.Tensor([0, 1, 2, 0])),
                 ops.mse_loss(x, ms.Tensor([1, 2, 3])),          # integer target is cast
                 ops.l1_loss(x, ops.zeros((4, 3))),
                 ops.binary_cross_entropy_with_logits(x, ops.ones((4, 3)))):
        assert loss.dtype == ms.float32 and loss.shape == ()
        loss.backward()
        assert x.grad.dtype == ms.float32
        x.grad = None


def test_integer_inputs_are_scored_as_float32():
    loss = ops.cross_entropy(ms.Tensor([[1, 0]]), ms.Tensor([0]))
    assert loss.dtype == ms.float32
    assert loss.item() == pytest.approx(np.log1p(np.exp(-1.0)), rel=1e-6)
    assert ops.mse_loss(ms.Tensor([1, 2]), ms.Tensor([0, 0])).item() == 2.5


def test_label_smoothing_one_gives_the_uniform_target():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 4))
    got = ops.cross_entropy(ms.Tensor(x), ms.Tensor([0, 1, 2]), label_smoothing=1.0)
    assert got.item() == pytest.approx(-_log_softmax(x, 1).mean(axis=1).mean(), rel=1e-12)


def test_l1_gradient_is_zero_where_input_equals_target():
    x = ms.Tensor([1.0, 2.0, 3.0], requires_grad=True)
    ops.l1_loss(x, ms.Tensor([0.0, 2.0, 4.0]), 'sum').backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [1.0, 0.0, -1.0])


def test_sparse_softmax_cross_entropy_counts_every_label():
    x = np.array([[1.0, 2.0], [0.5, -0.5]])
    got = sparse_softmax_cross_entropy(ms.Tensor(x), ms.Tensor([1, 0]))
    np.testing.assert_allclose(got.asnumpy(), -_log_softmax(x, 1)[[0, 1], [1, 0]], rtol=1e-12)
    with pytest.raises(TypeError, match="ops.cross_entropy: sparse labels must be integer class "
                                        "indices, got dtype Float32"):
        sparse_softmax_cross_entropy(ms.Tensor(x), ms.Tensor([1.0, 0.0]))
    with pytest.raises(IndexError, match=r"ops.cross_entropy: target values must be in \[0, 2\), "
                                         r"got -100"):
        sparse_softmax_cross_entropy(ms.Tensor(x), ms.Tensor([1, -100]))


# ------------------------------------------------------------------------------ errors
X = ops.zeros((2, 3))
Y = ms.Tensor([0, 1])


@pytest.mark.parametrize('call,error,message', [
    (lambda: ops.cross_entropy(X, Y, reduction='avg'), ValueError,
     "ops.cross_entropy: reduction must be 'none', 'mean' or 'sum', got 'avg'"),
    (lambda: ops.nll_loss(X, Y, reduction=None), ValueError,
     "ops.nll_loss: reduction must be 'none', 'mean' or 'sum', got None"),
    (lambda: ops.mse_loss(X, X, 'max'), ValueError, "ops.mse_loss: reduction must be"),
    (lambda: ops.l1_loss(X, X, 'max'), ValueError, "ops.l1_loss: reduction must be"),
    (lambda: ops.binary_cross_entropy_with_logits(X, X, reduction='x'), ValueError,
     "ops.binary_cross_entropy_with_logits: reduction must be"),
    (lambda: ops.cross_entropy(X, Y, label_smoothing=1.5), ValueError,
     r"ops.cross_entropy: label_smoothing must be in \[0.0, 1.0\], got 1.5"),
    (lambda: ops.nll_loss(X, Y, label_smoothing='a'), TypeError,
     "ops.nll_loss: label_smoothing must be a float, got str"),
    (lambda: ops.cross_entropy(X, Y, ignore_index=1.0), TypeError,
     "ops.cross_entropy: ignore_index must be an int, got 1.0"),
    (lambda: ops.cross_entropy(X, Y, weight=ops.ones(2)), ValueError,
     r"ops.cross_entropy: weight must have shape \(3,\) \(one per class\), got \(2,\)"),
    (lambda: ops.cross_entropy(X, Y, weight=[1.0, 1.0, 1.0]), TypeError,
     "ops.cross_entropy: weight must be a Tensor, got list"),
    (lambda: ops.cross_entropy(X, ms.Tensor([0, 1, 2])), ValueError,
     r"ops.cross_entropy: target of class indices must have shape \(2,\) for input of shape "
     r"\(2, 3\), got \(3,\)"),
    (lambda: ops.cross_entropy(X, ms.Tensor([0, 3])), IndexError,
     r"ops.cross_entropy: target values must be in \[0, 3\) or ignore_index -100, got 3"),
    (lambda: ops.nll_loss(X, ms.Tensor([-1, 0])), IndexError,
     r"ops.nll_loss: target values must be in \[0, 3\) or ignore_index -100, got -1"),
    (lambda: ops.cross_entropy(X, ops.zeros((2, 2))), ValueError,
     r"ops.cross_entropy: target of probabilities must have input's shape \(2, 3\), got "
     r"\(2, 2\)"),
    (lambda: ops.cross_entropy(X, ms.Tensor([True, False])), TypeError,
     "ops.cross_entropy: target must hold class indices .* got dtype Bool"),
    (lambda: ops.cross_entropy(ms.Tensor(1.0), ms.Tensor(0)), ValueError,
     r"ops.cross_entropy: input must have shape \(C,\), \(N, C\) or \(N, C, d1, ...\), got a "
     r"0-d tensor"),
    (lambda: ops.cross_entropy('x', Y), TypeError, "ops.cross_entropy: input must be a Tensor"),
    (lambda: ops.nll_loss(X, ops.zeros(2)), TypeError,
     "ops.nll_loss: target must hold integer class indices, got dtype Float32"),
    (lambda: ops.nll_loss(X, 0), TypeError, "ops.nll_loss: target must be a Tensor, got int"),
    (lambda: ops.mse_loss(X, ops.zeros(2)), ValueError,
     r"ops.mse_loss: input of shape \(2, 3\) and target of shape \(2,\) cannot be broadcast "
     r"together"),
    (lambda: ops.l1_loss(X, 1.0), TypeError, "ops.l1_loss: target must be a Tensor, got float"),
    (lambda: ops.binary_cross_entropy_with_logits(X, X, pos_weight=ops.ones(2)), ValueError,
     r"ops.binary_cross_entropy_with_logits: pos_weight of shape \(2,\) cannot be broadcast "
     r"with input of shape \(2, 3\) and target of shape \(2, 3\)"),
    (lambda: ops.binary_cross_entropy_with_logits(X, X, weight=2.0), TypeError,
     "ops.binary_cross_entropy_with_logits: weight must be a Tensor, got float"),
])
def test_bad_arguments_are_rejected(call, error, message):
    with pytest.raises(error, match=message):
        call()
