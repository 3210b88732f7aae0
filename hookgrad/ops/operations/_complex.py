"""MindSpore's Primitive classes for complex numbers, over the functional ops of
``hookgrad/ops/complex.py``."""
from .. import complex as _complex
from ._primitive import Primitive

__all__ = ['Real', 'Imag', 'Conj', 'Complex', 'ComplexAbs', 'Angle', 'Polar',
           'ConjugateTranspose']


class Real(Primitive):
    """``Real()(input)``: the real part."""
    def construct(self, input):
        return _complex.real(input)


class Imag(Primitive):
    """``Imag()(input)``: the imaginary part."""
    def construct(self, input):
        return _complex.imag(input)


class Conj(Primitive):
    """``Conj()(input)``: the complex conjugate."""
    def construct(self, input):
        return _complex.conj(input)


class Complex(Primitive):
    """``Complex()(real, imag)``: ``real + 1j * imag`` from two Float32 or Float64 tensors."""
    def construct(self, real, imag):
        return _complex._make_complex(real, imag)


class ComplexAbs(Primitive):
    """``ComplexAbs()(x)``: ``|x|``, real."""
    def construct(self, x):
        return _complex.complex_abs(x)


class Angle(Primitive):
    """``Angle()(input)``: the argument of each complex element."""
    def construct(self, input):
        return _complex.angle(input)


class Polar(Primitive):
    """``Polar()(abs, angle)``: ``abs * (cos(angle) + 1j * sin(angle))``."""
    def construct(self, abs, angle):
        return _complex.polar(abs, angle)


class ConjugateTranspose(Primitive):
    """``ConjugateTranspose()(x, perm)``: the conjugate of ``x`` with its axes permuted (a new
    tensor; ``x`` is unchanged)."""
    def construct(self, x, perm):
        return _complex.conj_transpose(x, perm)
