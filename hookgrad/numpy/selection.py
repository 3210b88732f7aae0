"""Selection, searching and sets of ``mindspore.numpy``: where, select, choose, take,
take_along_axis, piecewise, apply_along_axis, argwhere, searchsorted, unique and the set
operations.

Positions and masks come from ops without gradients; the values are then gathered with
differentiable indexing, so gradients reach the selected elements.
"""
import numpy as np

from .. import ops
from .._tensor import Tensor
from . import _array_ops as A
from ._args import axis_of, fail, promoted, to_tensor, values

_I32 = np.dtype(np.int32)


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` is true, of ``y`` elsewhere (broadcast together).
    With only ``condition``, the indices of its nonzero elements, one array per axis.

    >>> import hookgrad.numpy as mnp
    >>> mnp.where(mnp.array([True, False]), 1, 2)
    Tensor(shape=[2], dtype=Int32, value= [1, 2])
    """
    cond = to_tensor(condition, 'where')
    if x is None and y is None:
        positions = ops.argwhere(cond)
        return tuple(ops.reshape(ops.getitem(positions, (slice(None), i)), (-1,))
                     for i in range(cond.ndim))
    if x is None or y is None:
        raise fail('where', "either both or neither of x and y must be given")
    if cond._data.dtype != np.bool_:
        cond = ops.ne(cond, 0)
    x, y = promoted([to_tensor(x, 'where'), to_tensor(y, 'where')])
    try:
        np.broadcast_shapes(cond.shape, x.shape, y.shape)
    except ValueError:
        raise fail('where', f"condition {cond.shape}, x {x.shape} and y {y.shape} cannot be "
                            f"broadcast together") from None
    return ops.where(cond, x, y)


def _stacked(arrays, name):
    if isinstance(arrays, Tensor):
        return arrays
    xs = promoted([to_tensor(a, name) for a in arrays])
    shape = np.broadcast_shapes(*[x.shape for x in xs])
    return ops.stack([ops.broadcast_to(x, shape) if x.shape != shape else x for x in xs])


def select(condlist, choicelist, default=0):
    """Per element, the entry of the first choice whose condition holds (``default`` where
    none does)."""
    conds = _stacked(condlist, 'select')
    choices = _stacked(choicelist, 'select')
    if conds.ndim == 0 or choices.ndim == 0:
        raise fail('select', "condlist and choicelist cannot be scalars")
    if conds.shape[0] != choices.shape[0]:
        raise fail('select', f"condlist has {conds.shape[0]} conditions and choicelist "
                             f"{choices.shape[0]} choices; they must be as many")
    out = to_tensor(default, 'select')
    out = ops.cast(out, choices._data.dtype) if out._data.dtype != choices._data.dtype else out
    for i in range(conds.shape[0] - 1, -1, -1):      # the first true condition wins
        cond = conds[i]
        cond = cond if cond._data.dtype == np.bool_ else ops.ne(cond, 0)
        out = ops.where(cond, choices[i], out)
    shape = np.broadcast_shapes(conds.shape[1:], choices.shape[1:])
    return ops.broadcast_to(out, shape) if out.shape != shape else out


def _indices(idx, n, mode, name):
    """Integer positions made valid for an axis of length ``n`` by ``mode``."""
    if idx._data.dtype.kind not in 'iu':
        raise fail(name, f"indices must be integers, got dtype {idx.dtype}", TypeError)
    if mode == 'raise':
        v = values(idx)
        if v.size and (v.min() < -n or v.max() >= n):
            bad = v[(v < -n) | (v >= n)].reshape(-1)[0]
            raise IndexError(f"numpy.{name}: index {bad} is out of bounds for an axis of "
                             f"size {n}")
        return ops.remainder(idx, max(n, 1))
    if mode == 'wrap':
        return ops.remainder(idx, max(n, 1))
    if mode == 'clip':      # negative positions count from the end first (MindSpore's rule)
        idx = ops.where(ops.lt(idx, 0), ops.add(idx, n), idx)
        return ops.clamp(idx, 0, max(n - 1, 0))
    raise fail(name, f"mode must be 'raise', 'wrap' or 'clip', got {mode!r}")


def take(a, indices, axis=None, mode='clip'):
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened ``a`` when None);
    ``mode`` 'clip' (the default: out-of-range positions are clipped), 'wrap' or 'raise'."""
    x = to_tensor(a, 'take')
    idx = to_tensor(indices, 'take')
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    axis = axis_of(axis, x.ndim, 'take')
    idx = _indices(idx, x.shape[axis], mode, 'take')
    return ops.take(x, idx, axis)


def take_along_axis(arr, indices, axis):
    """Values of ``arr`` at ``indices`` along ``axis`` (``indices`` has ``arr``'s rank and
    broadcasts against it elsewhere); flattened inputs when ``axis`` is None."""
    x = to_tensor(arr, 'take_along_axis')
    idx = to_tensor(indices, 'take_along_axis')
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    if idx.ndim != x.ndim:
        raise fail('take_along_axis', f"indices and arr must have the same number of "
                                      f"dimensions, got {idx.ndim} and {x.ndim}")
    axis = axis_of(axis, x.ndim, 'take_along_axis')
    idx = _indices(idx, x.shape[axis], 'raise', 'take_along_axis')
    key = []
    for i in range(x.ndim):
        if i == axis:
            key.append(idx)
        else:
            shape = [1] * x.ndim
            shape[i] = x.shape[i]
            key.append(np.arange(x.shape[i]).reshape(shape))
    return ops.getitem(x, tuple(key))


def choose(a, choices, mode='clip'):
    """Per element, the entry of ``choices[a]`` (``a`` an integer array; the choices broadcast
    against it); ``mode`` 'clip' or 'wrap' makes out-of-range choices valid, 'raise' rejects
    them."""
    idx = to_tensor(a, 'choose')
    if idx._data.dtype.kind not in 'iu':
        raise fail('choose', f"a must be an integer array, got dtype {idx.dtype}", TypeError)
    if isinstance(choices, Tensor):
        choices = [choices[i] for i in range(choices.shape[0])]
    xs = promoted([to_tensor(c, 'choose') for c in choices])
    shape = np.broadcast_shapes(idx.shape, *[x.shape for x in xs])
    stacked = ops.stack([ops.broadcast_to(x, shape) if x.shape != shape else x for x in xs])
    if mode == 'clip':
        idx = ops.clamp(idx, 0, len(xs) - 1)
    else:
        idx = _indices(idx, len(xs), mode, 'choose')
    idx = ops.broadcast_to(idx, shape) if idx.shape != shape else idx
    grid = tuple(np.arange(n).reshape((1,) * i + (n,) + (1,) * (len(shape) - i - 1))
                 for i, n in enumerate(shape))
    return ops.getitem(stacked, (idx,) + grid)


def piecewise(x, condlist, funclist, *args, **kw):
    """Per element, the value of the function (or constant) whose condition holds; one extra
    function is the default where no condition does."""
    x = to_tensor(x, 'piecewise')
    if isinstance(condlist, Tensor) and condlist.shape == x.shape:     # one condition
        condlist = [condlist]
    conds = [to_tensor(c, 'piecewise') for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise fail('piecewise', f"with {n} conditions, funclist must have {n} or {n + 1} "
                                f"entries, got {len(funclist)}")
    pieces = [f(x, *args, **kw) if callable(f) else f for f in funclist]
    pieces = [ops.broadcast_to(ops.cast(to_tensor(p, 'piecewise'), x._data.dtype), x.shape)
              for p in pieces]
    out = pieces[n] if len(pieces) == n + 1 else ops.zeros_like(x)
    for i in range(n - 1, -1, -1):
        cond = conds[i]
        cond = cond if cond._data.dtype == np.bool_ else ops.ne(cond, 0)
        out = ops.where(cond, pieces[i], out)
    return out


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to the 1-d slices of ``arr`` along ``axis``; its results (scalars or
    arrays) are stacked where the axis was."""
    from .manipulation import moveaxis
    x = to_tensor(arr, 'apply_along_axis')
    axis = axis_of(axis, x.ndim, 'apply_along_axis')
    moved = moveaxis(x, axis, -1)
    lead = moved.shape[:-1]
    flat = ops.reshape(moved, (-1, moved.shape[-1]))
    results = [to_tensor(func1d(flat[i], *args, **kwargs), 'apply_along_axis')
               for i in range(flat.shape[0])]
    if not results:
        raise fail('apply_along_axis', "cannot apply a function to the slices of an empty "
                                       "array")
    out = ops.reshape(ops.stack(promoted(results)), lead + results[0].shape)
    extra = results[0].ndim
    return moveaxis(out, tuple(range(len(lead), len(lead) + extra)),
                    tuple(range(axis, axis + extra))) if extra else out


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` applied for each axis in turn, keeping the rank (a reduced axis is
    restored with length 1)."""
    x = to_tensor(a, 'apply_over_axes')
    axes = (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)
    out = x
    for ax in axes:
        ax = axis_of(ax, x.ndim, 'apply_over_axes')
        res = to_tensor(func(out, axis=ax), 'apply_over_axes')
        if res.ndim == x.ndim - 1:
            res = ops.expand_dims(res, ax)
        if res.ndim != x.ndim:
            raise fail('apply_over_axes', f"func must return an array of rank {x.ndim} or "
                                          f"{x.ndim - 1}, got rank {res.ndim}")
        out = res
    return out


# ----------------------------------------------------------------------------- searching
def argwhere(a):
    """The indices of the nonzero elements of ``a``, one row each (Int64)."""
    return ops.argwhere(to_tensor(a, 'argwhere'))


def searchsorted(a, v, side='left', sorter=None):
    """Where each value of ``v`` would be inserted into the 1-d ascending ``a`` (or ``a``
    ordered by ``sorter``) to keep it sorted; ``side`` 'left' or 'right' breaks ties. Int32."""
    if side not in ('left', 'right'):
        raise fail('searchsorted', f"side must be 'left' or 'right', got {side!r}")
    arr = to_tensor(a, 'searchsorted')
    if arr.ndim != 1:
        raise fail('searchsorted', f"a must be 1-d, got shape {arr.shape}")
    if sorter is not None:
        order = to_tensor(sorter, 'searchsorted')
        if order.shape != arr.shape or order._data.dtype.kind not in 'iu':
            raise fail('searchsorted', f"sorter must be integer positions of the shape of a "
                                       f"{arr.shape}, got {order.shape} {order.dtype}")
        arr = ops.take(arr, order, 0)
    vals = to_tensor(v, 'searchsorted')
    arr, vals = promoted([arr, vals])
    return ops.searchsorted(arr, vals, out_int32=True, side=side)


# ----------------------------------------------------------------------------- sets
def _flat_unique(x):
    """The ascending distinct values of ``x`` (flattened, differentiable) and each element's
    index into them."""
    flat = ops.reshape(x, (-1,))
    first, inverse = A.UniqueIndex.apply(flat)
    return ops.take(flat, first, 0), inverse, first


def unique(x, return_inverse=False):
    """The sorted distinct values of the flattened ``x``; with ``return_inverse`` also, per
    element, its index into them (Int32)."""
    values_, inverse, _ = _flat_unique(to_tensor(x, 'unique'))
    return (values_, inverse) if return_inverse else values_


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values found in both ``ar1`` and ``ar2``; with ``return_indices``, also
    their first positions in each flattened input."""
    for v, what in ((assume_unique, 'assume_unique'), (return_indices, 'return_indices')):
        if not isinstance(v, bool):
            raise fail('intersect1d', f"{what} must be a bool, got {v!r}", TypeError)
    a, b = promoted([to_tensor(ar1, 'intersect1d'), to_tensor(ar2, 'intersect1d')])
    ua, _, first_a = _flat_unique(a)
    ub, _, first_b = _flat_unique(b)
    keep = ops.argwhere(A.IsIn.apply(ua, ub, invert=False))
    keep = ops.reshape(keep, (-1,))
    common = ops.take(ua, keep, 0)
    if not return_indices:
        return common
    in_b = ops.searchsorted(ub, common, out_int32=True)
    return common, ops.take(first_a, keep, 0), ops.take(first_b, in_b, 0)


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted distinct values of ``ar1`` that are not in ``ar2`` (with ``assume_unique``,
    the values of ``ar1`` in their order)."""
    if not isinstance(assume_unique, bool):
        raise fail('setdiff1d', f"assume_unique must be a bool, got {assume_unique!r}",
                   TypeError)
    a = to_tensor(ar1, 'setdiff1d')
    b = to_tensor(ar2, 'setdiff1d')
    base = ops.reshape(a, (-1,)) if assume_unique else _flat_unique(a)[0]
    keep = ops.reshape(ops.argwhere(A.IsIn.apply(base, b, invert=True)), (-1,))
    return ops.take(base, keep, 0)


__all__ = ['where', 'select', 'take', 'take_along_axis', 'choose', 'piecewise',
           'apply_along_axis', 'apply_over_axes', 'argwhere', 'searchsorted', 'unique',
           'intersect1d', 'setdiff1d']
