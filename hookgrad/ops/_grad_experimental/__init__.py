"""MindSpore's ``mindspore.ops._grad_experimental``: the registry of backward rules (bprops) of
Primitives, where MindSpore's tests and custom Primitives register theirs."""
from . import grad_base
from .grad_base import get_bprop_fn

__all__ = ['get_bprop_fn']
