"""A jitted function: its programs by call signature, tracing, replay and eager fallback."""
import collections
import functools
import threading

import numpy as np

from .._frames import warn
from ..autograd import function as _function
from ..autograd.state import current as _state, depth as _depth, grad_enabled
from ..hooks import cell_hooks
from .._tensor import Tensor
from .codegen import STALE
from .recorder import Recorder

MAX_PROGRAMS = 64       # signatures kept per jitted function (least recently used dropped)


class _Local(threading.local):
    depth = 0           # jitted calls replaying or tracing in this thread


_local = _Local()


class JitError(RuntimeError):
    """A call that cannot be compiled, under ``fullgraph=True`` (elsewhere it runs eagerly)."""


class JitFunction:
    """A function (or method, or ``Cell.construct``) run as recorded programs.

    The first call with a given signature runs eagerly while its ops and effects are recorded;
    later calls with that signature replay the program. The signature is the shapes, dtypes
    and ``requires_grad`` of the Tensor arguments, the values of the other arguments, grad
    mode, the transform depth and the version of the cells' hooks. ``cache`` holds the programs
    by signature, ``traces`` counts traces, ``last_trace`` says why the last one was needed and
    ``eager`` maps the signatures that run eagerly to the reason.
    """

    input_signature = None      # Tensors every call's Tensor arguments must fit (jit(...))
    runs_as_program = True      # not a hook: a hook runs in Python each time (hooks/handle.py)

    def __init__(self, fn, fullgraph=False, options=None):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.fullgraph = fullgraph
        self.options = dict(options or {})
        self.cache = collections.OrderedDict()
        self.eager = {}
        self.traces = 0
        self.replays = 0
        self.last_trace = None
        self._warned = False
        self._lock = threading.Lock()

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self.__call__, obj)

    @property
    def __code__(self):
        """The code of the wrapper MindSpore's ``jit`` returns, named ``staging_specialize``:
        MindSpore code tells a jitted function from the one it wraps by
        ``fn.__code__.co_name``. ``__name__`` and ``__wrapped__`` are the wrapped function's."""
        return staging_specialize.__code__

    def __call__(self, *args, **kwargs):
        if _function.observing and _state().observers or _local.depth:
            return self.fn(*args, **kwargs)        # nested(), inline: the hot path
        flat = []
        key = (_tensors(args, flat) if not kwargs else None, grad_enabled(), _depth.get(),
               cell_hooks.version)
        if key[0] is None:
            flat.clear()
            key = (_signature((args, kwargs), flat, {}),) + key[1:]
        if self.input_signature is not None:
            check_inputs(f"jit '{self.__qualname__}' (input_signature)", self.input_signature,
                         flat)
        program = self.cache.get(key)
        if program is not None:
            _local.depth += 1               # _guarded, inline: the hot path
            try:
                result = program.run(flat)
            finally:
                _local.depth -= 1
            if result is not STALE:
                if len(self.cache) > 1:
                    self.cache.move_to_end(key)
                self.replays += 1
                return _graph_output(result)
            del self.cache[key]
            self.last_trace = f"the program no longer fits: {program.stale()}"
        elif key in self.eager:
            return self.fn(*args, **kwargs)
        else:
            self.last_trace = self._why_new(key)
        return _graph_output(self._trace(key, flat, args, kwargs))

    def _trace(self, key, flat, args, kwargs):
        recorder = Recorder()
        for i, t in enumerate(flat):
            recorder.argument(t, i)
        recorder.enable()
        try:
            result = _guarded(self.fn, *args, **kwargs)
        finally:
            recorder.disable()
        self.traces += 1
        if recorder.failure is not None:
            why, where = recorder.failure
            self.eager[key] = why
            self._warn(why, where)
            return result
        with self._lock:
            self.cache[key] = recorder.program(result)
            while len(self.cache) > MAX_PROGRAMS:
                self.cache.popitem(last=False)
        return result

    def _warn(self, why, where):
        """Say once (or raise, with ``fullgraph``) that a signature runs eagerly, and why."""
        place = f" at {where[0]}:{where[1]}" if where else ''
        message = f"jit: '{self.__qualname__}' runs eagerly: {why}{place}"
        if self.fullgraph:
            raise JitError(message + " (fullgraph=True)")
        if not self._warned:
            self._warned = True
            warn(message)

    def _why_new(self, key):
        """What differs from the closest signature seen before."""
        if not self.cache:
            return "first call"
        names = ('the arguments', 'grad mode', 'the transform depth', "the cells' hooks")
        changes = min(([name for name, old, new in zip(names, seen, key) if old != new]
                       for seen in self.cache), key=len)
        return f"new signature: {' and '.join(changes)} changed"

    def __repr__(self):
        return (f"<jit {self.__qualname__}: {len(self.cache)} programs, {self.traces} traces, "
                f"{self.replays} replays>")


def staging_specialize(*args, **kwargs):
    """Names the code of a jitted function (``JitFunction.__code__``), as in MindSpore."""
    raise TypeError("staging_specialize: call the jitted function itself")


def nested():
    """Whether a jitted call must run eagerly here: op observers are on in this thread (a
    trace records them as part of the outer call), or a jitted call is replaying."""
    return bool(_function.observing and _state().observers or _local.depth)


def check_inputs(where, declared, tensors):
    """A call's Tensor arguments against declared inputs (``Tensor(shape=[None, 3], ...)``, or
    ``Tensor(shape=None, ...)`` for any rank): their number, dtypes (TypeError, as MindSpore),
    ranks and fixed dimensions (ValueError)."""
    from .._tensor import declared_shape
    if len(tensors) != len(declared):
        raise ValueError(f"{where}: {len(declared)} inputs declared, the call has "
                         f"{len(tensors)} Tensor arguments")
    for i, (t, d) in enumerate(zip(tensors, declared)):
        want = declared_shape(d)
        shown = (-2,) if want is None else tuple(-1 if w is None else w for w in want)
        msg = (f"{where}: input {i} of shape {t.shape} and dtype {t.dtype} does not fit the "
               f"declared shape {shown} and dtype {d.dtype}")
        if t._data.dtype != d._data.dtype:
            raise TypeError(msg)
        if want is not None and (len(t.shape) != len(want) or
                                 any(w is not None and w != n for w, n in zip(want, t.shape))):
            raise ValueError(msg)


def _guarded(fn, *args, **kwargs):
    """``fn(...)`` marked as a jitted call running (nested jitted calls run eagerly)."""
    _local.depth += 1
    try:
        return fn(*args, **kwargs)
    finally:
        _local.depth -= 1


def _tensors(args, flat):
    """``_signature`` of positional arguments that are all Tensors (the common call), else
    None."""
    sig = []
    for a in args:
        if not isinstance(a, Tensor):
            return None
        for i, t in enumerate(flat):
            if t is a:
                sig.append(('same', i))
                break
        else:
            flat.append(a)
            d = a._data
            sig.append(('T', d.shape, d.dtype, type(d), a.requires_grad, a._node is None))
    return tuple(sig)


def _graph_output(result):
    """``result`` as graph mode returns it: a Parameter (at the top or in a tuple or list)
    becomes a Tensor holding its values at that moment, as in MindSpore."""
    if getattr(result, '_is_parameter', False):
        return Tensor._wrap(result._data.copy())
    if type(result) in (tuple, list) and any(getattr(r, '_is_parameter', False)
                                             for r in result):
        return type(result)(_graph_output(r) for r in result)
    return result


def _signature(value, flat, seen):
    """A hashable description of a call's arguments; their Tensors are appended to ``flat``."""
    if isinstance(value, Tensor):
        first = seen.get(id(value))
        if first is not None:
            return ('same', first)
        seen[id(value)] = len(flat)
        flat.append(value)
        return ('T', value._data.shape, value._data.dtype, type(value._data),
                value.requires_grad, value._node is None)
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(_signature(v, flat, seen) for v in value))
    if isinstance(value, dict):
        return ('dict', tuple((k, _signature(v, flat, seen)) for k, v in value.items()))
    if isinstance(value, np.ndarray):
        return ('array', value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, (type(None), bool, int, float, complex, str, bytes)):
        return (type(value), value)
    return ('object', _Identity(value))


class _Identity:
    """An argument compared by identity, held weakly where it can be."""

    __slots__ = ('ref', 'id', '__weakref__')

    def __init__(self, obj):
        try:
            self.ref = _weak(obj)
        except TypeError:
            self.ref = lambda obj=obj: obj
        self.id = id(obj)

    def __hash__(self):
        return self.id

    def __eq__(self, other):
        return type(other) is _Identity and self.id == other.id and \
            self.ref() is not None and self.ref() is other.ref()


def _weak(obj):
    import weakref
    return weakref.ref(obj)
