"""Which cells of a network compute in float16: ``auto_mixed_precision`` and
``custom_mixed_precision``, with MindSpore 2.10's lists and rules.

- O1: the cells in the white list (exact classes: Dense, the Conv layers, RNN/LSTM/GRU cells)
  and the calls of white-listed primitives held as cell attributes (``self.matmul =
  ops.MatMul()``) compute in float16 and hand float32 back. MindSpore rewrites the source of
  ``construct`` to insert those casts; hookgrad sets the same cells' compute dtype and output
  dtype instead, and changes the network in place. ``nn.ReLU`` and ``nn.PReLU``, whose
  MindSpore ``construct`` calls a white-listed primitive, count as white-listed too.
- O2: every cell computes in float16 except the black list (BatchNorm1d/2d/3d, LayerNorm and
  their subclasses), kept in float32 and wrapped in ``_OutputTo16``; the network is wrapped in
  ``_OutputTo32``, so its outputs (and the loss after it) are float32.
- O3: every cell computes in float16; outputs cast to float32 by ``_OutputTo32``.

Cells given a precision by the user (``to_float``) before O1 are left as they are.
"""
import weakref

from .._frames import warn
from .. import _dtype
from .. import nn as _nn
from .. import ops
from ..nn.cell import Cell
from ..ops.operations._primitive import Primitive

__all__ = ['auto_mixed_precision', 'custom_mixed_precision', 'get_white_list', 'get_black_list']

AMP_WHITE_LIST = [
    _nn.Conv1d, _nn.Conv2d, _nn.Conv3d, _nn.Conv1dTranspose, _nn.Conv2dTranspose,
    _nn.Conv3dTranspose, _nn.Dense, _nn.LSTMCell, _nn.RNNCell, _nn.GRUCell,
] + [getattr(ops, name) for name in (
    'Conv2D', 'Conv3D', 'Conv2DTranspose', 'Conv3DTranspose', 'Conv2DBackpropInput', 'MatMul',
    'BatchMatMul', 'PReLU', 'ReLU', 'Ger') if hasattr(ops, name)]

AMP_BLACK_LIST = [_nn.BatchNorm1d, _nn.BatchNorm2d, _nn.BatchNorm3d, _nn.LayerNorm]

# cells whose MindSpore construct is one white-listed primitive (the rewrite casts that call)
_PRIMITIVE_CELLS = {_nn.ReLU: 'ReLU', _nn.PReLU: 'PReLU'}
_LOW = (_dtype.float16, _dtype.bfloat16)


def _check_dtype(dtype):
    if dtype not in _LOW:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got "
                         f"{dtype}.")


def _cast_floats(value, dtype):
    """Floating Tensors in ``value`` (nested tuples and lists too) cast to ``dtype``."""
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_floats(v, dtype) for v in value)
    if hasattr(value, '_data') and value._data.dtype.kind in 'fV' and value.dtype != dtype:
        return ops.cast(value, dtype)
    return value


class _OutputTo16(Cell):
    """MindSpore's wrapper of a float32 cell inside a float16 network: its output back to the
    low dtype."""

    def __init__(self, backbone, dtype=_dtype.float16):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype
        _copy_amp_level(self, backbone)

    def construct(self, *args, **kwargs):
        return ops.cast(self._backbone(*args, **kwargs), self.dtype)


class _OutputTo32(Cell):
    """MindSpore's wrapper of a mixed-precision network: floating outputs cast to float32."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        _copy_amp_level(self, backbone)

    def construct(self, *args, **kwargs):
        return _cast_floats(self._backbone(*args, **kwargs), _dtype.float32)


class _CastPrimitive:
    """A white-listed primitive held by a cell, called with floating inputs in the low dtype
    and returning float32 (the casts MindSpore's O1 rewrite puts around the call)."""

    def __init__(self, primitive, dtype):
        self.primitive = primitive
        self.dtype = dtype

    def __call__(self, *args, **kwargs):
        out = self.primitive(*_cast_floats(args, self.dtype), **kwargs)
        return _cast_floats(out, _dtype.float32)

    def __getattr__(self, name):
        if name == 'primitive':             # not set yet (copy, unpickling)
            raise AttributeError(name)
        return getattr(self.primitive, name)

    def __repr__(self):
        return repr(self.primitive)


def _copy_amp_level(wrapper, backbone):
    level = backbone.__dict__.get('_amp_level')
    if level is not None:
        wrapper.__dict__['_amp_level'] = level


def _replace_child(parent, name, new):
    """Put ``new`` in ``parent``'s place ``name`` (as MindSpore assigns ``_cells[name]``): the
    old cell keeps its names and its parent; nothing is renamed."""
    parent.__dict__['_cells'][name] = new
    object.__setattr__(parent, name, new)
    if new._parent is None:
        new.__dict__['_parent'] = (weakref.ref(parent), name)


def _set_by_user(cell):
    return any(cell.__dict__.get(flag) for flag in ('fp16', 'fp32', 'bf16'))


def _low_precision(cell, np_dtype):
    """``cell`` and its sub-cells compute in the low dtype and return float32 (their
    ``get_mixed_precision_type`` stays NOTSET, as after MindSpore's rewrite)."""
    for _, c in cell.cells_and_names():
        c.__dict__['_amp_dtype'] = np_dtype
        c.__dict__['_amp_output'] = _dtype.to_numpy(_dtype.float32)


def _white_list_pass(cell, dtype, white_list, force):
    """MindSpore's O1 rewrite, on cells: white-listed cells (exact classes) below ``cell``
    compute in ``dtype``; white-listed primitive attributes are wrapped."""
    np_dtype = _dtype.to_numpy(dtype)
    cells = set(c for c in white_list if isinstance(c, type) and issubclass(c, Cell))
    prims = tuple(p for p in white_list if isinstance(p, type) and issubclass(p, Primitive))
    for name, value in list(cell.__dict__.items()):
        if isinstance(value, Primitive) and (force or type(value) in prims):
            object.__setattr__(cell, name, _CastPrimitive(value, dtype))
    for child in cell.cells():
        if child is None or _set_by_user(child):
            continue
        prim_name = _PRIMITIVE_CELLS.get(type(child))
        if force or type(child) in cells or (
                prim_name is not None and any(p.__name__ == prim_name for p in prims)):
            _low_precision(child, np_dtype)
        else:
            _white_list_pass(child, dtype, white_list, False)


def _auto_black_list(network, black_list, dtype):
    """MindSpore's O2: everything in ``dtype`` but the black-listed cells (and subclasses),
    which compute in float32 inside an ``_OutputTo16``."""
    network.to_float(dtype)
    for name, sub in list(network.name_cells().items()):
        if sub is network:
            continue
        if isinstance(sub, tuple(black_list)):
            _replace_child(network, name, _OutputTo16(sub.to_float(_dtype.float32), dtype))
        else:
            _auto_black_list(sub, black_list, dtype)
    return network


def do_keep_batchnorm_fp32(network):
    """``build_train_network``'s ``keep_batchnorm_fp32``: black-listed cells in float32
    inside an ``_OutputTo16`` (the rest keeps its dtype)."""
    for name, sub in list(network.name_cells().items()):
        if sub is network:
            continue
        if isinstance(sub, tuple(AMP_BLACK_LIST)):
            _replace_child(network, name, _OutputTo16(sub.to_float(_dtype.float32)))
        else:
            do_keep_batchnorm_fp32(sub)


def auto_mixed_precision(network, amp_level='O0', dtype=_dtype.float16):
    """A network whose cells compute in ``dtype`` as ``amp_level`` chooses (see the module).

    Args:
        network (Cell): the network.
        amp_level (str): 'O0' (unchanged), 'O1' (white list in ``dtype``), 'O2' (all but the
            black list in ``dtype``), 'O3' (all in ``dtype``). Default 'O0'.
        dtype: ``mindspore.float16`` or ``mindspore.bfloat16``. Default float16.

    Returns:
        Cell: the network (O0, O1) or an ``_OutputTo32`` wrapping it (O2, O3).

    Raises:
        TypeError: ``network`` is not a Cell.
        ValueError: an unknown ``amp_level``, or a ``dtype`` other than float16 or bfloat16.
        NotImplementedError: ``amp_level='auto'``.
    """
    if not isinstance(network, Cell):
        if amp_level == 'auto':
            raise TypeError("For amp_level 'auto', the network type should be Cell or function.")
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    if dtype not in _LOW:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got "
                         f"{dtype}.")
    if amp_level == 'O0':
        return network
    if amp_level not in ('O1', 'O2', 'O3', 'auto'):
        raise ValueError(f"The amp level {amp_level} is not supported")
    if amp_level == 'auto':
        raise NotImplementedError(
            "auto_mixed_precision: amp_level 'auto' chooses the dtype of each primitive inside "
            "MindSpore's executor (per-operator white and black lists), which hookgrad does not "
            "have; use 'O1', 'O2' or 'O3'")
    _check_dtype(dtype)
    previous = network.__dict__.get('_amp_level')
    if previous in ('O1', 'O2', 'O3', 'auto'):
        warn(f"The network's auto mixed-precision level is adjusted from {previous} to "
             f"{amp_level}, and repeated calls to mixed-precision interfaces can cause "
             f"performance degradation.")
    if amp_level == 'O1':
        _white_list_pass(network, dtype, AMP_WHITE_LIST, False)
    elif amp_level == 'O2':
        network = _OutputTo32(_auto_black_list(network, AMP_BLACK_LIST, dtype))
    else:
        network = _OutputTo32(network.to_float(dtype))
    network.__dict__['_amp_level'] = amp_level
    return network


def _list_check(custom_list, list_name):
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == 'white_list' and not issubclass(elem, (Cell, Primitive)):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell' and "
                            f"'Primitive', but got {elem}")
        if list_name == 'black_list' and not issubclass(elem, Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', "
                            f"but got {elem}")
    if list_name == 'black_list':
        for elem in AMP_BLACK_LIST:
            if elem not in custom_list:
                warn(f"{elem} is removed from internal black list.")


def custom_mixed_precision(network, *, white_list=None, black_list=None,
                           dtype=_dtype.float16):
    """Mixed precision from a white list (O1's rule: those cells and primitives in ``dtype``)
    or a black list (O2's rule: all but those cells in ``dtype``, outputs float32).

    Raises:
        TypeError: ``network`` is not a Cell, or a list is not a list of Cell (white list:
            or Primitive) classes.
        ValueError: neither or both lists given, or ``dtype`` other than float16 or bfloat16.
    """
    if not isinstance(network, Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be "
                         "provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be "
                         "provided at the same time, please provide one or the other.")
    if dtype not in _LOW:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got "
                         f"{dtype}.")
    _check_dtype(dtype)
    if white_list is not None:
        _list_check(white_list, 'white_list')
        _white_list_pass(network, dtype, white_list, False)
        return network
    _list_check(black_list, 'black_list')
    return _OutputTo32(_auto_black_list(network, black_list, dtype))


def get_white_list():
    """A copy of O1's white list (Cell and Primitive classes)."""
    return AMP_WHITE_LIST.copy()


def get_black_list():
    """A copy of O2's black list (Cell classes)."""
    return AMP_BLACK_LIST.copy()
