"""``set_context`` / ``get_context``: MindSpore's global execution settings."""
import warnings

PYNATIVE_MODE = 1
GRAPH_MODE = 0

_context = {'mode': PYNATIVE_MODE, 'device_target': 'CPU'}
_TARGETS = ('CPU', 'GPU', 'Ascend')


def set_context(**kwargs):
    """Set execution options: ``mode`` and ``device_target`` ('CPU', 'GPU').

    ``mode=GRAPH_MODE`` runs every call of a Cell made from outside any Cell as a graph-mode
    program (``hookgrad.jit``: traced on its first call with a signature, replayed after; every
    hook keeps firing); ``PYNATIVE_MODE`` (the default) runs everything eagerly. Unknown keys
    are stored, with a warning that they have no effect.
    """
    for key, value in kwargs.items():
        if key == 'mode':
            if value not in (PYNATIVE_MODE, GRAPH_MODE):
                raise ValueError(f"set_context: mode must be ms.PYNATIVE_MODE or ms.GRAPH_MODE, "
                                 f"got {value!r}")
            from .nn.cell import Cell
            Cell.__call__ = Cell._graph_call if value == GRAPH_MODE else Cell._eager_call
            _context['mode'] = value
        elif key == 'device_target':
            if value not in _TARGETS:
                raise ValueError(f"set_context: device_target must be one of {_TARGETS}, "
                                 f"got {value!r}")
            _context['device_target'] = value
        else:
            warnings.warn(f"set_context: option {key!r} has no effect in hookgrad", stacklevel=2)
            _context[key] = value


def get_context(key):
    """The value of a context option set by ``set_context``."""
    if key not in _context:
        raise ValueError(f"get_context: unknown option {key!r}")
    return _context[key]
