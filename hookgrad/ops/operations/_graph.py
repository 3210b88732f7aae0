"""The Primitives graph-mode model code still calls: ``FloatStatus`` (overflow check),
``Partial`` (argument binding), ``InsertGradientOf`` (a function applied to the gradient), and
the ``F`` sequence functions ``make_range`` and ``tuple_len``."""
import functools
import numbers

from ..._dtype import float16, float32, float64
from ..._tensor import Tensor
from ..comparison import isfinite
from ..creation import stop_gradient
from ..hook import HookIdentity
from ._primitive import Primitive

__all__ = ['FloatStatus', 'Partial', 'InsertGradientOf']


class FloatStatus(Primitive):
    """``FloatStatus()(x)``: ``[1.]`` (float32, shape (1,)) if x holds a NaN or an infinity,
    else ``[0.]``."""

    def construct(self, x):
        if not isinstance(x, Tensor) or x.dtype not in (float16, float32, float64):
            got = f"Tensor[{x.dtype}]" if isinstance(x, Tensor) else type(x).__name__
            raise TypeError(f"For primitive[FloatStatus], the input argument[x] must be a type "
                            f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                            f"{got}.")
        overflow = (~isfinite(stop_gradient(x))).any()
        return overflow.astype(float32).reshape((1,))


class Partial(Primitive):
    """``Partial()(fn, *args)``: ``fn`` with its first arguments fixed."""

    def construct(self, fn, *args):
        if not callable(fn):
            raise AttributeError(f"'{type(fn).__name__}' object has no attribute '__call__'")
        return functools.partial(fn, *args)


class InsertGradientOf(Primitive):
    """``InsertGradientOf(f)(x)``: x; the gradient reaching it becomes ``f(gradient)``
    (MindSpore's clipping idiom: ``clip = InsertGradientOf(clip_fn)``)."""

    def __init__(self, f):
        super().__init__(f=f, side_effect_backprop=True, side_effect_backprop_mem=True)

    def construct(self, x):
        f = self.f
        return HookIdentity.apply(x, hook=lambda grads: (f(grads[0]),))


class _MakeRange(Primitive):
    """``make_range([start,] stop[, step])``: the ints of ``range`` as a tuple."""
    name = 'make_range'

    def construct(self, *args):
        if not 1 <= len(args) <= 3:
            raise RuntimeError(f"For 'make_range', the input size should within [1, 3] but "
                               f"got{len(args)}")
        for i, a in enumerate(args):
            if isinstance(a, bool) or not isinstance(a, numbers.Integral):
                raise TypeError(f"For 'make_range', the {i}th input should be a int scalar but "
                                f"got {a!r}")
        if len(args) == 3 and args[2] == 0:
            raise RuntimeError("For 'range', the argument 'step' could not be 0.")
        return tuple(range(*(int(a) for a in args)))


class _SequenceLen(Primitive):
    """``tuple_len(seq)``: the length of a tuple or list."""
    name = 'sequence_len'

    def construct(self, seq):
        if not isinstance(seq, (tuple, list)):
            raise TypeError(f"For 'sequence_len', the input must be a tuple or list, got "
                            f"{type(seq).__name__}")
        return len(seq)


_MakeRange.name = 'make_range'          # MindSpore's names, shown by repr
_SequenceLen.name = 'sequence_len'
make_range = _MakeRange()
tuple_len = _SequenceLen()
