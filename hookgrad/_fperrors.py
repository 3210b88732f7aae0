"""NumPy's floating-point warnings (log of a negative, division by zero...) at the user's line.

NumPy warns from the Python frame that called the ufunc, which is inside hookgrad: an op's
forward or a backward rule.

Forward: ``fp_call`` runs an op's NumPy call with every category NumPy would *warn* about
switched to a callback that raises (categories set to 'ignore' or 'raise' by the caller stay as
they are); on the rare call that trips it, the result is recomputed with those categories
ignored and the warning is re-issued at the first frame outside hookgrad. The happy path costs
one context-variable set and reset.

Backward: a backward pass runs between ``fp_notes_enter`` and ``fp_notes_exit``, with the
categories NumPy would warn about switched to a callback (``FPNotes``) that does not raise, so
every rule computes what it would have computed, in place or not. On the rare call that meets an
error, the callback asks the backward loop which step was running (from the Python frames) and
warns once per category, naming that step: at the forward line that created its node when that
is known, else at the user's line. A pass costs one context-variable set and reset; its steps
cost nothing.
"""
import sys
import threading
import warnings

import numpy as np

from ._frames import user_stacklevel, warn, warn_at


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
    """Recompute ``fn(*args)`` without the warnings and issue them at the user's line."""
    modes = np.geterr()
    with np.errstate(**{k: 'ignore' for k, v in modes.items() if v == 'warn'}):
        y = fn(*args)
    level = user_stacklevel()
    for bit, category, words in _KINDS:
        if flag & bit and modes[category] == 'warn':
            warnings.warn(f"ops.{name}: {words} encountered", RuntimeWarning, stacklevel=level)
    return y


# --------------------------------------------------------------------------- backward passes
class FPNotes:
    """A thread's error callback for backward passes: it finds the step that met an error with
    ``locate(frame)`` (the backward loop's, given to ``fp_notes_enter``) and warns there."""

    __slots__ = ('mask', 'locate', 'derived')

    def __init__(self):
        self.mask = 0           # the bits of the categories that warn, in the running pass
        self.locate = None
        self.derived = {}       # the caller's error state -> (noting state, mask)

    def __call__(self, kind, flag):
        flag &= self.mask
        if flag:
            what, source = self.locate(sys._getframe(1))
            fp_report(flag, what, source)


_threads = threading.local()


def _notes():
    notes = getattr(_threads, 'notes', None)
    if notes is None:
        notes = _threads.notes = FPNotes()
    return notes


def _noting_modes(notes):
    """``(modes, mask)``: the error modes of a noting state (None: keep the caller's) and the
    bits of the categories ``notes`` reports. A pass inside a pass keeps the outer one's state;
    a caller's own callback is kept, with nothing noted."""
    modes = np.geterr()
    if 'call' in modes.values():
        if np.geterrcall() is not notes:
            return None, 0
        return None, sum(bit for bit, category, _ in _KINDS if modes[category] == 'call')
    mask = sum(bit for bit, category, _ in _KINDS if modes[category] == 'warn')
    if not mask:
        return None, 0
    return {k: ('call' if v == 'warn' else v) for k, v in modes.items()}, mask


if _state is not None:
    def fp_notes_enter(locate):
        """Have this thread's floating-point errors reported by the step that met them, from
        here on: ``locate(frame)`` gives ``(what, source)`` for the Python frame that ran the
        NumPy call (see ``fp_report``). Returns the token ``fp_notes_exit`` takes."""
        notes = _notes()
        current = _state.get()
        found = notes.derived.get(current)
        if found is None:
            modes, mask = _noting_modes(notes)
            found = (current if modes is None else _make_extobj(call=notes, **modes), mask)
            if len(notes.derived) < 64:
                notes.derived[current] = found
        token = (_state.set(found[0]), notes.mask)
        notes.mask, notes.locate = found[1], locate
        return token

    def fp_notes_exit(token):
        """Restore the error state ``fp_notes_enter`` found."""
        state, _notes().mask = token
        _state.reset(state)
else:
    def fp_notes_enter(locate):
        notes = _notes()
        modes, mask = _noting_modes(notes)
        state = None
        if modes is not None:
            state = np.errstate(call=notes, **modes)
            state.__enter__()
        token = (state, notes.mask)
        notes.mask, notes.locate = mask, locate
        return token

    def fp_notes_exit(token):
        state, _notes().mask = token
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
