"""Whether operations record a graph: ``no_grad`` / ``enable_grad`` switch it."""
import functools


class _GradState:
    __slots__ = ('enabled', 'depth')

    def __init__(self):
        self.enabled = True
        self.depth = 0      # how many functional grad transforms are evaluating their function


state = _GradState()


def is_grad_enabled():
    """True when new operations record a graph for backward."""
    return state.enabled


class _GradSwitch:
    """Context manager and decorator that sets grad recording on or off, then restores it."""

    enabled = True

    def __enter__(self):
        self._prev = state.enabled
        state.enabled = self.enabled
        return self

    def __exit__(self, *exc):
        state.enabled = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradSwitch):
    """Disable graph recording: nothing inside requires or accumulates gradients.

    >>> import hookgrad as ms
    >>> x = ms.Tensor([1.0], requires_grad=True)
    >>> with ms.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    enabled = False


class enable_grad(_GradSwitch):
    """Re-enable graph recording inside a ``no_grad`` block."""

    enabled = True
