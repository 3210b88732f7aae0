"""Random ops: dropout and dropout2d.

The mask is drawn inside the primitive's forward, so every application (and any later replay of
the recorded ops) draws afresh from ``hookgrad._random.generator()``, the generator that
``ms.set_seed`` re-seeds. Forward keeps the mask already multiplied by the scale ``1 / keep_prob``
(0 when nothing is kept), so backward is one product, ``gy * kept``, which also records a graph
when it runs on Tensors.
"""
import numbers

import numpy as np

from .. import _random
from .._dtype import from_numpy
from .._tensor import Tensor
from ..autograd.function import Op
from ._base import as_tensor
from .arithmetic import cast


def _keep_mask(rng, shape, keep_prob):
    """Bool array of ``shape``: each element True with probability ``keep_prob``. ``rng``: a
    generator, an int seeding a fresh one (the same mask on every application, replays of a
    recorded program included), or None for the global one."""
    if rng is None:
        rng = _random.generator()
    elif isinstance(rng, int):
        rng = np.random.default_rng(rng)
    # float32 uniforms: half the memory and time of float64, ample resolution for a probability
    return rng.random(shape, dtype=np.float32) < keep_prob


def _masked(ctx, x, mask, keep_prob):
    """``x * mask / keep_prob``; saves the scaled mask for backward. The mask, drawn on the
    host (the same on every device), is uploaded to x's device."""
    if ctx.xp is not np:
        mask = ctx.xp.asarray(mask)
    scale = 1.0 / keep_prob if keep_prob > 0 else 0.0
    kept = mask * x.dtype.type(scale)          # a float array of x's dtype
    ctx.save(kept)
    return x * kept, mask


class Dropout(Op):
    """y = x * mask / keep_prob with mask ~ Bernoulli(keep_prob) per element; dx = gy * kept.

    Outputs ``(y, mask)``; ``rng`` is a ``np.random.Generator``, an int seed or None for the
    global generator.
    """
    @staticmethod
    def forward(ctx, x, keep_prob, rng):
        return _masked(ctx, x, _keep_mask(rng, x.shape, keep_prob), keep_prob)

    @staticmethod
    def backward(ctx, gy, gmask):
        (kept,) = ctx.saved
        return (gy * kept,)


class Dropout2D(Op):
    """Dropout of whole channels of an (N, C, H, W) array: the mask has shape (N, C, 1, 1).

    Outputs ``(y, mask)`` with that channel mask; dx = gy * kept, broadcast over H and W.
    As MindSpore's kernel, Float32, Float16 and integer inputs are scaled in Float32 by
    ``1 / keep_prob`` rounded to Float32, then cast back (integers truncated toward zero);
    Float64 keeps its own precision (MindSpore rounds it through Float32).
    """
    @staticmethod
    def forward(ctx, x, keep_prob, rng):
        mask = _keep_mask(rng, x.shape[:2] + (1, 1), keep_prob)
        if x.dtype == np.float64:
            return _masked(ctx, x, mask, keep_prob)
        if ctx.xp is not np:
            mask = ctx.xp.asarray(mask)
        scale = np.float32(1) / np.float32(keep_prob) if keep_prob > 0 else np.float32(0)
        ctx.save(mask * x.dtype.type(scale))
        y = x.astype(np.float32, copy=False) * (mask * scale)
        return y.astype(x.dtype, copy=False), mask

    @staticmethod
    def backward(ctx, gy, gmask):
        (kept,) = ctx.saved
        return (gy * kept,)


# ------------------------------------------------------------------------------ checks
_CHANNEL_INTS = (np.int8, np.int16, np.int32, np.int64)


def _channel_input(input, name):
    """A floating or Int8/16/32/64 Tensor, the dtypes MindSpore's channel dropouts take."""
    x = as_tensor(input)
    if x._data.dtype.kind not in 'fV' and x._data.dtype.type not in _CHANNEL_INTS:
        raise TypeError(f"ops.{name}: expected a Float16, Float32, Float64, Int8, Int16, Int32 "
                        f"or Int64 tensor, got dtype {from_numpy(x._data.dtype)}")
    return x


def _float_input(input, name):
    x = as_tensor(input)
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.{name}: expected a floating tensor (Float16, Float32 or Float64), "
                        f"got dtype {from_numpy(x._data.dtype)}")
    return x


def _probability(value, name, arg, low_open=False):
    """``value`` as a float in [0, 1] ((0, 1] with ``low_open``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{name}: {arg} must be a float, got {type(value).__name__}")
    value = float(value)
    if not (0.0 < value <= 1.0 if low_open else 0.0 <= value <= 1.0):
        interval = '(0, 1]' if low_open else '[0, 1]'
        raise ValueError(f"ops.{name}: {arg} must be in {interval}, got {value}")
    return value


def _training(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"ops.{name}: training must be a bool, got {value!r}")
    return bool(value)


def _four_d(x, name):
    if x.ndim != 4:
        raise ValueError(f"ops.{name}: expected a 4-d input of shape (N, C, H, W), got shape "
                         f"{x.shape}")


def _seed(seed, name):
    """An explicit ``seed`` as an int (each application seeds a fresh generator with it), or
    None for the global generator."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"ops.{name}: seed must be None or an int >= 0, got {seed!r}")
    if seed < 0:
        raise ValueError(f"ops.{name}: seed must be None or an int >= 0, got {seed}")
    return int(seed)


# ------------------------------------------------------------------------------ public functions
def dropout(input, p=0.5, training=True, seed=None):
    """Zero each element with probability ``p`` and scale the kept ones by ``1 / (1 - p)``.

    Args:
        input: a floating Tensor of any shape.
        p: the probability of dropping an element, in [0, 1]; 1 gives zeros.
        training: when False (or when ``p`` is 0) ``input`` is returned unchanged.
        seed: None to draw from the global generator (``ms.set_seed``); an int to draw from a
            fresh generator seeded with it, so the same seed gives the same mask.

    Returns:
        Tensor of the input's shape and dtype.

    Raises:
        TypeError: for a non-floating input, a non-number ``p``, a non-bool ``training`` or a
            non-int ``seed``.
        ValueError: when ``p`` is outside [0, 1] or ``seed`` is negative.

    >>> import hookgrad as ms
    >>> y = ms.ops.dropout(ms.ops.ones((2, 1000)), p=0.25)
    >>> sorted(set(y.asnumpy().ravel().tolist()))     # kept values are scaled by 1 / 0.75
    [0.0, 1.3333333730697632]
    """
    x = _float_input(input, 'dropout')
    p = _probability(p, 'dropout', 'p')
    rng = _seed(seed, 'dropout')
    if not _training(training, 'dropout') or p == 0.0:
        return x
    return Dropout.apply(x, keep_prob=1.0 - p, rng=rng)[0]


def dropout2d(input, p=0.5, training=True):
    """Zero whole channels of an (N, C, H, W) input with probability ``p``; scale the rest.

    Each ``input[n, c]`` feature map is kept (and multiplied by ``1 / (1 - p)``) or zeroed as a
    whole, independently, with the global generator (``ms.set_seed``).

    Args:
        input: a 4-d Tensor: floating, or Int8, Int16, Int32 or Int64.
        p: the probability of dropping a channel, in [0, 1]; 1 gives zeros.
        training: when False (or when ``p`` is 0) ``input`` is returned unchanged.

    Returns:
        Tensor of the input's shape and dtype.

    Raises:
        ValueError: when the input is not 4-d, or ``p`` is outside [0, 1].
        TypeError: for an input of another dtype, a non-number ``p`` or a non-bool
            ``training``.
    """
    x = _channel_input(input, 'dropout2d')
    _four_d(x, 'dropout2d')
    p = _probability(p, 'dropout2d', 'p')
    if not _training(training, 'dropout2d') or p == 0.0:
        return x
    return Dropout2D.apply(x, keep_prob=1.0 - p, rng=None)[0]


# ------------------------------------------------------------------------------ primitive forms
def check_keep_prob(keep_prob, name, allow_zero):
    """``keep_prob`` as a float in [0, 1] (``allow_zero``) or (0, 1]; errors name ``ops.<name>``."""
    return _probability(keep_prob, name, 'keep_prob', low_open=not allow_zero)


def primitive_generator(seed0, seed1, name):
    """None (the global generator) when both seeds are 0, else a generator seeded with both."""
    for what, value in (('Seed0', seed0), ('Seed1', seed1)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"ops.{name}: {what} must be an int, got {value!r}")
        if value < 0:
            raise ValueError(f"ops.{name}: {what} must be >= 0, got {value}")
    if seed0 == 0 and seed1 == 0:
        return None
    return np.random.default_rng([int(seed0), int(seed1)])


def dropout_with_mask(input, keep_prob, rng=None):
    """``(output, mask)`` of element-wise dropout; the mask has the input's shape and dtype.

    The form MindSpore's ``ops.Dropout`` primitive returns (its CPU/GPU mask is 0/1 in the
    input's dtype). ``rng``: a ``np.random.Generator``, None for the global one.
    """
    x = _float_input(input, 'Dropout')
    keep_prob = _probability(keep_prob, 'Dropout', 'keep_prob', low_open=True)
    y, mask = Dropout.apply(x, keep_prob=keep_prob, rng=rng)
    return y, cast(mask.detach(), x._data.dtype)


def dropout2d_with_mask(input, keep_prob):
    """``(output, mask)`` of channel dropout; the mask is Bool with the input's (N, C, H, W) shape.

    The form MindSpore's ``ops.Dropout2D`` primitive returns.
    """
    x = _channel_input(input, 'Dropout2D')
    _four_d(x, 'Dropout2D')
    keep_prob = _probability(keep_prob, 'Dropout2D', 'keep_prob')
    y, mask = Dropout2D.apply(x, keep_prob=keep_prob, rng=None)
    return y, Tensor._wrap(np.broadcast_to(mask._data, x.shape).copy())
