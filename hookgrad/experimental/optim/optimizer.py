"""The base of MindSpore's PyTorch-style optimizers (``mindspore.experimental.optim``).

Parameters come in groups (``param_groups``, PyTorch's dicts), each with its own
hyper-parameters; each group's learning rate is a host Parameter (``lrs``) that the schedulers
of ``lr_scheduler`` change. A step is a call, ``optimizer(grads)``, with one gradient per
parameter in the order of ``optimizer.parameters``. The update runs in place on the parameters'
arrays with the array module of each parameter (so on its device), and state (moments...) is
held in Parameters beside them, saved with the network.
"""
from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from ..._tensor import Tensor
from ...autograd.function import effect
from ...compat import checkparam as validator
from ...debug.log import warning
from ...kernels.backend import array_module
from ...nn.cell import Cell
from ...nn.parameter import Parameter, ParameterTuple

__all__ = ['Optimizer']


def _call_cell(cell, args, kwargs):
    return Cell.__call__(cell, *args, **kwargs)


class Optimizer(Cell):
    """Base class of the PyTorch-style optimizers; subclasses define ``_update``.

    Args:
        params: Parameters, or dicts each holding ``'params'`` and the group's hyper-parameters.
        defaults (dict): the hyper-parameters of groups that do not set them.

    Raises:
        ValueError: params None or empty, a negative lr or weight decay, a parameter in two
            groups. TypeError: params not iterable, a set, or holding a non-Parameter; an lr
            that is not a number or a 0-d Tensor.
    """

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        param_groups = self._parameters_base_check(params, 'params')
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        self.parameters = []
        self.lrs = []
        self.group_start_id = [0]
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)
        self.parameters = ParameterTuple(self.parameters)

    def __repr__(self):
        text = type(self).__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            text += f'\nParameter Group {i}\n'
            for key in sorted(group):
                if key != 'params':
                    value = group[key]
                    if key == 'lr' and isinstance(value, Parameter):
                        value = np.float32(value._data)      # shown as float32 prints it
                    text += f'    {key}: {value}\n'
        return text + ')'

    def add_param_group(self, param_group):
        """Add a group: a dict with ``'params'`` and, optionally, its hyper-parameters."""
        group_id = len(self.param_groups)
        param_group = self._preprocess_param_group(param_group)
        self.parameters += tuple(param_group['params'])
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        lr = self._build_single_lr(param_group.get('lr'), f'learning_rate_group_{group_id}')
        param_group['weight_decay'] = self._preprocess_weight_decay(
            param_group.get('weight_decay', 0.0))
        self.lrs.append(lr)
        param_group['lr'] = lr
        self.param_groups.append(param_group)
        self.group_start_id.append(self.group_start_id[-1] + len(param_group['params']))

    @staticmethod
    def _parameters_base_check(parameters, param_info):
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, "
                            f"but got {type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
        return parameters

    def _preprocess_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError('Param group must be a dict.')
        params = param_group['params']
        if isinstance(params, Parameter):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('Optimizer parameters need to be organized in ordered collections, '
                            'but the ordering of tensors in sets will change between runs. '
                            'Please use a list instead.')
        else:
            param_group['params'] = list(params)
        for param in param_group['params']:
            if not isinstance(param, Parameter):
                raise TypeError(f"Optimizer can only optimize Parameters, but one of the params "
                                f"is {type(param)}")
        if len(param_group['params']) != len({id(p) for p in param_group['params']}):
            warning("Optimizer contains a parameter group with duplicate parameters.")
        seen = {id(p) for group in self.param_groups for p in group['params']}
        if any(id(p) in seen for p in param_group['params']):
            raise ValueError("some parameters appear in more than one parameter group.")
        return param_group

    def _build_single_lr(self, learning_rate, name):
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            validator.check_non_negative_float(learning_rate, 'learning rate', self.cls_name)
            return Parameter(np.array(learning_rate, np.float32), name, device='CPU')
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim == 0:
                return Parameter(learning_rate.asnumpy().astype(np.float32), name, device='CPU')
            raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should "
                             "be scalar Tensor")
        raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float or "
                        f"Tensor, but got {type(learning_rate)}.")

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            validator.check_non_negative_float(weight_decay, 'weight_decay', self.cls_name)
            return weight_decay
        raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int or float.but "
                        f"got {type(weight_decay)}")

    # ------------------------------------------------------------------------------- state
    def _state(self, prefix, fill=0.0):
        """One state Parameter per parameter, ``fill`` everywhere, on the parameter's device."""
        state = []
        for i, p in enumerate(self.parameters):
            data = array_module(p._data).full(p._data.shape, fill, p._data.dtype)
            s = Parameter(np.zeros(()), f"{prefix}.{p.name if p.name else i}",
                          requires_grad=False)
            s._data = data
            state.append(s)
        return ParameterTuple(state)

    def _host_scalar(self, name, value, dtype=np.int32):
        """A host Parameter holding a step count or another per-step scalar."""
        return Parameter(np.array(value, dtype), name, requires_grad=False, device='CPU')

    # -------------------------------------------------------------------------------- step
    def __call__(self, *args, **kwargs):
        # the update writes parameters and state in place: one effect in a graph-mode program
        return effect(_call_cell, self, args, kwargs)

    def construct(self, gradients):
        """One step: ``gradients`` holds one gradient per parameter."""
        grads = self._gradient_arrays(gradients)
        self._begin()
        for group_id, group in enumerate(self.param_groups):
            lr = group['lr']
            lr = float(lr._data) if isinstance(lr, Parameter) else float(lr)
            for i in range(self.group_start_id[group_id], self.group_start_id[group_id + 1]):
                g = grads[i]
                if group.get('maximize'):
                    g = -g
                self._update(group, i, self.parameters[i]._data, g, np.float32(lr))
        return True

    def _gradient_arrays(self, gradients):
        if not isinstance(gradients, (tuple, list)) or len(gradients) != len(self.parameters):
            got = len(gradients) if isinstance(gradients, (tuple, list)) else \
                type(gradients).__name__
            raise ValueError(f"For '{self.cls_name}', expected {len(self.parameters)} "
                             f"gradients, one per parameter, got {got}")
        arrays = []
        for p, g in zip(self.parameters, gradients):
            if not isinstance(g, Tensor) or g.shape != p.shape:
                shown = g.shape if isinstance(g, Tensor) else type(g).__name__
                raise ValueError(f"For '{self.cls_name}', the gradient of '{p.name}' must be a "
                                 f"Tensor of shape {p.shape}, got {shown}")
            arrays.append(g._data.astype(p._data.dtype, copy=False))
        return arrays

    def _begin(self):
        """Per-step work before the updates (a step count)."""

    def _update(self, group, i, w, g, lr):
        """Update parameter ``i`` (array ``w``, in place) with gradient ``g``."""
        raise NotImplementedError(f"{type(self).__name__}: experimental.optim.Optimizer is a "
                                  f"base class; use SGD, Adam, AdamW... or define _update")

    @staticmethod
    def _decayed(group, w, g):
        """g + weight_decay * w (MindSpore's ``_decay_weight``)."""
        wd = group['weight_decay']
        return g + w * np.float32(wd) if wd != 0.0 else g


def check_not_less_than(arg_value, arg_name, prim, value=0.0):
    """arg_value >= value, else MindSpore's ValueError."""
    if arg_value < value:
        raise ValueError(f"For {prim}, the {arg_name} must be greater than or equal to {value}, "
                         f"but got {arg_value}.")


def check_not_less_than_without_equal(arg_value, arg_name, prim, value=0.0):
    """arg_value > value, else MindSpore's ValueError."""
    if arg_value <= value:
        raise ValueError(f"For {prim}, the {arg_name} must be greater than {value}, but got "
                         f"{arg_value}.")

