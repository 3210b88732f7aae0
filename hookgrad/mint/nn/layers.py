"""``mindspore.mint.nn``'s layers: PyTorch-style constructors (``bias=``, ``padding=``,
``momentum=0.1``) and parameter names (``weight``, ``bias``, ``running_mean``), each a
``hookgrad.nn.Cell`` whose construct calls ``mint.nn.functional``.
"""
import math

from ... import _dtype, ops
from ...common.initializer import HeUniform, Normal, Uniform, initializer
from ...nn.cell import Cell
from ...nn.parameter import Parameter
from ...nn.layer.basic import _init_value, _positive_int
from ...ops.collective import AllGatherOp
from .. import distributed as _distributed, normalization as _norm
from . import functional as F

__all__ = ['Conv1d', 'Conv2d', 'Conv3d', 'ConvTranspose2d', 'Unfold', 'Fold', 'SyncBatchNorm',
           'BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d',
           'LayerNorm', 'GroupNorm', 'Embedding', 'Dropout', 'Dropout2d', 'PReLU']


_PAD_MODES = {'zeros', 'reflect', 'replicate', 'circular'}


def _tuple(value, n, name, arg):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    value = tuple(value)
    if len(value) != n or not all(isinstance(v, int) for v in value):
        raise ValueError(f"mint.nn.{name}: {arg} must be an int or {n} ints, got {value!r}")
    return value


def _uniform(shape, bound, dtype, name, arg):
    return _init_value(Uniform(bound), shape, dtype, name, arg)


class _Conv(Cell):
    """A convolution's parameters: ``weight`` He-uniform (slope sqrt(5)) and ``bias`` uniform
    in +-1/sqrt(fan_in), as PyTorch initialises them."""

    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode='zeros', dtype=None, output_padding=0):
        super().__init__()
        name, n = type(self).__name__, self._dims
        self.in_channels = _positive_int(in_channels, name, 'in_channels')
        self.out_channels = _positive_int(out_channels, name, 'out_channels')
        self.groups = _positive_int(groups, name, 'groups')
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups.")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups.")
        if padding_mode not in _PAD_MODES:
            raise ValueError(f"The value of 'padding_mode' must be one of "
                             f"'{{'circular', 'zeros', 'reflect', 'replicate'}}', but got "
                             f"{padding_mode}.")
        self.kernel_size = _tuple(kernel_size, n, name, 'kernel_size')
        self.stride = _tuple(stride, n, name, 'stride')
        self.padding = padding if isinstance(padding, str) else \
            _tuple(padding, n, name, 'padding')
        self.dilation = _tuple(dilation, n, name, 'dilation')
        self.output_padding = _tuple(output_padding, n, name, 'output_padding')
        self.padding_mode = padding_mode
        dtype = _dtype.float32 if dtype is None else dtype
        shape = ((in_channels, out_channels // groups) if self._transposed else
                 (out_channels, in_channels // groups)) + self.kernel_size
        fan_in = shape[1] * math.prod(self.kernel_size)
        self.weight = Parameter(_init_value(HeUniform(negative_slope=math.sqrt(5)), shape, dtype,
                                            name, 'weight'), name='weight')
        self.bias = Parameter(_uniform((out_channels,), 1 / math.sqrt(fan_in), dtype, name,
                                       'bias'), name='bias') if bias else None

    def _padded(self, input):
        """``(input, padding)`` for the convolution: a ``padding_mode`` other than 'zeros'
        pads the input itself (``F.pad``), and the convolution then pads nothing."""
        if self.padding_mode == 'zeros' or isinstance(self.padding, str) or \
                not any(self.padding):
            return input, self.padding
        pairs = tuple(p for size in reversed(self.padding) for p in (size, size))
        return F.pad(input, pairs, self.padding_mode), 0

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}, dilation={self.dilation}, groups={self.groups}, "
                f"bias={self.bias is not None}")


class Conv1d(_Conv):
    """1-D convolution over (N, C_in, L)."""
    _dims = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode='zeros', dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)

    def construct(self, input):
        input, padding = self._padded(input)
        if not isinstance(padding, (str, int)):
            padding = padding[0]
        return F.conv1d(input, self.weight, self.bias, self.stride[0], padding,
                        self.dilation[0], self.groups)


class Conv2d(_Conv):
    """2-D convolution over (N, C_in, H, W)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode='zeros', dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)

    def construct(self, input):
        input, padding = self._padded(input)
        return F.conv2d(input, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)


class Conv3d(_Conv):
    """3-D convolution over (N, C_in, D, H, W)."""
    _dims = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode='zeros', dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)

    def construct(self, input):
        input, padding = self._padded(input)
        return F.conv3d(input, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)


class Unfold(Cell):
    """The sliding blocks of (N, C, H, W) as columns (N, C * kH * kW, L)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = \
            kernel_size, dilation, padding, stride

    def construct(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(Cell):
    """Columns (N, C * kH * kW, L) summed back into (N, C, *output_size)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def construct(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)


class ConvTranspose2d(_Conv):
    """The transpose of a 2-D convolution; ``weight`` is (C_in, C_out / groups, kH, kW)."""
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros',
                 dtype=None):
        if padding_mode != 'zeros':
            raise ValueError('Only "zeros" padding mode is supported for ConvTranspose2d')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype, output_padding)

    def construct(self, input):
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)


class _BatchNorm(Cell):
    """Batch normalization over the channels (axis 1): batch statistics in training (the
    running ones move by ``momentum`` towards them), the running ones otherwise."""

    _ranks = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        name = type(self).__name__
        self.num_features = _positive_int(num_features, name, 'num_features')
        self.eps, self.momentum, self.affine = eps, momentum, affine
        self.track_running_stats = track_running_stats
        dtype = _dtype.float32 if dtype is None else dtype
        self.weight = Parameter(ops.ones((num_features,), dtype), name='weight') \
            if affine else None
        self.bias = Parameter(ops.zeros((num_features,), dtype), name='bias') if affine else None
        if track_running_stats:
            self.running_mean = Parameter(ops.zeros((num_features,), dtype), 'running_mean',
                                          requires_grad=False)
            self.running_var = Parameter(ops.ones((num_features,), dtype), 'running_var',
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(ops.zeros((), _dtype.int64),
                                                 'num_batches_tracked', requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):
        if input.ndim not in self._ranks:
            ranks = ' or '.join(f"{r}-d" for r in self._ranks)
            raise ValueError(f"mint.nn.{type(self).__name__}: expected a {ranks} input, got "
                             f"shape {input.shape}")
        if not self.track_running_stats:                # the batch's statistics, always
            mean, invstd = _norm.batch_norm_stats(input, self.eps)
            return _norm.batch_norm_elemt(input, self.weight, self.bias, mean, invstd)
        if self.training:
            ops.assign_add(self.num_batches_tracked, 1)
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                            self.training, self.momentum, self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization of (N, C) or (N, C, L)."""
    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W)."""
    _ranks = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W)."""
    _ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose training statistics are those of the whole batch across the
    processes of ``process_group`` (the world when None): each process's mean and inverse
    deviation are gathered and combined, and gradients flow back through the gather."""

    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group

    def construct(self, input):
        world = _distributed.get_world_size(self.process_group) \
            if _distributed.is_initialized() else 1
        if not self.training or world <= 1:
            return super().construct(input)
        mean, invstd = _norm.batch_norm_stats(input, self.eps)
        count = ops.full_like(mean[:1], input.size // input.shape[1])     # on its device
        group = _distributed.group_of(self.process_group)
        means = ops.reshape(AllGatherOp.apply(ops.unsqueeze(mean, 0), group=group), (world, -1))
        invstds = ops.reshape(AllGatherOp.apply(ops.unsqueeze(invstd, 0), group=group),
                              (world, -1))
        counts = AllGatherOp.apply(count, group=group)
        mean, invstd = _norm.batch_norm_gather_stats_with_counts(
            input, means, invstds, self.running_mean, self.running_var, self.momentum,
            self.eps, counts)
        if self.track_running_stats:
            ops.assign_add(self.num_batches_tracked, 1)
        return _norm.batch_norm_elemt(input, self.weight, self.bias, mean, invstd, self.eps)


class LayerNorm(Cell):
    """Normalization over the trailing ``normalized_shape`` dimensions, then ``weight`` and
    ``bias`` (ones and zeros) element-wise."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
            tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        dtype = _dtype.float32 if dtype is None else dtype
        self.weight = Parameter(ops.ones(self.normalized_shape, dtype), name='weight') \
            if elementwise_affine else None
        self.bias = Parameter(ops.zeros(self.normalized_shape, dtype), name='bias') \
            if elementwise_affine and bias else None

    def construct(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class GroupNorm(Cell):
    """Normalization over each of ``num_groups`` channel groups, then per-channel ``weight``
    and ``bias``."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by "
                             f"'num_groups', but got 'num_channels': {num_channels}, "
                             f"'num_groups': {num_groups}.")
        self.num_groups, self.num_channels, self.eps, self.affine = \
            num_groups, num_channels, eps, affine
        dtype = _dtype.float32 if dtype is None else dtype
        self.weight = Parameter(ops.ones((num_channels,), dtype), name='weight') \
            if affine else None
        self.bias = Parameter(ops.zeros((num_channels,), dtype), name='bias') if affine else None

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extend_repr(self):
        return (f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
                f"eps={self.eps}, affine={self.affine}")


class Embedding(Cell):
    """A lookup table of ``num_embeddings`` rows of ``embedding_dim``, drawn from N(0, 1); the
    ``padding_idx`` row starts at zero and gets no gradient."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"For 'EmbeddingExt', the 'padding_idx' must be in range of "
                             f"[{-num_embeddings}, {num_embeddings}), but got {padding_idx} "
                             f"with type '{type(padding_idx).__name__}'.")
        self.padding_idx = None if padding_idx is None else padding_idx % num_embeddings
        self.max_norm, self.norm_type, self.scale_grad_by_freq = \
            max_norm, norm_type, scale_grad_by_freq
        dtype = _dtype.float32 if dtype is None else dtype
        if _weight is None:
            # N(0, 1) from MindSpore's initializer stream, as MindSpore's Embedding draws it
            weight = initializer(Normal(1.0, 0.0), (num_embeddings, embedding_dim), dtype)
            if self.padding_idx is not None:
                keep = ops.ne(ops.arange(num_embeddings), self.padding_idx)
                weight = ops.mul(weight, ops.cast(ops.unsqueeze(keep, 1), dtype))
        else:
            weight = _weight
        self.weight = Parameter(weight, name='weight', requires_grad=not _freeze)

    def construct(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq)

    def extend_repr(self):
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}")


class Dropout(Cell):
    """Zeros elements with probability ``p`` in training (the rest scaled by 1 / (1 - p))."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p, self.inplace = p, inplace

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return F.dropout(input, self.p, True, self.inplace)


class Dropout2d(Dropout):
    """Zeros whole channels with probability ``p`` in training."""

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return F.dropout2d(input, self.p, True, self.inplace)


class PReLU(Cell):
    """``x`` where positive, else ``weight * x``; ``weight`` one value or one per channel."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        dtype = _dtype.float32 if dtype is None else dtype
        self.num_parameters = num_parameters
        self.weight = Parameter(ops.full((num_parameters,), init, dtype=dtype), name='weight')

    def construct(self, input):
        return F.prelu(input, self.weight)
