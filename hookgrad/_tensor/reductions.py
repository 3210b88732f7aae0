"""Tensor's reduction, matrix and special-function methods, MindSpore-named.

Each is a call into ``hookgrad.ops`` or a composition of ops (``nansum``, ``cross``,
``kthvalue``, ``lgamma``, ``digamma``, ``erfinv``, ``inverse``, ``det``...), so gradients flow
through all the differentiable ones.
"""
import math

from .. import _dtype

_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


class ReduceMethods:
    """Reductions, cumulative ops, matrix products and special functions."""

    __slots__ = ()

    # ----------------------------------------------------------------- reductions
    def amax(self, axis=None, keepdims=False, *, initial=None, where=None):
        return _ops.amax(self, axis, keepdims, initial=initial, where=where)

    def amin(self, axis=None, keepdims=False, *, initial=None, where=None):
        return _ops.amin(self, axis, keepdims, initial=initial, where=where)

    def aminmax(self, *, axis=0, keepdims=False):
        """``(amin, amax)`` over ``axis``."""
        return _ops.amin(self, axis, keepdims), _ops.amax(self, axis, keepdims)

    def ptp(self, axis=None, keepdims=False):
        """The range ``amax - amin`` over ``axis``."""
        return _ops.sub(_ops.amax(self, axis, keepdims), _ops.amin(self, axis, keepdims))

    def argmax_with_value(self, axis=0, keep_dims=False):
        """``(values, indices)`` of the maxima over ``axis``."""
        return _ops.max(self, axis, keep_dims)

    def argmin_with_value(self, axis=0, keep_dims=False):
        """``(values, indices)`` of the minima over ``axis``."""
        return _ops.min(self, axis, keep_dims)

    def nansum(self, axis=None, keepdims=False, *, dtype=None, dim=None, keepdim=False):
        """Sum over ``axis`` treating NaN as 0 (``ops.nansum``)."""
        return _ops.nansum(self, axis if dim is None else dim, keepdims or keepdim, dtype=dtype)

    def nanmean(self, axis=None, keepdims=False, *, dtype=None):
        """Mean over ``axis`` of the elements that are not NaN."""
        x = self if dtype is None else _ops.cast(self, dtype)
        count = _ops.sum(_ops.cast(_ops.logical_not(_ops.isnan(x)), x.dtype), axis, keepdims)
        return _ops.div(_ops.sum(_nan_zeroed(x), axis, keepdims), count)

    def median(self, axis=-1, keepdims=False, *, dim=None, keepdim=False):
        """``(values, indices)`` of the medians over ``axis`` (``dim``)."""
        return _ops.median(self, axis if dim is None else dim, keepdims or keepdim)

    def nanmedian(self, axis=-1, keepdims=False):
        """``(values, indices)`` of the medians over ``axis`` of the elements that are not NaN
        (the lower middle one for an even count; NaN where all are NaN)."""
        values, order = _ops.sort(self, axis)           # NaN sorts last
        valid = _ops.sum(_ops.cast(_ops.logical_not(_ops.isnan(self)), _dtype.int64), axis, True)
        k = _ops.floor_divide(_ops.sub(_ops.clamp(valid, 1, None), 1), 2)
        median = _ops.gather_elements(values, axis, k)
        index = _ops.cast(_ops.gather_elements(order, axis, k), _dtype.int64)
        if not keepdims:
            median, index = _ops.squeeze(median, axis), _ops.squeeze(index, axis)
        return median, index

    def quantile(self, q, axis=None, keepdims=False):
        return _ops.quantile(self, q, axis, keepdims)

    def kthvalue(self, k, dim=-1, keepdim=False):
        """``(values, indices)`` of the ``k``-th smallest elements (1-based) along ``dim``."""
        n = self.shape[dim] if self.ndim else 1
        if not 1 <= k <= n:
            raise ValueError(f"Tensor.kthvalue: k must be in [1, {n}], got {k}")
        values, indices = _ops.sort(self, dim)
        values, indices = _ops.narrow(values, dim, k - 1, 1), _ops.narrow(indices, dim, k - 1, 1)
        indices = _ops.cast(indices, _dtype.int64)
        if keepdim:
            return values, indices
        return _ops.squeeze(values, dim), _ops.squeeze(indices, dim)

    def renorm(self, p, axis, maxnorm):
        """Each slice along ``axis`` scaled down so that its ``p``-norm is at most ``maxnorm``."""
        others = tuple(i for i in range(self.ndim) if i != axis % self.ndim)
        norm = _ops.vector_norm(self, p, others, True)
        scale = _ops.where(_ops.gt(norm, maxnorm), _ops.div(maxnorm, _ops.add(norm, 1e-7)), 1.0)
        return _ops.mul(self, _ops.cast(scale, self.dtype))

    def cov(self, *, correction=1, fweights=None, aweights=None):
        """The covariance matrix of the variables in the rows (observations in the columns).

        ``fweights`` (integer repeat counts) and ``aweights`` (float importance weights) weight
        the observations; with ``aweights`` the divisor is ``sum(w) - correction * sum(w *
        aweights) / sum(w)``, as in MindSpore.
        """
        if self.ndim > 2:
            raise ValueError(f"Tensor.cov: the tensor must have rank <= 2, got shape {self.shape}")
        x = _float(_ops.reshape(self, (1, -1)) if self.ndim < 2 else self)
        n = x.shape[1]
        fw = _cov_weights(fweights, 'fweights', 'iu', 'an integer', n, x.dtype)
        aw = _cov_weights(aweights, 'aweights', 'f', 'a floating point', n, x.dtype)
        w = fw if aw is None else (aw if fw is None else _ops.mul(fw, aw))
        if w is None:
            centred = _ops.sub(x, _ops.mean(x, 1, True))
            c = _ops.div(_ops.matmul(centred, _ops.transpose(centred, (1, 0))),
                         max(n - correction, 0))
        else:
            w_sum = _ops.sum(w)
            centred = _ops.sub(x, _ops.div(_ops.sum(_ops.mul(x, w), 1, True), w_sum))
            if correction == 0:
                divisor = w_sum
            elif aw is None:
                divisor = _ops.sub(w_sum, correction)
            else:
                divisor = _ops.sub(w_sum, _ops.mul(_ops.div(_ops.sum(_ops.mul(w, aw)), w_sum),
                                                   correction))
            divisor = _ops.maximum(divisor, _ops.zeros_like(divisor))
            c = _ops.div(_ops.matmul(_ops.mul(centred, w), _ops.transpose(centred, (1, 0))),
                         divisor)
        return _ops.reshape(c, ()) if self.ndim < 2 else c

    def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
        return _ops.norm(self, ord, dim, keepdim, dtype=dtype)

    def logsumexp(self, dim, keepdim=False):
        return _ops.logsumexp(self, dim, keepdim)

    def count_nonzero(self, axis=(), keep_dims=False, dtype=None):
        return _ops.count_nonzero(self, axis, keep_dims, dtype)

    def histc(self, bins=100, min=0, max=0):
        return _ops.histc(self, bins, min, max)

    def bincount(self, weights=None, minlength=0):
        return _ops.bincount(self, weights, minlength)

    # ----------------------------------------------------------------- cumulative
    def cumprod(self, dim, dtype=None):
        return _ops.cumprod(self, dim, dtype)

    def cummax(self, axis):
        return _ops.cummax(self, axis)

    def cummin(self, axis):
        return _ops.cummin(self, axis)

    def logcumsumexp(self, axis):
        return _ops.logcumsumexp(self, axis)

    def msort(self):
        """The tensor sorted along its first axis."""
        return _ops.msort(self)

    def diff(self, n=1, axis=-1, prepend=None, append=None):
        return _ops.diff(self, n, axis, prepend, append)

    # ----------------------------------------------------------------- matrices
    def mm(self, mat2):
        return _ops.mm(self, mat2)

    def bmm(self, mat2):
        return _ops.bmm(self, mat2)

    def dot(self, other):
        return _ops.dot(self, other)

    def inner(self, other):
        return _ops.inner(self, other)

    def outer(self, vec2):
        return _ops.outer(self, vec2)

    def ger(self, vec2):
        return _ops.ger(self, vec2)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """``beta * self + alpha * (mat1 @ mat2)``."""
        return _ops.addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        """``beta * self + alpha * sum_b batch1[b] @ batch2[b]``."""
        return _ops.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        """``beta * self + alpha * (batch1 @ batch2)`` per batch."""
        return _ops.baddbmm(self, batch1, batch2, beta, alpha)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        """``beta * self + alpha * (mat @ vec)``."""
        return _ops.addmv(self, mat, vec, beta=beta, alpha=alpha)

    def addr(self, vec1, vec2, beta=1, alpha=1):
        """``beta * self + alpha * outer(vec1, vec2)``."""
        return _ops.addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def cross(self, other, dim=None):
        """The cross product of 3-vectors along ``dim`` (default: the first axis of size 3)."""
        if dim is None:
            dim = next((i for i, d in enumerate(self.shape) if d == 3), None)
            if dim is None:
                raise ValueError(f"Tensor.cross: no dimension of size 3 in shape {self.shape}")
        if self.shape[dim] != 3 or other.shape[dim] != 3:
            raise ValueError(f"Tensor.cross: dimension {dim} must have size 3 in both tensors, "
                             f"got shapes {self.shape} and {other.shape}")
        a = [_ops.narrow(self, dim, i, 1) for i in range(3)]
        b = [_ops.narrow(other, dim, i, 1) for i in range(3)]
        parts = [_ops.sub(_ops.mul(a[(i + 1) % 3], b[(i + 2) % 3]),
                          _ops.mul(a[(i + 2) % 3], b[(i + 1) % 3])) for i in range(3)]
        return _ops.concat(parts, dim)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return _ops.diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None):
        """The sum of the ``offset`` diagonal of the planes ``(axis1, axis2)``."""
        return _ops.sum(_ops.diagonal(self, offset, axis1, axis2), -1, dtype=dtype)

    def diag(self, diagonal=0):
        """``ops.diag``: a tensor of rank 2k with this one on its diagonal."""
        if diagonal != 0:
            raise ValueError(f"Tensor.diag: diagonal must be 0, got {diagonal}")
        return _ops.diag(self)

    def diagflat(self, offset=0):
        """A square matrix with the flattened tensor on its ``offset`` diagonal."""
        return _ops.diag_embed(_ops.reshape(self, (-1,)), offset)

    def tril(self, diagonal=0):
        return _ops.tril(self, diagonal)

    def triu(self, diagonal=0):
        return _ops.triu(self, diagonal)

    def matrix_power(self, n):
        """The square matrix (or batch) multiplied by itself ``n`` times (inverted if n < 0)."""
        _square(self, 'matrix_power')
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Tensor.matrix_power: n must be an int, got {type(n).__name__}")
        base = self if n >= 0 else self.inverse()
        result = None
        n = abs(n)
        while n:
            if n & 1:
                result = base if result is None else _ops.matmul(result, base)
            n >>= 1
            if n:
                base = _ops.matmul(base, base)
        if result is None:
            eye = _ops.eye(self.shape[-1], self.shape[-1], self.dtype)
            result = _ops.broadcast_to(eye, self.shape)
        return result

    def inverse(self):
        """The inverse of a square matrix (or batch), by Gauss-Jordan with partial pivoting."""
        inv, _, _ = _gauss_jordan(self, 'inverse')
        return inv

    def det(self):
        """The determinant of a square matrix (or batch)."""
        _, sign, logabs = _gauss_jordan(self, 'det')
        return _ops.mul(sign, _ops.exp(logabs))

    matrix_determinant = det

    def slogdet(self):
        """``(sign, log|det|)`` of a square matrix (or batch)."""
        _, sign, logabs = _gauss_jordan(self, 'slogdet')
        return sign, logabs

    log_matrix_determinant = slogdet

    def logdet(self):
        """``log(det)``: NaN where the determinant is negative."""
        _, sign, logabs = _gauss_jordan(self, 'logdet')
        return _ops.add(logabs, _ops.log(sign))

    # ----------------------------------------------------------------- special functions
    def lgamma(self):
        """``log|Gamma(x)|``."""
        return _ops.lgamma(_float(self))

    def digamma(self):
        """``d/dx log Gamma(x)``."""
        return _digamma(_float(self))

    def mvlgamma(self, p):
        """The multivariate log-gamma of dimension ``p``:
        ``sum_j lgamma(x - j / 2) + p (p - 1) / 4 log(pi)``."""
        if not isinstance(p, int) or p < 1:
            raise ValueError(f"Tensor.mvlgamma: p must be an int >= 1, got {p!r}")
        x = _float(self)
        terms = _ops.stack([_ops.lgamma(_ops.sub(x, j / 2)) for j in range(p)])
        return _ops.add(_ops.sum(terms, 0), p * (p - 1) / 4 * math.log(math.pi))

    def erfinv(self):
        """The inverse of ``erf`` on (-1, 1); +-inf at +-1, NaN beyond."""
        return _erfinv(_float(self))

    def igamma(self, other):
        """The regularized lower incomplete gamma function ``P(self, other)``."""
        return _ops.igamma(self, other)

    def igammac(self, other):
        """The regularized upper incomplete gamma function ``Q(self, other)``."""
        return _ops.igammac(self, other)

    def svd(self, full_matrices=False, compute_uv=True):
        """``(s, u, v)`` of each matrix (``s`` alone without ``compute_uv``)."""
        return _ops.svd(self, full_matrices, compute_uv)


def _cov_weights(w, name, kinds, kind_name, n, dtype):
    """Checked observation weights of ``Tensor.cov``, cast to the data's float dtype."""
    if w is None:
        return None
    if w._data.dtype.kind not in kinds:
        raise TypeError(f"Tensor.cov: the dtype of {name} must be {kind_name} type, "
                        f"got {w.dtype}")
    if w.ndim > 1:
        raise ValueError(f"Tensor.cov: {name} must have one or fewer dimensions, "
                         f"got {w.ndim} dimensions")
    if w.size != n:
        raise ValueError(f"Tensor.cov: the numel of {name} must equal the number of columns "
                         f"of input, got numel {w.size} and {n} columns")
    return _ops.cast(_ops.reshape(w, (n,)), dtype)


def _float(x):
    return x if x._data.dtype.kind in 'fV' else _ops.cast(x, _dtype.float32)


def _nan_zeroed(x):
    return _ops.where(_ops.isnan(x), _ops.zeros_like(x), x) if x._data.dtype.kind in 'fV' else x


def _square(x, name):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Tensor.{name}: the tensor must be a square matrix or a batch of them, "
                         f"got shape {x.shape}")


def _gauss_jordan(a, name):
    """``(inverse, sign of det, log|det|)`` of square matrices ``a (..., n, n)``.

    Gauss-Jordan elimination with partial pivoting: the pivot rows are picked from the values
    (a piecewise-constant choice) and every arithmetic step is an op, so it is differentiable.
    The loop runs over the n columns; each step works on the whole batch at once.
    """
    _square(a, name)
    a = _float(a)
    n = a.shape[-1]
    eye = _ops.broadcast_to(_ops.eye(n, n, a.dtype), a.shape)
    m = _ops.concat((a, eye), -1)                   # (..., n, 2n): [A | I]
    sign = _ops.ones(a.shape[:-2], a.dtype)
    logabs = _ops.zeros(a.shape[:-2], a.dtype)
    rows = _ops.arange(n)
    for k in range(n):
        col = _ops.abs(_ops.narrow(_ops.narrow(m, -1, k, 1), -2, k, n - k))     # (..., n-k, 1)
        p = _ops.add(_ops.argmax(_ops.stop_gradient(col), -2, True), k)           # (..., 1, 1)
        # swap rows k and p: a permutation gathered per batch
        pk = p[..., 0]
        perm = _ops.where(_ops.eq(rows, k), pk, _ops.where(_ops.eq(rows, pk), k, rows))
        m = _ops.gather_elements(m, -2, _ops.broadcast_to(_ops.expand_dims(perm, -1), m.shape))
        swapped = _ops.cast(_ops.ne(p[..., 0, 0], k), a.dtype)
        sign = _ops.mul(sign, _ops.sub(1, _ops.mul(swapped, 2)))
        pivot = m[..., k:k + 1, k:k + 1]                                            # (..., 1, 1)
        sign = _ops.mul(sign, _ops.sign(pivot[..., 0, 0]))
        logabs = _ops.add(logabs, _ops.log(_ops.abs(pivot[..., 0, 0])))
        row = _ops.div(m[..., k:k + 1, :], pivot)                                   # (..., 1, 2n)
        factor = _ops.where(_ops.eq(_ops.expand_dims(rows, -1), k), 0.0, m[..., :, k:k + 1])
        m = _ops.sub(m, _ops.mul(factor, row))
        m = _ops.where(_ops.eq(_ops.expand_dims(rows, -1), k), row, m)
    return m[..., n:], sign, logabs


_SHIFT = 8      # the asymptotic series is used at x + 8 >= 8.5, where it is exact to ~1e-12


def _digamma(x):
    small = _ops.lt(x, 0.5)
    z = _ops.where(small, _ops.sub(1, x), x)
    w = _ops.add(z, _SHIFT)
    r = _ops.reciprocal(w)
    r2 = _ops.mul(r, r)
    poly = _ops.mul(r2, _ops.add(-1 / 12, _ops.mul(r2, _ops.add(1 / 120, _ops.mul(
        r2, _ops.add(-1 / 252, _ops.mul(r2, _ops.add(1 / 240, _ops.mul(r2, -1 / 132)))))))))
    series = _ops.add(_ops.sub(_ops.log(w), _ops.mul(r, 0.5)), poly)
    shift = _ops.sum(_ops.reciprocal(_ops.stack([_ops.add(z, k) for k in range(_SHIFT)])), 0)
    psi = _ops.sub(series, shift)
    xr = _ops.where(small, x, 0.25)
    reflected = _ops.sub(psi, _ops.div(math.pi, _ops.tan(_ops.mul(xr, math.pi))))
    return _ops.where(small, reflected, psi)


_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                   0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _horner(coeffs, w):
    p = _ops.full_like(w, coeffs[0])
    for c in coeffs[1:]:
        p = _ops.add(_ops.mul(p, w), c)
    return p


def _erfinv(y):
    """Giles' single-precision approximation (on the values only) refined by two Newton steps
    ``x -= (erf(x) - y) / erf'(x)``; the steps are ops, so d erfinv / dy = 1 / erf'(x)."""
    inside = _ops.lt(_ops.abs(y), 1)
    c = _ops.stop_gradient(_ops.where(inside, y, 0.0))
    w = _ops.neg(_ops.log(_ops.mul(_ops.sub(1, c), _ops.add(1, c))))
    central = _horner(_ERFINV_CENTRAL, _ops.sub(w, 2.5))
    tail = _horner(_ERFINV_TAIL, _ops.sub(_ops.sqrt(w), 3))
    x = _ops.mul(_ops.where(_ops.lt(w, 5), central, tail), c)
    yi = _ops.where(inside, y, 0.0)
    for _ in range(2):
        slope = _ops.mul(_ops.exp(_ops.neg(_ops.square(x))), 2 / math.sqrt(math.pi))
        x = _ops.sub(x, _ops.div(_ops.sub(_ops.erf(x), yi), slope))
    infinity = _ops.full_like(y, math.inf)
    signed = _ops.where(_ops.gt(y, 0), infinity, _ops.neg(infinity))     # no 0 * inf
    edge = _ops.where(_ops.eq(_ops.abs(y), 1), signed, math.nan)
    return _ops.where(inside, x, _ops.cast(edge, y.dtype))
