"""A Cell's compute dtype: ``to_float``, ``set_mixed_precision_type`` and the cast of a call.

A cell given a compute dtype (float16 or float32) runs its call with every floating Tensor
input cast to that dtype, and with its own trainable floating Parameters read through a
differentiable cast for the duration of ``construct`` (the Parameters keep their dtype and
receive gradients of it: the cast's backward converts them). Sub-cells have their own setting
(``to_float`` sets it on every sub-cell, as MindSpore's does), so a float32 BatchNorm inside a
float16 network computes in float32.

MindSpore casts the inputs of every primitive executed inside such a cell; hookgrad casts at
the cell's entry, before its hooks, so forward pre-hooks, forward hooks and backward hooks see
the tensors that ``construct`` computes with (float16 inside a float16 cell). A Parameter of a
parent cell read inside a child, and a float32 constant made inside ``construct``, are not cast.
"""
import enum

from .._frames import warn
from .. import _dtype
from .._tensor import Tensor

__all__ = ['MixedPrecisionType']


class MixedPrecisionType(enum.Enum):
    """The compute dtype of a cell, as MindSpore names it (``MixedPrecisionType.FP16``)."""
    NOTSET = 0
    FP16 = 1
    FP32 = 2
    BF16 = 3

    def __str__(self):
        return f"MixedPrecisionType.{self.name}"


_BY_DTYPE = {_dtype.float16: MixedPrecisionType.FP16, _dtype.float32: MixedPrecisionType.FP32,
             _dtype.bfloat16: MixedPrecisionType.BF16}
_NUMPY = {MixedPrecisionType.FP16: _dtype.float16.np_dtype,
          MixedPrecisionType.FP32: _dtype.float32.np_dtype,
          MixedPrecisionType.BF16: _dtype.bfloat16.np_dtype}


def _numpy_dtype(kind):
    """The NumPy dtype a cell computes in for ``kind``."""
    return _NUMPY[kind]


class CellPrecision:
    """Mixed-precision settings; mixed into ``nn.Cell``."""

    _amp_dtype = None       # the NumPy dtype this cell computes in, or None: no cast
    _amp_output = None      # O1: the NumPy dtype its floating outputs are cast back to

    def to_float(self, dst_type):
        """Make this cell and every sub-cell compute in ``dst_type``: floating inputs (and the
        cells' own trainable Parameters) are cast on entry. Sets the flags ``fp16``, ``fp32``
        and ``bf16`` as MindSpore does; a later call overrides.

        Args:
            dst_type: ``mindspore.float16``, ``mindspore.bfloat16`` or ``mindspore.float32``.

        Returns:
            Cell, self.

        Raises:
            ValueError: ``dst_type`` is another dtype.
        """
        if dst_type not in _BY_DTYPE:
            raise ValueError(f"For 'to_float', the argument 'dst_type' must be mstype.float32, "
                             f"mstype.float16 or mstype.bfloat16, but got type: "
                             f"{type(dst_type)} and value: {dst_type}.")
        kind = _BY_DTYPE[dst_type]
        np_dtype = _numpy_dtype(kind)
        flags = {'fp16': dst_type == _dtype.float16, 'fp32': dst_type == _dtype.float32,
                 'bf16': dst_type == _dtype.bfloat16}
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
            cell.__dict__['_amp_kind'] = kind
            cell.__dict__['_amp_dtype'] = np_dtype
        return self

    def set_mixed_precision_type(self, mixed_type):
        """Set this cell's (not its sub-cells') compute type, a ``MixedPrecisionType``;
        ``NOTSET`` removes it.

        Raises:
            TypeError: ``mixed_type`` is not a MixedPrecisionType.
        """
        if not isinstance(mixed_type, MixedPrecisionType):
            raise TypeError(f"Cell '{self.path()}'.set_mixed_precision_type: mixed_type must be "
                            f"a MixedPrecisionType, got {mixed_type!r}")
        if mixed_type is MixedPrecisionType.NOTSET:
            self.__dict__.pop('_amp_kind', None)
            self.__dict__.pop('_amp_dtype', None)
            return
        np_dtype = _numpy_dtype(mixed_type)
        self.__dict__['_amp_kind'] = mixed_type
        self.__dict__['_amp_dtype'] = np_dtype

    def get_mixed_precision_type(self):
        """This cell's compute type (``MixedPrecisionType.NOTSET`` when none is set)."""
        return self.__dict__.get('_amp_kind', MixedPrecisionType.NOTSET)

    def cast_inputs(self, inputs, dst_type):
        """Deprecated in MindSpore, where it does nothing and returns None; so here."""
        warn("'cast_inputs' will be deprecated in future versions.",
             DeprecationWarning)


# --------------------------------------------------------------------------- the call
def call(cell, run, args, kwargs):
    """``run(cell, hooks, args, kwargs)`` (Cell's general call) with the inputs and the
    cell's trainable Parameters cast to its compute dtype, the Parameters restored after."""
    from ..ops import cast
    np_dtype = cell._amp_dtype
    args = tuple(_cast(a, np_dtype, cast) for a in args)
    if kwargs:
        kwargs = {k: _cast(v, np_dtype, cast) for k, v in kwargs.items()}
    d = cell.__dict__
    swapped = []
    for name, p in cell._params.items():
        if p is not None and p.requires_grad and p._data.dtype.kind in 'fV' and \
                p._data.dtype != np_dtype and d.get(name) is p:
            swapped.append((name, p))
            d[name] = cast(p, _dtype.from_numpy(np_dtype))
    try:
        from .cell import _UNSET
        out = run(cell, d.get('_hooks', _UNSET), args, kwargs)
    finally:
        for name, p in swapped:
            d[name] = p
    out_dtype = cell._amp_output
    if out_dtype is not None:
        out = _cast_nested(out, out_dtype, cast)
    return out


def _cast(value, np_dtype, cast):
    """A floating Tensor cast to ``np_dtype`` (differentiably); anything else as it is."""
    if isinstance(value, Tensor):
        kind = value._data.dtype
        if kind.kind in 'fV' and kind != np_dtype:
            return cast(value, _dtype.from_numpy(np_dtype))
    return value


def _cast_nested(value, np_dtype, cast):
    """``_cast`` through tuples and lists (a cell's outputs)."""
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_nested(v, np_dtype, cast) for v in value)
    return _cast(value, np_dtype, cast)
