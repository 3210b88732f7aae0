"""Errors for MindSpore names hookgrad lacks.

``mindspore_names.json`` lists MindSpore 2.10's public names, by module and for ``Tensor``,
``Cell`` and ``Parameter`` (written by tools/missing_names.py). A hookgrad module gets its
``__getattr__`` from ``reporter``: asking for a name it lacks raises ``NotAvailable`` (an
AttributeError) saying whether MindSpore has the name, so ``ms.X``, ``getattr(ms, 'X', d)`` and
``hasattr`` behave as for any module, and the message says what is wrong. In an import statement
(``from mindspore import X``) the error is an ImportError with the same message.
"""
import dis
import functools
import json
import os
import sys

_IMPORT_FROM = dis.opmap.get('IMPORT_FROM')


class NotAvailable(AttributeError):
    """A name MindSpore has and hookgrad lacks (or that neither has)."""


class NotAvailableImport(ImportError):
    """``from mindspore import X`` for a name hookgrad lacks."""


@functools.lru_cache(maxsize=1)
def _names():
    path = os.path.join(os.path.dirname(__file__), 'mindspore_names.json')
    with open(path) as f:
        return {area: frozenset(names) for area, names in json.load(f).items()}


def in_mindspore(path, name=None):
    """Whether MindSpore 2.10 has module ``path`` (or, with ``name``, ``path.name``)."""
    names = _names()
    if name is None:
        parent, _, last = path.rpartition('.')
        return path in names or path in names['_modules'] or last in names.get(parent, ())
    return name in names.get(path, ()) or in_mindspore(f'{path}.{name}')


def message(path, name):
    """What to say about ``path.name`` that hookgrad lacks."""
    if in_mindspore(path, name):
        return f"{path}.{name} is not available in hookgrad"
    return f"module '{path}' has no attribute '{name}' (nor has MindSpore 2.10)"


def _in_import(depth):
    """Whether the caller ``depth`` frames up is running ``from module import name``."""
    try:
        frame = sys._getframe(depth)
        return frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM
    except (ValueError, IndexError, AttributeError):
        return False


def reporter(path):
    """A module ``__getattr__`` for the hookgrad module standing for MindSpore's ``path``."""
    def __getattr__(name):
        if name.startswith('__'):
            raise AttributeError(f"module '{path}' has no attribute '{name}'")
        text = message(path, name)
        if _in_import(2):
            raise NotAvailableImport(text, name=path)
        raise NotAvailable(text)
    return __getattr__


def member_error(kind, obj, name):
    """The AttributeError for ``obj.name`` missing on a Tensor, Cell or Parameter (``kind``)."""
    if in_mindspore(kind, name):
        return NotAvailable(f"{kind}.{name} of MindSpore is not available in hookgrad")
    return AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")


def reexport(namespace, source, path):
    """Put into ``namespace`` (a module's globals) every name of MindSpore's module ``path``
    that module ``source`` has; returns the names. Modules MindSpore imports under several
    paths (``ops.functional`` and ``ops``) so stay one set of objects."""
    names = [n for n in sorted(_names().get(path, ())) if hasattr(source, n)]
    for n in names:
        namespace[n] = getattr(source, n)
    return names
