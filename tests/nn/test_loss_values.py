"""The losses (functions and cells) against MindSpore 2.10's values on the same inputs
(mindspore_loss_values.py), their gradients included; reprs, parameters and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad
from tests.nn.mindspore_loss_values import MINDSPORE, inputs

V = inputs()
T = ms.Tensor
W4 = [0.5, 1., 2., 1.5]


def f32(a):
    return T(np.asarray(a, np.float32))


def _functional(r):
    x, t, p, y01, w, sgn, sgn3 = (V[k] for k in ('x', 't', 'p', 'y01', 'w', 'sgn', 'sgn3'))
    a, b, var, tgt = V['a'], V['b'], V['var'], T(V['tgt'], ms.int64)
    return {
        f'smooth_l1/{r}': lambda: ops.smooth_l1_loss(f32(x), f32(t), 0.5, r),
        f'huber/{r}': lambda: ops.huber_loss(f32(x), f32(t), r, 0.7),
        f'bce/{r}': lambda: ops.binary_cross_entropy(f32(p), f32(y01), f32(w), r),
        f'margin_ranking/{r}': lambda: ops.margin_ranking_loss(f32(x), f32(t), f32(sgn), 0.3, r),
        f'cosine_embedding/{r}': lambda: ops.cosine_embedding_loss(f32(a), f32(b), f32(sgn3),
                                                                   0.2, r),
        f'hinge_embedding/{r}': lambda: ops.hinge_embedding_loss(f32(x), f32(sgn), 0.8, r),
        f'multi_margin/{r}': lambda: ops.multi_margin_loss(f32(x), tgt, 1, 1, None, r),
        f'multi_margin_p2w/{r}': lambda: ops.multi_margin_loss(f32(x), tgt, 2, 2, f32(W4), r),
        f'multilabel_soft_margin/{r}': lambda: ops.multilabel_soft_margin_loss(
            f32(x), f32(y01 > 0.5), f32(W4), r),
        f'gaussian_nll/{r}': lambda: ops.gaussian_nll_loss(f32(x), f32(t), f32(var), False,
                                                           1e-6, r),
        f'gaussian_nll_full/{r}': lambda: ops.gaussian_nll_loss(f32(x), f32(t), f32(var[:, 0]),
                                                                True, 1e-6, r),
    }


def _cells():
    x, t, p, y01, w, sgn, sgn3 = (V[k] for k in ('x', 't', 'p', 'y01', 'w', 'sgn', 'sgn3'))
    a, b, var, tgt = V['a'], V['b'], V['var'], T(V['tgt'], ms.int64)
    x4, lab_idx, lab_hot = V['x4'], T(V['lab_idx'], ms.int32), V['lab_hot']
    return {
        'SmoothL1Loss': lambda: nn.SmoothL1Loss()(f32(x), f32(t)),
        'HuberLoss': lambda: nn.HuberLoss()(f32(x), f32(t)),
        'BCELoss': lambda: nn.BCELoss(f32(w), 'sum')(f32(p), f32(y01)),
        'KLDivLoss': lambda: nn.KLDivLoss('batchmean')(f32(V['logp']), f32(V['q'])),
        'MarginRankingLoss': lambda: nn.MarginRankingLoss(0.1)(f32(x), f32(t), f32(sgn)),
        'CosineEmbeddingLoss': lambda: nn.CosineEmbeddingLoss(0.3, 'none')(f32(a), f32(b),
                                                                          f32(sgn3)),
        'HingeEmbeddingLoss': lambda: nn.HingeEmbeddingLoss(0.5, 'sum')(f32(x), f32(sgn)),
        'MultiMarginLoss': lambda: nn.MultiMarginLoss(p=2, margin=0.5)(f32(x), tgt),
        'MultiMarginLoss_w': lambda: nn.MultiMarginLoss(weight=f32(W4))(f32(x), tgt),
        'MultiLabelSoftMarginLoss': lambda: nn.MultiLabelSoftMarginLoss()(f32(x),
                                                                          f32(y01 > 0.5)),
        'GaussianNLLLoss': lambda: nn.GaussianNLLLoss(full=True)(f32(x), f32(t), f32(var)),
        'PoissonNLLLoss': lambda: nn.PoissonNLLLoss()(f32(x), f32(np.abs(t) * 3)),
        'PoissonNLLLoss_full': lambda: nn.PoissonNLLLoss(log_input=False, full=True,
                                                         reduction='none')(f32(p * 4),
                                                                           f32(np.abs(t) * 3)),
        'RMSELoss': lambda: nn.RMSELoss()(f32(x), f32(t)),
        'MAELoss': lambda: nn.MAELoss('sum')(f32(x), f32(t)),
        'DiceLoss': lambda: nn.DiceLoss(1e-3)(f32(p), f32(y01 > 0.5)),
        'FocalLoss_idx': lambda: nn.FocalLoss(gamma=2.0)(f32(x4), lab_idx),
        'FocalLoss_hot_w': lambda: nn.FocalLoss(weight=f32([0.2, 0.5, 0.3]), gamma=1.5,
                                                reduction='none')(f32(x4), f32(lab_hot)),
        'FocalLoss_2d': lambda: nn.FocalLoss(gamma=0.5)(f32(x4[:, :, 0]), lab_idx[:, :, 0]),
        'FocalLoss_2d_w_idx': lambda: nn.FocalLoss(weight=f32([0.2, 0.5, 0.3]), gamma=2.0,
                                                   reduction='sum')(f32(x4[:, :, 0]),
                                                                    lab_idx[:, :, 0]),
    }


CALLS = {**_functional('none'), **_functional('mean'), **_functional('sum'), **_cells()}
CALLS.update({f'kl_div/{r}': (lambda r=r: ops.kl_div(f32(V['logp']), f32(V['q']), r))
              for r in ('none', 'mean', 'sum', 'batchmean')})


@pytest.mark.parametrize('name', sorted(CALLS))
def test_values_match_mindspore(name):
    y = CALLS[name]()
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), MINDSPORE[name], rtol=2e-5, atol=2e-6)


GRADS = {
    'bce': (lambda u: ops.binary_cross_entropy(u, f32(V['y01']), f32(V['w']), 'sum'), 'p'),
    'kl': (lambda u: ops.kl_div(u, f32(V['q']), 'sum'), 'logp'),
    'multi_margin': (lambda u: ops.multi_margin_loss(u, T(V['tgt'], ms.int64), 2, 1, f32(W4)),
                     'x'),
    'cosine_embedding': (lambda u, v: ops.cosine_embedding_loss(u, v, f32(V['sgn3']), 0.2),
                         'a', 'b'),
    'focal': (lambda u: nn.FocalLoss(weight=f32([0.2, 0.5, 0.3]), gamma=1.5)(
        u, T(V['lab_idx'], ms.int32)), 'x4'),
    'gaussian_nll': (lambda u, v: ops.gaussian_nll_loss(u, f32(V['t']), v), 'x', 'var'),
    'poisson': (lambda u: nn.PoissonNLLLoss()(u, f32(np.abs(V['t']) * 3)), 'x'),
    'dice': (lambda u: nn.DiceLoss()(u, f32(V['y01'] > 0.5)), 'p'),
}


@pytest.mark.parametrize('name', sorted(GRADS))
def test_gradients_match_mindspore(name):
    fn, *args = GRADS[name]
    grads = ms.grad(fn, tuple(range(len(args))))(*[f32(V[a]) for a in args])
    grads = grads if isinstance(grads, tuple) else (grads,)
    for got, want in zip(grads, MINDSPORE[name + '/grad']):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-5, atol=2e-6)


def test_bce_gradient_at_the_clamped_ends_is_mindspores():
    g = ms.grad(lambda u: ops.binary_cross_entropy(u, f32([1.0, 0.0, 1.0, 0.3]),
                                                   reduction='sum'))(f32([0.0, 1.0, 0.5, 0.2]))
    np.testing.assert_allclose(g.asnumpy(), [-1e12, 1e12, -2.0, -0.625], rtol=1e-5)
    y = ops.binary_cross_entropy(f32([0.0, 1.0, 1e-30]), f32([1.0, 0.0, 1.0]), reduction='none')
    np.testing.assert_allclose(y.asnumpy(), [27.631021] * 3, rtol=1e-6)


@pytest.mark.parametrize('make', [
    lambda: nn.TripletMarginLoss(margin=0.5), lambda: nn.TripletMarginLoss(p=1, swap=True),
    lambda: nn.MultiMarginLoss(p=2), lambda: nn.FocalLoss(), lambda: nn.SoftMarginLoss(),
    lambda: nn.PoissonNLLLoss(log_input=False), lambda: nn.DiceLoss(),
])
def test_cell_gradients_match_finite_differences(make):
    cell = make()
    rng = np.random.default_rng(0)
    if isinstance(cell, nn.TripletMarginLoss):
        check_grad(lambda a, b, c: cell(a, b, c), *rng.standard_normal((3, 3, 4)))
    elif isinstance(cell, nn.MultiMarginLoss):
        check_grad(lambda x: cell(x, T([1, 0, 3])), rng.standard_normal((3, 4)))
    elif isinstance(cell, nn.FocalLoss):
        check_grad(lambda x: cell(x, T([[[0, 2, 1]], [[1, 1, 0]]])),
                   rng.standard_normal((2, 3, 3)))
    elif isinstance(cell, nn.SoftMarginLoss):
        check_grad(lambda x: cell(x, T(np.array([1.0, -1.0, 1.0]))), rng.standard_normal(3))
    else:
        target = T(rng.uniform(0.5, 2, (3, 4)))
        check_grad(lambda x: cell(x, target), rng.uniform(0.5, 2, (3, 4)))


def test_triplet_margin_loss_cell_margin_rule():
    a, b, c = (f32(V[k]) for k in 'abc')
    assert nn.TripletMarginLoss()(a, b, c, 2.0).item() == pytest.approx(
        ops.triplet_margin_loss(a, b, c, 2.0).item())
    assert nn.TripletMarginLoss(margin=0.5)(a, b, c, 2.0).item() == pytest.approx(
        ops.triplet_margin_loss(a, b, c, 0.5).item())


def test_losses_print_as_mindspore():
    for cell in (nn.SmoothL1Loss(), nn.BCELoss(), nn.DiceLoss(), nn.TripletMarginLoss(),
                 nn.GaussianNLLLoss(), nn.SoftMarginLoss(), nn.MultiMarginLoss()):
        assert repr(cell) == f"{type(cell).__name__}()"
    assert repr(nn.RMSELoss()) == 'RMSELoss(\n  (MSELoss): MSELoss()\n)'
    assert repr(nn.FocalLoss()) == 'FocalLoss(\n  (logsoftmax): LogSoftmax()\n)'


@pytest.mark.parametrize('make, error, message', [
    (lambda: nn.SmoothL1Loss(-1.0), ValueError, "nn.SmoothL1Loss: beta must be >= 0"),
    (lambda: nn.HuberLoss(delta=0), ValueError, "nn.HuberLoss: delta must be > 0, got 0"),
    (lambda: nn.KLDivLoss('avg'), ValueError, "nn.KLDivLoss: reduction must be 'none', 'mean', "
                                              "'batchmean' or 'sum', got 'avg'"),
    (lambda: nn.BCELoss([1.0]), TypeError, "nn.BCELoss: weight must be a Tensor or None"),
    (lambda: nn.MarginRankingLoss(1), TypeError, "nn.MarginRankingLoss: margin must be a float"),
    (lambda: nn.CosineEmbeddingLoss(2.0), ValueError,
     r"nn.CosineEmbeddingLoss: margin must be in \[-1.0, 1.0\], got 2.0"),
    (lambda: nn.MultiMarginLoss(p=3), ValueError, "nn.MultiMarginLoss: p must be 1 or 2"),
    (lambda: nn.GaussianNLLLoss(eps=0.0), ValueError,
     "nn.GaussianNLLLoss: eps must be a positive float"),
    # MindSpore 2.10: the cell refuses a non-float eps (even an int) with a TypeError.
    (lambda: nn.GaussianNLLLoss(eps=1), TypeError, "nn.GaussianNLLLoss: eps must be a float, "
                                                   "got int"),
    (lambda: nn.PoissonNLLLoss(full=1), TypeError, "nn.PoissonNLLLoss: full must be a bool"),
    (lambda: nn.DiceLoss(0), ValueError, "nn.DiceLoss: smooth must be a positive float"),
    (lambda: nn.FocalLoss(gamma=2), TypeError, "nn.FocalLoss: gamma must be a float, got int"),
    (lambda: nn.FocalLoss(weight=f32([[1.0]])), ValueError, "nn.FocalLoss: weight must be 1-d"),
    (lambda: nn.FocalLoss()(f32(np.ones(3)), f32(np.ones(3))), ValueError,
     "nn.FocalLoss: logits must have 2 to 4 dimensions"),
    (lambda: nn.FocalLoss()(f32(np.ones((2, 3))), T(np.zeros((2, 2), np.int32))), ValueError,
     r"nn.FocalLoss: labels.shape\[1\] must be 1 or C=3"),
    (lambda: nn.DiceLoss()(f32(np.ones(3)), f32(np.ones(2))), ValueError,
     "nn.DiceLoss: logits and labels must have one shape"),
    (lambda: nn.RMSELoss()(f32([1.0]), [1.0]), TypeError, "nn.RMSELoss: labels must be a Tensor"),
    (lambda: nn.TripletMarginLoss(p=0), ValueError, "nn.TripletMarginLoss: p must be an int >= 1"),
    (lambda: nn.SoftMarginLoss('avg'), ValueError, "reduction must be 'none', 'mean' or 'sum'"),
])
def test_bad_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()
