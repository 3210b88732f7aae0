"""NumPy's floating-point warnings (log of a negative, division by zero...) at the user's line.

NumPy warns from the Python frame that called the ufunc, which is an op's forward inside
hookgrad. ``fp_call`` runs that NumPy call with every category NumPy would *warn* about
switched to a callback that raises (categories set to 'ignore' or 'raise' by the caller stay as
they are); on the rare call that trips it, the result is recomputed with those categories
ignored and the warning is re-issued at the first frame outside hookgrad. The happy path costs
one context-variable set and reset.
"""
import os
import sys
import warnings

import numpy as np

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class FPTripped(Exception):
    """Raised by the NumPy error callback, with NumPy's flag bits of the errors seen."""


def _trip(kind, flag):
    raise FPTripped(flag)


# NumPy's error flag bits, its categories and the words of its warnings
_KINDS = ((1, 'divide', 'divide by zero'), (2, 'over', 'overflow'),
          (4, 'under', 'underflow'), (8, 'invalid', 'invalid value'))


try:    # NumPy 2: the error state is a context variable holding an opaque object
    from numpy._core._ufunc_config import _extobj_contextvar as _state, _make_extobj
except ImportError:     # older NumPy: the public context manager, slower
    _state = _make_extobj = None

_derived = {}       # the caller's error state -> the same with 'warn' replaced by 'call'


def _derive(current):
    modes = np.geterr()
    ours = {k: ('call' if v == 'warn' else v) for k, v in modes.items()}
    ext = _make_extobj(call=_trip, **ours)
    if len(_derived) < 64:
        _derived[current] = ext
    return ext


def user_stacklevel():
    """The ``stacklevel`` that makes a ``warnings.warn`` in the calling function name the first
    frame outside hookgrad."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


if _state is not None:
    def fp_enter():
        """Switch NumPy's warning categories to the raising callback; returns the token that
        ``fp_exit`` takes to restore the caller's state."""
        current = _state.get()
        return _state.set(_derived.get(current) or _derive(current))

    fp_exit = _state.reset
else:
    def fp_enter():
        quiet = {k: ('call' if v == 'warn' else v) for k, v in np.geterr().items()}
        state = np.errstate(call=_trip, **quiet)
        state.__enter__()
        return state

    def fp_exit(state):
        state.__exit__(None, None, None)


def fp_call(name, fn, *args):
    """``fn(*args)`` (a NumPy computation of op ``name``) with its floating-point warnings
    issued at the user's line."""
    token = fp_enter()
    try:
        return fn(*args)
    except FPTripped as e:
        flag = e.args[0]
    finally:
        fp_exit(token)
    return fp_rewarn(name, fn, args, flag)


def fp_rewarn(name, fn, args, flag):
    """Recompute ``fn(*args)`` without the warnings and issue them at the user's line."""
    modes = np.geterr()
    with np.errstate(**{k: 'ignore' for k, v in modes.items() if v == 'warn'}):
        y = fn(*args)
    level = user_stacklevel()
    for bit, category, words in _KINDS:
        if flag & bit and modes[category] == 'warn':
            warnings.warn(f"ops.{name}: {words} encountered", RuntimeWarning, stacklevel=level)
    return y
