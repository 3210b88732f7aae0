"""MindSpore's ``mindspore.boost``: ``GradientAccumulation`` and its two ops.

The rest of boost (``AutoBoost``, ``LessBN``, ``GradientFreeze``, ``AdaSum``, ``DimReduce``...)
rewrites networks and optimizers for Ascend's training speed-ups; those names raise
``NotAvailable`` saying so.
"""
from ..compat.unavailable import reporter_with_reasons as _reporter_with_reasons
from .grad_accumulation import GradientAccumulation, gradient_accumulation_op, gradient_clear_op

__all__ = ['GradientAccumulation', 'gradient_accumulation_op', 'gradient_clear_op']

_ACCELERATION = ("it rewrites the network or optimizer for MindSpore's boost training "
                 "speed-ups, which hookgrad does not have")
__getattr__ = _reporter_with_reasons('mindspore.boost', dict.fromkeys(
    ['AutoBoost', 'OptimizerProcess', 'ParameterProcess', 'BoostTrainOneStepCell',
     'BoostTrainOneStepWithLossScaleCell', 'LessBN', 'GradientFreeze', 'FreezeOpt',
     'freeze_cell', 'AdaSum', 'DimReduce', 'GroupLossScaleManager'], _ACCELERATION))
