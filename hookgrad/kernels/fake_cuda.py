"""A CUDA stand-in: a device on NumPy that keeps CuPy 14's contract, so that CI, which has no GPU,
tests hookgrad's device path.

``HOOKGRAD_FAKE_GPU=1`` makes ``set_device('GPU')`` select it (kernels/backend.py). Its arrays
(``ndarray``) hold a NumPy array that they never hand out implicitly, as CuPy's device arrays:

- converting one to NumPy implicitly (``np.asarray``, a NumPy function given it) raises CuPy's
  TypeError; ``.get()`` and ``asnumpy`` are the explicit ways;
- mixing one with a NumPy array in an operation raises CuPy's TypeError;
- only the names CuPy 14 has exist, on the module (``xp``), its submodules, ``ndarray`` and
  its ``flags`` (recorded from CuPy in cupy_names.json by tools/cupy_names.py); a CuPy name
  the stand-in does not emulate raises NotImplementedError saying so;
- functions and methods take only the parameters CuPy's take (a NumPy keyword such as
  ``take(mode=)`` or ``max(initial=)`` is a TypeError), and a ufunc's ``at``, ``reduce``,
  ``accumulate`` and ``reduceat`` only for the ufuncs CuPy supports them for;
- nothing warns: values are computed with NumPy's floating-point warnings off, as on a GPU;
- its memory pool, memory hooks, device, streams, events and cuBLAS compute types (TF32) are
  CuPy's, emulated in fake_cuda_runtime.py, and its ``ElementwiseKernel`` runs the C subset
  element-wise kernels are written in (fake_cuda_kernels.py);
- every read of device values by the host (``get``, ``asnumpy``, ``item``, ``tolist``,
  ``float()``, ``int()``, ``bool()``, printing) is counted in ``host_reads``;
- every call into the device's API (functions, ufuncs, array methods and operators, element-
  wise kernels, advanced indexing) is counted in ``calls`` by name: on a GPU each costs host
  time and most launch a kernel, so their number per step is what a small network's speed
  there depends on.

NumPy's functions and ufuncs accept the stand-in's arrays through ``__array_function__`` and
``__array_ufunc__``, dispatching to the stand-in, as they do for CuPy's.
"""
import collections
import json
import os
import types
import weakref

import numpy as np

from . import fake_cuda_kernels as _kernels, fake_cuda_runtime as _runtime

DEVICE = 'GPU'
_NAMES = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     'cupy_names.json')))
IMPLICIT = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
            "construct a NumPy array explicitly.")

host_reads = collections.Counter()      # kind of read -> count
calls = collections.Counter()           # device API call (function, kernel) name -> count


_owners = weakref.WeakValueDictionary()   # id of a NumPy array owning memory -> its device array


def _unsupported(value):
    return TypeError(f"Unsupported type {type(value)}")


# ------------------------------------------------------------------------ unwrapping
def _down(value):
    """A call's argument as NumPy sees it: device arrays unwrapped, NumPy arrays refused."""
    kind = type(value)
    if kind is ndarray:
        return value._a
    if kind is np.ndarray:
        raise _unsupported(value)
    if kind is tuple or kind is list:
        return kind(_down(v) for v in value)
    if kind is dict:
        return {k: _down(v) for k, v in value.items()}
    return value


def _up(value):
    """A NumPy result as the device gives it: arrays and NumPy scalars as device arrays."""
    kind = type(value)
    if kind is np.ndarray:
        return ndarray._of(value)
    if isinstance(value, np.generic):
        return ndarray._of(np.asarray(value))
    if kind is tuple or kind is list:
        return kind(_up(v) for v in value)
    if isinstance(value, tuple):                # a named tuple (np.linalg.svd's result)
        return kind(*(_up(v) for v in value))
    return value


def _check(name, params, args, kwargs):
    """A TypeError, as Python gives it, for arguments CuPy's ``name`` does not take."""
    if params is None or '*' in params:
        return
    if len(args) > len(params):
        raise TypeError(f"{name}() takes at most {len(params)} arguments ({len(args)} given)")
    for key in kwargs:
        if key not in params:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")


_GEMMS = frozenset((np.matmul, np.dot, np.tensordot, np.inner, np.vdot))   # cuBLAS's products


def _call(fn, args, kwargs):
    calls[getattr(fn, '__name__', 'call')] += 1
    out = kwargs.get('out')
    args = _down(args)
    if fn in _GEMMS and _runtime._compute:
        args = [_runtime.tf32(a) if type(a) is np.ndarray else a for a in args]
    with np.errstate(all='ignore'):
        y = fn(*args, **_down(kwargs))
    if out is not None and type(out) is ndarray and y is out._a:
        return out                  # in place: the same device array
    return _up(y)


def _function(name, fn, params=None):
    def call(*args, **kwargs):
        _check(name, params, args, kwargs)
        return _call(fn, args, kwargs)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{name}`` on device arrays (NumPy's, behind CuPy's contract)."
    return call


def _upload(fn, name):
    """A creation function that takes host data too (``asarray``, ``array``): an upload."""
    def call(obj, *args, **kwargs):
        if type(obj) is np.ndarray or isinstance(obj, np.generic):
            return ndarray._of(np.array(fn(obj, *args, **kwargs), copy=True))
        return _call(fn, (obj,) + args, kwargs)
    call.__name__ = call.__qualname__ = name
    return call


def _missing(owner, name):
    def call(*args, **kwargs):
        raise NotImplementedError(f"{owner}.{name} exists in CuPy 14 but the CUDA stand-in "
                                  f"(hookgrad.kernels.fake_cuda) does not emulate it")
    call.__name__ = name
    return call


# ------------------------------------------------------------------------ arrays
_ATTRIBUTES = frozenset(_NAMES['ndarray'])
_FLAGS = frozenset(_NAMES['flags'])


class _Flags:
    """``ndarray.flags``: CuPy's (no ``writeable``, no ``setflags``)."""

    __slots__ = ('_flags',)

    def __init__(self, flags):
        self._flags = flags

    c_contiguous = property(lambda self: self._flags.c_contiguous)
    f_contiguous = property(lambda self: self._flags.f_contiguous)
    owndata = property(lambda self: self._flags.owndata)
    forc = property(lambda self: self._flags.forc)
    fnc = property(lambda self: self._flags.fnc)


class ndarray:          # noqa: N801  (CuPy's name)
    """A device array of the stand-in (see the module docstring)."""

    __slots__ = ('_a', '_base', '__weakref__')
    __array_priority__ = 100

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order='C'):
        if memptr is not None or strides is not None:
            raise NotImplementedError("ndarray(memptr=, strides=): the CUDA stand-in has no "
                                      "device memory pointers")
        self._a = np.empty(shape, dtype, order=order)
        _runtime.track(self._a)
        self._base = None
        _owners[id(self._a)] = self

    @classmethod
    def _of(cls, a):
        root = _runtime.track(a)
        self = object.__new__(cls)
        self._a = a
        if root is a:
            self._base = None
            _owners[id(a)] = self
        else:                       # a view: its base is the device array owning the memory
            owner = _owners.get(id(root))
            self._base = ndarray._of(root) if owner is None else owner
        return self

    # -------------------------------------------------------------- what NumPy asks
    def __array__(self, dtype=None, copy=None):
        raise TypeError(IMPLICIT)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        fake = _UFUNCS.get(ufunc.__name__)
        if fake is None:
            return NotImplemented
        return getattr(fake, method)(*inputs, **kwargs) if method != '__call__' \
            else fake(*inputs, **kwargs)

    def __array_function__(self, func, types_, args, kwargs):
        name = func.__name__
        module = func.__module__ or ''
        owner = xp
        for part in ('linalg', 'fft'):
            if module.endswith(part):
                owner = getattr(xp, part)
        fake = getattr(owner, name, None)
        if fake is None or name not in _NAMES['modules'].get(
                '' if owner is xp else owner.__name__.rpartition('.')[2], ()):
            raise TypeError(f"the CUDA stand-in has no {name} (CuPy 14 does not)")
        return fake(*args, **kwargs)

    # -------------------------------------------------------------- host reads
    def get(self, stream=None, order='C', out=None, blocking=True):
        """A NumPy copy of the values (a host read)."""
        host_reads['get'] += 1
        return np.array(self._a, order=order)

    def item(self, *args):
        host_reads['item'] += 1
        return self._a.item(*args)

    def tolist(self):
        host_reads['tolist'] += 1
        return self._a.tolist()

    def __float__(self):
        host_reads['float'] += 1
        return float(self._a)

    def __int__(self):
        host_reads['int'] += 1
        return int(self._a)

    def __complex__(self):
        host_reads['complex'] += 1
        return complex(self._a)

    def __bool__(self):
        host_reads['bool'] += 1
        return bool(self._a)

    def __repr__(self):
        host_reads['print'] += 1
        return repr(self._a)

    def __str__(self):
        host_reads['print'] += 1
        return str(self._a)

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        return (_up(v) for v in self._a)

    __hash__ = None

    # -------------------------------------------------------------- attributes
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    strides = property(lambda self: self._a.strides)
    T = property(lambda self: ndarray._of(self._a.T))
    mT = property(lambda self: ndarray._of(self._a.mT))
    real = property(lambda self: ndarray._of(self._a.real))
    imag = property(lambda self: ndarray._of(self._a.imag))
    flags = property(lambda self: _Flags(self._a.flags))
    base = property(lambda self: self._base)
    device = property(lambda self: _Device(0))
    # CuPy's MemoryPointer, of which code reads the address (``a.data.ptr``)
    data = property(lambda self: _MemoryPointer(self._a.ctypes.data))

    def __getattr__(self, name):
        if name in _ATTRIBUTES and hasattr(self._a, name):
            method = getattr(self._a, name)
            params = _NAMES['ndarray_signatures'].get(name)

            def call(*args, **kwargs):
                _check(f"ndarray.{name}", params, args, kwargs)
                return _call(method, args, kwargs)
            return call
        raise AttributeError(f"'cupy.ndarray' object has no attribute '{name}'")

    def argsort(self, axis=-1, kind=None):
        return xp.argsort(self, axis, kind)

    def sort(self, axis=-1, kind=None):
        if kind not in (None, 'stable'):
            raise ValueError(f"sort: CuPy sorts stably only; kind must be None or 'stable', "
                             f"got {kind!r}")
        self._a.sort(axis=axis, kind='stable')

    def __getitem__(self, key):
        if _advanced(key):
            calls['getitem'] += 1
        return _up(self._a[_down(key)])

    def __setitem__(self, key, value):
        calls['setitem'] += 1
        key, value = _down(key), _down(value)
        if _repeats_in_order(self._a, key):
            key, value = _reversed_writes(self._a, key, value)
        self._a[key] = value


def _advanced(key):
    """Whether indexing with ``key`` gathers (a kernel on a GPU) rather than views."""
    parts = key if type(key) is tuple else (key,)
    return any(type(k) is ndarray or isinstance(k, (list, np.ndarray)) for k in parts)


def _repeats_in_order(a, key):
    """Whether ``a[key] = ...`` writes one element more than once through integer index arrays
    addressing every dimension: CuPy leaves which write wins undefined (its threads race), and
    the stand-in then lets the first win instead of NumPy's last, so that code relying on an
    order fails here as it would on a GPU."""
    if not isinstance(key, tuple) or len(key) != a.ndim or not key:
        return False
    if not all(isinstance(k, np.ndarray) and k.dtype.kind in 'iu' for k in key):
        return False
    flat = np.ravel_multi_index(tuple(np.broadcast_arrays(*key)), a.shape, mode='wrap')
    return np.unique(flat).size < flat.size


def _reversed_writes(a, key, value):
    """The same writes as ``a[key] = value`` in reverse order (the first write wins)."""
    keys = np.broadcast_arrays(*key)
    values = np.broadcast_to(np.asarray(value, a.dtype), keys[0].shape)
    # copies: NumPy may walk a reversed view forwards, which would undo the reversal
    return (tuple(np.ascontiguousarray(k.reshape(-1)[::-1]) for k in keys),
            np.ascontiguousarray(values.reshape(-1)[::-1]))


def _operator(np_ufunc, reflected=False):
    name = np_ufunc.__name__
    if reflected:
        return lambda self, other: _UFUNCS[name](other, self)
    return lambda self, other: _UFUNCS[name](self, other)


def _inplace(np_ufunc):
    name = np_ufunc.__name__

    def op(self, other):
        _UFUNCS[name](self, other, out=self)
        return self
    return op


for _name, _ufunc in (('add', np.add), ('sub', np.subtract), ('mul', np.multiply),
                      ('truediv', np.true_divide), ('floordiv', np.floor_divide),
                      ('mod', np.remainder), ('pow', np.power), ('and', np.bitwise_and),
                      ('or', np.bitwise_or), ('xor', np.bitwise_xor), ('lshift', np.left_shift),
                      ('rshift', np.right_shift), ('matmul', np.matmul)):
    setattr(ndarray, f'__{_name}__', _operator(_ufunc))
    setattr(ndarray, f'__r{_name}__', _operator(_ufunc, True))
    setattr(ndarray, f'__i{_name}__', _inplace(_ufunc))
for _name, _ufunc in (('eq', np.equal), ('ne', np.not_equal), ('lt', np.less),
                      ('le', np.less_equal), ('gt', np.greater), ('ge', np.greater_equal)):
    setattr(ndarray, f'__{_name}__', _operator(_ufunc))
for _name, _ufunc in (('neg', np.negative), ('pos', np.positive), ('abs', np.absolute),
                      ('invert', np.invert)):
    setattr(ndarray, f'__{_name}__', (lambda n: lambda self: _UFUNCS[n](self))(_ufunc.__name__))


class _MemoryPointer:
    """The address of a device array's first element, as CuPy's ``MemoryPointer.ptr``."""

    __slots__ = ('ptr',)

    def __init__(self, ptr):
        self.ptr = ptr


class _Device:
    """``ndarray.device``: CUDA device 0."""

    def __init__(self, id):
        self.id = id

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


# ------------------------------------------------------------------------ ufuncs
class ufunc:            # noqa: N801  (CuPy's name)
    """A CuPy ufunc of the stand-in: NumPy's on the arrays behind the device arrays."""

    def __init__(self, np_ufunc):
        self._ufunc = np_ufunc
        self.name = self.__name__ = np_ufunc.__name__
        self.nin, self.nout, self.nargs = np_ufunc.nin, np_ufunc.nout, np_ufunc.nargs
        self.types = np_ufunc.types

    def __call__(self, *args, **kwargs):
        return _call(self._ufunc, args, kwargs)

    def _method(self, method, args, kwargs):
        supported = _NAMES['ufunc_methods'].get(method)
        if supported is not None and self.name not in supported:
            raise NotImplementedError(f"CuPy 14 supports ufunc.{method} for {supported} only, "
                                      f"not for '{self.name}'")
        _check(f"{self.name}.{method}", _NAMES['ufunc_signatures'].get(method), args, kwargs)
        return _call(getattr(self._ufunc, method), args, kwargs)

    def reduce(self, *args, **kwargs):
        return self._method('reduce', args, kwargs)

    def accumulate(self, *args, **kwargs):
        return self._method('accumulate', args, kwargs)

    def reduceat(self, *args, **kwargs):
        return self._method('reduceat', args, kwargs)

    def outer(self, *args, **kwargs):
        return self._method('outer', args, kwargs)

    def at(self, *args, **kwargs):
        self._method('at', args, kwargs)

    def __repr__(self):
        return f"<ufunc '{self.name}'>"


_UFUNCS = {}


# ------------------------------------------------------------------------ the module
def _module(name, names, source, signatures=None):
    """A module offering ``names`` (CuPy's), each NumPy's from ``source`` behind the contract."""
    module = types.ModuleType(name, f"CuPy 14's ``{name}`` on the CUDA stand-in.")
    signatures = signatures or {}
    for n in names:
        value = getattr(source, n, None)
        if value is None or isinstance(value, types.ModuleType):
            setattr(module, n, _missing(name, n))
        elif isinstance(value, np.ufunc):
            fake = _UFUNCS.setdefault(value.__name__, ufunc(value))
            setattr(module, n, fake)
        elif isinstance(value, type) or not callable(value):
            setattr(module, n, value)                 # dtypes, scalar types, constants
        else:
            setattr(module, n, _function(n, value, signatures.get(n)))
    return module


def asnumpy(a, stream=None, order='C', out=None, blocking=True):
    """A NumPy copy of a device array (a host read); other values as ``np.asarray`` gives."""
    if type(a) is ndarray:
        return a.get(order=order)
    return np.asarray(a, order=order)


def get_array_module(*args):
    """The stand-in for device arrays among ``args``, else NumPy."""
    return xp if any(type(a) is ndarray for a in args) else np


def _scatter(np_ufunc):
    def scatter(a, slices, value):
        np_ufunc.at(_down(a), _down(slices), _down(value))
    return scatter


names = _NAMES['modules']
xp = _module('cupy', names[''], np, _NAMES['signatures'])
xp.ndarray = ndarray
xp.ufunc = ufunc
xp.asnumpy = asnumpy
xp.get_array_module = get_array_module
xp.is_available = lambda: True
for _name in ('asarray', 'array', 'ascontiguousarray', 'asanyarray', 'asfortranarray'):
    setattr(xp, _name, _upload(getattr(np, _name), _name))
xp.linalg = _module('cupy.linalg', names['linalg'], np.linalg)
_solve = xp.linalg.solve


def _cupy_solve(a, b):
    """``cupy.linalg.solve``: CuPy 14 does not broadcast a's and b's batch dimensions."""
    if b.ndim == 0:
        raise ValueError("b must have at least one dimension")
    if b.ndim == 1:
        if a.shape[-1] != b.size:
            raise ValueError("a must have (..., M, M) shape and b must have (M,) "
                             "for one-dimensional b")
    elif a.shape[:-1] != b.shape[:-1]:
        raise ValueError("a must have (..., M, M) shape and b must have (..., M, K) "
                         "for multidimensional b")
    return _solve(a, b)


xp.linalg.solve = _cupy_solve


def _stable(name, fn):
    """CuPy's ``sort``/``argsort``: always stable (NumPy's default is not), ``kind`` None or
    'stable' only."""
    def sort(a, axis=-1, kind=None):
        if kind not in (None, 'stable'):
            raise ValueError(f"{name}: CuPy sorts stably only; kind must be None or 'stable', "
                             f"got {kind!r}")
        return fn(a, axis=axis, kind='stable')
    sort.__name__ = name
    return sort


xp.sort, xp.argsort = _stable('sort', xp.sort), _stable('argsort', xp.argsort)
xp.fft = _module('cupy.fft', names['fft'], np.fft)
xp.random = _module('cupy.random', names['random'], np.random)
xp.lib = types.ModuleType('cupy.lib')
xp.lib.stride_tricks = _module('cupy.lib.stride_tricks', names['lib.stride_tricks'],
                               np.lib.stride_tricks)
xp.cuda, _linalg = _runtime.modules(_NAMES['cuda'], _NAMES['compute_types'], _missing)
xp._core = types.ModuleType('cupy._core')
xp._core._routines_linalg = _linalg
xp.get_default_memory_pool = _runtime.get_default_memory_pool
xp.ElementwiseKernel = _kernels.ElementwiseKernel
cupyx = types.ModuleType('cupyx', "CuPy 14's ``cupyx`` on the CUDA stand-in.")
for _name in _NAMES['cupyx']:
    setattr(cupyx, _name, _missing('cupyx', _name))
cupyx.scatter_add = _scatter(np.add)
cupyx.scatter_max = _scatter(np.maximum)
cupyx.scatter_min = _scatter(np.minimum)
