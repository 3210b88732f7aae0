"""Layers that rearrange or mask their input: PixelShuffle, PixelUnshuffle, Unflatten,
ChannelShuffle, Unfold, Dropout1d, Dropout3d and Softmax2d (MindSpore 2.x signatures)."""
from ... import ops
from ..._tensor import Tensor
from ...ops.conv import _is_int, same_padding
from ...ops.random import Dropout2D
from ..cell import Cell
from .basic import _positive_int

__all__ = ['PixelShuffle', 'PixelUnshuffle', 'Unflatten', 'ChannelShuffle', 'Unfold',
           'Dropout1d', 'Dropout3d', 'Softmax2d']


def _tensor(cell, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{type(cell).__name__} '{cell.path()}': expected a Tensor input, "
                        f"got {type(x).__name__}")
    return x


class PixelShuffle(Cell):
    """Rearrange (*, C * r * r, H, W) into (*, C, H * r, W * r): channel ``c * r * r + i * r +
    j`` becomes the pixel (i, j) of each r x r block of channel c.

    Args:
        upscale_factor: r, a positive int.

    Raises:
        TypeError / ValueError: for a bad upscale_factor, or an input with fewer than 3 axes
            or channels not divisible by r * r.

    >>> import hookgrad as ms
    >>> ms.nn.PixelShuffle(2)(ms.ops.ones((1, 8, 2, 3))).shape
    (1, 2, 4, 6)
    """

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _positive_int(upscale_factor, 'PixelShuffle', 'upscale_factor')

    def construct(self, input):
        x = _tensor(self, input)
        r = self.upscale_factor
        if x.ndim < 3 or x.shape[-3] % (r * r):
            raise ValueError(f"nn.PixelShuffle '{self.path()}': expected an input (*, C, H, W) "
                             f"with C divisible by upscale_factor ** 2 = {r * r}, got shape "
                             f"{x.shape}")
        return ops.pixel_shuffle(x, r)


class PixelUnshuffle(Cell):
    """The inverse of ``PixelShuffle``: (*, C, H * r, W * r) into (*, C * r * r, H, W).

    Args:
        downscale_factor: r, a positive int.

    Raises:
        TypeError / ValueError: for a bad downscale_factor, or an input with fewer than 3 axes
            or a height or width not divisible by r.
    """

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = _positive_int(downscale_factor, 'PixelUnshuffle',
                                              'downscale_factor')

    def construct(self, input):
        x = _tensor(self, input)
        r = self.downscale_factor
        if x.ndim < 3 or x.shape[-1] % r or x.shape[-2] % r:
            raise ValueError(f"nn.PixelUnshuffle '{self.path()}': expected an input (*, C, H, "
                             f"W) with H and W divisible by downscale_factor {r}, got shape "
                             f"{x.shape}")
        return ops.pixel_unshuffle(x, r)


class Unflatten(Cell):
    """Split axis ``axis`` of the input into ``unflattened_size``.

    Args:
        axis: the axis to split, an int (negative counts from the end).
        unflattened_size: a tuple or list of ints whose product is that axis's length (one
            entry may be -1).

    Raises:
        TypeError: for a non-int axis or an unflattened_size that is not a tuple or list.
        ValueError: when the sizes do not match the axis.

    >>> import hookgrad as ms
    >>> ms.nn.Unflatten(1, (2, 5))(ms.ops.ones((3, 10, 4))).shape
    (3, 2, 5, 4)
    """

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if not _is_int(axis):
            raise TypeError(f"nn.Unflatten: axis must be an int, got {axis!r}")
        if not isinstance(unflattened_size, (tuple, list)) or not all(
                _is_int(v) for v in unflattened_size):
            raise TypeError(f"nn.Unflatten: unflattened_size must be a tuple or list of ints, "
                            f"got {unflattened_size!r}")
        self.axis = int(axis)
        self.unflattened_size = tuple(int(v) for v in unflattened_size)

    def construct(self, input_x):
        x = _tensor(self, input_x)
        if not -x.ndim <= self.axis < x.ndim:
            raise ValueError(f"nn.Unflatten '{self.path()}': axis {self.axis} is out of range "
                             f"for an input of shape {x.shape}")
        a = self.axis % x.ndim
        sizes = self.unflattened_size
        known = 1
        for v in sizes:
            known *= v if v != -1 else 1
        if sizes.count(-1) > 1 or (x.shape[a] % known if -1 in sizes else
                                   known != x.shape[a]):
            raise ValueError(f"nn.Unflatten '{self.path()}': unflattened_size {sizes} does not "
                             f"match axis {self.axis} of length {x.shape[a]}")
        return ops.reshape(x, x.shape[:a] + sizes + x.shape[a + 1:])


class ChannelShuffle(Cell):
    """Interleave the channel groups of an (N, C, *) input: channels seen as (groups,
    C / groups) are transposed to (C / groups, groups).

    Args:
        groups: the number of groups, a positive int dividing C.

    Raises:
        TypeError / ValueError: for a bad groups, or an input with fewer than 3 axes or
            channels not divisible by groups.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([[[0.0], [1.0], [2.0], [3.0]]])
    >>> ms.nn.ChannelShuffle(2)(x).asnumpy().ravel().tolist()
    [0.0, 2.0, 1.0, 3.0]
    """

    def __init__(self, groups):
        super().__init__()
        if not _is_int(groups):
            raise TypeError(f"nn.ChannelShuffle: groups must be an int, got "
                            f"{type(groups).__name__}")
        if groups < 1:
            raise ValueError(f"nn.ChannelShuffle: groups must be larger than 0, got {groups}")
        self.groups = int(groups)

    def construct(self, x):
        x = _tensor(self, x)
        g = self.groups
        if x.ndim < 3 or x.shape[1] % g:
            raise ValueError(f"nn.ChannelShuffle '{self.path()}': expected an input (N, C, *) "
                             f"with C divisible by groups {g}, got shape {x.shape}")
        return ops.channel_shuffle(x, g)


def _patch_arg(value, arg):
    if not isinstance(value, (tuple, list)) or len(value) != 4 or value[0] != 1 or \
            value[3] != 1:
        raise ValueError(f"nn.Unfold: {arg}s must be [1, {arg}_row, {arg}_col, 1], got "
                         f"{value!r}")
    if not all(_is_int(v) and v >= 1 for v in value[1:3]):
        raise ValueError(f"nn.Unfold: {arg}_row and {arg}_col in {arg}s must be positive ints, "
                         f"got {value!r}")
    return int(value[1]), int(value[2])


class Unfold(Cell):
    """Extract image patches (TensorFlow's ``extract_image_patches``): each (kh, kw) window
    of an (N, C, H, W) input, sampled every ``rates`` pixels and moved by ``strides``,
    becomes the depth of one output pixel, ordered (row, column, channel) with the channel
    fastest: the output is (N, kh * kw * C, out_h, out_w).

    Args:
        ksizes, strides, rates: lists or tuples [1, row, col, 1] of positive ints.
        padding: 'valid' (windows inside the input; out = ceil((in - k' + 1) / stride), with
            k' = rate * (k - 1) + 1) or 'same' (out = ceil(in / stride), zeros split evenly,
            the odd one after). Default 'valid'.

    Raises:
        ValueError: for malformed ksizes, strides or rates, another padding, or an input that
            is not 4-d or smaller than a window.

    >>> import hookgrad as ms
    >>> unfold = ms.nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])
    >>> unfold(ms.ops.ones((1, 3, 4, 4))).shape
    (1, 12, 3, 3)
    """

    def __init__(self, ksizes, strides, rates, padding='valid'):
        super().__init__()
        self.ksizes = _patch_arg(ksizes, 'ksize')
        self.strides = _patch_arg(strides, 'stride')
        self.rates = _patch_arg(rates, 'rate')
        if not isinstance(padding, str) or padding.lower() not in ('valid', 'same'):
            raise ValueError(f"nn.Unfold: padding must be 'valid' or 'same', got {padding!r}")
        self.padding = padding.lower()

    def construct(self, input_x):
        x = _tensor(self, input_x)
        if x.ndim != 4:
            raise ValueError(f"nn.Unfold '{self.path()}': expected a 4-d input (N, C, H, W), "
                             f"got shape {x.shape}")
        (kh, kw), (sh, sw), (rh, rw) = self.ksizes, self.strides, self.rates
        n, c, h, w = x.shape
        if self.padding == 'same':
            pads = same_padding(h, kh, sh, rh) + same_padding(w, kw, sw, rw)
            if any(pads):
                x = ops.pad(x, (pads[2], pads[3], pads[0], pads[1]))
        oh = (x.shape[2] - rh * (kh - 1) - 1) // sh + 1
        ow = (x.shape[3] - rw * (kw - 1) - 1) // sw + 1
        if oh < 1 or ow < 1:
            raise ValueError(f"nn.Unfold '{self.path()}': the window {(kh, kw)} with rates "
                             f"{(rh, rw)} does not fit the input of shape {input_x.shape}")
        rows = [slice(i * rh, i * rh + (oh - 1) * sh + 1, sh) for i in range(kh)]
        cols = [slice(j * rw, j * rw + (ow - 1) * sw + 1, sw) for j in range(kw)]
        taps = [x[:, :, r, q] for r in rows for q in cols]
        y = ops.stack(taps, 1)                                  # (N, kh*kw, C, oh, ow)
        return ops.reshape(y, (n, kh * kw * c, oh, ow))


def _probability(p, cell):
    if not isinstance(p, float):
        raise TypeError(f"nn.{cell}: p must be a float, got {type(p).__name__}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"nn.{cell}: p must be in [0, 1], got {p}")
    return p


def _channel_dropout(x, p):
    """Zero whole (sample, channel) slices of x (N, C, *) with probability p; scale the rest
    by 1 / (1 - p). The channel mask of the 2-d op applies to any trailing shape."""
    n, c = x.shape[:2]
    y = Dropout2D.apply(ops.reshape(x, (n, c, -1, 1)), keep_prob=1.0 - p, rng=None)[0]
    return ops.reshape(y, x.shape)


class Dropout1d(Cell):
    """In training, zero whole channels of an (N, C, L) or (C, L) input with probability
    ``p`` and scale the rest by ``1 / (1 - p)``; in predict mode the identity.

    Args:
        p: the probability of dropping a channel, a float in [0, 1]. Default 0.5.

    Raises:
        TypeError: when p is not a float, or (in training) for a non-floating input.
        ValueError: when p is outside [0, 1], or (in training) the input is not 2-d or 3-d.
    """

    def __init__(self, p=0.5):
        super().__init__()
        self.prob = _probability(p, 'Dropout1d')

    def construct(self, x):
        if not self.training or self.prob == 0:
            return x
        _tensor(self, x)
        if x.ndim not in (2, 3):
            raise ValueError(f"nn.Dropout1d '{self.path()}': expected a 2-d or 3-d input, got "
                             f"shape {x.shape}")
        if x.ndim == 2:
            return ops.squeeze(_channel_dropout(ops.expand_dims(x, 0), self.prob), 0)
        return _channel_dropout(x, self.prob)


class Dropout3d(Cell):
    """In training, zero whole channels of an (N, C, D, H, W) input with probability ``p``
    and scale the rest by ``1 / (1 - p)``; in predict mode the identity.

    Args:
        p: the probability of dropping a channel, a float in [0, 1]. Default 0.5.

    Raises:
        TypeError / ValueError: as ``Dropout1d``, for inputs that are not 5-d.
    """

    def __init__(self, p=0.5):
        super().__init__()
        self.keep_prob = 1.0 - _probability(p, 'Dropout3d')

    def construct(self, x):
        if not self.training or self.keep_prob == 1:
            return x
        _tensor(self, x)
        if x.ndim != 5:
            raise ValueError(f"nn.Dropout3d '{self.path()}': expected a 5-d input (N, C, D, H, "
                             f"W), got shape {x.shape}")
        return _channel_dropout(x, 1.0 - self.keep_prob)

    def extend_repr(self):
        return f"p={self.keep_prob}"    # MindSpore 2.10 prints the keep probability as p


class Softmax2d(Cell):
    """Softmax over the channels (axis -3) of a (C, H, W) or (N, C, H, W) input.

    Raises:
        ValueError: for an input that is not 3-d or 4-d.

    >>> import hookgrad as ms
    >>> ms.nn.Softmax2d()(ms.ops.zeros((2, 1, 1))).asnumpy().ravel().tolist()
    [0.5, 0.5]
    """

    def construct(self, x):
        _tensor(self, x)
        if x.ndim not in (3, 4):
            raise ValueError(f"nn.Softmax2d '{self.path()}': expected a 3-d or 4-d input, got "
                             f"shape {x.shape}")
        return ops.softmax(x, -3)
