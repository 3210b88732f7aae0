"""The neural-network functional ops of ``hookgrad.ops`` (MindSpore 2.x names and signatures),
gathered from their family modules: activations, losses, convolutions, pooling, padding,
resizing and normalization."""
from .nn_activation import *  # noqa: F401,F403
from .nn_loss import *  # noqa: F401,F403
from .nn_pad import *  # noqa: F401,F403
from . import nn_activation, nn_loss, nn_pad

__all__ = [name for module in (nn_activation, nn_loss, nn_pad) for name in module.__all__]
