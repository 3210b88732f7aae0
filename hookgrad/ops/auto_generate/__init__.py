"""``mindspore.ops.auto_generate``: the module MindSpore generates its op definitions into.
It holds the functional ops and Primitives MindSpore defines there that hookgrad has (the same
objects as ``ops.<name>``), and ``contiguous`` and ``copy``; imported on first use, once
``hookgrad.ops`` is whole. A name MindSpore has there and hookgrad lacks says so."""
from ...compat.names import reexport as _reexport, reporter as _reporter
from ..._tensor import Tensor as _Tensor
from ... import ops as _ops


def _check(input, prim):
    if not isinstance(input, _Tensor):
        raise TypeError(f"{prim}: input must be a Tensor, got {type(input).__name__} {input!r}")


def contiguous(input):
    """``input`` with its values in row-major order: ``input`` itself when they already are,
    else a row-major copy (differentiable)."""
    _check(input, 'contiguous')
    return input.contiguous()


def copy(input):
    """A new Tensor holding a copy of ``input``'s values (differentiable)."""
    _check(input, 'copy')
    return _ops.identity(input, copy=True)


__all__ = _reexport(globals(), _ops, 'mindspore.ops.auto_generate') + ['contiguous', 'copy']
__getattr__ = _reporter('mindspore.ops.auto_generate')
