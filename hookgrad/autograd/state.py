"""The switches a user can flip, kept per thread: grad mode, observers, the executing cell.

Each is held in a context variable, so each thread (and each asyncio task, which runs in a
copy of its creator's context) sees its own: a switch in one thread never shows in another,
and a copied context is a snapshot that later switches in the original do not reach. A new
thread starts from the defaults: grad mode on, no observers, depth 0.

- Grad mode is a bool: ``grad_enabled()`` is what op dispatch reads; ``switch_grad`` and
  ``restore_grad`` change it (the backward loop, which no trace records, uses ``grad`` itself).
- The observer state is a ``State``, never changed in place: ``update`` sets a new one with
  some fields replaced and returns their previous values, so undoing a change keeps every
  other field as it is now. It is read only while some thread has an observer on.
- ``depth`` counts the functional grad transforms evaluating their function.
- ``integer_leaves`` holds the ids of the integer tensors a transform differentiates (MindSpore
  gives them gradients in their own dtype); other integer leaves get no edge in the graph.
"""
import contextvars

grad = contextvars.ContextVar('hookgrad_grad_enabled', default=True)
grad_enabled = grad.get
integer_leaves = contextvars.ContextVar('hookgrad_integer_leaves', default=frozenset())
"""Whether ops record a graph in this thread (``no_grad`` / ``enable_grad`` switch it)."""

def switch_grad(enabled):
    """Set grad mode (a bool) in this thread; returns the token ``restore_grad`` takes. A
    graph-mode trace of the thread records the switch, so its program replays it."""
    token = grad.set(enabled)
    s = _var.get()
    if s.recorder is not None:
        s.recorder.grad_mode(enabled)
    return token


def restore_grad(token):
    """Undo ``switch_grad`` (also when called in another context than the switch was)."""
    try:
        grad.reset(token)
    except ValueError:
        grad.set(True if token.old_value is token.MISSING else token.old_value)
    s = _var.get()
    if s.recorder is not None:
        s.recorder.grad_mode(grad.get())


depth = contextvars.ContextVar('hookgrad_transform_depth', default=0)
"""How many functional grad transforms are evaluating their function in this thread."""

_FIELDS = ('observers', 'sources', 'cell', 'backward', 'rule', 'recorder')


class State:
    """One thread's observer state. Never assigned to once made: ``update`` makes new ones.

    Attributes:
        observers: the active op observers, outermost first (see autograd/observer.py).
        sources: whether an active observer wants the source line of each recorded node.
        cell: the innermost executing cell call (observer.CellFrame) while observers are on.
        backward: whether a backward pass is running (kept while observers are on).
        rule: the node whose backward rule is running, while observers are on.
        recorder: the graph-mode recorder tracing this thread (hookgrad/jit), or None.
    """

    __slots__ = _FIELDS

    def __init__(self, observers=(), sources=False, cell=None, backward=False, rule=None,
                 recorder=None):
        self.observers = observers
        self.sources = sources
        self.cell = cell
        self.backward = backward
        self.rule = rule
        self.recorder = recorder

    def __repr__(self):
        return f"State({', '.join(f'{k}={getattr(self, k)!r}' for k in _FIELDS)})"


_var = contextvars.ContextVar('hookgrad_observer_state', default=State())
current = _var.get
"""This thread's observer State."""


def update(**fields):
    """Replace ``fields`` of this thread's State; return their previous values, so that
    ``update(**previous)`` undoes the change and keeps every other field as it is now."""
    s = _var.get()
    unknown = set(fields).difference(_FIELDS)
    if unknown:
        raise TypeError(f"update: unknown state fields {sorted(unknown)}")
    previous = {name: getattr(s, name) for name in fields}
    _var.set(State(**{name: fields[name] if name in fields else getattr(s, name)
                      for name in _FIELDS}))
    return previous
