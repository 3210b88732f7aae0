"""MindSpore's ``mindspore._extends``: ``cell_attr_register``, which MindSpore's layers and
tests decorate ``__init__`` with."""
import functools
import inspect

__all__ = ['cell_attr_register']


def cell_attr_register(fn=None, attrs=None):
    """Decorate a Cell's ``__init__`` to keep its arguments as ``cell_init_args``, a str:
    the class name and the bound arguments' values, or, with ``attrs`` (a name or a list of
    names), those attributes' values once ``__init__`` has run (MindSpore's format)."""
    def wrap_cell(fn):
        @functools.wraps(fn)
        def deco(self, *args, **kwargs):
            arguments = []
            if attrs is None:
                bound = inspect.signature(fn).bind(self, *args, **kwargs).arguments
                del bound['self']
                arguments = bound.values()
            fn(self, *args, **kwargs)
            if attrs is None:
                self.cell_init_args = type(self).__name__ + str(arguments)
                return
            if isinstance(attrs, list):
                for item in attrs:
                    if not isinstance(item, str):
                        raise ValueError("attr must be a string")
                    if hasattr(self, item):
                        arguments.append(getattr(self, item))
            elif isinstance(attrs, str):
                if hasattr(self, attrs):
                    arguments = getattr(self, attrs)
            else:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = type(self).__name__ + str(arguments)
        return deco
    return wrap_cell if fn is None else wrap_cell(fn)
