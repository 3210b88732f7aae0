"""Window functions for spectral analysis, MindSpore 2.10's: ``bartlett_window``,
``blackman_window``, ``hamming_window``, ``hann_window`` and ``kaiser_window``.

A window of length L is a formula over n = 0 .. N-1 with N = L (symmetric) or L + 1 keeping the
first L values (``periodic``, the default, for spectral use). Values are computed on the host
in float64 and placed on the default device; windows carry no gradient. The default types
are MindSpore's: Float32 for Bartlett, Blackman and Hamming, Float64 for Hann and Kaiser and
for windows of length 0 or 1 from the three functions that take a Python int.
"""
import math
import numbers

import numpy as np

from .._dtype import float16, float32, float64, to_numpy
from .._tensor import Tensor
from ..kernels import backend

__all__ = ['bartlett_window', 'blackman_window', 'hamming_window', 'hann_window',
           'kaiser_window']

_FLOAT_TYPES = (float16, float32, float64)


def _length(window_length, name):
    """The window length from an int >= 0 or an integer Tensor of one element."""
    if isinstance(window_length, Tensor):
        if window_length._data.dtype.kind not in 'iu' or window_length.size != 1:
            raise TypeError(f"ops.{name}: window_length must be an int or an integer Tensor of "
                            f"one element, got {window_length.dtype} of shape "
                            f"{window_length.shape}")
        window_length = int(backend.to_host(window_length._data).reshape(()))
    elif isinstance(window_length, bool) or not isinstance(window_length, numbers.Integral):
        raise TypeError(f"ops.{name}: window_length must be a non-negative int, got "
                        f"{type(window_length).__name__}")
    if window_length < 0:
        raise ValueError(f"ops.{name}: window_length must be a non-negative int, got "
                         f"{window_length}")
    return int(window_length)


def _checked(name, periodic, dtype, default):
    if not isinstance(periodic, (bool, np.bool_)):
        raise TypeError(f"ops.{name}: periodic must be a bool, got {periodic!r}")
    if dtype is None:
        return default
    if dtype not in _FLOAT_TYPES:
        raise TypeError(f"ops.{name}: dtype must be Float16, Float32 or Float64, got {dtype}")
    return dtype


def _window(formula, length, periodic, dtype):
    """``formula(n, N)`` over n = 0 .. N-1 as a Tensor of ``dtype`` (ones for L <= 1)."""
    size = length + 1 if periodic else length
    n = np.arange(size, dtype=np.float64)
    values = formula(n, size)[:length] if length > 1 else np.ones(length)
    data = values.astype(to_numpy(dtype))
    return Tensor._wrap(backend.to_device(data, backend.default()))


def _bartlett(n, size):
    return 1 - np.abs(2 * n / (size - 1) - 1)


def _blackman(n, size):
    # summed smallest first, as MindSpore's kernel: the ends are exactly 0
    phase = 2 * math.pi * n / (size - 1)
    return 0.08 * np.cos(2 * phase) - 0.5 * np.cos(phase) + 0.42


def _hamming(alpha, beta):
    a, b = float(np.float32(alpha)), float(np.float32(beta))
    return lambda n, size: a - b * np.cos(2 * math.pi * n / (size - 1))


def make_window(kind, length, periodic, dtype, alpha=0.54, beta=0.46):
    """The window ``kind`` ('bartlett', 'blackman' or 'hamming') of checked arguments, as the
    Primitives compute it."""
    formula = {'bartlett': _bartlett, 'blackman': _blackman}.get(kind) or _hamming(alpha, beta)
    return _window(formula, length, periodic, dtype)


def _float_arg(value, name, arg):
    if not isinstance(value, float):
        raise TypeError(f"ops.{name}: {arg} must be a float, got {value!r}")
    return value


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """The triangular window ``1 - |2n / (N - 1) - 1|``.

    Args:
        window_length (Union[int, Tensor]): L >= 0 (an int, or an integer Tensor of one
            element as MindSpore takes it).
        periodic (bool): N = L + 1 (True, default) or N = L.
        dtype: Float16, Float32 (default) or Float64.

    Raises:
        TypeError: a malformed argument. ValueError: a negative length.
    """
    length = _length(window_length, 'bartlett_window')
    dtype = _checked('bartlett_window', periodic, dtype, float32)
    return _window(_bartlett, length, periodic, dtype)


def blackman_window(window_length, periodic=True, *, dtype=None):
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``.

    Args and Raises: as ``bartlett_window``.
    """
    length = _length(window_length, 'blackman_window')
    dtype = _checked('blackman_window', periodic, dtype, float32)
    return _window(_blackman, length, periodic, dtype)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """The generalized Hamming window ``alpha - beta cos(2 pi n / (N - 1))``, with alpha and
    beta taken in float32 (as MindSpore's kernel reads them).

    Args:
        window_length (int): L >= 0; a window of length 0 or 1 is Float64 ones, as MindSpore's.
        periodic (bool): N = L + 1 (True, default) or N = L.
        alpha, beta (float): the coefficients. Defaults: 0.54, 0.46.
        dtype: Float16, Float32 (default) or Float64.

    Raises:
        TypeError: a malformed argument. ValueError: a negative length.
    """
    name = 'hamming_window'
    if isinstance(window_length, Tensor):
        raise TypeError(f"ops.{name}: window_length must be an int, got Tensor")
    length = _length(window_length, name)
    dtype = _checked(name, periodic, dtype, float32)
    formula = _hamming(_float_arg(alpha, name, 'alpha'), _float_arg(beta, name, 'beta'))
    return _window(formula, length, periodic, dtype if length > 1 else float64)


def hann_window(window_length, periodic=True, *, dtype=None):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (N - 1))``.

    Args:
        window_length (int): L >= 0.
        periodic (bool): N = L + 1 (True, default) or N = L.
        dtype: Float16, Float32 or Float64 (default, as MindSpore's).

    Raises:
        TypeError: a malformed argument. ValueError: a negative length.
    """
    name = 'hann_window'
    if isinstance(window_length, Tensor):
        raise TypeError(f"ops.{name}: window_length must be an int, got Tensor")
    length = _length(window_length, name)
    dtype = _checked(name, periodic, dtype, float64)
    return _window(lambda n, size: 0.5 - 0.5 * np.cos(2 * math.pi * n / (size - 1)), length,
                   periodic, dtype if length > 1 else float64)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """The Kaiser window ``I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta)``, a = (N - 1) / 2.

    Args:
        window_length (int): L >= 0.
        periodic (bool): N = L + 1 (True, default) or N = L.
        beta (float): the shape parameter. Default: 12.0.
        dtype: Float16, Float32 or Float64 (default, as MindSpore's).

    Raises:
        TypeError: a malformed argument. ValueError: a negative length.
    """
    name = 'kaiser_window'
    if isinstance(window_length, Tensor):
        raise TypeError(f"ops.{name}: window_length must be an int, got Tensor")
    length = _length(window_length, name)
    dtype = _checked(name, periodic, dtype, float64)
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
        raise TypeError(f"ops.{name}: beta must be a float, got {beta!r}")

    def formula(n, size):
        a = (size - 1) / 2.0
        return np.i0(beta * np.sqrt(1 - ((n - a) / a) ** 2)) / np.i0(float(beta))
    return _window(formula, length, periodic, dtype if length > 1 else float64)
