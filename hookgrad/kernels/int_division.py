"""Integer division by zero, as MindSpore 2.10's CPU kernels give it.

NumPy gives 0 for every integer quotient or remainder by zero; MindSpore's kernels give
values that depend on the op (and, for some, on the width of the type), and code ported from
it sees those. ``by_zero(rule, a, b, out)`` replaces the elements of ``out`` whose divisor
``b`` is 0 by the values of ``rule``:

- ``'quotient'`` (``//``, ``floor_divide``, ``truncate_div``): the type's maximum where ``a``
  is positive, its minimum where negative, 0 where ``a`` is 0;
- ``'keep'`` (``remainder``, ``fmod``): ``a`` itself;
- ``'wide_min'`` (``%``, ``floor_mod``, ``div(..., rounding_mode='trunc')``): the type's
  minimum for Int32 and Int64, 0 for narrower types;
- ``'wide_min_nonzero'`` (the ``Mod`` primitive): as ``'wide_min'`` where ``a`` is not 0,
  0 where it is.

Floating-point inputs are returned unchanged (IEEE division has its own answers), and so is
``out`` when no divisor is 0, so the check costs one comparison on integer inputs only.
"""
import numpy as np

from .backend import array_module


def by_zero(rule, a, b, out):
    """``out`` with its elements over a zero divisor replaced as ``rule`` says."""
    dt = out.dtype
    if dt.kind not in 'iu':
        return out
    zero = b == 0
    if not zero.any():
        return out
    xp = array_module(out)
    info = np.iinfo(dt)
    if rule == 'quotient':
        fill = xp.where(a > 0, dt.type(info.max), xp.where(a < 0, dt.type(info.min), dt.type(0)))
    elif rule == 'keep':
        fill = a
    else:
        wide = dt.kind == 'i' and dt.itemsize >= 4
        fill = dt.type(info.min if wide else 0)
        if rule == 'wide_min_nonzero':
            fill = xp.where(a != 0, fill, dt.type(0))
    return xp.where(zero, fill, out).astype(dt, copy=False)
