"""MindSpore's Primitive classes that change or report state: optimizer updates of Parameters,
graph-control no-ops, printing, scalar casts, random choice, and the Ascend-only float-status
primitives (refused by name).

The optimizer primitives compute their update through hookgrad's ops with nothing recorded
for autograd, and write it into the Parameters in place (``ops.assign``), as MindSpore's do.
Constructor and call arguments follow MindSpore 2.10's Primitives.
"""
import numbers

from .._dtype import int64 as _int64
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .primitives import Primitive, _flag
from . import (arithmetic as _arith, composite as _composite, creation as _create,
               inspection as _inspect, sampling as _sampling, unary as _unary)
from ._base import as_tensor

__all__ = [
    'ApplyMomentum', 'SGD', 'Adam', 'ApplyGradientDescent', 'ApplyRMSProp', 'ApplyAdagrad',
    'Depend', 'IdentityN', 'TensorShape', 'Print', 'ScalarCast', 'Fills',
    'RandomChoiceWithMask', 'NPUGetFloatStatus', 'NPUAllocFloatStatus', 'NPUClearFloatStatus',
]


def _float(value, prim, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ops.{prim}: {what} must be a float, got {value!r}")
    return float(value)


def _parameter(value, prim, what):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{prim}: {what} must be a Parameter, got {type(value).__name__}")
    return value


# ----------------------------------------------------------------------------- optimizers
class ApplyMomentum(Primitive):
    """``ApplyMomentum(use_nesterov=False, use_locking=False, gradient_scale=1.0)(variable,
    accumulation, learning_rate, gradient, momentum)``: in place,
    ``accumulation = momentum * accumulation + gradient`` and
    ``variable -= learning_rate * accumulation`` (with use_nesterov,
    ``variable -= learning_rate * (gradient + momentum * accumulation)``); returns variable.

    ``gradient_scale`` is accepted and unused, as in MindSpore's CPU kernel.
    """
    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        if not isinstance(gradient_scale, float):
            raise TypeError(f"ops.ApplyMomentum: gradient_scale must be a float, got "
                            f"{gradient_scale!r}")
        super().__init__(use_nesterov=_flag(use_nesterov, 'ApplyMomentum', 'use_nesterov'),
                         use_locking=_flag(use_locking, 'ApplyMomentum', 'use_locking'),
                         gradient_scale=gradient_scale)

    def construct(self, variable, accumulation, learning_rate, gradient, momentum):
        var = _parameter(variable, 'ApplyMomentum', 'variable')
        accum = _parameter(accumulation, 'ApplyMomentum', 'accumulation')
        with no_grad():
            acc = _arith.add(_arith.mul(accum, momentum), gradient)
            step = acc
            if self.use_nesterov:
                step = _arith.add(gradient, _arith.mul(acc, momentum))
            new = _arith.sub(var, _arith.mul(step, learning_rate))
        _create.assign(accum, acc)
        return _create.assign(var, new)


class SGD(Primitive):
    """``SGD(dampening=0.0, weight_decay=0.0, nesterov=False)(parameters, gradient,
    learning_rate, accum, momentum, stat)``: one step of stochastic gradient descent with
    momentum, in place; returns parameters.

    ``g = gradient + weight_decay * parameters``; ``accum = g`` on the first step (``stat``
    nonzero, then set to 0), else ``momentum * accum + (1 - dampening) * g``; then
    ``parameters -= learning_rate * accum`` (with nesterov, ``* (g + momentum * accum)``).

    Raises:
        TypeError: for non-float dampening / weight_decay or a non-bool nesterov.
        ValueError: for nesterov with a nonzero dampening.
    """
    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        dampening = _float(dampening, 'SGD', 'dampening')
        weight_decay = _float(weight_decay, 'SGD', 'weight_decay')
        nesterov = _flag(nesterov, 'SGD', 'nesterov')
        if nesterov and dampening != 0.0:
            raise ValueError(f"ops.SGD: dampening must be 0 when nesterov is True, got "
                             f"{dampening!r}")
        super().__init__(dampening=dampening, weight_decay=weight_decay, nesterov=nesterov)

    def construct(self, parameters, gradient, learning_rate, accum, momentum, stat):
        var = _parameter(parameters, 'SGD', 'parameters')
        acc = _parameter(accum, 'SGD', 'accum')
        stat = _parameter(stat, 'SGD', 'stat')
        with no_grad():
            g = gradient
            if self.weight_decay:
                g = _arith.add(g, _arith.mul(var, self.weight_decay))
            first = _arith.cast(stat, var.dtype)
            later = _arith.add(_arith.mul(acc, momentum), _arith.mul(g, 1.0 - self.dampening))
            new_acc = _arith.add(_arith.mul(first, _arith.sub(g, later)), later)
            step = new_acc
            if self.nesterov:
                step = _arith.add(g, _arith.mul(new_acc, momentum))
            new = _arith.sub(var, _arith.mul(step, learning_rate))
        _create.assign(acc, new_acc)
        _create.assign(stat, 0)
        return _create.assign(var, new)


class Adam(Primitive):
    """``Adam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power, beta2_power, lr,
    beta1, beta2, epsilon, gradient)``: one Adam step in place; returns ``(var, m, v)``.

    ``m = beta1 m + (1 - beta1) g``, ``v = beta2 v + (1 - beta2) g ** 2``,
    ``var -= lr sqrt(1 - beta2_power) / (1 - beta1_power) * m / (sqrt(v) + epsilon)``
    (with use_nesterov, ``m`` there is ``beta1 m + (1 - beta1) g``).
    """
    def __init__(self, use_locking=False, use_nesterov=False):
        super().__init__(use_locking=_flag(use_locking, 'Adam', 'use_locking'),
                         use_nesterov=_flag(use_nesterov, 'Adam', 'use_nesterov'))

    def construct(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                  gradient):
        for what, p in (('var', var), ('m', m), ('v', v)):
            _parameter(p, 'Adam', what)
        with no_grad():
            g = gradient
            new_m = _arith.add(_arith.mul(m, beta1), _arith.mul(g, _arith.sub(1.0, beta1)))
            new_v = _arith.add(_arith.mul(v, beta2),
                               _arith.mul(_arith.square(g), _arith.sub(1.0, beta2)))
            lr_t = _arith.div(_arith.mul(lr, _unary.sqrt(_arith.sub(1.0, beta2_power))),
                              _arith.sub(1.0, beta1_power))
            top = new_m
            if self.use_nesterov:
                top = _arith.add(_arith.mul(new_m, beta1), _arith.mul(g, _arith.sub(1.0, beta1)))
            step = _arith.div(top, _arith.add(_unary.sqrt(new_v), epsilon))
            new = _arith.sub(var, _arith.mul(step, lr_t))
        _create.assign(m, new_m)
        _create.assign(v, new_v)
        return _create.assign(var, new), m, v


class ApplyGradientDescent(Primitive):
    """``ApplyGradientDescent()(var, alpha, delta)``: ``var -= alpha * delta`` in place;
    returns var."""
    def construct(self, var, alpha, delta):
        var = _parameter(var, 'ApplyGradientDescent', 'var')
        with no_grad():
            new = _arith.sub(var, _arith.mul(delta, alpha))
        return _create.assign(var, new)


class ApplyRMSProp(Primitive):
    """``ApplyRMSProp(use_locking=False)(var, mean_square, moment, learning_rate, grad, decay,
    momentum, epsilon)``: in place, ``mean_square = decay * mean_square + (1 - decay) *
    grad ** 2``, ``moment = momentum * moment + learning_rate * grad / sqrt(mean_square +
    epsilon)`` and ``var -= moment``; returns var."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_flag(use_locking, 'ApplyRMSProp', 'use_locking'))

    def construct(self, var, mean_square, moment, learning_rate, grad, decay, momentum,
                  epsilon):
        for what, p in (('var', var), ('mean_square', mean_square), ('moment', moment)):
            _parameter(p, 'ApplyRMSProp', what)
        with no_grad():
            ms = _arith.add(_arith.mul(mean_square, decay),
                            _arith.mul(_arith.square(grad), 1.0 - decay))
            mom = _arith.add(_arith.mul(moment, momentum), _arith.mul(
                _arith.mul(grad, learning_rate), _unary.rsqrt(_arith.add(ms, epsilon))))
            new = _arith.sub(var, mom)
        _create.assign(mean_square, ms)
        _create.assign(moment, mom)
        return _create.assign(var, new)


class ApplyAdagrad(Primitive):
    """``ApplyAdagrad(update_slots=True)(var, accum, lr, grad)``: in place,
    ``accum += grad ** 2`` (with update_slots) and ``var -= lr * grad / sqrt(accum)``;
    returns ``(var, accum)``."""
    def __init__(self, update_slots=True):
        super().__init__(update_slots=_flag(update_slots, 'ApplyAdagrad', 'update_slots'))

    def construct(self, var, accum, lr, grad):
        var = _parameter(var, 'ApplyAdagrad', 'var')
        accum = _parameter(accum, 'ApplyAdagrad', 'accum')
        with no_grad():
            acc = _arith.add(accum, _arith.square(grad)) if self.update_slots else accum
            new = _arith.sub(var, _arith.mul(_arith.mul(grad, lr), _unary.rsqrt(acc)))
        if self.update_slots:
            _create.assign(accum, acc)
        return _create.assign(var, new), accum


# ----------------------------------------------------------------------------- graph control
class Depend(Primitive):
    """``Depend()(value, expr)``: value; expr has already run (hookgrad runs in program
    order)."""
    def construct(self, value, expr):
        return _composite.depend(value, expr)


class IdentityN(Primitive):
    """``IdentityN()(x)``: the tensors of the tuple or list x, each as a new graph node."""
    def construct(self, x):
        if not isinstance(x, (tuple, list)) or not all(isinstance(t, Tensor) for t in x):
            raise TypeError(f"ops.IdentityN: x must be a tuple or list of Tensors, got {x!r}")
        return type(x)(_arith.identity(t) for t in x)


class TensorShape(Primitive):
    """``TensorShape()(input_x)``: the shape of x as a 1-d Int64 Tensor."""
    def construct(self, input_x):
        x = as_tensor(input_x, 'input_x')
        return Tensor(list(x.shape), _int64) if x.ndim else _create.zeros((0,), _int64)


class Print(Primitive):
    """``Print()(*args)``: prints each Tensor, string or number on its own line (Tensors in
    their repr); returns None (``ops.print_``)."""
    def construct(self, *args):
        return _inspect.print_(*args)


class ScalarCast(Primitive):
    """``ScalarCast()(input_x, input_y)``: the Python number input_x as the type input_y
    (int64, float64 or bool); ints truncate towards zero (``ops.scalar_cast``).

    Raises:
        ValueError: for another type.
    """
    def construct(self, input_x, input_y):
        return _create.cast_number(input_x, input_y, 'ScalarCast')


class Fills(Primitive):
    """``Fills()(x, value)``: a Tensor of x's shape and dtype filled with value (a number or a
    0-d Tensor; ``ops.fills``)."""
    def construct(self, x, value):
        return _create.filled_like(x, value, 'Fills')


class RandomChoiceWithMask(Primitive):
    """``RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)``: ``(index, mask)``, the
    positions of ``count`` True elements of the Bool input_x in random order.

    index is (count, rank) Int32; where fewer than count are True, the rows past them are 0
    and mask (count,) Bool is False there. Both seeds 0 draw from the global generator.

    Raises:
        ValueError: for count < 1 or negative seeds. TypeError: for a non-Bool input.
    """
    def __init__(self, count=256, seed=0, seed2=0):
        _sampling.choice_count(count, 'RandomChoiceWithMask')
        rng = _sampling.pair_generator(seed, seed2, 'RandomChoiceWithMask')
        super().__init__(count=count, seed=seed, seed2=seed2)
        self._rng = rng

    def construct(self, input_x):
        return _sampling.random_choice_with_mask(input_x, self.count, self._rng,
                                                 'RandomChoiceWithMask')


# ----------------------------------------------------------------------------- Ascend only
class _AscendOnly(Primitive):
    """Constructed freely (cells build them for their Ascend branch); calling one raises."""
    def construct(self, *args):
        raise RuntimeError(f"ops.{type(self).__name__} reads the float-overflow status "
                           f"register of Ascend NPUs and exists only there; hookgrad runs on "
                           f"CPU: check values with ops.isfinite instead")


class NPUGetFloatStatus(_AscendOnly):
    """``NPUGetFloatStatus()(x)``: Ascend only; calling it raises RuntimeError."""


class NPUAllocFloatStatus(_AscendOnly):
    """``NPUAllocFloatStatus()()``: Ascend only; calling it raises RuntimeError."""


class NPUClearFloatStatus(_AscendOnly):
    """``NPUClearFloatStatus()(x)``: Ascend only; calling it raises RuntimeError."""

