"""Tensor's math methods, MindSpore-named; each is a call into ``hookgrad.ops``.

Where MindSpore keeps a NumPy-style and a PyTorch-style overload under one name
(``max(axis, keepdims)`` and ``max(dim, keepdim)``, ``transpose(*axes)`` and
``transpose(dim0, dim1)``), the method tells them apart by its arguments, as MindSpore does.
The rest of MindSpore's Tensor methods live by topic in the mixins of this package that
TensorMethods combines.
"""
import numpy as np

from .. import _dtype
from .info import InfoMethods
from .inplace import InplaceMethods
from .numeric import NumericMethods
from .elementwise import MathMethods
from .reductions import ReduceMethods
from .shaping import ShapeMethods
from .internals import InternalMembers

_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


def _is_int(value):
    """A Python or NumPy int, not a bool: what MindSpore's PyTorch-style overloads take."""
    return type(value) is int or isinstance(value, np.integer)


def _extreme(x, largest, dim, keepdim, axis, keepdims, initial, where, return_indices):
    """Tensor.max (``largest``) and Tensor.min: MindSpore's overload for the arguments given."""
    pair, values = (_ops.max, _ops.amax) if largest else (_ops.min, _ops.amin)
    if axis is None and keepdims is None and initial is None and where is None and \
            not return_indices:
        if dim is None:
            return values(x)
        if _is_int(dim):
            return pair(x, dim, keepdim)
    if axis is None:
        axis = dim
    if axis is None:                # NumPy's form: the other arguments change nothing
        y = values(x)
        return (y, _ops.zeros((), _dtype.int64)) if return_indices else y
    keepdims = keepdim if keepdims is None else keepdims
    if return_indices:
        return pair(x, axis, keepdims, initial=initial, where=where)
    return values(x, axis, keepdims, initial=initial, where=where)


def _integer_var(x, axis, ddof, keepdims):
    """MindSpore's variance of an integer tensor: centred on the integer (truncated) mean, the
    squares summed in x's dtype, divided in Float32."""
    centred = _ops.sub(x, _ops.mean(x, axis, True))
    total = _ops.sum(_ops.mul(centred, centred), axis, keepdims, dtype=x.dtype)
    n = x.size // max(total.size, 1)           # elements per result
    return _ops.div(_ops.cast(total, _dtype.float32), n - ddof)


class TensorMethods(InfoMethods, MathMethods, ReduceMethods, ShapeMethods, InplaceMethods,
                    NumericMethods, InternalMembers):
    """Mixin holding the method forms of ops (``x.sum()`` is ``ops.sum(x)``)."""

    __slots__ = ()

    # arithmetic
    def add(self, other, *, alpha=1):
        """``self + alpha * other``."""
        return _ops.add(self, other if alpha == 1 else _ops.mul(other, alpha))

    def sub(self, other=None, *, alpha=1, y=None):
        """``self - alpha * other`` (``y=`` is MindSpore's older keyword for ``other``)."""
        if other is None:
            if y is None:
                raise TypeError("Tensor.sub: missing the tensor to subtract (other)")
            other = y
        return _ops.sub(self, other if alpha == 1 else _ops.mul(other, alpha))

    def mul(self, other):
        return _ops.mul(self, other)

    def div(self, other, *, rounding_mode=None):
        return _ops.div(self, other, rounding_mode=rounding_mode)

    def neg(self):
        return _ops.neg(self)

    def pow(self, exponent):
        return _ops.pow(self, exponent)

    def square(self):
        return _ops.square(self)

    def matmul(self, other):
        return _ops.matmul(self, other)

    # sparse forms
    def to_coo(self):
        """The COOTensor of this 2-d tensor's non-zero entries (``ops.dense_to_sparse_coo``)."""
        return _ops.dense_to_sparse_coo(self)

    def to_csr(self):
        """The CSRTensor of this 2-d tensor's non-zero entries (``ops.dense_to_sparse_csr``)."""
        return _ops.dense_to_sparse_csr(self)

    # unary math and activations
    def exp(self):
        return _ops.exp(self)

    def log(self):
        return _ops.log(self)

    def expm1(self):
        return _ops.expm1(self)

    def log1p(self):
        return _ops.log1p(self)

    def sqrt(self):
        return _ops.sqrt(self)

    def rsqrt(self):
        return _ops.rsqrt(self)

    def abs(self):
        return _ops.abs(self)

    def sin(self):
        return _ops.sin(self)

    def cos(self):
        return _ops.cos(self)

    def tanh(self):
        return _ops.tanh(self)

    def sigmoid(self):
        return _ops.sigmoid(self)

    def relu(self):
        return _ops.relu(self)

    def softmax(self, axis=-1, dtype=None):
        return _ops.softmax(self if dtype is None else _ops.cast(self, dtype), axis)

    def log_softmax(self, axis=-1):
        return _ops.log_softmax(self, axis)

    def sign(self):
        return _ops.sign(self)

    def reciprocal(self):
        return _ops.reciprocal(self)

    # reductions
    def sum(self, axis=None, dtype=None, keepdims=False, initial=None, *, dim=None,
            keepdim=False):
        """Sum over ``axis`` (all axes by default): NumPy's ``sum(axis, dtype, keepdims,
        initial)`` or PyTorch's ``sum(dim, keepdim, *, dtype)`` (a bool second argument is
        ``keepdim``). ``initial`` is added after the sum, with the usual promotion, and a
        Bool ``dtype`` makes the result Bool again, as MindSpore's does."""
        if type(dtype) is bool:
            dtype, keepdims = None, dtype
        y = _ops.sum(self, axis if dim is None else dim, keepdims or keepdim, dtype=dtype)
        if initial is None:
            return y
        y = y + initial
        return _ops.cast(y, dtype) if dtype is not None and \
            _dtype.to_dtype(dtype) == _dtype.bool_ else y

    def mean(self, axis=None, keep_dims=False, *, dtype=None, dim=None, keepdim=False):
        """Mean over ``axis`` (all axes by default); ``dtype`` converts first. An integer tensor
        keeps its dtype (``ops.mean``)."""
        x = self if dtype is None else _ops.cast(self, dtype)
        return _ops.mean(x, axis if dim is None else dim, keep_dims or keepdim)

    def prod(self, axis=None, keep_dims=False, dtype=None, *, dim=None, keepdim=False):
        """Product over ``axis`` (all axes by default); ``dtype`` converts first."""
        if dtype is None:
            return _ops.prod(self, axis if dim is None else dim, keep_dims or keepdim)
        y = _ops.prod(_ops.cast(self, dtype), axis if dim is None else dim, keep_dims or keepdim)
        return _ops.cast(y, dtype)

    def max(self, dim=None, keepdim=False, *, axis=None, keepdims=None, initial=None, where=None,
            return_indices=False):
        """MindSpore's three overloads: ``max()``, the maximum; ``max(dim, keepdim=False)`` (an
        int dim and no NumPy keyword), ``(values, indices)`` with Int64 indices;
        ``max(axis, keepdims=False, *, initial, where, return_indices)`` (a tuple, list or None
        axis, or ``axis=`` or another of its keywords), the values, and the indices too with
        ``return_indices``. With axis None the NumPy form ignores its other arguments (index 0).
        """
        return _extreme(self, True, dim, keepdim, axis, keepdims, initial, where, return_indices)

    def min(self, dim=None, keepdim=False, *, axis=None, keepdims=None, initial=None, where=None,
            return_indices=False):
        """MindSpore's three overloads, as ``max``: ``min()``, ``min(dim, keepdim=False)`` giving
        ``(values, indices)``, and ``min(axis, keepdims=False, *, initial, where,
        return_indices)``."""
        return _extreme(self, False, dim, keepdim, axis, keepdims, initial, where, return_indices)

    def argmax(self, axis=None, keepdims=False, *, dim=None, keepdim=False):
        """Int64 index of the maximum over ``axis`` (of the flattened tensor when None)."""
        return _ops.argmax(self, axis if dim is None else dim, keepdims or keepdim)

    def argmin(self, axis=None, keepdims=False, *, dim=None, keepdim=False):
        """Int32 index of the minimum over ``axis`` (of the flattened tensor when None)."""
        return _ops.argmin(self, axis if dim is None else dim, keepdims or keepdim)

    def cumsum(self, axis=None, dtype=None, *, dim=None):
        """Running sum along ``axis`` (of the flattened tensor when None). As MindSpore's, Bool,
        Int8, Int16 and UInt8 tensors sum in Int32 and other dtypes are kept; ``dtype`` converts
        the result."""
        if dim is not None:
            axis = dim
        x = self if axis is not None else _ops.reshape(self, (-1,))
        if x._data.dtype.kind == 'b' or (x._data.dtype.kind in 'iu' and x._data.itemsize < 4):
            x = _ops.cast(x, _dtype.int32)
        y = _ops.cumsum(x, 0 if axis is None else axis)
        return y if dtype is None else _ops.cast(y, dtype)

    def var(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None,
            keepdim=False):
        """NumPy's ``var(axis, ddof=0, keepdims=False)``, or PyTorch's ``var(dim, *,
        correction=1, keepdim=False)`` when one of its keywords is given. An integer tensor is
        centred on its integer (truncated) mean, as MindSpore's."""
        if dim is not None or correction is not None or keepdim:
            axis = axis if dim is None else dim
            ddof, keepdims = 1 if correction is None else correction, keepdim
        if self._data.dtype.kind in 'iu':
            return _integer_var(self, axis, ddof, keepdims)
        return _ops.var(self, axis, ddof, keepdims)

    def std(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None,
            keepdim=False):
        """NumPy's ``std(axis, ddof=0, keepdims=False)``, or PyTorch's ``std(dim, *,
        correction=1, keepdim=False)`` when one of its keywords is given."""
        if dim is not None or correction is not None or keepdim:
            axis = axis if dim is None else dim
            ddof, keepdims = 1 if correction is None else correction, keepdim
        if self._data.dtype.kind in 'iu':
            return _ops.sqrt(_integer_var(self, axis, ddof, keepdims))
        return _ops.std(self, axis, ddof, keepdims)

    def all(self, axis=None, keep_dims=False, *, dim=None, keepdim=False):
        return _ops.all(self, axis if dim is None else dim, keep_dims or keepdim)

    def any(self, axis=None, keep_dims=False, *, dim=None, keepdim=False):
        return _ops.any(self, axis if dim is None else dim, keep_dims or keepdim)

    def to(self, dtype=None, non_blocking=False, copy=False, *, other=None, device=None):
        """``astype(dtype)``; a Tensor (``other``) lends its dtype and device; a device name
        ('CPU', 'GPU', first or as ``device=``) moves the tensor there."""
        if other is not None:
            dtype = other
        if isinstance(dtype, str) and device is None and dtype in ('CPU', 'GPU', 'Ascend'):
            dtype, device = None, dtype
        if hasattr(dtype, '_data'):
            device = device or dtype.device.split(':')[0]
            dtype = dtype.dtype
        out = self if dtype is None else _ops.cast(self, dtype)
        if device is not None and out.device.split(':')[0] != device:
            out = _ops.move_to(out, device)
        return out

    # shape
    def reshape(self, *shape):
        """The same values in a new shape (``x.reshape(2, 3)`` or ``x.reshape((2, 3))``)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _ops.reshape(self, shape)

    def view(self, *shape, dtype=None):
        """``reshape(*shape)``; ``view(dtype)`` reads the same bytes as ``dtype`` (a new tensor
        without gradient, its last dimension scaled by the ratio of the item sizes)."""
        if dtype is not None:
            if shape:
                raise TypeError("Tensor.view: give a shape or dtype=, not both")
            shape = (dtype,)
        if len(shape) == 1 and isinstance(shape[0], _dtype.DType):
            data = self.detach()._data.view(_dtype.to_numpy(shape[0]))
            if type(data) is np.ndarray:
                return self.from_numpy(data)
            from .tensor import Tensor
            return Tensor._wrap(data)       # the same bytes, on their device
        return self.reshape(*shape)

    def transpose(self, *axes, dim0=None, dim1=None):
        """``transpose(dim0, dim1)`` (two ints) swaps two dimensions; ``transpose(*axes)`` or
        ``transpose(axes)`` permutes them, and no axes (or None) reverses them."""
        if len(axes) == 2 and _is_int(axes[0]) and _is_int(axes[1]):
            dim0, dim1 = axes
        if dim0 is not None:
            perm = list(range(self._data.ndim))
            try:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
            except IndexError:      # out of range, or a 0-d tensor: ops.swapaxes says which
                return _ops.swapaxes(self, dim0, dim1)
            return _ops.transpose(self, tuple(perm))
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0] or ()
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
        return _ops.transpose(self, tuple(axes))

    def permute(self, *axis, dims=None):
        if dims is not None:
            axis = dims
        elif len(axis) == 1 and isinstance(axis[0], (tuple, list)):
            axis = axis[0]
        return _ops.permute(self, tuple(axis))

    def swapaxes(self, axis0, axis1):
        return _ops.swapaxes(self, axis0, axis1)

    def squeeze(self, axis=None):
        """Drop the dimensions of size 1 among ``axis`` (all of them when None); as in
        MindSpore, a named dimension of another size is kept."""
        if axis is not None:
            axes = axis if isinstance(axis, (tuple, list)) else (axis,)
            axis = tuple(a for a in axes if self.shape[a] == 1)
            if not axis:
                return _ops.reshape(self, self.shape)
        return _ops.squeeze(self, axis)

    def expand_dims(self, axis):
        return _ops.expand_dims(self, axis)

    def unsqueeze(self, dim=None, *, axis=None):
        return _ops.unsqueeze(self, axis if dim is None else dim)

    def flatten(self, start_dim=0, end_dim=-1, *, order='C'):
        """Flatten dimensions ``start_dim..end_dim`` (all by default): PyTorch's
        ``flatten(start_dim, end_dim)``, or NumPy's ``flatten(order, *, start_dim, end_dim)``
        when the first argument is ``'C'`` or ``'F'`` (column-major order)."""
        if isinstance(start_dim, str):
            start_dim, order = 0, start_dim
        if order == 'F':
            return _ops.reshape(_ops.transpose(self, tuple(range(self.ndim - 1, -1, -1))), (-1,))
        if order != 'C':
            raise ValueError(f"Tensor.flatten: order must be 'C' or 'F', got {order!r}")
        return _ops.flatten(self, start_dim=start_dim, end_dim=end_dim)

    def ravel(self):
        return _ops.reshape(self, (-1,))

    def broadcast_to(self, shape):
        return _ops.broadcast_to(self, shape)

    def expand_as(self, other):
        return _ops.broadcast_to(self, other.shape)

    def tile(self, reps=None, *, dims=None):
        return _ops.tile(self, dims if reps is None else reps)

    def flip(self, dims):
        return _ops.flip(self, dims)

    # selection
    def gather(self, input_indices=None, axis=None, batch_dims=0, *, dim=None, index=None):
        """NumPy's ``gather(input_indices, axis, batch_dims=0)`` (``ops.gather``), or PyTorch's
        ``gather(dim, index)`` (an int first, or ``dim=``): ``ops.gather_elements``."""
        if dim is not None:
            return _ops.gather_elements(self, dim, index if axis is None else axis)
        if _is_int(input_indices):
            return _ops.gather_elements(self, input_indices, axis if index is None else index)
        return _ops.gather(self, input_indices, axis, batch_dims)

    def index_select(self, axis=None, index=None, *, dim=None):
        return _ops.index_select(self, axis if dim is None else dim, index)

    def masked_fill(self, mask, value):
        return _ops.masked_fill(self, mask, value)

    def clip(self, min=None, max=None):
        return _ops.clamp(self, min, max)

    def clamp(self, min=None, max=None):
        return _ops.clamp(self, min, max)

    def maximum(self, other):
        return _ops.maximum(self, other)

    def minimum(self, other):
        return _ops.minimum(self, other)

    def isnan(self):
        return _ops.isnan(self)

    def isinf(self):
        return _ops.isinf(self)

    def isfinite(self):
        return _ops.isfinite(self)
