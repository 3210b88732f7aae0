"""Loss scale managers (``mindspore.amp`` / ``mindspore.train``): the scale a mixed-precision
step multiplies the loss by, and the update cell ``TrainOneStepWithLossScaleCell`` calls.

``Model`` also keeps the manager's own value in step with each overflow flag
(``update_loss_scale``), as MindSpore's does.
"""
import numbers

__all__ = ['LossScaleManager', 'FixedLossScaleManager', 'DynamicLossScaleManager']


class LossScaleManager:
    """Base class of loss scale managers: ``get_loss_scale``, ``update_loss_scale(overflow)``
    and ``get_update_cell``."""

    def get_loss_scale(self):
        """The loss scale (the factor the loss, and so the gradients, are multiplied by)."""

    def update_loss_scale(self, overflow):
        """Update the scale after a step; ``overflow``: whether its gradients overflowed."""

    def get_update_cell(self):
        """The Cell that updates the scale inside the training step, or None."""


class FixedLossScaleManager(LossScaleManager):
    """A fixed loss scale.

    Args:
        loss_scale (float): the scale, >= 1. Default 128.0.
        drop_overflow_update (bool): skip the update of a step whose gradients overflow.
            Default True. With False the step is a ``TrainOneStepCell`` with ``sens=loss_scale``
            and nothing divides the gradients: give the optimizer the same ``loss_scale``.

    Raises:
        ValueError: ``loss_scale`` < 1.

    >>> import hookgrad as ms
    >>> ms.amp.FixedLossScaleManager(1024.0).get_loss_scale()
    1024.0
    """

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        """The scale."""
        return self._loss_scale

    def get_drop_overflow_update(self):
        """Whether a step whose gradients overflow skips its update."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """Nothing changes: the scale is fixed."""

    def get_update_cell(self):
        """A ``FixedLossScaleUpdateCell`` with ``drop_overflow_update``, else None."""
        if not self._drop_overflow_update:
            return None
        from ..nn.wrap.loss_scale import FixedLossScaleUpdateCell
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale divided by ``scale_factor`` at each overflow (to at least 1) and multiplied
    by it after ``scale_window`` steps without one.

    Args:
        init_loss_scale (float): the first scale, >= 1. Default 2**24.
        scale_factor (int): the factor of each change, > 0. Default 2.
        scale_window (int): overflow-free steps before the scale grows, > 0. Default 2000.

    Raises:
        ValueError: for an argument out of range.

    >>> import hookgrad as ms
    >>> m = ms.amp.DynamicLossScaleManager(1024, 2, 1000)
    >>> m.update_loss_scale(True)
    >>> m.get_loss_scale()
    512.0
    """

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got "
                             f"{init_loss_scale}")
        self.loss_scale = init_loss_scale
        if isinstance(scale_window, bool) or not isinstance(scale_window, numbers.Integral) \
                or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', the 'scale_window' must be int and "
                             f"must > 0, but got '{scale_window}' with type "
                             f"'{type(scale_window).__name__}'.")
        self.scale_window = scale_window
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        """The current scale."""
        return self.loss_scale

    def update_loss_scale(self, overflow):
        """Lower the scale after an overflow; raise it every ``scale_window`` clean steps.

        Raises:
            RuntimeError: after more than 1000 overflowing steps in a row.
        """
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale Continuous overflow {self.bad_step} times, "
                               f"has exceeded maximum threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        """Always True: an overflowing step skips its update."""
        return True

    def get_update_cell(self):
        """A ``DynamicLossScaleUpdateCell`` starting from the current scale."""
        from ..nn.wrap.loss_scale import DynamicLossScaleUpdateCell
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
