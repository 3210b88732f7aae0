"""NumPy's floating-point warnings (log of a negative, division by zero...) at the user's line.

NumPy warns from the Python frame that called the ufunc, which is inside hookgrad: an op's
forward or a backward rule.

Only NumPy's arrays warn, as CuPy's arrays have no floating-point error state: switching
NumPy's costs a device's computation nothing, and what trips it on a device (only the CUDA
stand-in's arrays, computed by NumPy, can) is recomputed silently. So the CPU path tests no
array types.

Forward: ``fp_call`` runs an op's NumPy call with every category NumPy would *warn* about
switched to a callback that raises (categories set to 'ignore' or 'raise' by the caller stay as
they are); on the rare call that trips it, the result is recomputed with those categories
ignored and the warning is re-issued at the first frame outside hookgrad. The happy path costs
one context-variable set and reset.

Backward: a backward pass runs between ``fp_notes_enter`` and ``fp_notes_exit``, with the
categories NumPy would warn about switched to a callback that does not raise, so every rule
computes what it would have computed, in place or not. On the rare call that meets an error,
the callback asks the backward loop which step was running (from the Python frames) and warns
once per category, naming that step: at the forward line that created its node when that is
known, else at the user's line. A pass costs one context-variable set and reset; its steps
cost nothing.
"""
import sys
import warnings

import numpy as np

from .._frames import user_stacklevel, warn, warn_at
from .backend import is_device_array

_ndarray = np.ndarray


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
    """Recompute ``fn(*args)`` without the warnings and issue them at the user's line; on a
    device's arrays (the last argument says which) recompute it silently."""
    if type(args[-1]) is not _ndarray and is_device_array(args[-1]):
        with np.errstate(all='ignore'):
            return fn(*args)
    modes = np.geterr()
    with np.errstate(**{k: 'ignore' for k, v in modes.items() if v == 'warn'}):
        y = fn(*args)
    level = user_stacklevel()
    for bit, category, words in _KINDS:
        if flag & bit and modes[category] == 'warn':
            warnings.warn(f"ops.{name}: {words} encountered", RuntimeWarning, stacklevel=level)
    return y


# --------------------------------------------------------------------------- backward passes
_locate = None      # the backward loop's locate_step (set_locator), found when an error is met


def set_locator(locate):
    """Give the function that names the step running a Python frame: ``locate(frame)`` ->
    ``(what, source)`` (the backward loop's, which lives above this module)."""
    global _locate
    _locate = locate


def _noted(kind, flag):
    """The error callback of backward passes: warn, naming the step that met the error."""
    modes = np.geterr()
    flag &= sum(bit for bit, category, _ in _KINDS if modes[category] == 'call')
    if flag:
        what, source = _locate(sys._getframe(1))
        fp_report(flag, what, source)


def _noting_modes():
    """The error modes of a backward pass: those that warn call ``_noted`` instead; None to
    keep the caller's (nothing warns, a pass inside a pass, or a callback of the caller's)."""
    modes = np.geterr()
    if 'call' in modes.values() or 'warn' not in modes.values():
        return None
    return {k: ('call' if v == 'warn' else v) for k, v in modes.items()}


_noting = {}        # the caller's error state -> the backward pass's


if _state is not None:
    def fp_notes_enter():
        """Have NumPy's floating-point errors reported by the backward step that met them,
        in this context from here on; returns the token ``fp_notes_exit`` takes."""
        current = _state.get()
        state = _noting.get(current)
        if state is None:
            modes = _noting_modes()
            state = current if modes is None else _make_extobj(call=_noted, **modes)
            if len(_noting) < 64:
                _noting[current] = state
        return _state.set(state)

    fp_notes_exit = _state.reset
else:
    def fp_notes_enter():
        modes = _noting_modes()
        state = None if modes is None else np.errstate(call=_noted, **modes)
        if state is not None:
            state.__enter__()
        return state

    def fp_notes_exit(state):
        if state is not None:
            state.__exit__(None, None, None)


def fp_report(flag, what, source):
    """Warn of the errors in NumPy's ``flag`` bits, one warning per category: ``what`` names
    the step (``"the backward of 'Div'"``), ``source`` is ``(file, line)`` of the forward line
    that created its node, or None when unknown (the warning then names the user's line)."""
    for bit, category, words in _KINDS:
        if flag & bit:
            message = f"{what}: {words} encountered"
            if source is not None:
                warn_at(message, RuntimeWarning, source)
            else:
                warn(f"{message} (the line that created it is named when an op observer "
                     f"with record_source, such as hookgrad.debug.nan_guard, is on)",
                     RuntimeWarning)
