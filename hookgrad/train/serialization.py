"""MindSpore's ``mindspore.train.serialization``: checkpoints, and networks exported for
inference."""
from ..checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from .graph_export import export
from .graph_cell import load
from ..compat.names import reporter as _reporter

__all__ = ['save_checkpoint', 'load_checkpoint', 'load_param_into_net', 'export', 'load']
__getattr__ = _reporter('mindspore.train.serialization')
