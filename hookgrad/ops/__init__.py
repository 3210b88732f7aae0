"""``hookgrad.ops``: MindSpore's functional API and Primitive-style classes.

Each family module defines its primitives (``Op`` subclasses, registered in
``hookgrad.autograd.function.OPS``) and the public functions that wrap them. MindSpore's
Primitive classes (``ops.Add()``, ``ops.ReduceSum(keep_dims)``...) live in ``operations/``,
built on those functions; no family imports them.
"""
from .arithmetic import (add, sub, mul, div, neg, pow, square, cast, identity, floor_divide,
                         remainder, subtract, multiply, divide, negative, tensor_add, tensor_sub,
                         tensor_mul, tensor_div, tensor_pow)
from .broadcasting import broadcast_to, sum_to
from .unary import (exp, expm1, log, log1p, sqrt, rsqrt, abs, sin, cos, tanh, sign, erf,
                    reciprocal, inv, floor, ceil, absolute, positive, copysign, tensor_exp,
                    tensor_expm1)
from .trigonometric import (tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, atan2, hypot,
                            arcsin, arccos, arctan, arcsinh, arccosh, arctanh, arctan2, sinc,
                            deg2rad, rad2deg)
from .elementwise import (log2, log10, exp2, logaddexp, logaddexp2, erfc, round, trunc, frac,
                          fmod, truncate_div, div_no_nan, true_divide, xlogy, xdivy,
                          squared_difference, lerp, addcmul, addcdiv, addn, isclose, nan_to_num,
                          signbit, logical_xor, bitwise_and, bitwise_or, bitwise_xor, floor_div,
                          floor_mod, logit, float_power, floordiv, floormod, truncate_mod,
                          tensor_floordiv, tensor_mod)
from .activation import (sigmoid, relu, gelu, softmax, log_softmax, relu6, leaky_relu, silu,
                         softplus)
from .reduction import (sum, mean, prod, max, min, amax, amin, argmax, argmin, reduce_sum,
                        reduce_mean, reduce_max, reduce_min, reduce_prod, cumsum, var, std,
                        all, any)
from .linalg import matmul, bmm, mm, dense
from .integers import gcd, lcm, bitwise_left_shift, bitwise_right_shift
from .bessel import i0, nextafter
from .bessel_functions import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, bessel_j0,
                               bessel_j1, bessel_y0, bessel_y1, bessel_k0, bessel_k0e,
                               bessel_k1, bessel_k1e)
from .composed import aminmax, batch_dot, approximate_equal, accumulate_n, bernoulli
from .spatial import batch_to_space_nd, space_to_batch_nd, affine_grid
from .windows import (bartlett_window, blackman_window, hamming_window, hann_window,
                      kaiser_window)
from .decompositions import cholesky, cholesky_inverse, cholesky_solve, qr, lstsq, lu_solve
from .quantiles import nanquantile
from .reordering import reverse_sequence
from .folding import fold, col2im, unfold
from .ctc import ctc_loss
from .householder import geqrf, orgqr, ormqr
from .matrix_functions import (det, matrix_determinant, slogdet, log_matrix_determinant, logdet,
                               inverse, matrix_power, matrix_solve, matrix_exp, svd, pinv, eig,
                               eigvals)
from .matrix_structure import (matrix_band_part, matrix_diag, matrix_diag_part, matrix_set_diag,
                               diagflat, adjoint, block_diag, vander, lu_unpack)
from .vectors import mv, vecdot, cross, dist, pdist, cov, trapz, renorm, ldexp
from .grids import cartesian_prod, combinations, tril_indices, triu_indices, logspace
from .special import lgamma, digamma, mvlgamma, erfinv, polygamma, zeta, igamma, igammac
from .shaping import (shape, reshape, transpose, permute, squeeze, expand_dims, unsqueeze, tile,
                      concat, cat, stack, split, chunk, flatten, flip)
from .indexing import (getitem, setitem, gather, index_select, where, select, masked_fill,
                       take, unindex, untake)
from .comparison import (gt, ge, lt, le, equal, ne, greater, greater_equal, less, less_equal,
                         not_equal, eq, maximum, minimum, clamp, clip, clip_by_value, logical_not,
                         logical_and, logical_or, isnan, isinf, isfinite, isposinf, isneginf,
                         fmax, fmin, heaviside, tensor_gt, tensor_ge, tensor_lt, tensor_le)
from .creation import (fill, fills, full, ones, zeros, ones_like, zeros_like, full_like, arange,
                       linspace, one_hot, eye, stop_gradient, assign, range, assign_add,
                       assign_sub, scalar_to_tensor, tuple_to_array, scalar_cast)
from .inspection import (rank, size, numel, dtype, is_tensor, is_floating_point, is_complex,
                         isreal, print_)
from .hook import HookBackward
from .device import move_to
from .random import dropout, dropout2d
from .sampling import (rand, randn, randint, rand_like, randn_like, randint_like, uniform, normal,
                       multinomial, random_categorical, choice_with_mask)
from .matrix import tril, triu, diagonal, diag, diag_embed, trace, diagonal_scatter
from .products import (einsum, outer, ger, dot, inner, tensor_dot, kron, addmm, addmv, addbmm,
                       baddbmm, addr)
from .norms import (vector_norm, matrix_norm, norm, cdist, cosine_similarity, clip_by_norm,
                    clip_by_global_norm)
from .statistics import (cumprod, logcumsumexp, logsumexp, diff, std_mean, var_mean, nansum,
                         nanmean)
from .segment import (unsorted_segment_sum, unsorted_segment_max, unsorted_segment_min,
                      unsorted_segment_prod)
from .sorting import (sort, argsort, msort, topk, top_k, median, quantile, cummax, cummin,
                      searchsorted, bucketize, bincount, histc, count_nonzero)
from .scatter_gather import (gather_elements, gather_d, scatter, tensor_scatter_elements,
                             gather_nd, scatter_nd, tensor_scatter_update, tensor_scatter_add,
                             tensor_scatter_sub, tensor_scatter_mul, tensor_scatter_div,
                             tensor_scatter_max, tensor_scatter_min)
from .selection import (masked_select, nonzero, argwhere, unique, unique_with_pad,
                        unique_consecutive, index_add,
                        index_fill, inplace_update, inplace_add, inplace_sub, scatter_add,
                        scatter_update, scatter_max, scatter_min, scatter_mul, scatter_div,
                        scatter_nd_add, scatter_nd_sub, scatter_nd_update, scatter_nd_max,
                        scatter_nd_min, scatter_nd_mul, scatter_nd_div)
from .rearrange import (roll, repeat_interleave, repeat_elements, meshgrid, swapaxes, swapdims,
                        moveaxis, movedim, unbind, unstack, narrow, slice, strided_slice, fliplr,
                        flipud, rot90, expand, expand_as, view_as, atleast_1d, atleast_2d,
                        atleast_3d, hstack, vstack, row_stack, dstack, column_stack,
                        tensor_split, hsplit, vsplit, dsplit, reverse, t, ravel)
from .conv import conv2d, conv1d, conv_transpose2d, bias_add
from .resize import interpolate, upsample
from .pooling import max_pool2d, avg_pool2d, adaptive_avg_pool2d
from .pooling_nd import (avg_pool1d, avg_pool3d, max_pool3d, adaptive_avg_pool1d,
                         adaptive_avg_pool3d, adaptive_max_pool1d, adaptive_max_pool2d,
                         adaptive_max_pool3d)
from .normalization import batch_norm, layer_norm
from .loss import cross_entropy, nll_loss
from .pointwise_loss import mse_loss, l1_loss, binary_cross_entropy_with_logits
from .collective import ReduceOp
# MindSpore's Primitive classes (ReduceSum, MatMul, Add...), built on the functions above:
# operations/, one module per subject
from .operations._catalog import *  # noqa: F401,F403
from ..autograd.functional import GradOperation
from .composite import depend, partial, MultitypeFuncGraph, HyperMap, Map
from .operations._definition import prim_attr_register, prim_arg_register, constexpr
from .operations._graph import make_range, tuple_len
from ._composite.base import add_flags


def _transpose(x, axes=None):
    return transpose(x, tuple(range(x.ndim - 1, -1, -1)) if axes is None else tuple(axes))


# The Tensor forms of the math namespace that backward rules use (see autograd/math.py):
# name there -> function here. Resolved on first use, so families import in any order.
TENSOR_MATH = {
    'exp': 'exp', 'log': 'log', 'sqrt': 'sqrt', 'sin': 'sin', 'cos': 'cos', 'tanh': 'tanh',
    'sign': 'sign', 'abs': 'abs', 'erf': 'erf', 'where': 'where', 'maximum': 'maximum',
    'minimum': 'minimum', 'matmul': 'matmul', 'zeros_like': 'zeros_like',
    'ones_like': 'ones_like', 'broadcast_to': 'broadcast_to', 'sum_to': 'sum_to',
    'reshape': 'reshape', 'flip': 'flip', 'transpose': '_transpose',
    'expand_dims': 'expand_dims', 'cumsum': 'cumsum', 'sum': 'sum', 'concat': 'concat',
    'cast': 'cast', 'getitem': 'getitem', 'take': 'take', 'unindex': 'unindex',
    'untake': 'untake',
    'prod': 'prod', 'real': 'real', 'imag': 'imag', 'conj': 'conj',
    'make_complex': '_make_complex', 'fft_c2c': '_fft_c2c',
}

from .complex import *  # noqa: E402,F401,F403  (real, imag, conj, angle, polar...)
from .complex import _make_complex  # noqa: E402,F401  (tensor_math's make_complex)
from .fft import *  # noqa: E402,F401,F403  (fft, ifft, rfft, fftshift, fftfreq...)
from .fft import _fft_c2c  # noqa: E402,F401  (tensor_math's fft_c2c)
from .grad_ops import *  # noqa: E402,F401,F403  (get_grad, custom_vjp, ...)
from .nn_functional import *  # noqa: E402,F401,F403  (conv_transpose2d, pad, ...)
from .feature_maps import *  # noqa: E402,F401,F403  (pixel_shuffle, max_unpool2d, ...)
from .layer_forms import *  # noqa: E402,F401,F403  (rms_norm, swiglu, embedding, ...)
from .attention import *  # noqa: E402,F401,F403  (flash_attention_score, ...)
from .operations._functional_forms import *  # noqa: E402,F401,F403  (iou, lrn, ...)
from .operations._instance_forms import *  # noqa: E402,F401,F403  (pows, reshape_, ...)
from .ext_forms import *  # noqa: E402,F401,F403  (baddbmm_ext, add_rms_norm, intopk, ...)
from .distributions import *  # noqa: E402,F401,F403  (gamma, poisson, randperm, ...)
from .inplace_forms import *  # noqa: E402,F401,F403  (zero_, clamp_, uniform_, ...)
from .grid_sampling import grid_sample  # noqa: E402
from .conv3d import conv3d, conv3d_transpose  # noqa: E402
from .crop_resize import crop_and_resize  # noqa: E402
from .graph_helpers import *  # noqa: E402,F401,F403  (scalar_add, tuple_getitem, ...)
from .graph_inspect import *  # noqa: E402,F401,F403  (typeof, hastype, shape_, cond, ...)
from .kernel_registration import *  # noqa: E402,F401,F403  (kernel, op_info_register)
from . import signature  # noqa: E402,F401  (make_sig, sig_rw, ...)
from .sparse import *  # noqa: E402,F401,F403  (csr_mm, coo_add, dense_to_sparse_coo, ...)
from .sparse_unary import *  # noqa: E402,F401,F403  (coo_exp, csr_relu, ...)

# MindSpore's modules C, F and P: the names above under MindSpore's paths. C and F hold
# functions of every family, so this package fills them (they import none of it).
import sys as _sys  # noqa: E402
from . import composite, functional, operations  # noqa: E402
from ..compat.names import reexport as _reexport, reporter as _reporter  # noqa: E402
_reexport(vars(composite), _sys.modules[__name__], 'mindspore.ops.composite')
functional.__all__ = _reexport(vars(functional), _sys.modules[__name__],
                               'mindspore.ops.functional')
__getattr__ = _reporter('mindspore.ops')

from .._tensor import bind_ops as _bind_ops  # noqa: E402
_bind_ops(_sys.modules[__name__])           # Tensor's operators and methods run these ops

# MindSpore's module paths ops.primitive (operations/_definition.py, where Python Primitives
# are written) and ops.composite.base (_composite/base.py)
from .operations import _definition as primitive  # noqa: E402
_sys.modules[__name__ + '.primitive'] = primitive
composite.__path__ = []          # a package to the import system: its submodule is this
_sys.modules[__name__ + '.composite.base'] = _sys.modules[__name__ + '._composite.base']

from . import auto_generate  # noqa: E402,F401  (MindSpore's ops.auto_generate, as an attribute)

# MindSpore's functional collectives (ops.all_reduce, ops.broadcast, ops.isend, ...) from
# function/comm_func.py; its gather and scatter stay there (ops.gather, ops.scatter: array ops)
from .function import comm_func as _comm_func  # noqa: E402
globals().update((_name, getattr(_comm_func, _name)) for _name in _comm_func.OPS_NAMES)
