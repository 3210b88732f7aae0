"""Reverse-mode autograd: recorded nodes, the one backward loop, functional transforms."""
from .grad_mode import no_grad, enable_grad, is_grad_enabled
from .observer import OpObserver, OpCall, observers
