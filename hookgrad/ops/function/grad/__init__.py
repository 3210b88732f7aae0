"""MindSpore's ``mindspore.ops.function.grad``: the differentiation transforms."""
from . import grad_func
from .grad_func import *  # noqa: F401,F403
from .grad_func import __all__  # noqa: F401
