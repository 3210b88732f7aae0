"""Class losses: cross_entropy and nll_loss (element-wise losses are in pointwise_loss.py).

Each loss, its reduction included, is one primitive. Cross-entropy from logits uses
``log_softmax = x - max - log(sum(exp(x - max)))`` (no overflow for any finite logits) and its
first-order backward is ``softmax * sum(q) - q`` for the target distribution ``q``, computed
from the saved softmax with the target entries subtracted in place. Reductions: 'none' keeps
one loss per sample, 'sum' adds them (float16 losses in float32, cast back), 'mean' divides
the sum by the summed weights of the counted targets (class-index targets) or by the number of
losses (everything else).

On a device everything is computed with the input's array module and nothing is read by the
host: a class index outside [0, C), which the CPU refuses (IndexError), gives NaN there (its
loss, the sum and the mean, and its gradient), and where nothing is counted the denominator is
NaN rather than 0, so that the 'mean' is NaN.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Op
from ..autograd.math import array_math
from ..kernels.backend import array_module, is_device_array
from .arithmetic import cast
from .unary import _floating

__all__ = ['cross_entropy', 'nll_loss']

_REDUCTIONS = ('none', 'mean', 'sum')


# ------------------------------------------------------------------------------ shared pieces
def _reduce(loss, reduction, denom):
    """``loss`` per element reduced as asked ('mean' divides the sum by ``denom``)."""
    if reduction == 'none':
        return loss
    # float16 losses are summed in float32: a sum of a few losses near 1e4 overflows float16
    total = loss.sum(dtype=np.float32) if loss.dtype == np.float16 else loss.sum()
    if type(loss) is not np.ndarray:            # a device: no floating-point error state
        return array_module(loss).asarray(total / denom if reduction == 'mean' else total,
                                          dtype=loss.dtype)
    if reduction == 'mean':
        with np.errstate(invalid='ignore', divide='ignore'):    # nothing counted: nan
            total = total / denom
    with np.errstate(over='ignore'):                            # a float16 sum past 65504: inf
        return np.asarray(total, dtype=loss.dtype)


def _scale(gy, reduction, denom, axis, m):
    """The incoming gradient per loss element, shaped to broadcast along the class ``axis``."""
    if reduction == 'none':
        return gy if axis is None else m.expand_dims(gy, axis)
    if reduction == 'sum':
        return gy
    if is_device_array(denom):                  # NaN where nothing counted: no host read
        return gy / (denom if m is array_math else Tensor._wrap(denom))
    return gy / denom if denom else gy * np.nan     # nothing counted: the mean is nan


class _IndexTargets:
    """Class-index targets along ``axis`` of an input: the counted ones and their weights.

    ``safe`` holds the labels with ignored entries (on a device also those outside [0, C))
    replaced by 0, so they can index, and an axis of length 1 at ``axis``; ``wn`` the weight of
    each target (0 where ignored, NaN for a device's labels outside [0, C)); ``valid`` is None
    when nothing is ignored.
    """

    __slots__ = ('safe', 'wn', 'valid', 'denom', 'weight', 'n_classes', 'axis')

    @classmethod
    def checked(cls, labels, weight, ignore_index, axis, x, name):
        """The targets of integer ``labels`` for input ``x``, after checking every label is a
        class of ``x`` or ``ignore_index`` (``weight``: () or (class weights,)); a device's
        labels are not read, those outside [0, C) weigh NaN instead (``__init__``)."""
        n_classes = x.shape[axis]
        if labels.size and type(labels) is np.ndarray:
            counted = labels if ignore_index is None else labels[labels != ignore_index]
            if counted.size and (counted.min() < 0 or counted.max() >= n_classes):
                bad = counted.min() if counted.min() < 0 else counted.max()
                ignored = '' if ignore_index is None else f" or ignore_index {ignore_index}"
                raise IndexError(f"ops.{name}: target values must be in [0, {n_classes})"
                                 f"{ignored}, got {int(bad)}")
        w = weight[0].astype(x.dtype, copy=False) if weight else None
        return cls(labels, w, ignore_index, axis, n_classes, x.dtype)

    def __init__(self, labels, weight, ignore_index, axis, n_classes, dtype):
        valid = bad = None
        xp = array_module(labels)
        if ignore_index is not None:
            hit = labels == ignore_index
            if xp is not np or hit.any():       # a device always masks: no host read
                valid = ~hit
                labels = np.where(hit, 0, labels)
        if xp is not np:                        # indices outside [0, C): weight NaN
            bad = (labels < 0) | (labels >= n_classes)
            labels = np.where(bad, 0, labels)
        self.safe = np.expand_dims(labels, axis)
        self.valid = valid
        if weight is None:
            wn = xp.ones(labels.shape, dtype) if valid is None else valid.astype(dtype)
        else:
            wn = weight[labels]
            if valid is not None:
                wn = wn * valid
        if bad is not None:
            wn = xp.where(bad, xp.nan, wn).astype(wn.dtype, copy=False)
        self.wn = wn
        denom = wn.sum(dtype=np.float32) if wn.dtype == np.float16 else wn.sum()
        if xp is not np:                        # nothing counted: NaN, so the mean is NaN
            denom = xp.where(denom == 0, xp.nan, denom).astype(denom.dtype)
        self.denom = denom
        self.weight = weight
        self.n_classes = n_classes
        self.axis = axis

    def class_weights(self, ndim):
        """The class weights shaped to broadcast along the class axis (None: all ones)."""
        if self.weight is None:
            return None
        return self.weight.reshape((-1,) + (1,) * (ndim - 1 - self.axis))

    def counted(self, dtype):
        """Per target, 1 where it counts and 0 where it is ignored."""
        if self.valid is None:
            return array_module(self.wn).ones(self.wn.shape, dtype)
        return self.valid.astype(dtype)

    def dense(self, shape, dtype, smoothing):
        """The target distribution q (times the weights) as a dense array of ``shape``."""
        q = array_module(self.wn).zeros(shape, dtype)
        np.put_along_axis(q, self.safe, np.expand_dims(self.wn * (1 - smoothing), self.axis),
                          self.axis)
        if smoothing:
            w = self.class_weights(len(shape))
            per = np.expand_dims(self.counted(dtype) * (smoothing / self.n_classes), self.axis)
            q += per if w is None else per * w
        return q

    def losses(self, logp, smoothing):
        """Per target: -(1 - eps) w_y logp_y - eps/C sum_c w_c logp_c."""
        axis = self.axis
        picked = np.take_along_axis(logp, self.safe, axis).squeeze(axis)
        loss = -(1 - smoothing) * self.wn * picked
        if smoothing:
            w = self.class_weights(logp.ndim)
            total = (logp.sum(axis) if w is None else (logp * w).sum(axis))
            loss -= (smoothing / self.n_classes) * self.counted(logp.dtype) * total
        return loss


class CrossEntropyIndex(Op):
    """Cross-entropy of logits ``x`` against class indices ``labels`` (with optional class
    ``weight``s; neither has a gradient); dx = g (softmax sum(q) - q)."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, labels, *weight, axis, ignore_index, smoothing, reduction):
        targets = _IndexTargets.checked(labels, weight, ignore_index, axis, x, 'cross_entropy')
        xmax = x.max(axis, keepdims=True)
        shifted = x - xmax
        p = np.exp(shifted)
        s = p.sum(axis, keepdims=True)
        shifted -= np.log(s)                       # log_softmax
        loss = targets.losses(shifted, smoothing)
        if ctx.recording:
            p /= s
            ctx.save(x, p)
            ctx.targets, ctx.smoothing, ctx.reduction = targets, smoothing, reduction
            ctx.xmax, ctx.no_grads = xmax, (None,) * (1 + len(weight))
        return _reduce(loss, reduction, targets.denom)

    @staticmethod
    def backward(ctx, gy):
        x, p = ctx.saved
        t, eps = ctx.targets, ctx.smoothing
        axis = t.axis
        m = ctx.m
        g = _scale(gy, ctx.reduction, t.denom, axis, m)
        q = t.dense(x.shape, ctx.xmax.dtype, eps)
        xmax, qsum = ctx.xmax, q.sum(axis, keepdims=True)
        if m is not array_math:                 # constants of the recorded graph
            xmax, q, qsum = Tensor._wrap(xmax), Tensor._wrap(q), Tensor._wrap(qsum)
        e = m.exp(x - xmax)
        p = e / m.sum(e, axis, True)
        return (g * (p * qsum - q),) + ctx.no_grads

    @staticmethod
    def backward_arrays(ctx, gy):
        """The gradient scattered from the saved softmax, without a dense target."""
        x, p = ctx.saved
        t, eps = ctx.targets, ctx.smoothing
        axis = t.axis
        g = _scale(gy, ctx.reduction, t.denom, axis, array_math)
        onehot = np.expand_dims(t.wn * (1 - eps), axis) * g      # weight of the label entry
        qsum = onehot
        if eps:
            smooth = np.expand_dims(t.counted(p.dtype) * (eps / t.n_classes), axis) * g
            w = t.class_weights(p.ndim)
            qsum = onehot + smooth * (t.n_classes if w is None else w.sum())
        gx = p * qsum
        picked = np.take_along_axis(gx, t.safe, axis)
        np.put_along_axis(gx, t.safe, picked - np.broadcast_to(onehot, picked.shape), axis)
        if eps:
            gx -= smooth if w is None else smooth * w
        return (gx,) + ctx.no_grads


class CrossEntropyProb(Op):
    """Cross-entropy of logits ``x`` against class probabilities ``t`` (same shape).

    l = -sum_c w_c q_c logp_c with q = t (1 - eps) + eps / C; dx = g (softmax sum(w q) - w q),
    dt = -g (1 - eps) w logp. The optional class weights w (an input) get no gradient.
    """
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, t, *weight, axis, smoothing, reduction):
        weight = weight[0].reshape((-1,) + (1,) * (x.ndim - 1 - axis)) if weight else None
        xmax = x.max(axis, keepdims=True)
        logp = x - xmax
        logp -= np.log(np.exp(logp).sum(axis, keepdims=True))
        q = _smoothed(t, smoothing, x.shape[axis])
        if weight is not None:
            q = q * weight
        loss = -(q * logp).sum(axis)
        if ctx.recording:
            ctx.save(x, t, logp)
            ctx.weight, ctx.axis, ctx.smoothing = weight, axis, smoothing
            ctx.reduction, ctx.denom, ctx.xmax = reduction, loss.size, xmax
        return _reduce(loss, reduction, loss.size)

    @staticmethod
    def backward(ctx, gy):
        """logp recomputed from x, so that on Tensors it is on the graph."""
        m = ctx.m
        xmax = ctx.xmax if m is array_math else Tensor._wrap(ctx.xmax)
        z = ctx.saved[0] - xmax
        return _prob_grads(ctx, gy, z - m.log(m.sum(m.exp(z), ctx.axis, True)), m)

    @staticmethod
    def backward_arrays(ctx, gy):
        return _prob_grads(ctx, gy, ctx.saved[2], array_math)


def _prob_grads(ctx, gy, logp, m):
    x, t = ctx.saved[:2]
    axis, eps, w = ctx.axis, ctx.smoothing, ctx.weight
    if w is not None and m is not array_math:
        w = Tensor._wrap(w)                     # a constant of the recorded graph
    g = _scale(gy, ctx.reduction, ctx.denom, axis, m)
    gx = gt = None
    if ctx.needs_grad(0):
        q = _smoothed(t, eps, x.shape[axis])
        if w is not None:
            q = q * w
        gx = g * (m.exp(logp) * m.sum(q, axis, True) - q)
    if ctx.needs_grad(1):
        gt = logp * (g * -(1 - eps))
        if w is not None:
            gt = gt * w
    return (gx, gt) if w is None else (gx, gt, None)


def _smoothed(t, smoothing, n_classes):
    return t * (1 - smoothing) + smoothing / n_classes if smoothing else t


class NLLIndex(Op):
    """Negative log-likelihood of log-probabilities ``x`` at class indices ``labels`` (with
    optional class ``weight``s; neither has a gradient); dx = -g q."""
    widens_bfloat16 = True

    @staticmethod
    def forward(ctx, x, labels, *weight, axis, ignore_index, smoothing, reduction):
        targets = _IndexTargets.checked(labels, weight, ignore_index, axis, x, 'nll_loss')
        if ctx.recording:
            ctx.targets, ctx.smoothing, ctx.reduction = targets, smoothing, reduction
            ctx.meta, ctx.no_grads = (x.shape, x.dtype), (None,) * (1 + len(weight))
        return _reduce(targets.losses(x, smoothing), reduction, targets.denom)

    @staticmethod
    def backward(ctx, gy):
        t = ctx.targets
        shape, dtype = ctx.meta
        q = t.dense(shape, dtype, ctx.smoothing)
        if ctx.m is not array_math:             # a constant of the recorded graph
            q = Tensor._wrap(q)
        return (_scale(gy, ctx.reduction, t.denom, t.axis, ctx.m) * -q,) + ctx.no_grads


# ------------------------------------------------------------------------------ public
def _reduction(value, name):
    if not isinstance(value, str) or value not in _REDUCTIONS:
        raise ValueError(f"ops.{name}: reduction must be 'none', 'mean' or 'sum', got {value!r}")
    return value


def _tensor(value, name, arg):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
    return value


def _smoothing(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{name}: label_smoothing must be a float, got "
                        f"{type(value).__name__}")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"ops.{name}: label_smoothing must be in [0.0, 1.0], got {value}")
    return float(value)


def _class_input(input, name, arg):
    """Scores with classes on axis 1 (axis 0 for one unbatched sample), floating."""
    x = _floating(_tensor(input, name, arg))
    if x.ndim == 0:
        raise ValueError(f"ops.{name}: {arg} must have shape (C,), (N, C) or (N, C, d1, ...), "
                         f"got a 0-d tensor")
    return x, (1 if x.ndim >= 2 else 0)


def _class_weight(weight, x, axis, name):
    """``weight`` as a (C,) Tensor of x's dtype (an input of the loss op), or None."""
    if weight is None:
        return None
    w = _tensor(weight, name, 'weight')
    if w.shape != (x.shape[axis],):
        raise ValueError(f"ops.{name}: weight must have shape ({x.shape[axis]},) (one per "
                         f"class), got {w.shape}")
    return w if w._data.dtype == x._data.dtype else cast(w, x._data.dtype)


def _index_loss(op, x, target, axis, weight, ignore_index, smoothing, reduction, name):
    """``op`` (an index-target loss) applied to x, the integer labels and the class weights:
    the labels' values are checked in the op, so a recorded program checks each call's."""
    want = x.shape[:axis] + x.shape[axis + 1:]
    if target.shape != want:
        raise ValueError(f"ops.{name}: target of class indices must have shape {want} for "
                         f"input of shape {x.shape}, got {target.shape}")
    extra = () if weight is None else (weight,)
    return op.apply(x, target, *extra, axis=axis, ignore_index=ignore_index,
                    smoothing=smoothing, reduction=reduction)


def _ignore_index(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: ignore_index must be an int, got {value!r}")
    return int(value)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean',
                  label_smoothing=0.0):
    """Cross-entropy between logits and class indices or class probabilities.

    Classes lie on axis 1 of ``input`` (axis 0 for a 1-d input). Integer ``target`` holds class
    indices: ``l = -w[y] log_softmax(x)[y]`` (0 where ``y == ignore_index``), and 'mean' divides
    by the summed weights of the counted targets. Floating ``target`` holds probabilities of
    ``input``'s shape: ``l = -sum_c w[c] y[c] log_softmax(x)[c]``, and 'mean' divides by the
    number of samples. ``label_smoothing`` eps mixes the target with the uniform distribution:
    ``(1 - eps) * target + eps / C``. Computed without overflow for any finite logits.

    Args:
        input: logits of shape (C,), (N, C) or (N, C, d1, ...).
        target: class indices of shape (), (N) or (N, d1, ...), or probabilities of
            ``input``'s shape.
        weight: a (C,) Tensor of class weights, or None. Default None.
        ignore_index: a class index whose targets count for nothing. Default -100.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        label_smoothing: in [0.0, 1.0]. Default 0.0.

    Returns:
        Tensor: one loss per sample for 'none', else a 0-d Tensor.

    Raises:
        TypeError: for non-Tensor inputs, a Bool target or bad argument types.
        ValueError: for mismatched shapes, an unknown reduction or label_smoothing out of range.
        IndexError: for a class index outside [0, C) that is not ``ignore_index``.

    >>> import hookgrad as ms
    >>> logits = ms.Tensor([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    >>> round(ms.ops.cross_entropy(logits, ms.Tensor([0, 2])).item(), 5)
    0.66908
    """
    name = 'cross_entropy'
    x, axis = _class_input(input, name, 'input')
    t = _tensor(target, name, 'target')
    ignore_index = _ignore_index(ignore_index, name)
    reduction = _reduction(reduction, name)
    smoothing = _smoothing(label_smoothing, name)
    w = _class_weight(weight, x, axis, name)
    kind = t._data.dtype.kind
    if kind in 'iu':
        return _index_loss(CrossEntropyIndex, x, t, axis, w, ignore_index, smoothing, reduction,
                           name)
    if kind not in 'fV':
        raise TypeError(f"ops.cross_entropy: target must hold class indices (integers) or "
                        f"probabilities (floats), got dtype {t.dtype}")
    if t.shape != x.shape:
        raise ValueError(f"ops.cross_entropy: target of probabilities must have input's shape "
                         f"{x.shape}, got {t.shape}")
    if t._data.dtype != x._data.dtype:
        t = cast(t, x.dtype)
    extra = () if w is None else (w,)
    return CrossEntropyProb.apply(x, t, *extra, axis=axis, smoothing=smoothing,
                                  reduction=reduction)


def sparse_softmax_cross_entropy(logits, labels):
    """Per-sample cross-entropy of (N, C) logits against (N,) class indices, nothing ignored
    (the sparse form of ``nn.SoftmaxCrossEntropyWithLogits``)."""
    x, axis = _class_input(logits, 'cross_entropy', 'logits')
    t = _tensor(labels, 'cross_entropy', 'labels')
    if t._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.cross_entropy: sparse labels must be integer class indices, got "
                        f"dtype {t.dtype}")
    return _index_loss(CrossEntropyIndex, x, t, axis, None, None, 0.0, 'none', 'cross_entropy')


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction='mean',
             label_smoothing=0.0):
    """Negative log-likelihood of log-probabilities at class indices.

    ``l = -w[y] inputs[y]`` per target, 0 where ``y == ignore_index``; 'mean' divides the sum
    by the summed weights of the counted targets. ``label_smoothing`` eps gives
    ``(1 - eps) l - eps / C * sum_c w[c] inputs[c]``.

    Args:
        inputs: log-probabilities of shape (C,), (N, C) or (N, C, d1, ...).
        target: integer class indices of shape (), (N) or (N, d1, ...).
        weight: a (C,) Tensor of class weights, or None. Default None.
        ignore_index: a class index whose targets count for nothing. Default -100.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        label_smoothing: in [0.0, 1.0]. Default 0.0.

    Returns:
        Tensor: one loss per sample for 'none', else a 0-d Tensor.

    Raises:
        TypeError: for non-Tensor inputs, a non-integer target or bad argument types.
        ValueError: for mismatched shapes, an unknown reduction or label_smoothing out of range.
        IndexError: for a class index outside [0, C) that is not ``ignore_index``.
    """
    name = 'nll_loss'
    x, axis = _class_input(inputs, name, 'inputs')
    t = _tensor(target, name, 'target')
    if t._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.nll_loss: target must hold integer class indices, got dtype "
                        f"{t.dtype}")
    ignore_index = _ignore_index(ignore_index, name)
    reduction = _reduction(reduction, name)
    smoothing = _smoothing(label_smoothing, name)
    w = _class_weight(weight, x, axis, name)
    return _index_loss(NLLIndex, x, t, axis, w, ignore_index, smoothing, reduction, name)
