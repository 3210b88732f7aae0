"""What a tensor is: ``rank``, ``size``, ``numel``, ``dtype``, the type tests (``is_tensor``,
``is_floating_point``, ``is_complex``, ``isreal``) and ``print_``.

None of them records anything: they read metadata (``isreal`` makes a constant).
"""
import numpy as np

from .._tensor import Tensor
from ..kernels.backend import array_module

__all__ = ['rank', 'size', 'numel', 'dtype', 'is_tensor', 'is_floating_point', 'is_complex',
           'isreal', 'print_']


def tensor_arg(x, name, arg='input'):
    """``x`` itself, which must be a Tensor (the error names op ``name`` and ``arg``)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(x).__name__}")
    return x


def rank(input_x):
    """The number of dimensions of ``input_x``, an int."""
    return tensor_arg(input_x, 'rank', 'input_x').ndim


def size(input_x):
    """The number of elements of ``input_x``, an int."""
    return tensor_arg(input_x, 'size', 'input_x').size


def numel(input):
    """The number of elements of ``input``, an int."""
    return tensor_arg(input, 'numel').size


def dtype(x):
    """The dtype of ``x``."""
    return tensor_arg(x, 'dtype', 'x').dtype


def is_tensor(obj):
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """Whether ``input``'s dtype is a floating type."""
    return tensor_arg(input, 'is_floating_point')._data.dtype.kind in 'fV'


def is_complex(input):
    """Whether ``input``'s dtype is Complex64 or Complex128."""
    return tensor_arg(input, 'is_complex')._data.dtype.kind == 'c'


def isreal(input):
    """Bool: True where the imaginary part is 0 (everywhere, for a real tensor)."""
    x = tensor_arg(input, 'isreal')
    if x._data.dtype.kind == 'c':
        return Tensor._wrap(x._data.imag == 0)
    return Tensor._wrap(array_module(x._data).ones(x.shape, np.bool_))


def print_(*input_x):
    """Print each argument on its own line (Tensors in their repr); returns None."""
    for a in input_x:
        print(repr(a) if isinstance(a, Tensor) else a)
