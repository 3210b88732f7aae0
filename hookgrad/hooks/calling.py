"""Calling user hooks and checking what they return: the one place, for every kind of hook.

The policy (docs/hooks.md, "What a hook may return"):

- A hook that returns gradients (tensor hooks, ``ops.HookBackward``, cell backward pre-hooks and
  backward hooks) returns None, to keep what it was given, or replacements: one per gradient
  (a single Tensor where one gradient is replaced), each a Tensor of exactly the shape of the
  gradient it replaces and of a floating-point dtype. A replacement of another floating dtype is
  cast to the dtype of the gradient it replaces (the dtype of its tensor), as the backward pass
  casts every gradient; so is a replacement of an integer gradient (which a transform
  differentiating integer tensors computes, as MindSpore does), whatever its number dtype.
  None is expected where there is no gradient (a non-tensor input).
- A forward pre-hook returns None or new inputs (a non-tuple is one input); a forward hook None
  or new outputs. Both keep the structure construct sees and returns: as many inputs as
  construct accepts, as many outputs as it returned, and a Tensor wherever there was a Tensor.
  Shapes and dtypes may change in forward (a hook may cast or reshape).

A bad return fails at the hook, with an error naming the hook, the cell path (for cell hooks)
and what was expected. An exception raised inside a hook propagates with a note naming them.
The backward hooks (or backward pre-hooks) of one cell run as a chain, as in MindSpore: each is
given what the one before returned, unchecked but for its count; the type, shape and dtype of
what the chain ends with are checked once, naming the last hook that returned gradients.
"""
import inspect

from .._dtype import from_numpy
from .._frames import add_note
from .._tensor import Tensor
from .handle import arity_error, hook_name


def who(kind, hook, cell=None):
    """How errors name a hook: ``"Cell 'Net.fc1' backward hook 'scale'"``,
    ``"tensor hook 'scale'"``."""
    where = f"Cell '{cell.path()}' " if cell is not None else ''
    return f"{where}{kind} '{hook_name(hook)}'"


def call(hook, args, kind, cell=None):
    """``hook(*args)``; an exception gets a note naming the hook, its kind and its cell, and a
    hook whose signature cannot take the arguments a clear TypeError saying so."""
    try:
        return hook(*args)
    except Exception as e:
        if isinstance(e, TypeError):
            where = f"Cell '{cell.path()}' {kind}" if cell is not None else kind
            wrong = arity_error(hook, len(args), where)
            if wrong is not None:
                raise wrong from e
        add_note(e, f"(raised in {who(kind, hook, cell)})")
        raise


# --------------------------------------------------------------------------- gradients
def gradient(new, old, name, raw):
    """One replacement gradient checked against the gradient ``old`` it replaces.

    ``raw``: the backward pass runs on arrays (``old`` is an array and the replacement is
    returned as one); otherwise on Tensors (a recorded backward) and a cast is recorded too.
    ``name`` is the error prefix, e.g. ``"tensor hook 'f' returned a gradient"``.
    """
    if not isinstance(new, Tensor):
        raise TypeError(f"{name} of type {type(new).__name__}, expected a Tensor")
    shape = tuple(old.shape)
    if new.shape != shape:
        raise ValueError(f"{name} of shape {new.shape}, expected shape {shape}")
    have = new._data.dtype
    want = old.dtype if raw else old._data.dtype
    if have.kind not in 'fVc' and want.kind in 'fVc':
        raise TypeError(f"{name} of dtype {new.dtype}, expected a floating-point gradient "
                        f"({from_numpy(want)})")
    if raw:
        return new._data if have == want else new._data.astype(want)
    if have == want:
        return new
    from ..ops.arithmetic import cast
    return cast(new, want)


def _counted(r, olds, name, label):
    """A hook's returned gradients as a tuple or list (a single Tensor for a single gradient),
    as many as ``olds``; TypeError otherwise."""
    if isinstance(r, Tensor) and len(olds) == 1:
        r = (r,)
    if not isinstance(r, (tuple, list)):
        raise TypeError(f"{name} must return None or a tuple of {len(olds)} gradient"
                        f"{'s' if len(olds) != 1 else ''}, got {type(r).__name__}")
    if len(r) != len(olds):
        raise TypeError(f"{name} returned {len(r)} gradient{'s' if len(r) != 1 else ''}, "
                        f"expected {len(olds)} ({label})")
    return r


def passed_on(r, olds, kind, hook, cell, label):
    """A hook's returned gradients as the next hook of its chain is given them: a tuple of as
    many as ``olds`` (a single Tensor for a single gradient), None where ``olds`` has None.
    Only the count and the Nones are checked here; ``gradients`` checks the chain's result."""
    name = who(kind, hook, cell)
    r = _counted(r, olds, name, label)
    for i, (new, old) in enumerate(zip(r, olds)):
        if old is None and new is not None:
            raise TypeError(f"{name} returned {label}[{i}] of type {type(new).__name__}, "
                            f"expected None (that input has no gradient)")
    return tuple(r)


def gradients(r, olds, kind, hook, cell, label, raw):
    """A hook's returned tuple of gradients checked against ``olds`` (None where no gradient
    exists); returns the replacements as a tuple in the form of ``olds``.

    ``label`` names the tuple in errors (``'grad_input'``).
    """
    name = who(kind, hook, cell)
    r = _counted(r, olds, name, label)
    out = []
    for i, (new, old) in enumerate(zip(r, olds)):
        if old is None:
            if new is not None:
                raise TypeError(f"{name} returned {label}[{i}] of type {type(new).__name__}, "
                                f"expected None (that input has no gradient)")
            out.append(None)
        else:
            out.append(gradient(new, old, f"{name} returned {label}[{i}]", raw))
    return tuple(out)


def run_tensor_hooks(store, g, create_graph):
    """A tensor's hooks in registration order, each seeing the previous one's replacement.

    ``g`` is an array, or a Tensor when the backward pass is recorded; so is the result.
    """
    raw = not create_graph
    for hook in store.snapshot():
        r = call(hook, (Tensor._wrap(g) if raw else g,), 'tensor hook')
        if r is None:
            continue
        if not isinstance(r, Tensor):   # RuntimeError, in MindSpore's words
            raise RuntimeError(f"{who('tensor hook', hook)}: Tensor hook should be return "
                               f"Tensor, but get type: {type(r).__name__} (it must return a "
                               f"Tensor or None)")
        g = gradient(r, g, f"{who('tensor hook', hook)} returned a gradient", raw)
    return g


# --------------------------------------------------------------------------- forward
def forward_inputs(r, args, kwargs, hook, cell):
    """A forward pre-hook's replacement inputs: a tuple construct can take, a Tensor wherever
    construct was given one."""
    new = r if isinstance(r, tuple) else (r,)
    name = who('forward pre hook', hook, cell)
    if len(new) != len(args):
        try:
            inspect.signature(cell.construct).bind(*new, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name} returned {len(new)} input{'s' if len(new) != 1 else ''}, "
                            f"which {type(cell).__name__}.construct cannot take ({e})") from None
        except ValueError:
            pass        # no signature to check against
    _same_kinds(new, args, name, 'input')
    return new


def forward_outputs(r, out, hook, cell):
    """A forward hook's replacement outputs: the structure construct returned."""
    name = who('forward hook', hook, cell)
    if isinstance(out, Tensor):
        if not isinstance(r, Tensor):
            raise TypeError(f"{name} returned {type(r).__name__}, expected a Tensor (the cell "
                            f"returned one)")
    elif isinstance(out, (tuple, list)):
        if not isinstance(r, (tuple, list)) or len(r) != len(out):
            got = f"{len(r)} outputs" if isinstance(r, (tuple, list)) else type(r).__name__
            raise TypeError(f"{name} returned {got}, expected a tuple of {len(out)} outputs "
                            f"(as the cell returned)")
        _same_kinds(r, out, name, 'output')
    return r


def _same_kinds(new, old, name, what):
    for i, (n, o) in enumerate(zip(new, old)):
        if isinstance(o, Tensor) and not isinstance(n, Tensor):
            raise TypeError(f"{name} returned {type(n).__name__} as {what} {i}, expected a "
                            f"Tensor (the cell had one there)")
