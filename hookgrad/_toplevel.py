"""MindSpore's small top-level functions and the top-level names defined in other modules.

Every name in ``__all__`` is a top-level ``hookgrad`` (``mindspore``) name: tensor creation
(``tensor``, ``from_numpy``, ``is_tensor``), the dtypes and dtype helpers of
``mindspore.common.dtype``, the generator functions (``seed``, ``manual_seed``,
``initial_seed``, ``get_rng_state``, ``set_rng_state``, over hookgrad's one generator),
``run_check``, ``set_device`` / ``get_current_device``, ``export`` / ``load``, and the metrics
and callbacks MindSpore also exports at the top level. The runtime names (memory statistics,
``synchronize``, ``Generator``, ``frombuffer``, ``recompute``...) are in _runtime.py.

MindSpore's ``ms.int``, ``ms.float`` and ``ms.bool`` (Int32, Float32, Bool) come from this
module's ``__getattr__``, so the builtins keep their meaning here.
"""
import numbers
import secrets

import numpy as np

from . import _dtype, _random
from ._dtype import (TensorType, Type, bfloat16, byte, cdouble, cfloat, complex64, complex128,
                     dtype_to_nptype, dtype_to_pytype, float8_e4m3fn, float8_e5m2,
                     get_py_obj_dtype, hifloat8, intc, intp, list_, long, number,
                     pytype_to_dtype, qint4x2, short, string, tensor_type, tuple_, type_none,
                     ubyte, uint, uint16, uint32, uint64, uintc, uintp, ushort)
from ._tensor import Tensor
from .kernels import backend
from .autograd import complex_support
from .train import (Accuracy, F1, Fbeta, Loss, MAE, MSE, Metric, Precision, Recall,
                    Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy,
                    get_metric_fn, rearrange_inputs)
from .train.graph_export import export
from .train.graph_cell import load
from .common.sparse_tensor import RowTensor
from .common.sparse import COOTensor, CSRTensor, SparseTensor
from .common.symbol import Symbol
from .parallel import (set_algo_parameters, get_algo_parameters, reset_algo_parameters,
                       parameter_broadcast, merge_sliced_parameter)
from ._runtime import __all__ as _runtime_names
from ._runtime import *  # noqa: F401,F403

__all__ = [
    # tensors
    'tensor', 'from_numpy', 'is_tensor',
    # dtypes (mindspore.common.dtype's names that MindSpore also has at the top level)
    'TensorType', 'Type', 'bfloat16', 'byte', 'cdouble', 'cfloat', 'complex64', 'complex128',
    'dtype_to_nptype', 'dtype_to_pytype', 'float8_e4m3fn', 'float8_e5m2', 'get_py_obj_dtype',
    'hifloat8', 'intc', 'intp', 'list_', 'long', 'number', 'pytype_to_dtype', 'qint4x2',
    'short', 'string', 'tensor_type', 'tuple_', 'type_none', 'ubyte', 'uint', 'uint16',
    'uint32', 'uint64', 'uintc', 'uintp', 'ushort', 'bool', 'int', 'float',
    # the generator
    'seed', 'manual_seed', 'initial_seed', 'get_rng_state', 'set_rng_state',
    # the installation and the device
    'run_check', 'set_device', 'get_current_device',
    # inference export
    'export', 'load',
    # metrics MindSpore exports at the top level
    'Accuracy', 'F1', 'Fbeta', 'Loss', 'MAE', 'MSE', 'Metric', 'Precision', 'Recall',
    'Top1CategoricalAccuracy', 'Top5CategoricalAccuracy', 'TopKCategoricalAccuracy',
    'get_metric_fn', 'rearrange_inputs',
    # sparse rows and symbolic dimensions
    'RowTensor', 'COOTensor', 'CSRTensor', 'SparseTensor', 'Symbol',
    # mindspore.parallel's names at the top level
    'set_algo_parameters', 'get_algo_parameters', 'reset_algo_parameters',
    'parameter_broadcast', 'merge_sliced_parameter',
] + _runtime_names


def __getattr__(name):
    if name in ('bool', 'int', 'float'):
        return getattr(_dtype, name)
    raise AttributeError(f"module 'hookgrad._toplevel' has no attribute '{name}'")


# ----------------------------------------------------------------- tensors
def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """A new Tensor (MindSpore 2.x's function form of ``Tensor``; same arguments).

    Args:
        device: None or 'CPU' (hookgrad keeps tensors in host memory).

    Raises:
        ValueError: for another ``device``; as ``Tensor`` otherwise.

    >>> import hookgrad as ms
    >>> ms.tensor([1, 2, 3])
    Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])
    """
    if device is not None and device != 'CPU':
        raise ValueError(f"tensor: device must be None or 'CPU' (hookgrad keeps tensors in host "
                         f"memory and has no data-less 'meta' tensors), got {device!r}")
    return Tensor(input_data, dtype, shape, init, const_arg=const_arg)


def from_numpy(array):
    """A Tensor over ``array``'s memory (a copy when it is not C-contiguous).

    Raises:
        TypeError: for an ``array`` that is not a NumPy array, or of an unsupported dtype.

    >>> import numpy as np, hookgrad as ms
    >>> a = np.array([1.0, 2.0]); t = ms.from_numpy(a); a[0] = 9.0
    >>> print(t)
    [9. 2.]
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"from_numpy: expected a NumPy array, got {type(array).__name__}")
    complex_support.admit(array.dtype)      # a TypeError for dtypes hookgrad cannot hold
    if not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)
    return Tensor._wrap(array)


def is_tensor(obj):
    """Whether ``obj`` is a Tensor (a Parameter is one)."""
    return isinstance(obj, Tensor)


# ----------------------------------------------------------------- the generator
_STATE_BYTES = 37       # PCG64: state and increment (16 bytes each), has_uint32, uinteger


def manual_seed(seed):
    """Seed hookgrad's generator (``set_seed``: hookgrad has one generator, so ``get_seed``
    and ``initial_seed`` give ``seed`` afterwards).

    Returns:
        int: ``seed``.

    Raises:
        TypeError: for a ``seed`` that is not an int; ValueError for a negative one.
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"manual_seed: seed must be an int >= 0, got {seed!r}")
    if seed < 0:
        raise ValueError(f"manual_seed: seed must be an int >= 0, got {seed}")
    _random.set_seed(int(seed))
    return int(seed)


def seed():
    """Seed hookgrad's generator with a new random seed (from OS entropy) and return it."""
    return manual_seed(secrets.randbits(32))


def initial_seed():
    """The seed hookgrad's generator was last seeded with (``set_seed``, ``manual_seed``,
    ``seed``), or None while it draws from OS entropy (never seeded)."""
    return _random.get_seed()


def get_rng_state():
    """The state of hookgrad's generator, a UInt8 Tensor that ``set_rng_state`` restores.

    Raises:
        RuntimeError: when the generator is not NumPy's PCG64 (hookgrad's).
    """
    state = _pcg64_state()
    inner = state['state']
    raw = (inner['state'].to_bytes(16, 'little') + inner['inc'].to_bytes(16, 'little')
           + bytes([state['has_uint32']]) + state['uinteger'].to_bytes(4, 'little'))
    return Tensor._wrap(np.frombuffer(raw, np.uint8).copy())


def set_rng_state(state):
    """Put hookgrad's generator back in a state from ``get_rng_state``: the random values
    that followed it come again.

    Raises:
        RuntimeError: for a ``state`` that is not a UInt8 Tensor of ``get_rng_state``'s
            shape (MindSpore's error type).
    """
    if not isinstance(state, Tensor):
        raise RuntimeError(f"set_rng_state: state must be a Tensor from get_rng_state, got "
                           f"{type(state).__name__}")
    if state.dtype != _dtype.uint8:
        raise RuntimeError(f"set_rng_state: state data type must be UInt8, but got "
                           f"{state.dtype}")
    if state.shape != (_STATE_BYTES,):
        raise RuntimeError(f"set_rng_state: state must have shape ({_STATE_BYTES},), as "
                           f"get_rng_state gives it, got {state.shape}")
    raw = state.asnumpy().tobytes()
    bit_generator = _random.generator().bit_generator
    _pcg64_state()
    bit_generator.state = {
        'bit_generator': 'PCG64',
        'state': {'state': int.from_bytes(raw[:16], 'little'),
                  'inc': int.from_bytes(raw[16:32], 'little')},
        'has_uint32': raw[32], 'uinteger': int.from_bytes(raw[33:], 'little')}


def _pcg64_state():
    state = _random.generator().bit_generator.state
    if state['bit_generator'] != 'PCG64':
        raise RuntimeError(f"the generator's state has the {state['bit_generator']} layout; "
                           f"get_rng_state and set_rng_state read PCG64's")
    return state


# ----------------------------------------------------------------- installation and device
def run_check():
    """Check the installation: print hookgrad's version and whether a multiplication on
    tensors gives NumPy's result (MindSpore's ``run_check``; errors are printed)."""
    from . import __version__
    try:
        print("hookgrad version: ", __version__)
        x = np.array([1.0, 2.0, 3.0], np.float32)
        y = np.array([4.0, 5.0, 6.0], np.float32)
        got = (Tensor(x) * Tensor(y)).asnumpy()
        if not np.array_equal(got, x * y):
            raise RuntimeError(f"the product of {x} and {y} is {got}, expected {x * y}")
        from .context import get_context
        print(f"The result of multiplication calculation is correct, hookgrad has been installed "
              f"on platform [{get_context('device_target')}] successfully!")
    except Exception as e:      # noqa: BLE001  (reported, as MindSpore does)
        print("hookgrad running check failed.")
        print(str(e))


_TARGETS = ['CPU', 'GPU', 'Ascend']
_device_set = None      # (target, id) once set_device ran


class DeviceInfo(tuple):
    """``(device_target, device_id)``, also readable by those names."""

    def __new__(cls, device_target, device_id):
        return super().__new__(cls, (device_target, device_id))

    @property
    def device_target(self):
        return self[0]

    @property
    def device_id(self):
        return self[1]


def set_device(device_target, device_id=None):
    """Choose the device new tensors, parameters and the ops on them use: 'CPU' (NumPy), or
    'GPU' (an NVIDIA GPU through CuPy; with ``HOOKGRAD_FAKE_GPU=1`` the CUDA stand-in that
    tests use). As in MindSpore, the device cannot be changed once set.

    Raises:
        TypeError: for a ``device_target`` that is not a str or a ``device_id`` that is not
            an int.
        ValueError: for a target other than 'CPU', 'GPU' or 'Ascend', 'Ascend' (hookgrad has
            none), 'GPU' where there is none, a negative ``device_id`` or a GPU other than 0.
        RuntimeError: when another device was set before.
    """
    global _device_set
    from .context import set_context
    if not isinstance(device_target, str):
        raise TypeError(f"set_device: device_target must be a str, got "
                        f"{type(device_target).__name__}")
    if device_id is not None and (isinstance(device_id, bool) or
                                  not isinstance(device_id, numbers.Integral)):
        raise TypeError(f"set_device: device_id must be an int, got {type(device_id).__name__}")
    if device_target not in _TARGETS:
        raise ValueError(f"set_device: device_target must be one of {_TARGETS}, but got "
                         f"{device_target}")
    device_id = 0 if device_id is None else int(device_id)
    if device_id < 0:
        raise ValueError(f"set_device: the device id must be >= 0, got {device_id}")
    if _device_set is not None and _device_set != (device_target, device_id):
        raise RuntimeError(f"set_device: the device is already set to {_device_set}; it "
                           f"cannot be changed")
    device = backend.select(device_target, device_id, 'set_device')
    set_context(device_target=device_target, device_id=device_id)
    backend.set_default(device)
    _device_set = (device_target, device_id)


def get_current_device():
    """The device target and id: ``DeviceInfo(('CPU', 0))`` unless set otherwise."""
    from .context import get_context
    return DeviceInfo(get_context('device_target'), get_context('device_id'))
