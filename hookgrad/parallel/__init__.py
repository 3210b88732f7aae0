"""MindSpore's ``mindspore.parallel``: what data parallelism needs of it.

hookgrad trains data-parallel only (every rank a whole replica, gradients all-reduced), so the
names that mean something there are real: the strategy-search settings (kept and read back, as
MindSpore keeps them), ``parameter_broadcast`` (replicas start equal) and
``merge_sliced_parameter`` (slices cut along axis 0 joined again). Sharding a network across
ranks (``shard``, ``Layout``, pipeline stages, strategy files and the checkpoint transforms
built on them) needs MindSpore's auto-parallel compiler: those functions raise
``NotImplementedError`` saying so (checkpoint_transform.py, which also has
``load_segmented_checkpoints``).
"""
import numpy as np

from ..compat.unavailable import reporter_with_reasons
from .._tensor import Tensor
from ..nn.cell import Cell
from ..nn.parameter import Parameter

__all__ = ['set_algo_parameters', 'reset_algo_parameters', 'get_algo_parameters',
           'parameter_broadcast', 'merge_sliced_parameter']

_ALGO_DEFAULTS = {'fully_use_devices': False, 'elementwise_op_strategy_follow': False,
                  'enable_algo_approxi': False,
                  'algo_approxi_epsilon': float(np.float32(0.1)),    # MindSpore keeps a float32
                  'tensor_slice_align_enable': False, 'tensor_slice_align_size': 16}
_ALGO_TYPES = {'fully_use_devices': bool, 'elementwise_op_strategy_follow': bool,
               'enable_algo_approxi': bool, 'algo_approxi_epsilon': float,
               'tensor_slice_align_enable': bool, 'tensor_slice_align_size': int}
_algo = dict(_ALGO_DEFAULTS)


def set_algo_parameters(**kwargs):
    """Set the parallel strategy-search settings (``fully_use_devices``,
    ``elementwise_op_strategy_follow``, ``enable_algo_approxi``, ``algo_approxi_epsilon`` in
    (0, 1], ``tensor_slice_align_enable``, ``tensor_slice_align_size`` in [1, 1024]). They are
    kept and read back; data-parallel training searches no strategy, so none changes it.

    Raises:
        TypeError: a value of the wrong type. ValueError: an unknown key or a size out of range.
        RuntimeError: an epsilon out of range (as MindSpore raises it).
    """
    for key, value in kwargs.items():
        kind = _ALGO_TYPES.get(key)
        if kind is not None and type(value) is not kind:
            raise TypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
    for key, value in kwargs.items():
        if key not in _ALGO_TYPES:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == 'tensor_slice_align_size' and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
        if key == 'algo_approxi_epsilon':
            if not 0 < value <= 1:
                raise RuntimeError("'epsilon' must be in (0, 1]")
            value = float(np.float32(value))
        _algo[key] = value


def get_algo_parameters(attr_key):
    """The strategy-search setting ``attr_key`` (see ``set_algo_parameters``)."""
    if attr_key not in _algo:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _algo[attr_key]


def reset_algo_parameters():
    """Put every strategy-search setting back to its default."""
    _algo.clear()
    _algo.update(_ALGO_DEFAULTS)


def parameter_broadcast(net, layout, cur_rank=0, initial_rank=0):
    """Give every rank rank ``initial_rank``'s values of the parameters ``layout`` names.

    In data parallelism each parameter is whole on every rank, so the parameters named in
    ``layout`` (a dict by parameter name, as ``Cell.parameter_layout_dict``) are broadcast from
    ``initial_rank`` in place. Nothing happens for an empty ``layout`` or a single process.

    Raises:
        TypeError: ``net`` is not a Cell. ValueError: ``layout`` names a parameter ``net``
        lacks, or a rank is outside the world.
    """
    from ..communication import get_group_size
    from ..communication._world import WORLD
    from ..ops.collective import _exchange
    if not isinstance(net, Cell):
        raise TypeError(f"For parameter broadcast, the net must be a Cell, but got "
                        f"{type(net).__name__}")
    if not layout or get_group_size() <= 1:
        return
    size = get_group_size()
    for name, rank in (('cur_rank', cur_rank), ('initial_rank', initial_rank)):
        if not isinstance(rank, int) or not 0 <= rank < size:
            raise ValueError(f"For parameter broadcast, {name} must be a rank in [0, {size}), "
                             f"but got {rank}")
    params = net.parameters_dict()
    for name in layout:
        if name not in params:
            raise ValueError(f"For parameter broadcast, the param: {name} can not be found.")
        param = params[name]
        param.set_data(Tensor._wrap(_exchange('broadcast', param._data, initial_rank, WORLD)))


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """Join a parameter's slices, cut along axis 0, back into one Parameter of the same name.

    Raises:
        TypeError, ValueError: as MindSpore, for a non-list, an empty list, a non-Parameter, or
            slices that differ in name or in shape past axis 0.
        NotImplementedError: for ``strategy`` (slices laid out by a sharding strategy).
    """
    where = "For 'merge_sliced_parameter',"
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"{where} the argument 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError(f"{where} the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError(f"{where} the argument 'strategy' should be dict, but got "
                        f"{type(strategy)}.")
    first = sliced_parameters[0]
    for index, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError(f"{where} the element in 'sliced_parameters' should be 'Parameter', "
                            f"but got {type(p)} at index {index}.")
        if p.name != first.name or p.ndim != first.ndim or p.shape[1:] != first.shape[1:]:
            raise ValueError(
                f"{where} please make sure that the elements in 'slice_parameters' have the "
                f"same name, dimension length and shape except 0 axis. The name, dimension "
                f"length, shape except 0 axis should be {first.name}, {first.ndim}, "
                f"{tuple(first.shape[1:])}, but got name: {p.name}, dimension length: "
                f"{p.ndim}, shape except 0 axis: {tuple(p.shape[1:])} at index {index}.")
    if strategy:
        raise NotImplementedError(f"{where} a sharding 'strategy' is not supported in hookgrad "
                                  f"(slices are joined along axis 0 only)")
    merged = np.concatenate([p.asnumpy() for p in sliced_parameters])
    return Parameter(Tensor(merged), first.name, first.requires_grad, first.layerwise_parallel)


from .checkpoint_transform import *  # noqa: E402,F401,F403  (checkpoint_transform.py)
from . import checkpoint_transform as _transform  # noqa: E402
__all__ += _transform.__all__

_SHARDING = ("it shards a network across ranks, which needs MindSpore's auto-parallel "
             "compiler; hookgrad trains data-parallel only")
_UNAVAILABLE = dict.fromkeys(
    ['set_op_strategy_config', 'rank_list_for_convert', 'convert_checkpoint_by_rank',
     'convert_checkpoints', 'build_searched_strategy', 'restore_group_info_list'], _SHARDING)

__getattr__ = reporter_with_reasons('mindspore.parallel', _UNAVAILABLE)
