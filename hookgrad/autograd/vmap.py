"""``vmap``: a function mapped over an axis of its arguments, with MindSpore 2.10's signature,
axis rules and errors.

The function is called once per example, on that example's slices, and the results are
stacked: every op works under ``vmap``, and so do gradients through it (``grad`` of a vmapped
function, a vmapped ``grad``), at the cost of one Python call per example. Unlike MindSpore's
vmap, random ops draw new values for each example.
"""
import numpy as np

from .._tensor import Tensor
from .functional import check_callable
from .observer import OpObserver

__all__ = ['vmap']


def _is_axis(a):
    return a is None or (isinstance(a, (int, np.integer)) and not isinstance(a, bool))


def _check_axes(axes, what):
    """Every leaf of ``axes`` is an int or None."""
    if isinstance(axes, (tuple, list)):
        for a in axes:
            _check_axes(a, what)
    elif not _is_axis(axes):
        raise RuntimeError(f"vmap: the axes in {what} can only be ints or None, got "
                           f"{type(axes).__name__} {axes!r}")


def _all_none(axes):
    if isinstance(axes, (tuple, list)):
        return all(_all_none(a) for a in axes)
    return axes is None


def _has_none(axes):
    if isinstance(axes, (tuple, list)):
        return any(_has_none(a) for a in axes)
    return axes is None


def _normalized(axis, ndim, what):
    if not -ndim <= axis < ndim:
        raise RuntimeError(f"vmap: the axis {axis} in {what} is out of bounds for an array of "
                           f"dimension {ndim} (axes lie in [{-ndim}, {ndim}))")
    return int(axis) % ndim


class _Slot:
    """One argument leaf: a value and the axis it is mapped over (None: passed whole)."""

    __slots__ = ('value', 'axis')

    def __init__(self, value, axis):
        self.value = value
        self.axis = axis


def _mapped(arg, axis, sizes):
    """``arg`` as a tree of ``_Slot`` (tuples and lists kept), every axis resolved to a
    non-negative one; collects the sizes of the mapped axes."""
    if isinstance(axis, (tuple, list)):
        if not isinstance(arg, (tuple, list)) or len(arg) != len(axis):
            shape = f" of length {len(arg)}" if isinstance(arg, (tuple, list)) else ''
            raise RuntimeError(f"vmap: in_axes {axis!r} does not match the structure of its "
                               f"argument ({type(arg).__name__}{shape})")
        return type(arg)(_mapped(a, x, sizes) for a, x in zip(arg, axis))
    if axis is None:
        return _Slot(arg, None)
    if isinstance(arg, (tuple, list)):
        return type(arg)(_mapped(a, axis, sizes) for a in arg)
    if not isinstance(arg, Tensor):
        raise RuntimeError(f"vmap: an argument mapped over axis {axis} must be a Tensor (or a "
                           f"tuple of them), got {type(arg).__name__}; give it the axis None")
    axis = _normalized(axis, arg.ndim, 'in_axes')
    sizes.append(arg.shape[axis])
    return _Slot(arg, axis)


def _example(tree, i, sliced):
    """The ``i``-th example of a resolved argument tree; the slices taken go to ``sliced``."""
    if isinstance(tree, (tuple, list)):
        return type(tree)(_example(t, i, sliced) for t in tree)
    if tree.axis is None:
        return tree.value
    piece = tree.value[(slice(None),) * tree.axis + (i,)]
    sliced.append(piece)
    return piece


class _Dependence(OpObserver):
    """Which arrays the ops of this thread computed from the mapped slices (a taint, to tell
    an output that depends on the mapped arguments from a constant)."""

    def __init__(self):
        self.tainted = {}

    def taint(self, tensors):
        for t in tensors:
            self.tainted[id(t._data)] = t._data

    def on_forward(self, call):
        if any(id(a) in self.tainted for a in call.inputs):
            for y in call.outputs:
                self.tainted[id(y)] = y


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorize ``fn`` over an axis of its arguments (MindSpore's ``vmap``).

    Args:
        fn: function or Cell taking at least one argument; or a CellList for model ensembling,
            whose i-th cell gets the i-th example (as many cells as the mapped axes' size).
        in_axes: the axis of each positional argument to map over: an int for all, or a
            tuple/list with one entry per argument, each an int, None (not mapped: every call
            gets it whole) or, for a tuple argument, a tuple of entries for its elements. At
            least one must not be None; all mapped sizes must be equal.
        out_axes: where the mapped axis goes in each output: an int for all, or a tuple/list
            with one entry per output (nested for nested outputs). None returns an output
            that does not depend on the mapped arguments as it is; an output that does not
            depend on them with an int axis is broadcast along it.
    Returns:
        The vectorized function: its outputs stack fn's per-example outputs (Tensors or Python
        numbers) along ``out_axes``.
    Raises:
        RuntimeError: as MindSpore: an axis is not an int or None or out of bounds, in_axes or
            out_axes is None alone or has the wrong length, all of in_axes are None, mapped
            sizes differ, a mapped argument is not a Tensor, fn returns None, keyword
            arguments are given, or an output that depends on the mapped arguments has the
            out axis None.
        ValueError: a CellList has another length than the mapped size.

    >>> import hookgrad as ms
    >>> ms.vmap(lambda x, y: x * y, in_axes=(0, None))(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]),
    ...                                                ms.Tensor([10.0, 100.0]))
    Tensor(shape=[2, 2], dtype=Float32, value=
    [[ 1.00000000e+01,  2.00000000e+02],
     [ 3.00000000e+01,  4.00000000e+02]])
    """
    cells = fn if getattr(fn, 'maps_one_cell_per_example', False) else None    # a CellList
    if cells is None:
        check_callable(fn, 'vmap')
    _check_axes(in_axes, 'in_axes')
    _check_axes(out_axes, 'out_axes')

    def vmapped(*args, **kwargs):
        if kwargs:
            raise RuntimeError(f"vmap: keyword arguments are not supported, got "
                               f"{', '.join(map(repr, kwargs))}")
        axes = _argument_axes(in_axes, args, cells is not None)
        sizes = []
        trees = [_mapped(a, x, sizes) for a, x in zip(args, axes)]
        if sizes and any(s != sizes[0] for s in sizes):
            raise RuntimeError(f"vmap: the mapped axes of the arguments must have one size, got "
                               f"{', '.join(map(str, dict.fromkeys(sizes)))}")
        size = sizes[0] if sizes else len(cells)
        if cells is not None and len(cells) != size:
            raise ValueError(f"vmap: a CellList of {len(cells)} cells needs mapped axes of size "
                             f"{len(cells)} (one example per cell), got {size}")
        watch = _Dependence() if _has_none(out_axes) else None
        results = []
        for i in range(size):
            sliced = []
            example = [_example(t, i, sliced) for t in trees]
            call = cells[i] if cells is not None else fn
            if watch is None:
                results.append(call(*example))
                continue
            watch.taint(sliced)
            with watch:
                results.append(call(*example))
        return _stacked(results, out_axes, watch)

    return vmapped


def _argument_axes(in_axes, args, ensemble):
    """One axis entry per positional argument."""
    if in_axes is None and not ensemble:
        raise RuntimeError("vmap: in_axes cannot be None alone unless fn is a CellList")
    if isinstance(in_axes, (tuple, list)):
        if len(in_axes) != len(args):
            raise RuntimeError(f"vmap: in_axes has {len(in_axes)} entries for {len(args)} "
                               f"argument{'s' if len(args) != 1 else ''}; it needs one per "
                               f"argument")
        axes = list(in_axes)
    else:
        axes = [in_axes] * len(args)
    if not ensemble and _all_none(axes):
        raise RuntimeError(f"vmap: in_axes cannot be all None unless fn is a CellList, got "
                           f"{in_axes!r}")
    return axes


def _stacked(results, out_axes, watch):
    """The per-example outputs stacked along their out axes, in fn's output structure."""
    first = results[0]
    if out_axes is None:
        raise RuntimeError("vmap: out_axes cannot be None alone")
    if isinstance(out_axes, (tuple, list)):
        n = len(first) if isinstance(first, (tuple, list)) else 1
        if n != len(out_axes):
            raise RuntimeError(f"vmap: out_axes has {len(out_axes)} entries for {n} output"
                               f"{'s' if n != 1 else ''} of fn")
        if not isinstance(first, (tuple, list)):
            out_axes = out_axes[0]
    return _stack(results, out_axes, watch, 'output')


def _stack(values, axis, watch, where):
    first = values[0]
    if isinstance(first, (tuple, list)):
        for v in values:
            if not isinstance(v, (tuple, list)) or len(v) != len(first):
                raise RuntimeError(f"vmap: fn returned differently structured outputs for "
                                   f"different examples ({where})")
        axes = axis if isinstance(axis, (tuple, list)) else [axis] * len(first)
        if len(axes) != len(first):
            raise RuntimeError(f"vmap: out_axes entry {axis!r} does not match {where}, a "
                               f"tuple of {len(first)}")
        return tuple(_stack([v[k] for v in values], axes[k], watch, f"{where} {k}")
                     for k in range(len(first)))
    if isinstance(axis, (tuple, list)):
        raise RuntimeError(f"vmap: out_axes entry {axis!r} given for {where}, which is not a "
                           f"tuple")
    tensors = [_as_tensor(v, where) for v in values]
    if axis is None:
        if any(id(t._data) in watch.tainted for t in tensors):
            raise RuntimeError(f"vmap: {where} depends on the mapped arguments, so its out axis "
                               f"cannot be None")
        return first
    from ..ops import stack
    return stack(tensors, _normalized(axis, tensors[0].ndim + 1, 'out_axes'))


def _as_tensor(value, where):
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, np.number)):
        return Tensor(value)
    raise RuntimeError(f"vmap: fn must return Tensors or numbers, {where} is "
                       f"{type(value).__name__}")
