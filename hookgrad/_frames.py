"""Where the user's code is: the first Python frame outside hookgrad's own machinery.

Every report of "where" (an op's source line for op observers, nan_guard and the profiler, the
node a backward error or floating-point warning names, warnings hookgrad issues, the jit
recorder's reasons) uses this module, so they all name the same line. A frame is hookgrad's
when its file lies inside the hookgrad package, or it runs a program hookgrad generated (a
graph-mode replay): by path, so a new module of the framework cannot be missed. Two kinds of
code inside the package are to a user what their own code is, and reports name their lines:
the networks hookgrad ships (``hookgrad.vision``: a report names the line of ResNet's
``construct`` that ran the op), and a hookgrad module run as a program
(``python -m hookgrad.demo``). Notes that name such places are added to errors with
``add_note``, which Python 3.10 (without notes) shows in the message.
"""
import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_NETWORKS = tuple(_PACKAGE + d + os.sep for d in ('vision',))
GENERATED = '<jit program'         # the file name of graph-mode replay code (jit/codegen.py)
_internal = {}                      # file name -> whether its frames are hookgrad's


def is_internal(frame):
    """Whether ``frame`` runs hookgrad's own code."""
    name = frame.f_code.co_filename
    inside = _internal.get(name)
    if inside is None:
        inside = _internal[name] = (name.startswith(_PACKAGE) and
                                    not name.startswith(_NETWORKS)) or name.startswith(GENERATED)
    return inside and frame.f_globals.get('__name__') != '__main__'


def user_frame(frame=None):
    """The innermost frame outside hookgrad, from ``frame`` (default: the caller) outwards;
    None when every frame is hookgrad's."""
    f = sys._getframe(1) if frame is None else frame
    while f is not None and is_internal(f):
        f = f.f_back
    return f


def user_line(frame=None):
    """``(file, line)`` of ``user_frame(frame)``, or None."""
    f = user_frame(sys._getframe(1) if frame is None else frame)
    return None if f is None else (f.f_code.co_filename, f.f_lineno)


def user_stacklevel():
    """The ``stacklevel`` that makes a ``warnings.warn`` in the calling function name the first
    frame outside hookgrad (the outermost frame when every one is hookgrad's)."""
    f, level = sys._getframe(1), 1
    while f.f_back is not None and is_internal(f):
        f, level = f.f_back, level + 1
    return level


def warn(message, category=UserWarning):
    """``warnings.warn`` at the user's line."""
    warnings.warn(message, category, stacklevel=user_stacklevel())


_registries = {}        # file name -> the warnings registry of warnings issued there


def warn_at(message, category, source):
    """``warnings.warn`` at ``source`` (``(file, line)``), with the once-per-location filtering
    of a warning issued there."""
    file, line = source
    warnings.warn_explicit(message, category, file, line,
                           registry=_registries.setdefault(file, {}))


def add_note(error, note):
    """``error.add_note(note)``, once (a note already there is not added again). Python 3.10
    has no notes: there the note ends the error's message, so that it is still shown."""
    if note in getattr(error, '__notes__', ()):
        return
    if hasattr(error, 'add_note'):
        error.add_note(note)
    else:
        note_in_message(error, note)


def note_in_message(error, note):
    """Add ``note`` to ``error`` as a line of its message (its first argument, when a str) and
    to its ``__notes__``: the notes of Python 3.10, which prints none."""
    notes = getattr(error, '__notes__', None)
    try:
        error.__notes__ = (list(notes) if notes is not None else []) + [note]
    except AttributeError:      # an error type that takes no attributes
        pass
    args = error.args
    if args and isinstance(args[0], str):
        error.args = (f"{args[0]}\n{note}",) + args[1:]
