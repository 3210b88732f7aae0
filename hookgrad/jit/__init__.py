"""Graph mode: ``ms.jit`` and its MindSpore companions, by tracing and replaying programs.

A jitted function's first call with a given signature runs eagerly while every op and every
effect (hook calls, parameter assignments, optimizer updates, backward passes) is recorded;
later calls replay the recording on arrays: the same ops in the same order, so the results are
those of eager execution, bit for bit, and every hook still runs where it ran. See docs/jit.md.
"""
import inspect

from .function import JitError, JitFunction

__all__ = ['jit', 'ms_function', 'jit_class', 'JitConfig', 'mutable', 'constexpr', 'JitError',
           'JitFunction']

_MODES = ('ast', 'bytecode', 'trace')


def jit(function=None, *args, capture_mode='ast', jit_level='O0', dynamic=0, fullgraph=False,
        backend='', mode=None, input_signature=None, hash_args=None, jit_config=None,
        compile_once=False, **options):
    """Compile ``function`` (a function, a method or a Cell) into replayed programs.

    Used bare (``@jit``), called (``jit(fn)``) or with MindSpore's keyword arguments
    (``@jit(capture_mode='ast', jit_level='O1', ...)``; the older ``mode``, ``input_signature``,
    ``hash_args``, ``jit_config`` and ``compile_once`` are accepted too). hookgrad always
    traces: ``capture_mode``, ``jit_level``, ``backend`` and the options are checked and kept
    (``JitFunction.options``) but change nothing. ``fullgraph=True`` raises ``JitError`` where a
    call cannot be compiled instead of running it eagerly.

    Args:
        function: what to compile; a Cell compiles its calls.
        input_signature: Tensors (``Tensor(shape=..., dtype=...)``, ``None`` dimensions match
            any size) that every call's Tensor arguments must fit.

    Returns:
        A ``JitFunction`` (the decorator when ``function`` is None).

    Raises:
        TypeError: ``function`` is not callable.
        ValueError: an unknown ``capture_mode``.

    >>> import hookgrad as ms
    >>> @ms.jit
    ... def scaled(x):
    ...     return x * 2 + 1
    >>> print(scaled(ms.Tensor([1.0, 2.0])), scaled(ms.Tensor([3.0, 4.0])))
    [3. 5.] [7. 9.]
    >>> scaled.traces, scaled.replays
    (1, 1)
    """
    if args:
        raise TypeError(f"jit: takes the function as its only positional argument, got "
                        f"{len(args) + 1}")
    if capture_mode not in _MODES:
        raise ValueError(f"jit: capture_mode must be one of {_MODES}, got {capture_mode!r}")
    settings = dict(options, capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic,
                    backend=backend, mode=mode, jit_config=jit_config, hash_args=hash_args,
                    compile_once=compile_once)

    def wrap(fn):
        from ..nn.cell import Cell
        if isinstance(fn, Cell):
            fn.__dict__['_graph'] = compiled = JitFunction(fn._eager_call, fullgraph, settings)
            if input_signature is not None:
                fn.set_inputs(*input_signature)
            return compiled
        if not callable(fn):
            raise TypeError(f"jit: expected a function or a Cell, got {type(fn).__name__}")
        compiled = JitFunction(fn, fullgraph, settings)
        if input_signature is not None:
            compiled.input_signature = _checked_signature(input_signature)
        return compiled

    return wrap if function is None else wrap(function)


def ms_function(fn=None, obj=None, input_signature=None):
    """The older name of ``jit`` (MindSpore 1.x/2.0)."""
    return jit(fn, input_signature=input_signature)


def jit_class(cls):
    """Mark a class whose instances graph-mode code uses (its attributes and methods): a
    traced call reads them like any Python object, so the class is returned as it is.

    Raises:
        TypeError: ``cls`` is not a class.
    """
    if not inspect.isclass(cls):
        raise TypeError(f"jit_class: expected a class, got {type(cls).__name__}")
    cls.__ms_class__ = True
    return cls


class JitConfig:
    """MindSpore's compile options for ``jit``/``Model``: kept (``JitConfig.options``) and
    checked for their types; tracing needs none of them."""

    def __init__(self, jit_level='', exc_mode='auto', jit_syntax_level='', debug_level='RELEASE',
                 infer_boost='off', **kwargs):
        for name, value in (('jit_level', jit_level), ('exc_mode', exc_mode),
                            ('jit_syntax_level', jit_syntax_level),
                            ('debug_level', debug_level), ('infer_boost', infer_boost)):
            if not isinstance(value, str):
                raise TypeError(f"JitConfig: {name} must be a str, got {type(value).__name__}")
        self.jit_config_dict = dict(kwargs, jit_level=jit_level, exc_mode=exc_mode,
                                    jit_syntax_level=jit_syntax_level, debug_level=debug_level,
                                    infer_boost=infer_boost)

    @property
    def options(self):
        return dict(self.jit_config_dict)

    def __repr__(self):
        return f"JitConfig({self.jit_config_dict})"


def mutable(input_data, dynamic_len=False):
    """Mark ``input_data`` as a variable input of graph-mode code rather than a constant.

    A Tensor, and tuples, lists and dicts of Tensors, are variables already: they are returned
    as they are. A Python number or string stays a constant of the signature (a jitted function
    is traced again for each new value), which gives the same results.

    Raises:
        TypeError: ``dynamic_len`` is not a bool.
    """
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"mutable: dynamic_len must be a bool, got {type(dynamic_len).__name__}")
    return input_data


def constexpr(fn=None, *, get_instance=True, reuse_result=True, check=True):
    """Mark a function computed from constants while compiling: a traced call runs Python, so
    the function is returned as it is (``get_instance=False`` returns it for later use too)."""
    if fn is None:
        return lambda f: f
    return fn


def _checked_signature(signature):
    from .._tensor import Tensor
    items = signature if isinstance(signature, (tuple, list)) else (signature,)
    for t in items:
        if not isinstance(t, Tensor):
            raise TypeError(f"jit: input_signature must hold Tensors, got {type(t).__name__}")
    return tuple(items)
