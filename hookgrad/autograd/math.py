"""The math namespace backward rules are written against, in two interchangeable forms.

``array_math`` works on raw arrays (the fast first-order path); ``tensor_math`` has the same
functions over Tensors, recording a graph, and is filled in by ``hookgrad.ops`` once the ops
exist. A backward rule uses only operators and ``ctx.m.<name>``, so one rule serves both.
"""
import numpy as np

from ..kernels.backend import array_module
from ..kernels.complex_parts import from_parts
from ..kernels.erf import erf_array
from ..kernels.half import BFLOAT16, add_reduce
from ..kernels.threads import half_matmul


def _sum_to(x, shape):
    """Sum ``x`` down to ``shape`` (the adjoint of broadcasting)."""
    have = x.shape
    if have == shape:
        return x
    axis, keepdims = summed_axes(have, shape)
    x = np.add.reduce(x, axis=axis, keepdims=keepdims) if x.dtype is not BFLOAT16 else \
        add_reduce(x, axis, keepdims)
    return x.reshape(shape) if keepdims and len(have) != len(shape) else x


def summed_axes(have, shape):
    """``(axis, keepdims)`` of the ``np.add.reduce`` that sums an array of shape ``have`` down
    to ``shape`` (then reshaped to ``shape`` when keepdims and the ranks differ)."""
    lead = len(have) - len(shape)
    if have[lead:] == shape:        # only leading axes: the sum has the shape already
        return (0 if lead == 1 else tuple(range(lead))), False
    kept = tuple(i + lead for i, n in enumerate(shape) if n == 1 and have[i + lead] != 1)
    return tuple(range(lead)) + kept, True


def _broadcast_to(x, shape):
    """``x`` broadcast to ``shape``: a read-only view, or for one value a filled array (as
    cheap to make, and writeable)."""
    if x.ndim == 0:
        return array_module(x).full(shape, x)
    return np.broadcast_to(x, shape)


def _is_basic(key):
    """True for keys of ints, slices, None and Ellipsis: no position can repeat."""
    parts = key if type(key) is tuple else (key,)
    return all(k is None or k is Ellipsis or type(k) in (int, slice) for k in parts)


def _unindex(g, shape, key):
    """Adjoint of ``x[key]``: ``g`` scattered (added) into zeros of ``shape``."""
    xp = array_module(g)
    out = xp.zeros(shape, dtype=g.dtype)
    if _is_basic(key):
        out[key] = g
    else:
        xp.add.at(out, key, g)
    return out


def _untake(g, shape, indices, axis):
    """Adjoint of ``take(x, indices, axis)``: ``g`` added into zeros of ``shape`` along axis."""
    xp = array_module(g)
    out = xp.zeros(shape, dtype=g.dtype)
    idx = [slice(None)] * len(shape)
    idx[axis] = indices
    if np.ndim(indices) > 1:
        # take with n-d indices: fold the index dims of g back onto ``axis``
        g = g.reshape(g.shape[:axis] + (-1,) + g.shape[axis + np.ndim(indices):])
        idx[axis] = np.reshape(indices, -1)
    xp.add.at(out, tuple(idx), g)
    return out


class _ArrayMath:
    """Raw-array implementations: NumPy's functions, which take the arrays of every device
(CuPy's, the CUDA stand-in's) through NumPy's dispatch protocols; allocations and conversions
use the array's own module."""

    exp = staticmethod(np.exp)
    log = staticmethod(np.log)
    sqrt = staticmethod(np.sqrt)
    sin = staticmethod(np.sin)
    cos = staticmethod(np.cos)
    tanh = staticmethod(np.tanh)
    sign = staticmethod(np.sign)
    abs = staticmethod(np.abs)
    where = staticmethod(np.where)
    maximum = staticmethod(np.maximum)
    minimum = staticmethod(np.minimum)
    matmul = staticmethod(half_matmul)    # np.matmul; float16 in float32 (kernels/threads)
    zeros_like = staticmethod(np.zeros_like)
    ones_like = staticmethod(np.ones_like)
    broadcast_to = staticmethod(_broadcast_to)
    reshape = staticmethod(np.reshape)
    transpose = staticmethod(np.transpose)
    expand_dims = staticmethod(np.expand_dims)
    flip = staticmethod(np.flip)
    cumsum = staticmethod(np.cumsum)
    prod = staticmethod(np.prod)
    sum_to = staticmethod(_sum_to)
    unindex = staticmethod(_unindex)
    untake = staticmethod(_untake)

    @staticmethod
    def sum(x, axis=None, keepdims=False):
        if x.dtype is BFLOAT16:
            return add_reduce(x, axis, keepdims)
        return array_module(x).asarray(x.sum(axis=axis, keepdims=keepdims))

    @staticmethod
    def concat(xs, axis=0):
        return np.concatenate(xs, axis=axis)

    @staticmethod
    def cast(x, np_dtype):
        return x.astype(np_dtype, copy=False)

    @staticmethod
    def getitem(x, key):
        return x[key]

    @staticmethod
    def take(x, indices, axis):
        return np.take(x, indices, axis=axis)

    erf = staticmethod(erf_array)
    real = staticmethod(np.real)
    imag = staticmethod(np.imag)
    conj = staticmethod(np.conj)

    make_complex = staticmethod(from_parts)

    @staticmethod
    def fft_c2c(x, s, axes, norm, inverse):
        """The n-d discrete Fourier transform of ``x`` over ``axes`` (inverse: its inverse), x
        padded or cropped to ``s``; Complex128 for float64/complex128 ``x``, else Complex64."""
        fft = array_module(x).fft
        y = (fft.ifftn if inverse else fft.fftn)(x, s, axes, norm)
        return y.astype(np.complex128 if x.dtype in (np.float64, np.complex128) else
                        np.complex64, copy=False)


class _TensorMath:
    """Tensor implementations: names resolve to ``hookgrad.ops`` functions on first use."""

    def __getattr__(self, name):
        from .. import ops
        target = ops.TENSOR_MATH.get(name)
        if target is None:
            raise AttributeError(f"tensor_math has no function {name!r}")
        fn = getattr(ops, target)
        setattr(self, name, fn)
        return fn


array_math = _ArrayMath()
tensor_math = _TensorMath()
