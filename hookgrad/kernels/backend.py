"""The array backend: which array library runs the math, on which device.

A device is the CPU (NumPy) or the GPU (CuPy; with ``HOOKGRAD_FAKE_GPU=1``, the CUDA stand-in
of fake_cuda.py, on NumPy). An array's type says its device, so an op finds the array module
of its inputs with one type test: NumPy's ``ndarray`` is the CPU, anything else is looked up.
Arrays move between devices here and nowhere else: ``to_device`` (an upload or a download) and
``to_host`` (a NumPy array, for printing, ``asnumpy`` and every other host read). ``default()``
is the device new tensors are created on (``set_device``).
"""
import contextlib
import os

import numpy

from . import sync as _sync

xp = numpy              # the CPU's array module
ndarray = numpy.ndarray


def asarray(data):
    """``data`` as an array: a device array as it is, anything else (a NumPy scalar, a list)
    as a NumPy array, copying only when needed."""
    return data if type(data) in _devices and type(data) is not ndarray else numpy.asarray(data)


class Device:
    """A device: its name as MindSpore prints it (``'CPU'``, ``'GPU:0'``), its array module
    (``xp``), the type of its arrays, and whether an op's work is done when it returns
    (``synchronous``: the CPU and the CUDA stand-in; a GPU queues kernels)."""

    __slots__ = ('target', 'id', 'name', 'xp', 'array_type', 'synchronous')

    def __init__(self, target, id, module, array_type, synchronous=True):
        self.target = target
        self.id = id
        self.name = target if id is None else f"{target}:{id}"
        self.xp = module
        self.array_type = array_type
        self.synchronous = synchronous

    def __repr__(self):
        return f"Device('{self.name}')"


CPU = Device('CPU', None, numpy, numpy.ndarray)
_devices = {numpy.ndarray: CPU}         # array type -> device
_gpu = None
current = CPU               # the device new tensors are created on (read it; set_default sets it)


def gpu():
    """The GPU: CuPy's device 0, or the CUDA stand-in when ``HOOKGRAD_FAKE_GPU=1``.

    Raises:
        RuntimeError: there is no GPU to use (CuPy is missing or finds no device).
    """
    global _gpu
    if _gpu is None:
        synchronous = os.environ.get('HOOKGRAD_FAKE_GPU') == '1'
        if synchronous:
            from . import fake_cuda
            module, array_type = fake_cuda.xp, fake_cuda.ndarray
        else:
            try:
                import cupy
            except ImportError:
                raise RuntimeError("hookgrad runs on an NVIDIA GPU through CuPy, which is not "
                                   "installed (pip install cupy-cuda12x); HOOKGRAD_FAKE_GPU=1 "
                                   "selects a CUDA stand-in on the CPU for tests") from None
            if not cupy.is_available():
                raise RuntimeError("CuPy finds no CUDA device on this machine")
            module, array_type = cupy, cupy.ndarray
        device = Device('GPU', 0, module, array_type, synchronous)
        _devices[array_type] = device
        _gpu = device
        from . import gpu_runtime       # it reads this module's GPU: imported once started
        gpu_runtime.start(device)
    return _gpu


def default():
    """The device new tensors are created on."""
    return current


def set_default(device):
    """Create new tensors on ``device`` from now on (``set_device``)."""
    global current
    current = device


@contextlib.contextmanager
def default_device(device):
    """Create new tensors on ``device`` inside the block (tests, and code that builds a network
    on one device); the previous default comes back after it."""
    global current
    previous = current
    current = device
    try:
        yield device
    finally:
        current = previous


def device_of(a):
    """The device an array lives on.

    Raises:
        TypeError: ``a`` is not an array of any device.
    """
    device = _devices.get(type(a))
    if device is None:
        if isinstance(a, (numpy.ndarray, numpy.generic, int, float)):   # host values
            return CPU
        raise TypeError(f"expected an array, got {type(a).__name__}")
    return device


def array_module(a):
    """The array module of ``a``'s device (NumPy for the CPU)."""
    return numpy if type(a) is ndarray else device_of(a).xp


def is_device_array(a):
    """Whether ``a`` is an array of a device other than the CPU."""
    return type(a) in _devices and type(a) is not ndarray


def is_host(a):
    """Whether ``a`` is a CPU (NumPy) array or a NumPy scalar."""
    return type(a) is ndarray or isinstance(a, (numpy.ndarray, numpy.generic))


def to_host(a, what='a copy to the host'):
    """``a`` as a NumPy array: itself on the CPU, else a copy read from its device (a host
    read, which sync-debug mode reports naming ``what``: kernels/sync.py)."""
    if is_host(a):
        return a
    _sync.host_read(what)
    return device_of(a).xp.asnumpy(a)


def to_device(a, device):
    """``a`` on ``device``: itself when it is there, else a copy (through the host between
    two devices)."""
    if type(a) is device.array_type:
        return a
    if device is CPU:
        return to_host(a)
    return device.xp.asarray(to_host(a))


def on_default(a):
    """Host data ``a`` (a NumPy array) on the default device: the creation path of tensors."""
    device = current
    return a if device is CPU else device.xp.asarray(a)


def select(target, device_id, who):
    """The backend device for ``target`` ('CPU', 'GPU'), or a ValueError saying why there is
    none ('Ascend'; no GPU; a GPU other than 0)."""
    if target == 'CPU':
        return CPU
    if target == 'Ascend':
        raise ValueError(f"{who}: hookgrad has no Ascend device; it computes on the CPU "
                         f"(NumPy) or an NVIDIA GPU (CuPy)")
    try:
        device = gpu()
    except RuntimeError as e:
        raise ValueError(f"{who}: device 'GPU' is not available: {e}") from None
    if device_id not in (None, 0):
        raise ValueError(f"{who}: hookgrad uses GPU 0 of a process; got device_id "
                         f"{device_id} (choose the GPU with CUDA_VISIBLE_DEVICES)")
    return device
