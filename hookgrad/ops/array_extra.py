"""More of MindSpore's functional array ops: metadata (rank, size, numel, dtype), type tests,
scalar and tuple conversions, fills, flattening, transposes, reversal, bias addition, mirror
padding, top-k, random choice and printing.

Most are the functional forms of Primitive classes (``ops.fills(x, v)`` is ``ops.Fills()(x,
v)``): one implementation, the primitive's.
"""
import numpy as np

from .._dtype import float32 as _float32
from .._tensor import Tensor
from .primitives_image import MirrorPad
from .primitives_nn import BiasAdd
from .primitives_state import Fills, Print, RandomChoiceWithMask, ScalarCast
from . import (array_primitives as _ap, comparison as _cmp, scatter_gather as _scatter,
               shaping as _shape, sorting as _sort)

__all__ = [
    'rank', 'size', 'numel', 'dtype', 'is_tensor', 'is_floating_point', 'is_complex',
    'isreal', 'isposinf', 'isneginf', 'scalar_to_tensor', 'tuple_to_array', 'scalar_cast',
    'fills', 'ravel', 't', 'reverse', 'gather_d', 'bias_add', 'mirror_pad', 'top_k',
    'choice_with_mask', 'print_',
]


def _tensor(x, op, arg='input'):
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.{op}: {arg} must be a Tensor, got {type(x).__name__}")
    return x


def rank(input_x):
    """The number of dimensions of ``input_x``, an int."""
    return _ap.Rank()(input_x)


def size(input_x):
    """The number of elements of ``input_x``, an int."""
    return _ap.Size()(input_x)


def numel(input):
    """The number of elements of ``input``, an int."""
    return _tensor(input, 'numel').size


def dtype(x):
    """The dtype of ``x``."""
    return _ap.DType()(x)


def is_tensor(obj):
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """Whether ``input``'s dtype is a floating type."""
    return _tensor(input, 'is_floating_point')._data.dtype.kind == 'f'


def is_complex(input):
    """Whether ``input``'s dtype is complex (never, for hookgrad's dtypes)."""
    return _tensor(input, 'is_complex')._data.dtype.kind == 'c'


def isreal(input):
    """Bool, True everywhere (hookgrad's dtypes are real)."""
    x = _tensor(input, 'isreal')
    return Tensor._wrap(np.ones(x.shape, np.bool_))


def isposinf(input):
    """Bool, where ``input`` is +inf."""
    x = _tensor(input, 'isposinf')
    return _cmp.logical_and(_cmp.isinf(x), _cmp.gt(x, 0))


def isneginf(input):
    """Bool, where ``input`` is -inf."""
    x = _tensor(input, 'isneginf')
    return _cmp.logical_and(_cmp.isinf(x), _cmp.lt(x, 0))


def scalar_to_tensor(input_x, dtype=_float32):
    """A 0-d Tensor of ``dtype`` holding the number ``input_x``."""
    return _ap.ScalarToTensor()(input_x, dtype)


def tuple_to_array(input_x):
    """A 1-d Tensor from a tuple of numbers of one type (Int32 for ints, Float32 for floats)."""
    return _ap.TupleToArray()(input_x)


def scalar_cast(input_x, input_y):
    """The number ``input_x`` as the type ``input_y`` (int64, float64 or bool)."""
    return ScalarCast()(input_x, input_y)


def fills(x, value):
    """A Tensor of ``x``'s shape and dtype filled with ``value``."""
    return Fills()(x, value)


def ravel(input):
    """``input`` flattened to 1-d."""
    return _shape.reshape(_tensor(input, 'ravel'), (-1,))


def t(input):
    """The transpose of a 2-d tensor (a 0-d or 1-d one is returned as it is).

    Raises:
        ValueError: for rank above 2.
    """
    x = _tensor(input, 't')
    if x.ndim > 2:
        raise ValueError(f"ops.t: input must have rank <= 2, got shape {x.shape}")
    return _shape.transpose(x, (1, 0)) if x.ndim == 2 else x


def reverse(x, axis):
    """``x`` reversed along the axes ``axis`` (``ops.flip``)."""
    return _shape.flip(x, tuple(axis) if isinstance(axis, (tuple, list)) else axis)


def gather_d(x, dim, index):
    """``ops.gather_elements``: the elements of x at ``index`` along ``dim``."""
    return _scatter.gather_elements(x, dim, index)


def bias_add(input_x, bias):
    """The 1-d ``bias`` added along axis 1 (the channels) of ``input_x``."""
    return BiasAdd()(input_x, bias)


def mirror_pad(input_x, paddings, mode):
    """``input_x`` extended by its mirror image: ``paddings`` an (ndim, 2) integer Tensor,
    ``mode`` 'REFLECT' (edge left out) or 'SYMMETRIC' (edge repeated)."""
    return MirrorPad(mode)(input_x, paddings)


def top_k(input_x, k, sorted=True):
    """``(values, indices)`` of the k largest elements along the last axis (Int32
    indices)."""
    return _sort.topk(input_x, k, None, True, sorted)


def choice_with_mask(input_x, count=256, seed=None):
    """``(index, mask)``: the positions of ``count`` True elements of a Bool tensor in random
    order (see ``ops.RandomChoiceWithMask``)."""
    return RandomChoiceWithMask(count, 0 if seed is None else seed, 0)(input_x)


def print_(*input_x):
    """Print each argument on its own line (Tensors in their repr); returns None."""
    return Print()(*input_x)

