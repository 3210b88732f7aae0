"""``mindspore.mint.nn``: PyTorch-style layers and losses, every one a ``hookgrad.nn.Cell``.

Layers whose MindSpore ``nn`` form already has mint's signature are hookgrad's own
(``Linear``, ``Identity``, the padding layers...); the rest are in ``layers``, ``activation``
and ``loss``.
"""
from ...nn import (Cell, Linear, Identity, Flatten, PixelShuffle, ConstantPad1d,
                   ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d,
                   ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d,
                   ZeroPad2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d,
                   MaxUnpool2d, BCELoss, CosineEmbeddingLoss, CrossEntropyLoss, NLLLoss,
                   SoftMarginLoss)
from ...compat.names import reporter as _reporter
from . import functional, layers, activation, loss
from .layers import *  # noqa: F401,F403
from .activation import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403

__all__ = ['Cell', 'Linear', 'Identity', 'Flatten', 'PixelShuffle', 'ConstantPad1d',
           'ConstantPad2d', 'ConstantPad3d', 'ReflectionPad1d', 'ReflectionPad2d',
           'ReflectionPad3d', 'ReplicationPad1d', 'ReplicationPad2d', 'ReplicationPad3d',
           'ZeroPad2d', 'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d', 'AdaptiveAvgPool3d',
           'MaxUnpool2d', 'BCELoss', 'CosineEmbeddingLoss', 'CrossEntropyLoss', 'NLLLoss',
           'SoftMarginLoss', 'functional', *layers.__all__, *activation.__all__,
           *loss.__all__]

__getattr__ = _reporter('mindspore.mint.nn')
