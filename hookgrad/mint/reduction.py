"""``mindspore.mint``'s reductions, statistics, sorting and searching, on hookgrad's ops.

PyTorch's conventions: ``dim``/``keepdim``; ``max(x, dim)`` returns ``(values, indices)``;
indices are int64; variance takes ``correction`` (1: the unbiased estimate).
"""
from collections import namedtuple

from .. import ops
from .._dtype import int64
from .._tensor import Tensor
from ..ops import argmax, logsumexp, cumprod, searchsorted, unique_consecutive

__all__ = ['sum', 'mean', 'prod', 'max', 'min', 'amax', 'amin', 'argmax', 'argmin', 'all',
           'any', 'std', 'var', 'std_mean', 'var_mean', 'logsumexp', 'cumsum', 'cumprod',
           'cummax', 'cummin', 'median', 'sort', 'argsort', 'topk', 'kthvalue', 'unique',
           'unique_consecutive', 'searchsorted', 'bincount', 'histc', 'count_nonzero', 'nansum',
           'norm']



def _pair(name):
    """A ``(values, indices)`` pair: a tuple that prints as one, as MindSpore 2.10 returns it,
    whose fields PyTorch-style code may also read (``mint.max(x, 1).values``)."""
    cls = namedtuple(name, ['values', 'indices'])
    return type(name, (cls,), {'__slots__': (), '__repr__': tuple.__repr__})


MaxResult, MinResult, SortResult, TopkResult = map(_pair, ('max', 'min', 'sort', 'topk'))
MedianResult, KthvalueResult = _pair('median'), _pair('kthvalue')
CummaxResult, CumminResult = _pair('cummax'), _pair('cummin')


def _dims(dim):
    return None if dim is None or dim == () or dim == [] else dim


def _as(x, dtype):
    return x if dtype is None else ops.cast(x, dtype)


def _int64(x):
    return ops.cast(x, int64)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum over ``dim`` (all dimensions when None)."""
    return ops.sum(input, dim=_dims(dim), keepdim=keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean over ``dim`` (all dimensions when None)."""
    return ops.mean(_as(input, dtype), _dims(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """The product over ``dim`` (all dimensions when None)."""
    return ops.prod(_as(input, dtype), _dims(dim), keepdim)


def _extreme(name, reduce, pairwise, result, input, dim, keepdim):
    if isinstance(dim, Tensor):
        if keepdim is not False:
            raise TypeError(f"mint.{name}: 'keepdim' has no meaning with a tensor 'other'")
        return pairwise(input, dim)
    if dim is None:
        if keepdim:
            raise TypeError(f"mint.{name}: 'keepdim' needs 'dim'")
        return reduce(input)
    values, indices = reduce(input, dim, keepdim)
    return result(values, _int64(indices))


def max(input, dim=None, keepdim=False):
    """The largest element; with ``dim``, ``(values, indices)`` along it; with a tensor
    instead of ``dim``, the element-wise maximum."""
    return _extreme('max', _max, ops.maximum, MaxResult, input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    """The smallest element; with ``dim``, ``(values, indices)`` along it; with a tensor
    instead of ``dim``, the element-wise minimum."""
    return _extreme('min', _min, ops.minimum, MinResult, input, dim, keepdim)


def _max(input, dim=None, keepdim=False):
    return ops.amax(input) if dim is None else \
        (ops.amax(input, dim, keepdim), ops.argmax(input, dim, keepdim))


def _min(input, dim=None, keepdim=False):
    return ops.amin(input) if dim is None else \
        (ops.amin(input, dim, keepdim), ops.argmin(input, dim, keepdim))


def amax(input, dim=(), keepdim=False):
    """The largest element over ``dim`` (all dimensions when empty)."""
    return ops.amax(input, _dims(dim), keepdim)


def amin(input, dim=(), keepdim=False):
    """The smallest element over ``dim`` (all dimensions when empty)."""
    return ops.amin(input, _dims(dim), keepdim)


def argmin(input, dim=None, keepdim=False):
    """The index of the smallest element (of the flattened tensor when ``dim`` is None)."""
    return _int64(ops.argmin(input, dim, keepdim))


def all(input, dim=None, keepdim=False):
    """Whether every element over ``dim`` is true."""
    return ops.all(input, _dims(dim), keepdim)


def any(input, dim=None, keepdim=False):
    """Whether some element over ``dim`` is true."""
    return ops.any(input, _dims(dim), keepdim)


def _ddof(name, correction):
    if isinstance(correction, bool) or not isinstance(correction, int):
        raise TypeError(f"mint.{name}: 'correction' must be an int, got {correction!r}")
    return correction


def var(input, dim=None, *, correction=1, keepdim=False):
    """The variance over ``dim``, dividing by ``N - correction``."""
    return ops.var(input, _dims(dim), _ddof('var', correction), keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):
    """The standard deviation over ``dim``, dividing by ``N - correction``."""
    return ops.std(input, _dims(dim), _ddof('std', correction), keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """``(variance, mean)`` over ``dim``."""
    return ops.var_mean(input, _dims(dim), _ddof('var_mean', correction), keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """``(standard deviation, mean)`` over ``dim``."""
    return ops.std_mean(input, _dims(dim), _ddof('std_mean', correction), keepdim)


def cumsum(input, dim, dtype=None):
    """The running sum along ``dim``."""
    return ops.cumsum(input, dim, dtype)


def cummax(input, dim):
    """``(values, indices)`` of the running maximum along ``dim``."""
    values, indices = ops.cummax(input, dim)
    return CummaxResult(values, _int64(indices))


def cummin(input, dim):
    """``(values, indices)`` of the running minimum along ``dim``."""
    values, indices = ops.cummin(input, dim)
    return CumminResult(values, _int64(indices))


def median(input, dim=None, keepdim=False):
    """The lower median of all elements; with ``dim``, ``(values, indices)`` along it."""
    if dim is None:
        return ops.median(ops.reshape(input, (-1,)), 0)[0]
    values, indices = ops.median(input, dim, keepdim)
    return MedianResult(values, _int64(indices))


def sort(input, *, dim=-1, descending=False, stable=False):
    """``(values, indices)`` sorted along ``dim``."""
    values, indices = ops.sort(input, dim, descending)
    return SortResult(values, _int64(indices))


def argsort(input, dim=-1, descending=False, stable=False):
    """The indices that sort ``input`` along ``dim``."""
    return _int64(ops.argsort(input, dim, descending))


def topk(input, k, dim=-1, largest=True, sorted=True):
    """``(values, indices)`` of the ``k`` largest (or smallest) elements along ``dim``."""
    values, indices = ops.topk(input, k, dim, largest, sorted)
    return TopkResult(values, _int64(indices))


def kthvalue(input, k, dim=-1, keepdim=False):
    """``(values, indices)`` of the ``k``-th smallest element along ``dim``."""
    values, indices = input.kthvalue(k, dim, keepdim)
    return KthvalueResult(values, _int64(indices))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements, sorted (whatever ``sorted`` says, as PyTorch's CPU kernel), with
    each element's index among them and their counts if asked."""
    if dim is not None:
        raise NotImplementedError("mint.unique: 'dim' is not available in hookgrad")
    values, inverse = ops.unique(input)             # in order of first appearance
    values, order = ops.sort(values)
    rank = ops.argsort(order)                       # each first-appearance value's place
    inverse = ops.gather(rank, ops.reshape(inverse, (-1,)), 0)
    extra = []
    if return_inverse:
        extra.append(_int64(ops.reshape(inverse, input.shape)))
    if return_counts:
        extra.append(_int64(ops.bincount(inverse, minlength=values.shape[0])))
    return (values, *extra) if extra else values


def bincount(input, weights=None, minlength=0):
    """How often each value 0, 1, ... occurs in the 1-D int ``input`` (int64), or the sum of
    the ``weights`` at its occurrences (in the weights' dtype)."""
    counts = ops.bincount(input, weights, minlength)
    return _int64(counts) if weights is None else ops.cast(counts, weights.dtype)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum over ``dim`` with NaNs counted as zero."""
    return ops.nansum(input, _dims(dim), keepdim, dtype=dtype)


def histc(input, bins=100, min=0, max=0):
    """A histogram of ``bins`` equal bins over ``[min, max]`` (the data's range when equal)."""
    return ops.histc(input, bins, float(min), float(max))


def count_nonzero(input, dim=None):
    """How many elements over ``dim`` are not zero (int64)."""
    return _int64(ops.count_nonzero(input, () if dim is None else dim))


def norm(input, p='fro', dim=None, keepdim=False, *, dtype=None):
    """The vector ``p``-norm over ``dim``, or a matrix norm ('fro', 'nuc')."""
    if p == 'fro' and (dim is None or isinstance(dim, int) or len(dim) == 1):
        p = 2
    if p == 'fro' or p == 'nuc':
        return ops.matrix_norm(input, p, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    return ops.vector_norm(input, p, dim, keepdim, dtype=dtype)
