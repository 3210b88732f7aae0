"""MindSpore's Primitive classes of integer arithmetic (gcd, lcm, bit shifts), matrix
decompositions and solves, sequences and blocks (ReverseSequence, Col2Im), special
functions (NextAfter, the Bessel functions), ApproximateEqual and AccumulateNV2.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
import numbers

from .. import (bessel as _bessel, bessel_functions as _bessel_fn, composed as _composed,
                decompositions as _decomp, folding as _folding, householder as _householder,
                integers as _integers, reordering as _reorder, sampling as _sampling,
                spatial as _spatial, windows as _windows)
from ..._dtype import float16 as _float16, float32 as _float32, float64 as _float64
from ..._tensor import Tensor
from ._primitive import Primitive, _flag, _int

__all__ = ['Gcd', 'Lcm', 'LeftShift', 'RightShift', 'Cholesky', 'CholeskyInverse',
           'CholeskySolve', 'Qr', 'Lstsq', 'LuSolve', 'Geqrf', 'Orgqr', 'Ormqr',
           'ReverseSequence', 'Col2Im', 'NextAfter', 'BesselI0', 'BesselI0e', 'BesselI1',
           'BesselI1e', 'BesselJ0', 'BesselJ1', 'BesselY0', 'BesselY1', 'BesselK0', 'BesselK0e',
           'BesselK1', 'BesselK1e', 'ApproximateEqual', 'AccumulateNV2', 'BartlettWindow',
           'BlackmanWindow', 'HammingWindow', 'BatchToSpaceND', 'AffineGrid', 'Bernoulli']


# ----------------------------------------------------------------------------- integers
class Gcd(Primitive):
    """``Gcd()(input, other)``: element-wise greatest common divisor."""
    def construct(self, input, other):
        return _integers.gcd(input, other)


class Lcm(Primitive):
    """``Lcm()(x1, x2)``: element-wise least common multiple."""
    def construct(self, x1, x2):
        return _integers.lcm(x1, x2)


class LeftShift(Primitive):
    """``LeftShift()(x1, x2)``: ``x1 << x2`` element-wise."""
    def construct(self, x1, x2):
        return _integers.bitwise_left_shift(x1, x2)


class RightShift(Primitive):
    """``RightShift()(input_x, input_y)``: ``input_x >> input_y`` element-wise."""
    def construct(self, input_x, input_y):
        return _integers.bitwise_right_shift(input_x, input_y)


# ----------------------------------------------------------------------------- decompositions
class Cholesky(Primitive):
    """``Cholesky(upper=False)(input_x)``: the Cholesky factor of symmetric positive definite
    matrices."""
    def __init__(self, upper=False):
        super().__init__(upper=_flag(upper, 'Cholesky', 'upper'))

    def construct(self, input_x):
        return _decomp.cholesky(input_x, self.upper)


class CholeskyInverse(Primitive):
    """``CholeskyInverse(upper=False)(input_x)``: the inverse of a matrix from its Cholesky
    factor."""
    def __init__(self, upper=False):
        super().__init__(upper=_flag(upper, 'CholeskyInverse', 'upper'))

    def construct(self, input_x):
        return _decomp.cholesky_inverse(input_x, self.upper)


class CholeskySolve(Primitive):
    """``CholeskySolve(upper=False)(x1, x2)``: solves ``A X = x1`` with ``x2`` the Cholesky
    factor of A."""
    def __init__(self, upper=False):
        super().__init__(upper=_flag(upper, 'CholeskySolve', 'upper'))

    def construct(self, x1, x2):
        return _decomp.cholesky_solve(x1, x2, self.upper)


class Qr(Primitive):
    """``Qr(full_matrices=False)(x)``: ``(Q, R)``, complete with ``full_matrices``."""
    def __init__(self, full_matrices=False):
        super().__init__(full_matrices=_flag(full_matrices, 'Qr', 'full_matrices'))

    def construct(self, x):
        return _decomp.qr(x, 'complete' if self.full_matrices else 'reduced')


class Lstsq(Primitive):
    """``Lstsq(fast=True, l2_regularizer=0.0)(x, a)``: the least squares (minimum norm)
    solution of ``x @ out = a``. MindSpore 2.10 implements only ``fast=True`` with no
    regularization, and refuses the other settings when constructed."""
    def __init__(self, fast=True, l2_regularizer=0.0):
        if fast is not True:
            raise TypeError(f"ops.Lstsq: fast must be True, got {fast!r}")
        if (isinstance(l2_regularizer, bool) or not isinstance(l2_regularizer, numbers.Real)
                or l2_regularizer != 0):
            raise TypeError(f"ops.Lstsq: l2_regularizer must be 0.0, got {l2_regularizer!r}")
        super().__init__(fast=fast, l2_regularizer=float(l2_regularizer))

    def construct(self, x, a):
        return _decomp.lstsq(x, a)


class LuSolve(Primitive):
    """``LuSolve()(x, lu_data, lu_pivots)``: solves ``A out = x`` from A's LU factorization."""
    def construct(self, x, lu_data, lu_pivots):
        return _decomp.lu_solve(x, lu_data, lu_pivots)


class Geqrf(Primitive):
    """``Geqrf()(input)``: ``(y, tau)``, the QR decomposition in LAPACK's packed form."""
    def construct(self, input):
        return _householder.geqrf(input)


class Orgqr(Primitive):
    """``Orgqr()(x, tau)``: Q's first columns from ``Geqrf``'s reflectors."""
    def construct(self, x, tau):
        return _householder.orgqr(x, tau)


class Ormqr(Primitive):
    """``Ormqr(left=True, transpose=False)(x, tau, other)``: ``other`` multiplied by Q (or
    Q^T) of ``Geqrf``'s reflectors."""
    def __init__(self, left=True, transpose=False):
        super().__init__(left=_flag(left, 'Ormqr', 'left'),
                         transpose=_flag(transpose, 'Ormqr', 'transpose'))

    def construct(self, x, tau, other):
        return _householder.ormqr(x, tau, other, self.left, self.transpose)


# ----------------------------------------------------------------------------- sequences, blocks
class ReverseSequence(Primitive):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``: reverses the first
    ``seq_lengths[b]`` elements along ``seq_dim`` of each batch slice."""
    def __init__(self, seq_dim, batch_dim=0):
        super().__init__(seq_dim=_int(seq_dim, 'ReverseSequence', 'seq_dim'),
                         batch_dim=_int(batch_dim, 'ReverseSequence', 'batch_dim'))

    def construct(self, x, seq_lengths):
        return _reorder.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class Col2Im(Primitive):
    """``Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x, output_size)``: sums
    (N, C, kh * kw, L) blocks into (N, C, H, W) images."""
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size=kernel_size, dilation=dilation, padding=padding,
                         stride=stride)

    def construct(self, x, output_size):
        if hasattr(x, 'ndim') and x.ndim != 4:
            raise ValueError(f"ops.Col2Im: x must be 4-d (N, C, kh * kw, L), got shape "
                             f"{x.shape}")
        return _folding._col2im(x, output_size, self.kernel_size, self.dilation, self.padding,
                                self.stride, 'Col2Im')


# ----------------------------------------------------------------------------- special functions
class NextAfter(Primitive):
    """``NextAfter()(input, other)``: the next representable number after ``input`` towards
    ``other``."""
    def construct(self, input, other):
        return _bessel.nextafter(input, other)


class BesselI0(Primitive):
    """``BesselI0()(x)``: the modified Bessel function of the first kind of order 0."""
    def construct(self, x):
        return _bessel_fn.bessel_i0(x)


def _bessel_primitive(class_name, function):
    """A Primitive ``class_name()(x)`` applying ``function`` element-wise."""
    def construct(self, x):
        return function(x)

    return type(class_name, (Primitive,), {
        '__doc__': f"``{class_name}()(x)``: ``ops.{function.__name__}`` element-wise.",
        '__module__': __name__, '__qualname__': class_name, 'construct': construct})


BesselI0e = _bessel_primitive('BesselI0e', _bessel_fn.bessel_i0e)
BesselI1 = _bessel_primitive('BesselI1', _bessel_fn.bessel_i1)
BesselI1e = _bessel_primitive('BesselI1e', _bessel_fn.bessel_i1e)
BesselJ0 = _bessel_primitive('BesselJ0', _bessel_fn.bessel_j0)
BesselJ1 = _bessel_primitive('BesselJ1', _bessel_fn.bessel_j1)
BesselY0 = _bessel_primitive('BesselY0', _bessel_fn.bessel_y0)
BesselY1 = _bessel_primitive('BesselY1', _bessel_fn.bessel_y1)
BesselK0 = _bessel_primitive('BesselK0', _bessel_fn.bessel_k0)
BesselK0e = _bessel_primitive('BesselK0e', _bessel_fn.bessel_k0e)
BesselK1 = _bessel_primitive('BesselK1', _bessel_fn.bessel_k1)
BesselK1e = _bessel_primitive('BesselK1e', _bessel_fn.bessel_k1e)


# ----------------------------------------------------------------------------- composed
class ApproximateEqual(Primitive):
    """``ApproximateEqual(tolerance=1e-5)(x, y)``: element-wise ``|x - y| < tolerance``."""
    def __init__(self, tolerance=1e-5):
        _composed._check_tolerance('ops.ApproximateEqual', tolerance)
        super().__init__(tolerance=tolerance)

    def construct(self, x, y):
        return _composed.approximate_equal(x, y, self.tolerance)


class AccumulateNV2(Primitive):
    """``AccumulateNV2()(x)``: the element-wise sum of a list or tuple of tensors."""
    def construct(self, x):
        return _composed.accumulate_n(x)


class Bernoulli(Primitive):
    """``Bernoulli(seed=-1, offset=0)(x, p)``: Bernoulli(p) samples in x's shape and dtype;
    seed -1 draws from the global generator, another seeds the Primitive's own generator
    once, so its calls continue one sequence."""
    def __init__(self, seed=-1, offset=0):
        seed = _int(seed, 'Bernoulli', 'seed')
        if seed < -1:
            raise ValueError(f"ops.Bernoulli: seed must be -1 or an int >= 0, got {seed}")
        super().__init__(seed=seed, offset=_int(offset, 'Bernoulli', 'offset'))
        self._rng = None if seed == -1 else _sampling.pair_generator(seed, 0, 'Bernoulli')

    def construct(self, x, p):
        return _composed.bernoulli_from(x, p, self._rng, 'Bernoulli')


class BatchToSpaceND(Primitive):
    """``BatchToSpaceND(block_shape, crops)(input_x)``: blocks of the batch moved into the
    last dimensions, then cropped."""
    def __init__(self, block_shape, crops):
        super().__init__(block_shape=block_shape, crops=crops)

    def construct(self, input_x):
        return _spatial.batch_to_space_nd(input_x, self.block_shape, self.crops)


class AffineGrid(Primitive):
    """``AffineGrid(align_corners=False)(theta, output_size)``: the sampling grid of affine
    transformations."""
    def __init__(self, align_corners=False):
        super().__init__(align_corners=_flag(align_corners, 'AffineGrid', 'align_corners'))

    def construct(self, theta, output_size):
        return _spatial.affine_grid(theta, output_size, self.align_corners)


# ----------------------------------------------------------------------------- windows
class _Window(Primitive):
    """What the window Primitives share: periodic and dtype checked, the length read from an
    Int32 or Int64 Tensor of ``rank`` dimensions."""
    kind = None
    rank = 0

    def _setup(self, periodic, dtype, **attrs):
        prim = type(self).__name__
        if dtype not in (_float16, _float32, _float64):
            raise TypeError(f"ops.{prim}: dtype must be Float16, Float32 or Float64, got "
                            f"{dtype}")
        super().__init__(periodic=_flag(periodic, prim, 'periodic'), dtype=dtype, **attrs)

    def construct(self, window_length):
        if not isinstance(window_length, Tensor) or window_length.dtype.name not in (
                'Int32', 'Int64'):
            raise TypeError(f"ops.{self.name}: window_length must be an Int32 or Int64 Tensor, "
                            f"got {getattr(window_length, 'dtype', type(window_length).__name__)}")
        if window_length.ndim != self.rank or window_length.size != 1:
            raise ValueError(f"ops.{self.name}: window_length must have shape "
                             f"{(1,) * self.rank}, got {window_length.shape}")
        length = int(window_length.asnumpy().reshape(()))
        if length < 0:
            raise ValueError(f"ops.{self.name}: window_length must be >= 0, got {length}")
        return _windows.make_window(self.kind, length, self.periodic, self.dtype,
                                    **{k: getattr(self, k) for k in ('alpha', 'beta')
                                       if k in self.attrs})


class BartlettWindow(_Window):
    """``BartlettWindow(periodic=True, dtype=float32)(window_length)``: the triangular window
    of a 0-d integer Tensor's length."""
    kind = 'bartlett'

    def __init__(self, periodic=True, dtype=_float32):
        self._setup(periodic, dtype)


class BlackmanWindow(_Window):
    """``BlackmanWindow(periodic=True, dtype=float32)(window_length)``: the Blackman window of
    a 0-d integer Tensor's length."""
    kind = 'blackman'

    def __init__(self, periodic=True, dtype=_float32):
        self._setup(periodic, dtype)


class HammingWindow(_Window):
    """``HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=float32)(length)``: the
    generalized Hamming window of a one-element 1-d integer Tensor's length."""
    kind = 'hamming'
    rank = 1

    def __init__(self, periodic=True, alpha=0.54, beta=0.46, dtype=_float32):
        for arg, value in (('alpha', alpha), ('beta', beta)):
            if not isinstance(value, float):
                raise TypeError(f"ops.HammingWindow: {arg} must be a float, got {value!r}")
        self._setup(periodic, dtype, alpha=alpha, beta=beta)
