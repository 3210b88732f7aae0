"""MindSpore's ``mindspore.nn.metrics`` (the 1.x home of ``mindspore.train.metrics``): the same
metric classes."""
from ..compat.names import reexport as _reexport, reporter as _reporter
from ..train import metrics as _metrics

__all__ = _reexport(globals(), _metrics, 'mindspore.nn.metrics')
__getattr__ = _reporter('mindspore.nn.metrics')
