"""MindSpore's Primitive classes RGBToHSV and HSVToRGB (colour conversions of floating
(..., 3) Tensors), UnravelIndex (flat indices to coordinates) and TruncatedNormal (standard
normal draws within two standard deviations).

The conversions run ``kernels.color`` (the code ``dataset.vision``'s RgbToHsv / HsvToRgb use)
and the draws ``kernels.normal_quantile`` (the initializers' code). RGBToHSV has MindSpore's
gradient: where its input carries one, the same formulas run as recorded ops. HSVToRGB has
none, as in MindSpore. Constructor and call arguments follow MindSpore 2.10's Primitives.
"""
import numbers

import numpy as np

from ... import _random
from ..._dtype import float32 as _float32, to_numpy
from ..._tensor import Tensor
from ...autograd.function import value_read
from ...autograd.state import grad_enabled
from ...kernels import color as _color
from ...kernels.normal_quantile import truncated_standard_normal
from .. import sampling as _sampling
from .._base import as_tensor
from ._primitive import Primitive

__all__ = ['RGBToHSV', 'HSVToRGB', 'UnravelIndex', 'TruncatedNormal']

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))
_INTS = (np.dtype(np.int32), np.dtype(np.int64))


class _Convert(Primitive):
    """``Prim()(images)``: each pixel of a floating (..., 3) Tensor converted by ``convert``
    (Float16 computed in Float32), the dtype kept."""
    convert = None
    differentiable = False

    def construct(self, images):
        name = type(self).__name__
        x = as_tensor(images, 'images')
        if x._data.dtype not in _FLOATS:
            raise TypeError(f"ops.{name}: images must be Float16, Float32 or Float64, got "
                            f"{x.dtype}")
        if x.ndim < 1 or x.shape[-1] != 3:
            raise ValueError(f"ops.{name}: the last dimension of images must be 3, got shape "
                             f"{x.shape}")
        if self.differentiable and grad_enabled() and (x._node is not None or x.requires_grad):
            return self.recorded(x)
        data = x._data
        wide = data.astype(np.float32) if data.dtype == np.float16 else data
        return Tensor._wrap(type(self).convert(wide).astype(data.dtype, copy=False))


class RGBToHSV(_Convert):
    """``RGBToHSV()(images)``: RGB pixels (the last axis) to hue, saturation and value, hue
    and saturation in [0, 1] (a grey pixel has both 0), value the largest channel; with
    MindSpore's gradient (that of these formulas)."""
    convert = staticmethod(_color.rgb_to_hsv)
    differentiable = True

    @staticmethod
    def recorded(x):
        """``kernels.color.rgb_to_hsv``'s formulas as recorded ops, so they differentiate."""
        from ... import ops
        r, g, b = x[..., 0], x[..., 1], x[..., 2]
        # the extremes picked as MindSpore's gradient picks them: a tie for the largest goes to
        # the first channel, one for the smallest to the last
        maxc = ops.where(r >= g, ops.where(r >= b, r, b), ops.where(g >= b, g, b))
        minc = ops.where(r < g, ops.where(r < b, r, b), ops.where(g < b, g, b))
        span = maxc - minc
        flat = span == 0
        safe = ops.where(flat, ops.ones_like(span), span)
        rc, gc, bc = (maxc - r) / safe, (maxc - g) / safe, (maxc - b) / safe
        h = ops.where(r == maxc, bc - gc, ops.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
        h = ops.where(flat, ops.zeros_like(h), (h / 6.0) % 1.0)
        # 0 for a grey pixel all the same (span 0), whose gradient MindSpore keeps
        s = ops.where(maxc == 0, ops.zeros_like(span),
                      span / ops.where(maxc == 0, ops.ones_like(maxc), maxc))
        return ops.stack([h, s, maxc], axis=-1)


class HSVToRGB(_Convert):
    """``HSVToRGB()(images)``: hue, saturation and value pixels (the last axis; hue in [0, 1])
    to RGB."""
    convert = staticmethod(_color.hsv_to_rgb)


class UnravelIndex(Primitive):
    """``UnravelIndex()(indices, dims)``: the coordinates of the flat ``indices`` (0-d or 1-d)
    in an array of shape ``dims`` (1-d), as (len(dims), N) (or (len(dims),) for a 0-d index)
    of the inputs' dtype, Int32 or Int64 alike.

    Raises:
        TypeError: for other dtypes or dtypes that differ.
        ValueError: for a 2-d or higher indices, dims not 1-d, a dim < 1, or an index outside
            [0, prod(dims)).
    """
    def construct(self, indices, dims):
        indices, dims = as_tensor(indices, 'indices'), as_tensor(dims, 'dims')
        if indices._data.dtype not in _INTS or dims._data.dtype != indices._data.dtype:
            raise TypeError(f"ops.UnravelIndex: indices and dims must both be Int32 or both "
                            f"Int64, got {indices.dtype} and {dims.dtype}")
        if indices.ndim > 1:
            raise ValueError(f"ops.UnravelIndex: indices must be 0-d or 1-d, got shape "
                             f"{indices.shape}")
        if dims.ndim != 1:
            raise ValueError(f"ops.UnravelIndex: dims must be 1-d, got shape {dims.shape}")
        value_read(indices)
        value_read(dims)
        flat, shape = indices.asnumpy(), dims.asnumpy()
        if (shape < 1).any():
            raise ValueError(f"ops.UnravelIndex: every dim must be >= 1, got {shape.tolist()}")
        total = int(np.prod(shape.astype(np.int64)))
        if flat.size and (flat.min() < 0 or flat.max() >= total):
            raise ValueError(f"ops.UnravelIndex: indices must lie in [0, {total}) for dims "
                             f"{shape.tolist()}, got {flat.tolist()}")
        coords = np.stack(np.unravel_index(flat.astype(np.int64), tuple(int(d) for d in shape)))
        return Tensor(coords.astype(flat.dtype))


class TruncatedNormal(Primitive):
    """``TruncatedNormal(dtype=float32, seed=0, seed2=0)(shape)``: standard normal samples
    kept within [-2, 2] (drawn by inverting the CDF), of ``dtype`` (Float16, Float32 or
    Float64); ``shape`` is a 1-d Int32 or Int64 Tensor of at least 2 positive sizes. Both
    seeds 0 draw from the global generator (``ms.set_seed``), otherwise from the Primitive's
    own generator.

    Raises:
        TypeError: for another dtype, or a shape that is not an integer Tensor.
        ValueError: for negative seeds, a shape of fewer than 2 sizes, or a size < 1.
    """
    def __init__(self, dtype=_float32, seed=0, seed2=0):
        if to_numpy(dtype) not in _FLOATS:
            raise TypeError(f"ops.TruncatedNormal: dtype must be Float16, Float32 or Float64, "
                            f"got {dtype}")
        rng = _sampling.pair_generator(seed, seed2, 'TruncatedNormal')
        super().__init__(dtype=dtype, seed=seed, seed2=seed2)
        self._rng = rng

    def construct(self, shape):
        if not isinstance(shape, Tensor) or shape._data.dtype not in _INTS:
            raise TypeError(f"ops.TruncatedNormal: shape must be an Int32 or Int64 Tensor, got "
                            f"{shape!r}")
        value_read(shape)
        sizes = shape.asnumpy().tolist()
        if shape.ndim != 1 or len(sizes) < 2:
            raise ValueError(f"ops.TruncatedNormal: shape must be 1-d with at least 2 sizes, "
                             f"got {sizes}")
        if not all(isinstance(n, numbers.Integral) and n >= 1 for n in sizes):
            raise ValueError(f"ops.TruncatedNormal: every size must be >= 1, got {sizes}")
        rng = self._rng if self._rng is not None else _random.generator()
        z = truncated_standard_normal(-2.0, 2.0, tuple(sizes), rng)
        return Tensor(z.astype(to_numpy(self.dtype)))
