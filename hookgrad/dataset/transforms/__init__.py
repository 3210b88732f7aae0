"""``hookgrad.dataset.transforms``: general data transforms (MindSpore's
``mindspore.dataset.transforms``): TypeCast, Compose, OneHot, Fill, Concatenate, Duplicate,
Unique, Slice, Mask, PadEnd, RandomApply, RandomChoice, RandomOrder.

Each is called eagerly on NumPy arrays or given to ``Dataset.map``; random ones draw from the
global generator (``ms.set_seed``).
"""
from . import transforms
from .transforms import (Compose, Concatenate, Duplicate, Fill, Mask, OneHot, PadEnd,
                         PyTensorOperation, RandomApply, RandomChoice, RandomOrder, Relational,
                         Slice, TensorOperation, TypeCast, Unique)
from .plugins import Plugin, not_random

__all__ = ['Compose', 'Concatenate', 'Duplicate', 'Fill', 'Mask', 'OneHot', 'PadEnd',
           'RandomApply', 'RandomChoice', 'RandomOrder', 'Relational', 'Slice', 'TypeCast',
           'Unique', 'Plugin', 'not_random']


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset.transforms')
