"""``SummaryCollector``: the callback that writes a training run's summary file (MindInsight),
with MindSpore 2.10's parameters, defaults, checks and collection schedule.

What it collects, by default, in ``Model.train`` (``dataset_sink_mode=False``):

- at the first step and every ``collect_freq`` steps: the loss as scalar ``'loss/auto'`` (the
  mean of the network's first output), the first column of the step's data as image
  ``'input_data/auto'`` when it holds NCHW images (else a warning, and it stops trying),
  histograms ``'<parameter name>/auto'`` of the optimizer's first five parameters (of those
  matching ``histogram_regular`` when set), and the values of the summary Primitives
  (``ops.ScalarSummary``...);
- ``TensorSummary`` values on at most 20 of those steps (``collect_tensor_freq``).

What MindSpore collects and hookgrad does not: the computational graph (``collect_graph``: a
protobuf of MindSpore's compiled graph), the dataset graph, the train/eval lineage and
``custom_lineage_data`` (MindInsight's lineage file), and the loss-landscape checkpoints
(``collect_landscape``, for ``SummaryLandscape``). Their options are taken and checked as
MindSpore checks them, and they write nothing.
"""
import copy
import re

import numpy as np

from .. import log as _logger
from .._tensor import Tensor
from .callback_base import Callback
from .summary.summary_record import (SummaryRecord, check_type, make_directory,
                                     process_export_options)

__all__ = ['SummaryCollector']

_DEFAULT_TENSOR_SUMMARY_LIMIT = 20


class SummaryCollector(Callback):
    """Collects the loss, input images, parameter histograms and the summary Primitives' values
    of ``Model.train`` into a summary file in ``summary_dir`` (see the module docstring).

    Args are MindSpore's: ``summary_dir``, ``collect_freq=10``, ``num_process=32``,
    ``collect_specified_data=None``, ``keep_default_action=True``, ``custom_lineage_data=None``,
    ``collect_tensor_freq=None``, ``max_file_size=None``, ``export_options=None``.
    """

    _DEFAULT_SPECIFIED_DATA = {
        'collect_metric': True,
        'collect_graph': True,
        'collect_train_lineage': True,
        'collect_eval_lineage': True,
        'collect_input_data': True,
        'collect_dataset_graph': True,
        'histogram_regular': None,
        'collect_landscape': {'landscape_size': 40, 'unit': 'step', 'num_samples': 2048,
                              'create_landscape': {'train': True, 'result': True},
                              'intervals': [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                            [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]},
    }

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        super().__init__()
        self._summary_dir = make_directory(summary_dir, "summary_dir")
        self._record = None
        self._check_positive('collect_freq', collect_freq)
        self._collect_freq = collect_freq
        self._check_positive('collect_tensor_freq', collect_tensor_freq, allow_none=True)
        self._collect_tensor_freq = collect_tensor_freq
        self._tensor_collect_range = None
        self._check_positive('max_file_size', max_file_size, allow_none=True)
        self._max_file_size = max_file_size
        self._export_options = process_export_options(export_options)
        check_type('keep_default_action', keep_default_action, bool)
        self._collect_specified_data = self._process_specified_data(collect_specified_data,
                                                                    keep_default_action)
        landscape = self._collect_specified_data.get('collect_landscape', None)
        check_type('collect_landscape', landscape, [dict, type(None)])
        if landscape:
            self._check_landscape(landscape)
        self._custom_lineage_data = self._check_custom_lineage(custom_lineage_data)
        self._temp_optimizer = None
        self._has_saved_graph = False
        self._is_parse_loss_success = True
        self._first_step = True
        self._dataset_sink_mode = True
        self._num_process = num_process

    def __enter__(self):
        self._record = SummaryRecord(log_dir=self._summary_dir,
                                     max_file_size=self._max_file_size,
                                     raise_exception=False, export_options=self._export_options)
        self._first_step, self._dataset_sink_mode = True, True
        return self

    def __exit__(self, *err):
        self._record.close()

    # ------------------------------------------------------------------ checks
    def _check_positive(self, name, value, allow_none=False):
        if allow_none and value is None:
            return
        check_type(name, value, int)
        if value <= 0:
            raise ValueError(f'For "{type(self).__name__}", the value of `{name}` should be '
                             f'greater than 0, but got `{value}`.')

    def _process_specified_data(self, specified_data, action):
        check_type('collect_specified_data', specified_data, [dict, type(None)])
        defaults = copy.deepcopy(self._DEFAULT_SPECIFIED_DATA)
        if specified_data is None:
            return defaults if action else {}
        for name in specified_data:
            check_type(name, name, [str])
        unexpected = set(specified_data) - set(defaults)
        if unexpected:
            raise ValueError(f'For "{type(self).__name__}", the keys {unexpected} of '
                             f'`collect_specified_data` are unsupported, expect the follow keys: '
                             f'{list(defaults.keys())}')
        if 'histogram_regular' in specified_data:
            regular = specified_data.get('histogram_regular')
            check_type('histogram_regular', regular, (str, type(None)))
            if isinstance(regular, str):
                try:
                    re.match(regular, '')
                except re.error as exc:
                    raise ValueError(f'For `collect_specified_data`, the value of '
                                     f'`histogram_regular` is not a valid regular expression. '
                                     f'Detail: {exc}.') from exc
        for item in set(defaults) - {'histogram_regular', 'collect_landscape'}:
            if item in specified_data:
                check_type(item, specified_data.get(item), bool)
        if action:
            defaults.update(specified_data)
            return defaults
        return dict(specified_data)

    def _check_landscape(self, landscape):
        who = type(self).__name__
        keys = self._DEFAULT_SPECIFIED_DATA['collect_landscape']
        unexpected = set(landscape) - set(keys)
        if unexpected:
            raise ValueError(f'For "{who}", the keys {unexpected} of `collect_landscape` are '
                             f'unsupported, expect the follow keys: {list(keys.keys())}')
        size = landscape.get('landscape_size', 40)
        check_type('landscape_size', size, int)
        if size < 3 or size > 256:
            raise ValueError(f'For "{who}", the "landscape_size" in collect_specified_data should '
                             f'be less than 256 and more than 3, but got the: {size}')
        unit = landscape.get('unit', 'step')
        check_type('unit', unit, str)
        if unit not in ('step', 'epoch'):
            raise ValueError(f'For "{who}", unit in collect_specified_data should be step or '
                             f'epoch, but got the: {unit}.')
        check_type('num_samples', landscape.get('num_samples', 2048), int)
        create = landscape.get('create_landscape', {'train': True, 'result': True})
        check_type('create_landscape', create, dict)
        for param, value in create.items():
            if param not in ('train', 'result'):
                raise ValueError(f'For "{who}", the key to create landscape should be in '
                                 f'["train", "result"], but got the: {param}.')
            check_type(param, value, bool)
        intervals = landscape.get('intervals')
        check_type('intervals', intervals, list)
        for interval in intervals:
            check_type('each interval inintervals', interval, list)
            if len(interval) < 3:
                raise ValueError(f'For "{who}", the length of each list in "intervals" should '
                                 f'not be less than three, but got the: {interval}')
            for j in interval:
                if not isinstance(j, int):
                    raise TypeError(f'For "{who}", the value of each list in "intervals" should '
                                    f'be int, but got the: {type(j)}')

    @staticmethod
    def _check_custom_lineage(custom_lineage_data):
        data = {} if custom_lineage_data is None else custom_lineage_data
        check_type('custom_lineage_data', data, [dict, type(None)])
        for key, value in data.items():
            check_type(f'custom_lineage_data -> {key}', key, str)
            check_type(f'the value of custom_lineage_data -> {key}', value, (int, str, float))
        return data

    # ------------------------------------------------------------------ callback steps
    def begin(self, run_context):
        cb_params = run_context.original_args()
        callbacks = cb_params.get('list_callback') or ()
        if sum(type(cb).__name__ == type(self).__name__ for cb in callbacks) > 1:
            raise ValueError(f"There are more than one {type(self).__name__} instance in callback "
                             f"list,but expected only one {type(self).__name__} instance.")
        if cb_params.mode not in ('train', 'eval'):
            raise ValueError('Only support `train` (model.train) and `eval` (model.eval) mode, '
                             f'but got `{cb_params.mode}` mode.')
        self._record.set_mode(cb_params.mode)
        self._dataset_sink_mode = cb_params.get('dataset_sink_mode', False)

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.mode != 'train':
            return
        if not self._has_saved_graph:
            # MindSpore records its graphs here, with the summary Primitives' values so far
            self._has_saved_graph = True
            self._record.record(cb_params.cur_step_num)
        if not self._dataset_sink_mode:
            self._collect_tensor_data(cb_params)

    def epoch_end(self, run_context):
        # as in MindSpore, also without dataset sinking: a last step of an epoch that is a
        # collected one is collected again (with what was added since)
        self._collect_tensor_data(run_context.original_args())
        self._record.flush()

    def end(self, run_context):
        # values of the summary Primitives made after the last collected step are not recorded
        self._record.set_mode('eval')
        self._record.record(step=0)

    def _collect_tensor_data(self, cb_params):
        if cb_params.mode != 'train':
            return
        if self._first_step:
            self._tensor_collect_range = self._get_tensor_collect_range(cb_params)
            self._collect_at_step_end(cb_params, None)
            self._first_step = False
            self._record.flush()
            return
        current = cb_params.cur_epoch_num if self._dataset_sink_mode else cb_params.cur_step_num
        in_range = current in self._tensor_collect_range
        if current % self._collect_freq == 0 and in_range:
            self._collect_at_step_end(cb_params, None)
        elif in_range:
            self._collect_at_step_end(cb_params, lambda plugin: plugin == 'tensor')
        elif current % self._collect_freq == 0:
            self._collect_at_step_end(cb_params, lambda plugin: plugin != 'tensor')

    def _get_tensor_collect_range(self, cb_params):
        total = cb_params.epoch_num
        if not self._dataset_sink_mode:
            total *= cb_params.batch_num
        if self._collect_tensor_freq is not None:
            return range(0, total + 1, self._collect_tensor_freq)
        if len(range(0, total + 1, self._collect_freq)) > _DEFAULT_TENSOR_SUMMARY_LIMIT:
            freq = total // (_DEFAULT_TENSOR_SUMMARY_LIMIT - 1)
            if freq > 1:
                return range(0, total + 1, freq)[:_DEFAULT_TENSOR_SUMMARY_LIMIT]
            return range(0, total + 1)[:_DEFAULT_TENSOR_SUMMARY_LIMIT + 1]
        return range(0, total + 1, self._collect_freq)

    def _collect_at_step_end(self, cb_params, plugin_filter):
        self._collect_input_data(cb_params)
        self._collect_metric(cb_params)
        self._collect_histogram(cb_params)
        self._record.record(cb_params.cur_step_num, plugin_filter=plugin_filter)

    # ------------------------------------------------------------------ what is collected
    def _collect_input_data(self, cb_params):
        specified = self._collect_specified_data
        if not specified.get('collect_input_data'):
            return
        data = cb_params.get('train_dataset_element')
        if not isinstance(data, (Tensor, list, tuple)):
            specified['collect_input_data'] = False
            _logger.warning("The type of input data is not Tensor/list/tuple, so "
                            "SummaryCollector will not collect input data.")
            return
        if not isinstance(data, Tensor) and not data:
            specified['collect_input_data'] = False
            _logger.warning("The 'train_dataset_element' in RunContext.original_args is empty, "
                            "so SummaryCollector will not record the input data. ")
            return
        if isinstance(data, (list, tuple)):
            data = data[0]
        try:
            self._record.add_value('image', 'input_data/auto', data)
        except (TypeError, ValueError):
            _logger.warning('The input data of network are not image, so will not collect by '
                            'SummaryCollector.')
            specified['collect_input_data'] = False

    def _collect_metric(self, cb_params):
        if not self._collect_specified_data.get('collect_metric'):
            return
        loss = self._get_loss(cb_params)
        if loss is None:
            return
        try:
            self._record.add_value('scalar', 'loss/auto', loss)
        except ValueError:
            _logger.warning("The output of network is not a scalar, so SummaryCollector will not "
                            "collect loss.")
            self._collect_specified_data['collect_metric'] = False

    def _get_loss(self, cb_params):
        if not self._is_parse_loss_success:
            return None
        output = cb_params.get('net_outputs')
        if output is None:
            _logger.warning("Can not find any output by this network, so SummaryCollector will "
                            "not collect loss.")
            self._is_parse_loss_success = False
            return None
        if isinstance(output, (int, float, Tensor)):
            loss = output
        elif isinstance(output, (list, tuple)) and output:
            loss = output[0]
        else:
            _logger.warning("The output type could not be identified, expect type is one of "
                            "[int, float, Tensor, list, tuple], so no loss was recorded in "
                            "SummaryCollector.")
            self._is_parse_loss_success = False
            return None
        if not isinstance(loss, Tensor):
            loss = Tensor(loss)
        return Tensor(np.mean(loss.asnumpy()))

    def _get_optimizer(self, cb_params):
        from ..nn.optim.optimizer import Optimizer
        if self._temp_optimizer == 'Failed':
            return None
        if self._temp_optimizer is not None:
            return self._temp_optimizer
        optimizer = cb_params.get('optimizer')
        if optimizer is None:
            network = cb_params.get('train_network') if cb_params.mode == 'train' else \
                cb_params.get('eval_network')
            if network is not None:
                for _, cell in network.cells_and_names():
                    if isinstance(cell, Optimizer):
                        optimizer = cell
                        break
                    found = getattr(cell, 'optimizer', None)
                    if isinstance(found, Optimizer):
                        optimizer = found
                        break
        if not isinstance(optimizer, Optimizer):
            _logger.warning("Can not find optimizer in network, or the optimizer does not inherit "
                            "MindSpore's optimizer, so we will not collect data about optimizer "
                            "in SummaryCollector.")
            optimizer = None
        self._temp_optimizer = optimizer if optimizer is not None else 'Failed'
        return optimizer

    def _collect_histogram(self, cb_params):
        if 'histogram_regular' not in self._collect_specified_data:
            return
        optimizer = self._get_optimizer(cb_params)
        if optimizer is None:
            return
        parameters = list(optimizer.parameters)
        regular = self._collect_specified_data.get('histogram_regular')
        if regular is not None:
            parameters = [p for p in parameters if re.match(regular, p.name)]
        else:
            parameters = parameters[:5]     # MindSpore's default: the first five
        for p in parameters:
            self._record.add_value('histogram', p.name + '/auto', p)
