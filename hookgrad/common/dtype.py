"""MindSpore's ``mindspore.common.dtype`` (imported as ``mstype``): the types, their groups
(``int_type``, ``float_type``, ``number_type``, ``all_types``...) and the conversion helpers
(``dtype_to_nptype``, ``pytype_to_dtype``, ``dtype_to_pytype``, ``get_py_obj_dtype``).

``ms.float32`` and ``mstype.float32`` are the same object; ``mstype.int``, ``mstype.float`` and
``mstype.bool`` are Int32, Float32 and Bool, as in MindSpore. ``Int``, ``QuantDtype`` and
the null type ``_null`` are in _dtype_kinds.py.
"""
from .._dtype import *  # noqa: F401,F403
from .._dtype import __all__ as _core_names
from .._dtype_kinds import Int, QuantDtype, _NullType, _null  # noqa: F401

__all__ = _core_names + ['Int', 'QuantDtype']
from ..compat.names import reporter as _reporter

__getattr__ = _reporter('mindspore.common.dtype')
