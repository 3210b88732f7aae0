"""Losses composed of hookgrad's primitives (MindSpore 2.x ``ops`` names, signatures and
formulas): smooth_l1_loss, huber_loss, binary_cross_entropy, kl_div, soft_margin_loss,
margin_ranking_loss, cosine_embedding_loss, hinge_embedding_loss, triplet_margin_loss,
multi_margin_loss, multilabel_soft_margin_loss, gaussian_nll_loss.

Only binary cross-entropy on probabilities is a primitive of its own: MindSpore clamps its
logarithms at log(1e-12) and its gradient is ``(x - y) / max(x (1 - x), 1e-12)``, which no
composition of clamps reproduces at 0 and 1. Reductions: 'none' keeps the element-wise (or
per-sample) losses, 'sum' adds them, 'mean' averages them.
"""
import math
import numbers

import numpy as np

from .._tensor import Tensor
from ._base import exact_constants
from ..autograd.function import Op
from .activation import softplus
from .arithmetic import cast
from .comparison import equal, gt, lt, maximum, minimum
from .creation import one_hot
from .indexing import where
from .reduction import mean, sum as _sum
from .shaping import expand_dims
from .unary import _floating, abs as _abs, log, sqrt

__all__ = ['smooth_l1_loss', 'huber_loss', 'binary_cross_entropy', 'kl_div', 'soft_margin_loss',
           'margin_ranking_loss', 'cosine_embedding_loss', 'hinge_embedding_loss',
           'triplet_margin_loss', 'multi_margin_loss', 'multilabel_soft_margin_loss',
           'gaussian_nll_loss']

_BCE_EPS = 1e-12


class BinaryCrossEntropy(Op):
    """l = -(y log(max(x, eps)) + (1 - y) log(max(1 - x, eps))), MindSpore's clamped logs;
    dl/dx = (x - y) / max(x (1 - x), eps), dl/dy = log(max(1 - x, eps)) - log(max(x, eps))."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, y):
        ctx.save(x, y)
        eps = x.dtype.type(_BCE_EPS)
        return -(y * np.log(np.maximum(x, eps)) + (1 - y) * np.log(np.maximum(1 - x, eps)))

    @staticmethod
    def backward(ctx, gy):
        x, y = ctx.saved
        m = ctx.m
        gx = gy * (x - y) / m.maximum(x * (1 - x), _BCE_EPS) if ctx.needs_grad(0) else None
        gt_ = gy * (m.log(m.maximum(1 - x, _BCE_EPS)) - m.log(m.maximum(x, _BCE_EPS))) \
            if ctx.needs_grad(1) else None
        return gx, gt_


# ------------------------------------------------------------------------------ arguments
def _reduce(loss, reduction, op):
    if not isinstance(reduction, str) or reduction not in ('none', 'mean', 'sum'):
        raise ValueError(f"ops.{op}: reduction must be 'none', 'mean' or 'sum', got "
                         f"{reduction!r}")
    if reduction == 'mean':
        return mean(loss)
    if reduction == 'sum':
        return _sum(loss)
    return loss


def _check_reduction(reduction, op, allowed=('none', 'mean', 'sum')):
    if not isinstance(reduction, str) or reduction not in allowed:
        names = ', '.join(repr(r) for r in allowed)
        raise ValueError(f"ops.{op}: reduction must be one of {names}, got {reduction!r}")


def _input(value, op, arg):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{op}: {arg} must be a Tensor, got {type(value).__name__}")
    return _floating(value)


def _like(value, x, op, arg):
    """``value`` as a Tensor of ``x``'s dtype whose shape broadcasts with ``x``'s."""
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{op}: {arg} must be a Tensor, got {type(value).__name__}")
    try:
        np.broadcast_shapes(x.shape, value.shape)
    except ValueError:
        raise ValueError(f"ops.{op}: {arg} of shape {value.shape} cannot be broadcast with "
                         f"the input of shape {x.shape}") from None
    return value if value.dtype == x.dtype else cast(value, x.dtype)


def _real(value, op, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{op}: {arg} must be a float or int, got {type(value).__name__}")
    return float(value)


# ------------------------------------------------------------------------------ element-wise
def smooth_l1_loss(input, target, beta=1.0, reduction='none'):
    """``0.5 d ** 2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere (d = input -
    target); ``beta`` 0 gives the L1 loss.

    Raises:
        TypeError: for non-Tensor inputs or a non-number ``beta``.
        ValueError: for a negative ``beta``, shapes that do not broadcast, or an unknown
            reduction.
    """
    op = 'smooth_l1_loss'
    x = _input(input, op, 'input')
    t = _like(target, x, op, 'target')
    beta = _real(beta, op, 'beta')
    if beta < 0:
        raise ValueError(f"ops.{op}: beta must be >= 0, got {beta}")
    d = _abs(x - t)
    if beta == 0.0:
        return _reduce(d, reduction, op)
    # MindSpore's kernel: 0.5 d d / beta, with beta a float32 value (as every float operand)
    return _reduce(where(lt(d, beta), d * d * 0.5 / beta, d - 0.5 * beta), reduction, op)


@exact_constants
def huber_loss(input, target, reduction='mean', delta=1.0):
    """``0.5 d ** 2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere.

    Raises:
        ValueError: for ``delta`` <= 0, shapes that do not broadcast or an unknown reduction.
    """
    op = 'huber_loss'
    x = _input(input, op, 'input')
    t = _like(target, x, op, 'target')
    delta = _real(delta, op, 'delta')
    if delta <= 0:
        raise ValueError(f"ops.{op}: delta must be > 0, got {delta}")
    d = _abs(x - t)
    return _reduce(where(lt(d, delta), d * d * 0.5, (d - 0.5 * delta) * delta), reduction, op)


def binary_cross_entropy(logits, labels, weight=None, reduction='mean'):
    """Binary cross-entropy of probabilities ``logits`` (in [0, 1]) against ``labels``:
    ``-weight * (y log(x) + (1 - y) log(1 - x))``, the logarithms clamped at log(1e-12) as in
    MindSpore.

    Args:
        logits: probabilities, a floating Tensor.
        labels: a Tensor of the logits' shape.
        weight: a Tensor broadcasting with the logits, or None.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        ValueError: for labels of another shape, or an unknown reduction.
    """
    op = 'binary_cross_entropy'
    x = _input(logits, op, 'logits')
    y = _like(labels, x, op, 'labels')
    if y.shape != x.shape:
        raise ValueError(f"ops.{op}: labels must have the logits' shape {x.shape}, got "
                         f"{y.shape}")
    loss = BinaryCrossEntropy.apply(x, y)
    if weight is not None:
        loss = loss * _like(weight, x, op, 'weight')
    return _reduce(loss, reduction, op)


def kl_div(logits, labels, reduction='mean'):
    """Kullback-Leibler divergence of ``labels`` from log-probabilities ``logits``:
    ``labels * (log(labels) - logits)``, 0 where labels <= 0.

    Args:
        reduction: 'none', 'sum', 'mean' (the sum divided by the number of elements) or
            'batchmean' (divided by the batch size). Default 'mean'.

    Raises:
        ValueError: for an unknown reduction or shapes that do not broadcast.
    """
    op = 'kl_div'
    _check_reduction(reduction, op, ('none', 'mean', 'batchmean', 'sum'))
    x = _input(logits, op, 'logits')
    y = _like(labels, x, op, 'labels')
    positive = gt(y, 0.0)
    loss = where(positive, y * (log(where(positive, y, 1.0)) - x), 0.0)
    if reduction == 'none':
        return loss
    total = _sum(loss)
    if reduction == 'batchmean':
        return total / (x.shape[0] if x.ndim else 1)
    if reduction == 'mean':
        return total / max(x.size, 1)
    return total


def soft_margin_loss(input, target, reduction='mean'):
    """``log(1 + exp(-target * input))``, target in {-1, 1}.

    Raises:
        ValueError: for shapes that do not broadcast or an unknown reduction.
    """
    op = 'soft_margin_loss'
    x = _input(input, op, 'input')
    y = _like(target, x, op, 'target')
    return _reduce(softplus(-(y * x)), reduction, op)


@exact_constants
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction='mean'):
    """``max(0, -target * (input1 - input2) + margin)``, target in {-1, 1}.

    Raises:
        TypeError: for non-Tensor inputs, a non-float ``margin``, or an input2 or target
            whose dtype is not input1's (as MindSpore, no dtype promotion here).
    """
    op = 'margin_ranking_loss'
    if not isinstance(margin, float):
        raise TypeError(f"ops.{op}: margin must be a float, got {type(margin).__name__}")
    for arg, value in (('input2', input2), ('target', target)):
        if isinstance(input1, Tensor) and isinstance(value, Tensor) \
                and value.dtype != input1.dtype:
            raise TypeError(f"ops.{op}: {arg} must have the dtype of input1 ({input1.dtype}), "
                            f"got {value.dtype}")
    x1 = _input(input1, op, 'input1')
    x2 = _like(input2, x1, op, 'input2')
    y = _like(target, x1, op, 'target')
    return _reduce(maximum(-(y * (x1 - x2)) + margin, 0.0), reduction, op)


@exact_constants
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction='mean'):
    """``1 - cos(x1, x2)`` where target is 1, ``max(0, cos(x1, x2) - margin)`` where it is -1,
    the cosine taken along axis 1.

    Raises:
        ValueError: for ``margin`` outside [-1, 1], inputs of different shapes, or a target
            whose shape is not the inputs' without axis 1.
    """
    op = 'cosine_embedding_loss'
    margin = _real(margin, op, 'margin')
    if not -1.0 <= margin <= 1.0:
        raise ValueError(f"ops.{op}: margin must be in [-1, 1], got {margin}")
    x1 = _input(input1, op, 'input1')
    x2 = _input(input2, op, 'input2')
    if x1.shape != x2.shape or x1.ndim < 2:
        raise ValueError(f"ops.{op}: input1 and input2 must have one shape of rank >= 2, got "
                         f"{x1.shape} and {x2.shape}")
    if x2.dtype != x1.dtype:
        x2 = cast(x2, x1.dtype)
    if not isinstance(target, Tensor):
        raise TypeError(f"ops.{op}: target must be a Tensor, got {type(target).__name__}")
    want = x1.shape[:1] + x1.shape[2:]
    if target.shape != want:
        raise ValueError(f"ops.{op}: target must have shape {want} (the inputs' without axis "
                         f"1), got {target.shape}")
    cosine = _sum(x1 * x2, 1) / (sqrt(_sum(x1 * x1, 1)) * sqrt(_sum(x2 * x2, 1)))
    loss = where(equal(target, 1), 1.0 - cosine, 0.0) + \
        where(equal(target, -1), maximum(cosine - margin, 0.0), 0.0)
    return _reduce(loss, reduction, op)


@exact_constants
def hinge_embedding_loss(inputs, targets, margin=1.0, reduction='mean'):
    """``x`` where target is 1, ``max(0, margin - x)`` where it is -1 (elements with other
    targets contribute by their sign: positive targets add x, negative ones the hinge).

    Raises:
        TypeError: for a non-number ``margin``.
    """
    op = 'hinge_embedding_loss'
    margin = _real(margin, op, 'margin')
    x = _input(inputs, op, 'inputs')
    y = _like(targets, x, op, 'targets')
    loss = where(gt(y, 0.0), x, 0.0) + where(lt(y, 0.0), maximum(margin - x, 0.0), 0.0)
    return _reduce(loss, reduction, op)


# ------------------------------------------------------------------------------ per sample
def _pairwise_distance(a, b, p, eps):
    """``||a - b + eps||_p`` along axis 1 (the features of (N, D, ...) inputs)."""
    d = _abs(a - b + eps)
    axis = 1 if d.ndim > 1 else 0
    if p == 1:
        return _sum(d, axis)
    if p == 2:
        return sqrt(_sum(d * d, axis))
    return _sum(d ** p, axis) ** (1.0 / p)


@exact_constants
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction='mean'):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d(u, v) = ||u - v + eps||_p`` along
    axis 1 of (N, D, ...) inputs; ``swap`` uses ``min(d(a, n), d(p, n))`` for the negative
    distance.

    Raises:
        TypeError: for non-Tensor inputs, a non-int ``p`` or a non-bool ``swap``.
        ValueError: for inputs of different shapes, ``p`` < 1, or an unknown reduction.
    """
    op = 'triplet_margin_loss'
    if isinstance(p, bool) or not isinstance(p, numbers.Integral):
        raise TypeError(f"ops.{op}: p must be an int, got {p!r}")
    if p < 1:
        raise ValueError(f"ops.{op}: p must be >= 1, got {p}")
    if not isinstance(swap, bool):
        raise TypeError(f"ops.{op}: swap must be a bool, got {swap!r}")
    margin = float(margin.item()) if isinstance(margin, Tensor) else _real(margin, op, 'margin')
    eps = _real(eps, op, 'eps')
    a = _input(anchor, op, 'anchor')
    pos = _input(positive, op, 'positive')
    neg = _input(negative, op, 'negative')
    if not a.shape == pos.shape == neg.shape:
        raise ValueError(f"ops.{op}: anchor, positive and negative must have one shape, got "
                         f"{a.shape}, {pos.shape} and {neg.shape}")
    d_pos = _pairwise_distance(a, pos, p, eps)
    d_neg = _pairwise_distance(a, neg, p, eps)
    if swap:
        d_neg = minimum(d_neg, _pairwise_distance(pos, neg, p, eps))
    return _reduce(maximum(d_pos - d_neg + margin, 0.0), reduction, op)


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction='mean'):
    """Multi-class hinge loss of (N, C) scores against (N,) class indices:
    ``sum_{i != y} max(0, margin - x[y] + x[i]) ** p * weight[y] / C`` per sample.

    Raises:
        TypeError: for a ``margin`` that is not an int, or a non-Tensor input.
        ValueError: for ``p`` other than 1 or 2, a non-2-d input, a target of another length
            or a weight of another size than C.
    """
    if isinstance(margin, bool) or not isinstance(margin, int):
        raise TypeError(f"ops.multi_margin_loss: margin must be an int, got "
                        f"{type(margin).__name__}")
    return multi_margin_hinge(input, target, p, margin, weight, reduction)


def multi_margin_hinge(input, target, p=1, margin=1.0, weight=None, reduction='mean',
                       op='multi_margin_loss'):
    """``multi_margin_loss`` with any real ``margin`` (MindSpore's MultiMarginLoss Primitive
    takes a float one)."""
    if p not in (1, 2) or isinstance(p, bool):
        raise ValueError(f"ops.{op}: p must be 1 or 2, got {p!r}")
    x = _input(input, op, 'input')
    if x.ndim != 2:
        raise ValueError(f"ops.{op}: input must be 2-d (N, C), got shape {x.shape}")
    n, c = x.shape
    if not isinstance(target, Tensor) or target.shape != (n,) or \
            target._data.dtype.kind not in 'iu':
        got = f"{target.shape} {target.dtype}" if isinstance(target, Tensor) else \
            type(target).__name__
        raise ValueError(f"ops.{op}: target must be an integer Tensor of shape ({n},), got {got}")
    hot = cast(one_hot(target, c, 1.0, 0.0), x.dtype)
    picked = _sum(x * hot, 1, keepdim=True)
    hinge = maximum(x - picked + float(margin), 0.0) * (1.0 - hot)
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        w = _like(weight, x, op, 'weight')
        if w.shape != (c,):
            raise ValueError(f"ops.{op}: weight must have shape ({c},), got {w.shape}")
        hinge = hinge * expand_dims(_sum(hot * w, 1), 1)
    return _reduce(_sum(hinge, 1) / c, reduction, op)


def multilabel_soft_margin_loss(input, target, weight=None, reduction='mean'):
    """``-mean_c(y log(sigmoid(x)) + (1 - y) log(sigmoid(-x)))`` per sample (classes on the
    last axis), each class term scaled by ``weight``.

    Raises:
        ValueError: for shapes that do not broadcast or an unknown reduction.
    """
    op = 'multilabel_soft_margin_loss'
    x = _input(input, op, 'input')
    y = _like(target, x, op, 'target')
    loss = y * softplus(-x) + (1.0 - y) * softplus(x)
    if weight is not None:
        loss = loss * _like(weight, x, op, 'weight')
    return _reduce(_sum(loss, -1) / x.shape[-1], reduction, op)


@exact_constants
def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction='mean'):
    """Gaussian negative log-likelihood ``0.5 (log(max(var, eps)) + (x - target) ** 2 /
    max(var, eps))``, plus ``0.5 log(2 pi)`` with ``full``.

    ``var`` has the input's shape, or that shape without its last axis.

    Raises:
        TypeError: for non-Tensor inputs or a non-bool ``full``.
        ValueError: for a non-positive ``eps`` or an unknown reduction.
    """
    op = 'gaussian_nll_loss'
    if not isinstance(full, bool):
        raise TypeError(f"ops.{op}: full must be a bool, got {full!r}")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"ops.{op}: eps must be a positive float, got {eps!r}")
    _check_reduction(reduction, op)
    xt = _input(x, op, 'x')
    t = _like(target, xt, op, 'target')
    if not isinstance(var, Tensor):
        raise TypeError(f"ops.{op}: var must be a Tensor, got {type(var).__name__}")
    if var.shape != xt.shape and xt.shape[:-1] == var.shape:
        var = expand_dims(var, -1)
    v = maximum(_like(var, xt, op, 'var'), eps)
    d = xt - t
    loss = (log(v) + d * d / v) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction, op)
