"""``mindspore.mint.nn``'s activation, pooling and resizing layers: Cells that call
``mint.nn.functional`` with the arguments they were made with."""
from ...nn.cell import Cell
from ...nn.layer.padding import ConstantPad1d, ConstantPad3d
from . import functional as F

__all__ = ['ReLU', 'ReLU6', 'SiLU', 'Sigmoid', 'Tanh', 'GELU', 'ELU', 'SELU', 'Mish',
           'LogSigmoid', 'Hardshrink', 'Softshrink', 'Hardsigmoid', 'Hardswish', 'Hardtanh',
           'Threshold', 'GLU', 'Softmax', 'LogSoftmax', 'MaxPool2d', 'AvgPool1d', 'AvgPool2d',
           'AvgPool3d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d', 'Upsample', 'UpsamplingNearest2d',
           'UpsamplingBilinear2d', 'ZeroPad1d', 'ZeroPad3d']


class ReLU(Cell):
    """``max(x, 0)``."""
    def construct(self, input):
        return F.relu(input)


class ReLU6(Cell):
    """``min(max(x, 0), 6)``."""
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input):
        return F.relu6(input, self.inplace)


class SiLU(Cell):
    """``x * sigmoid(x)``."""
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input):
        return F.silu(input, self.inplace)


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))``."""
    def construct(self, input):
        return F.sigmoid(input)


class Tanh(Cell):
    """``tanh(x)``."""
    def construct(self, input):
        return F.tanh(input)


class GELU(Cell):
    """``x * Phi(x)``: exact ('none') or the tanh approximation ('tanh')."""
    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def construct(self, input):
        return F.gelu(input, self.approximate)


class ELU(Cell):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def construct(self, input):
        return F.elu(input, self.alpha, self.inplace)


class SELU(Cell):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    def construct(self, input):
        return F.selu(input)


class Mish(Cell):
    """``x * tanh(softplus(x))``."""
    def construct(self, input):
        return F.mish(input)


class LogSigmoid(Cell):
    """``log(sigmoid(x))``, computed stably."""
    def construct(self, input):
        return F.logsigmoid(input)


class Hardshrink(Cell):
    """``x`` where ``|x| > lambd``, else 0."""
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return F.hardshrink(input, self.lambd)


class Softshrink(Cell):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return F.softshrink(input, self.lambd)


class Hardsigmoid(Cell):
    """``relu6(x + 3) / 6``."""
    def construct(self, input):
        return F.hardsigmoid(input)


class Hardswish(Cell):
    """``x * relu6(x + 3) / 6``."""
    def construct(self, input):
        return F.hardswish(input)


class Hardtanh(Cell):
    """``x`` clipped to ``[min_val, max_val]``."""
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def construct(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)


class Threshold(Cell):
    """``x`` where ``x > threshold``, else ``value``."""
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def construct(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)


class GLU(Cell):
    """``a * sigmoid(b)`` for the halves of the input along ``dim``."""
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.glu(input, self.dim)


class Softmax(Cell):
    """``softmax`` along ``dim``."""
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.softmax(input, self.dim)


class LogSoftmax(Cell):
    """``log_softmax`` along ``dim``."""
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.log_softmax(input, self.dim)


class MaxPool2d(Cell):
    """The maximum of each window of (N, C, H, W)."""
    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            self.ceil_mode, self.return_indices)


class _AvgPool(Cell):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override


class AvgPool1d(_AvgPool):
    """The mean of each window of (N, C, L)."""
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)

    def construct(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(_AvgPool):
    """The mean of each window of (N, C, H, W)."""
    def construct(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AvgPool3d(_AvgPool):
    """The mean of each window of (N, C, D, H, W)."""
    def construct(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveMaxPool1d(Cell):
    """Maxima over ``output_size`` near-equal windows of the last dimension."""
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    """Maxima over near-equal windows giving ``output_size`` (H, W)."""
    def construct(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class Upsample(Cell):
    """Resizing to ``size`` or by ``scale_factor`` with ``mode`` ('nearest', 'bilinear'...)."""
    def __init__(self, size=None, scale_factor=None, mode='nearest', align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)


class UpsamplingNearest2d(Cell):
    """Nearest-neighbour resizing of (N, C, H, W) to ``size`` or by ``scale_factor``."""
    _mode, _align = 'nearest', None

    def __init__(self, size=None, scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self._mode, self._align)


class UpsamplingBilinear2d(UpsamplingNearest2d):
    """Bilinear resizing with aligned corners of (N, C, H, W)."""
    _mode, _align = 'bilinear', True


class ZeroPad1d(ConstantPad1d):
    """Zeros around the last dimension."""
    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ZeroPad3d(ConstantPad3d):
    """Zeros around the last three dimensions."""
    def __init__(self, padding):
        super().__init__(padding, 0.0)
