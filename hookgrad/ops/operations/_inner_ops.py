"""``mindspore.ops.operations._inner_ops``: the Primitives of MindSpore's module of internal ops
that hookgrad has (the same classes as ``ops.<name>``); MindSpore's own tests import Cummin
and CopyWithSlice from here."""
from ...compat.names import reporter as _reporter
from .._base import as_tensor
from ..creation import assign
from ..indexing import SetItem
from ..shaping import _int_tuple
from ._catalog import Cast, Cummin
from ._primitive import Primitive

__all__ = ['Cast', 'CopyWithSlice', 'Cummin', 'TensorCopySlices']
__getattr__ = _reporter('mindspore.ops.operations._inner_ops')


class TensorCopySlices(Primitive):
    """``TensorCopySlices()(x, value, begin, end, strides)``: a copy of ``x`` with the region
    ``x[begin[i]:end[i]]`` (per leading dimension) replaced by ``value``, which has the
    region's shape or its number of elements (taken in row-major order). Gradients: x's is dy
    zeroed over the region, value's is dy over the region.

    As in MindSpore 2.10 every stride must be 1. (MindSpore's CPU kernel further requires the
    region to be one contiguous block of memory; any region is copied here.)

    Raises:
        TypeError: when value's dtype is not x's.
        ValueError: for a stride other than 1, or a value of another size than the region.
    """
    def construct(self, x, value, begin, end, strides):
        x = as_tensor(x, 'x')
        value = as_tensor(value, 'value')
        begin, end, strides = (_int_tuple(a, 'TensorCopySlices', n) for a, n in
                               ((begin, 'begin'), (end, 'end'), (strides, 'strides')))
        if value._data.dtype != x._data.dtype:
            raise TypeError(f"ops.TensorCopySlices: value must have x's dtype {x.dtype}, got "
                            f"{value.dtype}")
        if not len(begin) == len(end) == len(strides) or len(begin) > x.ndim:
            raise ValueError(f"ops.TensorCopySlices: begin {begin}, end {end} and strides "
                             f"{strides} must have one length, at most x's rank {x.ndim}")
        if any(s != 1 for s in strides):
            raise ValueError(f"ops.TensorCopySlices: strides must all be 1, got {strides}")
        key = tuple(slice(b, e) for b, e in zip(begin, end))
        region = x._data[key].shape
        if value.size != x._data[key].size:
            raise ValueError(f"ops.TensorCopySlices: value of shape {value.shape} does not fill "
                             f"the region of shape {region}")
        if value.shape != region:
            value = value.reshape(region)
        return SetItem.apply(x, value, key=key)


class CopyWithSlice(Primitive):
    """``CopyWithSlice()(x, src)``: src's values written into x in place (through x when it is
    a view, such as a transposed tensor); returns x. Nothing is recorded for autograd.

    Raises:
        RuntimeError: as MindSpore: src is not a Tensor, or its shape or dtype is not x's.
    """
    def __init__(self):
        super().__init__(side_effect_mem=True)

    def construct(self, x, src):
        x = as_tensor(x, 'x')
        if not isinstance(src, type(x)):
            raise RuntimeError(f"ops.CopyWithSlice: src must be a Tensor, got "
                               f"{type(src).__name__}")
        if src.shape != x.shape:
            raise RuntimeError(f"ops.CopyWithSlice: src's shape {src.shape} is not x's shape "
                               f"{x.shape}")
        if src.dtype != x.dtype:
            raise RuntimeError(f"ops.CopyWithSlice: src's dtype {src.dtype} is not x's dtype "
                               f"{x.dtype}")
        return assign(x, src)
