"""``mindspore.mint``'s tensor creation and random sampling, on hookgrad's ops.

A ``generator`` (``mindspore.Generator``) is honoured by drawing the op's seed from it, so its
state advances and a re-seeded generator repeats its values. A ``device`` ('CPU', 'GPU' or
'cuda'; None: the default device) is where the new tensor is made.
"""
import contextlib
import numbers

from .. import ops
from ..kernels import backend
from .._dtype import float32, int64
from ..ops import arange, eye, full_like, ones_like, zeros_like
from ..ops.creation import full_inferred as full
from ..ops.ext_forms import generator_seed

__all__ = ['arange', 'eye', 'full', 'full_like', 'ones', 'ones_like', 'zeros', 'zeros_like',
           'empty', 'empty_like', 'linspace', 'clone', 'rand', 'rand_like', 'randn',
           'randn_like', 'randint', 'randint_like', 'randperm', 'normal', 'bernoulli',
           'multinomial']


def _size(size, name):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if not all(isinstance(n, numbers.Integral) and not isinstance(n, bool) for n in size):
        raise TypeError(f"mint.{name}: size must be ints or one tuple of ints, got {size!r}")
    return tuple(int(n) for n in size)


def _on(device, name):
    """A context making new tensors on ``device`` (None: leave the default device)."""
    if device is None:
        return contextlib.nullcontext(backend.current)
    if device == 'CPU':
        return backend.default_device(backend.CPU)
    if device in ('GPU', 'cuda'):
        return backend.default_device(backend.gpu())
    raise ValueError(f"mint.{name}: hookgrad has no device {device!r}; use 'CPU' or 'GPU'")


def _moved(t, device, name):
    """``t`` on ``device`` (None: where it is)."""
    if device is None:
        return t
    with _on(device, name) as target:
        return t if backend.device_of(t._data) is target else \
            ops.move_to(t, 'CPU' if target is backend.CPU else 'GPU')


_seed = generator_seed  # a seed drawn from a Generator (None: the op's global draw)


def ones(size, *, dtype=None):
    """A tensor of ones of shape ``size`` (Float32 by default)."""
    return ops.ones(size, float32 if dtype is None else dtype)


def zeros(size, *, dtype=None):
    """A tensor of zeros of shape ``size`` (Float32 by default)."""
    return ops.zeros(size, float32 if dtype is None else dtype)


def empty(*size, dtype=None, device=None):
    """A tensor of shape ``size`` whose values are unspecified (zeros here)."""
    with _on(device, 'empty'):
        return ops.zeros(_size(size, 'empty'), float32 if dtype is None else dtype)


def empty_like(input, *, dtype=None, device=None):
    """A tensor shaped like ``input`` whose values are unspecified (zeros here)."""
    zeros = ops.zeros_like(input, dtype=dtype)          # on the input's device
    return _moved(zeros, device, 'empty_like')


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    out = ops.linspace(float(start), float(end), steps)
    return out if dtype is None else ops.cast(out, dtype)


def clone(input):
    """A copy of ``input`` that gradients flow through."""
    return ops.identity(input)


def rand(*size, generator=None, dtype=None, device=None):
    """Uniform samples from [0, 1) of shape ``size``."""
    with _on(device, 'rand'):
        return ops.rand(*_size(size, 'rand'), dtype=dtype, seed=_seed(generator))


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples of shape ``size``."""
    with _on(device, 'randn'):
        return ops.randn(*_size(size, 'randn'), dtype=dtype, seed=_seed(generator))


def rand_like(input, *, dtype=None, device=None):
    """Uniform samples from [0, 1) shaped like ``input``."""
    return _moved(ops.rand_like(input, dtype=dtype), device, 'rand_like')


def randn_like(input, *, dtype=None, device=None):
    """Standard normal samples shaped like ``input``."""
    return _moved(ops.randn_like(input, dtype=dtype), device, 'randn_like')


def randint(*args, generator=None, dtype=None, device=None):
    """Integers from [low, high) of shape ``size``: ``randint(high, size)`` or
    ``randint(low, high, size)``; int64 by default."""
    if len(args) == 2:
        args = (0, *args)
    if len(args) != 3:
        raise TypeError(f"mint.randint: expects (high, size) or (low, high, size), got {args!r}")
    low, high, size = args
    with _on(device, 'randint'):
        return ops.randint(low, high, tuple(size), _seed(generator),
                           dtype=int64 if dtype is None else dtype)


def randint_like(input, *args, dtype=None, device=None):
    """Integers from [low, high) shaped like ``input``: ``(input, high)`` or
    ``(input, low, high)``."""
    if len(args) == 1:
        args = (0, *args)
    if len(args) != 2:
        raise TypeError(f"mint.randint_like: expects (input, high) or (input, low, high), "
                        f"got {len(args) + 1} arguments")
    draws = ops.randint_like(input, args[0], args[1], dtype=int64)
    return _moved(ops.cast(draws, input.dtype if dtype is None else dtype), device,
                  'randint_like')


def randperm(n, *, generator=None, dtype=int64):
    """A random permutation of ``0..n-1``."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"For 'RandpermExt', the input 'n' must be an int, but got {n!r}.")
    if n < 0:
        raise ValueError(f"For 'RandpermExt', the input 'n' must be >= 0, but got data: {n}.")
    keys = ops.rand(int(n), seed=_seed(generator)) if n else ops.zeros((0,), float32)
    return ops.cast(ops.argsort(keys), dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples: of shape ``size`` for number ``mean`` and ``std``, else of their
    broadcast shape."""
    shape = () if size is None else tuple(size)
    return ops.normal(shape, mean, std, _seed(generator))


def bernoulli(input, *, generator=None):
    """0/1 draws, 1 with the probability held in each element of ``input``."""
    return ops.bernoulli_ext(input, generator=generator)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """``num_samples`` category indices per row drawn with the (unnormalised) weights."""
    return ops.cast(ops.multinomial(input, num_samples, replacement, _seed(generator)), int64)
