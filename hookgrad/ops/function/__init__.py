"""MindSpore's ``mindspore.ops.function`` package: ``grad.grad_func``, the path code imports the
differentiation transforms from, and ``math_func``, ``array_func`` and ``nn_func`` (the functional
ops MindSpore defines there, imported when asked for)."""
from . import grad
