"""MindSpore's Primitive classes for complex numbers, over the functional ops of
``hookgrad/ops/complex.py``."""
from .. import complex as _complex
from ..fft import fft_with_size as _fft_with_size
from ._primitive import Primitive

__all__ = ['Real', 'Imag', 'Conj', 'Complex', 'ComplexAbs', 'Angle', 'Polar',
           'ConjugateTranspose', 'FFTWithSize']


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


class FFTWithSize(Primitive):
    """``FFTWithSize(signal_ndim, inverse, real, norm='backward', onesided=True,
    signal_sizes=())(x)``: FFT, IFFT, RFFT or IRFFT over the last ``signal_ndim`` (1 to 3)
    dims, as ``inverse`` and ``real`` choose; FFT/IFFT/IRFFT take Complex64/Complex128 inputs,
    RFFT real ones."""
    def __init__(self, signal_ndim, inverse, real, norm='backward', onesided=True,
                 signal_sizes=()):
        super().__init__(signal_ndim=signal_ndim, inverse=inverse, real=real, norm=norm,
                         onesided=onesided, signal_sizes=tuple(signal_sizes))

    def construct(self, x):
        return _fft_with_size(x, self.signal_ndim, self.inverse, self.real, self.norm,
                              self.onesided, self.signal_sizes)
