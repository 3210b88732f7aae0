"""``ops.HookBackward``: an identity op whose backward hands the arriving gradient to a function."""
from .._tensor import Tensor
from ..autograd.function import Op
from ..hooks import calling
from ..hooks.handle import check_hook, hook_name
from ._base import as_tensor


class HookIdentity(Op):
    """y = x for every input; backward calls ``hook(grads)`` and may take its replacement."""
    name = 'HookBackward'

    @staticmethod
    def forward(ctx, *xs, hook):
        ctx.hook = hook
        return xs[0] if len(xs) == 1 else xs

    @staticmethod
    def backward(ctx, *gys):
        raw = not isinstance(gys[0], Tensor)
        hook = ctx.hook
        r = calling.call(hook, (tuple(Tensor._wrap(g) for g in gys) if raw else gys,),
                         'HookBackward hook')
        if r is None:
            return gys
        return calling.gradients(r, gys, 'HookBackward hook', hook, None, 'grads', raw)


class HookBackward:
    """Identity op that shows (and may replace) the gradient flowing back through it.

    ``hook_fn(grad_tuple) -> None | tuple`` receives a tuple holding the gradient of each input
    at this point of the network; returning a tuple (or a Tensor) replaces those gradients
    (see docs/hooks.md for what a replacement may be).

    >>> import hookgrad as ms
    >>> seen = []
    >>> hook = ms.ops.HookBackward(lambda grads: seen.append(grads[0].item()))
    >>> ms.grad(lambda x: hook(x * 3) * 2)(ms.Tensor(1.0))
    Tensor(shape=[], dtype=Float32, value= 6)
    >>> seen
    [2.0]
    """

    def __init__(self, hook_fn, cell_id=""):
        check_hook(hook_fn, 'ops.HookBackward')
        self.hook_fn = hook_fn
        self.cell_id = cell_id

    def __call__(self, *inputs):
        if not inputs:
            raise TypeError("HookBackward: expected at least one Tensor input")
        xs = [as_tensor(x, 'HookBackward input') for x in inputs]
        return HookIdentity.apply(*xs, hook=self.hook_fn)

    def __repr__(self):
        return f"HookBackward(hook_fn={hook_name(self.hook_fn)})"
