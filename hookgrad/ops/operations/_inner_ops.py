"""``mindspore.ops.operations._inner_ops``: the Primitives of MindSpore's module of internal ops
that hookgrad has (the same classes as ``ops.<name>``); MindSpore's own tests import Cummin
from here."""
from ...compat.names import reporter as _reporter
from ._catalog import Cast, Cummin

__all__ = ['Cast', 'Cummin']
__getattr__ = _reporter('mindspore.ops.operations._inner_ops')
