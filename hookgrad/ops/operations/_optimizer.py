"""MindSpore's Primitive classes that update Parameters as optimizers do: momentum, SGD,
Adam (with and without weight decay), plain and proximal gradient descent, RMSProp, Adagrad,
Adadelta and FTRL (AdaMax, PowerSign, AddSign, proximal Adagrad and others: _optimizer_more.py).

Each computes its update through hookgrad's ops with nothing recorded for autograd, and
writes it into the Parameters in place (``ops.assign``), as MindSpore's do. Constructor and
call arguments follow MindSpore 2.10's Primitives.
"""
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from .. import arithmetic as _arith, creation as _create, unary as _unary
from ..comparison import gt as _gt, maximum as _maximum
from ..indexing import where as _where
from ._primitive import Primitive, _flag, _float

__all__ = ['ApplyMomentum', 'SGD', 'Adam', 'AdamWeightDecay', 'ApplyGradientDescent',
           'ApplyRMSProp', 'ApplyAdagrad', 'ApplyAdagradV2', 'ApplyFtrl',
           'ApplyAdadelta', 'ApplyProximalGradientDescent']


def _parameter(value, prim, what):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{prim}: {what} must be a Parameter, got {type(value).__name__}")
    return value


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


class AdamWeightDecay(Primitive):
    """``AdamWeightDecay(use_locking=False)(var, m, v, lr, beta1, beta2, epsilon, decay,
    gradient)``: in place, ``m = beta1 m + (1 - beta1) g``, ``v = beta2 v + (1 - beta2) g ** 2``
    and ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)`` (no bias correction); returns
    ``(var, m, v)``."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_flag(use_locking, 'AdamWeightDecay', 'use_locking'))

    def construct(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        for what, p in (('var', var), ('m', m), ('v', v)):
            _parameter(p, 'AdamWeightDecay', what)
        with no_grad():
            g = gradient
            new_m = _arith.add(_arith.mul(m, beta1), _arith.mul(g, 1.0 - beta1))
            new_v = _arith.add(_arith.mul(v, beta2), _arith.mul(_arith.square(g), 1.0 - beta2))
            step = _arith.add(_arith.div(new_m, _arith.add(_unary.sqrt(new_v), epsilon)),
                              _arith.mul(var, decay))
            new = _arith.sub(var, _arith.mul(step, lr))
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


class ApplyAdagradV2(Primitive):
    """``ApplyAdagradV2(epsilon, update_slots=True)(var, accum, lr, grad)``: in place,
    ``accum += grad ** 2`` (with update_slots) and ``var -= lr * grad / (sqrt(accum) +
    epsilon)``; returns ``(var, accum)``."""
    def __init__(self, epsilon, update_slots=True):
        if not isinstance(epsilon, float):
            raise TypeError(f"ops.ApplyAdagradV2: epsilon must be a float, got {epsilon!r}")
        super().__init__(epsilon=epsilon,
                         update_slots=_flag(update_slots, 'ApplyAdagradV2', 'update_slots'))

    def construct(self, var, accum, lr, grad):
        var = _parameter(var, 'ApplyAdagradV2', 'var')
        accum = _parameter(accum, 'ApplyAdagradV2', 'accum')
        with no_grad():
            acc = _arith.add(accum, _arith.square(grad)) if self.update_slots else accum
            step = _arith.div(_arith.mul(grad, lr), _arith.add(_unary.sqrt(acc), self.epsilon))
            new = _arith.sub(var, step)
        if self.update_slots:
            _create.assign(accum, acc)
        return _create.assign(var, new), accum


class ApplyFtrl(Primitive):
    """``ApplyFtrl(use_locking=False)(var, accum, linear, grad, lr, l1, l2, lr_power)``: the
    FTRL-proximal update, in place; returns ``var``. With ``n = accum + grad**2``:
    ``linear += grad - (n**-lr_power - accum**-lr_power) / lr * var``, ``accum = n`` and
    ``var = (l1 - linear) / (n**-lr_power / lr + 2 * l2)`` where ``|linear| > l1``, else 0.

    MindSpore 2.10's CPU kernel shrinks by ``l1 - linear`` whatever the sign of ``linear``
    (its documentation writes ``sign(linear) * l1 - linear``); the two agree for
    ``linear > 0`` and for ``l1 = 0``, and this follows the kernel.
    """
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_flag(use_locking, 'ApplyFtrl', 'use_locking'))

    def construct(self, var, accum, linear, grad, lr, l1, l2, lr_power):
        var = _parameter(var, 'ApplyFtrl', 'var')
        accum = _parameter(accum, 'ApplyFtrl', 'accum')
        linear = _parameter(linear, 'ApplyFtrl', 'linear')
        with no_grad():
            acc = _arith.add(accum, _arith.square(grad))
            power = -lr_power
            new_power = acc ** power
            lin = linear + grad - (new_power - accum ** power) / lr * var
            quadratic = new_power / lr + l2 * 2
            size = _unary.abs(lin)
            new = _where(_gt(size, l1), (l1 - lin) / quadratic, size * 0)
        _create.assign(accum, acc)
        _create.assign(linear, lin)
        return _create.assign(var, new)


class ApplyAdadelta(Primitive):
    """``ApplyAdadelta(use_locking=False)(var, accum, accum_update, lr, rho, epsilon, grad)``:
    in place, ``accum = rho * accum + (1 - rho) * grad**2``, ``update = sqrt(accum_update +
    epsilon) / sqrt(accum + epsilon) * grad``, ``accum_update = rho * accum_update + (1 - rho)
    * update**2`` and ``var -= lr * update``; returns ``(var, accum, accum_update)``."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_flag(use_locking, 'ApplyAdadelta', 'use_locking'))

    def construct(self, var, accum, accum_update, lr, rho, epsilon, grad):
        var = _parameter(var, 'ApplyAdadelta', 'var')
        accum = _parameter(accum, 'ApplyAdadelta', 'accum')
        accum_update = _parameter(accum_update, 'ApplyAdadelta', 'accum_update')
        with no_grad():
            acc = accum * rho + _arith.square(grad) * (1 - rho)
            update = _unary.sqrt(accum_update + epsilon) / _unary.sqrt(acc + epsilon) * grad
            acc_update = accum_update * rho + _arith.square(update) * (1 - rho)
            new = var - update * lr
        _create.assign(accum, acc)
        _create.assign(accum_update, acc_update)
        return _create.assign(var, new), accum, accum_update


class ApplyProximalGradientDescent(Primitive):
    """``ApplyProximalGradientDescent(use_locking=False)(var, alpha, l1, l2, delta)``: in place,
    ``var = sign(v) * max(|v| - alpha * l1, 0) / (1 + alpha * l2)`` with ``v = var - alpha *
    delta``; returns ``var``."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_flag(use_locking, 'ApplyProximalGradientDescent',
                                           'use_locking'))

    def construct(self, var, alpha, l1, l2, delta):
        var = _parameter(var, 'ApplyProximalGradientDescent', 'var')
        with no_grad():
            prox = var - delta * alpha
            shrunk = _unary.abs(prox) - alpha * l1
            new = _unary.sign(prox) * _maximum(shrunk, 0) / (1 + alpha * l2)
        return _create.assign(var, new)

