"""MindSpore's Primitive classes of 3-d and adaptive pooling: AvgPool3D, MaxPool3D,
AdaptiveAvgPool3D, AdaptiveMaxPool2D and AdaptiveMaxPool3D.

Each is a thin callable over the functional ops of ``hookgrad/ops/pooling_nd.py``: the same
code, graph and errors. Constructor and call arguments follow MindSpore 2.10's Primitives
(NCDHW only).
"""
from .. import pooling_nd as _pool
from ..conv import _is_int, as_ints, as_pad_mode, same_padding
from ..._tensor import Tensor
from ._primitive import Primitive, _flag

__all__ = ['AvgPool3D', 'MaxPool3D', 'AdaptiveAvgPool3D', 'AdaptiveMaxPool2D',
           'AdaptiveMaxPool3D']


def _pad_list(pad, prim):
    """Six paddings (front, back, top, bottom, left, right) from an int or six ints."""
    items = tuple(pad) if isinstance(pad, (tuple, list)) else (pad,)
    if len(items) not in (1, 3, 6) or not all(_is_int(v) and v >= 0 for v in items):
        raise ValueError(f"ops.{prim}: pad must be an int >= 0 or a tuple of six, got {pad!r}")
    if len(items) == 1:
        return items * 6
    if len(items) == 3:
        return (items[0], items[0], items[1], items[1], items[2], items[2])
    return tuple(int(v) for v in items)


class _Pool3D(Primitive):
    """What AvgPool3D and MaxPool3D share: kernel, strides, pad_mode, pads, data_format."""

    def _setup(self, kernel_size, strides, pad_mode, pad, data_format, **attrs):
        prim = type(self).__name__
        where = f"ops.{prim}"
        if data_format != 'NCDHW':
            raise ValueError(f"{where}: data_format must be 'NCDHW', got {data_format!r}")
        mode = as_pad_mode(pad_mode, where)
        pads = _pad_list(pad, prim)
        if mode != 'pad' and any(pads):
            raise ValueError(f"{where}: pad must be 0 when pad_mode is {pad_mode!r}, got {pad!r}")
        super().__init__(kernel_size=as_ints(kernel_size, 3, where, 'kernel_size'),
                         strides=as_ints(strides, 3, where, 'strides'), pad_mode=mode,
                         pad_list=pads, data_format=data_format, **attrs)

    def _pads(self, x):
        if self.pad_mode != 'same':
            return self.pad_list
        return sum((same_padding(n, k, s, 1) for n, k, s in
                    zip(x.shape[2:], self.kernel_size, self.strides)), ())

    def _input(self, x):
        if not hasattr(x, 'ndim') or x.ndim != 5:
            raise ValueError(f"ops.{self.name}: x must be a 5-d (N, C, D, H, W) Tensor, got "
                             f"{getattr(x, 'shape', type(x).__name__)}")
        return x


class AvgPool3D(_Pool3D):
    """``AvgPool3D(kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False,
    count_include_pad=True, divisor_override=0, data_format='NCDHW')(x)``: 3-d average
    pooling; the 'same' padding counts in the divisor when count_include_pad is True."""
    def __init__(self, kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=0, data_format='NCDHW'):
        if not _is_int(divisor_override) or divisor_override < 0:
            raise ValueError(f"ops.AvgPool3D: divisor_override must be an int >= 0, got "
                             f"{divisor_override!r}")
        self._setup(kernel_size, strides, pad_mode, pad, data_format,
                    ceil_mode=_flag(ceil_mode, 'AvgPool3D', 'ceil_mode'),
                    count_include_pad=_flag(count_include_pad, 'AvgPool3D', 'count_include_pad'),
                    divisor_override=divisor_override)

    def construct(self, x):
        return _pool.avg_pool3d(self._input(x), self.kernel_size, self.strides, self._pads(x),
                                self.ceil_mode, self.count_include_pad, self.divisor_override)


class MaxPool3D(_Pool3D):
    """``MaxPool3D(kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None,
    data_format='NCDHW')(x)``: 3-d max pooling (ceil_mode only with pad_mode 'pad')."""
    def __init__(self, kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None,
                 data_format='NCDHW'):
        ceil = False if ceil_mode is None else _flag(ceil_mode, 'MaxPool3D', 'ceil_mode')
        self._setup(kernel_size, strides, pad_mode, pad_list, data_format, ceil_mode=ceil)

    def construct(self, x):
        x = self._input(x)
        return _pool.max_pool3d_padded(x, self.kernel_size, self.strides, self._pads(x),
                                       (1, 1, 1), self.ceil_mode, False, 'ops.MaxPool3D')


class AdaptiveAvgPool3D(Primitive):
    """``AdaptiveAvgPool3D(output_size)(x)``: average pooling to a fixed (D, H, W) size."""
    def __init__(self, output_size):
        super().__init__(output_size=output_size)

    def construct(self, x):
        return _pool.adaptive_avg_pool3d(x, self.output_size)


class AdaptiveMaxPool2D(Primitive):
    """``AdaptiveMaxPool2D(output_size)(input_x)``: ``(output, argmax)``, max pooling to a
    fixed (H, W) size with the Int64 position of each maximum in its plane."""
    def __init__(self, output_size):
        super().__init__(output_size=output_size)

    def construct(self, input_x):
        return _pool.adaptive_max_pool2d(input_x, self.output_size, True)


class AdaptiveMaxPool3D(Primitive):
    """``AdaptiveMaxPool3D()(x, output_size)``: ``(output, argmax)``, max pooling to the
    (D, H, W) size held by the 1-d integer Tensor ``output_size``, with the Int32 position of
    each maximum in its volume."""
    def construct(self, x, output_size):
        if not isinstance(output_size, Tensor) or output_size.shape != (3,) or \
                output_size.dtype.name not in ('Int32', 'Int64'):
            raise TypeError(f"ops.AdaptiveMaxPool3D: output_size must be an Int32 or Int64 "
                            f"Tensor of shape (3,), got {output_size!r}")
        sizes = tuple(int(v) for v in output_size.asnumpy())
        return _pool.adaptive_max_pool3d(x, sizes, True)
