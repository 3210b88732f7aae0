"""``hookgrad.ops``: MindSpore's functional API and Primitive-style classes.

Each family module defines its primitives (``Op`` subclasses, registered in
``hookgrad.autograd.function.OPS``) and the public functions that wrap them.
"""
from .arithmetic import (add, sub, mul, div, neg, pow, square, cast, identity, floor_divide,
                         remainder, subtract, multiply, divide, negative)
from .broadcast import broadcast_to, sum_to
# PENDING from .unary import (exp, log, sqrt, rsqrt, abs, sin, cos, tanh, sign, erf, reciprocal,
# PENDING                     floor, ceil, absolute)
# PENDING from .activation import sigmoid, relu, gelu, softmax, log_softmax
# PENDING from .reduction import (sum, mean, prod, max, min, amax, amin, argmax, argmin, reduce_sum,
# PENDING                         reduce_mean, reduce_max, reduce_min, reduce_prod, cumsum, var, std,
# PENDING                         all, any)
# PENDING from .linalg import matmul, bmm, mm
# PENDING from .shape import (reshape, transpose, permute, squeeze, expand_dims, unsqueeze, tile, concat,
# PENDING                     cat, stack, split, chunk, flatten, flip)
# PENDING from .indexing import (getitem, setitem, gather, index_select, where, select, masked_fill,
# PENDING                        take, unindex, untake)
# PENDING from .comparison import (gt, ge, lt, le, equal, ne, greater, greater_equal, less, less_equal,
# PENDING                          not_equal, maximum, minimum, clamp, clip, clip_by_value, logical_not,
# PENDING                          logical_and, logical_or, isnan, isinf, isfinite)
# PENDING from .creation import (fill, full, ones, zeros, ones_like, zeros_like, full_like, arange,
# PENDING                        linspace, one_hot, eye, stop_gradient, assign)
# PENDING from .hook import HookBackward
# PENDING from .primitives import *  # noqa: F401,F403  (ReduceSum, MatMul, Add... : MindSpore classes)
# PENDING from .primitives import __all__ as _primitive_names
# PENDING from ..autograd.functional import GradOperation


def _transpose(x, axes=None):
    return transpose(x, tuple(range(x.ndim - 1, -1, -1)) if axes is None else tuple(axes))


# The Tensor forms of the math namespace that backward rules use (see autograd/math.py):
# name there -> function here. Resolved on first use, so families import in any order.
TENSOR_MATH = {
    'exp': 'exp', 'log': 'log', 'sqrt': 'sqrt', 'sin': 'sin', 'cos': 'cos', 'tanh': 'tanh',
    'sign': 'sign', 'abs': 'abs', 'erf': 'erf', 'where': 'where', 'maximum': 'maximum',
    'minimum': 'minimum', 'matmul': 'matmul', 'zeros_like': 'zeros_like',
    'ones_like': 'ones_like', 'broadcast_to': 'broadcast_to', 'sum_to': 'sum_to',
    'reshape': 'reshape', 'flip': 'flip', 'transpose': '_transpose',
    'expand_dims': 'expand_dims', 'cumsum': 'cumsum', 'sum': 'sum', 'concat': 'concat',
    'cast': 'cast', 'getitem': 'getitem', 'take': 'take', 'unindex': 'unindex',
    'untake': 'untake',
}
