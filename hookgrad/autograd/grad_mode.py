"""Whether operations record a graph: ``no_grad`` / ``enable_grad`` switch it, per thread."""
import contextvars
import functools

from .state import grad_enabled as _grad_enabled, restore_grad, switch_grad


def is_grad_enabled():
    """True when new operations in this thread record a graph for backward."""
    return _grad_enabled()


class _GradSwitch:
    """Context manager and decorator that sets grad recording on or off in the calling thread,
    then restores what it was."""

    enabled = True
    _tokens = None      # (token, outer tokens): the object may be entered again inside itself

    def __enter__(self):
        self._tokens = (switch_grad(self.enabled), self._tokens)
        return self

    def __exit__(self, *exc):
        token, self._tokens = self._tokens
        restore_grad(token)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradSwitch):
    """Disable graph recording in this thread: nothing inside requires or accumulates gradients.

    Other threads are not affected.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([1.0], requires_grad=True)
    >>> with ms.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    enabled = False


class enable_grad(_GradSwitch):
    """Re-enable graph recording inside a ``no_grad`` block (in this thread)."""

    enabled = True


_transforms_forbidden = contextvars.ContextVar('hookgrad_transforms_forbidden', default=False)


def check_transforms_allowed(who):
    """The gradient transforms refuse to run inside MindSpore's ``_no_grad`` block."""
    if _transforms_forbidden.get():
        raise RuntimeError(f"In no_grad context, you can not calculate gradient ({who} was "
                           f"called inside mindspore._no_grad)")


class _no_grad(no_grad):
    """MindSpore's ``_no_grad``: ``no_grad`` that also forbids the gradient transforms
    (``grad``, ``value_and_grad``, ``vjp``...) inside it, as MindSpore does; hookgrad's own
    ``no_grad`` lets them run (they record their own graph)."""

    _forbid = None

    def __enter__(self):
        self._forbid = (_transforms_forbidden.set(True), self._forbid)
        return super().__enter__()

    def __exit__(self, *exc):
        token, self._forbid = self._forbid
        _transforms_forbidden.reset(token)
        return super().__exit__(*exc)
