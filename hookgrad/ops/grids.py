"""Index sets and grids under MindSpore 2.10's ``ops`` names: cartesian_prod, combinations,
tril_indices, triu_indices and logspace.

cartesian_prod and combinations gather their inputs' elements (so gradients flow to them);
the index sets and logspace are constants.
"""
import itertools
import numbers

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from .indexing import gather
from .shaping import reshape, stack
from .rearrange import meshgrid


def _tensor_1d(x, name, arg='input'):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    if x.ndim != 1:
        raise ValueError(f"For '{name}', '{arg}' must be 1-D, but got shape {x.shape}.")
    return x


def _int(value, name, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{name}', '{arg}' must be an int, but got {value!r}.")
    return int(value)


def cartesian_prod(*inputs):
    """The Cartesian product of 1-D tensors: one row per combination, the last input
    varying fastest (a single input comes back as it is).

    >>> import hookgrad as ms
    >>> ms.ops.cartesian_prod(ms.Tensor([1, 2]), ms.Tensor([3, 4])).asnumpy().tolist()
    [[1, 3], [1, 4], [2, 3], [2, 4]]
    """
    xs = [_tensor_1d(x, 'cartesian_prod', f'inputs[{i}]') for i, x in enumerate(inputs)]
    if not xs:
        raise ValueError("For 'cartesian_prod', at least one input is needed.")
    if len(xs) == 1:
        return xs[0]
    grids = meshgrid(*xs, indexing='ij')
    return stack([reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the elements of the 1-D ``input``, one per row, in
    lexicographic order of positions (with repeats when ``with_replacement``)."""
    x = _tensor_1d(input, 'combinations')
    r = _int(r, 'combinations', 'r')
    if r < 0:
        raise ValueError(f"For 'combinations', 'r' must be non-negative, but got {r}.")
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = np.array(list(pick(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    if rows.size == 0:
        return Tensor(np.zeros((0,), x._data.dtype))
    return gather(x, Tensor(rows), 0)


def _indices(row, col, offset, dtype, name, find):
    row, col = _int(row, name, 'row'), _int(col, name, 'col')
    offset = _int(offset, name, 'offset')
    if row < 0 or col < 0:
        raise ValueError(f"For '{name}', 'row' and 'col' must be non-negative, but got {row} "
                         f"and {col}.")
    if dtype not in (_dtype.int32, _dtype.int64):
        raise TypeError(f"For '{name}', 'dtype' must be mindspore.int32 or mindspore.int64, "
                        f"but got {dtype}.")
    rows, cols = find(row, offset, col)
    return Tensor(np.stack([rows, cols]).astype(_dtype.to_numpy(dtype)), dtype)


def tril_indices(row, col, offset=0, *, dtype=_dtype.int64):
    """The (2, N) coordinates of the lower triangle (below the ``offset`` diagonal) of a
    row x col matrix, row by row."""
    return _indices(row, col, offset, dtype, 'tril_indices', np.tril_indices)


def triu_indices(row, col, offset=0, *, dtype=_dtype.int64):
    """The (2, N) coordinates of the upper triangle (from the ``offset`` diagonal) of a
    row x col matrix, row by row."""
    return _indices(row, col, offset, dtype, 'triu_indices', np.triu_indices)


def logspace(start, end, steps, base=10, *, dtype=_dtype.float32):
    """``steps`` values ``base ** t``, t evenly spaced from ``start`` to ``end``."""
    for arg, value in (('start', start), ('end', end), ('base', base)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"For 'logspace', '{arg}' must be a number, but got {value!r}.")
    steps = _int(steps, 'logspace', 'steps')
    if steps < 0:
        raise ValueError(f"For 'logspace', 'steps' must be non-negative, but got {steps}.")
    values = np.power(float(base), np.linspace(float(start), float(end), steps))
    return Tensor(values.astype(_dtype.to_numpy(dtype)), dtype)


__all__ = ['cartesian_prod', 'combinations', 'tril_indices', 'triu_indices', 'logspace']
