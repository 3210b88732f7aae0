"""MindSpore 2.10's ``*Ext`` layers, the PyTorch-style forms of existing ones: AvgPool1dExt,
AvgPool2dExt, AvgPool3dExt, MaxPool2dExt, DropoutExt, Dropout2dExt, LayerNormExt,
LogSoftmaxExt and PReLUExt.

Pooling sizes follow PyTorch: the stride defaults to the kernel size, padding is symmetric
(at most half the kernel) and the divisor of an average counts the padding unless
``count_include_pad`` is False.
"""
import numbers

import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...ops.conv import _is_int, as_ints
from ...ops.normalization import normalize_last
from ...ops.pooling import avg_pool, max_pool
from ...ops.random import Dropout2D
from ..cell import Cell
from ..parameter import Parameter
from .pooling import _flag
from .pooling import _avg3d, _half_kernel, _input, _squeeze

__all__ = ['AvgPool1dExt', 'AvgPool2dExt', 'AvgPool3dExt', 'MaxPool2dExt', 'DropoutExt',
           'Dropout2dExt', 'LayerNormExt', 'LogSoftmaxExt', 'PReLUExt']


class _AvgPoolExt(Cell):
    """Average pooling over ``_k`` trailing axes of a (N, C, *) or (C, *) input."""

    _k = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        where = f"nn.{type(self).__name__}"
        k = self._k
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self._kernel = as_ints(kernel_size, k, where, 'kernel_size')
        self._stride = self._kernel if stride is None else as_ints(stride, k, where, 'stride')
        self._pad = as_ints(padding, k, where, 'padding', minimum=0)
        _half_kernel(self._pad, self._kernel, (1,) * k, where)
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')
        self.count_include_pad = _flag(count_include_pad, where, 'count_include_pad')
        if divisor_override is not None and (not _is_int(divisor_override)
                                             or divisor_override < 1):
            raise ValueError(f"{where}: divisor_override must be None or an int >= 1, got "
                             f"{divisor_override!r}")
        self.divisor_override = divisor_override

    def construct(self, input):
        k = self._k
        x, added = _input(self, input, (k + 1, k + 2))
        where = f"nn.{type(self).__name__} '{self.path()}'"
        pads = sum(((p, p) for p in self._pad), ())
        if k == 3:
            y = _avg3d(x, self._kernel, self._stride, pads, self.ceil_mode,
                       self.count_include_pad, self.divisor_override, where)
        else:
            lift = k == 1           # 1-d pooling as 2-d over (N, C, 1, L)
            y = avg_pool(ops.expand_dims(x, 2) if lift else x, (1,) * lift + self._kernel,
                         (1,) * lift + self._stride, (0, 0) * lift + pads, self.ceil_mode,
                         self.count_include_pad, self.divisor_override, where)
            y = ops.squeeze(y, 2) if lift else y
        return _squeeze(y, added)


class AvgPool1dExt(_AvgPoolExt):
    """1-d average pooling of (N, C, L) or (C, L) floating inputs, PyTorch's ``AvgPool1d``.

    Args:
        kernel_size: an int (or a 1-tuple).
        stride: likewise; None (default) is the kernel size.
        padding: zeros on both ends, at most half the kernel. Default 0.
        ceil_mode: round the output length up. Default False.
        count_include_pad: count the padding in the divisor. Default True.

    >>> import hookgrad as ms
    >>> ms.nn.AvgPool1dExt(2)(ms.Tensor([[[1.0, 3.0, 5.0, 7.0]]])).asnumpy().tolist()
    [[[2.0, 6.0]]]
    """

    _k = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2dExt(_AvgPoolExt):
    """2-d average pooling of (N, C, H, W) or (C, H, W) floating inputs, PyTorch's
    ``AvgPool2d``: as ``AvgPool1dExt`` with pairs, and ``divisor_override`` (an int >= 1)
    replacing every window's divisor."""

    _k = 2


class AvgPool3dExt(_AvgPoolExt):
    """3-d average pooling of (N, C, D, H, W) or (C, D, H, W) floating inputs, PyTorch's
    ``AvgPool3d``: as ``AvgPool2dExt`` with triples."""

    _k = 3


class MaxPool2dExt(Cell):
    """2-d max pooling of (N, C, H, W) or (C, H, W) inputs, PyTorch's ``MaxPool2d``.

    Args:
        kernel_size: an int or a pair. Default 1.
        stride: an int or a pair; None (default) is the kernel size.
        padding: -infinity on both sides, at most half the dilated kernel. Default 0.
        dilation: an int or a pair. Default 1.
        return_indices: also return the Int64 position of each maximum in its (H, W) plane.
        ceil_mode: round the output size up. Default False.
    """

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        where = 'nn.MaxPool2dExt'
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.dilation = padding, dilation
        self._kernel = as_ints(kernel_size, 2, where, 'kernel_size')
        self._stride = as_ints(self.stride, 2, where, 'stride')
        self._pad = as_ints(padding, 2, where, 'padding', minimum=0)
        self._dilation = as_ints(dilation, 2, where, 'dilation')
        _half_kernel(self._pad, self._kernel, self._dilation, where)
        self.return_indices = _flag(return_indices, where, 'return_indices')
        self.ceil_mode = _flag(ceil_mode, where, 'ceil_mode')

    def construct(self, input):
        x, added = _input(self, input, (3, 4), 'fiu')
        (ph, pw) = self._pad
        r = max_pool(x, self._kernel, self._stride, (ph, ph, pw, pw), self._dilation,
                     self.ceil_mode, self.return_indices, f"nn.MaxPool2dExt '{self.path()}'")
        return _squeeze(tuple(r) if self.return_indices else r, added)


def _probability(p, cell):
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
        raise ValueError(f"nn.{cell}: p must be a number in [0, 1], got {p!r}")
    return float(p)


class DropoutExt(Cell):
    """In training, zero each element with probability ``p`` and scale the rest by
    ``1 / (1 - p)``; in predict mode the identity.

    Args:
        p: the probability of dropping an element, in [0, 1]. Default 0.5.
        inplace: accepted for PyTorch's signature; the result is always a new Tensor.

    Raises:
        ValueError: for a p outside [0, 1].
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = _probability(p, 'DropoutExt')
        self.inplace = _flag(inplace, 'nn.DropoutExt', 'inplace')

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return ops.dropout(input, self.p)


class Dropout2dExt(Cell):
    """In training, zero whole channels of an (N, C, H, W) or (C, H, W) input with
    probability ``p`` and scale the rest by ``1 / (1 - p)``; in predict mode the identity.

    Args:
        p, inplace: as ``DropoutExt``.

    Raises:
        ValueError: for a p outside [0, 1], or (in training) an input not 3-d or 4-d.
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = _probability(p, 'Dropout2dExt')
        self.inplace = _flag(inplace, 'nn.Dropout2dExt', 'inplace')

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        x, added = _input(self, input, (3, 4))
        return _squeeze(Dropout2D.apply(x, keep_prob=1.0 - self.p, rng=None)[0], added)


class LayerNormExt(Cell):
    """PyTorch's ``LayerNorm``: each sample normalized over its trailing
    ``normalized_shape`` axes, then scaled by ``weight`` and shifted by ``bias``.

    Args:
        normalized_shape: an int or a tuple/list of ints, the trailing shape.
        eps: added to the variance. Default 1e-5.
        elementwise_affine: keep the parameters ``weight`` (ones) and ``bias`` (zeros).
            Default True.
        bias: keep ``bias`` too (with elementwise_affine). Default True.
        dtype: the parameters' dtype; None means ``ms.float32``.

    Raises:
        TypeError: for a normalized_shape that is not an int, a tuple or a list.
        ValueError: for an empty normalized_shape, or an input that does not end with it.

    >>> import hookgrad as ms
    >>> ms.nn.LayerNormExt(2)(ms.Tensor([[1.0, 3.0]])).asnumpy().round(3).tolist()
    [[-1.0, 1.0]]
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        if _is_int(normalized_shape):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"nn.LayerNormExt: normalized_shape must be an int or a tuple or "
                            f"list of ints, got {normalized_shape!r}")
        if not normalized_shape:
            raise ValueError("nn.LayerNormExt: normalized_shape must hold at least one size")
        self.normalized_shape = tuple(int(v) for v in normalized_shape)
        self.eps = eps
        self.elementwise_affine = _flag(elementwise_affine, 'nn.LayerNormExt',
                                        'elementwise_affine')
        npd = _dtype.to_numpy(_dtype.float32 if dtype is None else dtype)
        self.weight = self.bias = None
        if self.elementwise_affine:
            self.weight = Parameter(Tensor(np.ones(self.normalized_shape, npd)), name='weight')
            if bias:
                self.bias = Parameter(Tensor(np.zeros(self.normalized_shape, npd)),
                                      name='bias')

    def construct(self, input):
        if not isinstance(input, Tensor):
            raise TypeError(f"nn.LayerNormExt '{self.path()}': expected a Tensor input, got "
                            f"{type(input).__name__}")
        k = len(self.normalized_shape)
        if input.shape[input.ndim - k:] != self.normalized_shape or input.ndim < k:
            raise ValueError(f"nn.LayerNormExt '{self.path()}': input of shape {input.shape} "
                             f"does not end with normalized_shape {self.normalized_shape}")
        w, b = self.weight, self.bias
        if w is not None and w._data.dtype != input._data.dtype:
            w = ops.cast(w, input.dtype)
            b = None if b is None else ops.cast(b, input.dtype)
        return normalize_last(input, k, w, b, self.eps)

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LogSoftmaxExt(Cell):
    """``log(softmax(x))`` along ``dim``; None picks PyTorch's implicit axis (0 for 0-d,
    1-d and 3-d inputs, 1 otherwise).

    >>> import hookgrad as ms
    >>> ms.nn.LogSoftmaxExt(1)(ms.Tensor([[1.0, 1.0]])).shape
    (1, 2)
    """

    def __init__(self, dim=None):
        super().__init__()
        if dim is not None and not _is_int(dim):
            raise TypeError(f"nn.LogSoftmaxExt: dim must be an int or None, got {dim!r}")
        self.dim = dim

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"nn.LogSoftmaxExt '{self.path()}': expected a Tensor input, got "
                            f"{type(x).__name__}")
        dim = self.dim
        if dim is None:
            dim = 0 if x.ndim in (0, 1, 3) else 1
        return ops.log_softmax(x, dim)


class PReLUExt(Cell):
    """PyTorch's ``PReLU``: ``x`` where x > 0, ``weight * x`` elsewhere, with one learned
    slope or one per channel (axis 1).

    Args:
        num_parameters: 1 or the number of channels. Default 1.
        init: the slopes' initial value. Default 0.25.
        dtype: the weight's dtype; None means ``ms.float32``.

    >>> import hookgrad as ms
    >>> ms.nn.PReLUExt()(ms.Tensor([-2.0, 3.0])).asnumpy().tolist()
    [-0.5, 3.0]
    """

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        if not _is_int(num_parameters) or num_parameters < 1:
            raise ValueError(f"nn.PReLUExt: num_parameters must be a positive int, got "
                             f"{num_parameters!r}")
        npd = _dtype.to_numpy(_dtype.float32 if dtype is None else dtype)
        self.weight = Parameter(Tensor(np.full((num_parameters,), init, npd)), name='weight')

    def construct(self, input):
        return ops.prelu(input, self.weight)
