"""MindSpore 2.x's in-place ``ops`` functions: bernoulli_, clamp_, erfinv_, exponential_,
normal_, uniform_, zero_, put_, random_, tanh_ and inplace_sigmoid.

Each is the Tensor method of the same name (``ops.zero_(x)`` is ``x.zero_()``), the one
implementation of the in-place update: in a graph the tensor is rebound to the recorded
result, so gradients and versions stay right; elsewhere the values are written in place. Each
returns its input. Random fills draw from the global generator (``ms.set_seed``).
"""
from .._tensor import Tensor

__all__ = ['bernoulli_', 'clamp_', 'erfinv_', 'exponential_', 'normal_', 'uniform_', 'zero_',
           'put_', 'random_', 'tanh_', 'inplace_sigmoid']


def _tensor(input, name):
    if not isinstance(input, Tensor):
        raise TypeError(f"ops.{name}: input must be a Tensor, got {type(input).__name__}")
    return input


def bernoulli_(input, p=0.5, *, generator=None):
    """Fill ``input`` with 0/1 draws that are 1 with probability ``p``; returns it."""
    return _tensor(input, 'bernoulli_').bernoulli_(p, generator=generator)


def clamp_(input, min=None, max=None):
    """Clamp ``input`` to [min, max] in place; returns it."""
    return _tensor(input, 'clamp_').clamp_(min, max)


def erfinv_(input):
    """Replace ``input`` by its inverse error function; returns it."""
    return _tensor(input, 'erfinv_').erfinv_()


def exponential_(input, lambd=1, *, generator=None):
    """Fill ``input`` with exponential draws of rate ``lambd``; returns it."""
    return _tensor(input, 'exponential_').exponential_(lambd, generator=generator)


def normal_(input, mean=0, std=1, *, generator=None):
    """Fill ``input`` with normal draws of ``mean`` and ``std``; returns it."""
    return _tensor(input, 'normal_').normal_(mean, std, generator=generator)


def uniform_(input, from_=0, to=1, *, generator=None):
    """Fill ``input`` with uniform draws from [from_, to); returns it."""
    return _tensor(input, 'uniform_').uniform_(from_, to, generator=generator)


def zero_(input):
    """Fill ``input`` with zeros; returns it."""
    return _tensor(input, 'zero_').zero_()


def put_(input, index, source, accumulate=False):
    """Write (or add, with ``accumulate``) ``source`` at the flat positions ``index`` of
    ``input``; returns it."""
    return _tensor(input, 'put_').put_(index, source, accumulate)


def random_(input, from_=0, to=None, *, generator=None):
    """Fill ``input`` with integers drawn from [from_, to) (to: the dtype's limit when None);
    returns it."""
    return _tensor(input, 'random_').random_(from_, to, generator=generator)


def tanh_(input):
    """Replace ``input`` by its hyperbolic tangent; returns it."""
    return _tensor(input, 'tanh_').tanh_()


def inplace_sigmoid(input):
    """Replace ``input`` by its sigmoid; returns it."""
    return _tensor(input, 'inplace_sigmoid').sigmoid_()
