"""MindSpore's ``mindspore.nn.grad``: the ``Jvp`` and ``Vjp`` cells (hookgrad/nn/grad_cells.py)."""
from ..grad_cells import Jvp, Vjp

__all__ = ['Jvp', 'Vjp']
