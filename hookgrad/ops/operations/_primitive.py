"""The ``Primitive`` base class, the argument checks every Primitive module shares, and the
Primitives of hookgrad's basic ops: the five reductions, matrix products, arithmetic,
activations, shapes, dtype and creation, comparisons, graph control and dropout.

A Primitive is configured once, then called on tensors. Each class is a thin callable over the
functional op it names, so ``ops.ReduceSum(True)(x, 1)`` and ``ops.reduce_sum(x, 1, True)``
run the same code, record the same graph and raise the same errors. Call signatures follow
MindSpore's Primitives (``ops.Concat(axis)(tensors)``...). The other Primitives live beside
this module, one module per subject (``_elementwise.py``, ``_image.py``...).
"""
import math
import numbers

import numpy as np

from ..._dtype import int32 as _int32
from ..._dtype import int64 as _int64
from ..._dtype import to_numpy
from ..._tensor import Tensor
from ...kernels.backend import device_of, to_device
from .._base import as_tensor, normalize_axis
from ..activation import gelu, log_softmax, relu, sigmoid, softmax
from ..arithmetic import add, cast, div, identity, mul, neg, pow, square, sub
from ..comparison import (equal, ge, gt, le, lt, maximum, minimum, ne)
from ..creation import assign, fill, one_hot, ones_like, stop_gradient, zeros_like
from ..indexing import gather, where
from ..linalg import dense, matmul, mm
from ..random import (check_keep_prob, dropout2d_with_mask, dropout_with_mask,
                     primitive_generator)
from ..reduction import max as _max_with_index
from ..reduction import argmax, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum
from ..shaping import concat, expand_dims, reshape, split, squeeze, stack, tile, transpose
from ..unary import abs, cos, exp, log, rsqrt, sin, sqrt, tanh
from ._attributes import PrimitiveAttributes

__all__ = [
    'Primitive',
    'ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd',
    'MatMul', 'BatchMatMul', 'Dense',
    'Add', 'Sub', 'Mul', 'Div', 'RealDiv', 'Neg', 'Pow', 'Square',
    'Exp', 'Log', 'Sqrt', 'Rsqrt', 'Abs', 'Sin', 'Cos', 'Tanh',
    'Sigmoid', 'ReLU', 'GeLU', 'Softmax', 'LogSoftmax',
    'Reshape', 'Transpose', 'ExpandDims', 'Squeeze', 'Concat', 'Stack', 'Split', 'Tile',
    'Flatten', 'Gather', 'Cast', 'Fill', 'OnesLike', 'ZerosLike',
    'Maximum', 'Minimum', 'Equal', 'NotEqual', 'Greater', 'GreaterEqual', 'Less', 'LessEqual',
    'Select', 'Argmax', 'ArgMaxWithValue', 'OneHot', 'Assign', 'Identity', 'StopGradient',
    'Dropout', 'Dropout2D',
]


class Primitive(PrimitiveAttributes):
    """Base class: the constructor takes the op's attributes, calling it runs ``construct``.

    ``name`` is the class name; ``attrs`` holds the constructor's attributes (shown by repr).
    Calling an instance is calling its ``construct`` directly (bound once per class, so a call
    costs no extra frame).
    """

    name = 'Primitive'

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.name = cls.__name__
        if 'construct' in cls.__dict__ and '__call__' not in cls.__dict__:
            cls.__call__ = cls.__dict__['construct']

    def __init__(self, **attrs):
        self.attrs = attrs
        self.__dict__.update(attrs)

    def __call__(self, *args, **kwargs):
        construct = getattr(self, 'construct', None)
        if construct is None:
            raise TypeError(f"{type(self).__name__} defines no construct")
        return construct(*args, **kwargs)

    def __repr__(self):
        if not self.attrs:
            return f"Prim[{self.name}]"
        inner = ', '.join(f"{k}={v!r}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]<{inner}>"


def _flag(value, prim, what):
    if not isinstance(value, bool):
        raise TypeError(f"ops.{prim}: {what} must be a bool, got {value!r}")
    return value


def _int(value, prim, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{prim}: {what} must be an int, got {value!r}")
    return int(value)


def _float(value, prim, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{prim}: {what} must be a float, got {value!r}")
    return float(value)


def _constant(array, like):
    """Host data ``array`` as a constant Tensor on the device of the Tensor ``like``."""
    return Tensor._wrap(to_device(array, device_of(like._data)))


def _int_dtype(dtype, prim, what):
    if to_numpy(dtype) not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"ops.{prim}: {what} must be Int32 or Int64, got {dtype}")
    return dtype


# ----------------------------------------------------------------------------- reductions
class _Reduce(Primitive):
    def __init__(self, keep_dims=False):
        super().__init__(keep_dims=_flag(keep_dims, type(self).__name__, 'keep_dims'))


class ReduceSum(_Reduce):
    """``ReduceSum(keep_dims=False)(x, axis=())``: sum over ``axis`` (() for all axes)."""
    def construct(self, x, axis=()):
        return reduce_sum(x, axis, self.keep_dims)


class ReduceMean(_Reduce):
    """``ReduceMean(keep_dims=False)(x, axis=())``: mean over ``axis`` (() for all axes)."""
    def construct(self, x, axis=()):
        return reduce_mean(x, axis, self.keep_dims)


class ReduceMax(_Reduce):
    """``ReduceMax(keep_dims=False)(x, axis=())``: maximum over ``axis`` (() for all axes)."""
    def construct(self, x, axis=()):
        return reduce_max(x, axis, self.keep_dims)


class ReduceMin(_Reduce):
    """``ReduceMin(keep_dims=False)(x, axis=())``: minimum over ``axis`` (() for all axes)."""
    def construct(self, x, axis=()):
        return reduce_min(x, axis, self.keep_dims)


class ReduceProd(_Reduce):
    """``ReduceProd(keep_dims=False)(x, axis=())``: product over ``axis`` (() for all axes)."""
    def construct(self, x, axis=()):
        return reduce_prod(x, axis, self.keep_dims)


# ----------------------------------------------------------------------------- matrix products
def _swap_last(x, prim, what):
    x = as_tensor(x)
    n = x.ndim
    if n < 2:
        raise ValueError(f"ops.{prim}: {what} needs a tensor of rank >= 2, got shape {x.shape}")
    return transpose(x, tuple(range(n - 2)) + (n - 1, n - 2))


class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)``: product of two 2-d tensors."""
    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__(transpose_a=_flag(transpose_a, 'MatMul', 'transpose_a'),
                         transpose_b=_flag(transpose_b, 'MatMul', 'transpose_b'))

    def construct(self, x, y):
        if self.transpose_a:
            x = _swap_last(x, 'MatMul', 'transpose_a')
        if self.transpose_b:
            y = _swap_last(y, 'MatMul', 'transpose_b')
        return mm(x, y)


class Dense(Primitive):
    """``Dense()(x, w, b=None)``: ``ops.dense``, the linear layer ``x @ w.T + b``."""
    def construct(self, x, w, b=None):
        return dense(x, w, b)


class BatchMatMul(Primitive):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``: batched matrix product."""
    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__(transpose_a=_flag(transpose_a, 'BatchMatMul', 'transpose_a'),
                         transpose_b=_flag(transpose_b, 'BatchMatMul', 'transpose_b'))

    def construct(self, x, y):
        if self.transpose_a:
            x = _swap_last(x, 'BatchMatMul', 'transpose_a')
        if self.transpose_b:
            y = _swap_last(y, 'BatchMatMul', 'transpose_b')
        return matmul(x, y)


# ----------------------------------------------------------------------------- element-wise
class Add(Primitive):
    """``Add()(x, y)``: ``x + y`` with broadcasting."""
    def construct(self, x, y):
        return add(x, y)


class Sub(Primitive):
    """``Sub()(x, y)``: ``x - y`` with broadcasting."""
    def construct(self, x, y):
        return sub(x, y)


class Mul(Primitive):
    """``Mul()(x, y)``: ``x * y`` with broadcasting."""
    def construct(self, x, y):
        return mul(x, y)


class Div(Primitive):
    """``Div()(x, y)``: ``x / y`` with broadcasting."""
    def construct(self, x, y):
        return div(x, y)


class RealDiv(Primitive):
    """``RealDiv()(x, y)``: ``x / y`` with broadcasting."""
    def construct(self, x, y):
        return div(x, y)


class Neg(Primitive):
    """``Neg()(x)``: ``-x``."""
    def construct(self, x):
        return neg(x)


class Pow(Primitive):
    """``Pow()(x, y)``: ``x ** y`` with broadcasting."""
    def construct(self, x, y):
        return pow(x, y)


class Square(Primitive):
    """``Square()(x)``: ``x * x``."""
    def construct(self, x):
        return square(x)


class Exp(Primitive):
    """``Exp()(x)``: ``e ** x``."""
    def construct(self, x):
        return exp(x)


class Log(Primitive):
    """``Log()(x)``: natural logarithm."""
    def construct(self, x):
        return log(x)


class Sqrt(Primitive):
    """``Sqrt()(x)``: square root."""
    def construct(self, x):
        return sqrt(x)


class Rsqrt(Primitive):
    """``Rsqrt()(x)``: ``1 / sqrt(x)``."""
    def construct(self, x):
        return rsqrt(x)


class Abs(Primitive):
    """``Abs()(x)``: absolute value."""
    def construct(self, x):
        return abs(x)


class Sin(Primitive):
    """``Sin()(x)``: sine."""
    def construct(self, x):
        return sin(x)


class Cos(Primitive):
    """``Cos()(x)``: cosine."""
    def construct(self, x):
        return cos(x)


class Tanh(Primitive):
    """``Tanh()(x)``: hyperbolic tangent."""
    def construct(self, x):
        return tanh(x)


class Sigmoid(Primitive):
    """``Sigmoid()(x)``: logistic function."""
    def construct(self, x):
        return sigmoid(x)


class ReLU(Primitive):
    """``ReLU()(x)``: ``max(x, 0)``."""
    def construct(self, x):
        return relu(x)


class GeLU(Primitive):
    """``GeLU()(x)``: GELU with the tanh approximation, as MindSpore's GeLU primitive computes."""
    def construct(self, x):
        return gelu(x, approximate='tanh')


class Softmax(Primitive):
    """``Softmax(axis=-1)(x)``: softmax along ``axis``."""
    def __init__(self, axis=-1):
        super().__init__(axis=axis)

    def construct(self, x):
        return softmax(x, self.axis)


class LogSoftmax(Primitive):
    """``LogSoftmax(axis=-1)(x)``: log-softmax along ``axis``."""
    def __init__(self, axis=-1):
        super().__init__(axis=axis)

    def construct(self, x):
        return log_softmax(x, self.axis)


# ----------------------------------------------------------------------------- shapes
class Reshape(Primitive):
    """``Reshape()(x, shape)``."""
    def construct(self, x, shape):
        return reshape(x, shape)


class Transpose(Primitive):
    """``Transpose()(x, perm)``: axis i of the result is axis ``perm[i]`` of x."""
    def construct(self, x, perm):
        return transpose(x, perm)


class ExpandDims(Primitive):
    """``ExpandDims()(x, axis)``: a size-1 dimension inserted at ``axis``."""
    def construct(self, x, axis):
        return expand_dims(x, axis)


class Squeeze(Primitive):
    """``Squeeze(axis=())(x)``: size-1 dimensions removed (all of them for ``axis=()``)."""
    def __init__(self, axis=()):
        super().__init__(axis=axis)

    def construct(self, x):
        axis = self.axis
        return squeeze(x, None if axis == () or axis == [] else axis)


class Concat(Primitive):
    """``Concat(axis=0)(tensors)``: a tuple or list of tensors joined along ``axis``."""
    def __init__(self, axis=0):
        super().__init__(axis=axis)

    def construct(self, tensors):
        return concat(tensors, self.axis)


class Stack(Primitive):
    """``Stack(axis=0)(tensors)``: equally shaped tensors stacked along a new ``axis``."""
    def __init__(self, axis=0):
        super().__init__(axis=axis)

    def construct(self, tensors):
        return stack(tensors, self.axis)


class Split(Primitive):
    """``Split(axis=0, output_num=1)(x)``: ``output_num`` equal pieces along ``axis`` (a tuple).

    Raises:
        ValueError: when the size of ``axis`` is not divisible by ``output_num``.
    """
    def __init__(self, axis=0, output_num=1):
        if not isinstance(output_num, int) or isinstance(output_num, bool) or output_num < 1:
            raise ValueError(f"ops.Split: output_num must be a positive int, got {output_num!r}")
        super().__init__(axis=axis, output_num=output_num)

    def construct(self, x):
        x = as_tensor(x)
        if x.ndim == 0:
            raise ValueError("ops.Split: cannot split a 0-d tensor")
        axis = normalize_axis(self.axis, x.ndim, 'Split')
        size, n = x.shape[axis], self.output_num
        if size % n:
            raise ValueError(f"ops.Split: axis {self.axis} of shape {x.shape} has size {size}, "
                             f"which is not divisible by output_num {n}")
        return split(x, [size // n] * n, axis)


class Tile(Primitive):
    """``Tile()(x, multiples)``: x repeated ``multiples[i]`` times along axis i."""
    def construct(self, x, multiples):
        return tile(x, multiples)


class Flatten(Primitive):
    """``Flatten()(x)``: shape (N, ...) to (N, X), keeping dimension 0 (a 1-d x gives (N, 1)).

    Raises:
        ValueError: for a 0-d tensor.
    """
    def construct(self, x):
        x = as_tensor(x)
        if x.ndim == 0:
            raise ValueError("ops.Flatten: expected a tensor of rank >= 1, got shape ()")
        return reshape(x, (x.shape[0], math.prod(x.shape[1:])))


class Gather(Primitive):
    """``Gather(batch_dims=0)(params, indices, axis)``: slices of params at indices."""
    def __init__(self, batch_dims=0):
        super().__init__(batch_dims=batch_dims)

    def construct(self, input_params, input_indices, axis):
        return gather(input_params, input_indices, axis, self.batch_dims)


# ----------------------------------------------------------------------------- dtype, creation
class Cast(Primitive):
    """``Cast()(x, dtype)``."""
    def construct(self, x, dtype):
        return cast(x, dtype)


class Fill(Primitive):
    """``Fill()(dtype, shape, value)``: a tensor of ``shape`` filled with ``value``."""
    def construct(self, type, shape, value):
        return fill(type, shape, value)


class OnesLike(Primitive):
    """``OnesLike()(x)``: ones with x's shape and dtype."""
    def construct(self, x):
        return ones_like(x)


class ZerosLike(Primitive):
    """``ZerosLike()(x)``: zeros with x's shape and dtype."""
    def construct(self, x):
        return zeros_like(x)


class OneHot(Primitive):
    """``OneHot(axis=-1)(indices, depth, on_value, off_value)``."""
    def __init__(self, axis=-1):
        super().__init__(axis=axis)

    def construct(self, indices, depth, on_value, off_value):
        return one_hot(indices, depth, on_value, off_value, self.axis)


# ----------------------------------------------------------------------------- comparisons
class Maximum(Primitive):
    """``Maximum()(x, y)``: element-wise maximum (ties split the gradient)."""
    def construct(self, x, y):
        return maximum(x, y)


class Minimum(Primitive):
    """``Minimum()(x, y)``: element-wise minimum (ties split the gradient)."""
    def construct(self, x, y):
        return minimum(x, y)


class Equal(Primitive):
    """``Equal()(x, y)``: Bool ``x == y``."""
    def construct(self, x, y):
        return equal(x, y)


class NotEqual(Primitive):
    """``NotEqual()(x, y)``: Bool ``x != y``."""
    def construct(self, x, y):
        return ne(x, y)


class Greater(Primitive):
    """``Greater()(x, y)``: Bool ``x > y``."""
    def construct(self, x, y):
        return gt(x, y)


class GreaterEqual(Primitive):
    """``GreaterEqual()(x, y)``: Bool ``x >= y``."""
    def construct(self, x, y):
        return ge(x, y)


class Less(Primitive):
    """``Less()(x, y)``: Bool ``x < y``."""
    def construct(self, x, y):
        return lt(x, y)


class LessEqual(Primitive):
    """``LessEqual()(x, y)``: Bool ``x <= y``."""
    def construct(self, x, y):
        return le(x, y)


class Select(Primitive):
    """``Select()(cond, x, y)``: x where cond holds, else y."""
    def construct(self, cond, x, y):
        return where(cond, x, y)


class Argmax(Primitive):
    """``Argmax(axis=-1, output_type=int32)(x)``: index of the maximum along ``axis``."""
    def __init__(self, axis=-1, output_type=_int32):
        if output_type not in (_int32, _int64):
            raise ValueError(f"ops.Argmax: output_type must be mindspore.int32 or "
                             f"mindspore.int64, got {output_type!r}")
        super().__init__(axis=axis, output_type=output_type)

    def construct(self, x):
        return cast(argmax(x, self.axis), self.output_type)


class ArgMaxWithValue(Primitive):
    """``ArgMaxWithValue(axis=0, keep_dims=False)(x)``: ``(index, values)`` of the maximum.

    The index is Int64, as MindSpore 2.10's; the values carry the gradient.
    """
    def __init__(self, axis=0, keep_dims=False):
        super().__init__(axis=axis, keep_dims=_flag(keep_dims, 'ArgMaxWithValue', 'keep_dims'))

    def construct(self, x):
        values, index = _max_with_index(x, self.axis, self.keep_dims)
        return cast(index, _int64), values


# ----------------------------------------------------------------------------- graph control
class Assign(Primitive):
    """``Assign()(variable, value)``: value written into variable in place; returns variable."""
    def construct(self, variable, value):
        return assign(variable, value)


class Identity(Primitive):
    """``Identity()(x)``: x as a new graph node."""
    def construct(self, x):
        return identity(x)


class StopGradient(Primitive):
    """``StopGradient()(x)``: x cut from the graph."""
    def construct(self, x):
        return stop_gradient(x)


# ----------------------------------------------------------------------------- random
class Dropout(Primitive):
    """``Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)``: ``(output, mask)``, each element kept
    with probability ``keep_prob`` and scaled by ``1 / keep_prob``.

    The mask is 0/1 in x's dtype and shape (MindSpore's CPU/GPU form). With both seeds 0 the
    masks come from the global generator (``ms.set_seed``); otherwise from this primitive's own
    generator, seeded with ``(Seed0, Seed1)``, so its sequence of masks repeats from run to run.

    Raises:
        TypeError: when ``keep_prob`` is not a number or a seed is not an int.
        ValueError: when ``keep_prob`` is outside (0, 1] or a seed is negative.
    """
    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        check_keep_prob(keep_prob, 'Dropout', allow_zero=False)
        rng = primitive_generator(Seed0, Seed1, 'Dropout')
        super().__init__(keep_prob=keep_prob, Seed0=Seed0, Seed1=Seed1)
        self._rng = rng

    def construct(self, x):
        return dropout_with_mask(x, self.keep_prob, self._rng)


class Dropout2D(Primitive):
    """``Dropout2D(keep_prob=0.5)(x)``: ``(output, mask)`` for an (N, C, H, W) x, each channel
    ``x[n, c]`` kept whole with probability ``keep_prob`` and scaled by ``1 / keep_prob``.

    The mask is Bool with x's shape; keep_prob 0 gives zeros.

    Raises:
        TypeError: when ``keep_prob`` is not a number.
        ValueError: when ``keep_prob`` is outside [0, 1], or x is not 4-d.
    """
    def __init__(self, keep_prob=0.5):
        check_keep_prob(keep_prob, 'Dropout2D', allow_zero=True)
        super().__init__(keep_prob=keep_prob)

    def construct(self, x):
        return dropout2d_with_mask(x, self.keep_prob)
