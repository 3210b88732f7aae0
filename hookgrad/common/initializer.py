"""Initializers: the values parameters start from (MindSpore's ``mindspore.common.initializer``).

An ``Initializer`` fills an array in place (``init(arr)``) or makes a NumPy one
(``init.array(shape, dtype)``); ``initializer(init, shape, dtype)`` returns a Tensor on the
default device. Random rules draw as MindSpore's initializers do: a seed from NumPy's global
generator per array (``hookgrad._random.initializer_seed``), expanded by MindSpore's Philox
stream into float32 samples (kernels/philox.py) and cast to the array's dtype. So after
``ms.set_seed(n)`` a network starts from the values MindSpore gives it under the same seed.

Fans follow MindSpore and PyTorch: for a weight of shape ``(out, in, *kernel)``
``fan_in = in * prod(kernel)`` and ``fan_out = out * prod(kernel)`` (a Dense weight is
``(out_channels, in_channels)``); for a 1-d shape ``(n,)`` both fans are ``n``.
"""
import math
import numbers

import numpy as np

from .. import _dtype
from .. import _random
from .._tensor import Tensor
from ..kernels import backend as _backend, philox as _philox
from ..kernels.normal_quantile import ndtri as _ndtri, truncated_standard_normal  # noqa: F401

__all__ = ['Initializer', 'Zero', 'One', 'Constant', 'Normal', 'Uniform', 'TruncatedNormal',
           'XavierUniform', 'XavierNormal', 'HeUniform', 'HeNormal', 'Identity', 'Dirac',
           'Orthogonal', 'Sparse', 'VarianceScaling', 'initializer']


class Initializer:
    """Base class: a rule for the initial values of an array.

    Subclasses implement ``_initialize(arr)``, which writes every element of ``arr`` in place.
    """

    # random rules draw floating values (cast for an integer or bool array)
    _needs_float = False

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def __call__(self, arr):
        """Fill the array ``arr`` (NumPy's, or a device array) in place. Values are drawn on
        the host, so a seed gives the same values on every device; a device array receives
        them in one upload.

        Raises:
            TypeError: if ``arr`` is not an array, or its dtype is unsupported.
        """
        if not isinstance(arr, np.ndarray):
            if not _backend.is_device_array(arr):
                raise TypeError(f"{self!r}: expected a NumPy array to fill, got "
                                f"{type(arr).__name__}")
            host = self.array(arr.shape, arr.dtype)
            arr[...] = _backend.to_device(host, _backend.device_of(arr))
            return
        _check_dtype(self, arr.dtype)
        if arr.size:
            _fill(self, arr)

    def array(self, shape, dtype=_dtype.float32):
        """A new NumPy array of ``shape`` and ``dtype`` holding this rule's values.

        Raises:
            ValueError: for a negative size in ``shape``.
            TypeError: for a non-int size or an unsupported ``dtype``.
        """
        shape = _check_shape(shape, repr(self))
        npd = _check_dtype(self, dtype)
        arr = np.empty(shape, dtype=npd)
        if arr.size:
            _fill(self, arr)
        return arr

    def _initialize(self, arr):
        raise NotImplementedError(f"{type(self).__name__} must implement _initialize(arr), "
                                  f"which fills arr in place")

    def __repr__(self):
        # subclasses that skip Initializer.__init__ have no recorded arguments
        kwargs = getattr(self, '_kwargs', {})
        args = ', '.join(f"{k}={v!r}" for k, v in kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    """All zeros."""

    def _initialize(self, arr):
        arr.fill(0)


class One(Initializer):
    """All ones."""

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """Every element equal to ``value`` (cast to the array's dtype).

    Raises:
        TypeError: if ``value`` is not a real number.
    """

    def __init__(self, value):
        if not isinstance(value, numbers.Real):
            raise TypeError(f"Constant: value must be a real number, got "
                            f"{type(value).__name__}")
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        arr.fill(self.value)


class Normal(Initializer):
    """Samples of N(mean, sigma**2).

    Args:
        sigma: standard deviation, >= 0. Default 0.01.
        mean: mean. Default 0.0.
    """

    _needs_float = True

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = _check_real(self, 'sigma', sigma, minimum=0.0)
        self.mean = _check_real(self, 'mean', mean)

    def _initialize(self, arr):
        arr[...] = _normal(self.mean, self.sigma, arr.shape)


class Uniform(Initializer):
    """Samples of U(-scale, scale).

    Args:
        scale: half-width of the interval, >= 0. Default 0.07.
    """

    _needs_float = True

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = _check_real(self, 'scale', scale, minimum=0.0)

    def _initialize(self, arr):
        arr[...] = _uniform(self.scale, arr.shape)


class TruncatedNormal(Initializer):
    """Samples of N(mean, sigma**2) restricted to ``[a, b]``.

    Drawn by inverting the normal CDF over the interval, as MindSpore draws them, so narrow or
    far-out intervals cost no more than wide ones.

    Args:
        sigma: standard deviation before truncation, >= 0. Default 0.01.
        mean: mean before truncation. Default 0.0.
        a, b: the interval's ends (values, not multiples of sigma), ``a < b``. Default -2.0
            and 2.0.
    """

    _needs_float = True

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = _check_real(self, 'sigma', sigma, minimum=0.0)
        self.mean = _check_real(self, 'mean', mean)
        self.a = _check_real(self, 'a', a, finite=False)
        self.b = _check_real(self, 'b', b, finite=False)
        if not self.a < self.b:
            raise ValueError(f"{self!r}: the interval needs a < b, got a={a} and b={b}")

    def _initialize(self, arr):
        arr[...] = _philox.truncated_normal(_random.initializer_seed(), arr.shape, self.a,
                                            self.b, self.mean, self.sigma)


class XavierUniform(Initializer):
    """Glorot uniform: U(-bound, bound), ``bound = gain * sqrt(6 / (fan_in + fan_out))``.

    Args:
        gain: scale factor. Default 1.
    """

    _needs_float = True

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = _check_real(self, 'gain', gain)

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        arr[...] = _uniform(self.gain * math.sqrt(6.0 / (fan_in + fan_out)), arr.shape)


class XavierNormal(Initializer):
    """Glorot normal: N(0, std**2), ``std = gain * sqrt(2 / (fan_in + fan_out))``.

    Args:
        gain: scale factor. Default 1.
    """

    _needs_float = True

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = _check_real(self, 'gain', gain)

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        arr[...] = _normal(0.0, std, arr.shape)


class _Kaiming(Initializer):
    """The fan and gain shared by HeUniform and HeNormal."""

    _needs_float = True

    def __init__(self, negative_slope=0, mode='fan_in', nonlinearity='leaky_relu'):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        if mode not in ('fan_in', 'fan_out'):
            raise ValueError(f"{self!r}: mode must be 'fan_in' or 'fan_out', got {mode!r}")
        self.mode = mode
        try:
            self.gain = _calculate_gain(nonlinearity, negative_slope)
        except (TypeError, ValueError) as e:
            raise type(e)(f"{self!r}: {e}") from None

    def _std(self, shape):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        return self.gain / math.sqrt(fan_in if self.mode == 'fan_in' else fan_out)


class HeUniform(_Kaiming):
    """Kaiming uniform: U(-bound, bound), ``bound = gain * sqrt(3 / fan)``.

    Args:
        negative_slope: the slope of leaky_relu's negative part (used only for 'leaky_relu').
            Default 0.
        mode: 'fan_in' (default) keeps the forward variance, 'fan_out' the backward one.
        nonlinearity: the activation that follows, which sets the gain: 'linear', 'conv1d',
            'conv2d', 'conv3d', 'conv_transpose1d'..., 'sigmoid' (1), 'tanh' (5/3), 'relu'
            (sqrt(2)), 'leaky_relu' (sqrt(2 / (1 + negative_slope**2)); the default),
            'selu' (3/4).
    """

    def _initialize(self, arr):
        arr[...] = _uniform(math.sqrt(3.0) * self._std(arr.shape), arr.shape)


class HeNormal(_Kaiming):
    """Kaiming normal: N(0, std**2), ``std = gain / sqrt(fan)``; arguments as ``HeUniform``."""

    def _initialize(self, arr):
        arr[...] = _normal(0.0, self._std(arr.shape), arr.shape)


_BY_NAME = {
    'zeros': Zero, 'zero': Zero,
    'ones': One, 'one': One,
    'normal': Normal,
    'uniform': Uniform,
    'truncatednormal': TruncatedNormal,
    'xavier_uniform': XavierUniform, 'xavieruniform': XavierUniform,
    'xavier_normal': XavierNormal, 'xaviernormal': XavierNormal,
    'he_uniform': HeUniform, 'heuniform': HeUniform,
    'he_normal': HeNormal, 'henormal': HeNormal,
}
_NAMES = ("'zeros', 'ones', 'normal', 'uniform', 'truncatedNormal', 'xavier_uniform', "
          "'xavier_normal', 'he_uniform', 'he_normal', 'identity', 'dirac', 'orthogonal', "
          "'variancescaling' (case-insensitive; MindSpore's class names such as 'XavierUniform' "
          "and 'Zero' work too)")


def initializer(init, shape=None, dtype=_dtype.float32):
    """A Tensor of ``shape`` and ``dtype`` holding the values ``init`` describes.

    Args:
        init: an initializer name ('zeros', 'ones', 'normal', 'uniform', 'truncatedNormal',
            'xavier_uniform', 'xavier_normal', 'he_uniform', 'he_normal', or a class name such as
            'HeUniform'; case-insensitive), an ``Initializer``, a real number (a constant), or a
            Tensor (returned as it is, converted to ``dtype`` if it differs).
        shape: an int or a tuple/list of ints >= 0; None gives a 0-d tensor, or for a Tensor
            ``init`` its own shape.
        dtype: element type. Default ``ms.float32``.

    Returns:
        Tensor: a new tensor on the default device (``set_device``) that does not require
        grad. Random values are drawn on the host, so one seed gives the same values on the
        CPU and the GPU.

    Raises:
        ValueError: for an unknown name, a negative size, or a Tensor whose shape is not
            ``shape``.
        TypeError: for an unsupported ``init`` or ``dtype``, or a random initializer with a
            non-floating dtype.

    >>> import hookgrad as ms
    >>> from hookgrad.common.initializer import initializer, One
    >>> initializer(One(), [1, 2, 3], ms.float32).shape
    (1, 2, 3)
    """
    if isinstance(init, Tensor):
        if shape is not None:
            want = _check_shape(shape, 'initializer')
            if init.shape != want:
                raise ValueError(f"initializer: the Tensor has shape {init.shape}, but shape "
                                 f"{want} was asked for")
        npd = _dtype.to_numpy(dtype)
        return init if init._data.dtype == npd else Tensor(init, dtype)
    if isinstance(init, str):
        cls = _BY_NAME.get(init.lower())
        if cls is None:
            raise ValueError(f"initializer: unknown initializer name {init!r}; valid names: "
                             f"{_NAMES}")
        init = cls()
    elif isinstance(init, numbers.Real):
        init = Constant(init)
    elif not isinstance(init, Initializer):
        raise TypeError(f"initializer: init must be a name, an Initializer, a number or a "
                        f"Tensor, got {type(init).__name__}")
    shape = () if shape is None else _check_shape(shape, 'initializer')
    return Tensor._wrap(_backend.on_default(init.array(shape, dtype)))


def _calculate_fan_in_and_fan_out(shape):
    """(fan_in, fan_out) of a weight of ``shape``: (out, in, *kernel), (out, in), or (n,)."""
    if len(shape) == 0:
        raise ValueError("fan_in and fan_out need a shape with at least 1 dimension, got a 0-d "
                         "shape ()")
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


_UNIT_GAIN = ('linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d',
              'conv_transpose3d', 'sigmoid')


def _calculate_gain(nonlinearity, param=None):
    """The recommended gain for an activation (PyTorch's and MindSpore's table)."""
    if nonlinearity in _UNIT_GAIN:
        return 1.0
    if nonlinearity == 'tanh':
        return 5.0 / 3
    if nonlinearity == 'relu':
        return math.sqrt(2.0)
    if nonlinearity == 'leaky_relu':
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, numbers.Real):
            raise TypeError(f"negative_slope must be a real number, got {slope!r}")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == 'selu':
        return 3.0 / 4
    raise ValueError(f"unknown nonlinearity {nonlinearity!r}; valid: "
                     f"{', '.join(_UNIT_GAIN)}, tanh, relu, leaky_relu, selu")


def _check_real(init, name, value, minimum=None, finite=True):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{init!r}: {name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if math.isnan(value) or (finite and math.isinf(value)):
        raise ValueError(f"{init!r}: {name} must be a {'finite ' if finite else ''}number, "
                         f"got {value}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{init!r}: {name} must be >= {minimum}, got {value}")
    return value


def _check_shape(shape, who):
    """``shape`` as a tuple of ints >= 0 (an int is a 1-d shape)."""
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"{who}: shape must be an int or a tuple/list of ints, got "
                        f"{type(shape).__name__}")
    for n in shape:
        if isinstance(n, bool) or not isinstance(n, numbers.Integral):
            raise TypeError(f"{who}: shape must hold ints, got {tuple(shape)!r}")
        if n < 0:
            raise ValueError(f"{who}: shape sizes must be >= 0, got {tuple(shape)}")
    return tuple(int(n) for n in shape)


def _check_dtype(init, dtype):
    """The NumPy dtype for ``dtype`` (TypeError for an unsupported one)."""
    return _dtype.to_numpy(dtype)


def _fill(init, arr):
    """``init``'s values written into ``arr``. A random rule filling an integer or bool array
    draws float32 values and casts them as MindSpore does (toward zero; bool: nonzero)."""
    if not init._needs_float or arr.dtype.kind in 'fV':
        init._initialize(arr)
        return
    drawn = np.empty(arr.shape, np.float32)
    init._initialize(drawn)
    with np.errstate(invalid='ignore'):
        arr[...] = drawn


def _uniform(bound, shape):
    """float32 samples of U(-bound, bound) from a new initializer stream."""
    return _philox.uniform(_random.initializer_seed(), shape, -bound, bound)


def _normal(mean, sigma, shape):
    """float32 samples of N(mean, sigma**2) from a new initializer stream."""
    return _philox.normal(_random.initializer_seed(), shape, mean, sigma)


from .initializer_structured import (Identity, Dirac, Orthogonal, Sparse,  # noqa: E402
                                     VarianceScaling)
_BY_NAME.update(identity=Identity, dirac=Dirac, orthogonal=Orthogonal,
                variancescaling=VarianceScaling)

from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.common.initializer')
