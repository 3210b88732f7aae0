"""More of MindSpore's optimizer Primitives: AdaMax, AddSign, PowerSign, Keras momentum,
centered RMSProp, proximal Adagrad, Adagrad dual averaging and AMSGrad Adam, and the sparse
forms of Adagrad, proximal Adagrad and FTRL, and the fused sparse Adam, lazy Adam and FTRL.

Like those of ``_optimizer.py``, each computes its update through hookgrad's ops with nothing
recorded for autograd and writes it into the Parameters in place (``ops.assign``). A sparse
form updates only the rows ``indices`` of its Parameters: the gradient rows of a repeated
index are summed first (as MindSpore's CPU kernels do), then the dense Primitive's update
runs on those rows. Constructor and call arguments follow MindSpore 2.10's Primitives.
"""
import numpy as np

from ..._tensor import Tensor
from ...kernels.backend import array_module
from ...autograd.grad_mode import no_grad
from .. import arithmetic as _arith, creation as _create, unary as _unary
from ..comparison import gt as _gt, maximum as _maximum
from ..indexing import gather as _gather, where as _where
from ..scatter_gather import tensor_scatter_update as _scatter_update
from ..segment import unsorted_segment_sum as _segment_sum
from ..selection import unique as _unique
from ..shaping import expand_dims as _expand_dims
from ._optimizer import ApplyAdagrad, ApplyRMSProp, _parameter
from ._primitive import Primitive, _flag, _float

__all__ = ['ApplyAdaMax', 'ApplyAddSign', 'ApplyPowerSign', 'ApplyKerasMomentum',
           'ApplyCenteredRMSProp', 'ApplyProximalAdagrad', 'ApplyAdagradDA',
           'ApplyAdamWithAmsgrad', 'ApplyAdamWithAmsgradV2', 'SparseApplyAdagrad',
           'SparseApplyAdagradV2', 'SparseApplyProximalAdagrad', 'SparseApplyFtrl',
           'SparseApplyRMSProp', 'FusedSparseAdam', 'FusedSparseLazyAdam', 'FusedSparseFtrl']


def _locking(prim, use_locking):
    return _flag(use_locking, prim, 'use_locking')


def _write(pairs):
    """Assign each ``(parameter, value)``; returns the parameters."""
    return tuple(_create.assign(p, v) for p, v in pairs)


def _check(prim, **parameters):
    for what, p in parameters.items():
        _parameter(p, prim, what)


class ApplyAdaMax(Primitive):
    """``ApplyAdaMax()(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad)``: in place,
    ``m = beta1 m + (1 - beta1) g``, ``v = max(beta2 v, |g|)`` and
    ``var -= lr / (1 - beta1_power) * m / (v + epsilon)``; returns ``(var, m, v)``."""
    def construct(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
        _check('ApplyAdaMax', var=var, m=m, v=v)
        with no_grad():
            new_m = m * beta1 + grad * (1 - beta1)
            new_v = _maximum(v * beta2, _unary.abs(grad))
            new = var - lr / (1 - beta1_power) * new_m / (new_v + epsilon)
        return _write(((var, new), (m, new_m), (v, new_v)))


class ApplyAddSign(Primitive):
    """``ApplyAddSign()(var, m, lr, alpha, sign_decay, beta, grad)``: in place,
    ``m = beta m + (1 - beta) g`` and ``var -= lr (alpha + sign_decay sign(g) sign(m)) g``;
    returns ``(var, m)``."""
    def construct(self, var, m, lr, alpha, sign_decay, beta, grad):
        _check('ApplyAddSign', var=var, m=m)
        with no_grad():
            new_m = m * beta + grad * (1 - beta)
            agree = _unary.sign(grad) * _unary.sign(new_m)
            new = var - lr * (alpha + sign_decay * agree) * grad
        return _write(((var, new), (m, new_m)))


class ApplyPowerSign(Primitive):
    """``ApplyPowerSign()(var, m, lr, logbase, sign_decay, beta, grad)``: in place,
    ``m = beta m + (1 - beta) g`` and ``var -= lr exp(logbase sign_decay sign(g) sign(m)) g``;
    returns ``(var, m)``."""
    def construct(self, var, m, lr, logbase, sign_decay, beta, grad):
        _check('ApplyPowerSign', var=var, m=m)
        with no_grad():
            new_m = m * beta + grad * (1 - beta)
            agree = _unary.sign(grad) * _unary.sign(new_m)
            new = var - lr * _unary.exp(logbase * sign_decay * agree) * grad
        return _write(((var, new), (m, new_m)))


class ApplyKerasMomentum(Primitive):
    """``ApplyKerasMomentum(use_locking=False, use_nesterov=False)(var, accum, lr, grad,
    momentum)``: in place, ``accum = momentum accum - lr grad`` and ``var += accum`` (with
    use_nesterov, ``var += momentum accum - lr grad``); returns ``(var, accum)``."""
    def __init__(self, use_locking=False, use_nesterov=False):
        super().__init__(use_locking=_locking('ApplyKerasMomentum', use_locking),
                         use_nesterov=_flag(use_nesterov, 'ApplyKerasMomentum', 'use_nesterov'))

    def construct(self, var, accum, lr, grad, momentum):
        _check('ApplyKerasMomentum', var=var, accum=accum)
        with no_grad():
            new_acc = accum * momentum - grad * lr
            step = new_acc * momentum - grad * lr if self.use_nesterov else new_acc
            new = var + step
        return _write(((var, new), (accum, new_acc)))


class ApplyCenteredRMSProp(Primitive):
    """``ApplyCenteredRMSProp(use_locking=False)(var, mean_gradient, mean_square, moment, grad,
    learning_rate, decay, momentum, epsilon)``: in place, ``mean_gradient = decay mg + (1 -
    decay) g``, ``mean_square = decay ms + (1 - decay) g**2``, ``moment = momentum moment +
    learning_rate g / sqrt(ms - mg**2 + epsilon)`` and ``var -= moment``; returns var."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_locking('ApplyCenteredRMSProp', use_locking))

    def construct(self, var, mean_gradient, mean_square, moment, grad, learning_rate, decay,
                  momentum, epsilon):
        _check('ApplyCenteredRMSProp', var=var, mean_gradient=mean_gradient,
               mean_square=mean_square, moment=moment)
        with no_grad():
            mg = mean_gradient * decay + grad * (1 - decay)
            ms = mean_square * decay + _arith.square(grad) * (1 - decay)
            mom = moment * momentum + grad * learning_rate * _unary.rsqrt(
                ms - _arith.square(mg) + epsilon)
            new = var - mom
        _write(((mean_gradient, mg), (mean_square, ms), (moment, mom)))
        return _create.assign(var, new)


class ApplyProximalAdagrad(Primitive):
    """``ApplyProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2, grad)``: in place,
    ``accum += g**2`` and, with the per-element rate ``r = lr / sqrt(accum)``,
    ``var = sign(v) max(|v| - r l1, 0) / (1 + r l2)`` where ``v = var - r g``; returns
    ``(var, accum)``.

    MindSpore 2.10's CPU kernel shrinks by the per-element rate ``r`` (as TensorFlow's op
    does); its documentation writes ``lr`` there. This follows the kernel.
    """
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_locking('ApplyProximalAdagrad', use_locking))

    def construct(self, var, accum, lr, l1, l2, grad):
        _check('ApplyProximalAdagrad', var=var, accum=accum)
        with no_grad():
            acc = accum + _arith.square(grad)
            rate = lr * _unary.rsqrt(acc)
            prox = var - rate * grad
            new = (_unary.sign(prox) * _maximum(_unary.abs(prox) - rate * l1, 0)
                   / (1 + rate * l2))
        return _write(((var, new), (accum, acc)))


class ApplyAdagradDA(Primitive):
    """``ApplyAdagradDA(use_locking=False)(var, gradient_accumulator,
    gradient_squared_accumulator, grad, lr, l1, l2, global_step)``: in place, ``ga += g``,
    ``gsa += g**2`` and ``var = -lr shrink(ga) / (l2 global_step lr + sqrt(gsa))`` with
    ``shrink(ga) = sign(ga) |ga - l1 global_step|``; returns var.

    That shrink is MindSpore 2.10's CPU kernel's (its documentation writes
    ``sign(ga) max(|ga| - l1 global_step, 0)``; the two agree for ``l1 = 0`` and for
    ``ga >= l1 global_step``). This follows the kernel.
    """
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_locking('ApplyAdagradDA', use_locking))

    def construct(self, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1,
                  l2, global_step):
        _check('ApplyAdagradDA', var=var, gradient_accumulator=gradient_accumulator,
               gradient_squared_accumulator=gradient_squared_accumulator)
        with no_grad():
            step = _arith.cast(global_step, var.dtype)
            ga = gradient_accumulator + grad
            gsa = gradient_squared_accumulator + _arith.square(grad)
            ga_used = _unary.sign(ga) * _unary.abs(ga - l1 * step)
            new = -lr * ga_used / (l2 * step * lr + _unary.sqrt(gsa))
        _write(((gradient_accumulator, ga), (gradient_squared_accumulator, gsa)))
        return _create.assign(var, new)


def _amsgrad(prim, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
             grad):
    _check(prim, var=var, m=m, v=v, vhat=vhat)
    with no_grad():
        new_m = m * beta1 + grad * (1 - beta1)
        new_v = v * beta2 + _arith.square(grad) * (1 - beta2)
        new_vhat = _maximum(vhat, new_v)
        lr_t = lr * _unary.sqrt(1 - beta2_power) / (1 - beta1_power)
        new = var - lr_t * new_m / (_unary.sqrt(new_vhat) + epsilon)
    return _write(((var, new), (m, new_m), (v, new_v), (vhat, new_vhat)))


class ApplyAdamWithAmsgrad(Primitive):
    """``ApplyAdamWithAmsgrad(beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False)(var, m,
    v, vhat, beta1_power, beta2_power, lr, grad)``: Adam with ``vhat = max(vhat, v)`` in the
    denominator, in place; returns ``(var, m, v, vhat)``."""
    def __init__(self, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False):
        super().__init__(beta1=_float(beta1, 'ApplyAdamWithAmsgrad', 'beta1'),
                         beta2=_float(beta2, 'ApplyAdamWithAmsgrad', 'beta2'),
                         epsilon=_float(epsilon, 'ApplyAdamWithAmsgrad', 'epsilon'),
                         use_locking=_locking('ApplyAdamWithAmsgrad', use_locking))

    def construct(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
        return _amsgrad('ApplyAdamWithAmsgrad', var, m, v, vhat, beta1_power, beta2_power, lr,
                        self.beta1, self.beta2, self.epsilon, grad)


class ApplyAdamWithAmsgradV2(Primitive):
    """``ApplyAdamWithAmsgradV2(use_locking=False)(var, m, v, vhat, beta1_power, beta2_power,
    lr, beta1, beta2, epsilon, grad)``: ApplyAdamWithAmsgrad with the rates as inputs."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_locking('ApplyAdamWithAmsgradV2', use_locking))

    def construct(self, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                  grad):
        return _amsgrad('ApplyAdamWithAmsgradV2', var, m, v, vhat, beta1_power, beta2_power,
                        lr, beta1, beta2, epsilon, grad)


# ----------------------------------------------------------------------------- sparse forms
def _sparse(prim, dense, slots, grad, indices):
    """Run ``dense(row_slots, summed_grad)`` on the rows ``indices`` of the Parameters
    ``slots`` (var first) and write the rows back; returns the Parameters."""
    for i, p in enumerate(slots):
        _parameter(p, prim, 'var' if i == 0 else f'input {i}')
    if indices.ndim != 1 or indices.shape[0] != grad.shape[0]:
        raise ValueError(f"ops.{prim}: indices must be 1-D with grad's first dimension "
                         f"({grad.shape[0]}), got shape {indices.shape}")
    with no_grad():
        rows, where = _unique(indices)
        summed = _segment_sum(grad, where, rows.shape[0])
        picked = [_gather(p, rows, 0) for p in slots]
        dense(picked, summed)
        positions = _expand_dims(rows, -1)
        updated = [_scatter_update(p, positions, r) for p, r in zip(slots, picked)]
    return _write(zip(slots, updated))


class SparseApplyAdagrad(Primitive):
    """``SparseApplyAdagrad(lr, update_slots=True, use_locking=False)(var, accum, grad,
    indices)``: ApplyAdagrad on the rows ``indices``; returns ``(var, accum)``."""
    def __init__(self, lr, update_slots=True, use_locking=False):
        super().__init__(lr=_float(lr, 'SparseApplyAdagrad', 'lr'),
                         update_slots=_flag(update_slots, 'SparseApplyAdagrad', 'update_slots'),
                         use_locking=_locking('SparseApplyAdagrad', use_locking))

    def construct(self, var, accum, grad, indices):
        step = ApplyAdagrad(self.update_slots)
        return _sparse('SparseApplyAdagrad', lambda s, g: step(s[0], s[1], self.lr, g),
                       (var, accum), grad, indices)


class SparseApplyAdagradV2(Primitive):
    """``SparseApplyAdagradV2(lr, epsilon, use_locking=False, update_slots=True)(var, accum,
    grad, indices)``: on the rows ``indices``, ``accum += g**2`` (with update_slots) and
    ``var -= lr g / sqrt(accum + epsilon)``; returns ``(var, accum)``.

    MindSpore 2.10's CPU kernel adds epsilon under the square root here (ApplyAdagradV2 adds
    it to the root); this follows the kernel.
    """
    def __init__(self, lr, epsilon, use_locking=False, update_slots=True):
        super().__init__(lr=_float(lr, 'SparseApplyAdagradV2', 'lr'),
                         epsilon=_float(epsilon, 'SparseApplyAdagradV2', 'epsilon'),
                         use_locking=_locking('SparseApplyAdagradV2', use_locking),
                         update_slots=_flag(update_slots, 'SparseApplyAdagradV2',
                                            'update_slots'))

    def construct(self, var, accum, grad, indices):
        def rows(slots, g):
            var_rows, accum_rows = slots
            acc = accum_rows + _arith.square(g) if self.update_slots else accum_rows
            new = var_rows - self.lr * g * _unary.rsqrt(acc + self.epsilon)
            _write(((var_rows, new), (accum_rows, acc)))
        return _sparse('SparseApplyAdagradV2', rows, (var, accum), grad, indices)


class SparseApplyProximalAdagrad(Primitive):
    """``SparseApplyProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2, grad,
    indices)``: ApplyProximalAdagrad on the rows ``indices``; returns ``(var, accum)``."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_locking('SparseApplyProximalAdagrad', use_locking))

    def construct(self, var, accum, lr, l1, l2, grad, indices):
        step = ApplyProximalAdagrad()
        return _sparse('SparseApplyProximalAdagrad',
                       lambda s, g: step(s[0], s[1], lr, l1, l2, g), (var, accum), grad, indices)


class SparseApplyFtrl(Primitive):
    """``SparseApplyFtrl(lr, l1, l2, lr_power, use_locking=False)(var, accum, linear, grad,
    indices)``: the FTRL-proximal update on the rows ``indices``; returns ``(var, accum,
    linear)``. With ``n = accum + g**2``: ``linear += g - (n**-lr_power - accum**-lr_power) /
    lr * var``, ``accum = n`` and ``var = (sign(linear) l1 - linear) / (n**-lr_power / lr +
    2 l2)`` where ``|linear| > l1``, else 0.

    That is MindSpore 2.10's documented form, which its sparse CPU kernel computes (its dense
    ApplyFtrl kernel shrinks by ``l1 - linear``), so this does not share ApplyFtrl's code.
    """
    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        super().__init__(lr=_float(lr, 'SparseApplyFtrl', 'lr'),
                         l1=_float(l1, 'SparseApplyFtrl', 'l1'),
                         l2=_float(l2, 'SparseApplyFtrl', 'l2'),
                         lr_power=_float(lr_power, 'SparseApplyFtrl', 'lr_power'),
                         use_locking=_locking('SparseApplyFtrl', use_locking))
        if self.lr <= 0 or self.l1 < 0 or self.l2 < 0 or self.lr_power > 0:
            raise ValueError(f"ops.SparseApplyFtrl: lr must be > 0, l1 and l2 >= 0 and "
                             f"lr_power <= 0, got lr={self.lr}, l1={self.l1}, l2={self.l2}, "
                             f"lr_power={self.lr_power}")

    def construct(self, var, accum, linear, grad, indices):
        def rows(slots, g):
            var_rows, accum_rows, linear_rows = slots
            acc = accum_rows + _arith.square(g)
            new_power = acc ** -self.lr_power
            lin = linear_rows + g - (new_power - accum_rows ** -self.lr_power) / self.lr * var_rows
            size = _unary.abs(lin)
            shrunk = (_unary.sign(lin) * self.l1 - lin) / (new_power / self.lr + 2 * self.l2)
            new = _where(_gt(size, self.l1), shrunk, size * 0)
            _write(((var_rows, new), (accum_rows, acc), (linear_rows, lin)))
        return _sparse('SparseApplyFtrl', rows, (var, accum, linear), grad, indices)


class SparseApplyRMSProp(Primitive):
    """``SparseApplyRMSProp(rho, momentum, epsilon, use_locking=False)(var, ms, mom, lr, grad,
    indices)``: ApplyRMSProp (decay ``rho``) on the rows ``indices``; returns
    ``(var, ms, mom)``.

    A repeated index takes its gradient rows one after another, in order (MindSpore 2.10's
    CPU kernel does so here, where its sparse Adagrad sums them first).
    """
    def __init__(self, rho, momentum, epsilon, use_locking=False):
        super().__init__(rho=_float(rho, 'SparseApplyRMSProp', 'rho'),
                         momentum=_float(momentum, 'SparseApplyRMSProp', 'momentum'),
                         epsilon=_float(epsilon, 'SparseApplyRMSProp', 'epsilon'),
                         use_locking=_locking('SparseApplyRMSProp', use_locking))
        if not 0 <= self.rho <= 1 or self.momentum < 0 or self.epsilon <= 0:
            raise ValueError(f"ops.SparseApplyRMSProp: rho must be in [0, 1], momentum >= 0 "
                             f"and epsilon > 0, got rho={self.rho}, momentum={self.momentum}, "
                             f"epsilon={self.epsilon}")

    def construct(self, var, ms, mom, lr, grad, indices):
        step = ApplyRMSProp()

        def rows(slots, g):
            step(slots[0], slots[1], slots[2], lr, g, self.rho, self.momentum, self.epsilon)
        for sel in _rounds(indices):
            _sparse('SparseApplyRMSProp', rows, (var, ms, mom), grad[sel], indices[sel])
        return var, ms, mom


def _rounds(indices):
    """The positions of ``indices`` split into rounds of distinct indices: round k holds the
    k-th occurrence of each index, so that applying the rounds in turn applies a repeated
    index's rows in order."""
    ids = np.asarray(indices.asnumpy()).reshape(-1)
    seen = {}
    occurrence = np.empty(ids.shape, np.int64)
    for i, value in enumerate(ids.tolist()):
        occurrence[i] = seen.get(value, 0)
        seen[value] = occurrence[i] + 1
    return [Tensor(np.nonzero(occurrence == k)[0].astype(np.int32))
            for k in range(int(occurrence.max()) + 1 if ids.size else 0)]


def _number(value, prim, what):
    if isinstance(value, Tensor):
        return float(value.item())
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"ops.{prim}: {what} must be a number or a Tensor, got "
                        f"{type(value).__name__}")
    return float(value)


class FusedSparseAdam(Primitive):
    """``FusedSparseAdam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power,
    beta2_power, lr, beta1, beta2, epsilon, grad, indices)``: Adam with a gradient of the rows
    ``indices`` (repeated rows summed first), in place; returns ``(var, m, v)``.

    As MindSpore 2.10's CPU kernel: every row of m and v decays (``m *= beta1``,
    ``v *= beta2``), the rows ``indices`` take ``(1 - beta1) g`` and ``(1 - beta2) g**2``, and
    with ``lr_t = lr sqrt(1 - beta2_power) / (1 - beta1_power)`` every row of var moves by
    ``-lr_t m / (sqrt(v) + epsilon)``; with use_nesterov only the rows ``indices`` move, by
    ``-lr_t (beta1 m + (1 - beta1) g) / (sqrt(v) + epsilon)``.
    """
    lazy = False

    def __init__(self, use_locking=False, use_nesterov=False):
        name = type(self).__name__
        super().__init__(use_locking=_locking(name, use_locking),
                         use_nesterov=_flag(use_nesterov, name, 'use_nesterov'))

    def construct(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
                  indices):
        name = type(self).__name__
        _check_fused(name, (('var', var), ('m', m), ('v', v)), grad, indices)
        rates = [_number(x, name, w) for x, w in (
            (beta1_power, 'beta1_power'), (beta2_power, 'beta2_power'), (lr, 'lr'),
            (beta1, 'beta1'), (beta2, 'beta2'), (epsilon, 'epsilon'))]
        new_var, new_m, new_v = _fused_sparse_adam(var._data, m._data, v._data, grad._data,
                                                   indices._data, rates, self.use_nesterov,
                                                   self.lazy)
        return _write(((var, Tensor._wrap(new_var)), (m, Tensor._wrap(new_m)),
                       (v, Tensor._wrap(new_v))))


class FusedSparseLazyAdam(FusedSparseAdam):
    """``FusedSparseLazyAdam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power,
    beta2_power, lr, beta1, beta2, epsilon, grad, indices)``: FusedSparseAdam that touches only
    the rows ``indices`` of var, m and v (the other rows keep their values); returns
    ``(var, m, v)``."""
    lazy = True


class FusedSparseFtrl(SparseApplyFtrl):
    """``FusedSparseFtrl(lr, l1, l2, lr_power, use_locking=False)(var, accum, linear, grad,
    indices)``: SparseApplyFtrl's update (MindSpore 2.10's CPU kernels agree), with the input
    checks of the fused Primitives; returns ``(var, accum, linear)``."""
    def construct(self, var, accum, linear, grad, indices):
        _check_fused('FusedSparseFtrl', (('var', var), ('accum', accum), ('linear', linear)),
                     grad, indices)
        return super().construct(var, accum, linear, grad, indices)


def _check_fused(name, slots, grad, indices):
    """TypeError / ValueError for the inputs of a fused sparse optimizer Primitive."""
    for what, t in slots + (('grad', grad), ('indices', indices)):
        if not isinstance(t, Tensor):
            raise TypeError(f"ops.{name}: {what} must be a Tensor, got {type(t).__name__}")
    var = slots[0][1]
    if any(t.shape != var.shape for _, t in slots):
        raise ValueError(f"ops.{name}: {', '.join(w for w, _ in slots)} must have one shape, "
                         f"got {', '.join(str(t.shape) for _, t in slots)}")
    if indices._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.{name}: indices must be an integer Tensor, got {indices.dtype}")
    if indices.ndim != 1:
        raise ValueError(f"ops.{name}: indices must be 1-D, got shape {indices.shape}")
    if grad.ndim < 1 or grad.shape[0] != indices.shape[0] or grad.shape[1:] != var.shape[1:]:
        raise ValueError(f"ops.{name}: grad must have shape ({indices.shape[0]},) + "
                         f"var.shape[1:] {var.shape[1:]}, got {grad.shape}")


def _fused_sparse_adam(var, m, v, g, indices, rates, nesterov, lazy):
    """The arrays of FusedSparseAdam's update (in var's dtype, as the CPU kernel computes);
    ``lazy`` updates only the rows ``indices`` (FusedSparseLazyAdam)."""
    xp = array_module(var)
    dt = var.dtype.type
    b1p, b2p, lr, b1, b2, eps = (dt(r) for r in rates)
    rows, where = xp.unique(indices, return_inverse=True)
    summed = xp.zeros((rows.shape[0],) + g.shape[1:], var.dtype)
    xp.add.at(summed, where.reshape(-1), g.astype(var.dtype))
    lr_t = lr * xp.sqrt(dt(1) - b2p) / (dt(1) - b1p)
    var, m, v = var.copy(), m.copy(), v.copy()
    if lazy:
        m[rows] *= b1
        v[rows] *= b2
    else:
        m *= b1
        v *= b2
    m[rows] += (dt(1) - b1) * summed
    v[rows] += (dt(1) - b2) * summed * summed
    if nesterov or lazy:
        step = m[rows] * b1 + (dt(1) - b1) * summed if nesterov else m[rows]
        var[rows] -= lr_t * step / (xp.sqrt(v[rows]) + eps)
        return var, m, v
    var -= lr_t * m / (xp.sqrt(v) + eps)
    return var, m, v
