"""Regression and probabilistic losses (MindSpore 2.x ``nn``): SmoothL1Loss, HuberLoss,
RMSELoss, GaussianNLLLoss, PoissonNLLLoss, KLDivLoss, BCELoss."""
import math
import numbers

from ... import ops
from ..._tensor import Tensor
from .loss import LossBase, MSELoss, _check_tensors

__all__ = ['SmoothL1Loss', 'HuberLoss', 'RMSELoss', 'GaussianNLLLoss', 'PoissonNLLLoss',
           'KLDivLoss', 'BCELoss']


def _number(value, cell, arg, kinds=(numbers.Real,)):
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise TypeError(f"nn.{cell}: {arg} must be a float, got {type(value).__name__}")
    return float(value)


class SmoothL1Loss(LossBase):
    """``ops.smooth_l1_loss``: quadratic below ``beta``, linear above.

    Args:
        beta: the switch point, >= 0. Default 1.0.
        reduction: 'none' (the default, as MindSpore), 'mean' or 'sum'.

    Raises:
        TypeError: for a non-number ``beta``.
        ValueError: for a negative ``beta`` or another reduction.
    """

    def __init__(self, beta=1.0, reduction='none'):
        super().__init__(reduction)
        self.beta = _number(beta, 'SmoothL1Loss', 'beta')
        if self.beta < 0:
            raise ValueError(f"nn.SmoothL1Loss: beta must be >= 0, got {beta}")

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    """``ops.huber_loss``: ``0.5 d ** 2`` below ``delta``, ``delta (|d| - 0.5 delta)`` above.

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        delta: the switch point, > 0. Default 1.0.

    Raises:
        ValueError: for ``delta`` <= 0 or another reduction.
    """

    def __init__(self, reduction='mean', delta=1.0):
        super().__init__(reduction)
        self.delta = _number(delta, 'HuberLoss', 'delta')
        if self.delta <= 0:
            raise ValueError(f"nn.HuberLoss: delta must be > 0, got {delta}")

    def construct(self, logits, labels):
        _check_tensors(self, logits=logits, labels=labels)
        return self.get_loss(ops.huber_loss(logits, labels, 'none', self.delta))


class RMSELoss(LossBase):
    """Root mean squared error ``sqrt(mean((logits - labels) ** 2))``.

    >>> import hookgrad as ms
    >>> ms.nn.RMSELoss()(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 4.0])).item()
    1.4142135381698608
    """

    def __init__(self):
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits, label):
        _check_tensors(self, logits=logits, labels=label)
        for arg, x in (('logits', logits), ('labels', label)):
            if x._data.dtype.kind == 'u':
                raise TypeError(f"nn.RMSELoss: {arg} must not be unsigned, got {x.dtype}")
        return ops.sqrt(self.MSELoss(logits, label))


class GaussianNLLLoss(LossBase):
    """``ops.gaussian_nll_loss`` with the cell's settings; ``construct(logits, labels, var)``.

    Args:
        full: add ``0.5 log(2 pi)`` (keyword). Default False.
        eps: the floor of ``var``, a positive float (keyword). Default 1e-6.
        reduction: 'none', 'mean' or 'sum' (keyword). Default 'mean'.

    Raises:
        TypeError: for a non-bool ``full`` or a non-float ``eps`` (an int too, as
            MindSpore).
        ValueError: for a non-positive ``eps`` or another reduction.
    """

    def __init__(self, *, full=False, eps=1e-06, reduction='mean'):
        super().__init__(reduction)
        if not isinstance(full, bool):
            raise TypeError(f"nn.GaussianNLLLoss: full must be a bool, got {full!r}")
        if not isinstance(eps, float):
            raise TypeError(f"nn.GaussianNLLLoss: eps must be a float, got "
                            f"{type(eps).__name__}")
        if eps <= 0:
            raise ValueError(f"nn.GaussianNLLLoss: eps must be a positive float, got {eps!r}")
        self.full = full
        self.eps = eps

    def construct(self, logits, labels, var):
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """Poisson negative log-likelihood: ``exp(x) - y x`` (``log_input``) or
    ``x - y log(x + eps)``; with ``full`` the Stirling term ``y log(y) - y + 0.5 log(2 pi y)``
    is added where y > 1.

    Args:
        log_input: whether the input is the log of the rate. Default True.
        full: add the Stirling term. Default False.
        eps: added to the rate inside the log (log_input False), and the floor of y in the
            Stirling term. Default 1e-8.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for non-bool flags, a non-number eps, or non-Tensor inputs.
    """

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction='mean'):
        super().__init__(reduction)
        for arg, value in (('log_input', log_input), ('full', full)):
            if not isinstance(value, bool):
                raise TypeError(f"nn.PoissonNLLLoss: {arg} must be a bool, got {value!r}")
        self.log_input = log_input
        self.full = full
        self.eps = _number(eps, 'PoissonNLLLoss', 'eps')

    def construct(self, input, target):
        _check_tensors(self, input=input, target=target)
        target = ops.cast(target, input.dtype) if target.dtype != input.dtype else target
        if self.log_input:
            loss = ops.exp(input) - target * input
        else:
            loss = input - target * ops.log(input + self.eps)
        if self.full:
            y = ops.maximum(target, self.eps)
            stirling = (y + 0.5) * ops.log(y) - y + 0.5 * math.log(2 * math.pi)
            loss = loss + ops.where(ops.gt(y, 1.0), stirling, 0.0)
        return self.get_loss(loss)


class KLDivLoss(LossBase):
    """``ops.kl_div`` of log-probabilities ``logits`` against ``labels``.

    Args:
        reduction: 'none', 'mean', 'batchmean' or 'sum'. Default 'mean'.

    Raises:
        ValueError: for another reduction.
    """

    def __init__(self, reduction='mean'):
        super().__init__()
        if reduction not in ('none', 'mean', 'batchmean', 'sum'):
            raise ValueError(f"nn.KLDivLoss: reduction must be 'none', 'mean', 'batchmean' or "
                             f"'sum', got {reduction!r}")
        self.reduction = reduction

    def construct(self, logits, labels):
        _check_tensors(self, logits=logits, labels=labels)
        return ops.kl_div(logits, labels, self.reduction)


class BCELoss(LossBase):
    """``ops.binary_cross_entropy`` of probabilities against labels.

    Args:
        weight: a Tensor of per-element weights broadcasting with the inputs, or None.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for a ``weight`` that is not a Tensor or None.
        ValueError: for another reduction.
    """

    def __init__(self, weight=None, reduction='mean'):
        super().__init__(reduction)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"nn.BCELoss: weight must be a Tensor or None, got "
                            f"{type(weight).__name__}")
        self.weight = weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)
