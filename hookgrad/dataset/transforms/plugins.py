"""``not_random`` (mark a Python function deterministic) and ``Plugin`` (MindSpore's loader of
C++ shared-library operations, which hookgrad's Python pipeline cannot run)."""
from . import _checks

__all__ = ['not_random', 'Plugin']


def not_random(function):
    """Mark ``function`` as deterministic (``function.random = False``) and return it.

    MindSpore caches the results of a map only when its Python operations are marked so; the
    mark is kept for code that reads it.

    >>> import hookgrad.dataset.transforms as T
    >>> @T.not_random
    ... def double(x):
    ...     return x * 2
    >>> double.random
    False
    """
    function.random = False
    return function


class Plugin:
    """MindSpore's plugin operation (a function loaded from a MindData ``.so`` library):
    not available.

    Args:
        lib_path, func_name: str, as MindSpore's; user_args: str or None.

    Raises:
        TypeError: for arguments that are not str, as MindSpore checks them.
        RuntimeError: always otherwise: the library's functions are written against
            MindSpore's C++ data engine; wrap the work in a Python callable and give that
            to ``Dataset.map`` instead.
    """

    def __init__(self, lib_path, func_name, user_args=None):
        _checks.type_check(lib_path, (str,), 'lib_path')
        _checks.type_check(func_name, (str,), 'func_name')
        if user_args is not None:
            _checks.type_check(user_args, (str,), 'user_args')
        raise RuntimeError(f"Plugin({lib_path!r}, {func_name!r}) is not supported: MindData "
                           f"plugins run inside MindSpore's C++ data engine; give Dataset.map a "
                           f"Python callable instead")
