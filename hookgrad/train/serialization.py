"""MindSpore's ``mindspore.train.serialization``: checkpoints, and networks exported for
inference."""
from ..checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from .graph_export import export
from .graph_cell import load
from .checkpoint_convert import (ckpt_to_safetensors, safetensors_to_ckpt, load_checkpoint_async,
                                 async_ckpt_thread_status, ParamDictFuture)
from .._tensor import Tensor                     # MindSpore's module imports these three too
from ..nn.parameter import Parameter
from ..common.initializer import initializer
from .._runtime import Generator
from ..compat.names import reporter as _reporter
from . import serialization_helpers as _helpers
from .serialization_helpers import *  # noqa: F401,F403  (constants, dtype tables, checks...)

__all__ = ['save_checkpoint', 'load_checkpoint', 'load_param_into_net', 'export', 'load',
           'ckpt_to_safetensors', 'safetensors_to_ckpt', 'load_checkpoint_async',
           'async_ckpt_thread_status', 'ParamDictFuture', 'Tensor', 'Parameter', 'initializer',
           'Generator'] + _helpers.__all__
__getattr__ = _reporter('mindspore.train.serialization')
