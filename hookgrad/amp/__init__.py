"""``mindspore.amp``: mixed precision (which cells compute in float16) and loss scaling.

See docs/amp.md. ``auto_mixed_precision`` and ``custom_mixed_precision`` choose the cells
(hookgrad/amp/precision.py), ``build_train_network`` makes the training step
(hookgrad/amp/build.py), the loss scalers serve hand-written steps (hookgrad/amp/scaler.py) and
the loss scale managers serve ``Model`` (hookgrad/train/loss_scale_manager.py).
"""
from ..train.loss_scale_manager import (DynamicLossScaleManager, LossScaleManager,
                                        FixedLossScaleManager)
from .build import build_train_network
from .precision import (auto_mixed_precision, custom_mixed_precision, get_white_list,
                        get_black_list)
from .scaler import (DynamicLossScaler, StaticLossScaler, LossScaler, all_finite,
                     _any_not_finite)  # noqa: F401

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager",
           "build_train_network", "DynamicLossScaler", "StaticLossScaler", "LossScaler",
           "auto_mixed_precision", "all_finite", "custom_mixed_precision",
           "get_white_list", "get_black_list"]

from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.amp')
