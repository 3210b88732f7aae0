"""1-d and 3-d pooling and adaptive max pooling: ``avg_pool1d``, ``avg_pool3d``, ``max_pool3d``,
``adaptive_avg_pool1d``, ``adaptive_avg_pool3d``, ``adaptive_max_pool1d``,
``adaptive_max_pool2d`` and ``adaptive_max_pool3d`` (MindSpore 2.10's functional signatures).

All are built on the 2-d pooling ops of ``pooling.py``: 1-d pooling runs them on (N, C, 1, L).
3-d windows are boxes, so a 3-d max or sum is the 2-d one over (H, W) followed by a 1-d one
over D; an average's divisor (the box's size, clipped as the flags say) is the product of the
per-axis ones, so it factors the same way, and so do adaptive averages. Adaptive max pooling
gathers each window (window i along a dimension of size n covers [floor(i*n/out),
ceil((i+1)*n/out))) and takes its first maximum, which receives the gradient.
"""
import numpy as np

from .._tensor import Tensor
from ..kernels.backend import array_module, device_of, to_device
from ._base import as_tensor
from .conv import _is_int, as_ints
from .pooling import (_check_half_kernel, _flag, adaptive_avg_pool2d, adaptive_output_size,
                      avg_pool, max_pool)
from .reduction import max as _max
from .shaping import expand_dims, reshape, squeeze, transpose

__all__ = ['avg_pool1d', 'avg_pool3d', 'max_pool3d', 'adaptive_avg_pool1d',
           'adaptive_avg_pool3d', 'adaptive_max_pool1d', 'adaptive_max_pool2d',
           'adaptive_max_pool3d']


def _input(x, ranks, where, kinds='fV'):
    """x checked (rank among ``ranks``, dtype kind among ``kinds``), batched, and whether a
    batch dimension was added."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{where}: input must be a Tensor, got {type(x).__name__}")
    if x.ndim not in ranks:
        raise ValueError(f"{where}: input must be {' or '.join(f'{r}-d' for r in ranks)}, got "
                         f"shape {x.shape}")
    if x._data.dtype.kind not in kinds:
        raise TypeError(f"{where}: expected a floating tensor, got dtype {x.dtype}")
    if x.ndim == max(ranks):
        return x, False
    return expand_dims(x, 0), True


def _unbatch(r, added):
    if not added:
        return r
    if isinstance(r, tuple):
        return tuple(squeeze(t, 0) for t in r)
    return squeeze(r, 0)


def _pads3d(padding, where):
    """(front, back, top, bottom, left, right) from an int, three ints or six."""
    items = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,)
    if len(items) == 6:
        return as_ints(items, 6, where, 'padding', minimum=0)
    pad = as_ints(padding, 3, where, 'padding', minimum=0)
    return (pad[0], pad[0], pad[1], pad[1], pad[2], pad[2])


# ------------------------------------------------------------------------------ 3-d as 2-d
def _fold_depth(x):
    n, c, d, h, w = x.shape
    return reshape(transpose(x, (0, 2, 1, 3, 4)), (n * d, c, h, w))


def _depth_first(y, n):
    """(N * D, C, H, W) -> (N, C, D, H * W), the depth pooled next as a 2-d height."""
    nd, c, h, w = y.shape
    return reshape(transpose(reshape(y, (n, nd // n, c, h, w)), (0, 2, 1, 3, 4)),
                   (n, c, nd // n, h * w))


def max_pool3d_padded(x, kernel, stride, pads, dilation, ceil, indices, where):
    """Max pooling of (N, C, D, H, W) with explicit padding; with ``indices`` also the Int64
    position of each maximum in its (D, H, W) volume."""
    n, _, _, h, w = x.shape
    r = max_pool(_fold_depth(x), kernel[1:], stride[1:], pads[2:], dilation[1:], ceil,
                 indices, where)
    plane, at = (r[0], r[1]) if indices else (r, None)
    ho, wo = plane.shape[2:]
    r = max_pool(_depth_first(plane, n), (kernel[0], 1), (stride[0], 1),
                 pads[:2] + (0, 0), (dilation[0], 1), ceil, indices, where)
    y = r[0] if indices else r
    y = reshape(y, y.shape[:3] + (ho, wo))
    if not indices:
        return y
    depth = r[1]._data // (ho * wo)                                  # (N, C, Do, Ho*Wo)
    hw = _depth_first(at, n)._data                                   # (N, C, D, Ho*Wo)
    xp = array_module(hw)
    flat = depth * (h * w) + xp.take_along_axis(hw, depth, axis=2)
    return y, Tensor._wrap(flat.reshape(y.shape).astype(np.int64))


def avg_pool3d_padded(x, kernel, stride, pads, ceil, include_pad, divisor, where):
    """Average pooling of (N, C, D, H, W) with explicit padding."""
    n = x.shape[0]
    first = 1 if divisor else None      # with an override: sums, divided once at the end
    plane = avg_pool(_fold_depth(x), kernel[1:], stride[1:], pads[2:], ceil, include_pad,
                     first, where)
    ho, wo = plane.shape[2:]
    y = avg_pool(_depth_first(plane, n), (kernel[0], 1), (stride[0], 1), pads[:2] + (0, 0),
                 ceil, include_pad, first, where)
    y = reshape(y, y.shape[:3] + (ho, wo))
    return y / float(divisor) if divisor else y


def _check_divisor(divisor_override, where):
    if divisor_override is not None and (not _is_int(divisor_override) or divisor_override < 0):
        raise ValueError(f"{where}: divisor_override must be an int >= 0 (0: no override), "
                         f"got {divisor_override!r}")


# ------------------------------------------------------------------------------ public
def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True):
    """1-d average pooling of an (N, C, L) floating tensor; padding counts as zeros.

    Args:
        kernel_size, stride: ints >= 1.
        padding: an int >= 0 added on both sides, at most half the kernel.
        ceil_mode: round the output length up (a last partial window is kept).
        count_include_pad: divide by the window size including padding, else by the number
            of input elements in the window.

    Raises:
        ValueError: for a wrong rank, sizes < 1, excessive padding or a kernel larger than
            the padded input. TypeError: for non-floating input or malformed arguments.
    """
    where = 'ops.avg_pool1d'
    x, _ = _input(input_x, (3,), where)
    (k,) = as_ints(kernel_size, 1, where, 'kernel_size')
    (s,) = as_ints(stride, 1, where, 'stride')
    (p,) = as_ints(padding, 1, where, 'padding', minimum=0)
    pads = (0, 0, p, p)
    _check_half_kernel(pads, (1, k), (1, 1), where)
    y = avg_pool(expand_dims(x, 2), (1, k), (1, s), pads, _flag(ceil_mode, where, 'ceil_mode'),
                 _flag(count_include_pad, where, 'count_include_pad'), 0, where)
    return squeeze(y, 2)


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """3-d average pooling of an (N, C, D, H, W) or (C, D, H, W) floating tensor.

    Args:
        kernel_size, stride: an int or a triple (depth, height, width), each >= 1.
        padding: an int, a triple, or six ints (front, back, top, bottom, left, right) of
            zeros, each at most half the kernel.
        ceil_mode: round the output size up.
        count_include_pad: divide by the window size including padding.
        divisor_override: if not 0 (or None), divide every window's sum by it.

    Raises:
        ValueError, TypeError: as ``avg_pool2d``.
    """
    where = 'ops.avg_pool3d'
    x, added = _input(input_x, (4, 5), where)
    kernel = as_ints(kernel_size, 3, where, 'kernel_size')
    stride = kernel if stride is None else as_ints(stride, 3, where, 'stride')
    pads = _pads3d(padding, where)
    _check_half_kernel(pads[:4], kernel[:2], (1, 1), where)
    _check_half_kernel(pads[2:], kernel[1:], (1, 1), where)
    _check_divisor(divisor_override, where)
    y = avg_pool3d_padded(x, kernel, stride, pads, _flag(ceil_mode, where, 'ceil_mode'),
                          _flag(count_include_pad, where, 'count_include_pad'),
                          divisor_override, where)
    return _unbatch(y, added)


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """3-d max pooling of an (N, C, D, H, W) or (C, D, H, W) tensor; padding counts as
    -infinity.

    Args:
        kernel_size, dilation: an int or a triple (depth, height, width), each >= 1.
        stride: an int or a triple; None (default) is ``kernel_size``.
        padding: an int or a triple added on both sides, at most half the dilated kernel.
        ceil_mode: round the output size up.
        return_indices: also return the Int64 position of each maximum in its (D, H, W)
            volume.

    Raises:
        ValueError, TypeError: as ``max_pool2d``.
    """
    where = 'ops.max_pool3d'
    x, added = _input(x, (4, 5), where, 'fiuV')
    kernel = as_ints(kernel_size, 3, where, 'kernel_size')
    stride = kernel if stride is None else as_ints(stride, 3, where, 'stride')
    dilation = as_ints(dilation, 3, where, 'dilation')
    pads = _pads3d(padding, where)
    _check_half_kernel(pads[:4], kernel[:2], dilation[:2], where)
    _check_half_kernel(pads[2:], kernel[1:], dilation[1:], where)
    r = max_pool3d_padded(x, kernel, stride, pads, dilation, _flag(ceil_mode, where, 'ceil_mode'),
                          _flag(return_indices, where, 'return_indices'), where)
    return _unbatch(r, added)


def _divisible(size, out, where):
    if size % out:
        raise ValueError(f"{where}: the input's last dimension ({size}) must be divisible by "
                         f"output_size ({out}), as MindSpore requires")


def _one_size(output_size, where):
    if not _is_int(output_size) or output_size < 1:
        raise ValueError(f"{where}: output_size must be a positive int, got {output_size!r}")
    return int(output_size)


def adaptive_avg_pool1d(input, output_size):
    """Average pooling of an (N, C, L) floating tensor to ``output_size`` windows; L must be a
    multiple of output_size (as in MindSpore 2.10).

    Raises:
        ValueError: for a wrong rank, a bad output_size or L not divisible by it.
        TypeError: for non-floating input.
    """
    where = 'ops.adaptive_avg_pool1d'
    x, _ = _input(input, (3,), where)
    out = _one_size(output_size, where)
    _divisible(x.shape[-1], out, where)
    return squeeze(adaptive_avg_pool2d(expand_dims(x, 2), (1, out)), 2)


def adaptive_avg_pool3d(input, output_size):
    """Average pooling of an (N, C, D, H, W) or (C, D, H, W) floating tensor to a fixed
    output size (an int or a triple whose None entries keep that size); window i along a
    dimension of size n covers [floor(i*n/out), ceil((i+1)*n/out)).

    Raises:
        ValueError: for a wrong rank or a bad output_size. TypeError: for non-floating input.
    """
    where = 'ops.adaptive_avg_pool3d'
    x, added = _input(input, (4, 5), where)
    n, c, d, h, w = x.shape
    items = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,)
    if len(items) == 1:
        items = items * 3
    if len(items) != 3 or not all(v is None or (_is_int(v) and v >= 1) for v in items):
        raise ValueError(f"{where}: output_size must be a positive int or a triple of positive "
                         f"ints or None, got {output_size!r}")
    do, ho, wo = (s if v is None else int(v) for v, s in zip(items, (d, h, w)))
    plane = adaptive_avg_pool2d(reshape(x, (n, c * d, h, w)), (ho, wo))
    y = adaptive_avg_pool2d(reshape(plane, (n, c, d, ho * wo)), (do, ho * wo))
    return _unbatch(reshape(y, (n, c, do, ho, wo)), added)


def _windows(size, out):
    """(out, k) indices of each adaptive window, the last index repeated to pad short ones."""
    i = np.arange(out)[:, None]
    lo, hi = i * size // out, -(-(i + 1) * size // out)
    k = int((hi - lo).max())
    return np.minimum(lo + np.arange(k), hi - 1), k


def adaptive_max_pool1d(input, output_size):
    """Max pooling of an (N, C, L) tensor to ``output_size`` windows; L must be a multiple of
    output_size (as in MindSpore 2.10).

    Raises:
        ValueError: for a wrong rank, a bad output_size or L not divisible by it.
        TypeError: for a Bool input.
    """
    where = 'ops.adaptive_max_pool1d'
    x, _ = _input(input, (3,), where, 'fiuV')
    out = _one_size(output_size, where)
    _divisible(x.shape[-1], out, where)
    y = adaptive_max_pool2d(expand_dims(x, 2), (1, out))
    return squeeze(y, 2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling of an (N, C, H, W) or (C, H, W) tensor to a fixed output size (an int or a
    pair whose None entries keep that size); window i along a dimension of size n covers
    [floor(i*n/out), ceil((i+1)*n/out)). The gradient goes to each window's first maximum.

    Args:
        return_indices: also return the Int64 position of each maximum in its (H, W) plane.

    Raises:
        ValueError: for a wrong rank or a bad output_size. TypeError: for a Bool input.
    """
    where = 'ops.adaptive_max_pool2d'
    x = as_tensor(input)
    if x.ndim not in (3, 4):
        raise ValueError(f"{where}: input must be 3-d (C, H, W) or 4-d (N, C, H, W), got shape "
                         f"{x.shape}")
    if x._data.dtype.kind not in 'fiuV':
        raise TypeError(f"{where}: expected a real number tensor, got dtype {x.dtype}")
    _flag(return_indices, where, 'return_indices')
    (h, w) = x.shape[-2:]
    ho, wo = adaptive_output_size(output_size, (h, w), where)
    return _adaptive_max(x, (ho, wo), return_indices, np.int64)


def _adaptive_max(x, outs, return_indices, index_dtype):
    """Adaptive max pooling over the last ``len(outs)`` dimensions: every window gathered
    (short ones padded with their last index) and its first maximum taken."""
    k = len(outs)
    sizes, lead = x.shape[-k:], x.shape[:-k]
    flat = np.zeros((1,) * k, np.int64)
    widths = []
    for axis, (size, out) in enumerate(zip(sizes, outs)):
        index, width = _windows(size, out)             # (out, width)
        shape = [1] * (2 * k)
        shape[axis], shape[k + axis] = out, width
        flat = flat * size + index.reshape(shape)
        widths.append(width)
    flat = flat.reshape(tuple(outs) + (int(np.prod(widths)),))
    device = device_of(x._data)
    picked = reshape(x, lead + (int(np.prod(sizes)),))[..., Tensor._wrap(to_device(flat, device))]
    y, at = _max(picked, -1)
    if not return_indices:
        return y
    xp = array_module(at._data)
    index = xp.take_along_axis(xp.broadcast_to(to_device(flat, device), at.shape + flat.shape[-1:]),
                               at._data[..., None], axis=-1)[..., 0]
    return y, Tensor._wrap(index.astype(index_dtype))


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max pooling of an (N, C, D, H, W) or (C, D, H, W) tensor to a fixed output size (an
    int or a triple of ints); window i along a dimension of size n covers
    [floor(i*n/out), ceil((i+1)*n/out)). The gradient goes to each window's first maximum.

    Args:
        return_indices: also return the Int32 position of each maximum in its (D, H, W)
            volume (MindSpore's type).

    Raises:
        ValueError: for a wrong rank or a bad output_size. TypeError: for a Bool input.
    """
    where = 'ops.adaptive_max_pool3d'
    if not isinstance(input, Tensor):
        raise TypeError(f"{where}: input must be a Tensor, got {type(input).__name__}")
    if input.ndim not in (4, 5):
        raise ValueError(f"{where}: input must be 4-d (C, D, H, W) or 5-d (N, C, D, H, W), got "
                         f"shape {input.shape}")
    if input._data.dtype.kind not in 'fiuV':
        raise TypeError(f"{where}: expected a real number tensor, got dtype {input.dtype}")
    _flag(return_indices, where, 'return_indices')
    items = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,)
    if len(items) == 1:
        items = items * 3
    if len(items) != 3 or not all(_is_int(v) and v >= 1 for v in items):
        raise ValueError(f"{where}: output_size must be a positive int or a triple of positive "
                         f"ints, got {output_size!r}")
    return _adaptive_max(input, tuple(int(v) for v in items), return_indices, np.int32)
