"""AdaFactor: Adam-like steps with factored second moments (MindSpore 2.x's ``nn.AdaFactor``,
whose CPU kernel FusedAdaFactor computes the formula below)."""
import numbers

import numpy as np

from ...kernels.backend import array_module
from ..cell import Cell
from ..parameter import Parameter, ParameterTuple
from .optimizer import Optimizer

__all__ = ['AdaFactor']


def _type(value, arg, types, names):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        want = f"'{names[0]}'" if len(names) == 1 else f"one of '{list(names)}'"
        raise TypeError(f"For 'AdaFactor', the type of '{arg}' should be {want}, but got type "
                        f"'{type(value).__name__}'.")
    return value


def _nonneg_float(value, arg):
    if not value >= 0:
        raise ValueError(f"For 'AdaFactor', the '{arg}' must be float and must >= 0, but got "
                         f"'{value}' with type '{type(value).__name__}'.")
    return value


def _rms(x):
    return np.sqrt(np.mean(np.square(x)))


class AdaFactor(Optimizer):
    r"""AdaFactor (Shazeer & Stern, 2018). At step ``t`` (from 1), per parameter ``w``::

        b2 = 1 - t ** -decay_rate
        lr_t = min(1e-6 * t if warmup_init else 1e-2, 1 / sqrt(t))   (relative_step)
        a = lr_t * max(eps[1], rms(w))                 (scale_parameter; else a = lr_t)
        q = g * g + eps[0]
        rank >= 2:  R = b2 * R + (1 - b2) * mean(q, -1)        (``exp_avg_sq_row_<name>``)
                    C = b2 * C + (1 - b2) * mean(q, -2)        (``exp_avg_sq_col_<name>``)
                    u = g / sqrt(R / mean(R, -1)) [..., None] / sqrt(C) [..., None, :]
        rank < 2:   V = b2 * V + (1 - b2) * q                  (``exp_avg_sq_<name>``)
                    u = g / sqrt(V)
        u = a * u / max(1, rms(u) / clip_threshold)
        m = beta1 * m + (1 - beta1) * u;  u = m                (``exp_avg.<name>``, beta1 > 0)
        w = w - weight_decay * a * w - u

    As MindSpore's, the gradients are used as given (``loss_scale`` is checked and kept, not
    divided out), and ``weight_decay`` is the constructor's, applied to every parameter
    (groups' 'weight_decay' are not used). With a learning rate that is not a number (a
    Tensor, per-step list or schedule) ``scale_parameter`` is turned off. ``step``
    (``afactor_step``, Float32 of shape (1,)) counts the steps; ``global_step`` too.

    Args:
        params: a list of Parameters or of group dicts (see ``nn.Optimizer``).
        learning_rate: None (with relative_step) or, with relative_step=False, a fixed rate,
            per-step list or schedule (see ``nn.Optimizer``). Default None.
        eps: ``(eps1, eps2)``: added to the squared gradient, and the least parameter scale;
            floats >= 0. Default (1e-30, 1e-3).
        clip_threshold: the largest RMS of an update, a float >= 0. Default 1.0.
        decay_rate: the exponent of the second moments' decay, a float in (0, 1). Default 0.8.
        beta1: the decay of the first moment, a number >= 0 (0 or None: no first moment).
            Default 0.9.
        weight_decay: a float in [0, 1). Default 0.0.
        scale_parameter: scale the step by the parameter's RMS. Default True.
        relative_step: use the step-dependent rate ``lr_t`` instead of learning_rate.
            Default True.
        warmup_init: ``lr_t`` grows as 1e-6 * t (needs relative_step). Default False.
        compression: store the second moment of 1-d parameters in Float16 (a step uses its
            Float32 value, the next one the stored Float16 value, as MindSpore's CPU kernel
            does). Default False.
        loss_scale: a number > 0. Default 1.0.

    Raises:
        TypeError / ValueError: with MindSpore's messages, for the arguments above.
    """

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        if learning_rate is None:
            learning_rate = 0.0
        if beta1 is None:
            beta1 = 0.0
        self.scale_lr = isinstance(learning_rate, (float, int))
        if isinstance(loss_scale, numbers.Real) and not isinstance(loss_scale, bool) \
                and loss_scale <= 0:
            raise ValueError(f"For 'AdaFactor', the 'loss_scale' must be float and must > 0, but "
                             f"got '{loss_scale}' with type '{type(loss_scale).__name__}'.")
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _type(eps, 'eps', (list, tuple), ('list', 'tuple'))
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, value in enumerate(eps):
            _nonneg_float(_type(value, f'eps{i}', (float,), ('float',)), f'eps{i}')
        _nonneg_float(_type(clip_threshold, 'clip_threshold', (float,), ('float',)),
                      'clip_threshold')
        _type(decay_rate, 'decay_rate', (float,), ('float',))
        if not 0 < decay_rate < 1:
            raise ValueError(f"For 'AdaFactor', the 'decay_rate' must be in range of (0, 1), but "
                             f"got {decay_rate} with type 'float'.")
        if isinstance(weight_decay, Cell) or not 0 <= weight_decay < 1:
            raise ValueError(f"For 'AdaFactor', the 'weight_decay' must be in range of [0, 1), "
                             f"but got {weight_decay} with type '{type(weight_decay).__name__}'.")
        for arg, value in (('scale_parameter', scale_parameter), ('relative_step', relative_step),
                           ('compression', compression)):
            _type(value, arg, (bool,), ('bool',))
        _nonneg_float(float(_type(beta1, 'beta1', (int, float), ('int', 'float'))), 'beta1')
        self.eps = (float(eps[0]), float(eps[1]))
        self.clip_threshold = float(clip_threshold)
        self.decay_rate = float(decay_rate)
        self.beta1 = float(beta1)
        self.weight_decay = float(weight_decay)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self.use_first_moment = beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._add_state('exp_avg', 0)
        self._init_second_moments()
        self.step = Parameter(np.zeros(1, np.float32), name='afactor_step', requires_grad=False,
                              device='CPU')

    def _init_second_moments(self):
        """Row and column means for parameters of rank >= 2, a full second moment otherwise;
        the others are placeholders of shape (1,), as MindSpore lays them out."""
        rows, cols, full = [], [], []
        for p in self.parameters:
            shape, dtype, name = p.shape, p._data.dtype, p.name
            factored = len(shape) > 1
            row = shape[:-1] if factored else (1,)
            col = shape[:-2] + shape[-1:] if factored else (1,)
            sq_shape = (1,) if factored else shape
            sq_dtype = np.float16 if self.compression and not factored else dtype
            for out, prefix, s, dt in ((rows, 'exp_avg_sq_row', row, dtype),
                                       (cols, 'exp_avg_sq_col', col, dtype),
                                       (full, 'exp_avg_sq', sq_shape, sq_dtype)):
                state = Parameter(np.zeros(s, dt), name=f"{prefix}_{name}", requires_grad=False,
                                  device='CPU')
                state._data = array_module(p._data).zeros(s, dt)   # on the parameter's device
                self.insert_param_to_cell(state.name, state, check_name_contain_dot=False)
                out.append(state)
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)

    def _rate(self, lrs, slot, step):
        if self.scale_lr and self.relative_step:
            least = np.float32(1e-6) * step if self.warmup_init else np.float32(1e-2)
            return min(least, np.float32(1.0) / np.sqrt(step))
        return np.float32(lrs[slot])

    def construct(self, gradients):
        grads = self._check_gradients(gradients)
        lrs = self._lr_values()
        self._sync_state()
        step = np.float32(self.step._data[0] + 1)
        b2 = np.float32(1.0) - step ** np.float32(-self.decay_rate)
        eps1, eps2 = np.float32(self.eps[0]), np.float32(self.eps[1])
        for seg in self._segments:
            lr = self._rate(lrs, seg.slot, step)
            for i in seg.index:
                self._update_one(i, grads[i], lr, b2, eps1, eps2)
        self.step._data += 1
        self.global_step._data += 1
        return True

    def _update_one(self, i, grad, lr, b2, eps1, eps2):
        w = self.parameters[i]._data
        g = grad.astype(np.float32) if grad.dtype == np.float16 else grad
        w32 = w.astype(np.float32) if w.dtype == np.float16 else w
        rate = lr * max(eps2, _rms(w32)) if self.scale_parameter else lr
        q = np.square(g)
        q += eps1
        if w.ndim >= 2:
            row, col = self.exp_avg_sq_row[i]._data, self.exp_avg_sq_col[i]._data
            row[...] = row * b2 + q.mean(axis=-1) * (1 - b2)
            col[...] = col * b2 + q.mean(axis=-2) * (1 - b2)
            r = 1.0 / np.sqrt(row / row.mean(axis=-1, keepdims=True))
            u = r[..., None] * (1.0 / np.sqrt(col))[..., None, :] * g
        else:
            v = self.exp_avg_sq[i]._data
            fresh = v.astype(g.dtype) * b2 + q * (1 - b2)
            v[...] = fresh
            u = (1.0 / np.sqrt(fresh)) * g
        u = u / max(_rms(u) / np.float32(self.clip_threshold), 1.0) * rate
        if self.use_first_moment:
            m = self.exp_avg[i]._data
            m[...] = m * np.float32(self.beta1) + u * np.float32(1 - self.beta1)
            u = m
        if self.weight_decay_flag:
            w32 = w32 + w32 * np.float32(-self.weight_decay) * rate
        w[...] = (w32 - u).astype(w.dtype, copy=False)
