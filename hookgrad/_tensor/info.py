"""Tensor's layout, type and creation methods (``dim``, ``stride``, ``int``, ``new_zeros``...)."""
import numpy as np

from .. import _dtype
from ..autograd import complex_support as _complex_support, function as _function
from ..kernels import backend as _backend


_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


def _size_arg(size, name):
    """``size`` given as ints or as one tuple/list, as a tuple of ints."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in size):
        raise TypeError(f"Tensor.{name}: size must be ints or one tuple of ints, got {size!r}")
    return tuple(int(d) for d in size)


def _shape_arg(size, name):
    """A shape given as an int or a tuple/list of ints."""
    return _size_arg(size if isinstance(size, (tuple, list)) else (size,), name)


class _HostCapsule:
    """A DLPack capsule of host memory as the exporter object ``np.from_dlpack`` reads."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **_):
        return self.capsule

    def __dlpack_device__(self):
        return 1, 0                 # kDLCPU, device 0


class InfoMethods:
    """Layout queries, casts and ``new_*`` constructors (MindSpore's Tensor methods)."""

    __slots__ = ()

    # ----------------------------------------------------------------- layout
    def dim(self):
        """The number of dimensions."""
        return self._data.ndim

    ndimension = dim

    def numel(self):
        """The number of elements."""
        return int(self._data.size)

    nelement = numel

    @property
    def strides(self):
        """Bytes to step in each dimension (the NumPy array's strides)."""
        return tuple(int(s) for s in self._data.strides)

    def stride(self, dim=None):
        """Elements to step in each dimension (a list, as MindSpore's), or in dimension ``dim``."""
        item = self._data.dtype.itemsize
        steps = [int(s) // item for s in self._data.strides]
        if dim is None:
            return steps
        if not -len(steps) <= dim < len(steps) or not len(steps):
            raise IndexError(f"Tensor.stride: dim {dim} is out of range for a tensor with "
                             f"{len(steps)} dimensions")
        return steps[dim]

    def storage_offset(self):
        """Always 0: every hookgrad tensor starts at the beginning of its storage."""
        return 0

    def data_ptr(self):
        """The address of the first element (an int)."""
        a = self._data
        return int(a.ctypes.data) if _backend.is_host(a) else int(a.data.ptr)

    def is_pinned(self):
        """False: a hookgrad tensor is never in page-locked host memory."""
        return False

    def is_shared(self):
        """False: a hookgrad tensor is never in memory shared between processes."""
        return False

    def is_contiguous(self):
        """Whether the values lie in row-major order without gaps."""
        return bool(self._data.flags.c_contiguous)

    def contiguous(self):
        """This tensor if it is contiguous, otherwise a row-major copy (differentiable)."""
        if self._data.flags.c_contiguous:
            return self
        return _ops.identity(self, copy=True)

    @property
    def data(self):
        """The same values, cut from the graph (writes to it change this tensor)."""
        return self.detach()

    @data.setter
    def data(self, value):
        from .tensor import Tensor
        if not isinstance(value, Tensor):
            raise TypeError(f"Tensor.data: the new value must be a Tensor, got "
                            f"{type(value).__name__}")
        _function.effect(_replace_data, self, value)

    def to_(self, device=None, non_blocking=False):
        """Moves this tensor's values to ``device`` ('CPU' or 'GPU') in place and returns it
        (``non_blocking`` is accepted; the copy is made at once)."""
        if not isinstance(non_blocking, bool):
            raise ValueError(f"Tensor.to_: non_blocking must be a bool, got "
                             f"{type(non_blocking).__name__}")
        if not isinstance(device, str):
            raise ValueError(f"Tensor.to_: device must be 'CPU' or 'GPU', got {device!r}")
        self.data = self.move_to(device)
        return self

    def value(self):
        """A tensor holding a copy of the values, cut from the graph."""
        from .tensor import Tensor
        _function.value_read(self)
        return Tensor._wrap(self._data.copy())

    @property
    def has_init(self):
        """Always False: hookgrad tensors hold their values from creation (no lazy init)."""
        return False

    def is_init(self):
        """Always False: hookgrad tensors are never waiting for a lazy initialisation."""
        return False

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """The tensor itself: a tensor made with ``init=`` holds its values from creation.
        ``slice_index``, ``shape`` and ``opt_shard_group`` are for parallel training and
        change nothing here."""
        return self

    def set_dtype(self, dtype):
        """Convert the values to ``dtype`` in place (MindSpore's cast, truncating floats to
        integers); returns the dtype. A tensor on a graph keeps its recorded values: use
        ``astype`` for a differentiable cast."""
        np_dtype = _dtype.to_numpy(dtype)
        self._data = self._data.astype(np_dtype)
        return _dtype.from_numpy(np_dtype)

    def itemset(self, *args):
        """Set one element: ``itemset(value)`` for a one-element tensor, or
        ``itemset(index, value)`` with a flat int index or a tuple of indices; returns self."""
        if len(args) == 1:
            if self.size != 1:
                raise ValueError(f"Tensor.itemset: a value alone needs a one-element tensor, "
                                 f"this one has shape {self.shape}")
            index, value = (0,) * self.ndim, args[0]
        elif len(args) == 2:
            index, value = args
            if isinstance(index, (int, np.integer)):
                index = np.unravel_index(int(index), self.shape)
            index = tuple(int(i) for i in index)
        else:
            raise TypeError(f"Tensor.itemset: takes (value) or (index, value), got {len(args)} "
                            f"arguments")
        _ops.setitem(self, index, value)
        return self

    def resize(self, *new_shape):
        """A tensor of shape ``new_shape`` holding this one's values in row-major order,
        truncated or padded with zeros."""
        shape = _size_arg(new_shape, 'resize')
        n = int(np.prod(shape))
        flat = _ops.reshape(self, (-1,))
        if n <= self.size:
            flat = _ops.narrow(flat, 0, 0, n)
        else:
            with _here(self):
                zeros = _ops.zeros((n - self.size,), self.dtype)
            flat = _ops.concat((flat, zeros), 0)
        return _ops.reshape(flat, shape)

    # ----------------------------------------------------------------- types
    def is_floating_point(self):
        return self._data.dtype.kind in 'fV'

    def is_signed(self):
        """Whether the dtype holds negative numbers (floats and signed ints)."""
        return self._data.dtype.kind in 'fiV'

    def is_complex(self):
        """Whether the dtype is Complex64 or Complex128."""
        return self._data.dtype.kind == 'c'

    def isreal(self):
        """Bool: True where the imaginary part is 0 (everywhere, for a real tensor)."""
        return _ops.isreal(self)

    def conj(self):
        """The complex conjugate (the tensor itself for a real one)."""
        return _ops.conj(self) if self._data.dtype.kind == 'c' else self

    def real(self):
        """The real part (the tensor itself for a real one)."""
        return _ops.real(self) if self._data.dtype.kind == 'c' else self

    def imag(self):
        """The imaginary part (zeros of this shape and dtype for a real one)."""
        return _ops.imag(self)

    def type(self, dtype=None):
        """The dtype's name (``'Float32'``) or, given ``dtype``, the tensor cast to it."""
        if dtype is None:
            return str(self.dtype)
        if isinstance(dtype, str):
            dtype = _dtype_named(dtype)
        return _ops.cast(self, dtype)

    def type_as(self, other):
        """This tensor cast to ``other``'s dtype."""
        return _ops.cast(self, other.dtype)

    def int(self):
        return _ops.cast(self, _dtype.int32)

    def long(self):
        return _ops.cast(self, _dtype.int64)

    def short(self):
        return _ops.cast(self, _dtype.int16)

    def byte(self):
        return _ops.cast(self, _dtype.uint8)

    def bool(self):
        return _ops.cast(self, _dtype.bool_)

    def half(self):
        return _ops.cast(self, _dtype.float16)

    def double(self):
        return _ops.cast(self, _dtype.float64)

    def bfloat16(self):
        return _ops.cast(self, _dtype.bfloat16)

    # ----------------------------------------------------------------- new tensors
    def new_zeros(self, size, dtype=None):
        """Zeros of shape ``size`` on this tensor's device, of its dtype unless ``dtype`` is
        given."""
        with _here(self):
            return _ops.zeros(_shape_arg(size, 'new_zeros'), dtype or self.dtype)

    def new_ones(self, size, dtype=None):
        """Ones of shape ``size`` on this tensor's device, of its dtype unless ``dtype`` is
        given."""
        with _here(self):
            return _ops.ones(_shape_arg(size, 'new_ones'), dtype or self.dtype)

    def new_full(self, size, fill_value, *, dtype=None):
        """``fill_value`` in shape ``size`` on this tensor's device, of its dtype unless
        ``dtype`` is given."""
        with _here(self):
            return _ops.full(_shape_arg(size, 'new_full'), fill_value, dtype=dtype or self.dtype)

    def new_empty(self, size, *, dtype=None, device=None):
        """A tensor of shape ``size`` (holding zeros), of this dtype unless ``dtype`` is given."""
        if device not in (None, 'CPU', 'cpu'):
            raise ValueError(f"Tensor.new_empty: device {device!r} is not available in hookgrad "
                             f"(it computes on the CPU with NumPy); pass device=None")
        with _here(self):
            return _ops.zeros(_shape_arg(size, 'new_empty'), dtype or self.dtype)

    @staticmethod
    def from_numpy(array):
        """A tensor sharing memory with the NumPy array ``array``."""
        from .tensor import Tensor
        if not isinstance(array, np.ndarray):
            raise TypeError(f"Tensor.from_numpy: array must be a numpy.ndarray, got "
                            f"{type(array).__name__}")
        _complex_support.admit(array.dtype)     # a TypeError names an unsupported dtype
        return Tensor._wrap(array)

    def to_dlpack(self):
        """A DLPack capsule over this tensor's memory (no copy), for another framework's
        ``from_dlpack``; it may be consumed once."""
        return self._data.__dlpack__()

    @staticmethod
    def from_dlpack(dlpack):
        """A tensor sharing the memory of ``dlpack``: a DLPack capsule of host memory (as
        ``to_dlpack`` makes) or an object with ``__dlpack__`` (a NumPy array...)."""
        from .tensor import Tensor
        if not hasattr(dlpack, '__dlpack__'):
            if type(dlpack).__name__ != 'PyCapsule':
                raise TypeError(f"Tensor.from_dlpack: dlpack must be a DLPack capsule or an "
                                f"object with __dlpack__, got {type(dlpack).__name__}")
            dlpack = _HostCapsule(dlpack)
        array = np.from_dlpack(dlpack)
        _complex_support.admit(array.dtype)     # a TypeError names an unsupported dtype
        return Tensor._wrap(array)

    # ----------------------------------------------------------------- matrix views
    @property
    def mT(self):
        """The last two axes swapped."""
        return _swap_last(self, 'mT')

    @property
    def mH(self):
        """The conjugate transpose of the last two axes."""
        return _conj(_swap_last(self, 'mH'))

    @property
    def H(self):
        """The conjugate transpose of a matrix."""
        if self.ndim != 2:
            raise ValueError(f"Tensor.H: the tensor must be 2-D, got shape {self.shape}")
        return _conj(_ops.transpose(self, (1, 0)))

    def adjoint(self):
        """The conjugate transpose of the last two axes."""
        return _conj(_swap_last(self, 'adjoint'))

    def t(self):
        """The transpose of a tensor of rank <= 2 (rank 0 and 1 come back unchanged)."""
        if self.ndim > 2:
            raise ValueError(f"Tensor.t: the tensor must have rank <= 2, got shape {self.shape}")
        return self if self.ndim < 2 else _ops.transpose(self, (1, 0))


def _conj(x):
    return _ops.conj(x) if x._data.dtype.kind == 'c' else x


def _swap_last(x, name):
    if x.ndim < 2:
        raise ValueError(f"Tensor.{name}: the tensor must have rank >= 2, got shape {x.shape}")
    return _ops.swapaxes(x, -2, -1)


def _dtype_named(name):
    for d in _dtype._ALL:
        if str(d) == name or getattr(d, 'name', None) == name:
            return d
    raise TypeError(f"Tensor.type: unknown dtype name {name!r}")


def _here(x):
    """The block in which new tensors are created on the device of the Tensor ``x``."""
    return _backend.default_device(_backend.device_of(x._data))


def _replace_data(x, value):
    x._data = value._data.copy()
