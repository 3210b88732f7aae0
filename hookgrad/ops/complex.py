"""Complex numbers: parts, conjugates, magnitudes, phases, and their gradients.

Gradients follow MindSpore's (and PyTorch's) convention: for a real loss L of ``z = x + iy``
the gradient is ``dL/dx + i dL/dy``, so ``grad(real(z).sum())`` is 1, ``grad(imag(z).sum())``
is 1j and ``grad(abs(z).sum())`` is ``z / |z|``. Every rule here is written with ``ctx.m``, so
gradients of gradients work too. Which other ops take complex tensors is decided in one place:
hookgrad/autograd/complex_support.py.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd import complex_support
from ..autograd.function import Op, apply1
from ..kernels.complex_parts import from_parts
from ._base import as_tensor, check_broadcast

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


class Real(Op):
    """y = Re(z) (z itself for a real z); the gradient is the incoming one as a complex number."""
    @staticmethod
    def forward(ctx, z):
        ctx.src = z.dtype
        return z.real.copy()

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.cast(gy, ctx.src)


class Imag(Op):
    """y = Im(z) (zeros for a real z); the gradient is ``1j`` times the incoming one."""
    @staticmethod
    def forward(ctx, z):
        ctx.src = z.dtype
        if z.dtype.kind != 'c':
            return ctx.xp.zeros_like(z)
        return z.imag.copy()

    @staticmethod
    def backward(ctx, gy):
        if ctx.src.kind != 'c':
            return None
        return ctx.m.make_complex(ctx.m.zeros_like(gy), gy)


class Conj(Op):
    """y = conj(z); the gradient is the conjugate of the incoming one."""
    @staticmethod
    def forward(ctx, z):
        return ctx.xp.conj(z) if z.dtype.kind == 'c' else z.copy()

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.conj(gy)


class Complex(Op):
    """y = a + ib from two real tensors of one dtype (Float32 -> Complex64, Float64 ->
    Complex128); the gradients are the real and imaginary parts of the incoming one."""
    @staticmethod
    def forward(ctx, a, b):
        return from_parts(a, b)

    @staticmethod
    def backward(ctx, gy):
        return ctx.m.real(gy), ctx.m.imag(gy)


class ComplexAbs(Op):
    """y = |z| (real); the gradient is ``gy * z / |z|`` (0 where z is 0)."""
    @staticmethod
    def forward(ctx, z):
        y = ctx.xp.abs(z)
        ctx.save(z, y)
        return y

    @staticmethod
    def backward(ctx, gy):
        z, y = ctx.saved
        m = ctx.m
        zero = y == 0
        unit = z / m.cast(m.where(zero, 1, y), z.dtype)
        return m.cast(m.real(gy), z.dtype) * m.where(zero, 0, unit)


class Angle(Op):
    """y = arg(z) in (-pi, pi]; the gradient is ``gy * 1j * z / |z|**2`` (0 where z is 0)."""
    @staticmethod
    def forward(ctx, z):
        ctx.save(z)
        return ctx.xp.angle(z)

    @staticmethod
    def backward(ctx, gy):
        (z,) = ctx.saved
        m = ctx.m
        re, im = m.real(z), m.imag(z)
        r2 = re * re + im * im
        safe = m.where(r2 == 0, 1, r2)
        g = m.real(gy)
        return m.where(r2 == 0, 0, m.make_complex(-im * g / safe, re * g / safe))


class Polar(Op):
    """y = r * (cos(theta) + i sin(theta)); the gradients are ``Re(gy * conj(e^{i theta}))``
    for r and ``Re(gy * conj(i y))`` for theta."""
    @staticmethod
    def forward(ctx, r, theta):
        ctx.save(r, theta)
        return from_parts(r * np.cos(theta), r * np.sin(theta))

    @staticmethod
    def backward(ctx, gy):
        r, theta = ctx.saved
        m = ctx.m
        c, s = m.cos(theta), m.sin(theta)
        gre, gim = m.real(gy), m.imag(gy)
        return gre * c + gim * s, r * (gim * c - gre * s)


class ViewAsReal(Op):
    """y[..., 0] = Re(z), y[..., 1] = Im(z) (a new array, not a view of z's memory)."""
    @staticmethod
    def forward(ctx, z):
        ctx.src = z.dtype
        return ctx.xp.stack((z.real, z.imag), axis=-1)

    @staticmethod
    def backward(ctx, gy):
        m = ctx.m
        return m.make_complex(m.getitem(gy, (Ellipsis, 0)), m.getitem(gy, (Ellipsis, 1)))


class ComplexSign(Op):
    """y = z / |z| (0 where z is 0), the complex sign (forward only: a backward pass through it
    with a complex gradient is refused, hookgrad/autograd/complex_support.py)."""
    @staticmethod
    def forward(ctx, z):
        r = ctx.xp.abs(z)
        zero = r == 0
        return ctx.xp.where(zero, 0, z / ctx.xp.where(zero, 1, r)).astype(z.dtype, copy=False)

    @staticmethod
    def backward(ctx, gy):
        return gy * 0       # refused for complex gradients before it runs (complex_support.py)


# ----------------------------------------------------------------------------- functions
def _arg(x, name):
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.{name}: input must be a Tensor, got {type(x).__name__}")
    return x


def real(input):
    """The real part of ``input`` (a real tensor comes back as a copy of itself)."""
    return apply1(Real, _arg(input, 'real'))


def imag(input):
    """The imaginary part of ``input`` (zeros for a real tensor)."""
    return apply1(Imag, _arg(input, 'imag'))


def conj(input):
    """The complex conjugate of ``input`` (a real tensor comes back as a copy of itself)."""
    return apply1(Conj, _arg(input, 'conj'))


def angle(input):
    """The argument (phase) of each complex element, in radians, Float32 or Float64.

    Raises:
        TypeError: for a real tensor, as MindSpore 2.10's ``ops.angle``.
    """
    x = _arg(input, 'angle')
    if x._data.dtype.kind != 'c':
        raise TypeError(f"ops.angle: input must be Complex64 or Complex128, got {x.dtype}")
    return apply1(Angle, x)


def complex_abs(x):
    """``|x|`` of a complex tensor, real (``ops.ComplexAbs``)."""
    x = _arg(x, 'ComplexAbs')
    if x._data.dtype.kind != 'c':
        raise TypeError(f"ComplexAbs: x must be Complex64 or Complex128, got {x.dtype}")
    return apply1(ComplexAbs, x)


def abs_as_complex(x):
    """``ops.abs`` of a complex tensor as MindSpore 2.10 gives it: ``|x|`` in the complex dtype
    (the imaginary parts 0)."""
    from .arithmetic import cast
    return cast(apply1(ComplexAbs, x), x._data.dtype)


def sgn(input):
    """``input / |input|`` for complex tensors (0 where 0); the sign of real ones."""
    x = _arg(input, 'sgn')
    if x._data.dtype.kind != 'c':
        from .unary import sign
        return sign(x)
    return apply1(ComplexSign, x)


def conj_transpose(x, perm):
    """The conjugate of ``x`` with its axes permuted (``ops.ConjugateTranspose``)."""
    from .shaping import transpose
    return conj(transpose(_arg(x, 'ConjugateTranspose'), perm))


def _make_complex(real, imag):
    """``real + 1j * imag`` from two real tensors of one dtype (``ops.Complex``)."""
    a, b = _real_pair(real, imag, ('real', 'imag'), 'Complex')
    return Complex.apply(a, b)


def polar(abs, angle):
    """``abs * (cos(angle) + 1j * sin(angle))``: Complex64 from Float32, Complex128 from
    Float64."""
    r, theta = _real_pair(abs, angle, ('abs', 'angle'), 'ops.polar')
    return Polar.apply(r, theta)


def _real_pair(x, y, names, op):
    """``x`` and ``y`` as Tensors of one dtype, Float32 or Float64, that broadcast: the parts of
    the complex tensor ``op`` makes (the complex checks start here)."""
    a, b = as_tensor(x, names[0]), as_tensor(y, names[1])
    for t, what in ((a, names[0]), (b, names[1])):
        if t._data.dtype not in _COMPLEX_OF:
            raise TypeError(f"{op}: {what} must be Float32 or Float64, got {t.dtype}")
    if a._data.dtype != b._data.dtype:
        raise TypeError(f"{op}: {names[0]} and {names[1]} must have one dtype, got {a.dtype} "
                        f"and {b.dtype}")
    check_broadcast(op.split('.')[-1], a, b)
    complex_support.enable()
    return a, b


def view_as_real(input):
    """A real tensor with a last dimension of 2 holding the real and imaginary parts."""
    x = _arg(input, 'view_as_real')
    if x._data.dtype.kind != 'c':
        raise TypeError(f"ops.view_as_real: input must be Complex64 or Complex128, got "
                        f"{x.dtype}")
    return apply1(ViewAsReal, x)


__all__ = ['real', 'imag', 'conj', 'angle', 'polar', 'view_as_real', 'sgn']
