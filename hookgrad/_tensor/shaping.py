"""Tensor's shaping, selection, sorting and scatter methods, MindSpore-named.

Where MindSpore keeps two overloads under one name (``select(dim, index)`` and
``select(condition, y)``; ``scatter_add(dim, index, src)`` and ``scatter_add(indices, updates)``)
the method tells them apart by its arguments, as MindSpore does.
"""
import numpy as np

from .. import _dtype
from ..kernels import backend as _backend
from .info import _size_arg

_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


def _is_tensor(value):
    return hasattr(value, '_data')


def _constant(array, like):
    """The host array ``array`` as a constant Tensor on the device of the Tensor ``like``."""
    from .tensor import Tensor
    return Tensor._wrap(_backend.to_device(array, _backend.device_of(like._data)))


def _pick_axis(dim, axis, default):
    """The axis given as ``dim`` or by its other MindSpore name ``axis``."""
    if axis is not None:
        return axis
    return default if dim is None else dim


class ShapeMethods:
    """Shape changes, splitting, indexing, sorting and scatters."""

    __slots__ = ()

    # ----------------------------------------------------------------- shape
    def expand(self, *size):
        """Broadcast to ``size`` (-1 keeps a dimension), e.g. ``x.expand(3, -1)``."""
        size = _size_arg(size, 'expand')
        lead = len(size) - self.ndim
        if lead < 0:
            raise ValueError(f"Tensor.expand: size {size} has fewer dimensions than the tensor's "
                             f"shape {self.shape}")
        shape = tuple(self.shape[i - lead] if d == -1 and i >= lead else d
                      for i, d in enumerate(size))
        return _ops.broadcast_to(self, shape)

    def repeat(self, *repeats):
        """Tile the tensor ``repeats[i]`` times along each dimension i (``len(repeats)`` may
        exceed the rank: the tensor then gains leading dimensions)."""
        repeats = _size_arg(repeats, 'repeat')
        if len(repeats) < self.ndim:
            raise ValueError(f"Tensor.repeat: repeats {repeats} must have at least as many "
                             f"entries as the tensor has dimensions ({self.ndim})")
        if any(r < 0 for r in repeats):
            raise ValueError(f"Tensor.repeat: repeats must be >= 0, got {repeats}")
        return _ops.tile(self, repeats)

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Repeat each element ``repeats`` times along ``dim`` (of the flattened tensor if None)."""
        y = _ops.repeat_interleave(self, repeats, dim)
        if output_size is not None and y.shape[0 if dim is None else dim] != output_size:
            raise ValueError(f"Tensor.repeat_interleave: output_size {output_size} does not match "
                             f"the result's size {y.shape[0 if dim is None else dim]}")
        return y

    def view_as(self, other):
        return _ops.reshape(self, other.shape)

    def reshape_as(self, other):
        return _ops.reshape(self, other.shape)

    def sum_to_size(self, *size):
        """Sum broadcast dimensions away so that the result has shape ``size``."""
        return _ops.sum_to(self, _size_arg(size, 'sum_to_size'))

    def moveaxis(self, source, destination):
        return _ops.moveaxis(self, source, destination)

    def movedim(self, source, destination):
        return _ops.movedim(self, source, destination)

    def swapdims(self, dim0, dim1):
        return _ops.swapdims(self, dim0, dim1)

    def roll(self, shifts, dims=None):
        return _ops.roll(self, shifts, dims)

    def rot90(self, k, dims):
        return _ops.rot90(self, k, dims)

    def fliplr(self):
        return _ops.fliplr(self)

    def flipud(self):
        return _ops.flipud(self)

    def reverse(self, axis):
        return _ops.flip(self, axis)

    # ----------------------------------------------------------------- splitting
    def split(self, split_size=None, dim=0, *, axis=None, split_size_or_sections=None):
        """Pieces of ``split_size`` along ``dim`` (an int), or of the sizes in a list."""
        if split_size is None:
            split_size = split_size_or_sections
        return _ops.split(self, split_size, _pick_axis(dim, axis, 0))

    def chunk(self, chunks, dim=0, *, axis=None):
        return _ops.chunk(self, chunks, _pick_axis(dim, axis, 0))

    def tensor_split(self, indices_or_sections, axis=0):
        return _ops.tensor_split(self, indices_or_sections, axis)

    def hsplit(self, indices_or_sections):
        return _ops.hsplit(self, indices_or_sections)

    def vsplit(self, indices_or_sections):
        return _ops.vsplit(self, indices_or_sections)

    def dsplit(self, indices_or_sections):
        return _ops.dsplit(self, indices_or_sections)

    def unbind(self, dim=0):
        return _ops.unbind(self, dim)

    def narrow(self, dim, start, length):
        return _ops.narrow(self, dim, start, length)

    # ----------------------------------------------------------------- selection
    def select(self, dim=None, index=None, *, condition=None, y=None):
        """The slice at ``index`` along ``dim``; ``select(condition, y)`` (a Tensor first) is
        ``where(condition, self, y)``."""
        if condition is not None:
            return _ops.select(condition, self, y)
        if _is_tensor(dim):
            return _ops.select(dim, self, index)
        if not -self.ndim <= dim < max(self.ndim, 1):
            raise IndexError(f"Tensor.select: dim {dim} is out of range for shape {self.shape}")
        size = self.shape[dim]
        if not -size <= index < size:
            raise IndexError(f"Tensor.select: index {index} is out of range for dimension {dim} "
                             f"of size {size}")
        key = (slice(None),) * (dim % self.ndim) + (index,)
        return _ops.getitem(self, key)

    def take(self, indices=None, axis=None, mode='clip', *, index=None):
        """Elements at ``indices`` along ``axis`` (of the flattened tensor when None). Indices out
        of range are clipped into [-n, n-1] (``mode='clip'``, negative ones counting from the
        end, as MindSpore's), wrapped (``'wrap'``) or rejected (``'raise'``)."""
        if indices is None:
            indices = index
        if mode not in ('clip', 'wrap', 'raise'):
            raise ValueError(f"Tensor.take: mode must be 'clip', 'wrap' or 'raise', got {mode!r}")
        if mode != 'raise':
            n = self.size if axis is None else self.shape[axis]
            idx = indices if _is_tensor(indices) else \
                _constant(np.asarray(indices, np.int64), self)
            idx = _ops.clamp(idx, -n, n - 1) if mode == 'clip' else _ops.remainder(idx, n)
            indices = idx
        return _ops.take(self, indices, axis)

    def where(self, condition, y=None, *, other=None):
        """``self`` where ``condition`` holds, else ``y`` (``other``)."""
        return _ops.where(condition, self, other if y is None else y)

    def masked_select(self, mask):
        return _ops.masked_select(self, mask)

    def nonzero(self, *, as_tuple=False):
        return _ops.nonzero(self, as_tuple=as_tuple)

    def argwhere(self):
        return _ops.argwhere(self)

    def gather_nd(self, indices):
        return _ops.gather_nd(self, indices)

    def gather_elements(self, dim, index):
        return _ops.gather_elements(self, dim, index)

    # ----------------------------------------------------------------- sorting
    def sort(self, dim=-1, descending=False, stable=False, *, axis=None):
        """``(values, indices)`` sorted along ``dim`` (ascending unless ``descending``)."""
        return _ops.sort(self, _pick_axis(dim, axis, -1), descending)

    def argsort(self, axis=-1, descending=False, *, dim=None, stable=False):
        """The indices that sort the tensor along ``axis``."""
        return _ops.argsort(self, _pick_axis(axis, dim, -1), descending)

    def topk(self, k, dim=None, largest=True, sorted=True):
        """``(values, indices)`` of the ``k`` largest (or smallest) along ``dim`` (last default)."""
        return _ops.topk(self, k, dim, largest, sorted)

    def top_k(self, k, sorted=True):
        """``(values, indices)`` of the ``k`` largest along the last axis."""
        return _ops.topk(self, k, -1, True, sorted)

    def searchsorted(self, v, side='left', sorter=None):
        """Int32 insertion positions of ``v`` in this sorted tensor (``ops.searchsorted``)."""
        return _ops.searchsorted(self, v, side=side, sorter=sorter, out_int32=True)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        """The distinct values (ascending when ``sorted``), with the index of each element's value
        and the count of each value when asked for."""
        if dim is not None:
            raise ValueError(f"Tensor.unique: dim={dim} is not supported in hookgrad; unique "
                             f"works on the flattened tensor (dim=None)")
        values, inverse = _ops.unique(_ops.reshape(self, (-1,)))
        if sorted:
            values, order = _ops.sort(values)
            rank = _ops.argsort(order)
            inverse = _ops.gather(_ops.cast(rank, _dtype.int64), inverse, 0)
        out = [values]
        if return_inverse:
            out.append(_ops.reshape(inverse, self.shape))
        if return_counts:
            out.append(_ops.cast(_ops.bincount(inverse, minlength=values.shape[0]), _dtype.int64))
        return out[0] if len(out) == 1 else tuple(out)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return _ops.unique_consecutive(self, return_inverse, return_counts, dim)

    # ----------------------------------------------------------------- scatters
    def scatter(self, dim=None, index=None, src=None, reduce=None, *, axis=None, value=None):
        """A copy with ``src`` (a Tensor, or a number for every position) written at ``index``
        along ``dim``; ``reduce`` 'add' or 'multiply' combines it with the values there (as
        ``scatter_``)."""
        dim = axis if dim is None else dim
        src = value if src is None else src
        if reduce is None and _is_tensor(src):
            return _ops.scatter(self, dim, index, src)
        return _scattered(self, dim, index, src, reduce, 'scatter')

    def scatter_add(self, dim=None, index=None, src=None, *, indices=None, updates=None):
        """A copy with ``src`` added at ``index`` along ``dim``; ``scatter_add(indices, updates)``
        (two Tensors) adds ``updates`` at the N-d ``indices`` (``ops.tensor_scatter_add``)."""
        if indices is not None:
            return _ops.tensor_scatter_add(self, indices, updates)
        if src is None and _is_tensor(dim):
            return _ops.tensor_scatter_add(self, dim, index)
        return _ops.tensor_scatter_elements(self, index, src, dim, 'add')

    def scatter_sub(self, indices, updates):
        return _ops.tensor_scatter_sub(self, indices, updates)

    def scatter_mul(self, indices, updates):
        return _ops.tensor_scatter_mul(self, indices, updates)

    def scatter_div(self, indices, updates):
        return _ops.tensor_scatter_div(self, indices, updates)

    def scatter_max(self, indices, updates):
        return _ops.tensor_scatter_max(self, indices, updates)

    def scatter_min(self, indices, updates):
        return _ops.tensor_scatter_min(self, indices, updates)

    def index_add(self, dim=None, index=None, source=None, *args, alpha=1, **kwargs):
        """A copy with ``alpha * source`` added at ``index`` along ``dim``. The older
        ``index_add(indices, y, axis)`` (a Tensor first, or those keywords) is
        ``ops.index_add``, which as in MindSpore also writes the sum into this tensor."""
        if 'indices' in kwargs:
            return _ops.index_add(self, kwargs['indices'], kwargs.get('y'), kwargs.get('axis'))
        if _is_tensor(dim):
            axis = source if source is not None else kwargs.get('axis')
            return _ops.index_add(self, dim, index, axis)
        if args or kwargs:
            raise TypeError(f"Tensor.index_add: unexpected arguments {args or kwargs}")
        dim = dim % max(self.ndim, 1)
        want = self.shape[:dim] + (index.size,) + self.shape[dim + 1:]
        if tuple(source.shape) != want:
            raise ValueError(f"Tensor.index_add: source must have shape {want}, got "
                             f"{tuple(source.shape)}")
        source = _ops.cast(source, self.dtype)
        if alpha != 1:
            source = _ops.mul(source, alpha)
        return _ops.add(self, _ops.untake(source, self.shape, _ops.reshape(index, (-1,)), dim))

    def index_fill(self, axis, index, value):
        return _ops.index_fill(self, axis, index, value)

    def masked_scatter(self, mask, source):
        """A copy with the elements where ``mask`` (broadcast) holds replaced, in row-major
        order, by the first elements of ``source``."""
        hit = _ops.reshape(_ops.broadcast_to(mask, self.shape), (-1,))
        position = _ops.sub(_ops.cumsum(_ops.cast(hit, _dtype.int64), 0), 1)
        if type(self._data) is np.ndarray:
            # the check reads the mask: on the host only (a device does not diagnose it)
            need = int(_ops.sum(_ops.cast(hit, _dtype.int64)).item())
            if source.size < need:
                raise ValueError(f"Tensor.masked_scatter: mask selects {need} elements but "
                                 f"source has only {source.size}")
        flat_src = _ops.cast(_ops.reshape(source, (-1,)), self.dtype)
        picked = _ops.take(flat_src, _ops.clamp(position, 0, max(source.size - 1, 0)))
        return _ops.reshape(_ops.where(hit, picked, _ops.reshape(self, (-1,))), self.shape)

    def inplace_update(self, v, indices):
        """A copy with rows ``indices`` replaced by the rows of ``v``."""
        return _ops.inplace_update(self, v, indices)

    def select_scatter(self, src, axis, index):
        """A copy with the slice at ``index`` along ``axis`` replaced by ``src``."""
        return _embed_along(self, _ops.expand_dims(src, axis), axis, [index % self.shape[axis]])

    def slice_scatter(self, src, axis=0, start=None, end=None, step=1):
        """A copy with the slice ``start:end:step`` along ``axis`` replaced by ``src``."""
        positions = list(range(*slice(start, end, step).indices(self.shape[axis])))
        return _embed_along(self, src, axis, positions)


def _scattered(x, dim, index, src, reduce, name):
    """``x`` with ``src`` (a Tensor or a number) written (``reduce`` None), added ('add') or
    multiplied in ('multiply') at ``index`` along ``dim``. As MindSpore documents, where an
    index repeats under 'multiply' the result is not defined (here: the last one)."""
    if reduce not in (None, 'add', 'multiply'):
        raise ValueError(f"Tensor.{name}: reduce must be None, 'add' or 'multiply', got "
                         f"{reduce!r}")
    if _is_tensor(src):
        src = _ops.cast(src, x.dtype)
    else:
        with _backend.default_device(_backend.device_of(x._data)):
            src = _ops.full(tuple(index.shape), src, dtype=x.dtype)
    if reduce == 'multiply':
        factor = _ops.tensor_scatter_elements(_ops.ones_like(x), index, src, dim, 'none')
        return _ops.mul(x, factor)
    return _ops.tensor_scatter_elements(x, index, src, dim, 'none' if reduce is None else 'add')


def _embed_along(x, src, axis, positions):
    """``x`` with positions ``positions`` (a list, or a 1-d integer Tensor) along ``axis``
    replaced by the slices of ``src``."""
    axis = axis % x.ndim
    count = positions.size if _is_tensor(positions) else len(positions)
    want = x.shape[:axis] + (count,) + x.shape[axis + 1:]
    if tuple(src.shape) != want:
        raise ValueError(f"Tensor: src must have shape {want}, got {tuple(src.shape)}")
    if _is_tensor(positions):
        idx = _ops.reshape(positions, (-1,))
    else:
        idx = _constant(np.asarray(positions, np.int64), x)
    src = _ops.cast(src, x.dtype)
    placed = _ops.untake(src, x.shape, idx, axis)
    hit = _backend.array_module(x._data).zeros(x.shape[axis], np.bool_)
    hit[_backend.to_device(idx._data, _backend.device_of(hit))] = True
    from .tensor import Tensor
    mask = Tensor._wrap(hit.reshape((-1,) + (1,) * (x.ndim - axis - 1)))
    return _ops.where(mask, placed, x)
