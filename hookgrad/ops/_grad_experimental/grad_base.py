"""``bprop_getters``: backward rules registered for Primitive classes, by class or by name.

``@bprop_getters.register(MyPrim)`` registers ``get_bprop(prim) -> bprop``, where
``bprop(*inputs, out, dout) -> (gradient of each input, ...)``. A Primitive written with
``PrimitiveWithInfer`` or ``PrimitiveWithCheck`` that has a registered rule runs it as its
backward (``ops/operations/_definition.py``); hookgrad's own Primitives differentiate through
their ops and consult no registry.
"""
__all__ = ['Registry', 'BpropRegistry', 'bprop_getters', 'bprops', 'get_bprop_fn']


class Registry(dict):
    """A dict of rules: ``register(key)`` decorates the rule stored under ``key``."""

    def register(self, key):
        def deco(fn):
            self[key] = fn
            return fn
        return deco

    def get(self, obj_str, default=None):
        """The rule for a name or a class (looked up by its name too)."""
        if not isinstance(obj_str, str):
            found = super().get(id(obj_str))
            if found is not None:
                return found
            obj_str = getattr(obj_str, '__name__', obj_str)
        return super().get(obj_str, default)


class BpropRegistry(Registry):
    """Rules by Primitive class (kept by the class's id and name) or by name."""

    def register(self, prim):
        def deco(fn):
            if isinstance(prim, str):
                self[prim] = fn
            elif isinstance(prim, type):
                self[id(prim)] = fn
                self[prim.__name__] = fn
            else:
                raise TypeError(f"bprop_getters.register: expected a Primitive class or a name, "
                                f"got {type(prim).__name__}")
            return fn
        return deco


bprop_getters = BpropRegistry()
bprops = BpropRegistry()


def get_bprop_fn(prim, get_closure=False):
    """The backward rule registered for Primitive instance ``prim``, or None."""
    getter = bprop_getters.get(type(prim))
    return getter(prim) if getter is not None else bprops.get(type(prim).__name__)
