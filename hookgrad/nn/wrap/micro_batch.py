"""Cells that run a network on slices of its batch (``GradAccumulationCell``,
``MicroBatchInterleaved``), and ``ParameterUpdate``, which writes a Parameter.

MindSpore builds the first two for pipeline and model parallelism; in one process their
result is well defined, and is what MindSpore computes on CPU: the inputs are cut along
axis 0 into equal slices, the network runs on each slice in turn, and the outputs are summed
(gradients flow through the slices as through any indexing).
"""
import numbers

from ... import ops
from ..._tensor import Tensor
from ..cell import Cell
from ..parameter import Parameter

__all__ = ['GradAccumulationCell', 'MicroBatchInterleaved', 'ParameterUpdate']


def _slices(inputs, count, i):
    """Slice ``i`` of ``count`` equal slices of each input along axis 0."""
    out = []
    for x in inputs:
        if not isinstance(x, Tensor):
            raise TypeError(f"For micro batch initialization, every input must be a Tensor, got "
                            f"{type(x).__name__}")
        rows = x.shape[0] if x.ndim else 0
        if x.ndim == 0 or rows % count:
            raise ValueError(f"For micro batch initialization, the 0th dimension shape of "
                             f"input({rows if x.ndim else '()'}) must be divided by micro size"
                             f"({count})")
        size = rows // count
        out.append(x[size * i:size * (i + 1)])
    return out


def _count(value, arg, who):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{who}', the argument '{arg}' must be integer, but got the type : "
                        f"{type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{who}', the argument '{arg}' must be large than 0, but got "
                         f"{value}.")
    return int(value)


class GradAccumulationCell(Cell):
    """Runs ``network`` on ``micro_size`` equal slices of its inputs (along axis 0) and returns
    the sum of its outputs, so that gradients accumulate over the slices.

    Args:
        network: the Cell to wrap; its parameters keep their names (``auto_prefix=False``).
        micro_size: the number of slices, an int > 0.

    Inputs:
        Tensors, as ``network`` takes them, each with a first dimension divisible by
        ``micro_size``.

    Outputs:
        The sum of ``network``'s outputs over the slices.

    Raises:
        TypeError: for a network that is not a Cell, a non-int micro_size, or an input that is
            not a Tensor.
        ValueError: for micro_size <= 0, or an input whose first dimension it does not divide.
    """

    def __init__(self, network, micro_size):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'GradAccumulationCell', the argument 'network' must cell type, "
                            f"but got the type : {type(network)}.")
        self.micro_size = _count(micro_size, 'micro_size', 'GradAccumulationCell')
        self.network = network

    def construct(self, *inputs):
        total = None
        for i in range(self.micro_size):
            out = self.network(*_slices(inputs, self.micro_size, i))
            total = out if total is None else total + out
        return total


class MicroBatchInterleaved(Cell):
    """Runs ``network`` on ``interleave_num`` equal slices of its inputs (along axis 0) and
    returns ``0.0`` plus the sum of its outputs (which must be Tensors).

    Args:
        network: the Cell to wrap; its parameters keep their names (``auto_prefix=False``).
        interleave_num: the number of slices, an int > 0. Default 2.

    Inputs:
        Tensors, as ``network`` takes them, each with a first dimension divisible by
        ``interleave_num``.

    Outputs:
        The sum of ``network``'s outputs over the slices.

    Raises:
        TypeError: for a non-int interleave_num, or an input that is not a Tensor.
        ValueError: for interleave_num <= 0, or an input whose first dimension it does not
            divide.
    """

    def __init__(self, network, interleave_num=2):
        super().__init__(auto_prefix=False)
        self.interleave_num = _count(interleave_num, 'interleave_num', 'MicroBatchInterleaved')
        self.network = network

    def construct(self, *inputs):
        output = 0.0
        for i in range(self.interleave_num):
            output = output + self.network(*_slices(inputs, self.interleave_num, i))
        return output


class ParameterUpdate(Cell):
    """Writes its input into ``param`` (cast to the parameter's dtype) and returns the input.

    Args:
        param: the Parameter to update.

    Inputs:
        x: a Tensor of the parameter's shape.

    Outputs:
        ``x``, unchanged.

    Raises:
        TypeError: for a ``param`` that is not a Parameter, or an ``x`` that is not a Tensor.
        ValueError: for an ``x`` whose shape differs from the parameter's.

    >>> import numpy as np
    >>> import hookgrad as ms
    >>> w = ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name='w')
    >>> out = ms.nn.ParameterUpdate(w)(ms.Tensor(np.array([1, 2], np.int32)))
    >>> print(w.asnumpy(), out.dtype)
    [1. 2.] Int32
    """

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got "
                            f"{type(param)}.")
        self._param = param

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'ParameterUpdate', the input must be a Tensor, got "
                            f"{type(x).__name__}")
        if x.shape != self._param.shape:
            raise ValueError(f"For 'Assign','value' must have the same shape as 'variable'. But "
                             f"got 'value' shape: {x.shape}, 'variable' shape: "
                             f"{self._param.shape}.")
        ops.assign(self._param, x)
        return x
