"""MindSpore's ``mindspore.common.tensor``: the Tensor class, the ``tensor`` function and
``swap_tensors``."""
import weakref

from .._tensor import Tensor
from .._toplevel import tensor
from ..compat.names import reporter as _reporter

__all__ = ['Tensor', 'tensor', 'swap_tensors']


def _slots(cls):
    return [name for c in cls.__mro__ for name in c.__dict__.get('__slots__', ())
            if name != '__weakref__']


def swap_tensors(t1, t2):
    """Swap the contents of two Tensors in place: afterwards ``t1`` holds what ``t2`` held (its
    data, dtype, gradient state and graph position, its class and Python attributes) and
    ``t2`` what ``t1`` held; ``id(t1)`` and ``id(t2)`` are unchanged.

    Raises:
        TypeError: for an argument that is not a Tensor.
        RuntimeError: when either tensor has weak references (a hook or the tape may hold
            one), as MindSpore; or their classes hold different fields (a Tensor and a
            Parameter, which MindSpore swaps and hookgrad cannot).
    """
    for name, t in (('t1', t1), ('t2', t2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"swap_tensors: {name} must be a Tensor, got {type(t).__name__}")
    if t1 is t2:
        return
    if weakref.getweakrefcount(t1) or weakref.getweakrefcount(t2):
        raise RuntimeError("swap_tensors: cannot swap tensors that have weak references")
    c1, c2 = type(t1), type(t2)
    slots = _slots(c1)
    if slots != _slots(c2) or hasattr(t1, '__dict__') != hasattr(t2, '__dict__'):
        raise RuntimeError(f"swap_tensors: hookgrad cannot swap a {c1.__name__} and a "
                           f"{c2.__name__}: their classes hold different fields")
    missing = object()
    values = [(getattr(t1, s, missing), getattr(t2, s, missing)) for s in slots]
    for s, (a, b) in zip(slots, values):
        for t, v in ((t1, b), (t2, a)):
            if v is missing:
                if hasattr(t, s):
                    object.__delattr__(t, s)
            else:
                object.__setattr__(t, s, v)
    if hasattr(t1, '__dict__'):
        d1, d2 = dict(t1.__dict__), dict(t2.__dict__)
        t1.__dict__.clear()
        t1.__dict__.update(d2)
        t2.__dict__.clear()
        t2.__dict__.update(d1)
    if c1 is not c2:
        t1.__class__, t2.__class__ = c2, c1


__getattr__ = _reporter('mindspore.common.tensor')
