"""``opt_init_args_register``: MindSpore's decorator that records an optimizer's constructor
arguments (``init_params``, ``init_learning_rate``, ``init_args``), which checkpoint and
model-conversion code reads back."""
import functools
import inspect

from ..._tensor import Tensor
from ..cell import Cell

__all__ = ['opt_init_args_register']


def opt_init_args_register(fn):
    """Decorate an optimizer's ``__init__`` to record its arguments before it runs:
    ``init_params`` ({'params': params}, or an ``optimizer`` argument's), ``init_learning_rate``
    (a Tensor as a list; None for a schedule Cell) and ``init_args`` (the rest)."""
    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop('self')
        if 'params' in arguments:
            self.init_params = {'params': arguments.pop('params')}
        if 'optimizer' in arguments:
            self.init_params = {'params': arguments.pop('optimizer').init_params['params']}
        if 'learning_rate' in arguments:
            lr = arguments.pop('learning_rate')
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            self.init_learning_rate = None if isinstance(lr, Cell) else lr
        self.init_args = arguments
        fn(self, *args, **kwargs)
    return deco
