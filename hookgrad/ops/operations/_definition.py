"""Writing a Primitive in Python, as MindSpore's ``mindspore.ops.primitive`` offers it:
``prim_attr_register`` (the constructor's arguments become the attributes), ``PrimitiveWithInfer``
and ``PrimitiveWithCheck`` (shape and dtype inference methods, kept for the code that calls them),
and ``constexpr``.

Such a Primitive computes in ``construct`` (hookgrad runs Primitives eagerly). When a backward
rule is registered for its class in ``ops._grad_experimental.grad_base.bprop_getters``, calls
run that rule as their backward, ``bprop(*inputs, out, dout)``, as MindSpore does.
"""
import functools
import inspect

from ...jit import constexpr
from .._grad_experimental.grad_base import get_bprop_fn
from ._primitive import Primitive

__all__ = ['Primitive', 'PrimitiveWithInfer', 'PrimitiveWithCheck', 'prim_attr_register',
           'prim_arg_register', 'constexpr']

_primexpr = constexpr       # MindSpore's private twin of constexpr


def prim_attr_register(fn):
    """Decorate a Primitive's ``__init__``: its bound arguments (defaults included) become the
    Primitive's attributes before ``__init__`` runs."""
    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        attrs = dict(bound.arguments)
        del attrs['self']
        Primitive.__init__(self, **attrs)
        fn(self, *args, **kwargs)
    return deco


prim_arg_register = prim_attr_register     # MindSpore's variant for generated Primitives


class _Defined(Primitive):
    """A Primitive written in Python: MindSpore's attribute methods, and a registered bprop run
    as the backward of a call."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get('__call__') is cls.__dict__.get('construct'):
            cls.__call__ = _Defined.__call__     # Primitive binds construct; the bprop needs this

    def __call__(self, *args):
        construct = getattr(self, 'construct', None)
        if construct is None:
            raise TypeError(f"{type(self).__name__}: a Primitive written in Python must define "
                            f"construct to run in hookgrad")
        bprop = get_bprop_fn(self)
        if bprop is None:
            return construct(*args)
        from ..grad_ops import custom_vjp
        run = custom_vjp(lambda *xs: construct(*xs))
        run.defbwd(bprop)
        return run(*args)


class PrimitiveWithInfer(_Defined):
    """A Python Primitive with ``infer_shape``, ``infer_dtype`` and ``infer_value`` methods."""

    def infer_shape(self, *args):
        return None

    def infer_dtype(self, *args):
        return None

    def infer_value(self, *args):
        return None


class PrimitiveWithCheck(_Defined):
    """A Python Primitive with ``check_shape`` and ``check_dtype`` methods."""

    def check_shape(self, *args):
        return None

    def check_dtype(self, *args):
        return None
