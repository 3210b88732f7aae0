"""``mindspore.mint.nn``'s losses whose signature differs from ``hookgrad.nn``'s."""
from ...nn.cell import Cell
from . import functional as F

__all__ = ['MSELoss', 'L1Loss', 'SmoothL1Loss', 'KLDivLoss', 'BCEWithLogitsLoss']


class _Loss(Cell):
    def __init__(self, reduction='mean'):
        super().__init__()
        if reduction not in ('none', 'mean', 'sum'):
            raise ValueError(f"mint.nn.{type(self).__name__}: reduction must be 'none', 'mean' "
                             f"or 'sum', got {reduction!r}")
        self.reduction = reduction


class MSELoss(_Loss):
    """The mean (or sum) of ``(input - target) ** 2``."""
    def construct(self, input, target):
        return F.mse_loss(input, target, self.reduction)


class L1Loss(_Loss):
    """The mean (or sum) of ``|input - target|``."""
    def construct(self, input, target):
        return F.l1_loss(input, target, self.reduction)


class SmoothL1Loss(_Loss):
    """Quadratic below ``beta``, linear above."""
    def __init__(self, reduction='mean', beta=1.0):
        super().__init__(reduction)
        self.beta = beta

    def construct(self, input, target):
        return F.smooth_l1_loss(input, target, self.reduction, self.beta)


class KLDivLoss(Cell):
    """``target * (log target - input)``, ``input`` holding log-probabilities."""
    def __init__(self, reduction='mean', log_target=False):
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def construct(self, input, target):
        return F.kl_div(input, target, self.reduction, self.log_target)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of ``sigmoid(input)``, from the logits."""
    def __init__(self, weight=None, reduction='mean', pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, self.reduction,
                                                  self.pos_weight)
