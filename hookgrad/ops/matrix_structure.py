"""Matrix structure under MindSpore 2.10's ``ops`` names: bands (matrix_band_part), packed
diagonals (matrix_diag, matrix_diag_part, matrix_set_diag: MindSpore's MatrixDiagV3 family),
diagflat, block_diag, adjoint, vander and lu_unpack.

Each is a composition of indexing ops (gather, where, concat, tril, triu), so gradients of
every order come from theirs. The packed-diagonal functions compute one index map in NumPy
(which element of the matrix each packed slot holds) and gather through it.

Packed diagonals, as MindSpore's (and TensorFlow's) V3 ops: diagonals ``k = (low, high)``
are the rows of a ``(high - low + 1, max_diag_len)`` block, the highest diagonal first; a
diagonal shorter than ``max_diag_len`` sits at the right or the left of its row as ``align``
says ('RIGHT_LEFT': superdiagonals right, subdiagonals left), the rest holds padding.
"""
import numbers

import numpy as np

from .._dtype import from_numpy
from .._tensor import Tensor
from .arithmetic import add, cast, mul
from .creation import eye as _eye, zeros
from .indexing import gather, where
from .matrix import tril, triu
from .rearrange import narrow, swapaxes
from .broadcasting import broadcast_to
from .shaping import concat, reshape

_ALIGNS = ('LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT')


def _tensor(x, name, arg='x'):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _scalar_int(value, name, arg):
    if isinstance(value, Tensor):
        if value.size != 1 or value._data.dtype.kind not in 'iu':
            raise TypeError(f"For '{name}', '{arg}' must be an int or an integer Tensor with "
                            f"one element, but got {value.dtype} of shape {value.shape}.")
        return int(value.asnumpy().reshape(()))
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{name}', '{arg}' must be an int, but got {value!r}.")
    return int(value)


def _rank_at_least_2(x, name):
    if x.ndim < 2:
        raise ValueError(f"For primitive[{name}], the x shape size must be greater than or "
                         f"equal to 2, but got {x.ndim}.")


# ------------------------------------------------------------------------------ bands
def matrix_band_part(x, lower, upper):
    """``x`` with the elements outside the band zeroed: the ``lower`` diagonals below the main
    one and ``upper`` above it kept (a negative count keeps that whole triangle).

    >>> import hookgrad as ms
    >>> ms.ops.matrix_band_part(ms.ops.ones((3, 3)), 1, 0).asnumpy().tolist()
    [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]]
    """
    x = _tensor(x, 'matrix_band_part')
    _rank_at_least_2(x, 'MatrixBandPart')
    lower = _scalar_int(lower, 'matrix_band_part', 'lower')
    upper = _scalar_int(upper, 'matrix_band_part', 'upper')
    m, n = x.shape[-2:]
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return where(Tensor(keep), x, zeros((), x.dtype))


# ------------------------------------------------------------------------------ packed diagonals
def _diag_range(k, name):
    """``(low, high)`` from an int, a pair, or an integer Tensor of one or two elements."""
    values = np.asarray(k.asnumpy() if isinstance(k, Tensor) else k).reshape(-1)
    if values.size not in (1, 2) or values.dtype.kind not in 'iu':
        raise ValueError(f"For '{name}', 'k' must be an int or two ints, but got {k!r}.")
    low, high = int(values[0]), int(values[-1])
    if low > high:
        raise ValueError(f"For '{name}', k[0] must not be greater than k[1], but got k = "
                         f"({low}, {high}).")
    return low, high


def _align(align, name):
    if align not in _ALIGNS:
        raise ValueError(f"For '{name}', 'align' must be one of {list(_ALIGNS)}, but got "
                         f"{align!r}.")
    return align


def _packed_map(rows, cols, low, high, max_len, align):
    """The flat position ``r * cols + c`` of the matrix element each packed slot
    (num_diags, max_len) holds, -1 for padding."""
    d = np.arange(high, low - 1, -1)[:, None]
    length = np.minimum(rows + np.minimum(d, 0), cols - np.maximum(d, 0))
    right = np.where(d >= 0, align.startswith('RIGHT'), align.endswith('RIGHT'))
    offset = np.where(right, max_len - length, 0)
    t = np.arange(max_len)[None, :] - offset
    valid = (t >= 0) & (t < length)
    flat = (t + np.maximum(-d, 0)) * cols + t + np.maximum(d, 0)
    return np.where(valid, flat, -1)


def _padding(value, like, batch, name):
    pad = value if isinstance(value, Tensor) else Tensor(np.asarray(value))
    if pad.size != 1:
        raise ValueError(f"For '{name}', 'padding_value' must have one element, but got shape "
                         f"{pad.shape}.")
    return broadcast_to(cast(reshape(pad, (1,)), like.dtype), batch + (1,))


def matrix_diag_part(x, k, padding_value, align='RIGHT_LEFT'):
    """The diagonals ``k`` (an int or ``(low, high)``) of the matrices of ``x`` (..., M, N),
    packed: (..., max_diag_len) for one diagonal, (..., num_diags, max_diag_len) for several."""
    name = 'matrix_diag_part'
    x = _tensor(x, name)
    _rank_at_least_2(x, 'MatrixDiagPartV3')
    low, high = _diag_range(k, name)
    m, n = x.shape[-2:]
    if not (-m < low <= high < n) and not (m == 0 or n == 0):
        raise ValueError(f"For '{name}', k must be in ({-m}, {n}), but got ({low}, {high}).")
    max_len = min(m + min(high, 0), n - max(low, 0))
    where_from = _packed_map(m, n, low, high, max_len, _align(align, name))
    batch = x.shape[:-2]
    flat = concat((reshape(x, batch + (m * n,)), _padding(padding_value, x, batch, name)), -1)
    index = np.where(where_from < 0, m * n, where_from)
    out = gather(flat, Tensor(index.astype(np.int64)), -1)
    return reshape(out, batch + (max_len,)) if low == high else out


def _matrix_positions(rows, cols, low, high, max_len, align):
    """For each element of a rows x cols matrix, the packed slot it holds, -1 for none."""
    where_from = _packed_map(rows, cols, low, high, max_len, align).reshape(-1)
    slots = np.full(rows * cols, -1, np.int64)
    valid = where_from >= 0
    slots[where_from[valid]] = np.flatnonzero(valid)
    return slots


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align='RIGHT_LEFT'):
    """Matrices with the packed diagonals ``x`` on diagonals ``k`` and ``padding_value``
    elsewhere; -1 rows or columns: the smallest that holds the diagonals."""
    name = 'matrix_diag'
    x = _tensor(x, name)
    low, high = _diag_range(k, name)
    packed = x
    if low == high:
        packed = reshape(x, x.shape[:-1] + (1, x.shape[-1])) if x.ndim else reshape(x, (1, 1))
    elif x.ndim < 2 or x.shape[-2] != high - low + 1:
        raise ValueError(f"For '{name}', x must hold {high - low + 1} diagonals in its "
                         f"second-to-last dimension, but got shape {x.shape}.")
    max_len = packed.shape[-1]
    rows = _scalar_int(num_rows, name, 'num_rows')
    cols = _scalar_int(num_cols, name, 'num_cols')
    min_rows, min_cols = max_len - min(high, 0), max_len + max(low, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    rows = min_rows if rows == -1 else rows
    cols = min_cols if cols == -1 else cols
    if rows < min_rows or cols < min_cols or (rows != min_rows and cols != min_cols):
        raise ValueError(f"For MatrixDiagV3, the number of rows or columns is not consistent "
                         f"with the specified k and x: ({rows}, {cols}) for ({min_rows}, "
                         f"{min_cols}) needed.")
    slots = _matrix_positions(rows, cols, low, high, max_len, _align(align, name))
    batch = packed.shape[:-2]
    size = packed.shape[-2] * max_len
    flat = concat((reshape(packed, batch + (size,)), _padding(padding_value, packed, batch,
                                                               name)), -1)
    index = np.where(slots < 0, size, slots)
    return reshape(gather(flat, Tensor(index), -1), batch + (rows, cols))


def matrix_set_diag(x, diagonal, k=0, align='RIGHT_LEFT'):
    """``x`` (..., M, N) with its diagonals ``k`` replaced by the packed ``diagonal``."""
    name = 'matrix_set_diag'
    x, diagonal = _tensor(x, name), _tensor(diagonal, name, 'diagonal')
    _rank_at_least_2(x, 'MatrixSetDiagV3')
    low, high = _diag_range(k, name)
    m, n = x.shape[-2:]
    max_len = min(m + min(high, 0), n - max(low, 0))
    want = x.shape[:-2] + ((max_len,) if low == high else (high - low + 1, max_len))
    if diagonal.shape != want:
        raise ValueError(f"For '{name}', 'diagonal' must have shape {want}, but got "
                         f"{diagonal.shape}.")
    slots = _matrix_positions(m, n, low, high, max_len, _align(align, name))
    batch = x.shape[:-2]
    values = gather(reshape(cast(diagonal, x.dtype), batch + (-1,)),
                    Tensor(np.maximum(slots, 0)), -1)
    flat = where(Tensor(slots >= 0), values, reshape(x, batch + (m * n,)))
    return reshape(flat, x.shape)


# ------------------------------------------------------------------------------ blocks, powers
def diagflat(input, offset=0):
    """A square matrix with the flattened ``input`` on its ``offset`` diagonal."""
    return _tensor(input, 'diagflat', 'input').diagflat(_scalar_int(offset, 'diagflat',
                                                                     'offset'))


def adjoint(x):
    """The conjugate transpose of the last two dimensions."""
    x = _tensor(x, 'adjoint')
    return x.adjoint()


def block_diag(*inputs):
    """A block-diagonal matrix of the ``inputs`` (each of rank <= 2: a scalar is 1 x 1, a
    vector one row)."""
    if not inputs:
        raise ValueError("For 'block_diag', at least one input is needed.")
    blocks = []
    for i, x in enumerate(inputs):
        x = _tensor(x, 'block_diag', f'inputs[{i}]')
        if x.ndim > 2:
            raise ValueError(f"For 'block_diag', each input must have rank <= 2, but inputs[{i}]"
                             f" has shape {x.shape}.")
        blocks.append(reshape(x, (1, -1) if x.ndim == 1 else (1, 1) if x.ndim == 0 else x.shape))
    dtype = from_numpy(np.result_type(*[b._data.dtype for b in blocks]))
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        h, w = b.shape
        rows.append(concat((zeros((h, left), dtype), cast(b, dtype),
                            zeros((h, width - left - w), dtype)), 1))
        left += w
    return concat(rows, 0)


def vander(x, N=None):
    """The Vandermonde matrix of the 1-D ``x``: column j holds ``x ** (N - 1 - j)``."""
    x = _tensor(x, 'vander')
    if x.ndim != 1:
        raise ValueError(f"For vander, x must be 1-D, but got dimension = {x.ndim}")
    n = x.shape[0] if N is None else _scalar_int(N, 'vander', 'N')
    if n <= 0:
        raise ValueError(f"For vander, N must be greater than 0, but got {n}.")
    columns = reshape(x, (-1, 1))
    powers = [None] * n
    power = None
    for j in range(n - 1, -1, -1):          # x^0, x^1, ...: products, exact at 0
        power = mul(0, columns) + 1 if power is None else mul(power, columns)
        powers[j] = power
    return concat(powers, 1)


# ------------------------------------------------------------------------------ LU
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``(P, L, U)`` of a packed LU factorisation: ``A = P @ L @ U`` with L unit lower
    triangular (..., M, K), U upper triangular (..., K, N), P from the 1-based row swaps
    ``LU_pivots`` (..., K)."""
    lu = _tensor(LU_data, 'lu_unpack', 'LU_data')
    piv = _tensor(LU_pivots, 'lu_unpack', 'LU_pivots')
    if lu.ndim < 2:
        raise ValueError(f"For 'lu_unpack', the rank of 'LU_data' must be >= 2, but got "
                         f"{lu.ndim}.")
    m, n = lu.shape[-2:]
    k = min(m, n)
    if piv._data.dtype.kind not in 'iu':
        raise TypeError(f"For 'lu_unpack', 'LU_pivots' must be an integer Tensor, but got "
                        f"{piv.dtype}.")
    if piv.shape != lu.shape[:-2] + (k,):
        raise ValueError(f"For 'lu_unpack', 'LU_pivots' must have shape "
                         f"{lu.shape[:-2] + (k,)}, but got {piv.shape}.")
    pivots = piv.asnumpy().astype(np.int64) - 1
    if pivots.size and (pivots.min() < 0 or pivots.max() >= m):
        raise ValueError(f"For 'lu_unpack', the pivots must be in [1, {m}].")
    lower = upper = perm_matrix = None
    if unpack_data:
        unit = _eye(m, k, lu.dtype)
        lower = add(tril(narrow(lu, -1, 0, k), -1), unit)
        upper = triu(narrow(lu, -2, 0, k))
    if unpack_pivots:
        perm = np.broadcast_to(np.arange(m), pivots.shape[:-1] + (m,)).copy()
        for i in range(k):                   # the row swaps, batch-wide
            j = pivots[..., i:i + 1]
            row_i = perm[..., i:i + 1].copy()
            perm[..., i:i + 1] = np.take_along_axis(perm, j, -1)
            np.put_along_axis(perm, j, row_i, -1)
        perm_matrix = swapaxes(Tensor(np.eye(m)[perm].astype(lu._data.dtype)), -1, -2)
    return perm_matrix, lower, upper


__all__ = ['matrix_band_part', 'matrix_diag', 'matrix_diag_part', 'matrix_set_diag',
           'diagflat', 'adjoint', 'block_diag', 'vander', 'lu_unpack']
