"""float16 products on the CPU, computed in float32: matrix products and convolutions.

CPU only. NumPy has no half-precision BLAS: its float16 ``matmul`` is a plain loop about 100
times slower than float32's BLAS (it already sums in float32, so the values are the same), and
the convolution kernels' products inherit that. Mixed precision means float16 storage with
float32 arithmetic, so these functions widen float16 operands to float32, run the float32
kernels and round each result to float16 once. Arrays of other dtypes pass through unchanged.
"""
import numpy as np

from . import conv as _conv
from .threads import half_matmul as matmul  # noqa: F401  (the matrix product, kept there)

HALF = np.dtype(np.float16)
_SINGLE = np.float32


def is_half(a):
    """Whether ``a`` is a float16 NumPy array (the arrays these functions widen)."""
    return type(a) is np.ndarray and a.dtype is HALF


def _wide(a):
    return a.astype(_SINGLE) if a.dtype is HALF else a


# ----------------------------------------------------------------- convolution
# The functions of kernels/conv.py for float16 inputs (ops/conv.py picks this module for them).
# What forward keeps for backward (the padded input, im2col rows and columns) stays float32.
def conv_forward(x, w, stride, padding, dilation, groups, grads=(True, True)):
    y, how, xh, rows, cols = _conv.conv_forward(_wide(x), _wide(w), stride, padding, dilation,
                                                groups, grads=grads)
    return y.astype(HALF), how, xh, rows, cols


def grad_operand(gy, how, groups):
    return _conv.grad_operand(_wide(gy), how, groups)


def input_grad(gy, w, input_size, stride, padding, dilation, groups, how=None, gyg=None,
               rows=None):
    gx = _conv.input_grad(_wide(gy), _wide(w), input_size, stride, padding, dilation, groups,
                          how=how, gyg=gyg, rows=rows)
    return gx.astype(HALF)


def filter_grad(gy, x, kernel_size, stride, padding, dilation, groups, how=None, xh=None,
                gyg=None, cols=None):
    gw = _conv.filter_grad(_wide(gy), _wide(x), kernel_size, stride, padding, dilation, groups,
                           how=how, xh=xh, gyg=gyg, cols=cols)
    return gw.astype(HALF)
