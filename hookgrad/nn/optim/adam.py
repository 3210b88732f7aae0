"""Adam, AdamWeightDecay and LazyAdam (MindSpore 2.x formulas)."""
import math
import numbers

import numpy as np

from ...kernels import fused
from ..parameter import Parameter
from .optimizer import _BLOCK_LOCAL_RULES, Optimizer, _who
from .sgd import _flag

__all__ = ['Adam', 'AdamWeightDecay', 'LazyAdam']


def _betas(beta1, beta2, eps, who):
    for arg, value in (('beta1', beta1), ('beta2', beta2), ('eps', eps)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{who}: {arg} must be a float, got {type(value).__name__}")
    for arg, value in (('beta1', beta1), ('beta2', beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"{who}: {arg} must be in (0, 1), got {value}")
    if not math.isfinite(eps) or eps <= 0:
        raise ValueError(f"{who}: eps must be a finite float > 0, got {eps}")
    return float(beta1), float(beta2), float(eps)


def _moments(g, t, m, v, beta1, beta2, c1=None, c2=None):
    """``m = b1 * m + c1 * g`` and ``v = b2 * v + c2 * g * g``, in place; ``c1 = 1 - b1`` and
    ``c2 = 1 - b2`` unless given (AdamWeightDecay gives them rounded as MindSpore's kernel
    computes them, in the parameters' precision)."""
    m *= beta1
    np.multiply(g, 1.0 - beta1 if c1 is None else c1, out=t)
    m += t
    v *= beta2
    np.multiply(g, g, out=t)
    t *= 1.0 - beta2 if c2 is None else c2
    v += t


def _step_size(lr, scalars, dtype):
    """MindSpore's Adam step size ``lr * sqrt(1 - beta2_power) / (1 - beta1_power)``,
    computed in ``dtype`` (float32 for half precision) as its CPU kernel computes it."""
    kind = np.float32 if np.dtype(dtype).itemsize < 4 else np.dtype(dtype).type
    one = kind(1.0)
    return float(kind(lr) * np.sqrt(one - kind(scalars[1])) / (one - kind(scalars[0])))


def _complement(beta, dtype):
    """``1 - beta`` computed in ``dtype`` (float32 for half precision), as MindSpore's
    AdamWeightDecay kernel computes it in the parameters' precision."""
    kind = np.float32 if np.dtype(dtype).itemsize < 4 else np.dtype(dtype).type
    return float(kind(1.0) - kind(beta))


class Adam(Optimizer):
    r"""Adam (MindSpore's ``nn.Adam``), with bias correction folded into the step size::

        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        lr_t = lr * sqrt(1 - b2 ** t) / (1 - b1 ** t)
        w -= lr_t * m / (sqrt(v) + eps)
        nesterov: w -= lr_t * (b1 * m + (1 - b1) * g) / (sqrt(v) + eps)
        amsgrad:  vhat = max(vhat, v);  w -= lr_t * m / (sqrt(vhat) + eps)

    ``g`` is the gradient plus ``weight_decay * w`` (for parameters without 'beta'/'gamma' in
    their names, or per group), divided by ``loss_scale``. State: ``moment1``, ``moment2``
    (``vhat`` with amsgrad) per parameter and the scalars ``beta1_power``, ``beta2_power``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 1e-3.
        beta1, beta2: decay rates of the moments, floats in (0, 1). Default 0.9, 0.999.
        eps: added to the denominator, a float > 0. Default 1e-8.
        use_locking: accepted for MindSpore compatibility (updates never race here).
        use_nesterov: Nesterov's variant. Default False.
        weight_decay: a float >= 0. Default 0.0.
        loss_scale: a number > 0. Default 1.0.
        use_amsgrad: the AMSGrad variant. Default False.
        use_lazy, use_offload: keyword-only, accepted for MindSpore compatibility; with dense
            gradients both give the same update. They may not both be True.

    Inputs:
        gradients: one gradient per parameter, in the order of ``self.parameters``.

    Outputs:
        True.

    Raises:
        TypeError: for a non-float beta or eps, a non-bool flag, an unknown keyword, or the
            errors of ``nn.Optimizer``.
        ValueError: for a beta outside (0, 1), eps <= 0, use_amsgrad with use_nesterov,
            use_lazy or use_offload, both use_lazy and use_offload, or the errors of
            ``nn.Optimizer``.

    >>> import hookgrad as ms
    >>> w = ms.Parameter(ms.Tensor([1.0, 1.0]), name='w')
    >>> opt = ms.nn.Adam([w], learning_rate=0.1)
    >>> _ = opt((ms.Tensor([3.0, -0.5]),))
    >>> print(w.asnumpy().round(5))
    [0.9 1.1]
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        who = _who(self)
        unknown = [k for k in kwargs if k not in ('use_lazy', 'use_offload')]
        if unknown:
            raise TypeError(f"{who}: unexpected keyword arguments {unknown}")
        use_lazy = _flag(kwargs.get('use_lazy', False), 'use_lazy', who)
        use_offload = _flag(kwargs.get('use_offload', False), 'use_offload', who)
        for arg, value in (('use_locking', use_locking), ('use_nesterov', use_nesterov),
                           ('use_amsgrad', use_amsgrad)):
            _flag(value, arg, who)
        if use_lazy and use_offload:
            raise ValueError(f"{who}: use_lazy and use_offload cannot both be True")
        if use_amsgrad and (use_lazy or use_offload or use_nesterov):
            raise ValueError(f"{who}: use_amsgrad cannot be combined with use_nesterov, "
                             f"use_lazy or use_offload")
        betas = _betas(beta1, beta2, eps, who)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1, self.beta2, self.eps = betas
        self.use_locking = use_locking
        self.use_nesterov = use_nesterov
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        self.beta1_power = Parameter(np.array(1.0, np.float32), name='beta1_power',
                                     requires_grad=False, device='CPU')
        self.beta2_power = Parameter(np.array(1.0, np.float32), name='beta2_power',
                                     requires_grad=False, device='CPU')
        self.moment1 = self._add_state('moment1', 0)
        self.moment2 = self._add_state('moment2', 0)
        if use_amsgrad:
            self.vhat = self._add_state('vhat', 0)

    def _begin(self):
        b1_power = float(np.float32(self.beta1_power._data) * np.float32(self.beta1))
        b2_power = float(np.float32(self.beta2_power._data) * np.float32(self.beta2))
        return b1_power, b2_power, math.sqrt(1.0 - b2_power) / (1.0 - b1_power)

    def _fused_rule(self, xp, block, g, w, lr, scalars, check=False):
        if self.use_amsgrad:
            return False
        if not check:
            b1, b2 = self.beta1, self.beta2
            fused.kernel(xp, 'adam_nesterov' if self.use_nesterov else 'adam')(
                g, _step_size(lr, scalars, w.dtype), b1, _complement(b1, w.dtype), b2,
                _complement(b2, w.dtype), self.eps, w, block.state['moment1'],
                block.state['moment2'])
        return True

    def _rule(self, block, g, t, lr, scalars):
        b1 = self.beta1
        m, v = block.state['moment1'], block.state['moment2']
        if self.use_amsgrad:
            _moments(g, t, m, v, b1, self.beta2)
            vhat = block.state['vhat']
            np.maximum(vhat, v, out=vhat)
            np.sqrt(vhat, out=t)
            t += self.eps
            np.divide(m, t, out=t)
            t *= lr * scalars[2]
            return
        # MindSpore's CPU Adam kernel, in its order and the parameters' precision:
        # m += (g - m) * (1 - b1); v += (g * g - v) * (1 - b2); step = new_lr * m /
        # (sqrt(v) + eps) (nesterov: new_lr * (m * b1 + (1 - b1) * g) / ...), with
        # new_lr = lr * sqrt(1 - b2^t) / (1 - b1^t)
        c1, c2 = _complement(b1, m.dtype), _complement(self.beta2, m.dtype)
        np.subtract(g, m, out=t)
        t *= c1
        m += t
        np.multiply(g, g, out=t)
        t -= v
        t *= c2
        v += t
        new_lr = _step_size(lr, scalars, m.dtype)
        if self.use_nesterov:
            g *= c1
            g += m * b1
            g *= new_lr
        else:
            np.multiply(m, new_lr, out=g)
        np.sqrt(v, out=t)
        t += self.eps
        np.divide(g, t, out=t)

    def _end(self, scalars):
        self.beta1_power._data[...] = scalars[0]
        self.beta2_power._data[...] = scalars[1]


class AdamWeightDecay(Optimizer):
    r"""Adam with decoupled weight decay and no bias correction (MindSpore's formula)::

        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= lr * (m / (sqrt(v) + eps) + weight_decay * w)

    The decay applies to parameters without 'beta'/'gamma' in their names (or per group).
    State: ``adam_m`` and ``adam_v`` per parameter.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``; the
            'grad_centralization' key is not applied and is rejected).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 1e-3.
        beta1, beta2: decay rates of the moments, floats in (0, 1). Default 0.9, 0.999.
        eps: added to the denominator, a float > 0. Default 1e-6.
        weight_decay: a float >= 0. Default 0.0.

    Inputs:
        gradients: one gradient per parameter, in the order of ``self.parameters``.

    Outputs:
        True.

    Raises:
        TypeError: for a non-float beta or eps, or the errors of ``nn.Optimizer``.
        ValueError: for a beta outside (0, 1), eps <= 0, a group with grad_centralization, or
            the errors of ``nn.Optimizer``.

    >>> import hookgrad as ms
    >>> w = ms.Parameter(ms.Tensor([2.0]), name='w')
    >>> opt = ms.nn.AdamWeightDecay([w], learning_rate=0.1, weight_decay=0.5)
    >>> _ = opt((ms.Tensor([0.0]),))
    >>> print(w.asnumpy())
    [1.9]
    """

    _centralizes = False
    _decay = None           # decoupled: the rule adds weight_decay * w to the update

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        betas = _betas(beta1, beta2, eps, _who(self))
        super().__init__(learning_rate, params, weight_decay)
        self.beta1, self.beta2, self.eps = betas
        self.moments1 = self._add_state('adam_m', 0)
        self.moments2 = self._add_state('adam_v', 0)

    def _begin(self):
        return None

    def _fused_rule(self, xp, block, g, w, lr, scalars, check=False):
        if not check:
            b1, b2 = self.beta1, self.beta2
            fused.kernel(xp, 'adam_weight_decay')(
                g, lr, b1, _complement(b1, g.dtype), b2, _complement(b2, g.dtype), self.eps,
                block.weight_decay, w, block.state['adam_m'], block.state['adam_v'])
        return True

    def _rule(self, block, g, t, lr, scalars):
        m, v = block.state['adam_m'], block.state['adam_v']
        b1, b2 = self.beta1, self.beta2
        _moments(g, t, m, v, b1, b2, _complement(b1, g.dtype), _complement(b2, g.dtype))
        np.sqrt(v, out=t)
        t += self.eps
        np.divide(m, t, out=t)
        if block.weight_decay:
            w = block.gather_params(g)
            w *= block.weight_decay
            t += w
        t *= lr


class LazyAdam(Adam):
    r"""Adam that, with sparse gradients, updates only the rows they touch (MindSpore's
    ``nn.LazyAdam``). hookgrad's gradients are dense, for which the update is ``nn.Adam``'s
    (without AMSGrad). State: ``moment1``, ``moment2``, ``beta1_power``, ``beta2_power``.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``). Default 1e-3.
        beta1, beta2: decay rates of the moments, floats in (0, 1). Default 0.9, 0.999.
        eps: added to the denominator, a float > 0. Default 1e-8.
        use_locking: accepted for MindSpore compatibility (updates never race here).
        use_nesterov: Nesterov's variant. Default False.
        weight_decay: a float >= 0. Default 0.0.
        loss_scale: a number > 0. Default 1.0.

    Raises:
        TypeError / ValueError: as ``nn.Adam``.
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)


_BLOCK_LOCAL_RULES.update((Adam._rule, AdamWeightDecay._rule))
