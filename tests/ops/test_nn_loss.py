"""Composed losses (smooth_l1_loss, huber_loss, binary_cross_entropy, kl_div, margin and
embedding losses, gaussian_nll_loss...): NumPy references, float64 finite differences of first
and second order, and argument errors. MindSpore's values are in tests/nn/test_loss_values.py."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case, normal
from tests.ops.rows import row_tests


def signs(rng, shape):
    return np.where(rng.uniform(size=shape) > 0.5, 1.0, -1.0)


def probabilities(rng, shape):
    return rng.uniform(0.05, 0.95, size=shape)


def positive(rng, shape):
    return rng.uniform(0.2, 2.0, size=shape)


def classes(rng, shape):
    return rng.integers(0, 4, size=shape)


def _reduce(loss, reduction):
    return {'none': loss, 'mean': np.mean(loss), 'sum': np.sum(loss)}[reduction]


def _softplus(x):
    return np.logaddexp(0, x)


def _smooth_l1(x, t, beta):
    beta = float(np.float32(beta))          # a float operand is a float32 value, as in MindSpore
    d = np.abs(x - t)
    return np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)


def _huber(x, t, delta):
    d = np.abs(x - t)
    return np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))


def _cosine_embedding(a, b, y, margin):
    cos = (a * b).sum(1) / np.sqrt((a * a).sum(1) * (b * b).sum(1))
    return np.where(y == 1, 1 - cos, 0) + np.where(y == -1, np.maximum(cos - margin, 0), 0)


def _triplet(a, p, n, margin, norm, eps, swap):
    def dist(u, v):
        return (np.abs(u - v + eps) ** norm).sum(1) ** (1 / norm)
    dn = np.minimum(dist(a, n), dist(p, n)) if swap else dist(a, n)
    return np.maximum(dist(a, p) - dn + margin, 0)


def _multi_margin(x, y, p, margin, w):
    n, c = x.shape
    picked = x[np.arange(n), y][:, None]
    h = np.maximum(margin - picked + x, 0) ** p
    h[np.arange(n), y] = 0
    if w is not None:
        h = h * w[y][:, None]
    return h.sum(1) / c


def _var(v, x):
    """The variance as gaussian_nll_loss reads it: the input's shape, or it without the last
    axis."""
    return v if v.shape == x.shape else v[..., None]


def _row(name, fn, ref, shapes, domains, wrt=(0,), op='Where', **kw):
    return Case(op, fn, ref=ref, shapes=shapes, domains=domains, name=name, wrt=wrt,
                rtol=1e-9, atol=1e-12, **kw)


PAIR = [((3, 4), (3, 4)), ((5,), (5,)), ((2, 3), (3,))]
CASES = []
for r in ('none', 'mean', 'sum'):
    CASES += [
        _row(f'smooth_l1-{r}', lambda x, t, r=r: ops.smooth_l1_loss(x, t, 0.7, r),
             lambda x, t, r=r: _reduce(_smooth_l1(x, t, 0.7), r), PAIR, (), wrt=(0, 1)),
        _row(f'huber-{r}', lambda x, t, r=r: ops.huber_loss(x, t, r, 0.6),
             lambda x, t, r=r: _reduce(_huber(x, t, 0.6), r), PAIR, (), wrt=(0, 1)),
        _row(f'soft_margin-{r}', lambda x, y, r=r: ops.soft_margin_loss(x, y, r),
             lambda x, y, r=r: _reduce(_softplus(-y * x), r), PAIR, (normal, signs),
             op='Softplus'),
        _row(f'margin_ranking-{r}',
             lambda a, b, y, r=r: ops.margin_ranking_loss(a, b, y, 0.3, r),
             lambda a, b, y, r=r: _reduce(np.maximum(-y * (a - b) + 0.3, 0), r),
             [((3, 4),) * 3, ((6,),) * 3], (normal, normal, signs), wrt=(0, 1), op='Maximum'),
        _row(f'hinge_embedding-{r}', lambda x, y, r=r: ops.hinge_embedding_loss(x, y, 0.8, r),
             lambda x, y, r=r: _reduce(np.where(y > 0, x, np.maximum(0.8 - x, 0)), r),
             PAIR[:2], (normal, signs), op='Maximum'),
        _row(f'bce-{r}', lambda p, y, w, r=r: ops.binary_cross_entropy(p, y, w, r),
             lambda p, y, w, r=r: _reduce(-w * (y * np.log(p) + (1 - y) * np.log(1 - p)), r),
             [((3, 4),) * 3, ((5,),) * 3], (probabilities, probabilities, positive),
             wrt=(0, 1, 2), op='BinaryCrossEntropy'),
        _row(f'cosine_embedding-{r}',
             lambda a, b, y, r=r: ops.cosine_embedding_loss(a, b, y, 0.2, r),
             lambda a, b, y, r=r: _reduce(_cosine_embedding(a, b, y, 0.2), r),
             [((3, 5), (3, 5), (3,)), ((2, 4, 3), (2, 4, 3), (2, 3))], (normal, normal, signs),
             wrt=(0, 1), op='Sqrt'),
        _row(f'triplet-{r}', lambda a, p, n, r=r: ops.triplet_margin_loss(a, p, n, reduction=r),
             lambda a, p, n, r=r: _reduce(_triplet(a, p, n, 1.0, 2, 1e-6, False), r),
             [((3, 5),) * 3], (), wrt=(0, 1, 2), op='Sqrt'),
        _row(f'multi_margin-{r}', lambda x, y, r=r: ops.multi_margin_loss(x, y, reduction=r),
             lambda x, y, r=r: _reduce(_multi_margin(x, y, 1, 1, None), r),
             [((3, 4), (3,)), ((5, 4), (5,))], (normal, classes), op='OneHot'),
        _row(f'multilabel_soft_margin-{r}',
             lambda x, y, r=r: ops.multilabel_soft_margin_loss(x, y, reduction=r),
             lambda x, y, r=r: _reduce((y * _softplus(-x) + (1 - y) * _softplus(x)).mean(-1),
                                       r),
             [((3, 4), (3, 4)), ((4,), (4,))], (normal, probabilities), wrt=(0, 1),
             op='Softplus'),
        _row(f'gaussian_nll-{r}', lambda x, t, v, r=r: ops.gaussian_nll_loss(x, t, v,
                                                                              reduction=r),
             lambda x, t, v, r=r: _reduce(0.5 * (np.log(_var(v, x)) + (x - t) ** 2 / _var(v, x)),
                                          r),
             [((3, 4),) * 3, ((3, 4), (3, 4), (3,))], (normal, normal, positive), wrt=(0, 1, 2),
             op='Log'),
    ]
for r in ('none', 'mean', 'sum', 'batchmean'):
    CASES.append(_row(
        f'kl_div-{r}', lambda x, y, r=r: ops.kl_div(x, y, r),
        lambda x, y, r=r: {'none': y * (np.log(y) - x), 'mean': (y * (np.log(y) - x)).mean(),
                           'sum': (y * (np.log(y) - x)).sum(),
                           'batchmean': (y * (np.log(y) - x)).sum() / x.shape[0]}[r],
        [((3, 4), (3, 4))], (normal, probabilities), wrt=(0, 1), op='Log'))
CASES += [
    _row('triplet-swap-p1', lambda a, p, n: ops.triplet_margin_loss(a, p, n, 0.5, 1, 1e-6, True),
         lambda a, p, n: _triplet(a, p, n, 0.5, 1, 1e-6, True).mean(), [((4, 3),) * 3], (),
         wrt=(0, 1, 2), op='Minimum'),
    _row('triplet-p3', lambda a, p, n: ops.triplet_margin_loss(a, p, n, 2.0, 3),
         lambda a, p, n: _triplet(a, p, n, 2.0, 3, 1e-6, False).mean(), [((4, 3),) * 3], (),
         wrt=(0, 1, 2), op='Pow'),
    _row('multi_margin-p2-weight',
         lambda x, y, w: ops.multi_margin_loss(x, y, 2, 2, w),
         lambda x, y, w: _multi_margin(x, y, 2, 2, w).mean(), [((3, 4), (3,), (4,))],
         (normal, classes, positive), wrt=(0, 2), op='OneHot'),
    _row('multilabel_soft_margin-weight',
         lambda x, y, w: ops.multilabel_soft_margin_loss(x, y, w),
         lambda x, y, w: ((y * _softplus(-x) + (1 - y) * _softplus(x)) * w).mean(-1).mean(),
         [((3, 4), (3, 4), (4,))], (normal, probabilities, positive), wrt=(0, 2), op='Softplus'),
    _row('gaussian_nll-full', lambda x, t, v: ops.gaussian_nll_loss(x, t, v, True),
         lambda x, t, v: (0.5 * (np.log(v) + (x - t) ** 2 / v) + 0.5 * math.log(2 * math.pi))
         .mean(), [((3, 4),) * 3], (normal, normal, positive), wrt=(0, 1, 2), op='Log'),
    _row('smooth_l1-beta0', lambda x, t: ops.smooth_l1_loss(x, t, 0.0, 'mean'),
         lambda x, t: np.abs(x - t).mean(), PAIR, (), wrt=(0, 1), op='Abs'),
]

globals().update(row_tests(CASES))


def test_kl_div_ignores_non_positive_labels():
    x = ms.Tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = ops.kl_div(x, ms.Tensor([0.0, 0.5, -1.0]), 'none')
    np.testing.assert_allclose(y.asnumpy(), [0.0, 0.5 * (math.log(0.5) + 1.0), 0.0], rtol=1e-6)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [0.0, -0.5, 0.0])


def test_gaussian_nll_clamps_the_variance():
    y = ops.gaussian_nll_loss(ms.Tensor([1.0]), ms.Tensor([0.0]), ms.Tensor([0.0]), eps=0.5)
    assert y.item() == pytest.approx(0.5 * (math.log(0.5) + 2.0))


X = ms.Tensor(np.ones((3, 4), np.float32))
I3 = ms.Tensor([1, 0, 2])


@pytest.mark.parametrize('call, error, message', [
    (lambda: ops.smooth_l1_loss(X, X, -1.0), ValueError, "ops.smooth_l1_loss: beta must be >= 0"),
    (lambda: ops.huber_loss(X, X, delta=0.0), ValueError, "ops.huber_loss: delta must be > 0"),
    (lambda: ops.huber_loss(X, X, 'avg'), ValueError,
     "ops.huber_loss: reduction must be 'none', 'mean' or 'sum', got 'avg'"),
    (lambda: ops.smooth_l1_loss(X, ms.Tensor(np.ones(3))), ValueError,
     r"ops.smooth_l1_loss: target of shape \(3,\) cannot be broadcast with the input"),
    (lambda: ops.binary_cross_entropy(X, ms.Tensor(np.ones(4))), ValueError,
     r"ops.binary_cross_entropy: labels must have the logits' shape \(3, 4\)"),
    (lambda: ops.kl_div(X, X, 'avg'), ValueError,
     "ops.kl_div: reduction must be one of 'none', 'mean', 'batchmean', 'sum', got 'avg'"),
    (lambda: ops.margin_ranking_loss(X, X, X, 1), TypeError,
     "ops.margin_ranking_loss: margin must be a float, got int"),
    # MindSpore 2.10 refuses mixed dtypes here rather than promoting them.
    (lambda: ops.margin_ranking_loss(X.astype(ms.float16), X, X), TypeError,
     r"ops.margin_ranking_loss: input2 must have the dtype of input1 \(Float16\), got Float32"),
    (lambda: ops.margin_ranking_loss(X, X, X.astype(ms.int32)), TypeError,
     r"ops.margin_ranking_loss: target must have the dtype of input1 \(Float32\), got Int32"),
    (lambda: ops.cosine_embedding_loss(X, X, I3, 2.0), ValueError,
     r"ops.cosine_embedding_loss: margin must be in \[-1, 1\], got 2.0"),
    (lambda: ops.cosine_embedding_loss(X, X, X), ValueError,
     r"ops.cosine_embedding_loss: target must have shape \(3,\)"),
    (lambda: ops.triplet_margin_loss(X, X, ms.Tensor(np.ones(4))), ValueError,
     "ops.triplet_margin_loss: anchor, positive and negative must have one shape"),
    (lambda: ops.triplet_margin_loss(X, X, X, p=0), ValueError,
     "ops.triplet_margin_loss: p must be >= 1, got 0"),
    (lambda: ops.multi_margin_loss(X, I3, margin=1.0), TypeError,
     "ops.multi_margin_loss: margin must be an int, got float"),
    (lambda: ops.multi_margin_loss(X, I3, p=3), ValueError,
     "ops.multi_margin_loss: p must be 1 or 2, got 3"),
    (lambda: ops.multi_margin_loss(X, ms.Tensor([1, 0])), ValueError,
     r"ops.multi_margin_loss: target must be an integer Tensor of shape \(3,\)"),
    (lambda: ops.multi_margin_loss(X, I3, weight=ms.Tensor(np.ones(3))), ValueError,
     r"ops.multi_margin_loss: weight of shape \(3,\) cannot be broadcast"),
    (lambda: ops.gaussian_nll_loss(X, X, X, eps=0), ValueError,
     "ops.gaussian_nll_loss: eps must be a positive float, got 0"),
    (lambda: ops.gaussian_nll_loss(X, X, X, full=1), TypeError,
     "ops.gaussian_nll_loss: full must be a bool"),
    (lambda: ops.soft_margin_loss([1.0], X), TypeError,
     "ops.soft_margin_loss: input must be a Tensor, got list"),
])
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()
