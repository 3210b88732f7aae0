"""Loss scalers for hand-written training steps (``mindspore.amp``): ``scale`` the loss before
differentiating, ``unscale`` the gradients, check them with ``all_finite`` and ``adjust``.

>>> import hookgrad as ms
>>> scaler = ms.amp.DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1)
>>> grads = (ms.Tensor([float('inf'), 1.0]),)
>>> scaler.adjust(ms.amp.all_finite(scaler.unscale(grads)))
True
>>> print(scaler.scale_value.asnumpy())
512.0
"""
from abc import ABC, abstractmethod
import numbers

import numpy as np

from .._tensor import Tensor
from ..kernels import backend
from ..nn.parameter import Parameter

__all__ = ['LossScaler', 'StaticLossScaler', 'DynamicLossScaler', 'all_finite']


def _tensors(inputs):
    """The Tensors of ``inputs`` (a Tensor, or nested tuples/lists of them)."""
    if isinstance(inputs, Tensor):
        return [inputs]
    if isinstance(inputs, (tuple, list)):
        return [t for v in inputs for t in _tensors(v)]
    return []


def _any_not_finite(inputs):
    """Whether any floating value in ``inputs`` is inf or nan: a host bool (on a device, one
    host read of the flag ``_finite_flag`` computes there)."""
    flag = _finite_flag(inputs)
    if type(flag) is not bool:
        flag = bool(backend.to_host(flag, 'the overflow flag of loss scaling'))
    return not flag


def _finite_flag(inputs):
    """Whether every floating value in ``inputs`` is finite: a Python bool for host arrays,
    a 0-d bool array on the device of the device arrays among them (computed there, not read).
    One pass per array, no copy of the values: ``max(|x|)`` is finite only when every value
    is."""
    flags = []
    for t in _tensors(inputs):
        a = t._data
        if a.dtype.kind in 'fcV' and a.size:
            if type(a) is np.ndarray:
                if not np.isfinite(np.max(np.abs(a))):
                    return False
            else:
                flags.append(backend.array_module(a).isfinite(abs(a).max()))
    if not flags:
        return True
    return flags[0] if len(flags) == 1 else backend.array_module(flags[0]).stack(flags).all()


def all_finite(inputs):
    """A 0-d bool Tensor: True when every value of ``inputs`` (a tuple or list of Tensors) is
    finite. For device tensors it is computed on their device and not read.

    >>> import hookgrad as ms
    >>> print(ms.amp.all_finite((ms.Tensor([1.0, float('nan')]), ms.Tensor([1.0]))))
    False
    """
    flag = _finite_flag(inputs)
    if type(flag) is bool:
        return Tensor(np.array(flag))
    return Tensor._wrap(flag)


def _map(scale, inputs, reciprocal):
    """``inputs`` (a Tensor or a tuple/list of them) times the scale (or its reciprocal),
    computed in each Tensor's own dtype, as MindSpore does."""
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_map(scale, v, reciprocal) for v in inputs)
    factor = np.float32(1) / scale if reciprocal else scale
    factor = np.asarray(factor, np.float32) if backend.is_host(factor) else \
        factor.astype(np.float32, copy=False)       # a device scale stays there
    from .. import ops
    return inputs * ops.cast(Tensor._wrap(factor), inputs.dtype)


def _scale_value(value, who):
    if isinstance(value, bool) or not isinstance(value, (float, int)):
        raise TypeError(f"The type of 'scale_value' should be one of '['float', 'int']', but got "
                        f"type '{type(value).__name__}'.")
    if value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {value}")
    return Parameter(Tensor(np.array(value, np.float32)), name='scale_value')


def _positive_int(value, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"The '{arg}' must be int and must > 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return int(value)


class LossScaler(ABC):
    """Base class of loss scalers: ``scale``, ``unscale`` and ``adjust(grads_finite)``."""

    @abstractmethod
    def scale(self, inputs):
        """``inputs`` (the loss or gradients) multiplied by the scale."""
        raise NotImplementedError

    @abstractmethod
    def unscale(self, inputs):
        """``inputs`` divided by the scale."""
        raise NotImplementedError

    @abstractmethod
    def adjust(self, grads_finite):
        """Update the scale from whether the gradients were finite."""
        raise NotImplementedError


class StaticLossScaler(LossScaler):
    """A fixed scale.

    Args:
        scale_value (Union[float, int]): the scale, >= 1.

    Raises:
        TypeError: ``scale_value`` is not a number. ValueError: it is < 1.
    """

    def __init__(self, scale_value):
        self.scale_value = _scale_value(scale_value, 'StaticLossScaler')

    def scale(self, inputs):
        """``inputs`` times the scale."""
        return _map(self.scale_value._data, inputs, False)

    def unscale(self, inputs):
        """``inputs`` divided by the scale."""
        return _map(self.scale_value._data, inputs, True)

    def adjust(self, grads_finite):
        """The scale is fixed: returns False."""
        return False


class DynamicLossScaler(LossScaler):
    """A scale divided by ``scale_factor`` (to at least 1) when gradients are not finite, and
    multiplied by it after ``scale_window`` finite steps in a row (if the product is finite).

    Args:
        scale_value (Union[float, int]): the first scale, >= 1.
        scale_factor (int): the factor of each change, > 0.
        scale_window (int): finite steps before the scale grows, > 0.

    Raises:
        TypeError: ``scale_value`` is not a number. ValueError: an argument out of range.
    """

    def __init__(self, scale_value, scale_factor, scale_window):
        self.scale_value = _scale_value(scale_value, 'DynamicLossScaler')
        self.scale_window = _positive_int(scale_window, 'scale_window')
        self.scale_factor = _positive_int(scale_factor, 'scale_factor')
        self.counter = Parameter(Tensor(np.array(0, np.int32)), name='counter')

    def scale(self, inputs):
        """``inputs`` times the scale."""
        return _map(self.scale_value._data, inputs, False)

    def unscale(self, inputs):
        """``inputs`` divided by the scale."""
        return _map(self.scale_value._data, inputs, True)

    def adjust(self, grads_finite):
        """Update the scale and the counter of finite steps; returns True. A scale on a device
        is updated there, from a flag on that device, without reading either."""
        value = self.scale_value._data
        if type(value) is not np.ndarray:
            self._adjust_on_device(grads_finite, value)
            return True
        finite = bool(np.all(grads_finite._data)) if isinstance(grads_finite, Tensor) \
            else bool(grads_finite)
        counter = int(self.counter._data)
        if finite:
            grown = value * np.float32(self.scale_factor)
            if counter == self.scale_window - 1 and np.isfinite(grown):
                value = grown
        else:
            value = np.maximum(np.float32(1), value / np.float32(self.scale_factor))
        self.scale_value.set_data(np.asarray(value, np.float32))
        self.counter.set_data(np.array((counter + 1) % self.scale_window * finite, np.int32))
        return True

    def _adjust_on_device(self, grads_finite, value):
        """``adjust`` as device arithmetic (``where`` in place of the branches)."""
        xp = backend.array_module(value)
        device = backend.device_of(value)
        if isinstance(grads_finite, Tensor):
            finite = backend.to_device(grads_finite._data, device).all()
        else:
            finite = xp.asarray(np.array(bool(grads_finite)))
        counter = backend.to_device(self.counter._data, device)
        factor = np.float32(self.scale_factor)
        grown = value * factor
        grow = (counter == self.scale_window - 1) & xp.isfinite(grown)
        value = xp.where(finite, xp.where(grow, grown, value),
                         xp.maximum(np.float32(1), value / factor)).astype(np.float32)
        self.scale_value.set_data(value)
        counter = xp.where(finite, (counter + 1) % self.scale_window, 0).astype(np.int32)
        self.counter.set_data(backend.to_device(counter, backend.device_of(self.counter._data)))
