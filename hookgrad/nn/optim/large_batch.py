"""Lamb: Adam's direction scaled per parameter by a layer-wise trust ratio (MindSpore 2.x's
``nn.Lamb``; its kernel runs on Ascend and GPU only, hookgrad computes the same formula)."""
import numpy as np

from ...kernels.backend import array_module
from .adaptive import _float
from .optimizer import Optimizer, _who

__all__ = ['Lamb']


class Lamb(Optimizer):
    r"""LAMB (Layer-wise Adaptive Moments for Batch training). At step ``t`` (from 1), per
    parameter::

        m = b1 * m + (1 - b1) * g                              (``lamb_m``)
        v = b2 * v + (1 - b2) * g * g                          (``lamb_v``)
        r = (m / (1 - b1 ** t)) / (sqrt(v / (1 - b2 ** t)) + eps) + weight_decay * w
        w -= lr * trust * r,  trust = ||w|| / ||r||  (1 where either norm is 0)

    ``g`` is the gradient, centralized where asked; the weight decay applies to parameters
    without 'beta'/'gamma' in their names (or per group). The norms span a whole parameter,
    so the update runs parameter by parameter. ``global_step`` advances every step.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: fixed, per-step list or schedule (see ``nn.Optimizer``); required.
        beta1, beta2: decay rates of the moments, floats in (0, 1). Default 0.9, 0.999.
        eps: added to the denominator, a float > 0. Default 1e-6.
        weight_decay: a float >= 0. Default 0.0.

    Raises:
        TypeError: for a non-float beta or eps, or the errors of ``nn.Optimizer``.
        ValueError: for a beta outside (0, 1), eps <= 0, or the errors of ``nn.Optimizer``.
    """

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        who = _who(self)
        beta1 = _float(beta1, 'beta1', who, 0.0, 1.0, True, True)
        beta2 = _float(beta2, 'beta2', who, 0.0, 1.0, True, True)
        eps = _float(eps, 'eps', who, low=0.0, low_open=True)
        super().__init__(learning_rate, params, weight_decay)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = self._add_state('lamb_m', 0)
        self.moments2 = self._add_state('lamb_v', 0)

    def construct(self, gradients):
        grads = self._check_gradients(gradients)
        lrs = self._lr_values()
        self._sync_state()
        step = int(self.global_step._data.reshape(-1)[0]) + 1
        b1, b2, eps = self.beta1, self.beta2, self.eps
        c1 = 1.0 - float(np.float32(b1) ** step)
        c2 = 1.0 - float(np.float32(b2) ** step)
        for seg in self._segments:
            lr, wd = lrs[seg.slot], seg.weight_decay
            for i, centralize in zip(seg.index, seg.gc_flags):
                w = self.parameters[i]._data
                g = array_module(w).array(grads[i], dtype=w.dtype)
                if centralize:
                    g -= g.mean(axis=tuple(range(1, g.ndim)), keepdims=True)
                m, v = self.moments1[i]._data, self.moments2[i]._data
                m *= b1
                m += (1.0 - b1) * g
                v *= b2
                v += (1.0 - b2) * g * g
                r = np.sqrt(v * (1.0 / c2))
                r += eps
                np.divide(m * (1.0 / c1), r, out=r)
                if wd:
                    r += wd * w
                if type(w) is np.ndarray:
                    w_norm, r_norm = float(np.linalg.norm(w)), float(np.linalg.norm(r))
                    trust = w_norm / r_norm if w_norm > 0 and r_norm > 0 else 1.0
                else:           # on a device: the ratio stays there (no host read)
                    w_norm, r_norm = np.linalg.norm(w), np.linalg.norm(r)
                    both = (w_norm > 0) & (r_norm > 0)
                    trust = np.where(both, w_norm / np.where(both, r_norm, 1.0), 1.0)
                r *= lr * trust
                w -= r
        self.global_step._data += 1
        return True
