"""Element-wise losses: mse_loss, l1_loss and binary_cross_entropy_with_logits.

Each loss, its reduction included, is one primitive over the element-wise losses of a
prediction and its target; 'mean' divides by the number of losses (loss.py has the reductions).
"""
import numpy as np

from ..autograd.function import Op
from .arithmetic import cast
from .loss import _reduce, _reduction, _scale, _tensor
from .unary import _floating

__all__ = ['mse_loss', 'l1_loss', 'binary_cross_entropy_with_logits']


class MSE(Op):
    """l = (x - t)**2; dx = 2 g (x - t), dt = -dx."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, t, reduction):
        d = x - t
        if ctx.recording:
            ctx.save(x, t)
            ctx.reduction, ctx.denom = reduction, d.size
        d *= d
        return _reduce(d, reduction, d.size)

    @staticmethod
    def backward(ctx, gy):
        x, t = ctx.saved
        gx = _scale(gy, ctx.reduction, ctx.denom, None, ctx.m) * 2 * (x - t)
        return gx, -gx


class L1(Op):
    """l = |x - t|; dx = g sign(x - t) (0 where equal), dt = -dx."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, t, reduction):
        d = np.abs(x - t)
        if ctx.recording:
            ctx.save(x, t)
            ctx.reduction, ctx.denom = reduction, d.size
        return _reduce(d, reduction, d.size)

    @staticmethod
    def backward(ctx, gy):
        x, t = ctx.saved
        gx = _scale(gy, ctx.reduction, ctx.denom, None, ctx.m) * ctx.m.sign(x - t)
        return gx, -gx


class BCEWithLogits(Op):
    """l = w [(1 - t) x + (1 + (p - 1) t) softplus(-x)] for logits x, targets t, weight w and
    positive-class weight p (both optional, flagged by ``has_weight`` / ``has_pos_weight``).

    dx = w [(1 + (p - 1) t) sigmoid(x) - p t], dt = w [(p - 1) softplus(-x) - x],
    dw = l / w, dp = w t softplus(-x). softplus(-x) = max(-x, 0) + log1p(exp(-|x|)) never
    overflows.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, t, *extra, has_weight, has_pos_weight, reduction):
        w = extra[0] if has_weight else None
        p = extra[-1] if has_pos_weight else None
        sp = np.maximum(-x, 0) + np.log1p(np.exp(-np.abs(x)))
        loss = (1 - t) * x
        loss = loss + (sp if p is None else (1 + (p - 1) * t) * sp)
        if w is not None:
            loss = loss * w
        if ctx.recording:
            ctx.save(x, t, *extra)
            ctx.flags = (has_weight, has_pos_weight)
            ctx.reduction, ctx.denom = reduction, loss.size
        return _reduce(loss, reduction, loss.size)

    @staticmethod
    def backward(ctx, gy):
        x, t, *extra = ctx.saved
        has_weight, has_pos_weight = ctx.flags
        w = extra[0] if has_weight else None
        p = extra[-1] if has_pos_weight else None
        m = ctx.m
        needs = [ctx.needs_grad(i) for i in range(2 + len(extra))]
        g = _scale(gy, ctx.reduction, ctx.denom, None, m)
        gw = g if w is None else g * w          # the gradient per unweighted loss element
        if (p is not None and (needs[1] or needs[-1])) or (w is not None and needs[2]):
            sp = m.maximum(-x, 0) + m.log(1 + m.exp(-m.abs(x)))     # softplus(-x)
        grads = [None, None]
        if needs[0]:
            s = 0.5 * m.tanh(0.5 * x) + 0.5       # sigmoid without overflow
            grads[0] = gw * (s - t) if p is None else gw * ((1 + (p - 1) * t) * s - p * t)
        if needs[1]:
            grads[1] = -gw * x if p is None else gw * ((p - 1) * sp - x)
        if w is not None:
            grads.append(g * ((1 - t) * x + (sp if p is None else (1 + (p - 1) * t) * sp))
                         if needs[2] else None)
        if p is not None:
            grads.append(gw * t * sp if needs[-1] else None)
        return tuple(grads)


def _pair(input, target, name):
    """A floating input and a target of its dtype whose shapes broadcast together."""
    x = _floating(_tensor(input, name, 'input'))
    t = _tensor(target, name, 'target')
    try:
        np.broadcast_shapes(x.shape, t.shape)
    except ValueError:
        raise ValueError(f"ops.{name}: input of shape {x.shape} and target of shape {t.shape} "
                         f"cannot be broadcast together") from None
    if t._data.dtype != x._data.dtype:
        t = cast(t, x.dtype)
    return x, t


def mse_loss(input, target, reduction='mean'):
    """Squared error ``(input - target) ** 2``, reduced; the shapes broadcast.

    Raises:
        TypeError: for non-Tensor arguments.
        ValueError: for shapes that do not broadcast or an unknown reduction.

    >>> import hookgrad as ms
    >>> ms.ops.mse_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 4.0])).item()
    2.0
    """
    reduction = _reduction(reduction, 'mse_loss')
    x, t = _pair(input, target, 'mse_loss')
    return MSE.apply(x, t, reduction=reduction)


def l1_loss(input, target, reduction='mean'):
    """Absolute error ``|input - target|``, reduced; the shapes broadcast.

    Raises:
        TypeError: for non-Tensor arguments.
        ValueError: for shapes that do not broadcast or an unknown reduction.
    """
    reduction = _reduction(reduction, 'l1_loss')
    x, t = _pair(input, target, 'l1_loss')
    return L1.apply(x, t, reduction=reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction='mean'):
    """Binary cross-entropy of ``sigmoid(input)`` against ``target``, computed from the logits.

    ``l = -weight * (pos_weight * t * log(sigmoid(x)) + (1 - t) * log(1 - sigmoid(x)))``,
    evaluated as ``weight * ((1 - t) x + (1 + (pos_weight - 1) t) softplus(-x))`` so that it
    never overflows. ``weight`` and ``pos_weight`` broadcast against the input (pos_weight per
    class along the last axis); all four receive gradients when they require them.

    Args:
        input: logits, a floating Tensor.
        target: Tensor of targets in [0, 1], broadcasting with ``input``.
        weight: Tensor of per-element weights, or None. Default None.
        pos_weight: Tensor of positive-class weights, or None. Default None.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for non-Tensor arguments.
        ValueError: for shapes that do not broadcast or an unknown reduction.
    """
    name = 'binary_cross_entropy_with_logits'
    reduction = _reduction(reduction, name)
    x, t = _pair(input, target, name)
    extra = []
    shapes = [x.shape, t.shape]
    for arg, value in (('weight', weight), ('pos_weight', pos_weight)):
        if value is not None:
            v = _tensor(value, name, arg)
            if v._data.dtype != x._data.dtype:
                v = cast(v, x.dtype)
            shapes.append(v.shape)
            try:
                np.broadcast_shapes(*shapes)
            except ValueError:
                raise ValueError(f"ops.{name}: {arg} of shape {v.shape} cannot be broadcast "
                                 f"with input of shape {x.shape} and target of shape "
                                 f"{t.shape}") from None
            extra.append(v)
    return BCEWithLogits.apply(x, t, *extra, has_weight=weight is not None,
                               has_pos_weight=pos_weight is not None, reduction=reduction)
