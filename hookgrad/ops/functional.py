"""MindSpore's ``mindspore.ops.functional`` (imported as ``F``): the functional ops.

Every name MindSpore has here that ``hookgrad.ops`` has is the same object as ``ops.<name>``.
The names come from every op family, so ``hookgrad/ops/__init__.py`` puts them here once the
families have imported, and this module imports none of them.
"""
from ..compat.names import reporter as _reporter

__all__ = []        # MindSpore's names, filled by hookgrad/ops/__init__.py
__getattr__ = _reporter('mindspore.ops.functional')
