"""MindSpore's ``mindspore.ops.function`` package: ``grad.grad_func``, the path code imports the
differentiation transforms from, and ``math_func``, ``array_func``, ``nn_func`` and
``random_func`` (the functional ops MindSpore defines there, imported when asked for), and
``comm_func``, the functional collectives (``ops/__init__.py`` imports it)."""
from . import grad
