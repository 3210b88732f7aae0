"""MindSpore's ``mindspore.ops.operations`` (imported as ``P``): the Primitive classes.

Every name MindSpore has here that hookgrad has is the same class as ``ops.<name>``
(``P.MatMul`` is ``ops.MatMul``). The classes are defined beside this file, one module per
subject (``_primitive.py`` holds the base class and the basic ops); ``_catalog.py`` gathers
them.
"""
from ...compat.names import reexport as _reexport, reporter as _reporter
from . import _catalog

__all__ = _reexport(globals(), _catalog, 'mindspore.ops.operations')
__getattr__ = _reporter('mindspore.ops.operations')

# MindSpore also keeps the Hybrid DSL kernel decorators here
from ..kernel_registration import kernel, ms_kernel  # noqa: E402
__all__ += ['kernel', 'ms_kernel']
