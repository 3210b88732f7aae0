"""LARS: layer-wise adaptive rate scaling of the gradients another optimizer then applies
(MindSpore 2.x's ``nn.LARS``, built on ``ops.LARSUpdate``; MindSpore runs that kernel on Ascend
only, hookgrad computes the kernel's formula)."""
import numpy as np

from ..cell import Cell
from ..parameter import Parameter
from .optimizer import Optimizer, _scalar_lr

__all__ = ['LARS']


def _type(value, arg, types, name):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"For 'LARS', the type of '{arg}' should be '{name}', but got type "
                        f"'{type(value).__name__}'.")


def _default_filter(param):
    return 'LayerNorm' not in param.name and 'bias' not in param.name


class LARS(Optimizer):
    r"""Wraps ``optimizer``: each step, the gradient of every parameter that ``lars_filter``
    accepts is replaced by ::

        wd = weight_decay / loss_scale         (the optimizer's, where it decays the parameter)
        coeff = coefficient * ||w|| / (||g|| + wd * ||w|| + epsilon)
        coeff = clip(coeff / lr, 0, 1)         (use_clip only; lr: the optimizer's rate)
        g = coeff * (g + wd * w)

    and the optimizer is called with the new gradients. As MindSpore's: the gradients are first
    divided by the optimizer's ``loss_scale``; the wrapped optimizer then applies neither its
    weight decay nor its loss scale (LARS turns them off when it wraps it), so the parameters
    that the filter rejects get their scaled gradient with no weight decay. The norms span a
    whole parameter. ``global_step`` is the optimizer's.

    Args:
        optimizer: the ``nn.Optimizer`` to wrap.
        epsilon: added to the denominator, a float. Default 1e-5.
        coefficient: the trust coefficient, a float. Default 0.001.
        use_clip: clip the local rate divided by the learning rate to [0, 1]. Default False.
        lars_filter: a function of a Parameter, True where LARS applies. Default: parameters
            whose names contain neither 'LayerNorm' nor 'bias'.

    Inputs:
        gradients: a tuple with one gradient per parameter of ``optimizer``.

    Outputs:
        True, once the optimizer has run.

    Raises:
        TypeError: for an optimizer that is not an ``nn.Optimizer``, a non-float epsilon or
            coefficient, or a non-bool use_clip.
        ValueError: with use_clip, for an optimizer with both group and dynamic learning rates.
    """

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=_default_filter):
        super().__init__(0.0, [Parameter(np.zeros((), np.float32), name='fake_param')])
        _type(optimizer, 'optimizer', (Optimizer,), 'Optimizer')
        _type(epsilon, 'epsilon', (float,), 'float')
        _type(coefficient, 'coefficient', (float,), 'float')
        _type(use_clip, 'use_clip', (bool,), 'bool')
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the "
                             "dynamic learning rate and group learning rate cannot both be true.")
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = epsilon, coefficient, use_clip
        object.__setattr__(self, 'parameters', optimizer.parameters)
        self._shapes = optimizer._shapes
        self.global_step = optimizer.global_step
        self.is_group = optimizer.is_group
        self.weight_decay = optimizer.weight_decay
        self.dynamic_weight_decay = optimizer.dynamic_weight_decay
        self.decay_flags = optimizer.decay_flags
        self.loss_scale = optimizer.loss_scale
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self.parameters)
        self.learning_rate = Parameter(np.zeros((), np.float32), name='fake_lr')
        self.dynamic_lr = optimizer.dynamic_lr if use_clip else False
        self._decays = optimizer._wds           # per parameter: a float or a schedule Cell
        self._opt_dynamic = optimizer.dynamic_lr
        _without_decay_and_scale(optimizer)

    def _rates(self):
        """The optimizer's learning rate of each parameter at the current step."""
        values = self.opt._lr_values()
        slots = {id(s): i for i, s in enumerate(self.opt._slots)}
        if not self.opt.is_group_lr:
            return [values[0]] * len(self.parameters)
        return [values[slots[id(s)]] for s in self.opt.learning_rate]

    def construct(self, gradients):
        grads = self._check_gradients(gradients)
        lrs = self._rates() if self.use_clip else [0.0] * len(grads)
        scale = self.loss_scale
        new = []
        for p, g, flag, wd, lr in zip(self.parameters, grads, self.lars_flag, self._decays, lrs):
            g = g.astype(p._data.dtype, copy=True)
            if scale != 1.0:
                g *= g.dtype.type(1.0 / scale)
            if flag:
                wd = self._decay_at_step(wd) / scale
                g = self._lars(p._data, g, wd, lr)
            new.append(g)
        success = self.opt(tuple(new))
        if (self.dynamic_lr or self.dynamic_weight_decay) and not self._opt_dynamic:
            self.global_step._data += 1
        return success

    def _decay_at_step(self, wd):
        if isinstance(wd, Cell):
            out = wd(self.global_step)
            return _scalar_lr(out, "nn.LARS: the weight_decay schedule")
        return wd

    def _lars(self, w, g, wd, lr):
        dtype = w.dtype.type
        w_norm = np.sqrt(np.sum(np.square(w)))
        g_norm = np.sqrt(np.sum(np.square(g)))
        coeff = dtype(self.coefficient) * w_norm / (g_norm + dtype(wd) * w_norm +
                                                    dtype(self.epsilon))
        if self.use_clip:
            coeff = np.clip(coeff / dtype(lr), 0, 1)
        if wd:
            g += dtype(wd) * w
        g *= coeff
        return g

    def get_lr(self):
        """The ``fake_lr`` Parameter (0), as MindSpore's LARS holds; the optimizer has the
        real rates."""
        return self.learning_rate


def _without_decay_and_scale(optimizer):
    """Turn off the optimizer's weight decay and loss-scale division: LARS applies both."""
    optimizer.loss_scale = 1.0
    optimizer.dynamic_weight_decay = False
    optimizer.decay_flags = tuple(False for _ in optimizer.decay_flags)
    for seg in optimizer._segments:
        seg.weight_decay = 0.0
        for block in seg.blocks:
            block.weight_decay = 0.0

