"""Hook stores and the removable handles every ``register_*`` call returns."""
import functools
import inspect
import itertools
import threading
import weakref

_ids = itertools.count()


class HookStore(dict):
    """Ordered id -> hook; an empty store means "off", so no separate flags exist.

    ``emptied``, when set, is called once a handle's ``remove()`` leaves the store empty (a cell
    uses it to return to its hook-free call path); ``changed`` after every registration and
    removal (graph-mode programs of cells depend on their hooks).
    """

    __slots__ = ('__weakref__', 'emptied', 'changed')

    def __init__(self, emptied=None, changed=None):
        super().__init__()
        self.emptied = emptied
        self.changed = changed

    def add(self, hook, prepend=False):
        if self.changed is not None:
            self.changed()
        handle = RemovableHandle(self)
        if prepend:
            items = list(self.items())
            self.clear()
            self[handle.id] = hook
            self.update(items)
        else:
            self[handle.id] = hook
        return handle

    def snapshot(self):
        """Hooks in order, copied so that a hook may remove itself or others while they run."""
        return tuple(self.values())


class RemovableHandle:
    """Returned by every hook registration; ``remove()`` unregisters that one hook.

    The handle holds its store weakly, so it never keeps a tensor or cell alive, and
    ``remove()`` may be called any number of times. It is also a context manager that
    removes the hook on exit.
    """

    __slots__ = ('id', '_store')

    def __init__(self, store):
        self.id = next(_ids)
        self._store = weakref.ref(store)

    def remove(self):
        """Unregister the hook; a second call does nothing."""
        store = self._store()
        if store is not None and store.pop(self.id, None) is not None:
            if store.changed is not None:
                store.changed()
            if not store and store.emptied is not None:
                store.emptied()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False

    def __repr__(self):
        return f"<RemovableHandle id={self.id}>"


def hook_name(hook):
    """A readable name for any callable used as a hook (for error messages)."""
    name = getattr(hook, '__qualname__', None) or getattr(hook, '__name__', None)
    if name is None:
        func = getattr(hook, 'func', None)      # functools.partial
        if func is not None:
            return f"partial({hook_name(func)})"
        name = type(hook).__name__
    return name


def hook_site(hook):
    """``'file:line'`` where ``hook`` is defined (a function, a method, a ``functools.partial``
    or an object with ``__call__``); None when it has no Python code (a builtin)."""
    fn = hook
    while isinstance(fn, functools.partial):
        fn = fn.func
    try:
        fn = inspect.unwrap(fn)     # past functools.wraps (in_this_thread, decorators)
    except ValueError:
        pass
    fn = getattr(fn, '__func__', fn)                # a bound method
    code = getattr(fn, '__code__', None)
    if code is None:
        code = getattr(getattr(type(fn), '__call__', None), '__code__', None)
    return None if code is None else f"{code.co_filename}:{code.co_firstlineno}"


def in_this_thread(hook):
    """``hook`` limited to the calling thread: called from another thread it does nothing and
    returns None (keeps what it was given). Debugging tools register their hooks this way, so
    they see only the thread that opened them, as op observers do.

    >>> import threading
    >>> seen = []
    >>> hook = in_this_thread(lambda grad: seen.append(threading.get_ident()))
    >>> t = threading.Thread(target=hook, args=(None,)); t.start(); t.join()
    >>> hook(None); seen == [threading.get_ident()]
    True
    """
    owner = threading.get_ident()

    @functools.wraps(hook)
    def scoped(*args):
        if threading.get_ident() == owner:
            return hook(*args)
        return None

    scoped.__qualname__ = hook_name(hook)
    return scoped


def check_hook(hook, what):
    """At registration: reject a non-callable hook and a ``@jit`` one, with a message naming
    the registration. The number of arguments a hook takes is checked when it is called, as in
    MindSpore, so a hook that never fires is never an error (``arity_error``)."""
    if not callable(hook):
        raise TypeError(f"{what}: Expected a callable hook function, got {type(hook).__name__}")
    if getattr(hook, 'runs_as_program', False):       # a @jit function (jit/function.py)
        raise TypeError(f"{what}: Decorating hook function {hook_name(hook)} with '@jit' is not "
                        f"supported: a hook runs each time in Python, as the pass reaches it")


def arity_error(hook, n, what):
    """The TypeError for ``hook`` called with ``n`` positional arguments when its signature
    cannot take them (None when it can, or has no signature to read)."""
    try:
        sig = inspect.signature(hook)
        sig.bind(*([None] * n))
    except (TypeError, ValueError) as e:
        if isinstance(e, ValueError):
            return None         # builtins without a signature
        return TypeError(f"{what} '{hook_name(hook)}{sig}' cannot be called with {n} "
                         f"positional argument{'s' if n != 1 else ''}")
    return None
