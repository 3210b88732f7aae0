"""Parameter: a named Tensor that a network trains (MindSpore's ``mindspore.Parameter``)."""
import numpy as np

from .._tensor import Tensor, _to_array


class Parameter(Tensor):
    """A trainable Tensor with a name.

    Args:
        default_input: a Tensor, NumPy array or Python number holding the initial value.
        name: the parameter's name (a Cell names unnamed parameters after their attribute).
        requires_grad: whether gradients are computed for it. Default True.

    >>> import hookgrad as ms
    >>> ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
    Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)
    """

    __slots__ = ('name',)

    def __init__(self, default_input, name=None, requires_grad=True):
        if isinstance(default_input, Tensor):
            data = np.array(default_input._data)      # a parameter owns its storage
        else:
            data = _to_array(default_input, None)
            if data.base is not None or not data.flags.writeable:
                data = np.array(data)
        self._data = data
        self._node = None
        self._index = 0
        self.requires_grad = bool(requires_grad)
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Parameter: name must be a str, got {type(name).__name__}")
        self.name = name

    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    def __reduce__(self):
        return (Parameter, (np.asarray(self._data), self.name, self.requires_grad))
