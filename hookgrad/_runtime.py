"""MindSpore's top-level runtime names: device synchronisation, memory statistics and CPU
affinity (from runtime/device.py), determinism, logging configuration, the graph compiler's
decorators and settings (accepted: hookgrad traces Python, so they change no value),
``recompute``, ``frombuffer`` and ``Generator``.
"""
import contextlib
import numbers

import numpy as np

from ._frames import warn
from . import _dtype, _random
from .compat.checkparam import GT, check_integral
from ._tensor import Tensor
from .debug.log import get_level, get_log_config  # noqa: F401  (mindspore.log's logger)
from .runtime.device import (  # noqa: F401  (MindSpore's top-level names as well)
    synchronize, launch_blocking, memory_allocated, max_memory_allocated, memory_reserved,
    max_memory_reserved, memory_stats, memory_summary, reset_peak_memory_stats,
    reset_max_memory_allocated, reset_max_memory_reserved, empty_cache, set_cpu_affinity)

__all__ = [
    'synchronize', 'launch_blocking', 'set_deterministic', 'set_cpu_affinity',
    'memory_allocated', 'max_memory_allocated', 'memory_reserved', 'max_memory_reserved',
    'memory_stats', 'memory_summary', 'reset_peak_memory_stats', 'reset_max_memory_allocated',
    'reset_max_memory_reserved', 'empty_cache',
    'get_level', 'get_log_config', 'set_dump',
    'no_inline', 'lazy_inline', 'set_recursion_limit', 'recompute',
    'saved_tensors_hooks', 'register_saved_tensors_hooks', 'frombuffer', 'Generator',
    'default_generator',
]


# ----------------------------------------------------------------- device and runtime
def set_deterministic(deterministic):
    """Ask for run-to-run identical results (``get_context('deterministic')`` reads 'ON' or
    'OFF'). NumPy's CPU kernels already are; random values follow ``set_seed``.

    Raises:
        TypeError: ``deterministic`` is not a bool.
    """
    from .context import set_context
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be <class 'bool'>, but got "
                        f"{type(deterministic)}")
    set_context(deterministic='ON' if deterministic else 'OFF')


# ----------------------------------------------------------------- logging and dumps
def set_dump(target, enabled=True):
    """Mark a Cell or Primitive for MindSpore's data dump, which only Ascend supports: on the
    CPU MindSpore warns and dumps nothing, and so does hookgrad (``hookgrad.debug`` has hooks
    that record values).

    Raises:
        ValueError: ``target`` is not a Cell or Primitive.
    """
    from .nn import Cell
    from .ops.operations._primitive import Primitive
    if not isinstance(target, (Cell, Primitive)):
        raise ValueError(f'The "target" parameter must be an instance of Cell or Primitive, but '
                         f'got an instance of {type(target)}.')
    warn("Current device_target is CPU, which is not supported by set_dump. Only "
         "Ascend device target is supported currently.", UserWarning)


# ----------------------------------------------------------------- graph compiler settings
def no_inline(fn=None):
    """Decorator: MindSpore's compiler keeps ``fn`` as a called subgraph; hookgrad records
    it inline, which gives the same values. Sets ``fn.no_inline = True``."""
    def mark(f):
        f.no_inline = True
        return f
    return mark(fn) if fn is not None else mark


def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorator of a Cell's ``__init__``: MindSpore compiles each instance's graph once and
    inlines it late; hookgrad has no such step, so only ``cell_init_args`` is set as MindSpore
    sets it ('lazy_inline_<Class>' and the arguments).

    Raises:
        ValueError: when it decorates something other than ``__init__``, for a ``policy``
            other than None and 'front', or ``attrs`` that are not a str or list of str.
    """
    import functools
    import inspect

    def wrap(f):
        if inspect.isclass(f) or getattr(f, '__name__', None) != '__init__':
            what = f"the class {f.__name__}" if inspect.isclass(f) else \
                f"the function: {getattr(f, '__name__', f)}"
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not "
                             f"{what}.")

        @functools.wraps(f)
        def init(self, *args, **kwargs):
            values = []
            if attrs is None:
                bound = inspect.signature(f).bind(self, *args, **kwargs).arguments
                del bound[next(iter(bound))]
                values = bound.values()
            f(self, *args, **kwargs)
            if policy == 'front':
                self.no_inline = False
            elif policy is not None:
                raise ValueError("policy must be None or 'front'")
            if isinstance(attrs, list):
                values = []
                for attr in attrs:
                    if not isinstance(attr, str):
                        raise ValueError("attr must be a string")
                    if hasattr(self, attr):
                        values.append(getattr(self, attr))
            elif isinstance(attrs, str):
                values = getattr(self, attrs) if hasattr(self, attrs) else []
            elif attrs is not None:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = f"lazy_inline_{type(self).__name__}{values}"
        return init
    return wrap(fn) if fn is not None else wrap


_recursion_limit = 1000


def set_recursion_limit(recursion_limit=1000):
    """The depth to which MindSpore's graph compiler follows calls. hookgrad records graphs by
    running Python, which has its own limit, so the value is checked and kept, and bounds
    nothing.

    Raises:
        TypeError: not an int. ValueError: not > 0.
    """
    global _recursion_limit
    _recursion_limit = int(check_integral(recursion_limit, 0, GT))


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True,
              context_fn=None, **kwargs):
    """``block(*args, **kwargs)``. MindSpore recomputes the block's activations in backward
    instead of keeping them (time for memory); values and gradients are the same, and hookgrad
    keeps them. ``context_fn()``'s first context manager wraps the forward call, as in
    MindSpore (its second, for recomputation, is not needed).

    Raises:
        TypeError: ``block`` is not a Cell while ``use_reentrant`` (MindSpore's rule).
        ValueError: ``context_fn`` with ``use_reentrant``.
    """
    from .nn import Cell
    if output_recompute:
        use_reentrant = False
    if use_reentrant:
        if not isinstance(block, Cell):
            raise TypeError("Recompute function now only support block which inherited from "
                            "Cell when use_reentrant=True!")
        if context_fn is not None:
            raise ValueError("context_fn is only supported when use_reentrant=False.")
        return block(*args, **kwargs)
    forward = context_fn()[0] if context_fn is not None else contextlib.nullcontext()
    with forward:
        return block(*args, **kwargs)


def saved_tensors_error(where):
    return RuntimeError(f"{where}: pack and unpack hooks on saved tensors are not available in "
                        f"hookgrad: each op keeps the arrays its backward needs itself (there "
                        f"is no central store to hook). Use Tensor.register_hook or cell "
                        f"backward hooks to see gradients")


class saved_tensors_hooks:      # noqa: N801  (MindSpore's name)
    """Not available: MindSpore passes every tensor saved for backward through
    ``pack_hook`` and ``unpack_hook``; hookgrad's ops keep what they need themselves.

    Raises:
        RuntimeError: always, saying so.
    """

    def __init__(self, pack_hook, unpack_hook):
        raise saved_tensors_error("saved_tensors_hooks")


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """Not available: the graph-mode decorator form of ``saved_tensors_hooks``.

    Raises:
        RuntimeError: always, saying so.
    """
    raise saved_tensors_error("register_saved_tensors_hooks")


# ----------------------------------------------------------------- tensors from memory
def frombuffer(buffer, dtype, count=-1, offset=0):
    """A 1-D Tensor over the memory of ``buffer`` (bytes, bytearray, memoryview, array...):
    it shares a writable buffer's memory and copies a read-only one.

    Args:
        dtype (mindspore.dtype): the element type.
        count (int): how many elements to read; -1 for all after ``offset``.
        offset (int): where to start, in bytes.

    Raises:
        RuntimeError: as MindSpore: ``dtype`` not a dtype, no buffer interface, an empty
            buffer or ``count`` 0, ``offset`` outside the buffer, a length that is not a
            multiple of the element size, or too few bytes for ``count``.

    >>> import hookgrad as ms
    >>> print(ms.frombuffer(bytearray([1, 2, 3, 4, 5, 6]), dtype=ms.uint8))
    [1 2 3 4 5 6]
    """
    if not isinstance(dtype, _dtype.DType):
        raise RuntimeError(f"dtype must be mindspore dtype object, but got{dtype}")
    try:
        view = memoryview(buffer).cast('B')
    except TypeError:
        raise RuntimeError("object does not implement Python buffer protocol.") from None
    size, item = view.nbytes, np.dtype(_dtype.to_numpy(dtype)).itemsize
    if size == 0 or count == 0:
        raise RuntimeError(f"both buffer length ({size}) and count ({count}) must not be 0")
    if count < -1:
        raise RuntimeError(f"count must be -1 or positive, but got {count}")
    if offset < 0 or offset > size - 1:
        raise RuntimeError(f"offset ({offset} bytes) must be non-negative and no greater than "
                           f"buffer length ({size} bytes) minus 1.")
    if count == -1:
        if (size - offset) % item:
            raise RuntimeError(f"buffer length ({size - offset} bytes) after offset ({offset} "
                               f"bytes) must be a multiple of element size ({item}).")
        count = (size - offset) // item
    elif size - offset < count * item:
        raise RuntimeError(f"buffer length ({size} bytes) after offset ({offset} bytes) is not "
                           f"enough for the requested count of elements ({count} elements of "
                           f"size {item} bytes each, total {count * item} bytes).")
    array = np.frombuffer(view, _dtype.to_numpy(dtype), count, offset)
    if not array.flags.writeable:
        array = array.copy()
    return Tensor._wrap(array)


# ----------------------------------------------------------------- generators
class Generator:
    """A random generator: a seed and a NumPy PCG64 state. ``default_generator`` is
    hookgrad's global one (``set_seed``, ``manual_seed``, ``get_rng_state``: everything random
    draws from it); a new ``Generator()`` starts from seed 0 and keeps its own state, which
    ``get_state`` / ``set_state`` save and restore (no op takes a generator argument).

    >>> import hookgrad as ms
    >>> g = ms.Generator().manual_seed(5)
    >>> g.initial_seed()
    5
    """

    def __init__(self):
        self._seed = 0
        self._rng = np.random.default_rng(0)

    def _generator(self):
        return self._rng

    def manual_seed(self, seed):
        """Seed this generator; returns it.

        Raises:
            TypeError: ``seed`` is not an int.
        """
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError("Seed must be an integer.")
        self._seed = int(seed)
        self._rng = np.random.default_rng(self._seed)
        return self

    def seed(self):
        """Seed with a new random seed (OS entropy) and return it."""
        import secrets
        new = secrets.randbits(63)
        self.manual_seed(new)
        return new

    def initial_seed(self):
        """The seed this generator was last seeded with."""
        return self._seed

    def get_state(self):
        """The state, a UInt8 Tensor that ``set_state`` restores."""
        from ._toplevel import _STATE_BYTES
        state = self._generator().bit_generator.state
        inner = state['state']
        raw = (inner['state'].to_bytes(16, 'little') + inner['inc'].to_bytes(16, 'little')
               + bytes([state['has_uint32']]) + state['uinteger'].to_bytes(4, 'little')
               + _seed_or(self.initial_seed(), -1).to_bytes(8, 'little', signed=True))
        assert len(raw) == _STATE_BYTES + 8
        return Tensor._wrap(np.frombuffer(raw, np.uint8).copy())

    def set_state(self, state):
        """Restore a state from ``get_state``: the values that followed it come again.

        Raises:
            TypeError: ``state`` is not a UInt8 Tensor of ``get_state``'s shape.
        """
        from ._toplevel import _STATE_BYTES
        if not isinstance(state, Tensor) or state.dtype != _dtype.uint8 \
                or state.shape != (_STATE_BYTES + 8,):
            raise TypeError(f"Generator.set_state: state must be a UInt8 Tensor of shape "
                            f"({_STATE_BYTES + 8},) from get_state, got "
                            f"{getattr(state, 'shape', type(state).__name__)}")
        raw = state.asnumpy().tobytes()
        seed = int.from_bytes(raw[_STATE_BYTES:], 'little', signed=True)
        self._restore(seed)
        self._generator().bit_generator.state = {
            'bit_generator': 'PCG64',
            'state': {'state': int.from_bytes(raw[:16], 'little'),
                      'inc': int.from_bytes(raw[16:32], 'little')},
            'has_uint32': raw[32], 'uinteger': int.from_bytes(raw[33:37], 'little')}

    def _restore(self, seed):
        self._seed = seed


class _DefaultGenerator(Generator):
    """hookgrad's global generator seen as a ``Generator``."""

    def __init__(self):     # no super().__init__(): the state is the global one
        pass

    def _generator(self):
        return _random.generator()

    def manual_seed(self, seed):
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError("Seed must be an integer.")
        from ._toplevel import manual_seed
        manual_seed(int(seed))
        return self

    def initial_seed(self):
        """The seed of the last ``set_seed`` / ``manual_seed``, or None while the global
        generator draws from OS entropy (MindSpore's default seed is 0)."""
        return _random.get_seed()

    def _restore(self, seed):
        if seed >= 0 and seed != _random.get_seed():
            _random.set_seed(seed)


def _seed_or(seed, default):
    return default if seed is None else seed


default_generator = _DefaultGenerator()
