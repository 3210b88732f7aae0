"""``mindspore._Function``: a custom autograd function written as PyTorch writes one.

``forward(ctx, *args)`` computes the outputs and may keep what backward needs on ``ctx``
(``save_for_backward``, attributes); ``backward(ctx, *grad_outputs)`` returns one gradient per
input (None for inputs without one). ``Fn.apply(*args)`` runs it. Each call is a Cell with a
``bprop`` (hooks/bprop.py), so hooks, the transforms and graph mode treat it as any custom
backward rule.
"""
from .._tensor import Tensor
from ..nn.cell import Cell

__all__ = ['_Function']


class FunctionCtx:
    """What ``forward`` and ``backward`` share: saved tensors, flags and any attribute."""

    def __init__(self, needs_input_grad):
        self.needs_input_grad = needs_input_grad
        self.saved_tensors = ()
        self.non_differentiable = ()
        self.dirty_tensors = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors):
        """Keep ``tensors`` for backward (read back as ``saved_tensors``)."""
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs that carry no gradient (recorded; their gradients come as zeros)."""
        self.non_differentiable = tensors

    def mark_dirty(self, *tensors):
        """Inputs that forward changed in place (recorded)."""
        self.dirty_tensors = tensors

    def set_materialize_grads(self, value):
        """Whether missing output gradients come as zeros (True) or None."""
        self.materialize_grads = bool(value)


class _FunctionCall(Cell):
    """One call of a ``_Function``: its forward as construct, its backward as bprop."""

    def __init__(self, function, ctx, kwargs):
        super().__init__(auto_prefix=False)
        self._function, self._ctx, self._kwargs = function, ctx, kwargs

    def construct(self, *args):
        return self._function.forward(self._ctx, *args, **self._kwargs)

    def bprop(self, *args):
        douts = args[-1] if isinstance(args[-1], tuple) else (args[-1],)
        grads = self._function.backward(self._ctx, *douts)
        grads = grads if isinstance(grads, tuple) else (grads,)
        inputs = args[:-2]
        if len(grads) != len(inputs):
            raise ValueError(f"{self._function.__name__}.backward returned {len(grads)} "
                             f"gradients for {len(inputs)} inputs")
        return grads


class _Function:
    """Base class of custom autograd functions (see the module docstring).

    >>> import hookgrad as ms
    >>> class Cube(ms._Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x * x
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         (x,) = ctx.saved_tensors
    ...         return grad * 3 * x * x
    >>> ms.grad(lambda a: Cube.apply(a))(ms.Tensor(2.0))
    Tensor(shape=[], dtype=Float32, value= 12)
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("a _Function subclass must define forward(ctx, *args)")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("a _Function subclass must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` on ``args``, with ``backward`` as its gradient."""
        needs = tuple(isinstance(a, Tensor) and a._data.dtype.kind in 'fcV' for a in args)
        return _FunctionCall(cls, FunctionCtx(needs), kwargs)(*args)
