"""``set_context`` / ``get_context``: MindSpore's global execution settings."""
import warnings

PYNATIVE_MODE = 1
GRAPH_MODE = 0

_context = {'mode': PYNATIVE_MODE, 'device_target': 'CPU'}
_TARGETS = ('CPU', 'GPU', 'Ascend')


def set_context(**kwargs):
    """Set execution options: ``mode`` (PYNATIVE_MODE) and ``device_target`` ('CPU', 'GPU').

    hookgrad executes eagerly; ``GRAPH_MODE`` is accepted and runs the same code eagerly, with a
    warning, so that scripts written for it still run. Unknown keys are ignored with a warning.
    """
    for key, value in kwargs.items():
        if key == 'mode':
            if value not in (PYNATIVE_MODE, GRAPH_MODE):
                raise ValueError(f"set_context: mode must be ms.PYNATIVE_MODE or ms.GRAPH_MODE, "
                                 f"got {value!r}")
            if value == GRAPH_MODE:
                warnings.warn("hookgrad runs GRAPH_MODE code eagerly (PyNative); Cell hooks "
                              "stay active", stacklevel=2)
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
