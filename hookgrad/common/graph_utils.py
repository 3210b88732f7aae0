"""MindSpore's graph-compiler helpers of ``mindspore.common``: ``enable_dynamic``,
``ms_memory_recycle`` and ``flops_collection``.

``enable_dynamic`` marks which arguments of a jitted function have dynamic shapes, so that
MindSpore compiles one graph for all their sizes. hookgrad's ``jit`` traces a program per input
signature (hookgrad/jit/function.py), so the marks are checked as MindSpore checks them and
kept on the function (``__enable_dynamic__``, by argument position), and compile nothing
differently. ``ms_memory_recycle`` gives the memory pool's cached blocks back to the device (on
the CPU there is no pool); traced programs belong to their jitted functions and go with them.
``flops_collection`` counts the FLOPs of MindSpore's compiled training graph, which hookgrad
does not build: it raises.
"""
import inspect
import types

from .._tensor import Tensor

__all__ = ['enable_dynamic', 'ms_memory_recycle', 'flops_collection']

ENABLE_DYNAMIC = "__enable_dynamic__"


def _check_type(arg, name):
    if isinstance(arg, Tensor):
        return
    if isinstance(arg, (tuple, list)):
        for item in arg:
            _check_type(item, name)
    else:
        raise TypeError(f"The decorator enable_dynamic only supports Tensor or a tuple/list of "
                        f"Tensor, but the argument : {name} is type of:{type(arg)}.")


def _dynamic_shape(arg, name):
    """Whether ``arg`` (a Tensor or a sequence of them) has a dynamic rank or dimension."""
    if isinstance(arg, Tensor):
        shape = arg.shape
        if shape == (-2,):
            return True
        if -1 in shape:
            for item in shape:
                if item != -1 and item <= 0:
                    raise TypeError(f"The argument '{name}' has invalid shape '{shape}', only "
                                    f"supports None or a tuple/list of positive integers and "
                                    f"None.")
            return True
        return False
    return any(_dynamic_shape(item, name) for item in arg)


def enable_dynamic(**kwargs):
    """A decorator marking the arguments named in ``kwargs`` as of dynamic shape (Tensors
    made with ``None`` dimensions, or ``shape=None`` for a dynamic rank, or sequences of them).

    Raises:
        ValueError: no argument; the decorated object is not a function or method; more marks
            than arguments; a name the function lacks.
        TypeError: a value that is not a Tensor (or a sequence of them), or without a dynamic
            dimension.
    """
    if not kwargs:
        raise ValueError("When using decorator enable_dynamic, the input cannot be empty!")
    for name, arg in kwargs.items():
        _check_type(arg, name)
        if not _dynamic_shape(arg, name):
            raise TypeError(f"When using decorator enable_dynamic, the shape of argument "
                            f"'{name}' at least have one None.")

    def decorator(func):
        if not isinstance(func, (types.FunctionType, types.MethodType)):
            raise ValueError(f"Decorator enable_dynamic can only be used for function or method "
                             f"decrocated by ms.jit, but got {func}.")
        names = [n for n in inspect.signature(func).parameters if n != "self"]
        if len(kwargs) > len(names):
            raise ValueError(f"When using decorator enable_dynamic, the number of arguments "
                             f"{len(kwargs)} exceeds the number of function arguments "
                             f"{len(names)}.")
        marks = {}
        for key, value in kwargs.items():
            if key not in names:
                raise ValueError(f"'{key}' is not in list")
            marks[names.index(key)] = (key, value)
        inner = inspect.unwrap(func, stop=lambda f: not hasattr(f, '__wrapped__'))
        setattr(getattr(inner, '__func__', inner), ENABLE_DYNAMIC, marks)
        return func
    return decorator


def ms_memory_recycle():
    """Give the memory pool's cached blocks back to the device (``runtime.empty_cache``)."""
    from ..runtime import empty_cache
    empty_cache()


def flops_collection(phase='train'):
    """Raises NotImplementedError: MindSpore counts the FLOPs of its compiled ``phase`` graph;
    hookgrad compiles no such graph (``hookgrad.debug.profile`` times every op instead)."""
    raise NotImplementedError(f"flops_collection: counting the FLOPs of MindSpore's compiled "
                              f"'{phase}' graph is not supported: hookgrad compiles no such graph "
                              f"(hookgrad.debug.profile times every op instead)")
