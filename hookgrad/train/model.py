"""``Model``: MindSpore's high-level train / eval / predict loop over datasets and callbacks.

A training step runs the network (and the loss) forward, takes the gradients of the loss with
respect to ``optimizer.parameters`` with ``hookgrad.value_and_grad``, and calls
``optimizer(grads)``. The network itself is trained and saved: it is never wrapped in another
Cell, so its parameter names stay as they are. With mixed precision (an ``amp_level`` other than
'O0', or a ``loss_scale_manager``) the step is the one ``amp.build_train_network`` builds, as in
MindSpore (docs/amp.md); the parameter names stay the same there too.
"""
import numbers
import sys

from .._frames import warn
from ..autograd.functional import value_and_grad
from ..context import GRAPH_MODE, get_context
from ..autograd.grad_mode import no_grad
from ..jit import jit
from ..nn.cell import Cell
from ..nn.wrap.grad_reducer import data_parallel_reducer
from .callback import EarlyStopping, History, LossMonitor
from .callback_base import Callback, CallbackList, InternalCallbackParam, RunContext
from .metrics import Loss, get_metrics
from .loss_scale_manager import LossScaleManager
from .model_checkpoint import ModelCheckpoint
from .progress import ProgressBar

__all__ = ['Model']

_AMP_LEVELS = ('O0', 'O1', 'O2', 'O3', 'auto')
_BOOST_LEVELS = ('O0', 'O1', 'O2')
_KWARGS = ('loss_scale_manager', 'keep_batchnorm_fp32', 'boost_config_dict', 'acc_level')
# callbacks that act on training only: Model.fit leaves them out of its evaluation passes
_TRAIN_ONLY = (LossMonitor, ModelCheckpoint, EarlyStopping, History, ProgressBar)


def _check_bool(value, who, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{who}: {arg} must be a bool, got {value!r}")


def _check_int(value, who, arg, minimum):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{who}: {arg} must be an int >= {minimum}, got {value!r}")
    return int(value)


def _check_kwargs(kwargs, optimizer):
    """MindSpore's Model kwargs: the known keys, and those hookgrad can honour."""
    for key in kwargs:
        if key not in _KWARGS:
            raise ValueError(f"Model: the kwargs must be among {_KWARGS}, got {key!r}")
    keep_bn = kwargs.get('keep_batchnorm_fp32')
    if keep_bn is not None:
        _check_bool(keep_bn, 'Model', 'keep_batchnorm_fp32')
    config = kwargs.get('boost_config_dict')
    if config is not None and not isinstance(config, (dict, str)):
        raise TypeError(f"Model: boost_config_dict must be a dict, got {type(config).__name__}")
    manager = kwargs.get('loss_scale_manager')
    if manager is not None:
        if optimizer is None:
            raise ValueError("Model: a loss_scale_manager needs an optimizer")
        if not isinstance(manager, LossScaleManager):
            raise TypeError(f"Model: loss_scale_manager must be a LossScaleManager "
                            f"(FixedLossScaleManager, DynamicLossScaleManager), got "
                            f"{type(manager).__name__}")


class Model:
    """Train, evaluate and predict with a network.

    Args:
        network: the Cell to train. With ``loss_fn``, dataset rows are ``(data, label)`` and
            the loss is ``loss_fn(network(data), label)``; without, ``network(*row)`` returns
            the loss itself (or, with no optimizer either, runs a whole training step, like a
            ``TrainOneStepCell``).
        loss_fn: the loss, a callable ``loss_fn(logits, label)`` (usually a loss Cell).
        optimizer: a Cell called as ``optimizer(grads)``, with ``optimizer.parameters`` the
            parameters to differentiate.
        metrics: a set of metric names (``{'accuracy', 'loss'}``) or a dict of name -> Metric,
            computed by ``eval``.
        eval_network: the Cell ``eval`` runs on each row. Default None: ``network`` and
            ``loss_fn``, giving ``(loss, logits, label)``.
        eval_indexes: with ``eval_network``, the positions of the loss, the logits and the
            label in its outputs (a list of 3 ints); None passes all outputs to every metric.
        amp_level: 'O0' (the network's own dtypes), 'O1', 'O2' or 'O3': mixed precision
            as ``amp.build_train_network`` builds it (docs/amp.md); the network is converted
            (in place) when the Model is made, and trained through the step it builds.
            'auto' (per-primitive dtypes inside MindSpore's executor) is not available.
        boost_level: 'O0'. MindSpore's 'O1'/'O2' rewrite the network and optimizer for its
            boost mode (even on CPU), which hookgrad does not have: an error.
        kwargs: MindSpore's ``loss_scale_manager`` (a LossScaleManager, overriding the
            level's: O2 defaults to ``DynamicLossScaleManager()``), ``keep_batchnorm_fp32``
            (a bool, overriding the level's),
            ``boost_config_dict`` (read only in boost mode, so unused at 'O0') and
            ``acc_level`` (the old name of ``boost_level``).

    Raises:
        TypeError: for a network, loss, optimizer or eval network of the wrong type.
        ValueError: for metrics without a way to evaluate them, bad ``eval_indexes``, an
            unknown ``amp_level``, ``boost_level`` or kwarg, or mixed precision without an
            optimizer.
        NotImplementedError: for boost mode or ``amp_level='auto'``.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level='O0', boost_level='O0', **kwargs):
        if not isinstance(network, Cell):
            raise TypeError(f"Model: network must be a Cell, got {type(network).__name__}")
        if loss_fn is not None and not callable(loss_fn):
            raise TypeError(f"Model: loss_fn must be a Cell or callable, got "
                            f"{type(loss_fn).__name__}")
        if optimizer is not None and not isinstance(optimizer, Cell):
            raise TypeError(f"Model: optimizer must be an optimizer Cell, got "
                            f"{type(optimizer).__name__}")
        if eval_network is not None and not isinstance(eval_network, Cell):
            raise TypeError(f"Model: eval_network must be a Cell, got "
                            f"{type(eval_network).__name__}")
        _check_kwargs(kwargs, optimizer)
        boost_level = kwargs.get('acc_level', boost_level)
        if boost_level not in _BOOST_LEVELS:
            raise ValueError(f"Model: boost_level must be one of {_BOOST_LEVELS}, got "
                             f"{boost_level!r}")
        if boost_level != 'O0':
            raise NotImplementedError(
                f"Model: boost_level {boost_level!r} is not available in hookgrad: MindSpore's "
                f"boost mode (mindspore.boost) rewrites the network and optimizer; use 'O0'")
        if amp_level not in _AMP_LEVELS:
            raise ValueError(f"Model: amp_level must be one of {_AMP_LEVELS}, got {amp_level!r}")
        if amp_level != 'O0' and optimizer is None:
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None."
                             "Please set amp_level='O0' to disable auto mixed precision or set "
                             "'optimizer' not be None to use auto mixed precision.")
        metric_fns = get_metrics(metrics)
        if eval_network is None:
            if eval_indexes is not None:
                raise ValueError("Model: eval_indexes needs an eval_network")
            if metric_fns and loss_fn is None:
                raise ValueError("Model: metrics need an eval_network or a loss_fn to evaluate "
                                 "the network with")
            eval_indexes = [0, 1, 2] if loss_fn is not None else None
        elif eval_indexes is not None and not (
                isinstance(eval_indexes, list) and len(eval_indexes) == 3 and
                all(isinstance(i, int) and not isinstance(i, bool) for i in eval_indexes)):
            raise ValueError(f"Model: eval_indexes must be None or a list of 3 ints (loss, "
                             f"logits, label positions), got {eval_indexes!r}")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metric_fns = metric_fns
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._keep_batchnorm_fp32 = kwargs.get('keep_batchnorm_fp32')
        self._loss_scale_manager = kwargs.get('loss_scale_manager')
        self._train_network = None
        if amp_level != 'O0' or 'loss_scale_manager' in kwargs:
            self._train_network = _build_amp_network(self, kwargs)

    @property
    def train_network(self):
        """The network being trained (with mixed precision, the training step built for it)."""
        return self._network if self._train_network is None else self._train_network

    @property
    def predict_network(self):
        """The network ``predict`` runs."""
        return self._network

    @property
    def eval_network(self):
        """The network ``eval`` runs (the ``eval_network`` given, else the network)."""
        return self._network if self._eval_network is None else self._eval_network

    # ----------------------------------------------------------------- training
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1,
              initial_epoch=0):
        """Train for epochs ``initial_epoch + 1`` .. ``epoch`` over ``train_dataset``.

        Args:
            epoch: the last epoch, an int >= 1.
            train_dataset: a dataset (``get_dataset_size`` and ``create_tuple_iterator``)
                whose rows are ``(data, label)`` with a ``loss_fn``, else the network's inputs.
            callbacks: a Callback or a list of Callbacks. When standard output is a terminal a
                ``ProgressBar`` is added unless one is given.
            dataset_sink_mode: accepted for compatibility; data always comes from the host.
            sink_size: accepted for compatibility (-1 or an int >= 1).
            initial_epoch: the epoch to resume after. Default 0.

        Raises:
            TypeError, ValueError: for bad arguments, an empty dataset, rows that are not
                ``(data, label)`` with a ``loss_fn``, or a ``loss_fn`` without an optimizer.
        """
        self._run_training('Model.train', epoch, train_dataset, callbacks, dataset_sink_mode,
                           sink_size, initial_epoch, None, 1)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1,
            initial_epoch=0):
        """``train``, evaluating on ``valid_dataset`` at the end of chosen epochs.

        After each evaluation ``cb_params.metrics`` holds the metrics and
        ``cb_params.eval_results`` the metrics plus ``eval_loss`` (for ``EarlyStopping``)
        while the epoch-end callbacks run.

        Args:
            valid_frequency: evaluate every this many epochs (an int >= 1), or at the epochs
                in a list.
            valid_dataset_sink_mode: accepted for compatibility.
            Others: as ``train``.

        Raises:
            ValueError: for a ``valid_dataset`` without metrics, or a bad ``valid_frequency``;
                as ``train`` otherwise.
        """
        _check_bool(valid_dataset_sink_mode, 'Model.fit', 'valid_dataset_sink_mode')
        if isinstance(valid_frequency, list):
            if not all(isinstance(e, int) and not isinstance(e, bool) for e in valid_frequency):
                raise ValueError(f"Model.fit: a valid_frequency list must hold epoch numbers "
                                 f"(ints), got {valid_frequency!r}")
        else:
            valid_frequency = _check_int(valid_frequency, 'Model.fit', 'valid_frequency', 1)
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("Model.fit: a valid_dataset needs metrics: give Model metrics")
        self._run_training('Model.fit', epoch, train_dataset, callbacks, dataset_sink_mode,
                           sink_size, initial_epoch, valid_dataset, valid_frequency)

    def _run_training(self, who, epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                      initial_epoch, valid_dataset, valid_frequency):
        epoch = _check_int(epoch, who, 'epoch', 1)
        warmup = getattr(train_dataset, '_warmup_epoch', None)
        if warmup is not None and warmup != epoch:
            raise ValueError(f"{who}: epoch ({epoch}) must equal the epoch given to "
                             f"Model.build ({warmup})")
        initial_epoch = _check_int(initial_epoch, who, 'initial_epoch', 0)
        if initial_epoch >= epoch:
            raise ValueError(f"{who}: epoch ({epoch}) must be larger than initial_epoch "
                             f"({initial_epoch})")
        _check_bool(dataset_sink_mode, who, 'dataset_sink_mode')
        if isinstance(sink_size, bool) or not isinstance(sink_size, numbers.Integral) or \
                not (sink_size == -1 or sink_size >= 1):
            raise ValueError(f"{who}: sink_size must be -1 or an int >= 1, got {sink_size!r}")
        if self._loss_fn is not None and self._optimizer is None:
            raise ValueError(f"{who}: a loss_fn without an optimizer trains nothing: give "
                             f"Model an optimizer (or a network that runs a training step)")
        cb_list = CallbackList(self._with_default_callbacks(callbacks), who)
        batch_num = train_dataset.get_dataset_size()
        if batch_num == 0:
            raise ValueError(f"{who}: train_dataset has no rows")
        cb_params = InternalCallbackParam(
            train_network=self.train_network, network=self._network,
            epoch_num=epoch - initial_epoch,
            initial_epoch=initial_epoch, batch_num=batch_num, mode='train', loss_fn=self._loss_fn,
            optimizer=self._optimizer, train_dataset=train_dataset, cur_epoch_num=initial_epoch,
            cur_step_num=0, dataset_sink_mode=False, train_dataset_element=None,
            net_outputs=None)
        step = self._train_step()
        with cb_list:
            eval_callbacks = CallbackList([cb for cb in cb_list.callbacks
                                           if not isinstance(cb, _TRAIN_ONLY)])
            self._train_loop(who, cb_list, cb_params, step, epoch, initial_epoch, train_dataset,
                             valid_dataset, valid_frequency, eval_callbacks)

    @staticmethod
    def _with_default_callbacks(callbacks):
        """``callbacks`` plus a ProgressBar when standard output is a terminal."""
        if sys.stdout is None or not sys.stdout.isatty():
            return callbacks
        given = [callbacks] if isinstance(callbacks, Callback) else \
            [] if callbacks is None else callbacks
        if not isinstance(given, (list, tuple)) or \
                any(isinstance(cb, ProgressBar) for cb in given):
            return callbacks
        return list(given) + [ProgressBar()]

    def _train_loop(self, who, cb_list, cb_params, step, epoch, initial_epoch, train_dataset,
                    valid_dataset, valid_frequency, eval_callbacks):
        run_context = RunContext(cb_params)
        network = self._network
        iterator = train_dataset.create_tuple_iterator(num_epochs=epoch - initial_epoch,
                                                       do_copy=False)
        cb_list.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            cb_list.on_train_epoch_begin(run_context)
            for row in iterator:
                if self._loss_fn is not None and len(row) != 2:
                    raise ValueError(f"{who}: with a loss_fn each dataset row must be "
                                     f"(data, label), got {len(row)} columns")
                cb_params.cur_step_num += 1
                cb_params.train_dataset_element = row
                cb_list.on_train_step_begin(run_context)
                if not network.training:
                    network.set_train(True)
                cb_params.net_outputs = step(row)
                cb_list.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            if valid_dataset is not None and (
                    cb_params.cur_epoch_num in valid_frequency
                    if isinstance(valid_frequency, list)
                    else cb_params.cur_epoch_num % valid_frequency == 0):
                self._eval_during_fit(valid_dataset, eval_callbacks, cb_params)
            cb_list.on_train_epoch_end(run_context)
            cb_params.pop('metrics', None)
            cb_params.pop('eval_results', None)
            if run_context.get_stop_requested():
                break
        cb_list.on_train_end(run_context)

    def _train_step(self):
        """``step(row) -> net_outputs``: one forward, backward and optimizer update."""
        network, loss_fn, optimizer = self._network, self._loss_fn, self._optimizer
        if self._train_network is not None:
            return _amp_step(self._train_network, self._loss_scale_manager)
        if optimizer is None:
            return lambda row: network(*row)

        if loss_fn is not None:
            def forward(*row):
                return loss_fn(network(*row[:-1]), row[-1]), None
        else:
            def forward(*row):
                out = network(*row)
                if isinstance(out, (tuple, list)):
                    return (out[0], *out[1:]) if len(out) > 1 else (out[0], None)
                return out, None

        grad_fn = value_and_grad(forward, None, optimizer.parameters, has_aux=True)
        reducer = data_parallel_reducer(optimizer.parameters)   # None unless data parallel

        def step(*row):
            value, grads = grad_fn(*row)
            if reducer is not None:
                grads = reducer(grads)
            optimizer(grads)
            if loss_fn is None and len(value) > 1 and value[1] is not None:
                return value
            return value[0]

        # graph mode: the whole step, update included, as one program (with a reducer, whose
        # MPI calls are no ops, the step stays eager)
        if get_context('mode') == GRAPH_MODE and reducer is None:
            compiled = jit(step)
            return lambda row: compiled(*row)
        return lambda row: step(*row)

    # ----------------------------------------------------------------- evaluation
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Evaluate the metrics over ``valid_dataset``, in predict mode and without gradients.

        Args:
            valid_dataset: a dataset whose rows are ``(data, label)`` for the default eval
                network, or ``eval_network``'s inputs.
            callbacks: a Callback or a list of Callbacks (their ``on_eval_*`` methods run).
            dataset_sink_mode: accepted for compatibility.

        Returns:
            dict ``{metric name: value}``, e.g. ``{'accuracy': 0.93, 'loss': 0.21}``.

        Raises:
            ValueError: when the Model has no metrics.
        """
        _check_bool(dataset_sink_mode, 'Model.eval', 'dataset_sink_mode')
        if not self._metric_fns:
            raise ValueError("Model.eval: the Model has no metrics: give Model(metrics=...), "
                             "e.g. {'accuracy'}")
        cb_list = CallbackList(callbacks, 'Model.eval')
        cb_params = InternalCallbackParam(network=self._network, mode='eval')
        with cb_list:
            return self._eval_pass(valid_dataset, cb_list, cb_params, with_eval_loss=False)

    def _eval_during_fit(self, valid_dataset, eval_callbacks, cb_params):
        saved = {k: cb_params[k] for k in ('cur_step_num', 'batch_num', 'net_outputs')}
        self._eval_pass(valid_dataset, eval_callbacks, cb_params, with_eval_loss=True)
        cb_params.update(saved)
        cb_params.mode = 'train'
        self._network.set_train(True)

    def _eval_pass(self, valid_dataset, cb_list, cb_params, with_eval_loss):
        cb_params.eval_network = self.eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = 'eval'
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = False
        for metric in self._metric_fns.values():
            metric.clear()
        eval_loss = Loss() if with_eval_loss and self._eval_indexes is not None else None
        run_context = RunContext(cb_params)
        self.eval_network.set_train(False)
        cb_list.on_eval_begin(run_context)
        cb_list.on_eval_epoch_begin(run_context)
        with no_grad():
            for row in valid_dataset.create_tuple_iterator(num_epochs=1, do_copy=False):
                cb_params.cur_step_num += 1
                cb_params.eval_dataset_element = row
                cb_list.on_eval_step_begin(run_context)
                outputs = self._eval_outputs(row)
                cb_params.net_outputs = outputs
                cb_list.on_eval_step_end(run_context)
                self._update_metrics(outputs)
                if eval_loss is not None:
                    eval_loss.update(outputs[self._eval_indexes[0]])
                if run_context.get_stop_requested():
                    break
        cb_list.on_eval_epoch_end(run_context)
        metrics = {name: metric.eval() for name, metric in self._metric_fns.items()}
        cb_params.metrics = metrics
        if with_eval_loss:
            cb_params.eval_results = dict(metrics)
            if eval_loss is not None:
                cb_params.eval_results['eval_loss'] = eval_loss.eval()
        cb_list.on_eval_end(run_context)
        return metrics

    def _eval_outputs(self, row):
        if self._eval_network is not None:
            return self._eval_network(*row)
        if len(row) != 2:
            raise ValueError(f"Model.eval: with a loss_fn each dataset row must be (data, "
                             f"label), got {len(row)} columns")
        logits, label = self._network(row[0]), row[1]
        if self._amp_level in ('O2', 'O3'):         # WithEvalCell's add_cast_fp32, as MindSpore
            logits, label = _to_float32(logits), _to_float32(label)
        return self._loss_fn(logits, label), logits, label

    def _update_metrics(self, outputs):
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        indexes = self._eval_indexes
        for metric in self._metric_fns.values():
            if indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[indexes[0]])
            else:
                metric.update(outputs[indexes[1]], outputs[indexes[2]])

    # ----------------------------------------------------------------- prediction
    def predict(self, *predict_data, backend=None, config=None):
        """The network's outputs for ``predict_data``, in predict mode and without gradients.

        Args:
            predict_data: the network's inputs.
            backend: None, or 'lite' (MindSpore Lite, which hookgrad does not have: as MindSpore
                does when Lite cannot be imported, it warns and runs the network).
            config: MindSpore Lite's options (a dict), read only with ``backend='lite'``.

        Raises:
            ValueError: for another ``backend``.

        >>> import hookgrad as ms
        >>> model = ms.train.Model(ms.nn.Dense(3, 2))
        >>> model.predict(ms.ops.ones((4, 3))).shape
        (4, 2)
        """
        if backend not in ('lite', None):
            raise ValueError(f"Model.predict: backend must be 'lite' or None, got {backend!r}")
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"Model.predict: config must be a dict or None, got "
                            f"{type(config).__name__}")
        if backend == 'lite':
            warn("Model.predict: MindSpore Lite is not available in hookgrad; running "
                 "the network itself", RuntimeWarning)
        self._network.set_train(False)
        with no_grad():
            return self._network(*predict_data)

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1,
              sink_mode=True):
        """MindSpore compiles the graphs and data pipelines of a sink-mode run ahead of time.

        hookgrad compiles on first use (in graph mode) and has no sink mode, so this checks the
        arguments and records ``epoch``: a later ``train``/``fit`` must use the same ``epoch``,
        as in MindSpore.

        Raises:
            ValueError: for an ``epoch`` < 1 or a bad ``sink_size``.
        """
        _check_bool(sink_mode, 'Model.build', 'sink_mode')
        epoch = _check_int(epoch, 'Model.build', 'epoch', 1)
        if isinstance(sink_size, bool) or not isinstance(sink_size, numbers.Integral) or \
                not (sink_size == -1 or sink_size >= 1):
            raise ValueError(f"Model.build: sink_size must be -1 or an int >= 1, got "
                             f"{sink_size!r}")
        if train_dataset is not None:
            train_dataset._warmup_epoch = epoch

    def infer_train_layout(self, train_dataset, dataset_sink_mode=True, sink_size=-1):
        """MindSpore's parameter layouts of auto-parallel training: not available.

        Raises:
            RuntimeError: always; hookgrad runs on one device and has no parallel modes.
        """
        raise RuntimeError("Model.infer_train_layout: parameter layouts exist only in "
                           "MindSpore's semi-auto and auto parallel modes, which hookgrad (one "
                           "device, no parallelism) does not have")

    def infer_predict_layout(self, *predict_data, skip_backend_compile=False):
        """MindSpore's parameter layouts of auto-parallel prediction: not available.

        Raises:
            RuntimeError: always; hookgrad runs on one device and has no parallel modes.
        """
        raise RuntimeError("Model.infer_predict_layout: parameter layouts exist only in "
                           "MindSpore's semi-auto and auto parallel modes, which hookgrad (one "
                           "device, no parallelism) does not have")


# ----------------------------------------------------------------------------- mixed precision
def _build_amp_network(model, kwargs):
    """MindSpore's ``Model._build_train_network`` with an optimizer: ``amp.build_train_network``
    with the level and the kwargs given."""
    from ..amp import build_train_network
    config = {}
    if 'loss_scale_manager' in kwargs:          # None included: no loss scaling at O2
        config['loss_scale_manager'] = kwargs['loss_scale_manager']
    if kwargs.get('keep_batchnorm_fp32') is not None:
        config['keep_batchnorm_fp32'] = kwargs['keep_batchnorm_fp32']
    return build_train_network(model._network, model._optimizer, model._loss_fn,
                               level=model._amp_level, **config)


def _amp_step(train_network, manager):
    """``step(row)``: the built training step; a manager that drops overflowing updates is
    told each step's overflow flag (the second output), as MindSpore's Model does."""
    def step(row):
        outputs = train_network(*row)
        if manager is not None and manager.get_drop_overflow_update():
            manager.update_loss_scale(bool(outputs[1].asnumpy().all()))
        return outputs
    return step


def _to_float32(value):
    from .. import _dtype, ops
    if hasattr(value, '_data') and value._data.dtype.kind in 'fV' and \
            value.dtype != _dtype.float32:
        return ops.cast(value, _dtype.float32)
    return value


from ..context import ParallelMode  # noqa: E402,F401  (MindSpore code imports it from here)
