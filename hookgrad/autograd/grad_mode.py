"""Whether operations record a graph: ``no_grad`` / ``enable_grad`` switch it, per thread."""
import functools

from .state import current as _state, update as _update


def is_grad_enabled():
    """True when new operations in this thread record a graph for backward."""
    return _state().grad


class _GradSwitch:
    """Context manager and decorator that sets grad recording on or off in the calling thread,
    then restores what it was."""

    enabled = True

    def __enter__(self):
        self._prev = _update(grad=self.enabled)
        return self

    def __exit__(self, *exc):
        _update(**self._prev)
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
