"""Loss scaling: ``TrainOneStepWithLossScaleCell`` and its update cells.

A float16 network's small gradients underflow to zero; multiplying the loss by a scale ``S``
before backward lifts them into float16's range, and dividing the gradients by ``S`` before the
update gives the true ones. Too large an ``S`` overflows instead: the step then finds a
non-finite gradient, skips the update and (``DynamicLossScaleUpdateCell``) lowers ``S``.
"""
import numpy as np

from ..._tensor import Tensor
from ...kernels import backend
from ..cell import Cell
from ..parameter import Parameter
from .cell_wrapper import TrainOneStepCell

__all__ = ['DynamicLossScaleUpdateCell', 'FixedLossScaleUpdateCell',
           'TrainOneStepWithLossScaleCell']


def _positive_int(value, who, arg):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"{who}: {arg} must be an int > 0, got {value!r}")
    return int(value)


def _flag(overflow):
    """``overflow`` (a bool Tensor or a Python bool) as a Python bool (a host read for a device
    Tensor)."""
    if not isinstance(overflow, Tensor):
        return bool(overflow)
    a = overflow._data
    if type(a) is not np.ndarray:
        a = backend.to_host(a, 'the overflow flag of loss scaling')
    return bool(np.all(a))


class DynamicLossScaleUpdateCell(Cell):
    """Updates the loss scale each step: divided by ``scale_factor`` (to at least 1) on an
    overflow, multiplied by it after ``scale_window`` steps in a row without one.

    Args:
        loss_scale_value (float): the initial loss scale.
        scale_factor (int): the factor of each change.
        scale_window (int): the number of overflow-free steps before the scale grows.

    Inputs:
        loss_scale: the Parameter holding the current scale (updated in place);
        overflow: a bool Tensor (or bool), whether this step's gradients overflowed.

    Outputs:
        ``overflow``, unchanged.

    The step counters are host Parameters; a scale on a device is updated there.

    >>> import hookgrad as ms
    >>> cell = ms.nn.DynamicLossScaleUpdateCell(1024.0, 2, 1000)
    >>> scale = ms.Parameter(ms.Tensor(1024.0), name='scale')
    >>> _ = cell(scale, ms.Tensor(True))
    >>> print(scale.asnumpy())
    512.0
    """

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        # read on the host each step: host tensors on every device
        self.scale_window = Tensor._wrap(np.array(scale_window, np.int32))
        self.scale_factor = Tensor._wrap(np.array(scale_factor, np.float32))
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(np.array(1, np.int32), name="current_iterator_step",
                                  device='CPU')
        self.last_overflow_iter = Parameter(np.array(0, np.int32),
                                            name="last_overflow_iterator_step", device='CPU')

    def get_loss_scale(self):
        """The initial loss scale."""
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        is_overflow = _flag(overflow)
        factor = self.scale_factor._data
        scale = loss_scale._data
        cur, last = int(self.cur_iter._data), int(self.last_overflow_iter._data)
        host = type(scale) is np.ndarray
        if not host:
            factor = factor[()]         # a NumPy scalar, which a device takes as a constant
        if is_overflow:
            scale = np.maximum(scale / factor, np.float32(1.0))
        should_inc = int(self.scale_window._data) <= cur - last
        if is_overflow or should_inc:
            self.last_overflow_iter.set_data(np.array(cur, np.int32))
        if should_inc and not is_overflow:
            scale = scale * factor
        loss_scale.set_data(np.asarray(scale, loss_scale._data.dtype) if host else
                            scale.astype(loss_scale._data.dtype, copy=False))
        self.cur_iter.set_data(np.array(cur + 1, np.int32))
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A fixed loss scale: the update leaves it as it is (the step still skips overflows).

    Args:
        loss_scale_value (float): the loss scale.

    Inputs:
        loss_scale (unused), overflow.

    Outputs:
        ``overflow``, unchanged.
    """

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        """The loss scale."""
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One training step with loss scaling: backward from ``loss * scale``, gradients divided
    by the scale, the update skipped when a gradient is not finite.

    Args:
        network: a Cell returning the loss (one output).
        optimizer: the optimizer Cell.
        scale_sense: a Cell (``DynamicLossScaleUpdateCell``, ``FixedLossScaleUpdateCell``),
            called each step to update the scale; or a Tensor of shape () or (1,), a fixed scale
            (changed by ``set_sense_scale``).

    Inputs:
        *inputs: the network's inputs.

    Outputs:
        ``(loss, overflow, scale)``: the loss (unscaled), a bool Tensor telling whether this
        step's gradients overflowed (and the update was skipped), and the scale used.

    The overflow test is Python control flow, so this step runs eagerly in either mode. On a
    GPU the gradients are checked there and the step reads one value, the overflow flag: the
    ``overflow`` output is that flag as a host (CPU) Tensor.

    Raises:
        TypeError: ``scale_sense`` is neither a Cell nor a Tensor.
        ValueError: a Tensor ``scale_sense`` of another shape than () or (1,).

    >>> import hookgrad as ms
    >>> net = ms.nn.WithLossCell(ms.nn.Dense(2, 1), ms.nn.MSELoss())
    >>> update = ms.nn.DynamicLossScaleUpdateCell(2.0**10, 2, 100)
    >>> step = ms.nn.TrainOneStepWithLossScaleCell(net, ms.nn.SGD(net.trainable_params()), update)
    >>> loss, overflow, scale = step(ms.ops.ones((4, 2)), ms.ops.zeros((4, 1)))
    >>> print(overflow, scale.asnumpy())
    False 1024.0
    """

    __call__ = Cell._eager_call

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = np.array(scale_sense.get_loss_scale(), np.float32)
            self.scale_sense = Parameter(Tensor(value), name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((1,), ()):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of "
                                 f"'scale_sense' must be (1,) or (), but got {scale_sense.shape}.")
            self.scale_sense = scale_sense if isinstance(scale_sense, Parameter) else \
                Parameter(scale_sense, name='scale_sense')
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be "
                            f"Cell or Tensor, but got 'scale_sense' type: {type(scale_sense)}.")
        from ...autograd.functional import value_and_grad
        self._scaled_grad_fn = value_and_grad(self._scaled_loss, None, self.weights,
                                              has_aux=True)

    def _scaled_loss(self, *inputs):
        """``(loss * scale, loss)``: backward starts from the scale in the loss's dtype."""
        loss = self.network(*inputs)
        scale = self.scale_sense._data.reshape(()).astype(loss._data.dtype)
        if type(scale) is not type(loss._data):
            scale = backend.to_device(scale, backend.device_of(loss._data))
        return loss * Tensor._wrap(scale), loss

    def construct(self, *inputs):
        scaling_sens = self.scale_sense
        scale = scaling_sens._data
        with np.errstate(over='ignore', invalid='ignore'):   # an overflow is expected here:
            (_, loss), grads = self._scaled_grad_fn(*inputs)  # it is found and handled below
        grads = tuple(_unscaled(g, scale) for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(None, grads)
        if type(cond._data) is not np.ndarray:      # computed on a device: read it once
            cond = Tensor._wrap(np.array(_flag(cond)))
        overflow = self.process_loss_scale(cond)
        if not _flag(overflow):
            self.optimizer(grads)
        return loss, cond, scaling_sens

    def set_sense_scale(self, sens):
        """Give the scale (a Tensor ``scale_sense``) a new value.

        Raises:
            TypeError: ``sens`` is not a Tensor.
        """
        if not isinstance(sens, Tensor):
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be "
                            f"Tensor, but got {type(sens)}")
        self.scale_sense.set_data(sens)

    def start_overflow_check(self, pre_cond, compute_input):
        """``(status, compute_input)``: MindSpore clears an Ascend overflow register here; the
        status is unused on the CPU, where overflow is read from the values."""
        return Tensor(np.zeros(8, np.int32)), compute_input

    def get_overflow_status(self, status, compute_output):
        """A bool Tensor: whether any value in ``compute_output`` (Tensors) is inf or nan; for
        device Tensors it is computed on their device, and not read."""
        from ...amp.scaler import _finite_flag
        finite = _finite_flag(compute_output)
        if type(finite) is bool:
            return Tensor(np.array(not finite))
        return Tensor._wrap(~finite)

    def process_loss_scale(self, overflow):
        """Run the update cell (if any) on the scale; returns ``overflow``."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow


def _unscaled(g, scale):
    """``g / scale``, computed as ``g * (1 / scale)`` in g's dtype, as MindSpore does."""
    if g is None:
        return g
    data = g._data
    if type(data) is np.ndarray:
        return Tensor._wrap(data * np.reciprocal(np.asarray(scale, np.float32)).astype(data.dtype))
    scale = backend.to_device(scale, backend.device_of(data)).astype(np.float32)
    return Tensor._wrap(data * backend.array_module(data).reciprocal(scale).astype(data.dtype))

