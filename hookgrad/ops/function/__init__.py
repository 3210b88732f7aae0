"""MindSpore's ``mindspore.ops.function`` package: here only ``grad.grad_func``, the path code
imports the differentiation transforms from."""
from . import grad
