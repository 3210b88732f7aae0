"""``build_train_network``: a network, its loss and optimizer made into one mixed-precision
training step, with MindSpore 2.10's per-level defaults (``train/amp.py``).

| level | network dtype | keep_batchnorm_fp32 | loss_scale_manager |
| --- | --- | --- | --- |
| O0 | float32 | False | None |
| O1 | float32, white list float16 | False | None |
| O2 | float16 | True | DynamicLossScaleManager() |
| O3 | float16 | False | None |

``kwargs`` (``cast_model_type``, ``keep_batchnorm_fp32``, ``loss_scale_manager``) override the
level's values. A float16 network gets a loss cell that casts the network's output and the
label to float32 before the loss. MindSpore refuses a manager with an update cell on its CPU
backend (its CPU step lacks the control flow); hookgrad runs that step on the CPU.
"""
from .. import _dtype
from .. import nn
from ..nn.cell import Cell
from ..train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager
from .precision import _cast_floats, auto_mixed_precision, do_keep_batchnorm_fp32

__all__ = ['build_train_network']

_LEVELS = ['O0', 'O1', 'O2', 'O3', 'auto']


def _config(level):
    fp16 = level in ('O2', 'O3')
    return {'keep_batchnorm_fp32': level == 'O2',
            'cast_model_type': _dtype.float16 if fp16 else _dtype.float32,
            'loss_scale_manager': DynamicLossScaleManager() if level == 'O2' else None}


def _check_kwargs(kwargs):
    for arg in kwargs:
        if arg not in ('cast_model_type', 'keep_batchnorm_fp32', 'loss_scale_manager'):
            raise ValueError(f"Unsupported arg '{arg}'")
    if 'cast_model_type' in kwargs and kwargs['cast_model_type'] not in (_dtype.float16,
                                                                          _dtype.float32):
        raise TypeError(f"The 'cast_model_type' should be one of [mindspore.float16, "
                        f"mindspore.float32], but got 'mindspore.{kwargs['cast_model_type']}'."
                        .replace("'mindspore.Float", "'mindspore.float"))
    if 'keep_batchnorm_fp32' in kwargs and not isinstance(kwargs['keep_batchnorm_fp32'], bool):
        raise TypeError(f"The type of 'keep_batchnorm_fp32' should be 'bool', but got type "
                        f"'{type(kwargs['keep_batchnorm_fp32']).__name__}'.")
    manager = kwargs.get('loss_scale_manager')
    if manager and not isinstance(manager, LossScaleManager):
        raise TypeError(f"The type of 'loss_scale_manager' should be one of "
                        f"'['LossScaleManager', 'GroupLossScaleManager']', but got type "
                        f"'{type(manager).__name__}'.")


def check_level(level, boost_level):
    """MindSpore's checks of ``level`` and ``boost_level``; boost mode is refused."""
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', "
                        f"'auto'],but got type {type(level)}.")
    if level not in _LEVELS:
        raise ValueError(f"The 'level' should be in : {_LEVELS}, but got {level}.")
    if boost_level not in ('O0', 'O1', 'O2'):
        raise ValueError(f"The 'boost_level' should be in : ['O0', 'O1', 'O2'], but got "
                         f"{boost_level}.")
    if boost_level != 'O0':
        raise NotImplementedError(
            f"build_train_network: boost_level {boost_level!r} is not available in hookgrad: "
            f"MindSpore's boost mode (mindspore.boost) rewrites the network and optimizer; use "
            f"'O0'")


def _process(network, config, level):
    """MindSpore's ``_auto_mixed_precision_process`` (without its source rewriting)."""
    if config['cast_model_type'] == _dtype.float16:
        network.to_float(_dtype.float16)
        if config['keep_batchnorm_fp32']:
            do_keep_batchnorm_fp32(network)
    elif not config['keep_batchnorm_fp32'] and level == 'O2':
        network.to_float(_dtype.float16)
    elif config['cast_model_type'] == _dtype.float32 and level in ('O2', 'O3'):
        pass
    else:
        network = auto_mixed_precision(network, level)
    return network


class WithLossCell(Cell):
    """The loss cell of a float16 network (named as MindSpore's): output and label cast to
    float32 before the loss."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        level = backbone.__dict__.get('_amp_level')
        if level is not None:
            self.__dict__['_amp_level'] = level

    def construct(self, data, label):
        out = self._backbone(data)
        label = _cast_floats(label, _dtype.float32)
        return self._loss_fn(_cast_floats(out, _dtype.float32), label)


def add_loss_network(network, loss_fn, cast_model_type):
    """``WithLossCell``, or the casting loss cell for a float16 network."""
    if not isinstance(loss_fn, Cell):
        raise TypeError(f"The type of 'loss_fn' should be 'Cell', but got type "
                        f"'{type(loss_fn).__name__}'.")
    if cast_model_type in (_dtype.float16, _dtype.bfloat16) or \
            network.__dict__.get('_amp_level') in ('O2', 'O3', 'auto'):
        return WithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def build_train_network(network, optimizer, loss_fn=None, level='O0', boost_level='O0',
                        **kwargs):
    """The training step of ``network`` at mixed-precision ``level``.

    Args:
        network (Cell): the network (with the loss inside when ``loss_fn`` is None).
        optimizer: an ``nn.Optimizer``.
        loss_fn (Cell): the loss, or None. Default None.
        level (str): 'O0', 'O1', 'O2' or 'O3' (see the table in the module). Default 'O0'.
        boost_level (str): 'O0' (boost mode is not available).
        kwargs: ``cast_model_type`` (float16 or float32), ``keep_batchnorm_fp32`` (bool),
            ``loss_scale_manager`` (a LossScaleManager or None).

    Returns:
        Cell: a ``TrainOneStepWithLossScaleCell`` when the manager has an update cell, else a
        ``TrainOneStepCell`` (with ``sens`` the manager's fixed scale), in train mode.

    Raises:
        TypeError, ValueError: for arguments as MindSpore rejects them.
        NotImplementedError: ``level='auto'`` or a boost level.
    """
    if not isinstance(optimizer, nn.Optimizer):
        raise TypeError(f"The type of 'optimizer' should be one of '['Optimizer', 'FreezeOpt', "
                        f"'AdaSumByGradWrapCell', 'AdaSumByDeltaWeightWrapCell']', but got type "
                        f"'{type(optimizer).__name__}'.")
    check_level(level, boost_level)
    _check_kwargs(kwargs)
    config = dict(_config(level), **kwargs)
    network = _process(network, config, level)
    if loss_fn:
        network = add_loss_network(network, loss_fn, config['cast_model_type'])
    loss_scale = None
    manager = config['loss_scale_manager']
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer,
                                                    scale_sense=update_cell).set_train()
    return nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()
