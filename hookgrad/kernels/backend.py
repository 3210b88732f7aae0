"""The one module that knows which array library runs the math.

Everything else asks for ``xp``; NumPy is the default and the only required dependency.
"""
import numpy

xp = numpy
ndarray = numpy.ndarray


def asarray(data, dtype=None):
    """Return ``data`` as an array of the active library, copying only when needed."""
    return xp.asarray(data, dtype=dtype)
