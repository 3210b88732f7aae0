"""MindSpore's ``mindspore.experimental``: the PyTorch-style optimizers (``optim``).

``MapParameter`` (a hash-table parameter for embeddings on Ascend's parameter server) raises
``NotAvailable`` saying so.
"""
from . import optim
from ..compat.unavailable import reporter_with_reasons as _reporter_with_reasons

__all__ = ['optim']
__getattr__ = _reporter_with_reasons('mindspore.experimental', {
    'MapParameter': "a hash-table parameter served by MindSpore's parameter server, which "
                    "hookgrad does not have",
    'map_parameter': "a hash-table parameter served by MindSpore's parameter server, which "
                     "hookgrad does not have"})
