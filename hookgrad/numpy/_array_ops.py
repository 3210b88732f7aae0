"""Array primitives ``mindspore.numpy`` needs beyond ``hookgrad.ops``: the sorted distinct
values of an array with their first positions, and set membership.

Neither carries a gradient: they return positions and masks, which are inputs of the
differentiable ops (``take``) that select the values.
"""
import numpy as np

from ..autograd.function import Op


class UniqueIndex(Op):
    """Outputs, for the 1-d ``x``, the position of the first occurrence of each distinct
    value in ascending order of value, and each element's index into those values (Int32)."""
    differentiable = False
    shape_from_values = True

    @staticmethod
    def forward(ctx, x):
        _, first, inverse = np.unique(x, return_index=True, return_inverse=True)
        return first.astype(np.int32), inverse.reshape(-1).astype(np.int32)


class IsIn(Op):
    """y = whether each element of ``x`` occurs in ``test`` (negated with ``invert``)."""
    differentiable = False

    @staticmethod
    def forward(ctx, x, test, invert):
        return np.isin(x, test, invert=invert)
