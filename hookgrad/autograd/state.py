"""The switches a user can flip, kept per thread: grad mode, observers, the executing cell.

Each thread (and each asyncio task, which runs in a copy of its creator's context) sees its own
``State``, held in a context variable. A ``State`` is never changed in place: a switch sets a
new one with some fields replaced, and undoing it replaces those fields again, so a switch in
one thread never shows in another, and a copied context is a snapshot that later switches in
the original do not reach. A new thread starts from the defaults: grad mode on, no observers.

Reading the state is one call (``current()``), which is what every op dispatch pays.
"""
import contextvars

_FIELDS = ('grad', 'depth', 'observers', 'sources', 'cell', 'backward', 'rule')


class State:
    """One thread's switches. Never assigned to once set: ``update`` makes a new State.

    Attributes:
        grad: whether ops record a graph (``no_grad`` / ``enable_grad`` switch it).
        depth: how many functional grad transforms are evaluating their function.
        observers: the active op observers, outermost first (see autograd/observer.py).
        sources: whether an active observer wants the source line of each recorded node.
        cell: the innermost executing cell call (observer.CellFrame) while observers are on.
        backward: whether a backward pass is running.
        rule: the node whose backward rule is running, while observers are on.
    """

    __slots__ = _FIELDS

    def __init__(self, grad=True, depth=0, observers=(), sources=False, cell=None,
                 backward=False, rule=None):
        self.grad = grad
        self.depth = depth
        self.observers = observers
        self.sources = sources
        self.cell = cell
        self.backward = backward
        self.rule = rule

    def __repr__(self):
        return f"State({', '.join(f'{k}={getattr(self, k)!r}' for k in _FIELDS)})"


_var = contextvars.ContextVar('hookgrad_state', default=State())
current = _var.get
"""This thread's State."""


def update(**fields):
    """Replace ``fields`` of this thread's State; return their previous values, so that
    ``update(**previous)`` undoes the change and keeps every other field as it is now."""
    s = _var.get()
    previous = {}
    values = {}
    for name in _FIELDS:
        value = getattr(s, name)
        if name in fields:
            previous[name] = value
            value = fields[name]
        values[name] = value
    if len(previous) != len(fields):
        unknown = sorted(set(fields) - set(_FIELDS))
        raise TypeError(f"update: unknown state fields {unknown}")
    _var.set(State(**values))
    return previous
