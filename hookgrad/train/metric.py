"""The base of evaluation metrics: ``Metric`` (``clear``, ``update``, ``eval``) and the
``rearrange_inputs`` decorator that lets ``set_indexes`` pick a metric's inputs."""
import abc
import functools

import numpy as np

from .._tensor import Tensor


def rearrange_inputs(func):
    """Decorate a metric's ``update`` so that ``set_indexes`` picks and orders its inputs."""
    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes:
            if max(indexes) >= len(inputs) or min(indexes) < -len(inputs):
                raise ValueError(f"{type(self).__name__}.update: indexes {indexes} do not fit "
                                 f"{len(inputs)} inputs")
            inputs = tuple(inputs[i] for i in indexes)
        return func(self, *inputs)
    return wrapper


class Metric(metaclass=abc.ABCMeta):
    """Base class of metrics: subclasses define ``clear``, ``update(*inputs)`` and ``eval``.

    Calling a metric clears it, updates it once with the inputs and returns ``eval()``.

    >>> import numpy as np, hookgrad as ms
    >>> class MeanAbs(ms.nn.Metric):
    ...     def clear(self):
    ...         self.total, self.n = 0.0, 0
    ...     def update(self, *inputs):
    ...         x = self._convert_data(inputs[0])
    ...         self.total += np.abs(x).sum(); self.n += x.size
    ...     def eval(self):
    ...         return self.total / self.n
    >>> float(MeanAbs()(np.array([-1.0, 3.0])))
    2.0
    """

    def __init__(self):
        self._indexes = None

    @property
    def indexes(self):
        """The input positions ``update`` uses (set by ``set_indexes``), or None for all."""
        return self.__dict__.get('_indexes')

    def set_indexes(self, indexes):
        """Make ``update`` use only the inputs at ``indexes``, in that order; returns self.

        Raises:
            ValueError: when ``indexes`` is not a list of ints.
        """
        if not isinstance(indexes, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in indexes):
            raise ValueError(f"{type(self).__name__}.set_indexes: indexes must be a list of "
                             f"ints, got {indexes!r}")
        self._indexes = indexes
        return self

    def _convert_data(self, data):
        """``data`` (a Tensor, list or NumPy array) as a NumPy array."""
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, (list, np.ndarray)):
            return np.asarray(data)
        raise TypeError(f"{type(self).__name__}: inputs must be Tensors, lists or NumPy arrays, "
                        f"got {type(data).__name__}")

    def _pair(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"{type(self).__name__}.update: expected 2 inputs (y_pred, y), got "
                             f"{len(inputs)}")
        return self._convert_data(inputs[0]), self._convert_data(inputs[1])

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abc.abstractmethod
    def clear(self):
        """Reset the accumulated state."""

    @abc.abstractmethod
    def update(self, *inputs):
        """Accumulate one batch of inputs."""

    @abc.abstractmethod
    def eval(self):
        """The metric over everything accumulated since ``clear``."""
