"""MindSpore's Primitive classes of feature-map layers: GridSampler2D/3D, MaxUnpool2D/3D,
CropAndResize, ChannelShuffle, RmsNorm, PopulationCount, Conv3D, Conv3DTranspose, Dropout3D
and MultilabelMarginLoss.

Each calls the functional op of ``hookgrad/ops`` (feature_maps.py, layer_forms.py,
conv3d.py, crop_resize.py, grid_sampling.py): the same code, graph and errors. Constructor and
call arguments follow MindSpore 2.10's Primitives.
"""
from .. import conv3d as _conv3d, feature_maps as _maps, layer_forms as _forms
from ..broadcasting import broadcast_to
from ..conv import as_ints, same_padding
from ..crop_resize import crop_and_resize
from ..grid_sampling import grid_sample
from ..random import Dropout2D, _channel_input, check_keep_prob
from ..shaping import reshape
from ._primitive import Primitive

__all__ = ['GridSampler2D', 'GridSampler3D', 'MaxUnpool2D', 'MaxUnpool3D', 'CropAndResize', 'ChannelShuffle',
           'RmsNorm', 'PopulationCount', 'Conv3D', 'Conv3DTranspose', 'Dropout3D',
           'MultilabelMarginLoss']


class GridSampler2D(Primitive):
    """``GridSampler2D(interpolation_mode='bilinear', padding_mode='zeros',
    align_corners=False)(input_x, grid)``; see ``ops.grid_sample``."""
    def __init__(self, interpolation_mode='bilinear', padding_mode='zeros', align_corners=False):
        super().__init__(interpolation_mode=interpolation_mode, padding_mode=padding_mode,
                         align_corners=align_corners)

    def construct(self, input_x, grid):
        return grid_sample(input_x, grid, self.interpolation_mode, self.padding_mode,
                           self.align_corners)


class GridSampler3D(GridSampler2D):
    """``GridSampler3D(interpolation_mode='bilinear', padding_mode='zeros',
    align_corners=False)(input_x, grid)`` of an (N, C, D, H, W) input_x and an
    (N, Do, Ho, Wo, 3) grid; see ``ops.grid_sample``."""


class _MaxUnpool(Primitive):
    _k = 2

    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format=None):
        fmt = 'NCHW' if self._k == 2 else 'NCDHW'
        data_format = fmt if data_format is None else data_format
        if data_format != fmt:
            raise ValueError(f"ops.{type(self).__name__}: data_format must be {fmt!r}, got "
                             f"{data_format!r}")
        super().__init__(ksize=ksize, strides=strides, pads=pads, output_shape=output_shape,
                         data_format=data_format)

    def construct(self, x, argmax):
        size = tuple(self.output_shape) or None
        stride = None if self.strides in (0, (0,) * self._k) else self.strides
        unpool = _maps.max_unpool2d if self._k == 2 else _maps.max_unpool3d
        return unpool(x, argmax, self.ksize, stride, self.pads, size)


class MaxUnpool2D(_MaxUnpool):
    """``MaxUnpool2D(ksize, strides=0, pads=0, output_shape=(), data_format='NCHW')(x,
    argmax)``: strides 0 means ksize; see ``ops.max_unpool2d``."""
    _k = 2


class MaxUnpool3D(_MaxUnpool):
    """``MaxUnpool3D(ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW')(x,
    argmax)``; see ``ops.max_unpool3d``."""
    _k = 3


class CropAndResize(Primitive):
    """``CropAndResize(method='bilinear', extrapolation_value=0.0)(x, boxes, box_index,
    crop_size)``; see ``ops.crop_and_resize``."""
    def __init__(self, method='bilinear', extrapolation_value=0.0):
        super().__init__(method=method, extrapolation_value=extrapolation_value)

    def construct(self, x, boxes, box_index, crop_size):
        return crop_and_resize(x, boxes, box_index, crop_size, self.method,
                               self.extrapolation_value)


class ChannelShuffle(Primitive):
    """``ChannelShuffle(group)(x)``: the channels of (N, C, *) seen as (group, C / group) and
    transposed; see ``ops.channel_shuffle``."""
    def __init__(self, group):
        super().__init__(group=group)

    def construct(self, x):
        return _maps.channel_shuffle(x, self.group)


class RmsNorm(Primitive):
    """``RmsNorm(epsilon=1e-6)(x, gamma)``: ``(y, rstd)``; see ``ops.rms_norm``."""
    def __init__(self, epsilon=1e-6):
        super().__init__(epsilon=epsilon)

    def construct(self, x, gamma):
        return _forms.rms_norm(x, gamma, self.epsilon)


class PopulationCount(Primitive):
    """``PopulationCount()(input_x)``: UInt8 counts of 1 bits; see ``ops.population_count``."""
    def construct(self, input_x):
        return _forms.population_count(input_x)


def _pads6(pad, pad_mode, prim):
    pads = as_ints(pad, 6, f"ops.{prim}", 'pad', minimum=0)
    if pad_mode != 'pad' and any(pads):
        raise ValueError(f"ops.{prim}: pad must be 0 when pad_mode is {pad_mode!r}, got {pad!r}")
    return pads


class Conv3D(Primitive):
    """``Conv3D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1,
    dilation=1, group=1, data_format='NCDHW')(x, weight)``: 3-d cross-correlation; ``pad`` an
    int or six ints (head, tail, top, bottom, left, right) with pad_mode 'pad'."""
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1,
                 dilation=1, group=1, data_format='NCDHW'):
        if pad_mode not in ('valid', 'same', 'pad'):
            raise ValueError(f"ops.Conv3D: pad_mode must be 'valid', 'same' or 'pad', got "
                             f"{pad_mode!r}")
        if data_format != 'NCDHW':
            raise ValueError(f"ops.Conv3D: data_format must be 'NCDHW', got {data_format!r}")
        super().__init__(out_channel=out_channel, kernel_size=kernel_size, mode=mode,
                         pad_mode=pad_mode, pad=pad, stride=stride, dilation=dilation,
                         group=group, data_format=data_format)
        self._pads = _pads6(pad, pad_mode, 'Conv3D')
        self._stride = as_ints(stride, 3, 'ops.Conv3D', 'stride')
        self._dilation = as_ints(dilation, 3, 'ops.Conv3D', 'dilation')

    def construct(self, x, weight):
        pads = self._pads
        if self.pad_mode == 'same':
            pads = sum((same_padding(n, k, s, d) for n, k, s, d in
                        zip(x.shape[2:], weight.shape[2:], self._stride, self._dilation)), ())
        return _conv3d.convolve_3d(x, weight, None, pads, self._stride, self._dilation,
                                   self.group, 'ops.Conv3D')


class Conv3DTranspose(Primitive):
    """``Conv3DTranspose(in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0,
    stride=1, dilation=1, group=1, output_padding=0, data_format='NCDHW')(dout, weight)``; see
    ``ops.conv3d_transpose``."""
    def __init__(self, in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0,
                 stride=1, dilation=1, group=1, output_padding=0, data_format='NCDHW'):
        if data_format != 'NCDHW':
            raise ValueError(f"ops.Conv3DTranspose: data_format must be 'NCDHW', got "
                             f"{data_format!r}")
        super().__init__(in_channel=in_channel, out_channel=out_channel,
                         kernel_size=kernel_size, mode=mode, pad_mode=pad_mode, pad=pad,
                         stride=stride, dilation=dilation, group=group,
                         output_padding=output_padding, data_format=data_format)

    def construct(self, dout, weight):
        return _conv3d.conv3d_transpose(dout, weight, self.pad_mode, self.pad, self.stride,
                                        self.dilation, self.group, self.output_padding)


class Dropout3D(Primitive):
    """``Dropout3D(keep_prob=0.5)(x)``: ``(output, mask)`` for an (N, C, D, H, W) x, each
    channel kept whole with probability keep_prob and scaled by ``1 / keep_prob``; the mask
    is Bool of x's shape."""
    def __init__(self, keep_prob=0.5):
        check_keep_prob(keep_prob, 'Dropout3D', allow_zero=True)
        super().__init__(keep_prob=keep_prob)

    def construct(self, x):
        x = _channel_input(x, 'Dropout3D')
        if x.ndim != 5:
            raise ValueError(f"ops.Dropout3D: x must be 5-d (N, C, D, H, W), got shape "
                             f"{x.shape}")
        n, c = x.shape[:2]
        y, mask = Dropout2D.apply(reshape(x, (n, c, -1, 1)), keep_prob=self.keep_prob,
                                  rng=None)
        return reshape(y, x.shape), broadcast_to(reshape(mask, (n, c, 1, 1, 1)), x.shape)


class MultilabelMarginLoss(Primitive):
    """``MultilabelMarginLoss(reduction='mean')(x, target)``: ``(loss, is_target)``, is_target
    the target's dtype, 1 at each class listed before the first -1; see
    ``ops.multilabel_margin_loss``."""
    def __init__(self, reduction='mean'):
        super().__init__(reduction=reduction)

    def construct(self, x, target):
        return (_forms.multilabel_margin_loss(x, target, self.reduction),
                _forms.label_mask(target))
