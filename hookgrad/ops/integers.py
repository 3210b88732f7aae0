"""Integer element-wise ops: gcd, lcm and the bit shifts (no gradients).

The shifts compute what MindSpore 2.10's CPU kernels compute: a C shift of each element, whose
count is taken modulo the width of the type the shift runs in (32 bits for types of up to 32
bits, which C widens to int first; 64 bits for 64-bit types), the result wrapped to the input's
type. ``1 << 33`` is 2 in Int32, ``x >> -1`` is ``x >> 31``.
"""
import numpy as np

from .._dtype import from_numpy
from .._tensor import Tensor
from ..autograd.function import Op
from ._base import binary, scalar_like

_GCD_KINDS = (np.dtype(np.int16), np.dtype(np.int32), np.dtype(np.int64))


class Gcd(Op):
    """y = the greatest common divisor of |a| and |b| (0 with 0 gives 0)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return ctx.xp.gcd(a, b)


class Lcm(Op):
    """y = the least common multiple of |a| and |b| (0 when either is 0)."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        return ctx.xp.lcm(a, b)


def _shift_parts(x, count):
    """``(x widened, count reduced modulo the shift width)`` as C computes a shift of x's type:
    types of up to 32 bits shift as 32-bit ints (held here in Int64, so nothing is lost before
    the result wraps to x's type), 64-bit types as themselves."""
    if x.dtype.itemsize < 8:
        return x.astype(np.int64), count.astype(np.int64) & 31
    return x, (count.astype(np.int64) & 63).astype(x.dtype)


class LeftShift(Op):
    """y = a << b, the count modulo the shift width, wrapped to a's type."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        wide, count = _shift_parts(a, b)
        return ctx.xp.left_shift(wide, count).astype(a.dtype)


class RightShift(Op):
    """y = a >> b (arithmetic for signed types), the count modulo the shift width."""
    differentiable = False

    @staticmethod
    def forward(ctx, a, b):
        wide, count = _shift_parts(a, b)
        return ctx.xp.right_shift(wide, count).astype(a.dtype)


def _gcd_operands(input, other, name):
    """Both arguments as Tensors of Int16, Int32 or Int64, promoted to one of them."""
    for arg, value in (('input', input), ('other', other)):
        if not isinstance(value, Tensor):
            raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
        if value._data.dtype not in _GCD_KINDS:
            raise TypeError(f"ops.{name}: {arg} must be an Int16, Int32 or Int64 tensor, got "
                            f"{value.dtype}")
    return input, other


def gcd(input, other):
    """Element-wise greatest common divisor of two integer tensors, with broadcasting.

    Args:
        input, other (Tensor): Int16, Int32 or Int64; mixed types are promoted.

    Raises:
        TypeError: an argument is not a Tensor of those types.
        ValueError: the shapes do not broadcast.

    >>> import hookgrad as ms
    >>> ms.ops.gcd(ms.Tensor([12, -18, 0], ms.int32), ms.Tensor([8, 6, 0], ms.int32))
    Tensor(shape=[3], dtype=Int32, value= [4, 6, 0])
    """
    return binary(Gcd, *_gcd_operands(input, other, 'gcd'), 'gcd')


def lcm(input, other):
    """Element-wise least common multiple of two integer tensors, with broadcasting (0 where
    either is 0).

    Args:
        input, other (Tensor): Int16, Int32 or Int64; mixed types are promoted.

    Raises:
        TypeError: an argument is not a Tensor of those types.
        ValueError: the shapes do not broadcast.
    """
    return binary(Lcm, *_gcd_operands(input, other, 'lcm'), 'lcm')


def _shift_operands(input, other, name):
    """Two integer Tensors of one type: a Python int (or bool) takes the other's type,
    wrapping as MindSpore's cast does; two Tensors must already share their type."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"ops.{name}: at least one of input and other must be a Tensor, got "
                        f"{type(input).__name__} and {type(other).__name__}")
    pair = []
    for arg, value, peer in (('input', input, other), ('other', other, input)):
        if isinstance(value, Tensor):
            kind = value._data.dtype
            if kind.kind not in 'iu':
                raise TypeError(f"ops.{name}: {arg} must be an integer tensor, got "
                                f"{from_numpy(kind)}")
            pair.append(value)
        elif isinstance(value, (bool, int, np.integer)):
            kind = peer._data.dtype
            pair.append(scalar_like(int(np.asarray(int(value)).astype(kind)), peer))
        else:
            raise TypeError(f"ops.{name}: {arg} must be a Tensor or an int, got "
                            f"{type(value).__name__}")
    a, b = pair
    if a._data.dtype != b._data.dtype:
        raise TypeError(f"ops.{name}: input and other must have the same dtype, got {a.dtype} "
                        f"and {b.dtype}")
    return a, b


def bitwise_left_shift(input, other):
    """Element-wise ``input << other`` of integer tensors, with broadcasting.

    A count outside ``[0, width)`` is taken modulo the shift width (32 bits for types of up to
    32 bits, 64 for 64-bit types) and the result wraps to the type, as MindSpore's CPU kernel
    computes it.

    Args:
        input, other (Union[Tensor, int]): integer tensors of one type, or one of them a
            Python int (cast to the tensor's type).

    Raises:
        TypeError: neither is a Tensor, a tensor is not an integer one, a scalar is not an
            int, or the two types differ.
        ValueError: the shapes do not broadcast.
    """
    return binary(LeftShift, *_shift_operands(input, other, 'bitwise_left_shift'),
                  'bitwise_left_shift')


def bitwise_right_shift(input, other):
    """Element-wise ``input >> other`` of integer tensors (arithmetic for signed types), with
    broadcasting; counts as in ``bitwise_left_shift``."""
    return binary(RightShift, *_shift_operands(input, other, 'bitwise_right_shift'),
                  'bitwise_right_shift')
