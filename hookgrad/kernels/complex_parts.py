"""Complex arrays from their real and imaginary parts, on any device.

``real + 1j * imag`` is not exact (``1j * inf`` has a NaN real part) and CuPy's arrays do not
take assignments to ``.real``; writing the parts through a real view of a new complex array is
exact and works for NumPy's, CuPy's and the CUDA stand-in's arrays alike.
"""
import numpy as np

from .backend import array_module

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


def complex_dtype(real_dtype):
    """Complex64 for Float32 (and narrower), Complex128 for Float64; a complex dtype stays."""
    real_dtype = np.dtype(real_dtype)
    if real_dtype.kind == 'c':
        return real_dtype
    return _COMPLEX_OF.get(real_dtype, np.dtype(np.complex64))


def from_parts(real, imag, dtype=None):
    """The complex array ``real + i imag`` (broadcast), of ``dtype`` (default: from ``real``)."""
    xp = array_module(real)
    dt = complex_dtype(real.dtype) if dtype is None else np.dtype(dtype)
    shape = np.broadcast_shapes(real.shape, imag.shape)
    out = xp.empty(shape, dt)
    parts = out.view(np.float64 if dt == np.complex128 else np.float32).reshape(shape + (2,))
    parts[..., 0] = real
    parts[..., 1] = imag
    return out
