"""MindSpore's ``mindspore.train.serialization``: saving and loading checkpoints."""
from ..checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from ..compat.names import reporter as _reporter

__all__ = ['save_checkpoint', 'load_checkpoint', 'load_param_into_net']
__getattr__ = _reporter('mindspore.train.serialization')
