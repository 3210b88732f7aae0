"""Run MindSpore code unchanged: ``mindspore`` and its submodules as hookgrad's.

``alias_mindspore()`` installs an import hook for this process: ``import mindspore``,
``from mindspore import nn`` and ``import mindspore.ops.operations as P`` give hookgrad's modules
(``mindspore.X`` is ``hookgrad.X``, the same module object). ``hookgrad run script.py`` does it
before running the script; in a notebook, call it once. A MindSpore module or name that hookgrad
lacks fails where it is used, saying so: ``mindspore.amp is not available in hookgrad``.
"""
import importlib
import importlib.abc
import importlib.util
import sys

from .names import NotAvailable, in_mindspore

__all__ = ['alias_mindspore', 'unalias_mindspore', 'NotAvailable']


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``mindspore[.X]`` as ``hookgrad[.X]``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != 'mindspore' and not fullname.startswith('mindspore.'):
            return None
        target_name = 'hookgrad' + fullname[len('mindspore'):]
        try:
            module = importlib.import_module(target_name)
        except ModuleNotFoundError as e:
            if e.name != target_name:
                raise                   # a module hookgrad itself needs is missing
            what = 'module' if in_mindspore(fullname) else 'module, and MindSpore has none'
            raise ModuleNotFoundError(f"{fullname} is not available in hookgrad (a MindSpore "
                                      f"{what} of that name)", name=fullname) from None
        spec = importlib.util.spec_from_loader(fullname, self,
                                               is_package=hasattr(module, '__path__'))
        spec.target = module
        spec.target_spec = module.__spec__
        return spec

    def create_module(self, spec):
        return spec.target             # the hookgrad module itself, keeping its own name

    def exec_module(self, module):
        module.__spec__ = module.__spec__.target_spec     # the import machinery replaced it


_finder = _Finder()


def alias_mindspore():
    """Make ``import mindspore`` (and every ``mindspore.X``) import hookgrad in this process.

    Returns:
        The ``hookgrad`` module (what ``import mindspore`` now gives).

    >>> import hookgrad.compat
    >>> ms = hookgrad.compat.alias_mindspore()
    >>> import mindspore
    >>> from mindspore import nn
    >>> mindspore is ms and nn is ms.nn
    True
    >>> hookgrad.compat.unalias_mindspore()
    """
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    return importlib.import_module('mindspore')


def unalias_mindspore():
    """Undo ``alias_mindspore``: forget the ``mindspore`` modules it gave."""
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in [n for n in sys.modules if n == 'mindspore' or n.startswith('mindspore.')]:
        if getattr(sys.modules[name], '__name__', '').startswith('hookgrad'):
            del sys.modules[name]
