"""MindSpore's sink-mode loop pieces: ``DatasetHelper``, ``connect_network_with_dataset`` and
``data_sink``, for a training loop written by hand.

MindSpore sinks data by sending batches to a device queue that the network reads with a
``GetNext`` op. hookgrad has no device queue: the helper reads each batch from the dataset when
the loop asks for the next step, and the connected network takes that batch, so a loop written
for sink mode computes the same steps on the same batches. Non-sink mode yields the batches
themselves, as MindSpore's. The checks and their messages are MindSpore's.
"""
import collections
import functools
import numbers

from ..nn.cell import Cell

__all__ = ['DatasetHelper', 'connect_network_with_dataset', 'data_sink']


def _check_int(value, message):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(message)


class DatasetHelper:
    """Iterate ``dataset`` for a training loop.

    In non-sink mode each iteration of the helper is one epoch, yielding each batch as a list
    of Tensors. In sink mode (the default) each iteration yields ``sink_size`` steps (the
    dataset's size for -1) as empty tuples, and the network made by
    ``connect_network_with_dataset`` takes each step's batch; the dataset is read round and
    round, ``epoch_num`` times in all.

    Raises:
        TypeError: ``dataset_sink_mode`` not a bool or ``sink_size`` not an int.
        ValueError: ``sink_size`` neither -1 nor positive.
        RuntimeError: iterating after ``epoch_num`` passes over the data.
    """

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"The input value must be a bool, but got "
                            f"{type(dataset_sink_mode).__name__}.")
        _check_int(sink_size, f"The type of input value must be 'int', but got "
                              f"'{type(sink_size).__name__}'.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size "
                             f"{sink_size}.")
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._sink_size = dataset.get_dataset_size() if sink_size == -1 else int(sink_size)
        self.epoch_num = epoch_num
        self._passes = 0            # passes over the data begun (non-sink), ended (sink)
        self._batches = None        # the iterator over all epoch_num epochs (sink mode)
        self._queue = collections.deque()
        self.network = None

    def _rows(self):
        return self.dataset.create_tuple_iterator(num_epochs=self.epoch_num, output_numpy=False)

    def __iter__(self):
        if not self.dataset_sink_mode:
            if self._passes >= self.epoch_num:
                raise RuntimeError(f"DatasetHelper: the dataset was read for all of its "
                                   f"epoch_num={self.epoch_num} epochs")
            self._passes += 1
            if self._batches is None:
                self._batches = self._rows()
            return iter(self._epoch())
        return iter(self._sink_steps())

    def _epoch(self):
        for batch in self._batches:     # stops at the end of the epoch
            yield list(batch)

    def _sink_steps(self):
        if self._batches is None:
            self._batches = self._rows()
        for _ in range(self._sink_size):
            batch = next(self._batches, None)
            if batch is None:           # an epoch ended: the next one begins
                self._passes += 1
                batch = None if self._passes >= self.epoch_num else next(self._batches, None)
            if batch is None:
                raise RuntimeError(f"DatasetHelper: the dataset was read for all of its "
                                   f"epoch_num={self.epoch_num} epochs")
            self._queue.append(list(batch))
            yield ()

    def _next_batch(self):
        if not self._queue:
            raise RuntimeError("DatasetHelper: the connected network was called with no step "
                               "of data pending (iterate the DatasetHelper to get each step)")
        return self._queue.popleft()

    def sink_size(self):
        """The steps each iteration of the helper yields in sink mode.

        Raises:
            RuntimeError: in non-sink mode (each iteration is one epoch there).
        """
        if not self.dataset_sink_mode:
            raise RuntimeError("DatasetHelper.sink_size: only in sink mode (in non-sink mode "
                               "each iteration is one epoch)")
        return self._sink_size

    def types_shapes(self):
        """``(types, shapes)`` of the dataset's columns."""
        return self.dataset.output_types(), self.dataset.output_shapes()

    def get_data_info(self):
        """``(types, shapes)`` of the dataset's columns (what MindSpore reads from the device
        queue)."""
        return self.types_shapes()

    def stop_send(self):
        """Nothing to stop: batches are read when the loop asks for them, not sent ahead."""

    def release(self):
        """Nothing to release: there is no device queue."""

    def continue_send(self):
        """Nothing to resume: batches are read when the loop asks for them."""


class _DataSinkNetwork(Cell):
    """``network`` fed with the batch of the helper's current step."""

    def __init__(self, network, helper):
        super().__init__(auto_prefix=False)
        self.network = network
        self._helper = helper

    def construct(self, *inputs):
        return self.network(*inputs, *self._helper._next_batch())


def connect_network_with_dataset(network, dataset_helper):
    """The network ``network`` fed by ``dataset_helper`` in sink mode: called with the inputs
    MindSpore's sink loop passes (none), it runs ``network`` on the current step's batch.

    Raises:
        RuntimeError: the helper is in non-sink mode.
        ValueError: the helper's dataset is connected to another network already.
    """
    if not dataset_helper.dataset_sink_mode:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset "
                           "sink mode.")
    connected = dataset_helper.network
    if connected is not None and connected.network is not network:
        raise ValueError("The dataset has been connected to other network, please check the "
                         "code.")
    if connected is None:
        dataset_helper.network = connected = _DataSinkNetwork(network, dataset_helper)
    return connected


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """``fn`` run over ``dataset``: each call of the returned function runs ``fn`` on the next
    ``sink_size`` batches (the dataset read round and round) and returns the last output.

    ``jit_config`` and ``input_signature`` choose how MindSpore compiles ``fn``; they do not
    change its values and are accepted. MindSpore sinks only to an Ascend or GPU device; here
    the batches come from the host on every device.

    Raises:
        TypeError: ``sink_size`` is not an int. ValueError: it is not positive.
    """
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got "
                        f"type '{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    state = {}

    @functools.wraps(fn)
    def sink_process(*args, **kwargs):
        out = None
        for _ in range(sink_size):
            batches = state.get('batches')
            batch = next(batches, None) if batches is not None else None
            if batch is None:
                state['batches'] = dataset.create_tuple_iterator(num_epochs=1)
                batch = next(state['batches'])
            out = fn(*batch)
        return out
    return sink_process
