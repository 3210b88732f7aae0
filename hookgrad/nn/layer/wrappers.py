"""ReflectionPad3d, ReplicationPad3d and TimeDistributed (MindSpore 2.x signatures)."""
from ... import ops
from ..._tensor import Tensor
from ...ops.conv import _is_int
from ...ops.operations._primitive import Primitive
from ..cell import Cell
from .padding import _MirrorPadNd

__all__ = ['ReflectionPad3d', 'ReplicationPad3d', 'TimeDistributed']


class ReflectionPad3d(_MirrorPadNd):
    """Mirror the last three dimensions (without repeating the edge).

    Args:
        padding: an int (every side) or a tuple of 6 ints (left, right, top, bottom, front,
            back), each >= 0 and less than its dimension's size.

    >>> import hookgrad as ms
    >>> ms.nn.ReflectionPad3d(1)(ms.ops.ones((1, 2, 2, 2))).shape
    (1, 4, 4, 4)
    """

    _pairs = 3


class ReplicationPad3d(_MirrorPadNd):
    """Repeat the edge values of the last three dimensions.

    Args:
        padding: an int (every side) or a tuple of 6 ints (left, right, top, bottom, front,
            back).
    """

    _pairs = 3
    _mode = 'replicate'


class TimeDistributed(Cell):
    """Apply ``layer`` to every time step of the input (the slices along ``time_axis``) and
    stack the results on that axis; with ``reshape_with_axis``, the time axis is moved beside
    that one (after it when it came after, before it otherwise), the two merged, the layer
    applied once and the merged axis split again, as MindSpore does.

    Args:
        layer: a Cell or a Primitive taking one Tensor.
        time_axis: the time axis, an int.
        reshape_with_axis: None (default) or the axis the time steps are merged with (the
            batch axis, usually), an int.

    Raises:
        TypeError: for a layer that is not a Cell or Primitive, non-int axes, or a non-Tensor
            input or layer output.
        ValueError: for an input with fewer than 3 axes.

    >>> import hookgrad as ms
    >>> net = ms.nn.TimeDistributed(ms.nn.Dense(3, 4), time_axis=1, reshape_with_axis=0)
    >>> net(ms.ops.ones((2, 5, 3))).shape
    (2, 5, 4)
    """

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(f"nn.TimeDistributed: layer must be a Cell or a Primitive, got "
                            f"{type(layer).__name__}")
        if not _is_int(time_axis):
            raise TypeError(f"nn.TimeDistributed: time_axis must be an int, got {time_axis!r}")
        if reshape_with_axis is not None and not _is_int(reshape_with_axis):
            raise TypeError(f"nn.TimeDistributed: reshape_with_axis must be an int, got "
                            f"{reshape_with_axis!r}")
        super().__init__()
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def _output(self, y):
        if not isinstance(y, Tensor):
            raise TypeError(f"nn.TimeDistributed '{self.path()}': the layer must return a "
                            f"Tensor, got {type(y).__name__}")
        return y

    def construct(self, inputs):
        name = f"nn.TimeDistributed '{self.path()}'"
        if not isinstance(inputs, Tensor):
            raise TypeError(f"{name}: expected a Tensor input, got {type(inputs).__name__}")
        nd = inputs.ndim
        if nd < 3:
            raise ValueError(f"{name}: expected an input with at least 3 axes, got shape "
                             f"{inputs.shape}")
        t = self.time_axis % nd
        if self.reshape_with_axis is None:
            steps = [self._output(self.layer(s)) for s in ops.unstack(inputs, t)]
            return ops.stack(steps, t)
        r = self.reshape_with_axis % nd
        # MindSpore's layout: the time axis moved beside r, the pair merged, the layer run
        # once, the pair split again where it was merged (the time axis is not moved back)
        moved = nd - 2 if r == nd - 1 else (r + 1 if t > r else r - 1)
        at = min(moved, r)
        x = ops.moveaxis(inputs, t, moved)
        shape = x.shape
        y = self._output(self.layer(ops.reshape(x, shape[:at] + (-1,) + shape[at + 2:])))
        if y.ndim <= at or y.shape[at] != shape[at] * shape[at + 1]:
            raise ValueError(f"{name}: the layer changed the merged axis {at} of length "
                             f"{shape[at] * shape[at + 1]} to the output shape {y.shape}")
        return ops.reshape(y, y.shape[:at] + shape[at:at + 2] + y.shape[at + 1:])
