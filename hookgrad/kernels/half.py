"""float16 and bfloat16 products computed in float32: matrix products and convolutions.

NumPy has no half-precision BLAS: its float16 ``matmul`` is a plain loop about 100 times
slower than float32's BLAS (it already sums in float32, so the values are the same), and the
convolution kernels' products inherit that; bfloat16 (``ml_dtypes``) has no product of its own
on any device. Mixed precision means low-precision storage with float32 arithmetic, so these
kernels widen float16 and bfloat16 operands to float32, run the float32 kernels and round each
result to the operands' type once. Arrays of other dtypes pass through unchanged.
"""
import ml_dtypes
import numpy as np

from .backend import array_module
from .threads import half_matmul as matmul  # noqa: F401  (the matrix product, kept there)

HALF = np.dtype(np.float16)
BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
LOW = frozenset((HALF, BFLOAT16))        # the types widened to float32
_SINGLE = np.float32


def finfo(dtype):
    """``np.finfo`` of a floating dtype, bfloat16's included (NumPy's own refuses it)."""
    return ml_dtypes.finfo(dtype) if dtype == BFLOAT16 else np.finfo(dtype)


def add_reduce(x, axis=None, keepdims=False):
    """``np.add.reduce``; a bfloat16 array is summed in float32 and the sum rounded once."""
    if x.dtype is BFLOAT16:
        total = x.sum(axis=axis, dtype=_SINGLE, keepdims=keepdims)
        return array_module(x).asarray(total).astype(BFLOAT16)
    return np.add.reduce(x, axis=axis, keepdims=keepdims)


def is_half(a):
    """Whether ``a`` is a float16 NumPy array (the arrays these functions widen)."""
    return type(a) is np.ndarray and a.dtype is HALF


def _wide(a):
    return a.astype(_SINGLE) if a.dtype in LOW else a


def _narrow(*arrays):
    """The low-precision type among ``arrays`` (the type results are rounded to)."""
    for a in arrays:
        if a.dtype in LOW:
            return a.dtype
    return None


class Widened:
    """A convolution kernels module (``kernels/conv.py``, ``kernels/conv_device.py``) run in
    float32 on float16 or bfloat16 operands, with its functions' signatures. What forward keeps
    for backward (the padded input, im2col rows and columns) stays float32."""

    def __init__(self, kernels):
        self.kernels = kernels

    def conv_forward(self, x, w, stride, padding, dilation, groups, grads=(True, True)):
        y, how, xh, rows, cols = self.kernels.conv_forward(_wide(x), _wide(w), stride, padding,
                                                           dilation, groups, grads=grads)
        return y.astype(_narrow(x, w) or y.dtype), how, xh, rows, cols

    def grad_operand(self, gy, how, groups):
        return self.kernels.grad_operand(_wide(gy), how, groups)

    def input_grad(self, gy, w, input_size, stride, padding, dilation, groups, how=None,
                   gyg=None, rows=None):
        gx = self.kernels.input_grad(_wide(gy), _wide(w), input_size, stride, padding,
                                     dilation, groups, how=how, gyg=gyg, rows=rows)
        return gx.astype(_narrow(w, gy) or gx.dtype)

    def filter_grad(self, gy, x, kernel_size, stride, padding, dilation, groups, how=None,
                    xh=None, gyg=None, cols=None):
        gw = self.kernels.filter_grad(_wide(gy), _wide(x), kernel_size, stride, padding,
                                      dilation, groups, how=how, xh=xh, gyg=gyg, cols=cols)
        return gw.astype(_narrow(x, gy) or gw.dtype)


# ----------------------------------------------------------------- ops that accumulate
# An op that sums or multiplies many values (a reduction, a normalisation, a loss) computes its
# bfloat16 inputs in float32, as mixed precision means: bfloat16's own arithmetic rounds at
# every step, so a sum of 100,000 ones stops at 256. The op contract (autograd/function.py)
# wraps the forward and array rule of ops marked ``widens_bfloat16`` with these.
def _widen_all(arrays):
    return [a.astype(_SINGLE) if getattr(a, 'dtype', None) is BFLOAT16 else a for a in arrays]


def _round(y):
    """float32 results rounded to bfloat16 (tuples of results too); others unchanged."""
    if type(y) is tuple:
        return tuple(_round(v) for v in y)
    return y.astype(BFLOAT16) if getattr(y, 'dtype', None) == _SINGLE else y


def _all_low(arrays):
    """Whether some array is bfloat16 and no float array is wider (then results round)."""
    low = False
    for a in arrays:
        dtype = getattr(a, 'dtype', None)
        if dtype is BFLOAT16:
            low = True
        elif dtype is not None and dtype.kind == 'f' and dtype.itemsize >= 4:
            return False
    return low


def widened_forward(forward):
    """``forward(ctx, *arrays, **params)`` computing bfloat16 inputs in float32; its float32
    results are rounded to bfloat16 unless a float input was wider or ``dtype`` was asked."""
    def run(ctx, *arrays, **params):
        for a in arrays:            # the common case first: no bfloat16 input
            if getattr(a, 'dtype', None) is BFLOAT16:
                break
        else:
            return forward(ctx, *arrays, **params)
        if not _all_low(arrays):
            return forward(ctx, *arrays, **params)
        y = forward(ctx, *_widen_all(arrays), **params)
        if ctx.recording and ctx.saved:
            ctx.widened = True      # what it saved is float32 copies, not its inputs
        return y if params.get('dtype') is not None else _round(y)
    run.__doc__ = forward.__doc__
    run.__wrapped__ = forward
    return run


def first_order_only(backward, name):
    """An op's backward rule on Tensors (the path of higher-order gradients), refusing a node
    that ran widened and saved arrays: they are float32 copies of its inputs and outputs, which
    a recorded gradient could not differentiate back to them."""
    def run(ctx, *grads):
        if getattr(ctx, 'widened', False):
            raise NotImplementedError(
                f"ops.{name}: gradients of gradients through a bfloat16 {name} are not "
                f"available (it computes in float32 from copies of its inputs); cast its "
                f"inputs to float32 for higher-order gradients")
        return backward(ctx, *grads)
    run.__doc__ = backward.__doc__
    return run


def widened_rule(rule):
    """An op's first-order backward rule on arrays, computing bfloat16 gradients in float32
    and rounding the input gradients to bfloat16."""
    def run(ctx, *grads):
        for g in grads:
            if getattr(g, 'dtype', None) is BFLOAT16:
                break
        else:
            return rule(ctx, *grads)
        if not _all_low(grads):
            return rule(ctx, *grads)
        return _round(rule(ctx, *_widen_all(grads)))
    run.__doc__ = rule.__doc__
    return run
