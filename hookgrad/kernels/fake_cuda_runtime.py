"""The CUDA stand-in's runtime: CuPy 14's memory pool, memory hooks, allocator, device, streams,
events and cuBLAS compute types, emulated on the host. fake_cuda.py attaches them as
``cupy.cuda`` and ``cupy._core._routines_linalg``; like the rest of the stand-in they offer only
the names CuPy 14 has (cupy_names.json), and a name they do not emulate raises saying so.

The pool keeps CuPy's accounting: a block is rounded up to 512 bytes; the array that owns it
(the root of a chain of views) holds it until it is collected; a freed block stays cached in the
pool (``total_bytes`` keeps it) until an allocation of the same rounded size reuses it or
``free_all_blocks`` gives it back. Memory hooks, registered per thread as CuPy's are, see
malloc, alloc and free with CuPy's keyword arguments. Nothing runs asynchronously (the stand-in
computes when called), so synchronising returns at once and an event's time is the host clock.
"""
import collections
import threading
import time
import types
import weakref

import numpy as np

ROUND = 512                     # CuPy's allocation unit
TOTAL_MEMORY = 16 << 30         # the stand-in device's memory, as memGetInfo reports it
_local = threading.local()      # per thread: memory hooks, the current stream


class CUDARuntimeError(RuntimeError):
    """CuPy's ``cupy.cuda.runtime.CUDARuntimeError``."""


class OutOfMemoryError(MemoryError):
    """CuPy's ``cupy.cuda.memory.OutOfMemoryError``."""


def _hooks():
    hooks = getattr(_local, 'hooks', None)
    if hooks is None:
        hooks = _local.hooks = collections.OrderedDict()
    return hooks


def _call_hooks(event, **kwargs):
    hooks = getattr(_local, 'hooks', None)
    if hooks:
        for hook in list(hooks.values()):
            getattr(hook, event)(**kwargs)


class MemoryHook:
    """CuPy's ``MemoryHook``: a base class whose six callbacks do nothing; ``with hook:``
    registers it for the calling thread."""

    name = 'MemoryHook'

    def __enter__(self):
        hooks = _hooks()
        if self.name in hooks:
            raise KeyError(f'hook {self.name} already exists')
        hooks[self.name] = self
        return self

    def __exit__(self, *exc):
        del _hooks()[self.name]

    def alloc_preprocess(self, **kwargs):
        pass

    def alloc_postprocess(self, **kwargs):
        pass

    def malloc_preprocess(self, **kwargs):
        pass

    def malloc_postprocess(self, **kwargs):
        pass

    def free_preprocess(self, **kwargs):
        pass

    def free_postprocess(self, **kwargs):
        pass


class _Memory:
    __slots__ = ('size', 'ptr', 'device_id')

    def __init__(self, size, ptr):
        self.size, self.ptr, self.device_id = size, ptr, 0


class MemoryPointer:
    """A block of device memory (CuPy's ``MemoryPointer``); dropping it frees the block."""

    __slots__ = ('mem', 'ptr', 'device_id', '__weakref__')

    def __init__(self, mem):
        self.mem, self.ptr, self.device_id = mem, mem.ptr, 0


_addresses = iter(range(1 << 32, 1 << 62, ROUND))


class MemoryPool:
    """CuPy's device memory pool (see the module docstring for its accounting)."""

    def __init__(self, allocator=None):
        self._used = 0
        self._total = 0
        self._cached = collections.Counter()        # rounded size -> free blocks of that size
        self._limit = 0

    def malloc(self, size):
        """A block of at least ``size`` bytes: a cached one of the same rounded size, else a
        new one (``OutOfMemoryError`` past the limit or the device's memory)."""
        mem_size = -(-size // ROUND) * ROUND
        _call_hooks('malloc_preprocess', device_id=0, size=size, mem_size=mem_size)
        if self._cached[mem_size]:
            self._cached[mem_size] -= 1
            address = next(_addresses)
        else:
            limit = self._limit or TOTAL_MEMORY
            if self._total + mem_size > limit:
                raise OutOfMemoryError(f"Out of memory allocating {mem_size:,} bytes "
                                       f"(allocated so far: {self._total:,} bytes).")
            address = next(_addresses)
            _call_hooks('alloc_preprocess', device_id=0, mem_size=mem_size)
            self._total += mem_size
            _call_hooks('alloc_postprocess', device_id=0, mem_size=mem_size, mem_ptr=address)
        self._used += mem_size
        pointer = MemoryPointer(_Memory(mem_size, address))
        weakref.finalize(pointer, self._free, mem_size, address, id(pointer.mem))
        _call_hooks('malloc_postprocess', device_id=0, size=size, mem_size=mem_size,
                    mem_ptr=address, pmem_id=id(pointer.mem))
        return pointer

    def _free(self, mem_size, address, pmem_id):
        _call_hooks('free_preprocess', device_id=0, mem_size=mem_size, mem_ptr=address,
                    pmem_id=pmem_id)
        self._used -= mem_size
        self._cached[mem_size] += 1
        _call_hooks('free_postprocess', device_id=0, mem_size=mem_size, mem_ptr=address,
                    pmem_id=pmem_id)

    def used_bytes(self):
        return self._used

    def total_bytes(self):
        return self._total

    def free_bytes(self):
        return self._total - self._used

    def n_free_blocks(self):
        return sum(self._cached.values())

    def free_all_blocks(self, stream=None):
        self._total -= sum(size * n for size, n in self._cached.items())
        self._cached.clear()

    def free_all_free(self):
        self.free_all_blocks()

    def set_limit(self, size=None, fraction=None):
        if fraction is not None:
            size = int(TOTAL_MEMORY * fraction)
        self._limit = size or 0

    def get_limit(self):
        return self._limit


_pool = MemoryPool()
_allocator = _pool.malloc
_held = {}          # id of an array that owns its memory -> its MemoryPointer


def get_default_memory_pool():
    """The pool arrays are allocated from (``cupy.get_default_memory_pool``)."""
    return _pool


def set_allocator(allocator=None):
    """Allocate arrays with ``allocator(size) -> MemoryPointer``; None allocates outside any
    pool (CuPy's raw allocator: nothing is counted)."""
    global _allocator
    _allocator = allocator


def get_allocator():
    return _allocator


def track(a):
    """Charge the NumPy array ``a`` behind a new device array to the allocator: the array that
    owns its memory holds one block for as long as it lives (views add nothing). Returns that
    owning array."""
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    key = id(root)
    if key in _held or _allocator is None or root.nbytes == 0:
        return root
    _held[key] = _allocator(root.nbytes)
    weakref.finalize(root, _held.pop, key, None)
    return root


# ------------------------------------------------------------------------ device and streams
class Device:
    """CuPy's ``cupy.cuda.Device``: the stand-in has device 0 only."""

    def __init__(self, device=None):
        self.id = 0 if device is None else int(device)

    def _check(self):
        if self.id != 0:
            raise CUDARuntimeError('cudaErrorInvalidDevice: invalid device ordinal')

    def use(self):
        self._check()

    def synchronize(self):
        self._check()

    @property
    def compute_capability(self):
        self._check()
        return '90'

    @property
    def mem_info(self):
        self._check()
        return TOTAL_MEMORY - _pool.total_bytes(), TOTAL_MEMORY

    def __enter__(self):
        self.use()
        return self

    def __exit__(self, *exc):
        pass

    def __repr__(self):
        return f'<CUDA Device {self.id}>'


class Event:
    """CuPy's ``cupy.cuda.Event``: records the host clock (nothing is queued)."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._timing = not disable_timing
        self._time = None

    def record(self, stream=None):
        self._time = time.perf_counter()

    def synchronize(self):
        pass

    @property
    def done(self):
        return True


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    for event in (start_event, end_event):
        if not event._timing:
            raise CUDARuntimeError('cudaErrorInvalidResourceHandle: invalid resource handle')
        if event._time is None:
            raise CUDARuntimeError('cudaErrorInvalidResourceHandle: the event was not recorded')
    return (end_event._time - start_event._time) * 1e3


class Stream:
    """CuPy's ``cupy.cuda.Stream``: work on it runs at once, so it is always done."""

    null = None         # the null stream, set below

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None):
        self.is_non_blocking = non_blocking
        self.priority = priority or 0
        self.ptds = ptds
        self._null = null

    def synchronize(self):
        pass

    @property
    def done(self):
        return True

    def use(self):
        _local.stream = self
        return self

    def record(self, event=None):
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event):
        pass

    def is_capturing(self):
        return False

    def __enter__(self):
        previous = getattr(_local, 'stream', None)
        _local.streams = getattr(_local, 'streams', []) + [previous]
        return self.use()

    def __exit__(self, *exc):
        _local.stream = _local.streams.pop()



Stream.null = Stream(null=True)


def get_current_stream(device_id=None):
    """The stream the calling thread's work goes to (the null stream unless one is in use)."""
    return getattr(_local, 'stream', None) or Stream.null


# ------------------------------------------------------------------------ cuBLAS compute types
COMPUTE_TYPES = {}          # filled from cupy_names.json by ``module``
_compute = {}               # dtype -> compute type set by set_compute_type


def set_compute_type(dtype, compute_type):
    _compute[np.dtype(dtype)] = compute_type


def get_compute_type(dtype):
    return _compute.get(np.dtype(dtype), COMPUTE_TYPES['COMPUTE_TYPE_DEFAULT'])


def tf32(a):
    """``a`` as cuBLAS's TF32 mode reads float32 operands: the mantissa rounded to its top 10
    bits (round to nearest even); other arrays, and float32 without TF32, unchanged."""
    if a.dtype != np.float32 or _compute.get(a.dtype) != COMPUTE_TYPES['COMPUTE_TYPE_TF32']:
        return a
    bits = np.ascontiguousarray(a).view(np.uint32)
    keep = np.uint32(0xFFFFE000)
    half = np.uint32(0xFFF) + ((bits >> np.uint32(13)) & np.uint32(1))
    rounded = np.where(np.isfinite(a), (bits + half) & keep, bits)
    return rounded.astype(np.uint32).view(np.float32).reshape(a.shape)


# ------------------------------------------------------------------------ the modules
def modules(names, compute_types, missing):
    """``(cuda, routines_linalg)``: the stand-in's ``cupy.cuda`` (with ``runtime``) and
    ``cupy._core._routines_linalg``, offering CuPy 14's recorded ``names`` and
    ``compute_types``; ``missing(owner, name)`` makes the callable that refuses a name not
    emulated."""
    cuda = types.ModuleType('cupy.cuda', "CuPy 14's ``cupy.cuda`` on the CUDA stand-in.")
    emulated = {'MemoryPool': MemoryPool, 'MemoryPointer': MemoryPointer,
                'MemoryHook': MemoryHook, 'Device': Device, 'Stream': Stream, 'Event': Event,
                'get_current_stream': get_current_stream, 'get_elapsed_time': get_elapsed_time,
                'set_allocator': set_allocator, 'get_allocator': get_allocator,
                'is_available': lambda: True}
    for name in names['']:
        setattr(cuda, name, emulated.get(name) or missing('cupy.cuda', name))
    runtime = types.ModuleType('cupy.cuda.runtime')
    emulated = {'CUDARuntimeError': CUDARuntimeError, 'getDeviceCount': lambda: 1,
                'getDevice': lambda: 0, 'deviceSynchronize': lambda: None,
                'memGetInfo': lambda: Device().mem_info,
                'getDeviceProperties': _properties, 'runtimeGetVersion': lambda: 12080,
                'driverGetVersion': lambda: 12080}
    for name in names['runtime']:
        setattr(runtime, name, emulated.get(name) or missing('cupy.cuda.runtime', name))
    cuda.runtime = runtime
    cuda.memory = types.SimpleNamespace(OutOfMemoryError=OutOfMemoryError)
    linalg = types.ModuleType('cupy._core._routines_linalg')
    COMPUTE_TYPES.update(compute_types)
    for name, value in COMPUTE_TYPES.items():
        setattr(linalg, name, value)
    linalg.set_compute_type = set_compute_type
    linalg.get_compute_type = get_compute_type
    return cuda, linalg


def _properties(device):
    if device != 0:
        raise CUDARuntimeError('cudaErrorInvalidDevice: invalid device ordinal')
    return {'name': b'CUDA stand-in (NumPy)', 'totalGlobalMem': TOTAL_MEMORY, 'major': 9,
            'minor': 0, 'multiProcessorCount': 132}
