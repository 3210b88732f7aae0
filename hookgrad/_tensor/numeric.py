"""Tensor's methods for integer math, special functions, decompositions, triangular solves,
quantiles, diagonal scatter, choose, reverse_sequence, fold and unfold, segment reductions,
unique_with_pad and random_categorical: each is a call into ``hookgrad.ops`` with MindSpore
2.10's method signature."""

from .. import _dtype

_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


class NumericMethods:
    """Mixin of the method forms of these ops (``x.gcd(y)`` is ``ops.gcd(x, y)``)."""

    __slots__ = ()

    def gcd(self, other):
        return _ops.gcd(self, other)

    def lcm(self, other):
        return _ops.lcm(self, other)

    def bitwise_left_shift(self, other):
        return _ops.bitwise_left_shift(self, other)

    def bitwise_right_shift(self, other):
        return _ops.bitwise_right_shift(self, other)

    def i0(self):
        return _ops.i0(self)

    def nextafter(self, other):
        return _ops.nextafter(self, other)

    def cholesky(self, upper=False):
        return _ops.cholesky(self, upper)

    def cholesky_inverse(self, upper=False):
        return _ops.cholesky_inverse(self, upper)

    def cholesky_solve(self, input2, upper=False):
        return _ops.cholesky_solve(self, input2, upper)

    def qr(self, some=True):
        """``(Q, R)``: reduced with ``some``, else complete."""
        return _ops.qr(self, 'reduced' if some else 'complete')

    def lstsq(self, A):
        return _ops.lstsq(self, A)

    def lu_solve(self, LU_data, LU_pivots):
        return _ops.lu_solve(self, LU_data, LU_pivots)

    def nanquantile(self, q, axis=None, keepdims=False):
        return _ops.nanquantile(self, q, axis, keepdims)

    def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
        return _ops.diagonal_scatter(self, src, offset, dim1, dim2)

    def choose(self, choices, mode='clip'):
        """``choices[self[i]][i]`` at every position, an index out of range clipped ('clip'),
        wrapped ('wrap') or an error ('raise')."""
        return _ops.reordering.choose(self, choices, mode)

    def reverse_sequence(self, seq_lengths, seq_dim=0, batch_dim=0):
        return _ops.reverse_sequence(self, seq_lengths, seq_dim, batch_dim)

    def fold(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        return _ops.fold(self, output_size, kernel_size, dilation, padding, stride)

    def col2im(self, output_size, kernel_size, dilation, padding_value, stride):
        return _ops.col2im(self, output_size, kernel_size, dilation, padding_value, stride)

    def geqrf(self):
        return _ops.geqrf(self)

    def orgqr(self, input2):
        return _ops.orgqr(self, input2)

    def ormqr(self, input2, input3, left=True, transpose=False):
        return _ops.ormqr(self, input2, input3, left, transpose)

    def unfold(self, kernel_size, dilation=1, padding=0, stride=1):
        return _ops.unfold(self, kernel_size, dilation, padding, stride)

    def unsorted_segment_max(self, segment_ids, num_segments):
        return _ops.unsorted_segment_max(self, segment_ids, num_segments)

    def unsorted_segment_min(self, segment_ids, num_segments):
        return _ops.unsorted_segment_min(self, segment_ids, num_segments)

    def unsorted_segment_prod(self, segment_ids, num_segments):
        return _ops.unsorted_segment_prod(self, segment_ids, num_segments)

    def unique_with_pad(self, pad_num):
        return _ops.unique_with_pad(self, pad_num)

    def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
        """``(X, A)``: the solution of ``A X = self`` (``A^T X = self`` with ``transpose``) for
        the triangle of ``A`` that ``upper`` names, its diagonal taken as ones with
        ``unitriangular``; batched over leading axes."""
        a = _ops.triu(A) if upper else _ops.tril(A)
        if unitriangular:
            eye = _ops.eye(A.shape[-1], A.shape[-1], A.dtype)
            a = _ops.add(_ops.mul(a, _ops.sub(1, eye)), eye)
        if transpose:
            a = _ops.swapaxes(a, -1, -2)
        return _ops.matmul(a.inverse(), self), A

    def random_categorical(self, num_sample, seed=0, dtype=_dtype.int64):
        return _ops.random_categorical(self, num_sample, seed, dtype)
