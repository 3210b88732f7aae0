"""Connectionist temporal classification loss (MindSpore's ``ops.ctc_loss``, kernel CTCLossV2).

The negative log-likelihood of each target sequence under per-frame log-probabilities, summed
over every alignment by the forward-backward algorithm in log space: the target of length S is
extended with blanks to ``l' = (blank, t1, blank, ..., tS, blank)``; ``alpha[t, s]`` is the log
probability of the alignments of frames 0..t ending in ``l'_s``, ``beta[t, s]`` of those of
frames t..T-1 starting there (both include frame t). The recursions run over the time axis
and are vectorised NumPy over the batch and the extended positions, on the host (a device's
arrays are read once; the loss and the saved gradient go back to the device).

Gradient (MindSpore's and PyTorch's convention): ``d nll / d log_probs[t, n, c] =
exp(log_probs[t, n, c]) - sum_{s: l'_s = c} exp(alpha + beta - log_probs + nll)``. It is the
gradient through ``log_probs = log_softmax(logits)`` (each frame's gradient sums to 0), so a
network computing its log-probabilities with log_softmax gets exact logit gradients; frames
past a sample's input length get 0.
"""
import numbers

import numpy as np

from .._dtype import int64
from .._tensor import Tensor
from ..autograd.function import Op
from ..kernels.backend import to_host
from .arithmetic import cast

__all__ = ['ctc_loss']

_REDUCTIONS = ('none', 'mean', 'sum')


def _logaddexp3(a, b, c):
    """``log(exp(a) + exp(b) + exp(c))`` element-wise, -inf where all three are -inf."""
    m = np.maximum(np.maximum(a, b), c)
    safe = np.where(np.isneginf(m), 0.0, m)
    with np.errstate(divide='ignore'):
        return np.log(np.exp(a - safe) + np.exp(b - safe) + np.exp(c - safe)) + safe


def _shift(x, k):
    """``x`` moved k places right along the last axis, -inf coming in."""
    out = np.full_like(x, -np.inf)
    out[:, k:] = x[:, :x.shape[1] - k]
    return out


def _unshift(x, k):
    """``x`` moved k places left along the last axis, -inf coming in."""
    out = np.full_like(x, -np.inf)
    out[:, :x.shape[1] - k] = x[:, k:]
    return out


def _extended(targets, blank):
    """The blank-extended labels (N, 2S + 1) and where a skip from s - 2 to s is allowed (a
    label differing from the one two places before)."""
    batch, width = targets.shape[0], 2 * targets.shape[1] + 1
    ext = np.full((batch, width), blank, np.int64)
    ext[:, 1::2] = targets
    skip = np.zeros((batch, width), bool)
    skip[:, 3::2] = targets[:, 1:] != targets[:, :-1]
    return ext, skip


def _forward_backward(lp, targets, in_len, tgt_len, blank):
    """Per-sample negative log-likelihoods (N,), their gradients (T, N, C) and the forward
    variables (N, T, 2S + 1), in float64."""
    n_time, batch, n_class = lp.shape
    ext, skip = _extended(targets, blank)
    width = ext.shape[1]
    every = np.arange(batch)
    length = 2 * tgt_len + 1                                      # (N,) extended lengths
    position = np.arange(width)[None, :]
    emit = lp[:, every[:, None], ext]                             # (T, N, W) log-probabilities
    alpha = np.full((n_time, batch, width), -np.inf)
    alpha[0, :, 0] = emit[0, :, 0]
    alpha[0, :, 1] = np.where(tgt_len > 0, emit[0, :, 1], -np.inf)
    for t in range(1, n_time):
        prev = alpha[t - 1]
        alpha[t] = _logaddexp3(prev, _shift(prev, 1),
                               np.where(skip, _shift(prev, 2), -np.inf)) + emit[t]
    # past a sample's frames or its extended labels nothing is reachable (MindSpore's log_alpha)
    alpha[(np.arange(n_time)[:, None, None] >= in_len[None, :, None])
          | (position[None] >= length[None, :, None])] = -np.inf
    a_end = alpha[np.maximum(in_len - 1, 0), every]               # (N, W) at the last frame
    ends = (position == length[:, None] - 1) | ((position == length[:, None] - 2)
                                                 & (tgt_len[:, None] > 0))
    nll = -np.logaddexp.reduce(np.where(ends, a_end, -np.inf), axis=1)
    skip_next = np.zeros((batch, width), bool)                    # a skip from s to s + 2
    skip_next[:, :-2] = skip[:, 2:]
    beta = np.full((n_time, batch, width), -np.inf)
    following = beta[0]
    for t in range(n_time - 1, -1, -1):
        rec = _logaddexp3(following, _unshift(following, 1),
                          np.where(skip_next, _unshift(following, 2), -np.inf)) + emit[t]
        start = (t == in_len - 1)[:, None]
        beta[t] = np.where(start, np.where(ends, emit[t], -np.inf),
                           np.where((t < in_len - 1)[:, None], rec, -np.inf))
        following = beta[t]
    with np.errstate(invalid='ignore', over='ignore'):
        both = alpha + beta - emit + nll[None, :, None]           # emit is in alpha and beta
        occupancy = np.exp(np.where(np.isneginf(alpha) | np.isneginf(beta), -np.inf, both))
        mass = np.zeros(n_time * batch * n_class)
        flat = ((np.arange(n_time)[:, None, None] * batch + every[None, :, None]) * n_class
                + ext[None])
        np.add.at(mass, flat.ravel(), occupancy.ravel())
        grad = np.exp(lp) - mass.reshape(lp.shape)
    grad[np.arange(n_time)[:, None] >= in_len[None, :]] = 0.0
    return nll, grad, alpha.transpose(1, 0, 2)


class CTCLossOp(Op):
    """Per-sample CTC negative log-likelihoods of log_probs (T, N, C) and the forward variables
    (N, T, 2S + 1, no gradient); targets and lengths (integer inputs) get no gradient.
    ``zero_infinity`` gives impossible alignments (an infinite loss) a loss and gradient of 0."""
    @staticmethod
    def forward(ctx, log_probs, targets, input_lengths, target_lengths, *, blank, zero_infinity):
        host = [to_host(a, 'ctc_loss') for a in (log_probs, targets, input_lengths,
                                                  target_lengths)]
        nll, grad, alpha = _forward_backward(host[0].astype(np.float64),
                                             *(a.astype(np.int64) for a in host[1:]), blank)
        if zero_infinity:
            bad = np.isinf(nll)
            nll[bad] = 0.0
            grad[:, bad] = 0.0
        xp, dtype = ctx.xp, log_probs.dtype
        if ctx.recording:
            ctx.save(xp.asarray(grad.astype(dtype)))
        return xp.asarray(nll.astype(dtype)), xp.asarray(alpha.astype(dtype))

    @staticmethod
    def backward(ctx, gy, _):
        if isinstance(gy, Tensor):
            raise NotImplementedError("gradients of second order through ctc_loss are not "
                                      "implemented")
        (grad,) = ctx.saved
        return grad * gy[None, :, None], None, None, None


def _lengths(value, batch, arg):
    if isinstance(value, Tensor):
        value = value.asnumpy()
    a = np.asarray(value)
    if a.dtype.kind not in 'iu' or a.shape != (batch,):
        raise ValueError(f"ops.ctc_loss: {arg} must hold {batch} integers (one per sample), got "
                         f"{a.dtype} values of shape {a.shape}")
    return a.astype(np.int64)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean',
             zero_infinity=False):
    """CTC loss of log-probabilities (T, N, C) against padded targets (N, S).

    Args:
        log_probs: a float Tensor (T, N, C), the log-probabilities of C classes per frame.
        targets: an integer Tensor (N, S) of class indices, padded past each target length.
        input_lengths, target_lengths: N integers (Tensors, lists or tuples): the frames and
            labels of each sample.
        blank: the blank class, in [0, C). Default 0.
        reduction: 'none' (the N losses), 'sum', or 'mean' (each loss divided by its target
            length, then averaged over the batch). Default 'mean'.
        zero_infinity: whether impossible alignments get loss and gradient 0. Default False.

    Returns:
        ``(loss, log_alpha)``, MindSpore's pair; ``log_alpha`` is the (N, T, 2S + 1) forward
        variables as the loss's dtype.

    Raises:
        TypeError: for non-Tensor log_probs or targets, or a non-int ``blank``.
        ValueError: for shapes other than (T, N, C) and (N, S), another ``reduction``, a
            ``blank`` outside [0, C), labels outside [0, C), or a sample whose input length is
            outside [target length, T] or whose target length is outside [0, S].
    """
    for arg, x in (('log_probs', log_probs), ('targets', targets)):
        if not isinstance(x, Tensor):
            raise TypeError(f"ops.ctc_loss: {arg} must be a Tensor, got {type(x).__name__}")
    if log_probs.ndim != 3 or log_probs.asnumpy().dtype.kind not in 'fV':
        raise ValueError(f"ops.ctc_loss: log_probs must be a float Tensor (T, N, C), got "
                         f"{log_probs.dtype} of shape {log_probs.shape}")
    n_time, batch, n_class = log_probs.shape
    if targets.ndim != 2 or targets.shape[0] != batch or targets.asnumpy().dtype.kind not in 'iu':
        raise ValueError(f"ops.ctc_loss: targets must be an integer Tensor (N, S) with "
                         f"N = {batch}, got {targets.dtype} of shape {targets.shape}")
    if isinstance(blank, bool) or not isinstance(blank, numbers.Integral):
        raise TypeError(f"ops.ctc_loss: blank must be an int, got {type(blank).__name__}")
    if not 0 <= blank < n_class:
        raise ValueError(f"ops.ctc_loss: blank must be in [0, {n_class}), got {blank}")
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise ValueError(f"ops.ctc_loss: reduction must be 'none', 'mean' or 'sum', got "
                         f"{reduction!r}")
    in_len = _lengths(input_lengths, batch, 'input_lengths')
    tgt_len = _lengths(target_lengths, batch, 'target_lengths')
    width = targets.shape[1]
    for n in range(batch):
        if not 0 <= tgt_len[n] <= width:
            raise ValueError(f"ops.ctc_loss: target_lengths[{n}] = {tgt_len[n]} must be in "
                             f"[0, {width}] (the targets' length)")
        if not tgt_len[n] <= in_len[n] <= n_time:
            raise ValueError(f"ops.ctc_loss: input_lengths[{n}] = {in_len[n]} must be in "
                             f"[target_lengths[{n}] = {tgt_len[n]}, {n_time}] (the frames)")
    labels = targets.asnumpy()
    used = np.arange(width)[None, :] < tgt_len[:, None]
    if ((labels < 0) | (labels >= n_class))[used].any():
        raise ValueError(f"ops.ctc_loss: the labels within the target lengths must be in "
                         f"[0, {n_class})")
    safe = np.where(used, labels, blank)
    loss, log_alpha = CTCLossOp.apply(log_probs, Tensor(safe, int64), Tensor(in_len, int64),
                                      Tensor(tgt_len, int64), blank=blank,
                                      zero_infinity=bool(zero_infinity))
    if reduction == 'sum':
        loss = loss.sum()
    elif reduction == 'mean':
        loss = (loss / cast(Tensor(np.maximum(tgt_len, 1)), loss.dtype)).mean()
    return loss, log_alpha

