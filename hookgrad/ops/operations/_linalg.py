"""MindSpore's Primitive classes for matrices and products beyond MatMul: einsum, outer and
cross products, distances, triangles, diagonals and traces, triangle indices.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numpy as np

from ..._dtype import int32 as _int32, to_numpy
from ..._tensor import Tensor
from .._base import as_tensor, normalize_axis
from .. import (arithmetic as _arith, indexing as _index, matrix as _matrix, norms as _norms,
               products as _products, shaping as _shape)
from ._primitive import Primitive, _constant, _int, _int_dtype

__all__ = ['Einsum', 'Ger', 'Cross', 'Cdist', 'Tril', 'Triu', 'Trace', 'Diag', 'DiagPart',
           'TrilIndices', 'TriuIndices']


# ----------------------------------------------------------------------------- products
class Einsum(Primitive):
    """``Einsum(equation)(operands)``: Einstein summation over a tuple of tensors."""
    def __init__(self, equation):
        if not isinstance(equation, str):
            raise TypeError(f"ops.Einsum: equation must be a str, got {equation!r}")
        super().__init__(equation=equation)

    def construct(self, operands):
        return _products.einsum(self.equation, *operands)


class Ger(Primitive):
    """``Ger()(x1, x2)``: the outer product of two 1-d tensors."""
    def construct(self, x1, x2):
        return _products.ger(x1, x2)


class Cross(Primitive):
    """``Cross(dim=-65530)(x1, x2)``: the cross product of 3-vectors along ``dim`` (by
    default the first dimension of size 3)."""
    def __init__(self, dim=-65530):
        super().__init__(dim=_int(dim, 'Cross', 'dim'))

    def construct(self, x1, x2):
        a, b = as_tensor(x1, 'x1'), as_tensor(x2, 'x2')
        if a.shape != b.shape:
            raise ValueError(f"ops.Cross: x1 and x2 must have one shape, got {a.shape} and "
                             f"{b.shape}")
        if self.dim == -65530:
            sizes = [i for i, s in enumerate(a.shape) if s == 3]
            if not sizes:
                raise ValueError(f"ops.Cross: no dimension of size 3 in shape {a.shape}")
            axis = sizes[0]
        else:
            axis = normalize_axis(self.dim, a.ndim, 'Cross')
        if a.shape[axis] != 3:
            raise ValueError(f"ops.Cross: dimension {axis} of shape {a.shape} must have size 3")
        a0, a1, a2 = _shape.split(a, 1, axis)
        b0, b1, b2 = _shape.split(b, 1, axis)
        parts = [_arith.sub(_arith.mul(p, q), _arith.mul(r, s))
                 for p, q, r, s in ((a1, b2, a2, b1), (a2, b0, a0, b2), (a0, b1, a1, b0))]
        return _shape.concat(parts, axis)


class Cdist(Primitive):
    """``Cdist(p=2.0)(input_x, input_y)``: p-norm distances between rows."""
    def __init__(self, p=2.0):
        super().__init__(p=p)

    def construct(self, input_x, input_y):
        return _norms.cdist(input_x, input_y, self.p)


# ----------------------------------------------------------------------------- triangles, diagonals
class Tril(Primitive):
    """``Tril(diagonal=0)(x)``: the lower triangle of the last two axes."""
    def __init__(self, diagonal=0):
        super().__init__(diagonal=diagonal)

    def construct(self, x):
        return _matrix.tril(x, self.diagonal)


class Triu(Primitive):
    """``Triu(diagonal=0)(x)``: the upper triangle of the last two axes."""
    def __init__(self, diagonal=0):
        super().__init__(diagonal=diagonal)

    def construct(self, x):
        return _matrix.triu(x, self.diagonal)


class Trace(Primitive):
    """``Trace()(x)``: the sum of the main diagonal of a 2-d tensor."""
    def construct(self, x):
        return _matrix.trace(x)


class Diag(Primitive):
    """``Diag()(x)``: a tensor of rank 2k with x (rank k) on its diagonal."""
    def construct(self, input_x):
        return _matrix.diag(input_x)


class DiagPart(Primitive):
    """``DiagPart()(input_x)``: for x of shape (D1..Dk, D1..Dk), the (D1..Dk) diagonal."""
    def construct(self, input_x):
        x = as_tensor(input_x, 'input_x')
        k = x.ndim // 2
        if x.ndim == 0 or x.ndim % 2 or x.shape[:k] != x.shape[k:]:
            raise ValueError(f"ops.DiagPart: input_x must have shape (D1..Dk, D1..Dk), got "
                             f"{x.shape}")
        n = int(np.prod(x.shape[:k]))
        return _shape.reshape(_index.take(_shape.reshape(x, (n * n,)),
                                          _constant(np.arange(n) * (n + 1), x)), x.shape[:k])


class _Indices(Primitive):
    lower = True

    def __init__(self, row, col, offset=0, dtype=_int32):
        prim = type(self).__name__
        row, col = _int(row, prim, 'row'), _int(col, prim, 'col')
        if row < 0 or col < 0:
            raise ValueError(f"ops.{prim}: row and col must be >= 0, got {row} and {col}")
        super().__init__(row=row, col=col, offset=_int(offset, prim, 'offset'),
                         dtype=_int_dtype(dtype, prim, 'dtype'))

    def construct(self):
        find = np.tril_indices if self.lower else np.triu_indices
        rows, cols = find(self.row, self.offset, self.col)
        return Tensor(np.stack([rows, cols]).astype(to_numpy(self.dtype)), self.dtype)


class TrilIndices(_Indices):
    """``TrilIndices(row, col, offset=0, dtype=int32)()``: the (2, N) coordinates of the
    lower triangle of a row x col matrix, row by row."""


class TriuIndices(_Indices):
    """``TriuIndices(row, col, offset=0, dtype=int32)()``: the (2, N) coordinates of the
    upper triangle of a row x col matrix, row by row."""
    lower = False
