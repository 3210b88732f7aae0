"""Tensor's math methods, MindSpore-named; each is a one-line call into ``hookgrad.ops``.

The rest of MindSpore's Tensor methods live by topic in the ``_tensor_methods_*`` mixins that
TensorMethods combines.
"""
from . import (_tensor_methods_info, _tensor_methods_inplace, _tensor_methods_math,
               _tensor_methods_reduce, _tensor_methods_shape)
from ._tensor_methods_info import InfoMethods
from ._tensor_methods_inplace import InplaceMethods
from ._tensor_methods_math import MathMethods
from ._tensor_methods_reduce import ReduceMethods
from ._tensor_methods_shape import ShapeMethods

_ops = None     # bound to hookgrad.ops by _tensor.py once ops exist


def bind_ops(ops):
    """Give every method module ``hookgrad.ops`` (which imports Tensor, so it comes last)."""
    global _ops
    _ops = ops
    for module in (_tensor_methods_info, _tensor_methods_inplace, _tensor_methods_math,
                   _tensor_methods_reduce, _tensor_methods_shape):
        module._ops = ops


class TensorMethods(InfoMethods, MathMethods, ReduceMethods, ShapeMethods, InplaceMethods):
    """Mixin holding the method forms of ops (``x.sum()`` is ``ops.sum(x)``)."""

    __slots__ = ()

    # arithmetic
    def add(self, other):
        return _ops.add(self, other)

    def sub(self, other):
        return _ops.sub(self, other)

    def mul(self, other):
        return _ops.mul(self, other)

    def div(self, other):
        return _ops.div(self, other)

    def neg(self):
        return _ops.neg(self)

    def pow(self, exponent):
        return _ops.pow(self, exponent)

    def square(self):
        return _ops.square(self)

    def matmul(self, other):
        return _ops.matmul(self, other)

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

    def softmax(self, axis=-1):
        return _ops.softmax(self, axis)

    def log_softmax(self, axis=-1):
        return _ops.log_softmax(self, axis)

    def sign(self):
        return _ops.sign(self)

    def reciprocal(self):
        return _ops.reciprocal(self)

    # reductions
    def sum(self, axis=None, dtype=None, keepdims=False, initial=None):
        """Sum over ``axis`` (all axes by default)."""
        y = _ops.sum(self, axis, keepdims, dtype=dtype)
        return y if initial is None else y + initial

    def mean(self, axis=None, keep_dims=False):
        """Mean over ``axis`` (all axes by default)."""
        return _ops.mean(self, axis, keep_dims)

    def prod(self, axis=None, keep_dims=False):
        return _ops.prod(self, axis, keep_dims)

    def max(self, axis=None, keepdims=False, *, return_indices=False):
        """Maximum over ``axis``; with ``return_indices`` also the indices (ops.max's pair)."""
        if return_indices:
            return _ops.max(self, axis, keepdims)
        return _ops.amax(self, axis, keepdims)

    def min(self, axis=None, keepdims=False, *, return_indices=False):
        """Minimum over ``axis``; with ``return_indices`` also the indices (ops.min's pair)."""
        if return_indices:
            return _ops.min(self, axis, keepdims)
        return _ops.amin(self, axis, keepdims)

    def argmax(self, axis=None, keepdims=False):
        return _ops.argmax(self, axis, keepdims)

    def argmin(self, axis=None, keepdims=False):
        return _ops.argmin(self, axis, keepdims)

    def cumsum(self, axis=None, dtype=None):
        return _ops.cumsum(self, 0 if axis is None else axis, dtype=dtype)

    def var(self, axis=None, ddof=0, keepdims=False):
        return _ops.var(self, axis, ddof, keepdims)

    def std(self, axis=None, ddof=0, keepdims=False):
        return _ops.std(self, axis, ddof, keepdims)

    def all(self, axis=None, keep_dims=False):
        return _ops.all(self, axis, keep_dims)

    def any(self, axis=None, keep_dims=False):
        return _ops.any(self, axis, keep_dims)

    # shape
    def reshape(self, *shape):
        """The same values in a new shape (``x.reshape(2, 3)`` or ``x.reshape((2, 3))``)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _ops.reshape(self, shape)

    view = reshape

    def transpose(self, *axes):
        """Permute axes; no arguments reverses them."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
        return _ops.transpose(self, tuple(axes))

    def permute(self, *axis):
        if len(axis) == 1 and isinstance(axis[0], (tuple, list)):
            axis = axis[0]
        return _ops.permute(self, tuple(axis))

    def swapaxes(self, axis0, axis1):
        perm = list(range(self.ndim))
        perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
        return _ops.transpose(self, tuple(perm))

    def squeeze(self, axis=None):
        return _ops.squeeze(self, axis)

    def expand_dims(self, axis):
        return _ops.expand_dims(self, axis)

    def unsqueeze(self, dim):
        return _ops.unsqueeze(self, dim)

    def flatten(self, order='C', *, start_dim=0, end_dim=-1):
        """Flatten dimensions ``start_dim..end_dim`` (all by default, as MindSpore's method)."""
        if order != 'C':
            raise ValueError(f"Tensor.flatten: only order='C' is supported, got {order!r}")
        return _ops.flatten(self, start_dim=start_dim, end_dim=end_dim)

    def ravel(self):
        return _ops.reshape(self, (-1,))

    def broadcast_to(self, shape):
        return _ops.broadcast_to(self, shape)

    def expand_as(self, other):
        return _ops.broadcast_to(self, other.shape)

    def tile(self, reps):
        return _ops.tile(self, reps)

    def flip(self, dims):
        return _ops.flip(self, dims)

    # selection
    def gather(self, input_indices, axis, batch_dims=0):
        return _ops.gather(self, input_indices, axis, batch_dims)

    def index_select(self, axis, index):
        return _ops.index_select(self, axis, index)

    def masked_fill(self, mask, value):
        return _ops.masked_fill(self, mask, value)

    def clip(self, xmin=None, xmax=None):
        return _ops.clamp(self, xmin, xmax)

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
