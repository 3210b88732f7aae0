"""MindSpore functions written with other families' ops: ``aminmax``, ``batch_dot``,
``approximate_equal``, ``accumulate_n`` and ``bernoulli``. They record no op of their own, so
their gradients are those of the ops they apply.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..kernels import backend
from . import (arithmetic, comparison, elementwise, linalg, reduction, sampling, shaping, unary)
from ._base import operands

_FLOATING = ('float16', 'float32', 'float64')


def aminmax(input, *, axis=0, keepdims=False):
    """``(minimum, maximum)`` of ``input`` along ``axis`` (every element when None).

    The gradient of each goes to the first extreme element of its slice, as MindSpore's.

    Args:
        input (Tensor): the values.
        axis (Union[int, None]): the dimension to reduce. Default: 0.
        keepdims (bool): keep the reduced dimension with size 1. Default: False.

    Raises:
        TypeError: input is not a Tensor, axis not an int or None, keepdims not a bool.
        ValueError: axis is out of range.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.aminmax: input must be a Tensor, got {type(input).__name__}")
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, numbers.Integral)):
        raise TypeError(f"ops.aminmax: axis must be an int or None, got {axis!r}")
    if not isinstance(keepdims, bool):
        raise TypeError(f"ops.aminmax: keepdims must be a bool, got {keepdims!r}")
    if axis is not None and not -max(input.ndim, 1) <= axis < max(input.ndim, 1):
        raise ValueError(f"ops.aminmax: axis {axis} is out of range for a {input.ndim}-d input")
    return (reduction.min(input, axis, keepdims)[0], reduction.max(input, axis, keepdims)[0])


def _batch_dot_axes(axes, ndim1, ndim2):
    """MindSpore's reading of ``axes``: a pair of non-negative dimensions, never 0."""
    if axes is None:
        return [ndim1 - 1, ndim2 - 1 if ndim2 == 2 else ndim2 - 2]
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2 or 0 in axes:
            raise ValueError(f"ops.batch_dot: axes must be two dimensions other than 0, got "
                             f"{axes!r}")
        if any(isinstance(a, bool) or not isinstance(a, numbers.Integral) for a in axes):
            raise TypeError(f"ops.batch_dot: axes must hold ints, got {axes!r}")
        pair = [axes[0] + ndim1 if axes[0] < 0 else axes[0],
                axes[1] + ndim2 if axes[1] < 0 else axes[1]]
    elif isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        if axes == 0:
            raise ValueError("ops.batch_dot: axes must not be 0 (the batch dimension)")
        pair = [axes + ndim1, axes + ndim2] if axes < 0 else [axes, axes]
    else:
        raise TypeError(f"ops.batch_dot: axes must be an int, a tuple or list of two ints or "
                        f"None, got {type(axes).__name__}")
    if not (0 < pair[0] < ndim1 and 0 < pair[1] < ndim2):
        raise ValueError(f"ops.batch_dot: axes {axes!r} out of range for inputs of "
                         f"{ndim1} and {ndim2} dimensions")
    return pair


def _batch_matrix(x, axis, contraction_first):
    """x as (B, free, contraction) or (B, contraction, free), and its free dimensions."""
    free = [i for i in range(1, x.ndim) if i != axis]
    free_shape = tuple(x.shape[i] for i in free)
    size = 1
    for s in free_shape:
        size *= s
    perm = (0, axis, *free) if contraction_first else (0, *free, axis)
    shape = (x.shape[0], x.shape[axis], size) if contraction_first else \
        (x.shape[0], size, x.shape[axis])
    return shaping.reshape(shaping.transpose(x, perm), shape), free_shape


def batch_dot(x1, x2, axes=None):
    """Per batch element (dimension 0), the dot product of ``x1`` and ``x2`` over
    ``axes = (a1, a2)``: the result has the shape ``(B, *free dims of x1, *free dims of x2)``,
    ``(B, 1)`` for two 2-d inputs.

    Args:
        x1, x2 (Tensor): at least 2-d, one floating type, one batch size.
        axes (Union[int, tuple[int], list[int], None]): the contracted dimension of each (an int
            for both); None: the last of x1 and the last (2-d x2) or second last of x2.

    Raises:
        TypeError: an input is not a floating Tensor, the types differ, or axes is malformed.
        ValueError: inputs under 2-d, batch sizes or contracted sizes differ, axes out of range.
    """
    for arg, value in (('x1', x1), ('x2', x2)):
        if not isinstance(value, Tensor):
            raise TypeError(f"ops.batch_dot: {arg} must be a Tensor, got {type(value).__name__}")
        if value._data.dtype.name not in _FLOATING:
            raise TypeError(f"ops.batch_dot: {arg} must be a floating Tensor, got {value.dtype}")
        if value.ndim < 2:
            raise ValueError(f"ops.batch_dot: {arg} must be at least 2-d, got shape "
                             f"{value.shape}")
    if x1.dtype != x2.dtype:
        raise TypeError(f"ops.batch_dot: x1 and x2 must have one dtype, got {x1.dtype} and "
                        f"{x2.dtype}")
    if x1.shape[0] != x2.shape[0]:
        raise ValueError(f"ops.batch_dot: batch sizes differ: {x1.shape} and {x2.shape}")
    ndim1, ndim2 = x1.ndim, x2.ndim
    a1, a2 = _batch_dot_axes(axes, ndim1, ndim2)
    if ndim1 == 2:
        x1, a1 = shaping.expand_dims(x1, 1), a1 + 1
    if ndim2 == 2:
        x2 = shaping.expand_dims(x2, 2)
    if x1.shape[a1] != x2.shape[a2]:
        raise ValueError(f"ops.batch_dot: contracted sizes differ: dimension {a1} of "
                         f"{x1.shape} and {a2} of {x2.shape}")
    m1, free1 = _batch_matrix(x1, a1, False)
    m2, free2 = _batch_matrix(x2, a2, True)
    out = shaping.reshape(linalg.bmm(m1, m2), (x1.shape[0], *free1, *free2))
    if ndim1 == 2:
        return shaping.squeeze(out, 1)
    if ndim2 == 2:
        return shaping.squeeze(out, -1)
    return out


def approximate_equal(x, y, tolerance=1e-5):
    """Element-wise ``|x - y| < tolerance`` (Bool).

    Args:
        x, y (Tensor): one shape; their types are promoted (float16 with float32 is float32)
            and must then be floating.
        tolerance (float): the bound, a Python float. Default: 1e-5.

    Raises:
        TypeError: an input is not a Tensor, the promoted type is not floating, or tolerance is
            not a float.
        RuntimeError: the shapes differ, or they have 8 or more dimensions (MindSpore's CPU
            kernel has these limits; ``Tensor.approximate_equal`` has none).
    """
    for arg, value in (('x', x), ('y', y)):
        if not isinstance(value, Tensor):
            raise TypeError(f"ops.approximate_equal: {arg} must be a Tensor, got "
                            f"{type(value).__name__}")
    x, y = operands(x, y)
    if x._data.dtype.name not in _FLOATING:
        raise TypeError(f"ops.approximate_equal: x must be a floating Tensor, got {x.dtype}")
    _check_tolerance('ops.approximate_equal', tolerance)
    if x.shape != y.shape:
        raise RuntimeError(f"ops.approximate_equal: 'x1' must have the same shape as 'x2', got "
                           f"{x.shape} and {y.shape}")
    if x.ndim >= 8:
        raise RuntimeError(f"ops.approximate_equal: the x's rank should be less than 8, but "
                           f"got: {x.ndim}")
    return comparison.less(unary.abs(arithmetic.sub(x, y)), tolerance)


def _check_tolerance(where, tolerance):
    """MindSpore takes only a Python float (not an int, a bool or a NumPy float32)."""
    if isinstance(tolerance, bool) or not isinstance(tolerance, float):
        raise TypeError(f"{where}: the type of 'tolerance' should be 'float', but got type "
                        f"'{type(tolerance).__name__}'")


def accumulate_n(x):
    """The element-wise sum of a list or tuple of tensors of one shape and type (``addn``;
    MindSpore 2.10's CPU build has no kernel for it)."""
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"ops.accumulate_n: x must be a list or tuple of Tensors, got "
                        f"{type(x).__name__}")
    return elementwise.addn(x)


def bernoulli(input, p=0.5, seed=None):
    """Samples of Bernoulli(p) in the shape and dtype of ``input`` (1 with probability p, else
    0), from a uniform draw: ``rand_like < p``. The samples carry no gradient.

    Args:
        input (Tensor): gives the shape and dtype (integer types too).
        p (Union[float, Tensor]): the probability of 1, in [0, 1]; a floating Tensor
            broadcast to input's shape.
        seed (int): None for the global generator (``ms.set_seed``), or an int >= 0: the same
            samples on every call with that seed.

    Raises:
        TypeError: input is not a Tensor, p neither a number nor a floating Tensor.
        ValueError: a float p outside [0, 1], or a negative seed.
    """
    return bernoulli_from(input, p, sampling.check_seed(seed, 'bernoulli'), 'bernoulli')


def bernoulli_from(input, p, rng, name):
    """``bernoulli`` drawing from ``rng`` (None: the global generator, an int: a fresh one
    seeded with it, or a Generator); errors name op ``name``."""
    where = f'ops.{name}'
    if not isinstance(input, Tensor):
        raise TypeError(f"{where}: input must be a Tensor, got {type(input).__name__}")
    if isinstance(p, Tensor):
        if p._data.dtype.name not in _FLOATING:
            raise TypeError(f"{where}: p must be a float or a floating Tensor, got {p.dtype}")
    elif isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"{where}: p must be a float or a floating Tensor, got {p!r}")
    elif not 0 <= p <= 1:
        raise ValueError(f"{where}: p must be in [0, 1], got {p}")
    wide = input._data.dtype == np.float64
    draw = sampling.UniformReal.apply(shape=input.shape,
                                      dtype=np.dtype(np.float64 if wide else np.float32),
                                      seed=rng, device=backend.device_of(input._data))
    return arithmetic.cast(comparison.less(draw, p), input.dtype)
