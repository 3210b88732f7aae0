"""``mindspore.nn.wrap``: the training wrappers (hookgrad/nn/wrap/cell_wrapper.py, as MindSpore
lays them out) and loss scaling (hookgrad/nn/wrap/loss_scale.py)."""
from .cell_wrapper import *  # noqa: F401,F403
from .loss_scale import *  # noqa: F401,F403
from .grad_reducer import DistributedGradReducer
from .micro_batch import GradAccumulationCell, MicroBatchInterleaved, ParameterUpdate
from . import cell_wrapper as _cell_wrapper, loss_scale as _loss_scale

from ..layer.wrappers import TimeDistributed      # MindSpore has it in both places

__all__ = _cell_wrapper.__all__ + _loss_scale.__all__ + ['TimeDistributed',
                                                          'DistributedGradReducer',
                                                          'GradAccumulationCell',
                                                          'MicroBatchInterleaved', 'ParameterUpdate']

from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.wrap')
