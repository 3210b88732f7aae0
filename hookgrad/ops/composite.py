"""MindSpore's composite helpers that optimizers and graph-mode code are written with:
``depend``, ``partial``, ``MultitypeFuncGraph``, ``HyperMap`` and ``Map``.

This module is also MindSpore's ``ops.composite`` (``C``), which holds GradOperation and some
functional ops too: ``hookgrad/ops/__init__.py`` adds the ones hookgrad has (the same objects
as ``ops.<name>``)."""
import functools
import numbers

import numpy as np

from .._tensor import Tensor

__all__ = ['depend', 'partial', 'MultitypeFuncGraph', 'HyperMap', 'Map']


def depend(value, expr):
    """``value`` itself; ``expr`` (already evaluated, in order) is what graph-mode code makes it
    depend on. Operations run in program order in hookgrad, so nothing more is needed.

    >>> import hookgrad as ms
    >>> ms.ops.depend(ms.Tensor([1.0]), ms.Tensor([2.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])
    """
    return value


def partial(func, *args):
    """``func`` with its first arguments fixed (``functools.partial``)."""
    if not callable(func):
        raise TypeError(f"ops.partial: func must be callable, got {type(func).__name__}")
    return functools.partial(func, *args)


# the type names MultitypeFuncGraph.register accepts, and what each matches
_TYPE_NAMES = {
    'Tensor': lambda v: isinstance(v, Tensor),
    'Number': lambda v: isinstance(v, (numbers.Number, np.number)) and not isinstance(v, Tensor),
    'Int': lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool),
    'Float': lambda v: isinstance(v, (float, np.floating)),
    'Bool': lambda v: isinstance(v, (bool, np.bool_)),
    'String': lambda v: isinstance(v, str),
    'Tuple': lambda v: isinstance(v, tuple),
    'List': lambda v: isinstance(v, list),
    'Dict': lambda v: isinstance(v, dict),
    'None': lambda v: v is None,
    'Function': callable,
}


class MultitypeFuncGraph:
    """A function overloaded on the types of its arguments.

    ``@f.register("Tensor", "Number")`` adds an overload; ``f(*args)`` calls the first one
    whose types match (type names: 'Tensor', 'Number', 'Int', 'Float', 'Bool', 'String',
    'Tuple', 'List', 'Dict', 'None', 'Function'; a ``ms.dtype`` such as ``ms.float32`` matches
    a Tensor of that dtype).

    Args:
        name (str): the function's name (in errors).
        read_value (bool): accepted for compatibility.

    Raises:
        ValueError: (when called) no overload matches the arguments.

    >>> import hookgrad as ms
    >>> add = ms.ops.MultitypeFuncGraph('add')
    >>> @add.register("Number", "Number")
    ... def _(x, y):
    ...     return x + y
    >>> add(1, 2)
    3
    """

    def __init__(self, name, read_value=False):
        if not isinstance(name, str):
            raise TypeError(f"MultitypeFuncGraph: name must be a str, got {type(name).__name__}")
        self.name = name
        self.read_value = read_value
        self.entries = []

    def register(self, *type_names):
        """Decorator: add an overload for arguments of ``type_names``.

        Raises:
            ValueError: an unknown type name.
        """
        matchers = [_matcher(t, self.name) for t in type_names]

        def add(fn):
            self.entries.append((tuple(type_names), matchers, fn))
            return fn
        return add

    def __call__(self, *args):
        for _, matchers, fn in self.entries:
            if len(matchers) == len(args) and all(m(a) for m, a in zip(matchers, args)):
                return fn(*args)
        got = ', '.join(type(a).__name__ for a in args)
        known = '; '.join(', '.join(map(str, names)) for names, _, _ in self.entries)
        raise ValueError(f"MultitypeFuncGraph '{self.name}': no overload for arguments ({got}); "
                         f"registered: {known or 'none'}")


def _matcher(type_name, name):
    from .. import _dtype
    if isinstance(type_name, _dtype.DType):
        want = type_name.np_dtype
        return lambda v: isinstance(v, Tensor) and v._data.dtype == want
    match = _TYPE_NAMES.get(type_name)
    if match is None:
        raise ValueError(f"MultitypeFuncGraph '{name}'.register: unknown type {type_name!r}; "
                         f"known: {sorted(_TYPE_NAMES)} or a ms dtype")
    return match


class HyperMap:
    """Apply a function element by element over sequences, recursively into nested ones.

    ``HyperMap()(fn, seq1, seq2, ...)`` (or ``HyperMap(fn)(seq1, ...)``) returns a tuple of
    ``fn(a, b, ...)`` over the elements; elements that are tuples or lists are mapped into in
    turn. A non-sequence argument is passed as it is to every call.

    Args:
        ops: the function, fixed at construction (then calls take only the sequences).
        reverse: accepted for compatibility (the calls run in order).

    Raises:
        ValueError: the sequences have different lengths.

    >>> import hookgrad as ms
    >>> ms.ops.HyperMap()(lambda a, b: a * b, (1, (2, 3)), (4, (5, 6)))
    (4, (10, 18))
    """

    recursive = True

    def __init__(self, ops=None, reverse=False):
        if ops is not None and not callable(ops):
            raise TypeError(f"{type(self).__name__}: ops must be callable, got "
                            f"{type(ops).__name__}")
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        if self.ops is None:
            if not args:
                raise TypeError(f"{type(self).__name__}: expected a function and sequences")
            fn, args = args[0], args[1:]
        else:
            fn = self.ops
        return self._map(fn, args)

    def _map(self, fn, args):
        seqs = [a for a in args if isinstance(a, (tuple, list))]
        if not seqs:
            return fn(*args)
        n = len(seqs[0])
        if any(len(s) != n for s in seqs):
            raise ValueError(f"{type(self).__name__}: sequences of different lengths "
                             f"{[len(s) for s in seqs]}")
        out = []
        for i in range(n):
            items = [a[i] if isinstance(a, (tuple, list)) else a for a in args]
            nested = self.recursive and any(isinstance(v, (tuple, list)) for v in items)
            out.append(self._map(fn, items) if nested else fn(*items))
        return tuple(out)


class Map(HyperMap):
    """``HyperMap`` over the top level only: elements are passed to the function whole.

    >>> import hookgrad as ms
    >>> ms.ops.Map()(len, ((1, 2), (3,)))
    (2, 1)
    """

    recursive = False
