"""``mindspore.mint``'s shape, joining, indexing and scatter functions, on hookgrad's ops."""
from .. import ops
from ..ops import (broadcast_to, reshape, chunk as _chunk, diff as _diff, dstack, flip, hstack,
                   masked_select, ravel, roll, tile, tril, triu, unbind, unsqueeze,
                   swapaxes, t)

__all__ = ['broadcast_to', 'cat', 'concat', 'chunk', 'diff', 'dstack', 'flatten', 'flip',
           'gather', 'hstack', 'index_add', 'index_select', 'masked_select', 'meshgrid',
           'narrow', 'nonzero', 'permute', 'ravel', 'repeat_interleave', 'reshape', 'roll',
           'scatter', 'scatter_add', 'select', 'split', 'squeeze', 'stack', 'swapaxes', 't',
           'take', 'tile', 'transpose', 'tril', 'triu', 'unbind', 'unsqueeze']


def cat(tensors, dim=0):
    """The tensors joined along an existing dimension ``dim``."""
    return ops.cat(tensors, dim)


concat = cat


def stack(tensors, dim=0):
    """The tensors joined along a new dimension ``dim``."""
    return ops.stack(tensors, dim)


def chunk(input, chunks, dim=0):
    """``input`` split into ``chunks`` pieces (the last may be smaller) along ``dim``."""
    return _chunk(input, chunks, dim)


def split(tensor, split_size_or_sections, dim=0):
    """Pieces of ``split_size_or_sections`` elements each (an int: equal pieces, the last
    smaller; a list: those sizes) along ``dim``."""
    return ops.split(tensor, split_size_or_sections, dim)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim``."""
    return _diff(input, n, dim, prepend, append)


def flatten(input, start_dim=0, end_dim=-1):
    """``input`` with dimensions ``start_dim..end_dim`` merged into one."""
    if input.ndim == 0:
        return ops.reshape(input, (1,))
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def permute(input, dims):
    """``input`` with its dimensions reordered by ``dims``."""
    return ops.permute(input, tuple(dims))


def transpose(input, dim0, dim1):
    """``input`` with dimensions ``dim0`` and ``dim1`` exchanged."""
    return ops.swapaxes(input, dim0, dim1)


def squeeze(input, dim=None):
    """``input`` without the size-1 dimensions (only those of ``dim`` when given; a listed
    dimension whose size is not 1 is kept)."""
    if dim is None:
        return ops.squeeze(input)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(d % input.ndim for d in dims if input.shape[d] == 1) if input.ndim else ()
    return ops.squeeze(input, dims) if dims else input


def narrow(input, dim, start, length):
    """The slice ``start:start + length`` of ``input`` along ``dim``."""
    return ops.narrow(input, dim, start, length)


def select(input, dim, index):
    """The slice at ``index`` along ``dim``, that dimension removed."""
    return ops.squeeze(ops.narrow(input, dim, index % input.shape[dim], 1), dim)


def index_select(input, dim, index):
    """The entries of ``input`` at ``index`` (1-D) along ``dim``."""
    return ops.index_select(input, dim, index)


def gather(input, dim, index):
    """``out[i][j] = input[index[i][j]][j]`` (for ``dim`` 0), ``index`` as large as the output."""
    return ops.gather_elements(input, dim, index)


def take(input, index):
    """The elements of flattened ``input`` at ``index``, in the shape of ``index``."""
    return ops.take(input, index)


def scatter(input, dim, index, src):
    """A copy of ``input`` with ``src`` (a tensor shaped at least like ``index``, or a number)
    written at ``index`` along ``dim``."""
    return _scatter(input, dim, index, src, 'none')


def scatter_add(input, dim, index, src):
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim``."""
    return _scatter(input, dim, index, src, 'add')


def _scatter(input, dim, index, src, reduction):
    if not hasattr(src, 'shape') or src.ndim == 0:
        src = ops.full(index.shape, src, dtype=input.dtype)
    elif src.shape != index.shape:
        src = src[tuple(slice(0, n) for n in index.shape)]
    return ops.tensor_scatter_elements(input, index, src, dim, reduction)


def index_add(input, dim, index, source, *, alpha=1):
    """A copy of ``input`` with ``alpha * source`` added at the entries ``index`` of ``dim``."""
    return ops.index_add(input, index, source if alpha == 1 else ops.mul(source, alpha), dim)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """Each element repeated ``repeats`` times along ``dim`` (of the flattened input when
    None)."""
    return ops.repeat_interleave(input, repeats, dim)


def nonzero(input, *, as_tuple=False):
    """The indices of the non-zero elements: an (N, ndim) int64 tensor, or one per dim."""
    return ops.nonzero(input, as_tuple=as_tuple)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors; ``indexing`` 'ij' (the default) or 'xy'."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing='ij' if indexing is None else indexing)


