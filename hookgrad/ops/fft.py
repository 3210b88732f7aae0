"""Discrete Fourier transforms (MindSpore 2.10's ``ops.fft`` family) and their gradients.

Three ops carry every transform, each over any set of axes, with the input first padded with
zeros or cropped to the sizes ``s``:

- ``FFTN``: complex to complex, forward (``exp(-2 pi i k t / n)``) or inverse;
- ``RFFTN``: real to complex, the last axis keeping its ``n // 2 + 1`` non-negative frequencies;
- ``IRFFTN``: complex to real, the inverse of ``RFFTN`` (the last axis read as the halved
  spectrum of a real signal; the imaginary parts of its zero and Nyquist bins are ignored).

``hfft*`` is ``IRFFTN`` of the conjugate with the norm's direction swapped, ``ihfft*`` the
conjugate of ``RFFTN`` likewise; the shifts are ``ops.roll``; ``stft`` frames, windows and
transforms with differentiable ops; ``fft_with_size`` serves ``ops.FFTWithSize``. NumPy's (or
CuPy's) ``fft`` computes the kernels; results take MindSpore's dtypes: Complex128 / Float64 from Float64 and
Complex128 inputs, Complex64 / Float32 from every other accepted type.

Gradients (the convention dL/dx + i dL/dy of hookgrad/ops/complex.py): the adjoint of a
transform is the transform in the other direction with the dual norm ('backward' <->
'forward'), followed by the adjoint of the padding (a crop) or of the cropping (zeros). For
``RFFTN`` the halved spectrum's gradient is padded with zeros to the full length first and the
real part kept; for ``IRFFTN`` the forward transform of the gradient keeps its first
``n // 2 + 1`` bins, those that stand for two bins of the full spectrum doubled. Every rule is
written with ``ctx.m`` (``fft_c2c``, ``getitem``, ``unindex``, ``real``), so gradients of
gradients work too.
"""
import numbers

import numpy as np

from .._dtype import from_numpy, to_numpy
from .._tensor import Tensor
from ..autograd import complex_support
from ..autograd.function import Op
from ..autograd.math import array_math
from ..kernels import backend

DUAL = {'backward': 'forward', 'forward': 'backward', 'ortho': 'ortho'}
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)
# MindSpore 2.10's FFT kernels take these (its CPU kernels take BFloat16 too, as Float32)
_ACCEPTED = {'Int16', 'Int32', 'Int64', 'Float16', 'BFloat16', 'Float32', 'Float64',
             'Complex64', 'Complex128'}


def _complex_of(dt):
    return _C128 if dt in (_F64, _C128) else _C64


def _real_of(dt):
    return _F64 if dt in (_F64, _C128) else _F32


def _resize(m, g, shape):
    """``g`` cropped and padded with zeros (at the end of each axis) to ``shape``."""
    have = tuple(g.shape)
    if have == tuple(shape):
        return g
    if any(h > w for h, w in zip(have, shape)):
        g = m.getitem(g, tuple(slice(0, min(h, w)) for h, w in zip(have, shape)))
        have = tuple(g.shape)
    if any(h < w for h, w in zip(have, shape)):
        g = m.unindex(g, tuple(shape), tuple(slice(0, h) for h in have))
    return g


def _with_sizes(shape, axes, sizes):
    out = list(shape)
    for a, n in zip(axes, sizes):
        out[a] = n
    return tuple(out)


class FFTN(Op):
    """y = the n-dimensional complex transform of x over ``axes`` (x padded or cropped to
    ``s`` there), forward or inverse, normalised by ``norm``; the gradient is the transform in
    the other direction with the dual norm, cropped or padded back to x's shape (its real part
    for a real x)."""
    @staticmethod
    def forward(ctx, x, s, axes, norm, inverse):
        ctx.in_shape, ctx.src = x.shape, x.dtype
        ctx.axes, ctx.norm, ctx.inverse = axes, norm, inverse
        return array_math.fft_c2c(x, s, axes, norm, inverse)

    @staticmethod
    def backward(ctx, gy):
        m = ctx.m
        g = m.fft_c2c(gy, None, ctx.axes, DUAL[ctx.norm], not ctx.inverse)
        g = _resize(m, g, ctx.in_shape)
        return m.real(g) if ctx.src.kind != 'c' else g


class RFFTN(Op):
    """y = the n-dimensional transform of a real x over ``axes`` (x padded or cropped to ``s``),
    the last axis keeping ``s[-1] // 2 + 1`` frequencies; the gradient pads the incoming one
    with zeros to the full spectrum, runs the inverse transform with the dual norm and keeps
    the real part, cropped or padded back to x's shape."""
    @staticmethod
    def forward(ctx, x, s, axes, norm):
        ctx.in_shape, ctx.axes, ctx.norm = x.shape, axes, norm
        ctx.full = _with_sizes(x.shape, axes, s)
        y = backend.array_module(x).fft.rfftn(x, s, axes, norm)
        return y.astype(_complex_of(x.dtype), copy=False)

    @staticmethod
    def backward(ctx, gy):
        m = ctx.m
        g = _resize(m, gy, ctx.full)       # the halved spectrum's missing bins: zeros
        g = m.fft_c2c(g, None, ctx.axes, DUAL[ctx.norm], True)
        return _resize(m, m.real(g), ctx.in_shape)


class IRFFTN(Op):
    """y = the real inverse of a halved spectrum x over ``axes``: x padded or cropped to ``s``
    (``s[-1] // 2 + 1`` on the last axis), the output ``s`` there; the gradient is the forward
    transform of the incoming one with the dual norm, its first ``s[-1] // 2 + 1`` bins on the
    last axis kept, doubled where a bin stands for two, cropped or padded back to x's shape (its
    real part for a real x)."""
    @staticmethod
    def forward(ctx, x, s, axes, norm):
        ctx.in_shape, ctx.src, ctx.axes, ctx.norm = x.shape, x.dtype, axes, norm
        xp = backend.array_module(x)
        n = s[-1]
        half = n // 2 + 1
        w = xp.full(half, 2.0, _real_of(x.dtype))
        w[0] = 1.0
        if n % 2 == 0:
            w[-1] = 1.0
        shape = [1] * x.ndim
        shape[axes[-1]] = half
        ctx.save(w.reshape(shape))
        ctx.half = half
        return xp.fft.irfftn(x, s, axes, norm).astype(_real_of(x.dtype), copy=False)

    @staticmethod
    def backward(ctx, gy):
        m = ctx.m
        (w,) = ctx.saved
        g = m.fft_c2c(gy, None, ctx.axes, DUAL[ctx.norm], False)
        key = [slice(None)] * len(g.shape)
        key[ctx.axes[-1]] = slice(0, ctx.half)
        g = m.getitem(g, tuple(key)) * m.cast(w, g.dtype)
        g = _resize(m, g, ctx.in_shape)
        return m.real(g) if ctx.src.kind != 'c' else g


# ----------------------------------------------------------------------------- arguments
def _prim(name):
    return name.upper()


def _tensor(input, name, real=False):
    """``input`` as a Float32/Float64/Complex tensor MindSpore's kernel would take."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{_prim(name)}', the input must be a Tensor, got "
                        f"{type(input).__name__}")
    dt = input._data.dtype
    ms_name = str(from_numpy(dt))
    if ms_name not in _ACCEPTED:
        raise TypeError(f"For '{_prim(name)}', the input dtype must be one of int16, int32, "
                        f"int64, float16, bfloat16, float32, float64"
                        f"{'' if real else ', complex64, complex128'}, got {ms_name}")
    if dt.kind == 'c':
        if real:
            raise TypeError(f"For '{_prim(name)}', the input must be real (int16, int32, int64, "
                            f"float16, bfloat16, float32, float64), got {ms_name}: use "
                            f"ops.fft for complex inputs")
        return input
    if dt not in (_F32, _F64):
        from .arithmetic import cast
        return cast(input, _F32)
    return input


def _norm(norm, name):
    if norm is None:
        return 'backward'
    if norm not in DUAL:
        raise ValueError(f"Failed to convert the value \"{norm}\" of input 'norm' of "
                         f"'{_prim(name)}' to enum: norm must be 'backward', 'forward' or "
                         f"'ortho'")
    return norm


def _int(v, name, what):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"For '{_prim(name)}', the type of '{what}' must be int, got "
                        f"{type(v).__name__}")
    return int(v)


def _dim(d, ndim, name):
    d = _int(d, name, 'dim')
    if not -ndim <= d < ndim:
        raise ValueError(f"For primitive[{_prim(name)}], the dim must be in [{-ndim},{ndim}), "
                         f"but got {d}.")
    return d % ndim


def _size(v, name, what='n'):
    v = _int(v, name, what)
    if v < 1:
        raise ValueError(f"The argument[{what}] must be greater than 0, but got {v}.")
    return v


def _plan(x, s, dim, name, one=False):
    """``(sizes, axes)`` of a transform: ``one`` for the 1-d forms (``n``, ``dim``), else the
    n-d ones (``s``, ``dim``; without ``dim`` the last ``len(s)`` axes, or every axis)."""
    ndim = x.ndim
    if one:
        axes = (_dim(dim, ndim, name),)
        sizes = None if s is None else (_size(s, name),)
    else:
        if isinstance(dim, numbers.Integral) and not isinstance(dim, bool):
            dim = (dim,)
        if isinstance(s, numbers.Integral) and not isinstance(s, bool):
            s = (s,)
        if dim is None:
            axes = tuple(range(ndim - (ndim if s is None else len(s)), ndim))
            if s is not None and len(s) > ndim:
                raise ValueError(f"For primitive[{_prim(name)}], s has {len(s)} sizes but the "
                                 f"input only {ndim} dims.")
        else:
            axes = tuple(_dim(d, ndim, name) for d in dim)
        if len(set(axes)) != len(axes):
            raise ValueError(f"For primitive[{_prim(name)}], the dims must be unique, got "
                             f"{tuple(dim)}.")
        if s is not None and len(s) != len(axes):
            raise ValueError(f"For primitive[{_prim(name)}], when given, dim and s arguments "
                             f"must have the same length, got s={tuple(s)} and dim="
                             f"{tuple(dim)}.")
        sizes = None if s is None else tuple(_size(v, name, 's') for v in s)
        if not axes:
            raise ValueError(f"For primitive[{_prim(name)}], no dim to transform.")
    return sizes, axes


# ----------------------------------------------------------------------------- transforms
def _c2c(input, s, dim, norm, name, inverse, one=False):
    x = _tensor(input, name)
    sizes, axes = _plan(x, s, dim, name, one)
    if sizes is None:
        sizes = tuple(x.shape[a] for a in axes)
    complex_support.enable()
    return FFTN.apply(x, s=sizes, axes=axes, norm=_norm(norm, name), inverse=inverse)


def _r2c(input, s, dim, norm, name, one=False):
    x = _tensor(input, name, real=True)
    sizes, axes = _plan(x, s, dim, name, one)
    if sizes is None:
        sizes = tuple(x.shape[a] for a in axes)
    complex_support.enable()
    return RFFTN.apply(x, s=sizes, axes=axes, norm=_norm(norm, name))


def _c2r(x, s, dim, norm, name, one=False):
    sizes, axes = _plan(x, s, dim, name, one)
    if sizes is None:
        last = 2 * (x.shape[axes[-1]] - 1)
        if last < 1:
            raise ValueError(f"For primitive[{_prim(name)}], the output size {last} of dim "
                             f"{axes[-1]} is less than 1: give n (or s).")
        sizes = tuple(x.shape[a] for a in axes[:-1]) + (last,)
    return IRFFTN.apply(x, s=sizes, axes=axes, norm=_norm(norm, name))


def _fft_c2c(x, s, axes, norm, inverse):
    """``array_math.fft_c2c`` on Tensors (tensor_math's form: recorded, differentiable)."""
    complex_support.enable()
    return FFTN.apply(x, s=tuple(x.shape[a] for a in axes) if s is None else tuple(s),
                      axes=tuple(a % x.ndim for a in axes), norm=norm, inverse=inverse)


def fft(input, n=None, dim=-1, norm=None):
    """The 1-d discrete Fourier transform along ``dim`` (``input`` padded or cropped to ``n``);
    Complex64, or Complex128 for Float64 and Complex128 inputs."""
    return _c2c(input, n, dim, norm, 'fft', False, one=True)


def ifft(input, n=None, dim=-1, norm=None):
    """The inverse of ``fft``."""
    return _c2c(input, n, dim, norm, 'ifft', True, one=True)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-d discrete Fourier transform over ``dim``."""
    return _c2c(input, s, dim, norm, 'fft2', False)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """The inverse of ``fft2``."""
    return _c2c(input, s, dim, norm, 'ifft2', True)


def fftn(input, s=None, dim=None, norm=None):
    """The n-d discrete Fourier transform over ``dim`` (every dim, or the last ``len(s)``)."""
    return _c2c(input, s, dim, norm, 'fftn', False)


def ifftn(input, s=None, dim=None, norm=None):
    """The inverse of ``fftn``."""
    return _c2c(input, s, dim, norm, 'ifftn', True)


def rfft(input, n=None, dim=-1, norm=None):
    """``fft`` of a real input, ``n // 2 + 1`` frequencies along ``dim``.

    Raises:
        TypeError: for a complex input (MindSpore 2.10 documents real inputs only).
    """
    return _r2c(input, n, dim, norm, 'rfft', one=True)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """``fft2`` of a real input, the last dim halved."""
    return _r2c(input, s, dim, norm, 'rfft2')


def rfftn(input, s=None, dim=None, norm=None):
    """``fftn`` of a real input, the last transformed dim halved."""
    return _r2c(input, s, dim, norm, 'rfftn')


def irfft(input, n=None, dim=-1, norm=None):
    """The inverse of ``rfft``: a real signal of length ``n`` (default ``2 * (m - 1)``)."""
    return _c2r(_tensor(input, 'irfft'), n, dim, norm, 'irfft', one=True)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """The inverse of ``rfft2``."""
    return _c2r(_tensor(input, 'irfft2'), s, dim, norm, 'irfft2')


def irfftn(input, s=None, dim=None, norm=None):
    """The inverse of ``rfftn``."""
    return _c2r(_tensor(input, 'irfftn'), s, dim, norm, 'irfftn')


def _conj(x):
    from .complex import conj
    return conj(x) if x._data.dtype.kind == 'c' else x


def _hermitian(input, s, dim, norm, name, one=False):
    x = _tensor(input, name)
    return _c2r(_conj(x), s, dim, DUAL[_norm(norm, name)], name, one)


def _inverse_hermitian(input, s, dim, norm, name, one=False):
    return _conj(_r2c(input, s, dim, DUAL[_norm(norm, name)], name, one))


def hfft(input, n=None, dim=-1, norm=None):
    """The transform of a signal with Hermitian symmetry given by its first half: real, of
    length ``n`` (default ``2 * (m - 1)``)."""
    return _hermitian(input, n, dim, norm, 'hfft', one=True)


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of ``hfft``: the first ``n // 2 + 1`` bins of ``ifft`` of a real input."""
    return _inverse_hermitian(input, n, dim, norm, 'ihfft', one=True)


def hfft2(input, s=None, dim=(-2, -1), norm=None):
    """``hfft`` over two dims."""
    return _hermitian(input, s, dim, norm, 'hfft2')


def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    """The inverse of ``hfft2``."""
    return _inverse_hermitian(input, s, dim, norm, 'ihfft2')


def hfftn(input, s=None, dim=None, norm=None):
    """``hfft`` over ``dim``."""
    return _hermitian(input, s, dim, norm, 'hfftn')


def ihfftn(input, s=None, dim=None, norm=None):
    """The inverse of ``hfftn``."""
    return _inverse_hermitian(input, s, dim, norm, 'ihfftn')


def fft_with_size(x, signal_ndim, inverse, real, norm='backward', onesided=True,
                  signal_sizes=()):
    """``ops.FFTWithSize``: the transform over the last ``signal_ndim`` dims chosen by
    ``inverse`` and ``real`` (FFT, IFFT, RFFT, IRFFT); a not ``onesided`` RFFT gives the full
    spectrum, a not ``onesided`` IRFFT the real part of IFFT; ``signal_sizes`` are IRFFT's
    output sizes."""
    name = 'FFTWithSize'
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, got {type(x).__name__}")
    signal_ndim = _int(signal_ndim, name, 'signal_ndim')
    if not 1 <= signal_ndim <= 3:
        raise ValueError(f"For primitive[{name}], signal_ndim must be 1, 2 or 3, got "
                         f"{signal_ndim}.")
    if x.ndim < signal_ndim:
        raise ValueError(f"For primitive[{name}], x_dims must not be less than signal_ndim: "
                         f"x has {x.ndim} dims, signal_ndim is {signal_ndim}.")
    norm = _norm(norm, name)
    axes = tuple(range(x.ndim - signal_ndim, x.ndim))
    complex_in = x._data.dtype.kind == 'c'
    mode = ('irfft' if inverse else 'rfft') if real else 'fft/ifft'
    if complex_in == (real and not inverse):
        kinds = '{Bool, Float32, Float64, Int16, Int32, Int64, Int8, UInt8}' if complex_in \
            else '{Complex128, Complex64}'
        raise TypeError(f"For primitive[{name}], the input argument[x] in {mode} mode must be "
                        f"a type of {kinds}, but got {x.dtype}.")
    if not complex_in and x._data.dtype not in (_F32, _F64):
        from .arithmetic import cast
        x = cast(x, _F32)
    complex_support.enable()
    sizes = tuple(x.shape[a] for a in axes)
    if not real or not onesided:
        y = FFTN.apply(x, s=sizes, axes=axes, norm=norm, inverse=bool(inverse))
        if real and inverse:
            from .complex import real as real_part
            return real_part(y)
        return y
    if not inverse:
        return RFFTN.apply(x, s=sizes, axes=axes, norm=norm)
    return _c2r(x, tuple(signal_sizes) or None, axes, norm, name)


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode='REFLECT', normalized=False, onesided=None, return_complex=None):
    """The short-time Fourier transform of ``x`` (1-d, or 2-d: a batch of signals): frames of
    ``n_fft`` samples every ``hop_length`` (default ``n_fft // 4``), each multiplied by
    ``window`` (ones of ``win_length``, default ``n_fft``; centred in ``n_fft``) and
    transformed; ``center`` pads ``n_fft // 2`` samples each side first (``pad_mode``
    'REFLECT' or 'CONSTANT'). The result is ``(..., frequencies, frames)``: complex with
    ``return_complex``, else its real and imaginary parts in a last dim of 2. ``onesided``
    (default: for real ``x`` and window) keeps ``n_fft // 2 + 1`` frequencies; ``normalized``
    scales by ``n_fft ** -0.5``. Composed of differentiable ops."""
    from .complex import view_as_real
    from .nn_functional import pad
    from .rearrange import swapaxes
    name = 'stft'
    x = _tensor(x, name)
    n_fft = _size(n_fft, name, 'n_fft')
    hop = n_fft // 4 if hop_length is None else _size(hop_length, name, 'hop_length')
    win_length = n_fft if win_length is None else _size(win_length, name, 'win_length')
    if win_length > n_fft:
        raise ValueError(f"For 'stft', win_length ({win_length}) must not exceed n_fft "
                         f"({n_fft}).")
    if x.ndim not in (1, 2):
        raise ValueError(f"For 'stft', x must be 1-d or 2-d (a batch), got {x.ndim} dims.")
    if window is None:
        window = Tensor._wrap(backend.array_module(x._data).ones(win_length,
                                                                 _real_of(x._data.dtype)))
    elif not isinstance(window, Tensor) or window.shape != (win_length,):
        raise ValueError(f"For 'stft', window must be a Tensor of shape ({win_length},), got "
                         f"{getattr(window, 'shape', type(window).__name__)}.")
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = pad(window, (left, n_fft - win_length - left))
    if center:
        mode = str(pad_mode).lower()
        if mode not in ('reflect', 'constant'):
            raise ValueError(f"For 'stft', pad_mode must be 'REFLECT' or 'CONSTANT', got "
                             f"{pad_mode!r}.")
        x = pad(x, (n_fft // 2, n_fft // 2), mode=mode)
    length = x.shape[-1]
    if length < n_fft:
        raise ValueError(f"For 'stft', the signal ({length} samples) is shorter than n_fft "
                         f"({n_fft}).")
    starts = np.arange(0, length - n_fft + 1, hop)
    frames = x[..., Tensor(starts[:, None] + np.arange(n_fft))] * window
    is_complex = x._data.dtype.kind == 'c' or window._data.dtype.kind == 'c'
    if onesided is None:
        onesided = not is_complex
    norm = 'ortho' if normalized else 'backward'
    spectrum = rfft(frames, norm=norm) if onesided and not is_complex else \
        fft(frames, norm=norm)
    spectrum = swapaxes(spectrum, -1, -2)
    return spectrum if return_complex else view_as_real(spectrum)


# ----------------------------------------------------------------------------- helpers
def _shift(input, dim, name, sign):
    from .rearrange import roll
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, got "
                        f"{type(input).__name__}")
    ndim = input.ndim
    if dim is None:
        dims = tuple(range(ndim))
    else:
        dims = (dim,) if isinstance(dim, numbers.Integral) else tuple(dim)
        dims = tuple(_dim(d, ndim, name) for d in dims)
    if not dims:                    # a 0-d tensor: nothing to shift
        from .arithmetic import identity
        return identity(input)
    return roll(input, tuple(sign * (input.shape[d] // 2) for d in dims), dims)


def fftshift(input, dim=None):
    """``input`` rolled so the zero frequency is at the centre of each of ``dim`` (every dim by
    default)."""
    return _shift(input, dim, 'fftshift', 1)


def ifftshift(input, dim=None):
    """The inverse of ``fftshift``."""
    return _shift(input, dim, 'ifftshift', -1)


def _freq(n, d, dtype, name, rfft):
    n = _size(n, name)
    values = (np.fft.rfftfreq if rfft else np.fft.fftfreq)(n, d).astype(_F32)
    dt = _F32 if dtype is None else to_numpy(dtype)
    return Tensor._wrap(backend.default().xp.asarray(values.astype(dt)))


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of ``fft`` of a signal of length ``n`` and spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``, computed in Float32 (then
    cast to ``dtype``, as MindSpore 2.10)."""
    return _freq(n, d, dtype, 'fftfreq', False)


def rfftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of ``rfft``: ``[0, 1, ..., n // 2] / (d * n)``."""
    return _freq(n, d, dtype, 'rfftfreq', True)


__all__ = ['fft', 'ifft', 'fft2', 'ifft2', 'fftn', 'ifftn', 'rfft', 'irfft', 'rfft2', 'irfft2',
           'rfftn', 'irfftn', 'hfft', 'ihfft', 'hfft2', 'ihfft2', 'hfftn', 'ihfftn', 'fftshift',
           'ifftshift', 'fftfreq', 'rfftfreq', 'stft']
