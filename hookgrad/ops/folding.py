"""fold, unfold and col2im: sliding blocks summed into an image and read back out of it.

``Fold`` adds each block's values into a zero image at the block's place; ``Unfold`` reads the
blocks of an image. Each is the other's adjoint, so each backward applies the other and
gradients of any order exist. Blocks are laid out as MindSpore's (and PyTorch's) ``unfold``:
``(N, C, kh * kw, L)`` with the kernel position inside the channel and the L blocks row-major.
"""
import numbers

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ..autograd.function import Op, value_read
from ..kernels import backend

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), _dtype.BFLOAT16)


def _blocks(size, kernel, dilation, padding, stride):
    """The number of block positions along one axis."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _windows(geometry):
    """``(i, j, rows, cols)``: each kernel position and the slices of the padded image its
    values cover."""
    (kh, kw), (dh, dw), _, (sh, sw), (bh, bw), _ = geometry
    for i in range(kh):
        for j in range(kw):
            yield i, j, slice(i * dh, i * dh + sh * (bh - 1) + 1, sh), \
                slice(j * dw, j * dw + sw * (bw - 1) + 1, sw)


def _fold_array(cols, geometry):
    """(N, C, kh * kw, L) blocks summed into (N, C, H, W)."""
    kernel, _, (ph, pw), _, (bh, bw), (h, w) = geometry
    xp = backend.array_module(cols)
    n, c = cols.shape[:2]
    blocks = cols.reshape(n, c, kernel[0], kernel[1], bh, bw)
    out = xp.zeros((n, c, h + 2 * ph, w + 2 * pw), cols.dtype)
    for i, j, rows, columns in _windows(geometry):
        out[:, :, rows, columns] += blocks[:, :, i, j]
    return out[:, :, ph:ph + h, pw:pw + w]


def _unfold_array(image, geometry):
    """(N, C, H, W) read as its (N, C, kh * kw, L) blocks."""
    kernel, _, (ph, pw), _, (bh, bw), _ = geometry
    xp = backend.array_module(image)
    n, c = image.shape[:2]
    padded = xp.pad(image, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    out = xp.empty((n, c, kernel[0], kernel[1], bh, bw), image.dtype)
    for i, j, rows, columns in _windows(geometry):
        out[:, :, i, j] = padded[:, :, rows, columns]
    return out.reshape(n, c, kernel[0] * kernel[1], bh * bw)


class Fold(Op):
    """y = the blocks of x summed into an image; its gradient is the blocks of gy."""
    @staticmethod
    def forward(ctx, x, geometry):
        ctx.geometry = geometry
        return _fold_array(x, geometry)

    @staticmethod
    def backward(ctx, gy):
        if isinstance(gy, Tensor):
            return Unfold.apply(gy, geometry=ctx.geometry)
        return _unfold_array(gy, ctx.geometry)


class Unfold(Op):
    """y = the blocks of an image; its gradient is gy's blocks summed into an image."""
    @staticmethod
    def forward(ctx, x, geometry):
        ctx.geometry = geometry
        return _unfold_array(x, geometry)

    @staticmethod
    def backward(ctx, gy):
        if isinstance(gy, Tensor):
            return Fold.apply(gy, geometry=ctx.geometry)
        return _fold_array(gy, ctx.geometry)


def _pair(value, name, arg, least):
    """An int or a pair of ints, each >= least, as a pair."""
    if isinstance(value, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be an int, tuple or list, got Tensor")
    pair = (value, value) if isinstance(value, numbers.Integral) else tuple(value) \
        if isinstance(value, (tuple, list)) else None
    if pair is None or len(pair) != 2 or \
            any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in pair):
        raise TypeError(f"ops.{name}: {arg} must be an int or a pair of ints, got {value!r}")
    if any(v < least for v in pair):
        raise ValueError(f"ops.{name}: {arg} must be >= {least}, got {value!r}")
    return tuple(int(v) for v in pair)


def _output_size(output_size, name):
    if not isinstance(output_size, Tensor):
        raise TypeError(f"ops.{name}: output_size must be a Tensor, got "
                        f"{type(output_size).__name__}")
    if output_size._data.dtype.kind not in 'iu' or output_size.shape != (2,):
        raise ValueError(f"ops.{name}: output_size must be a Tensor of two ints, got "
                         f"{output_size.dtype} of shape {output_size.shape}")
    value_read(output_size)     # the output's shape comes from its values: read on the host
    size = tuple(int(v) for v in backend.to_host(output_size._data))
    if min(size) < 1:
        raise ValueError(f"ops.{name}: output_size must be positive, got {list(size)}")
    return size


def _col2im(x, output_size, kernel_size, dilation, padding, stride, name):
    """Fold of (N, C, kh * kw, L) blocks, checked."""
    if not isinstance(x, Tensor):
        raise TypeError(f"ops.{name}: input must be a Tensor, got {type(x).__name__}")
    if x._data.dtype not in _FLOATS:
        raise TypeError(f"ops.{name}: input must be a Float16, BFloat16, Float32 or Float64 tensor, got "
                        f"{x.dtype}")
    size = _output_size(output_size, name)
    kernel = _pair(kernel_size, name, 'kernel_size', 1)
    dilation = _pair(dilation, name, 'dilation', 1)
    padding = _pair(padding, name, 'padding', 0)
    stride = _pair(stride, name, 'stride', 1)
    blocks = tuple(_blocks(*args) for args in zip(size, kernel, dilation, padding, stride))
    if x.shape[2] != kernel[0] * kernel[1]:
        raise ValueError(f"ops.{name}: input of shape {x.shape} does not hold kernels of size "
                         f"{kernel} ({kernel[0] * kernel[1]} values per block)")
    if min(blocks) < 1 or x.shape[3] != blocks[0] * blocks[1]:
        raise ValueError(f"ops.{name}: input of shape {x.shape} holds {x.shape[3]} blocks, "
                         f"the output size {list(size)} has {max(blocks[0], 0)} x "
                         f"{max(blocks[1], 0)}")
    geometry = (kernel, dilation, padding, stride, blocks, size)
    return Fold.apply(x, geometry=geometry)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums sliding blocks into an image: (N, C * kh * kw, L) to (N, C, H, W), where the
    blocks overlap their values add (the adjoint of ``unfold``).

    Args:
        input (Tensor): (N, C * kh * kw, L) of Float16, BFloat16, Float32 or Float64.
        output_size (Tensor): (H, W), two ints.
        kernel_size, dilation, padding, stride (Union[int, tuple[int], list[int]]): one value
            for both axes or a pair (height, width). Default dilation 1, padding 0, stride 1.

    Raises:
        TypeError: input is not a floating Tensor, output_size not a Tensor, or a size not an
            int or a pair of ints.
        ValueError: input not 3-d, sizes out of range, or a block count that does not fit the
            output size.

    >>> import hookgrad as ms
    >>> x = ms.ops.ones((1, 4, 4))
    >>> ms.ops.fold(x, ms.Tensor([3, 3], ms.int32), 2).asnumpy()[0, 0].tolist()
    [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.fold: input must be a Tensor, got {type(input).__name__}")
    if input.ndim != 3:
        raise ValueError(f"ops.fold: input must be 3-d (N, C * kh * kw, L), got shape "
                         f"{input.shape}")
    kernel = _pair(kernel_size, 'fold', 'kernel_size', 1)
    n, rows, length = input.shape
    if rows % (kernel[0] * kernel[1]):
        raise ValueError(f"ops.fold: input of shape {input.shape} does not hold kernels of size "
                         f"{kernel} ({rows} is not a multiple of {kernel[0] * kernel[1]})")
    x = input.reshape(n, rows // (kernel[0] * kernel[1]), kernel[0] * kernel[1], length)
    return _col2im(x, output_size, kernel, dilation, padding, stride, 'fold')


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """Sums sliding blocks into an image: (N, C, kh * kw, L) to (N, C, H, W) (``fold`` with
    the kernel positions on their own axis).

    Args:
        input_x (Tensor): (N, C, kh * kw, L) of Float16, BFloat16, Float32 or Float64.
        output_size (Tensor): (H, W), two ints.
        kernel_size, dilation, padding_value, stride (Union[int, tuple[int], list[int]]): one
            value for both axes or a pair (height, width).

    Raises:
        TypeError, ValueError: as ``fold``; input_x must be 4-d.
    """
    if isinstance(input_x, Tensor) and input_x.ndim != 4:
        raise ValueError(f"ops.col2im: input_x must be 4-d (N, C, kh * kw, L), got shape "
                         f"{input_x.shape}")
    return _col2im(input_x, output_size, kernel_size, dilation, padding_value, stride, 'col2im')


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding blocks of an image as columns: (N, C, H, W) to (N, C * kh * kw, L), the
    kernel position inside the channel and the L blocks row-major (the adjoint of ``fold``).

    Args:
        input (Tensor): (N, C, H, W) of Float16, BFloat16, Float32 or Float64.
        kernel_size, dilation, padding, stride (Union[int, tuple[int], list[int]]): one value
            for both axes or a pair (height, width). Default dilation 1, padding 0, stride 1.

    Raises:
        TypeError: input is not a floating Tensor, or a size not an int or a pair of ints.
        ValueError: input not 4-d, sizes out of range, or no block fits the padded image.

    >>> import hookgrad as ms
    >>> x = ms.ops.arange(9.0).reshape(1, 1, 3, 3)
    >>> ms.ops.unfold(x, 2).asnumpy()[0].tolist()
    [[0.0, 1.0, 3.0, 4.0], [1.0, 2.0, 4.0, 5.0], [3.0, 4.0, 6.0, 7.0], [4.0, 5.0, 7.0, 8.0]]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.unfold: input must be a Tensor, got {type(input).__name__}")
    if input._data.dtype not in _FLOATS:
        raise TypeError(f"ops.unfold: input must be a Float16, BFloat16, Float32 or Float64 tensor, got "
                        f"{input.dtype}")
    if input.ndim != 4:
        raise ValueError(f"ops.unfold: input must be 4-d (N, C, H, W), got shape {input.shape}")
    kernel = _pair(kernel_size, 'unfold', 'kernel_size', 1)
    dilation = _pair(dilation, 'unfold', 'dilation', 1)
    padding = _pair(padding, 'unfold', 'padding', 0)
    stride = _pair(stride, 'unfold', 'stride', 1)
    size = tuple(input.shape[2:])
    blocks = tuple(_blocks(*args) for args in zip(size, kernel, dilation, padding, stride))
    if min(blocks) < 1:
        raise ValueError(f"ops.unfold: no block of size {kernel} (dilation {dilation}) fits "
                         f"the image of shape {input.shape} padded by {padding}")
    geometry = (kernel, dilation, padding, stride, blocks, size)
    y = Unfold.apply(input, geometry=geometry)
    n, c = input.shape[:2]
    return y.reshape(n, c * kernel[0] * kernel[1], blocks[0] * blocks[1])
