"""MindSpore's ``mindspore.common.dtype`` (imported as ``mstype``): the types, their groups
(``int_type``, ``float_type``, ``number_type``, ``all_types``...) and the conversion helpers
(``dtype_to_nptype``, ``pytype_to_dtype``, ``dtype_to_pytype``, ``get_py_obj_dtype``).

``ms.float32`` and ``mstype.float32`` are the same object; ``mstype.int``, ``mstype.float`` and
``mstype.bool`` are Int32, Float32 and Bool, as in MindSpore.
"""
from .._dtype import *  # noqa: F401,F403
from .._dtype import __all__  # noqa: F401
from ..compat.names import reporter as _reporter

__getattr__ = _reporter('mindspore.common.dtype')
