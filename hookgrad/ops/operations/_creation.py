"""MindSpore's Primitive classes that make tensors beyond Fill, OnesLike and ZerosLike: from
Python numbers and tuples, identity matrices, zeros and ones, fills, ranges and spaced
values; and scalar casts.

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
from ..._dtype import float32 as _float32
from .._base import scalar_arg
from .. import arithmetic as _arith, creation as _create
from ._primitive import Primitive, _int

__all__ = ['ScalarToTensor', 'TupleToArray', 'ScalarCast', 'Eye', 'Zeros', 'Ones', 'Fills', 'Range',
           'LinSpace', 'LogSpace']


# ----------------------------------------------------------------------------- Python numbers
class ScalarToTensor(Primitive):
    """``ScalarToTensor()(input_x, dtype=float32)``: a 0-d tensor holding a Python number."""
    def construct(self, input_x, dtype=_float32):
        return _create.number_tensor(input_x, dtype, 'ScalarToTensor')


class TupleToArray(Primitive):
    """``TupleToArray()(input_x)``: a 1-d tensor from a tuple of numbers of one type (Int32
    for ints, Float32 for floats)."""
    def construct(self, input_x):
        return _create.tuple_tensor(input_x, 'TupleToArray')


class ScalarCast(Primitive):
    """``ScalarCast()(input_x, input_y)``: the Python number input_x as the type input_y
    (int64, float64 or bool); ints truncate towards zero (``ops.scalar_cast``).

    Raises:
        ValueError: for another type.
    """
    def construct(self, input_x, input_y):
        return _create.cast_number(input_x, input_y, 'ScalarCast')


# ----------------------------------------------------------------------------- filled tensors
class Eye(Primitive):
    """``Eye()(n, m, t)``: an n x m matrix of dtype t with ones on the diagonal."""
    def construct(self, n, m, t):
        return _create.eye(n, m, t)


class Zeros(Primitive):
    """``Zeros()(size, type=None)``: zeros of shape size."""
    def construct(self, size, type=None):
        return _create.zeros(size, type)


class Ones(Primitive):
    """``Ones()(shape, type=None)``: ones of shape shape."""
    def construct(self, shape, type=None):
        return _create.ones(shape, type)


class Fills(Primitive):
    """``Fills()(x, value)``: a Tensor of x's shape and dtype filled with value (a number or a
    0-d Tensor; ``ops.fills``)."""
    def construct(self, x, value):
        return _create.filled_like(x, value, 'Fills')


# ----------------------------------------------------------------------------- ranges
class Range(Primitive):
    """``Range(maxlen=1000000)(start, limit, delta)``: values from start up to limit by delta
    (0-d Tensors of one dtype)."""
    def __init__(self, maxlen=1000000):
        super().__init__(maxlen=maxlen)

    def construct(self, start, limit, delta):
        return _create.range(start, limit, delta, self.maxlen)


class LinSpace(Primitive):
    """``LinSpace()(start, stop, num)``: ``num`` evenly spaced values from start to stop
    inclusive (0-d Tensors start and stop, an int num)."""
    def construct(self, start, stop, num):
        return _create.linspace(scalar_arg(start, 'start'), scalar_arg(stop, 'stop'),
                                scalar_arg(num, 'num'))


class LogSpace(Primitive):
    """``LogSpace(steps=10, base=10, dtype=float32)(start, end)``: ``base ** t`` for ``steps``
    evenly spaced t from start to end."""
    def __init__(self, steps=10, base=10, dtype=_float32):
        steps, base = _int(steps, 'LogSpace', 'steps'), _int(base, 'LogSpace', 'base')
        if steps < 0 or base < 0:
            raise ValueError(f"ops.LogSpace: steps and base must be >= 0, got {steps} and "
                             f"{base}")
        super().__init__(steps=steps, base=base, dtype=dtype)

    def construct(self, start, end):
        exponent = _create.linspace(scalar_arg(start, 'start'), scalar_arg(end, 'end'),
                                    self.steps)
        return _arith.cast(_arith.pow(float(self.base), exponent), self.dtype)
