"""Whether operations record a graph: ``no_grad`` / ``enable_grad`` switch it, per thread."""
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
