"""Training wrappers: ``WithLossCell`` (network + loss) and ``TrainOneStepCell`` (one update).

Both are built as MindSpore builds them, with ``auto_prefix=False``: the wrapped network keeps
its parameters' names (``fc.weight``, not ``network._backbone.fc.weight``), so the names an
optimizer gave its state and the names in checkpoints stay the same once a network is wrapped.
"""
import numbers

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...autograd.functional import GradOperation, value_and_grad
from ..cell import Cell
from ..layer.basic import Identity
from ..parameter import Parameter
from .grad_reducer import data_parallel_reducer

__all__ = ['WithLossCell', 'WithEvalCell', 'WithGradCell', 'TrainOneStepCell',
           'ForwardValueAndGrad']


class WithLossCell(Cell):
    """A network followed by a loss: ``construct(data, label) = loss_fn(backbone(data), label)``.

    Args:
        backbone: the network, a Cell.
        loss_fn: the loss, a Cell or any callable ``loss_fn(logits, label) -> Tensor``.

    Inputs:
        data: the network's input; label: the target passed to ``loss_fn``.

    Outputs:
        The loss, as ``loss_fn`` returns it (usually a 0-d Tensor).

    Raises:
        TypeError: when ``backbone`` is not a Cell or ``loss_fn`` is not callable.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(3, 1, weight_init='ones', bias_init='zeros')
    >>> loss_net = ms.nn.WithLossCell(net, lambda y, t: ((y - t) ** 2).mean())
    >>> print(loss_net(ms.ops.ones((2, 3)), ms.ops.zeros((2, 1))))
    9.0
    """

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        if not isinstance(backbone, Cell):
            raise TypeError(f"nn.WithLossCell: backbone must be a Cell, got "
                            f"{type(backbone).__name__}")
        if not callable(loss_fn):
            raise TypeError(f"nn.WithLossCell: loss_fn must be a Cell or a callable, got "
                            f"{type(loss_fn).__name__}")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        """The wrapped network."""
        return self._backbone


class WithEvalCell(Cell):
    """A network and a loss for evaluation: ``construct(data, label)`` returns
    ``(loss_fn(outputs, label), outputs, label)`` with ``outputs = network(data)``.

    Args:
        network: the network, a Cell.
        loss_fn: the loss, a Cell or any callable ``loss_fn(outputs, label) -> Tensor``.
        add_cast_fp32: cast the outputs and the label to Float32 before the loss. Default
            False.

    Raises:
        TypeError: for a ``network`` that is not a Cell, a ``loss_fn`` that is not callable or
            a non-bool ``add_cast_fp32``.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
    >>> loss, out, label = ms.nn.WithEvalCell(net, ms.nn.MAELoss())(ms.ops.ones((1, 2)),
    ...                                                              ms.ops.zeros((1, 1)))
    >>> print(loss, out)
    2.0 [[2.]]
    """

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"nn.WithEvalCell: network must be a Cell, got "
                            f"{type(network).__name__}")
        if not callable(loss_fn):
            raise TypeError(f"nn.WithEvalCell: loss_fn must be a Cell or a callable, got "
                            f"{type(loss_fn).__name__}")
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"nn.WithEvalCell: add_cast_fp32 must be a bool, got "
                            f"{add_cast_fp32!r}")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = ops.cast(label, _dtype.float32)
            outputs = ops.cast(outputs, _dtype.float32)
        return self._loss_fn(outputs, label), outputs, label


class TrainOneStepCell(Cell):
    """One training step: forward, gradients of ``optimizer.parameters``, optimizer update.

    In data-parallel mode (``set_auto_parallel_context(parallel_mode=DATA_PARALLEL)`` or
    ``HYBRID_PARALLEL``) with several processes, the gradients are all-reduced over them by a
    ``DistributedGradReducer`` (``grad_reducer``; mean as ``gradients_mean`` says, degree the
    number of processes) before the update, as in MindSpore.

    Args:
        network: a Cell returning the loss (a ``WithLossCell``, or any single-output Cell).
        optimizer: the optimizer, a Cell with a ``parameters`` tuple that is called with one
            gradient per parameter (``nn.SGD``, ``nn.Adam``...).
        sens: the gradient of the loss fed to backward, a number. Default None: 1.0.
        return_grad: also return the gradients, as ``{parameter name: gradient}``.
            Default False.

    Inputs:
        *inputs: the network's inputs.

    Outputs:
        The loss (a Tensor, computed before the update); with ``return_grad``,
        ``(loss, grads_dict)``.

    Raises:
        TypeError: for a ``network`` that is not a Cell, an ``optimizer`` that is not a Cell
            with a tuple of Parameters in ``parameters``, a ``sens`` that is not a number or a
            non-bool ``return_grad``.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(3, 1, weight_init='ones', bias_init='zeros')
    >>> loss_net = ms.nn.WithLossCell(net, lambda y, t: ((y - t) ** 2).mean())
    >>> train = ms.nn.TrainOneStepCell(loss_net, ms.nn.SGD(net.trainable_params(), 0.01))
    >>> x, t = ms.ops.ones((2, 3)), ms.ops.zeros((2, 1))
    >>> print(train(x, t), train(x, t) < 9.0)
    9.0 True
    """

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"nn.TrainOneStepCell: network must be a Cell, got "
                            f"{type(network).__name__}")
        weights = getattr(optimizer, 'parameters', None)
        if not isinstance(optimizer, Cell) or not isinstance(weights, tuple) or not all(
                isinstance(w, Parameter) for w in weights):
            raise TypeError(f"nn.TrainOneStepCell: optimizer must be an optimizer Cell with a "
                            f"tuple of Parameters in 'parameters' (nn.SGD, nn.Adam...), got "
                            f"{type(optimizer).__name__}")
        if sens is None:
            sens = 1.0
        if isinstance(sens, bool) or not isinstance(sens, numbers.Real):
            raise TypeError(f"nn.TrainOneStepCell: sens must be a number, got {sens!r}")
        if not isinstance(return_grad, bool):
            raise TypeError(f"nn.TrainOneStepCell: return_grad must be a bool, got "
                            f"{return_grad!r}")
        self.network = network
        self.optimizer = optimizer
        object.__setattr__(self, 'weights', weights)     # the optimizer's: not re-registered
        self.sens = float(sens)
        self.return_grad = return_grad
        self._grad_fn = value_and_grad(network, None, weights)
        # MindSpore's attributes, for subclasses that write their own construct: the gradient
        # transform and, in data-parallel mode with several processes, the reducer
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        reducer = data_parallel_reducer(weights)
        self.reducer_flag = reducer is not None
        self.grad_reducer = reducer if self.reducer_flag else Identity()

    def construct(self, *inputs):
        loss, grads = self._grad_fn(*inputs)
        if self.reducer_flag:
            grads = self.grad_reducer(grads)
        if self.sens != 1.0:
            grads = tuple(Tensor._wrap(g._data * g._data.dtype.type(self.sens)) for g in grads)
        self.optimizer(grads)
        if self.return_grad:
            return loss, {w.name: g for w, g in zip(self.weights, grads)}
        return loss


class ForwardValueAndGrad(Cell):
    """The network's output and its gradients, from one evaluation.

    Args:
        network: a Cell or a function.
        weights: the Parameters (a ParameterTuple, tuple or list) to differentiate with
            ``get_by_list``. Default None.
        get_all: gradients with respect to every Tensor input. Default False.
        get_by_list: gradients with respect to ``weights``. With neither flag, the gradient
            with respect to the first input. Default False.
        sens_param: the last input is the sensitivity (the gradient of the output), which is
            not passed to the network. Default False.

    Inputs:
        *inputs: the network's inputs (and the sensitivity with ``sens_param``).

    Outputs:
        ``(output, gradients)``, the gradients as ``ops.GradOperation`` gives them.

    MindSpore evaluates the network a second time inside its gradient function; here the
    output and gradients come from one evaluation, so hooks and BatchNorm's running
    statistics see one forward pass per call.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
    >>> out, grads = ms.nn.ForwardValueAndGrad(net, net.trainable_params(), get_by_list=True)(
    ...     ms.ops.ones((1, 2)))
    >>> print(out, grads[0])
    [[2.]] [[1. 1.]]
    """

    def __init__(self, network, weights=None, get_all=False, get_by_list=False,
                 sens_param=False):
        super().__init__(auto_prefix=False)
        if not callable(network):
            raise TypeError(f"nn.ForwardValueAndGrad: network must be a Cell or a function, "
                            f"got {type(network).__name__}")
        for name, flag in (('get_all', get_all), ('get_by_list', get_by_list),
                           ('sens_param', sens_param)):
            if not isinstance(flag, bool):
                raise TypeError(f"nn.ForwardValueAndGrad: {name} must be a bool, got {flag!r}")
        if get_by_list and not isinstance(weights, (tuple, list)):
            raise TypeError(f"nn.ForwardValueAndGrad: with get_by_list=True, weights must be "
                            f"a ParameterTuple, tuple or list of Parameters, got "
                            f"{type(weights).__name__}")
        self.network = network
        object.__setattr__(self, 'weights', weights)     # the network's: not re-registered
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list,
                                  sens_param=sens_param)
        self._run = self.grad.with_value(network, weights if get_by_list else None)

    def construct(self, *inputs):
        return self._run(*inputs)


class WithGradCell(Cell):
    """The gradients of a network's loss with respect to its trainable parameters.

    Args:
        network: the network; with ``loss_fn`` None it must return the loss itself (a
            ``WithLossCell``, say).
        loss_fn: the loss, applied as ``WithLossCell(network, loss_fn)``. Default None.
        sens: the gradient of the loss fed to backward (a number or a Tensor of the loss's
            shape). Default None: ones.

    Inputs:
        *inputs: the network's inputs (with ``loss_fn``: data and label).

    Outputs:
        A tuple with the gradient of each trainable parameter, in ``trainable_params()`` order.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
    >>> grads = ms.nn.WithGradCell(net, ms.nn.MSELoss())(ms.ops.ones((1, 2)), ms.ops.zeros((1, 1)))
    >>> print(grads[0], grads[1])
    [[4. 4.]] [4.]
    """

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"nn.WithGradCell: network must be a Cell, got "
                            f"{type(network).__name__}")
        if sens is not None and (isinstance(sens, bool) or
                                 not isinstance(sens, (numbers.Real, Tensor, tuple))):
            raise TypeError(f"nn.WithGradCell: sens must be None, a number, a Tensor or a "
                            f"tuple, got {type(sens).__name__}")
        self.network = network
        self.loss_fn = loss_fn
        object.__setattr__(self, 'weights', tuple(network.trainable_params()))
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)

    def construct(self, *inputs):
        grad_fn = self.grad(self.network_with_loss, self.weights)
        if self.sens is None:
            return grad_fn(*inputs)
        return grad_fn(*inputs, self.sens)


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.wrap.cell_wrapper')
