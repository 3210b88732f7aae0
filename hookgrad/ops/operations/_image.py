"""MindSpore's Primitive classes for NCHW images: convolution and its input gradient,
pooling, padding, resizing and depth/space rearrangement.

Each computes through hookgrad's ops (convolution ops, pooling ops, matrix products with
fixed interpolation matrices, gathers, reshapes), so it is differentiable and observed like
them. Constructor and call arguments follow MindSpore 2.10's Primitives.
"""
import numpy as np

from ..._dtype import int32 as _int32, int64 as _int64
from ..._tensor import Tensor
from .._base import as_tensor
from ..conv import Conv2DBackpropInput as _BackpropInput
from ..conv import _is_int, as_ints, as_pad_mode, as_padding, conv2d, out_length, same_padding
from .. import (arithmetic as _arith, indexing as _index, nn_pad as _pad,
               pooling as _pool, resize as _resize, shaping as _shape)
from ._primitive import Primitive, _constant, _flag, _int_dtype

__all__ = ['Conv2D', 'Conv2DBackpropInput', 'Conv2DTranspose', 'MaxPool', 'MaxPoolWithArgmax',
           'MaxPoolWithArgmaxV2', 'AvgPool', 'AdaptiveAvgPool2D', 'Pad', 'MirrorPad',
           'ResizeBicubic', 'ResizeBilinearV2', 'ResizeNearestNeighbor', 'DepthToSpace',
           'SpaceToDepth']


def _last_two(value):
    """MindSpore's (1, 1, h, w) form of a kernel, stride or dilation as (h, w)."""
    if isinstance(value, (tuple, list)) and len(value) == 4 and tuple(value[:2]) == (1, 1):
        return tuple(value[2:])
    return value


def _image(x, prim):
    x = as_tensor(x, 'x')
    if x.ndim != 4:
        raise ValueError(f"ops.{prim}: input must be 4-d (N, C, H, W), got shape {x.shape}")
    return x


def _nchw(data_format, prim):
    if data_format != 'NCHW':
        raise ValueError(f"ops.{prim}: data_format must be 'NCHW', got {data_format!r}")
    return data_format


# ----------------------------------------------------------------------------- convolution
class Conv2D(Primitive):
    """``Conv2D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1,
    dilation=1, group=1, data_format='NCHW')(x, weight)``: ``conv2d`` without bias.

    ``kernel_size``, ``stride`` and ``dilation`` are an int or a pair (stride and dilation also
    accept MindSpore's four-int form (1, 1, h, w)); ``pad`` is an int or four ints (top,
    bottom, left, right) used with pad_mode 'pad'. ``mode`` is accepted and unused.

    Raises:
        ValueError: for bad attributes, a data_format other than 'NCHW', or a weight whose
            shape does not match out_channel and kernel_size (at call time).
    """

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1,
                 dilation=1, group=1, data_format='NCHW'):
        where = 'ops.Conv2D'
        out_channel = as_ints(out_channel, 1, where, 'out_channel')[0]
        kernel_size = as_ints(kernel_size, 2, where, 'kernel_size')
        if not _is_int(mode):
            raise TypeError(f"{where}: mode must be an int, got {mode!r}")
        pad_mode = as_pad_mode(pad_mode, where)
        as_padding(pad, pad_mode, where)
        stride = as_ints(_last_two(stride), 2, where, 'stride')
        dilation = as_ints(_last_two(dilation), 2, where, 'dilation')
        group = as_ints(group, 1, where, 'group')[0]
        if data_format != 'NCHW':
            raise ValueError(f"{where}: data_format must be 'NCHW', got {data_format!r}")
        super().__init__(out_channel=out_channel, kernel_size=kernel_size, mode=mode,
                         pad_mode=pad_mode, pad=pad, stride=stride, dilation=dilation,
                         group=group, data_format=data_format)

    def construct(self, x, weight):
        w = as_tensor(weight, 'weight')
        if w.ndim == 4 and (w.shape[0] != self.out_channel or w.shape[2:] != self.kernel_size):
            raise ValueError(f"ops.Conv2D: weight of shape {w.shape} does not match "
                             f"out_channel={self.out_channel} and "
                             f"kernel_size={self.kernel_size}")
        return conv2d(x, w, None, self.stride, self.pad_mode, self.pad, self.dilation,
                      self.group)


class Conv2DBackpropInput(Primitive):
    """``Conv2DBackpropInput(out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=None,
    mode=1, stride=1, dilation=1, group=1, data_format='NCHW')(dout, weight, input_size)``:
    the gradient of ``Conv2D`` with respect to its input, a transposed convolution.

    ``weight`` is the forward convolution's (C_out, C_in / group, kh, kw); ``dout`` is
    (N, C_out, H_out, W_out) and the result (N, C_in, *input_size[2:]). ``pad_list`` (four
    ints: top, bottom, left, right) overrides ``pad``.

    Raises:
        ValueError: for bad attributes, or an input_size whose convolution would not give
            dout's spatial size.
    """
    def __init__(self, out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=None,
                 mode=1, stride=1, dilation=1, group=1, data_format='NCHW'):
        where = f'ops.{type(self).__name__}'
        out_channel = as_ints(out_channel, 1, where, 'out_channel')[0]
        kernel_size = as_ints(_last_two(kernel_size), 2, where, 'kernel_size')
        pad_mode = as_pad_mode(pad_mode, where)
        pads = as_padding(pad, pad_mode, where)
        if pad_list is not None:
            pads = as_padding(pad_list, 'pad', where)
            if len(tuple(pad_list)) != 4:
                raise ValueError(f"{where}: pad_list must hold 4 ints, got {pad_list!r}")
        super().__init__(out_channel=out_channel, kernel_size=kernel_size, pad_mode=pad_mode,
                         pad=pad, pad_list=pad_list, mode=mode,
                         stride=as_ints(_last_two(stride), 2, where, 'stride'),
                         dilation=as_ints(_last_two(dilation), 2, where, 'dilation'),
                         group=as_ints(group, 1, where, 'group')[0],
                         data_format=_nchw(data_format, type(self).__name__))
        self._pads = pads

    def construct(self, dout, weight, input_size):
        where = f'ops.{type(self).__name__}'
        gy, w = _image(dout, type(self).__name__), as_tensor(weight, 'weight')
        size = tuple(int(v) for v in (input_size.tolist() if isinstance(input_size, Tensor)
                                      else input_size))
        if len(size) != 4 or w.ndim != 4:
            raise ValueError(f"{where}: input_size must hold 4 ints and weight be 4-d, got "
                             f"{size} and weight of shape {w.shape}")
        if w.shape[0] != gy.shape[1] or w.shape[1] * self.group != size[1]:
            raise ValueError(f"{where}: weight of shape {w.shape} with group={self.group} does "
                             f"not map dout of shape {gy.shape} to input_size {size}")
        (h, wd), (kh, kw) = size[2:], w.shape[2:]
        pads = self._pads
        if self.pad_mode == 'same':
            pads = (same_padding(h, kh, self.stride[0], self.dilation[0])
                    + same_padding(wd, kw, self.stride[1], self.dilation[1]))
        expect = (out_length(h + pads[0] + pads[1], kh, self.stride[0], self.dilation[0]),
                  out_length(wd + pads[2] + pads[3], kw, self.stride[1], self.dilation[1]))
        if expect != gy.shape[2:]:
            raise ValueError(f"{where}: input_size {size} convolves to spatial size {expect}, "
                             f"but dout has {gy.shape[2:]}")
        return _BackpropInput.apply(gy, w, input_size=(h, wd), stride=self.stride,
                                    padding=tuple(pads), dilation=self.dilation,
                                    groups=self.group)


class Conv2DTranspose(Conv2DBackpropInput):
    """``Conv2DTranspose(out_channel, kernel_size, ...)(dout, weight, input_size)``: the
    transposed convolution, the same computation as ``Conv2DBackpropInput``."""


# ----------------------------------------------------------------------------- pooling
def _pool_pads(x, kernel, stride, pad_mode):
    """(top, bottom, left, right): none for 'valid'; for 'same' the output is
    ceil(size / stride) and the padding is split with the odd one at the bottom/right."""
    if pad_mode == 'valid':
        return (0, 0, 0, 0)
    pads = ()
    for size, k, s in zip(x.shape[2:], kernel, stride):
        total = max((-(-size // s) - 1) * s + k - size, 0)
        pads += (total // 2, total - total // 2)
    return pads


class _Pool(Primitive):
    def __init__(self, kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW'):
        prim = type(self).__name__
        where = f'ops.{prim}'
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ('same', 'valid'):
            raise ValueError(f"{where}: pad_mode must be 'same' or 'valid', got {pad_mode!r}")
        super().__init__(kernel_size=as_ints(_last_two(kernel_size), 2, where, 'kernel_size'),
                         strides=as_ints(_last_two(strides), 2, where, 'strides'),
                         pad_mode=pad_mode.upper(), data_format=_nchw(data_format, prim))

    def _pads(self, x):
        return _pool_pads(x, self.kernel_size, self.strides, self.pad_mode.lower())


class MaxPool(_Pool):
    """``MaxPool(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x)``: the
    maximum of each window; 'same' keeps ceil(size / strides) windows, padding with -inf."""
    def construct(self, x):
        x = _pool._pool_input(x, 'ops.MaxPool', 'fiu')
        return _pool.max_pool(x, self.kernel_size, self.strides, self._pads(x), (1, 1), False,
                              False, 'ops.MaxPool')


class MaxPoolWithArgmax(_Pool):
    """``MaxPoolWithArgmax(kernel_size=1, strides=1, pad_mode='valid')(x)``: ``(output,
    argmax)``, argmax the Int32 position of each maximum in its (H, W) plane."""
    def construct(self, x):
        x = _pool._pool_input(x, 'ops.MaxPoolWithArgmax', 'f')
        y, index = _pool.max_pool(x, self.kernel_size, self.strides, self._pads(x), (1, 1),
                                  False, True, 'ops.MaxPoolWithArgmax')
        return y, _arith.cast(index, _int32)


class MaxPoolWithArgmaxV2(Primitive):
    """``MaxPoolWithArgmaxV2(kernel_size, strides=None, pads=0, dilation=(1, 1),
    ceil_mode=False, argmax_type=int64)(x)``: ``(output, argmax)``, argmax the position of each
    maximum in its (H, W) plane."""
    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=_int64):
        where = 'ops.MaxPoolWithArgmaxV2'
        kernel = as_ints(kernel_size, 2, where, 'kernel_size')
        super().__init__(kernel_size=kernel,
                         strides=kernel if strides is None else as_ints(strides, 2, where,
                                                                        'strides'),
                         pads=as_ints(pads, 2, where, 'pads', minimum=0),
                         dilation=as_ints(dilation, 2, where, 'dilation'),
                         ceil_mode=_flag(ceil_mode, 'MaxPoolWithArgmaxV2', 'ceil_mode'),
                         argmax_type=_int_dtype(argmax_type, 'MaxPoolWithArgmaxV2',
                                                'argmax_type'))

    def construct(self, x):
        y, index = _pool.max_pool2d(x, self.kernel_size, self.strides, self.pads,
                                    self.dilation, True, self.ceil_mode)
        return y, _arith.cast(index, self.argmax_type)


class AvgPool(_Pool):
    """``AvgPool(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x)``: the
    mean of each window; with 'same' the padding is not counted."""
    def construct(self, x):
        x = _pool._pool_input(x, 'ops.AvgPool')
        return _pool.avg_pool(x, self.kernel_size, self.strides, self._pads(x), False, False,
                              None, 'ops.AvgPool')


class AdaptiveAvgPool2D(Primitive):
    """``AdaptiveAvgPool2D(output_size)(input_x)``: average pooling to ``output_size`` (an int
    or a pair; None keeps that size)."""
    def __init__(self, output_size):
        _pool.adaptive_output_size(output_size, (1, 1), 'ops.AdaptiveAvgPool2D')
        super().__init__(output_size=output_size)

    def construct(self, input_x):
        return _pool.adaptive_avg_pool2d(input_x, self.output_size)


# ----------------------------------------------------------------------------- padding
class Pad(Primitive):
    """``Pad(paddings)(input_x)``: zeros added, ``paddings[i] = (before, after)`` for
    dimension i.

    Raises:
        TypeError: when paddings is not a tuple of pairs of ints.
        ValueError: for negative amounts or a pair count other than input_x's rank.
    """
    def __init__(self, paddings):
        if not isinstance(paddings, (tuple, list)) or not all(
                isinstance(p, (tuple, list)) and all(isinstance(v, int) and
                                                     not isinstance(v, bool) for v in p)
                for p in paddings):
            raise TypeError(f"ops.Pad: paddings must be a tuple of (before, after) int pairs, "
                            f"got {paddings!r}")
        super().__init__(paddings=tuple(tuple(p) for p in paddings))

    def construct(self, input_x):
        x = as_tensor(input_x, 'input_x')
        return _pad.padded(x, _pad.pad_pairs(self.paddings, x.ndim, 'Pad'), 'constant', 0, 'Pad')


class MirrorPad(Primitive):
    """``MirrorPad(mode='REFLECT')(input_x, paddings)``: x extended by its mirror image;
    'REFLECT' leaves out the edge element, 'SYMMETRIC' repeats it. ``paddings`` is an
    (ndim, 2) integer Tensor of (before, after) amounts."""
    def __init__(self, mode='REFLECT'):
        super().__init__(mode=_pad.mirror_mode(mode, 'MirrorPad'))

    def construct(self, input_x, paddings):
        return _pad.mirror_padded(input_x, paddings, self.mode, 'MirrorPad')


# ----------------------------------------------------------------------------- resizing
def _size(size, prim):
    items = size.tolist() if isinstance(size, Tensor) else size
    if not isinstance(items, (tuple, list)) or len(items) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in items):
        raise ValueError(f"ops.{prim}: size must hold 2 positive ints, got {size!r}")
    return tuple(items)


def _resize_flags(align_corners, half_pixel_centers, prim):
    align = _flag(align_corners, prim, 'align_corners')
    half = _flag(half_pixel_centers, prim, 'half_pixel_centers')
    if align and half:
        raise ValueError(f"ops.{prim}: align_corners must be False when half_pixel_centers is "
                         f"True")
    return align, half


class _FloatingResize(Primitive):
    """``Prim(align_corners=False, half_pixel_centers=False)(images, size)`` of a 4-d floating
    image, by the subclass's ``resize(x, size, align_corners, half_pixel_centers)``."""
    def __init__(self, align_corners=False, half_pixel_centers=False):
        name = type(self).__name__
        align, half = _resize_flags(align_corners, half_pixel_centers, name)
        super().__init__(align_corners=align, half_pixel_centers=half)

    def construct(self, images, size):
        name = type(self).__name__
        x = _image(images, name)
        if x._data.dtype.kind not in 'fV':
            raise TypeError(f"ops.{name}: {self.input_name} must be floating, got {x.dtype}")
        return type(self).resize(x, _size(size, name), self.align_corners,
                                 self.half_pixel_centers)


class ResizeBilinearV2(_FloatingResize):
    """``ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(image, size)``: an
    (N, C, H, W) image resized to ``size`` = (new_h, new_w) by bilinear interpolation.

    Computed as ``A_h @ image @ A_w.T`` with fixed interpolation matrices, so gradients reach
    the image.
    """
    input_name = 'image'
    resize = staticmethod(_resize.resize_bilinear)


class ResizeBicubic(_FloatingResize):
    """``ResizeBicubic(align_corners=False, half_pixel_centers=False)(images, size)``: an
    (N, C, H, W) floating image resized to ``size`` = (new_h, new_w) by bicubic interpolation
    (TensorFlow's definition, as MindSpore: half-pixel centres use Keys' kernel with
    a = -0.5 renormalized over the taps inside the image; align_corners and the legacy
    ``src = i * in / out`` use a = -0.75 with the taps clamped to the border).

    Computed as ``A_h @ images @ A_w.T`` with fixed interpolation matrices, so gradients reach
    the image.

    Raises:
        TypeError: for a non-bool flag or a non-floating image.
        ValueError: for both flags True, an image that is not 4-d, or a size that is not 2
            positive ints.
    """
    input_name = 'images'
    resize = staticmethod(_resize.resize_bicubic)


class ResizeNearestNeighbor(Primitive):
    """``ResizeNearestNeighbor(size, align_corners=False, half_pixel_centers=False)(x)``: an
    (N, C, H, W) tensor resized to ``size`` by copying the nearest source element.

    The source index is ``floor(i * in / out)``; with align_corners
    ``round(i * (in - 1) / (out - 1))``; with half_pixel_centers ``floor((i + 0.5) * in /
    out)`` (TensorFlow's definition; MindSpore's CPU kernel ignores this flag).
    """
    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"ops.ResizeNearestNeighbor: size must be a tuple or list, got "
                            f"{size!r}")
        size = _size(size, 'ResizeNearestNeighbor')
        align, half = _resize_flags(align_corners, half_pixel_centers,
                                    'ResizeNearestNeighbor')
        super().__init__(size=size, align_corners=align, half_pixel_centers=half)

    def _index(self, n_in, n_out, x):
        source = _resize.source_coordinates
        if self.half_pixel_centers:
            src = np.floor(source(n_in, n_out, False, True) + np.float32(0.5))
        elif self.align_corners:
            src = np.floor(source(n_in, n_out, True, False) + np.float32(0.5))
        else:
            src = np.floor(source(n_in, n_out, False, False))
        return _constant(np.clip(src, 0, n_in - 1).astype(np.int64), x)

    def construct(self, input_x):
        x = _image(input_x, 'ResizeNearestNeighbor')
        (h, w), (ho, wo) = x.shape[2:], self.size
        y = _index.take(x, self._index(h, ho, x), 2)
        return _index.take(y, self._index(w, wo, x), 3)


# ----------------------------------------------------------------------------- depth, space
def _block(block_size, prim):
    if isinstance(block_size, bool) or not isinstance(block_size, int):
        raise TypeError(f"ops.{prim}: block_size must be an int, got {block_size!r}")
    if block_size < 2:
        raise ValueError(f"ops.{prim}: block_size must be >= 2, got {block_size}")
    return block_size


class DepthToSpace(Primitive):
    """``DepthToSpace(block_size)(x)``: (N, C * b * b, H, W) to (N, C, H * b, W * b), the
    channel ``(i * b + j) * C + c`` moving to offset (i, j) of each b x b block."""
    def __init__(self, block_size):
        super().__init__(block_size=_block(block_size, 'DepthToSpace'))

    def construct(self, x):
        x = _image(x, 'DepthToSpace')
        n, c, h, w = x.shape
        b = self.block_size
        if c % (b * b):
            raise ValueError(f"ops.DepthToSpace: the {c} channels of x are not divisible by "
                             f"block_size ** 2 = {b * b}")
        y = _shape.transpose(_shape.reshape(x, (n, b, b, c // (b * b), h, w)),
                             (0, 3, 4, 1, 5, 2))
        return _shape.reshape(y, (n, c // (b * b), h * b, w * b))


class SpaceToDepth(Primitive):
    """``SpaceToDepth(block_size)(x)``: (N, C, H, W) to (N, C * b * b, H / b, W / b), the
    inverse of ``DepthToSpace``."""
    def __init__(self, block_size):
        super().__init__(block_size=_block(block_size, 'SpaceToDepth'))

    def construct(self, x):
        x = _image(x, 'SpaceToDepth')
        n, c, h, w = x.shape
        b = self.block_size
        if h % b or w % b:
            raise ValueError(f"ops.SpaceToDepth: the spatial size {(h, w)} of x is not "
                             f"divisible by block_size {b}")
        y = _shape.transpose(_shape.reshape(x, (n, c, h // b, b, w // b, b)),
                             (0, 3, 5, 1, 2, 4))
        return _shape.reshape(y, (n, b * b * c, h // b, w // b))
