"""MindSpore's decorators for custom-op kernels: ``kernel`` (and its old name ``ms_kernel``),
which runs a function written in the Hybrid DSL as plain Python, and ``op_info_register`` /
``custom_info_register``, which attach registration information to a kernel function.

hookgrad keeps no kernel library: registration information stays on the function
(``func.op_info``, ``func.reg_info``) and the decorated function runs as written.
"""
import functools
import itertools
import json
import types
import warnings

import numpy as np

__all__ = ['kernel', 'ms_kernel', 'op_info_register', 'custom_info_register']


def _allocate(shape, dtype='float32', scope='global'):
    del scope
    return np.zeros(shape).astype(dtype)


def _erf(x):
    # Abramowitz & Stegun 7.1.26, the formula MindSpore's Hybrid DSL runtime uses
    sign = 1 if x >= 0 else -1
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
    return sign * (1.0 - (poly + 0.254829592) * t * np.exp(-x * x))


class _Scope:
    """``with attr(...)`` / ``with block_realize(...)``: scheduling hints, no effect here."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, *args, **kwargs):
        return self


def _grid(extents):
    return itertools.product(*(range(e) for e in extents))


# The names a Hybrid DSL function uses, bound to their Python meaning.
HYBRID_INTRINSICS = {
    'allocate': _allocate, 'output_tensor': _allocate,
    'range': range, 'serial': range, 'vectorize': range, 'parallel': range, 'reduce': range,
    'grid': _grid, 'attr': _Scope(), 'block_realize': _Scope(),
    'sqrt': np.sqrt, 'sign': np.sign, 'log': np.log, 'tanh': np.tanh, 'exp': np.exp,
    'abs': np.abs, 'power': np.power, 'rsqrt': lambda x: np.ones_like(x) / np.sqrt(x),
    'erf': _erf, 'isnan': np.isnan, 'isinf': np.isinf, 'isfinite': np.isfinite,
    'sin': np.sin, 'cos': np.cos, 'atan': np.arctan, 'atan2': np.arctan2, 'expm1': np.expm1,
    'floor': np.floor, 'ceil': np.ceil, 'trunc': np.trunc, 'round': np.round,
    'ceil_div': lambda a, b: (a + b - 1) // b,
    'int8': np.int8, 'int16': np.int16, 'int32': np.int32, 'int64': np.int64,
    'float16': np.float16, 'float32': np.float32, 'float64': np.float64,
}


def kernel(fn=None, reg_info=None, compile_attrs=None):
    """Decorate a Hybrid DSL function so that calling it runs it as Python on NumPy arrays,
    with the DSL's names (``output_tensor``, ``allocate``, ``serial``, ``parallel``, ``grid``,
    ``sqrt``...) bound to their NumPy meaning. Without ``fn``, returns the decorator.

    The function gets ``ms_kernel_flag`` (True), ``compile_attrs`` (a JSON string) and, when
    given, ``reg_info``. Its own module's globals are left as they are.

    Raises:
        TypeError: when ``compile_attrs`` is not a dict with str keys, or ``reg_info`` is not
            a str, dict or tuple.
    """
    attrs = {} if compile_attrs is None else compile_attrs
    if not isinstance(attrs, dict):
        raise TypeError(f"The input 'compile_attrs' of @kernel must be a dict, but get a "
                        f"{type(attrs)}")
    for key in attrs:
        if not isinstance(key, str):
            raise TypeError(f"The key of 'compile_attrs' of @kernel must be a str, but get a "
                            f"{type(key)}")
    if reg_info is not None and not isinstance(reg_info, (str, dict, tuple)):
        raise TypeError(f"The input 'reg_info' of @kernel should be one of str, dict and "
                        f"tuple, but get a {type(reg_info)}")

    def wrap(func):
        func.ms_kernel_flag = True
        func.compile_attrs = json.dumps(attrs)
        if reg_info is not None:
            func.reg_info = reg_info
        scope = dict(func.__globals__)
        scope.update(HYBRID_INTRINSICS)
        runnable = types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__,
                                      func.__closure__)

        @functools.wraps(func)
        def run(*args):
            return runnable(*args)
        return run

    return wrap if fn is None else wrap(fn)


def ms_kernel(fn=None, reg_info=None, compile_attrs=None):
    """``kernel``'s deprecated name (warns, then does the same)."""
    warnings.warn("'ms_kernel' is deprecated from version 1.8 and will be removed in a future "
                  "version, use 'kernel' instead.", DeprecationWarning, stacklevel=2)
    return kernel(fn, reg_info, compile_attrs)


def op_info_register(op_info):
    """A decorator that attaches a kernel's operator information (a JSON string or dict with
    an ``op_name``) to the function as ``op_info`` (a JSON string); the function runs as it is.

    Raises:
        TypeError: when ``op_info`` is not a str or dict.
        ValueError: when it is not JSON, or lacks ``op_name``.
    """
    if isinstance(op_info, dict):
        text = json.dumps(op_info)
    elif isinstance(op_info, str):
        text = op_info
    else:
        raise TypeError(f"op_info_register: op_info must be a str or dict, got "
                        f"{type(op_info).__name__}")
    try:
        info = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"op_info_register: op_info is not JSON: {e}") from None
    if not isinstance(info, dict) or 'op_name' not in info:
        raise ValueError(f"Invalid op info: it needs an 'op_name': {text}")

    def decorator(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            return func(*args, **kwargs)
        wrapped.op_info = text
        return wrapped
    return decorator


def custom_info_register(*reg_info):
    """A decorator that attaches registration information (str or dict items) to a
    ``ops.Custom`` function as ``reg_info`` (a tuple); the function runs as it is.

    Raises:
        TypeError: when an item is not a str or dict.
    """
    for item in reg_info:
        if not isinstance(item, (str, dict)):
            raise TypeError(f"custom_info_register: each item must be a str or dict, got "
                            f"{type(item).__name__}")

    def decorator(func):
        func.reg_info = reg_info

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper
    return decorator
