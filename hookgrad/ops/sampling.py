"""Random tensors: rand, randn, randint, uniform, normal, the ``*_like`` forms, multinomial and
choice_with_mask.

Every draw happens inside an op's forward, from ``hookgrad._random.generator()`` (the generator
``ms.set_seed`` re-seeds), so a recorded graph-mode program draws fresh values on every replay.
An explicit ``seed`` is an int parameter of the op: each application seeds a fresh generator
with it, so the same seed gives the same values on every call (MindSpore's ops instead continue
one sequence seeded on first use).
"""
import numbers

import numpy as np

from .. import _random
from .._dtype import bool_ as _bool, from_numpy, int64 as _int64, to_numpy
from .._tensor import Tensor
from ..autograd.function import Op, value_read
from ..kernels import backend
from ._base import as_tensor, check_size
from .creation import tensor_on

_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)


def _generator(seed):
    """The generator an application draws from: the global one for None, a fresh one seeded
    with an int seed, or a Primitive's own generator (seeded once, when it was made)."""
    if seed is None:
        return _random.generator()
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


# Draws are made on the host with hookgrad's one generator and uploaded, so a seed gives the
# same values on every device. ``device`` is where an op without inputs puts them (None: the
# default device when it runs).
class UniformReal(Op):
    """y ~ U[0, 1) of ``shape`` in a floating ``dtype`` (no inputs, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, shape, dtype, seed, device=None):
        rng = _generator(seed)
        if dtype == np.float64:
            y = rng.random(shape)
        else:
            y = rng.random(shape, dtype=np.float32).astype(dtype, copy=False)
        return backend.to_device(y, device or backend.default())


class StandardNormal(Op):
    """y ~ N(0, 1) of ``shape`` in a floating ``dtype`` (no inputs, no gradient)."""
    differentiable = False

    @staticmethod
    def forward(ctx, shape, dtype, seed, device=None):
        rng = _generator(seed)
        if dtype == np.float64:
            y = rng.standard_normal(shape)
        else:
            y = rng.standard_normal(shape, dtype=np.float32).astype(dtype, copy=False)
        return backend.to_device(y, device or backend.default())


class UniformInt(Op):
    """y ~ integers uniform in [low, high) (arrays broadcast with ``shape``) in ``dtype``, on
    the bounds' device (or ``device``). The bounds are read on the host: the draw is made
    there."""
    differentiable = False

    @staticmethod
    def forward(ctx, low, high, shape, dtype, seed, device=None):
        low, high = backend.to_host(low), backend.to_host(high)
        if np.any(low >= high):
            raise ValueError(f"ops.uniform: minval must be less than maxval, got {low.tolist()} "
                             f"and {high.tolist()}")
        size = np.broadcast_shapes(shape, low.shape, high.shape)
        y = _generator(seed).integers(low, high, size=size, dtype=dtype)
        if device is not None:
            return backend.to_device(y, device)
        return y if ctx.xp is np else ctx.xp.asarray(y)


class Uniform(Op):
    """y ~ U[low, high) (arrays broadcast with ``shape``); no gradient reaches the bounds."""
    differentiable = False

    @staticmethod
    def forward(ctx, low, high, shape, seed):
        size = np.broadcast_shapes(shape, low.shape, high.shape)
        u = _generator(seed).random(size, dtype=np.float32)
        if ctx.xp is not np:
            u = ctx.xp.asarray(u)
        return (low + (high - low) * u).astype(low.dtype, copy=False)


class Multinomial(Op):
    """Int32 indices drawn from the categories of each row of ``probs`` (1-d or 2-d weights).

    With replacement each draw inverts the row's cumulative distribution; without, the Gumbel
    top-k trick orders the categories by ``log p + Gumbel noise`` (zero weights come last).
    """
    differentiable = False

    @staticmethod
    def forward(ctx, probs, num_samples, replacement, seed):
        rng = _generator(seed)
        xp = ctx.xp
        p = probs.reshape((-1, probs.shape[-1])).astype(np.float64)
        total = p.sum(-1, keepdims=True)
        # the checks read the weights, so they run on the host only: on a device, weights that
        # are negative, not finite or all zero in a row are not diagnosed
        if xp is np:
            if np.any(p < 0) or not np.all(np.isfinite(p)):
                raise ValueError("ops.multinomial: probabilities must be finite and "
                                 "non-negative")
            if np.any(total == 0):
                raise ValueError("ops.multinomial: every row of probabilities needs a positive "
                                 "sum")
        rows, k = p.shape
        if replacement:
            cdf = np.cumsum(p / total, -1)
            cdf[:, -1] = 1.0
            offset = xp.arange(rows)[:, None]
            u = rng.random((rows, num_samples))
            u = (u if xp is np else xp.asarray(u)) + offset     # row r searches in [r, r + 1)
            flat = np.searchsorted((cdf + offset).ravel(), u.ravel(), side='right')
            idx = flat.reshape(rows, num_samples) - offset * k
        else:
            noise = rng.gumbel(size=p.shape)
            if xp is np:
                with np.errstate(divide='ignore'):
                    keys = np.log(p) + noise
            else:               # no errstate on a device: zero weights are kept out of log
                positive = p > 0
                keys = xp.where(positive, xp.log(xp.where(positive, p, 1.0)), -np.inf) + \
                    xp.asarray(noise)
            idx = np.argsort(-keys, axis=-1, kind='stable')[:, :num_samples]
        idx = np.minimum(idx, k - 1).astype(_I32)
        return idx if probs.ndim == 2 else idx[0]


# ------------------------------------------------------------------------------ argument checks
def check_seed(seed, name):
    """``seed`` as None (the global generator) or a non-negative int."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"ops.{name}: seed must be None or an int >= 0, got {seed!r}")
    if seed < 0:
        raise ValueError(f"ops.{name}: seed must be None or an int >= 0, got {seed}")
    return int(seed)


def _size(size, name):
    """``*size`` as MindSpore's rand takes it: ints, or one tuple or list of ints."""
    if not size:
        return (1,)         # MindSpore's rand() draws one value
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for n in size:
        if isinstance(n, bool) or not isinstance(n, numbers.Integral):
            raise TypeError(f"ops.{name}: size must be ints or one tuple of ints, got {size!r}")
        if n < 0:
            raise ValueError(f"ops.{name}: size {tuple(size)} has a negative dimension")
    return tuple(int(n) for n in size)


def _shape(shape, name, what='shape'):
    if isinstance(shape, Tensor):
        value_read(shape)
        shape = tuple(shape._data.tolist())
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"ops.{name}: {what} must be a tuple of ints, got {shape!r}")
    return _size((tuple(shape),), name)


def _float_dtype(dtype, name, default=_F32):
    dt = default if dtype is None else to_numpy(dtype)
    if dt.kind not in 'fV':
        raise ValueError(f"ops.{name}: dtype must be a floating type, got {from_numpy(dt)}")
    return dt


def _int_dtype(dtype, name):
    dt = _I64 if dtype is None else to_numpy(dtype)
    if dt.kind not in 'iu':
        raise ValueError(f"ops.{name}: dtype must be an integer type, got {from_numpy(dt)}")
    return dt


def _int_bound(value, name, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: {what} must be an int, got {value!r}")
    return int(value)


# ------------------------------------------------------------------------------ public functions
def rand(*size, dtype=None, seed=None):
    """Uniform samples from [0, 1) of shape ``size`` (ints or one tuple), Float32 by default.

    Args:
        size: the shape; no size draws one value (shape (1,)), as MindSpore does.
        dtype: a floating dtype.
        seed: None for the global generator (``ms.set_seed``), or an int: the same values on
            every call with that seed.

    Raises:
        ValueError: for a non-floating dtype, a negative dimension or a negative seed.

    >>> import hookgrad as ms
    >>> ms.ops.rand(2, 3).shape
    (2, 3)
    """
    shape, dt = _size(size, 'rand'), _float_dtype(dtype, 'rand')
    check_size('rand', shape, dt.itemsize)
    return UniformReal.apply(shape=shape, dtype=dt, seed=check_seed(seed, 'rand'))


def randn(*size, dtype=None, seed=None):
    """Standard normal samples of shape ``size`` (ints or one tuple), Float32 by default.

    Raises:
        ValueError: for a non-floating dtype, a negative dimension or a negative seed.
    """
    shape, dt = _size(size, 'randn'), _float_dtype(dtype, 'randn')
    check_size('randn', shape, dt.itemsize)
    return StandardNormal.apply(shape=shape, dtype=dt,
                                seed=check_seed(seed, 'randn'))


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers uniform in [low, high) of shape ``size`` (a tuple), Int64 by default.

    Raises:
        TypeError: when low or high is not an int, or size not a tuple.
        ValueError: when low >= high or dtype is not an integer type.
    """
    return _randint(low, high, size, seed, dtype, 'randint')


def _randint(low, high, size, seed, dtype, name, device=None):
    low = _int_bound(low, name, 'low')
    high = _int_bound(high, name, 'high')
    if not isinstance(size, tuple):
        raise ValueError(f"ops.{name}: size must be a tuple, got {size!r}")
    shape = _shape(size, name, 'size')
    dt = _int_dtype(dtype, name)
    check_size(name, shape, dt.itemsize)
    if low >= high:
        raise ValueError(f"ops.{name}: low must be less than high, got low {low} and high {high}")
    bounds = (Tensor._wrap(np.asarray(low, dt)), Tensor._wrap(np.asarray(high, dt)))
    return UniformInt.apply(*bounds, shape=shape, dtype=dt, seed=check_seed(seed, name),
                            device=device or backend.default())


def rand_like(input, seed=None, *, dtype=None):
    """``rand`` with the shape of ``input`` and its dtype (or ``dtype``; it must be floating)."""
    x = as_tensor(input)
    dt = _float_dtype(x._data.dtype if dtype is None else dtype, 'rand_like')
    return UniformReal.apply(shape=x.shape, dtype=dt, seed=check_seed(seed, 'rand_like'),
                             device=backend.device_of(x._data))


def randn_like(input, seed=None, *, dtype=None):
    """``randn`` with the shape of ``input``; its dtype when floating, else Float32 (or
    ``dtype``)."""
    x = as_tensor(input)
    if dtype is None:
        dt = x._data.dtype if x._data.dtype.kind in 'fV' else _F32
    else:
        dt = _float_dtype(dtype, 'randn_like')
    return StandardNormal.apply(shape=x.shape, dtype=dt, seed=check_seed(seed, 'randn_like'),
                                device=backend.device_of(x._data))


def randint_like(input, low, high, seed=None, *, dtype=None):
    """``randint`` with the shape of ``input`` and its dtype (or ``dtype``; it must be integer)."""
    x = as_tensor(input)
    return _randint(low, high, x.shape, seed, x._data.dtype if dtype is None else dtype,
                    'randint_like', backend.device_of(x._data))


def uniform(shape, minval, maxval, seed=None, dtype=None):
    """Samples uniform in [minval, maxval) of the broadcast shape of ``shape`` and the bounds.

    Args:
        shape: a tuple of ints.
        minval, maxval: Tensors of ``dtype`` (Float32 by default; Int32 draws integers).
        seed: None for the global generator, or an int (the same values on every call).

    Raises:
        TypeError: when a bound is not a Tensor, or its dtype is not ``dtype``, or ``dtype`` is
            neither Float32 nor Int32 (MindSpore's two).
    """
    dt = _F32 if dtype is None else to_numpy(dtype)
    if dt not in (_F32, _I32):
        raise TypeError(f"ops.uniform: dtype must be Float32 or Int32, got {from_numpy(dt)}")
    if not isinstance(minval, Tensor) or not isinstance(maxval, Tensor):
        raise TypeError("ops.uniform: minval and maxval must be Tensors")
    for what, t in (('minval', minval), ('maxval', maxval)):
        if t._data.dtype != dt:
            raise TypeError(f"ops.uniform: {what} has dtype {t.dtype}, expected {from_numpy(dt)}")
    shape = _shape(shape, 'uniform')
    check_size('uniform', shape, dt.itemsize)
    try:
        np.broadcast_shapes(shape, minval.shape, maxval.shape)
    except ValueError:
        raise ValueError(f"ops.uniform: shape {shape}, minval of shape {minval.shape} and maxval "
                         f"of shape {maxval.shape} cannot be broadcast together") from None
    seed = check_seed(seed, 'uniform')
    if dt == _I32:
        return UniformInt.apply(minval, maxval, shape=shape, dtype=dt, seed=seed)
    return Uniform.apply(minval, maxval, shape=shape, seed=seed)


def normal(shape, mean, stddev, seed=None):
    """Normal samples ``mean + stddev * N(0, 1)`` of the broadcast shape of all three.

    ``mean`` and ``stddev`` may be Tensors or numbers; the result has their floating dtype
    (Float32 for numbers). Gradients reach Tensor ``mean`` and ``stddev`` (the samples are
    ``mean + stddev * noise`` with the noise held fixed).

    Raises:
        ValueError: when the shapes cannot be broadcast together.
    """
    from .arithmetic import add, cast, mul
    shape = _shape(shape, 'normal')
    check_size('normal', shape, 4)
    # the samples live with a Tensor mean or stddev; numbers follow it (else the default device)
    like = mean if isinstance(mean, Tensor) else stddev if isinstance(stddev, Tensor) else None
    if like is None:
        m, s = as_tensor(float(mean), 'mean'), as_tensor(float(stddev), 'stddev')
    else:
        m = mean if isinstance(mean, Tensor) else tensor_on(float(mean), like, 'mean')
        s = stddev if isinstance(stddev, Tensor) else tensor_on(float(stddev), like, 'stddev')
    dt = m._data.dtype if m._data.dtype.kind in 'fV' else _F32
    if s._data.dtype.kind in 'fV' and s._data.dtype.itemsize > dt.itemsize:
        dt = s._data.dtype
    try:
        out = np.broadcast_shapes(shape, m.shape, s.shape)
    except ValueError:
        raise ValueError(f"ops.normal: shape {shape}, mean of shape {m.shape} and stddev of "
                         f"shape {s.shape} cannot be broadcast together") from None
    noise = StandardNormal.apply(shape=out, dtype=dt, seed=check_seed(seed, 'normal'),
                                 device=backend.device_of(m._data))
    return add(mul(cast(s, dt), noise), cast(m, dt))


def int_bounds(minval, maxval, name):
    """The 0-d Int32 Tensor bounds of MindSpore's UniformInt, checked."""
    for what, t in (('minval', minval), ('maxval', maxval)):
        if not isinstance(t, Tensor) or t.ndim != 0 or t._data.dtype != _I32:
            raise TypeError(f"ops.{name}: {what} must be a 0-d Int32 Tensor, got {t!r}")
    return minval, maxval


def multinomial(input, num_samples, replacement=True, seed=None):
    """Int32 category indices drawn ``num_samples`` times from each row of weights ``input``.

    Args:
        input: 1-d or 2-d non-negative weights (need not sum to 1).
        num_samples: draws per row; without ``replacement`` at most the number of categories.
        replacement: draw with replacement (default) or without.
        seed: None for the global generator, or an int (the same draws on every call).

    Raises:
        ValueError: for an input of another rank, too many draws without replacement, negative
            or non-finite weights, or a row of zeros.
    """
    return multinomial_draw(input, num_samples, replacement, check_seed(seed, 'multinomial'),
                            'multinomial')


_CATEGORY_DTYPES = {np.dtype(np.int16), _I32, _I64}


def random_categorical(logits, num_sample, seed=0, dtype=_int64):
    """Category indices drawn ``num_sample`` times from each row of the unnormalized log
    probabilities ``logits`` (batch, classes): (batch, num_sample) of ``dtype`` (Int16, Int32
    or Int64, the default). ``seed`` 0 draws from the global generator; another int gives the
    same draws on every call."""
    x = as_tensor(logits)
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.random_categorical: logits must be a Float16, Float32 or Float64 "
                        f"tensor, got {x.dtype}")
    if x.ndim != 2:
        raise ValueError(f"ops.random_categorical: logits must be 2-d (batch, classes), got "
                         f"shape {x.shape}")
    for what, value in (('num_sample', num_sample), ('seed', seed)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"ops.random_categorical: {what} must be an int, got {value!r}")
    if num_sample < 1:
        raise ValueError(f"ops.random_categorical: num_sample must be positive, got {num_sample}")
    try:
        out_dtype = to_numpy(dtype)
    except (TypeError, KeyError):
        out_dtype = None
    if out_dtype not in _CATEGORY_DTYPES:
        raise TypeError(f"ops.random_categorical: dtype must be Int16, Int32 or Int64, got "
                        f"{dtype}")
    from .activation import softmax
    from .arithmetic import cast
    from .creation import stop_gradient
    probabilities = softmax(stop_gradient(x), -1)
    draws = multinomial_draw(probabilities, num_sample, True,
                             check_seed(None if seed == 0 else seed, 'random_categorical'),
                             'random_categorical')
    return cast(draws, from_numpy(out_dtype))


def multinomial_draw(input, num_samples, replacement, seed, name):
    """``multinomial`` with ``seed`` already checked (None, an int or a generator)."""
    x = as_tensor(input)
    if x.ndim not in (1, 2):
        raise ValueError(f"ops.{name}: input must be 1-d or 2-d, got shape {x.shape}")
    num_samples = _int_bound(num_samples, name, 'num_samples')
    if num_samples <= 0:
        raise ValueError(f"ops.{name}: num_samples must be positive, got {num_samples}")
    if not replacement and num_samples > x.shape[-1]:
        raise ValueError(f"ops.{name}: cannot draw {num_samples} samples without "
                         f"replacement from {x.shape[-1]} categories")
    return Multinomial.apply(x, num_samples=num_samples, replacement=bool(replacement),
                             seed=seed)


# ------------------------------------------------------------------------------ random choice
def choice_with_mask(input_x, count=256, seed=None):
    """``(index, mask)``: the positions of ``count`` True elements of a Bool tensor in random
    order (see ``ops.RandomChoiceWithMask``)."""
    count = choice_count(count, 'choice_with_mask')
    rng = pair_generator(0 if seed is None else seed, 0, 'choice_with_mask')
    return random_choice_with_mask(input_x, count, rng, 'choice_with_mask')


def choice_count(count, name):
    """``count``, which must be an int > 0 (the error names op ``name``)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"ops.{name}: count must be an int > 0, got {count!r}")
    return count


def pair_generator(seed, seed2, name):
    """MindSpore's (seed, seed2): both 0 draws from the global generator (None), else from a
    generator seeded with both, which a Primitive keeps, so its sequence repeats from run to
    run."""
    for what, value in (('seed', seed), ('seed2', seed2)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise ValueError(f"ops.{name}: {what} must be an int >= 0, got {value!r}")
    if seed == 0 and seed2 == 0:
        return None
    return np.random.default_rng([int(seed), int(seed2)])


def random_choice_with_mask(input_x, count, rng, name):
    """``choice_with_mask`` drawing from ``rng`` (None: the global generator), the form
    ``ops.RandomChoiceWithMask`` calls; errors name op ``name``.

    index is (count, rank) Int32; where fewer than count are True, the rows past them are 0
    and mask (count,) Bool is False there.
    """
    x = as_tensor(input_x, 'input_x')
    if x.dtype != _bool:
        raise TypeError(f"ops.{name}: input_x must be Bool, got {x.dtype}")
    if not 1 <= x.ndim <= 5:
        raise ValueError(f"ops.{name}: input_x must have rank 1 to 5, got shape {x.shape}")
    rng = rng if rng is not None else _random.generator()
    xp = backend.array_module(x._data)
    found = np.argwhere(x._data)                # how many is known from the shape
    order = rng.permutation(len(found))         # drawn on the host, the same on every device
    found = found[order if xp is np else xp.asarray(order)][:count]
    index = xp.zeros((count, x.ndim), np.int32)
    index[:len(found)] = found
    mask = xp.arange(count) < len(found)
    return Tensor._wrap(index), Tensor._wrap(mask)
