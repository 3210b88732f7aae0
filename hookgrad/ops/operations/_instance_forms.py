"""``ops`` names that MindSpore 2.10 binds to a Primitive: ``pows`` (a ``Pow()``),
``reshape_`` (a ``Reshape()``) and ``inplace_index_add`` (a call of
``InplaceIndexAdd(axis)``)."""
from ._primitive import Pow, Reshape
from ._scatter_resize_more import InplaceIndexAdd

__all__ = ['pows', 'reshape_', 'inplace_index_add']

pows = Pow()
reshape_ = Reshape()


def inplace_index_add(var, indices, updates, axis):
    """Adds the slices of ``updates`` to var's slices ``indices`` (1-D) along ``axis``, in
    place; returns var. See ``ops.InplaceIndexAdd``."""
    return InplaceIndexAdd(axis)(var, indices, updates)
