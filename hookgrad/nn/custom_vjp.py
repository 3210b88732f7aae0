"""``ops.custom_vjp``: a function with a backward rule of its own.

The decorated function becomes a Cell whose ``construct`` is the function and whose ``bprop``
is the rule given to ``defbwd``, so it follows the custom-bprop contract of ``Cell.bprop``
(hookgrad/hooks/bprop.py): ``bwd(*inputs, out, dout)`` returns one gradient per input, and
hooks, the transforms and higher-order gradients treat it as any Cell with a ``bprop``.
"""
from .cell import Cell


class CustomVjp(Cell):
    """A function with a custom backward rule (made by ``custom_vjp``)."""

    def __init__(self, fwd):
        super().__init__()
        self.fwd = fwd
        self.bwd = None

    def construct(self, *args):
        return self.fwd(*args)

    def defbwd(self, bwd):
        """Set the backward rule ``bwd(*inputs, out, dout) -> (grad of each input, ...)``."""
        if not callable(bwd):
            raise TypeError(f"custom_vjp: defbwd needs a function, got {type(bwd).__name__}")
        self.bwd = bwd
        return bwd

    def bprop(self, *args):
        if self.bwd is None:
            name = getattr(self.fwd, '__name__', 'the function')
            raise RuntimeError(f"custom_vjp: {name} has no backward rule; set one with "
                               f"{name}.defbwd(bwd) before differentiating it")
        return self.bwd(*args)


def custom_vjp(fn=None):
    """Give a function a backward rule of its own.

    ``@custom_vjp`` (or ``custom_vjp(fn)``) turns ``fn`` into a callable Cell; ``f.defbwd(bwd)``
    sets its rule: ``bwd(*inputs, out, dout)`` returns a tuple with one gradient per input,
    as ``Cell.bprop`` does.

    >>> import hookgrad as ms
    >>> @ms.ops.custom_vjp
    ... def f(x):
    ...     return x * x
    >>> _ = f.defbwd(lambda x, out, dout: (dout * 10,))
    >>> ms.grad(f)(ms.Tensor(3.0))
    Tensor(shape=[], dtype=Float32, value= 10)
    """
    if fn is None:
        return CustomVjp
    if not callable(fn):
        raise TypeError(f"custom_vjp: expected a function, got {type(fn).__name__}")
    return CustomVjp(fn)
