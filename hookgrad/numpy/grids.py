"""Coordinate grids and index arrays of ``mindspore.numpy``: meshgrid, mgrid, ogrid, indices,
ix_, the diagonal and triangle indices, and converting between flat and multi-indices.

Index arrays are Int32. ``meshgrid`` is differentiable in its inputs.
"""
import numpy as np

from .. import ops
from .._tensor import Tensor
from ._args import fail, integer, np_dtype, shape_of, to_tensor

_I32 = np.dtype(np.int32)
_F32 = np.dtype(np.float32)


def _const(a):
    return Tensor._wrap(np.asarray(a))


def _ints(a):
    return _const(np.asarray(a).astype(_I32))


def meshgrid(*xi, sparse=False, indexing='xy'):
    """Coordinate matrices from 1-d coordinate vectors: with ``indexing='xy'`` (Cartesian)
    the first two output axes are swapped relative to ``'ij'`` (matrix indexing); ``sparse``
    returns broadcastable arrays instead of full ones.

    >>> import hookgrad.numpy as mnp
    >>> [g.shape for g in mnp.meshgrid(mnp.ones(3), mnp.ones(2))]
    [(2, 3), (2, 3)]
    """
    if indexing not in ('xy', 'ij'):
        raise fail('meshgrid', f"indexing must be 'xy' or 'ij', got {indexing!r}")
    if not isinstance(sparse, bool):
        raise fail('meshgrid', f"sparse must be a bool, got {sparse!r}", TypeError)
    xs = [to_tensor(x, 'meshgrid') for x in xi]
    for x in xs:
        if x.ndim != 1:
            raise fail('meshgrid', f"every input must be 1-d, got shape {x.shape}")
    n = len(xs)
    out = []
    for i, x in enumerate(xs):
        shape = [1] * n
        axis = i
        if indexing == 'xy' and n > 1 and i < 2:
            axis = 1 - i
        shape[axis] = x.shape[0]
        out.append(ops.reshape(x, tuple(shape)))
    if sparse:
        return tuple(out)
    full = np.broadcast_shapes(*[o.shape for o in out]) if out else ()
    return tuple(ops.broadcast_to(o, full) for o in out)


def _grid_axis(key):
    """The values one slice of an ``mgrid`` index spans (a complex step counts points)."""
    if not isinstance(key, slice):
        raise fail('mgrid', f"grid indices must be slices, got {key!r}", TypeError)
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    if isinstance(step, complex):
        return np.linspace(start, key.stop, int(abs(step))).astype(_F32)
    for v in (start, key.stop, step):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise fail('mgrid', "slice bounds must be ints (or give a complex step for a "
                                f"number of points), got {key!r}", TypeError)
    return np.arange(start, key.stop, step).astype(_I32)


class _Grid:
    """``mgrid`` (dense) or ``ogrid`` (open): ``grid[0:3, 0:5:11j]`` as NumPy's."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _const(_grid_axis(key))
        axes = [_grid_axis(k) for k in key]
        dt = _F32 if any(a.dtype == _F32 for a in axes) else _I32
        grids = np.meshgrid(*axes, indexing='ij', sparse=self.sparse)
        if self.sparse:
            return tuple(_const(g) for g in grids)
        return _const(np.stack(grids).astype(dt))

    def __repr__(self):
        return 'ogrid' if self.sparse else 'mgrid'


mgrid = _Grid(False)
ogrid = _Grid(True)


def indices(dimensions, dtype=np.int32, sparse=False):
    """Index grids of an array of shape ``dimensions``: a tuple of one grid per axis."""
    shape = shape_of(dimensions, 'indices')
    dt = np_dtype(dtype, 'indices')
    grids = np.indices(shape, dtype=dt, sparse=sparse)
    return tuple(_const(g) for g in grids)


def ix_(*args):
    """Open meshes from 1-d integer (or boolean) sequences, for cross-product indexing."""
    out = []
    n = len(args)
    for i, a in enumerate(args):
        x = to_tensor(a, 'ix_')
        if x.ndim != 1:
            raise fail('ix_', f"cross index must be 1-d, got shape {x.shape}")
        if x._data.dtype == np.bool_:
            x = ops.reshape(ops.argwhere(x), (-1,))
        elif x._data.dtype.kind not in 'iu':
            raise fail('ix_', f"index arrays must be integers or bools, got dtype {x.dtype}",
                       TypeError)
        out.append(ops.reshape(ops.cast(x, _I32), (1,) * i + (-1,) + (1,) * (n - i - 1)))
    return tuple(out)


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an ``n`` x ... x ``n`` array of rank ``ndim``."""
    n = integer(n, 'diag_indices', 'n')
    ndim = integer(ndim, 'diag_indices', 'ndim')
    return tuple(_ints(np.arange(n)) for _ in range(ndim))


def _triangle(n, k, m, lower, name):
    n = integer(n, name, 'n')
    m = n if m is None else integer(m, name, 'm')
    k = integer(k, name, 'k')
    mask = np.tri(n, m, k, dtype=bool) if lower else ~np.tri(n, m, k - 1, dtype=bool)
    return tuple(_ints(i) for i in np.nonzero(mask))


def tril_indices(n, k=0, m=None):
    """The indices of the lower triangle (at and below diagonal ``k``) of an n x m array."""
    return _triangle(n, k, m, True, 'tril_indices')


def triu_indices(n, k=0, m=None):
    """The indices of the upper triangle (at and above diagonal ``k``) of an n x m array."""
    return _triangle(n, k, m, False, 'triu_indices')


def _from(arr, name):
    x = to_tensor(arr, name)
    if x.ndim != 2:
        raise fail(name, f"input array must be 2-d, got {x.ndim}-d")
    return x.shape


def tril_indices_from(arr, k=0):
    """``tril_indices`` for the shape of the 2-d ``arr``."""
    n, m = _from(arr, 'tril_indices_from')
    return tril_indices(n, k, m)


def triu_indices_from(arr, k=0):
    """``triu_indices`` for the shape of the 2-d ``arr``."""
    n, m = _from(arr, 'triu_indices_from')
    return triu_indices(n, k, m)


def _order(order, name):
    if order not in ('C', 'F'):
        raise fail(name, f"order must be 'C' or 'F', got {order!r}")


def _strides(shape, order):
    """Element strides of an array of ``shape`` in C or Fortran order."""
    dims = shape if order == 'C' else shape[::-1]
    strides = np.cumprod((1,) + dims[:0:-1])[::-1]
    return [int(s) for s in (strides if order == 'C' else strides[::-1])]


def unravel_index(indices, shape, order='C'):
    """The coordinates of flat ``indices`` in an array of ``shape``, one Int32 array per axis;
    indices out of range are clipped to it (MindSpore's rule), negative ones count from the
    end."""
    _order(order, 'unravel_index')
    shape = shape_of(shape, 'unravel_index')
    x = to_tensor(indices, 'unravel_index')
    if x._data.dtype.kind not in 'iu':
        raise fail('unravel_index', f"indices must be integers, got dtype {x.dtype}", TypeError)
    total = int(np.prod(shape))
    if total == 0:
        raise fail('unravel_index', f"cannot unravel into the empty shape {shape}")
    flat = ops.remainder(ops.clamp(ops.cast(x, np.int64), -total, total - 1), total)
    return tuple(ops.cast(ops.remainder(ops.floor_divide(flat, s), d), _I32)
                 for s, d in zip(_strides(shape, order), shape))


def ravel_multi_index(multi_index, dims, mode='clip', order='C'):
    """The flat indices of the coordinates ``multi_index`` (one integer array per axis of
    ``dims``), Int32; ``mode`` 'clip' clips coordinates to the axis (negative ones to 0),
    'wrap' wraps them around."""
    _order(order, 'ravel_multi_index')
    if mode not in ('clip', 'wrap'):
        raise fail('ravel_multi_index', f"mode must be 'clip' or 'wrap' ('raise' is not "
                                        f"supported), got {mode!r}")
    dims = shape_of(dims, 'ravel_multi_index')
    if not isinstance(multi_index, (tuple, list, Tensor)):
        raise fail('ravel_multi_index', "multi_index must be a sequence of integer arrays",
                   TypeError)
    idx = [to_tensor(i, 'ravel_multi_index') for i in multi_index]
    if len(idx) != len(dims):
        raise fail('ravel_multi_index', f"multi_index has {len(idx)} arrays for "
                                        f"{len(dims)} dimensions")
    if any(i._data.dtype.kind not in 'iu' for i in idx):
        raise fail('ravel_multi_index', "only integer indices are permitted", TypeError)
    flat = None
    for i, d, s in zip(idx, dims, _strides(dims, order)):
        i = ops.cast(i, np.int64)
        i = ops.clamp(i, 0, d - 1) if mode == 'clip' else ops.remainder(i, d)
        term = ops.mul(i, s)
        flat = term if flat is None else ops.add(flat, term)
    return ops.cast(flat, _I32)


__all__ = ['meshgrid', 'mgrid', 'ogrid', 'indices', 'ix_', 'diag_indices', 'tril_indices',
           'triu_indices', 'tril_indices_from', 'triu_indices_from', 'unravel_index',
           'ravel_multi_index']
