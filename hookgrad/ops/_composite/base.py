"""MindSpore's ``mindspore.ops.composite.base``: the composite classes under their defining
module's path (the same objects as ``ops.composite``), and ``add_flags``."""
from ...autograd.functional import GradOperation
from ..._tensor import Tensor
from ..composite import HyperMap, Map, MultitypeFuncGraph, partial

__all__ = ['GradOperation', 'HyperMap', 'Map', 'MultitypeFuncGraph', 'partial', 'add_flags',
           'Tensor']


def add_flags(fn=None, **flags):
    """Merge ``flags`` into ``fn._func_graph_flags`` (graph-compiler flags: hookgrad keeps them
    and reads none); returns ``fn``, or a decorator when ``fn`` is None.

    >>> def f(): pass
    >>> add_flags(f, predict=True)._func_graph_flags
    {'predict': True}
    """
    def deco(target):
        if not hasattr(target, '_func_graph_flags'):
            target._func_graph_flags = {}
        target._func_graph_flags.update(flags)
        return target
    return deco if fn is None else deco(fn)
