"""The GPU's runtime: memory statistics over CuPy's memory pool, synchronisation, device
queries and TF32 math. ``mindspore.runtime``, ``mindspore.hal`` and ``mindspore.device_context``
are built on it.

Nothing here starts the GPU. The memory figures are those of the device new tensors go to
(``set_device``): the GPU's pool, or zeros for the CPU, which has no device memory (as
MindSpore's CPU backend reports). Peaks are counted by a CuPy
memory hook that ``start`` registers in the thread that starts the GPU (CuPy's hooks are per
thread): allocations made by other threads move the current figures but not the peaks.

TF32 follows PyTorch's defaults, which MindSpore's GPU backend shares: on for convolutions
(their products then read float32 operands with a 10-bit mantissa, for tensor-core speed), off
for matrix products.
"""
import contextlib
import os

import numpy

from . import backend

_tracker = None         # the peak-counting memory hook, once the GPU is started
_allow = {'matmul': False, 'conv': True}


def start(device):
    """Count peaks and apply the TF32 settings on ``device`` (the GPU, at its first use)."""
    global _tracker
    xp = device.xp

    class PeakMemory(xp.cuda.MemoryHook):
        """Counts the bytes the pool hands out (``used``) and their peak, and the peak of the
        memory the pool holds."""
        name = 'hookgrad.peak_memory'

        def __init__(self, pool):
            self.pool = pool
            self.used = self.peak = pool.used_bytes()
            self.peak_reserved = pool.total_bytes()

        def malloc_postprocess(self, mem_size, mem_ptr, **kwargs):
            if mem_ptr:
                self.used += mem_size
                if self.used > self.peak:
                    self.peak = self.used

        def free_postprocess(self, mem_size, **kwargs):
            self.used -= mem_size

        def alloc_postprocess(self, mem_ptr, **kwargs):
            if mem_ptr:
                self.peak_reserved = max(self.peak_reserved, self.pool.total_bytes())

    _tracker = PeakMemory(xp.get_default_memory_pool())
    _tracker.__enter__()
    _set_compute_type(device, _allow['matmul'])


def _gpu():
    """The GPU if it has been started, else None."""
    return backend._gpu


def started():
    """Whether the GPU is in use in this process."""
    return backend._gpu is not None


def _pool():
    """The GPU's memory pool when new tensors go to the GPU (``set_device``), else None."""
    gpu = _gpu()
    if gpu is None or backend.current is not gpu:
        return None
    return gpu.xp.get_default_memory_pool()


# ----------------------------------------------------------------- memory
def memory_allocated():
    """Bytes the GPU's pool has handed out to live arrays (0 before the GPU is used)."""
    pool = _pool()
    return 0 if pool is None else pool.used_bytes()


def max_memory_allocated():
    """The peak of ``memory_allocated`` since the start or the last reset."""
    return 0 if _pool() is None else max(_tracker.peak, memory_allocated())


def memory_reserved():
    """Bytes the GPU's pool holds from the device: handed out plus cached for reuse."""
    pool = _pool()
    return 0 if pool is None else pool.total_bytes()


def max_memory_reserved():
    """The peak of ``memory_reserved`` since the start or the last reset."""
    return 0 if _pool() is None else max(_tracker.peak_reserved, memory_reserved())


def reset_peak_allocated():
    if _tracker is not None:
        _tracker.used = _tracker.peak = memory_allocated()


def reset_peak_reserved():
    if _tracker is not None:
        _tracker.peak_reserved = memory_reserved()


def empty_cache():
    """Give the pool's cached blocks back to the device (live arrays keep theirs)."""
    pool = _pool()
    if pool is not None:
        pool.free_all_blocks()


# ----------------------------------------------------------------- device
def launch_blocking():
    """Make CUDA wait for each kernel (``CUDA_LAUNCH_BLOCKING=1``, read when CUDA starts).

    Raises:
        RuntimeError: CUDA has started without it.
    """
    gpu = _gpu()
    if gpu is None:
        os.environ['CUDA_LAUNCH_BLOCKING'] = '1'
    elif not gpu.synchronous and os.environ.get('CUDA_LAUNCH_BLOCKING') != '1':
        raise RuntimeError("runtime.launch_blocking() must be called before the GPU is first "
                           "used (CUDA reads CUDA_LAUNCH_BLOCKING when it starts); set "
                           "CUDA_LAUNCH_BLOCKING=1 in the environment instead")


def synchronize():
    """Wait until the GPU has done all the work queued so far (nothing to wait for on the
    CPU, which computes when called)."""
    gpu = _gpu()
    if gpu is not None:
        gpu.xp.cuda.Device().synchronize()


def gpu_count():
    """How many CUDA devices this process sees: 0 without CuPy or a GPU (the stand-in counts
    as one)."""
    try:
        xp = backend.gpu().xp
    except RuntimeError:
        return 0
    return xp.cuda.runtime.getDeviceCount()


def gpu_properties(device_id=0):
    """The GPU's name, compute capability ``(major, minor)`` and total memory in bytes.

    Raises:
        RuntimeError: there is no GPU (or no device of that number).
    """
    xp = backend.gpu().xp
    try:
        props = xp.cuda.runtime.getDeviceProperties(device_id)
    except xp.cuda.runtime.CUDARuntimeError as e:
        raise RuntimeError(f"GPU {device_id}: {e}") from None
    name = props['name']
    return {'name': name.decode() if isinstance(name, bytes) else name,
            'capability': (props['major'], props['minor']),
            'total_memory': props['totalGlobalMem'],
            'multi_processor_count': props.get('multiProcessorCount', 0)}


# ----------------------------------------------------------------- TF32
def allow_tf32(kind, value):
    """Let float32 ``kind`` products ('matmul' or 'conv') use TF32 (or not)."""
    _allow[kind] = bool(value)
    gpu = _gpu()
    if kind == 'matmul' and gpu is not None:
        _set_compute_type(gpu, value)


def tf32_allowed(kind):
    return _allow[kind]


def _set_compute_type(device, tf32):
    linalg = device.xp._core._routines_linalg
    linalg.set_compute_type(numpy.float32, linalg.COMPUTE_TYPE_TF32 if tf32 else
                            linalg.COMPUTE_TYPE_DEFAULT)


@contextlib.contextmanager
def full_float32():
    """No TF32 inside the block (tests that compare the GPU with float32 references)."""
    before = dict(_allow)
    for kind in before:
        allow_tf32(kind, False)
    try:
        yield
    finally:
        for kind, value in before.items():
            allow_tf32(kind, value)


@contextlib.contextmanager
def conv_products(xp):
    """The math mode of a convolution's products on ``xp``'s device: TF32 when allowed for
    convolutions, whatever the matrix-product setting (the device's library reads it per call)."""
    if _allow['conv'] == _allow['matmul'] or _gpu() is None or xp is not _gpu().xp:
        yield
        return
    _set_compute_type(_gpu(), _allow['conv'])
    try:
        yield
    finally:
        _set_compute_type(_gpu(), _allow['matmul'])
