"""Dataset pipeline callbacks: DSCallback and WaitedDSCallback, against MindSpore 2.10's
recorded event orders."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds


class Recorder(ds.DSCallback):
    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.events = []

    def _add(self, kind, c):
        self.events.append((kind, c.cur_epoch_num, c.cur_step_num_in_epoch, c.cur_step_num))

    def ds_begin(self, c):
        self._add('begin', c)

    def ds_epoch_begin(self, c):
        self._add('eb', c)

    def ds_epoch_end(self, c):
        self._add('ee', c)

    def ds_step_begin(self, c):
        self._add('sb', c)

    def ds_step_end(self, c):
        self._add('se', c)


def test_events_and_step_size_as_mindspore():
    cb = Recorder(2)
    data = ds.GeneratorDataset([1, 2, 3, 4, 5], 'c', shuffle=False)
    data = data.map(lambda x: x, callbacks=cb, num_parallel_workers=1)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    for _ in range(2):
        assert [int(x) for (x,) in it] == [1, 2, 3, 4, 5]
    steps = [e for e in cb.events if e[0] in ('sb', 'se')]
    # MindSpore 2.10 calls the same hooks with the same numbers (its step ends come later,
    # as its pipeline runs ahead in its own threads)
    assert [e for e in cb.events if e[0] not in ('sb', 'se')] == [
        ('begin', 0, 0, 0), ('eb', 1, 0, 0), ('ee', 1, 5, 5), ('eb', 2, 0, 5), ('ee', 2, 5, 10)]
    assert steps == [('sb', 1, 1, 1), ('se', 1, 1, 1), ('sb', 1, 3, 3), ('se', 1, 3, 3),
                     ('sb', 1, 5, 5), ('se', 1, 5, 5), ('sb', 2, 1, 6), ('se', 2, 1, 6),
                     ('sb', 2, 3, 8), ('se', 2, 3, 8), ('sb', 2, 5, 10), ('se', 2, 5, 10)]


def test_each_iterator_starts_a_new_run():
    cb = Recorder()
    data = ds.NumpySlicesDataset([7, 8], shuffle=False).map(lambda x: x * 2, callbacks=[cb])
    for _ in range(2):
        assert [int(x) for (x,) in data.create_tuple_iterator(num_epochs=1,
                                                              output_numpy=True)] == [14, 16]
    assert [e for e in cb.events if e[0] == 'begin'] == [('begin', 0, 0, 0)] * 2
    assert [e for e in cb.events if e[0] == 'ee'] == [('ee', 1, 2, 2)] * 2


def test_parallel_map_keeps_step_numbers():
    cb = Recorder()
    data = ds.NumpySlicesDataset(np.arange(6), shuffle=False)
    data = data.map(lambda x: x + 1, callbacks=cb, num_parallel_workers=3)
    assert [int(x) for (x,) in data.create_tuple_iterator(output_numpy=True)] == list(range(1, 7))
    assert sorted(e[3] for e in cb.events if e[0] == 'se') == [1, 2, 3, 4, 5, 6]


def test_argument_checks_as_mindspore():
    with pytest.raises(ValueError, match=r"step_size must be in \[1, 2147483647\], got 0"):
        ds.DSCallback(0)
    with pytest.raises(TypeError, match="step_size must be an int, got 'a'"):
        ds.DSCallback('a')
    data = ds.NumpySlicesDataset([1, 2])
    with pytest.raises(AttributeError, match="without overriding any methods"):
        data.map(lambda x: x, callbacks=[ds.DSCallback()])
    with pytest.raises(TypeError, match=r"callbacks\[0\] must be a DSCallback, got int"):
        data.map(lambda x: x, callbacks=[1])
    with pytest.raises(ValueError, match="give them to map"):
        data.batch(1, callbacks=Recorder())


class Waited(ds.WaitedDSCallback):
    def __init__(self, events, step_size=1):
        super().__init__(step_size)
        self.events = events

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        self.events.append(f"ds_epoch_begin_{ds_run_context.cur_epoch_num}_"
                           f"{ds_run_context.cur_step_num}_"
                           f"{train_run_context.original_args().cur_step_num}")

    def sync_step_begin(self, train_run_context, ds_run_context):
        self.events.append(f"ds_step_begin_{ds_run_context.cur_epoch_num}_"
                           f"{ds_run_context.cur_step_num}_"
                           f"{train_run_context.original_args().cur_step_num}")


class TrainEvents(ms.train.Callback):
    def __init__(self, events):
        self.events = events

    def epoch_end(self, run_context):
        p = run_context.original_args()
        self.events.append(f"ms_epoch_end_{p.cur_epoch_num}_{p.cur_step_num}")

    def step_end(self, run_context):
        p = run_context.original_args()
        self.events.append(f"ms_step_end_{p.cur_epoch_num}_{p.cur_step_num}")


class Identity(ms.nn.Cell):
    def construct(self, x, y):
        return x


@pytest.mark.parametrize('batch_size, expected', [
    (1, ['ms_step_end_1_1', 'ds_step_begin_1_2_1', 'ms_step_end_1_2', 'ds_step_begin_1_3_2',
         'ms_step_end_1_3', 'ds_step_begin_1_4_3', 'ms_step_end_1_4', 'ms_epoch_end_1_4',
         'ds_epoch_begin_2_4_4', 'ds_step_begin_2_5_4', 'ms_step_end_2_5',
         'ds_step_begin_2_6_5', 'ms_step_end_2_6', 'ds_step_begin_2_7_6', 'ms_step_end_2_7',
         'ds_step_begin_2_8_7', 'ms_step_end_2_8', 'ms_epoch_end_2_8']),
    (2, ['ms_step_end_1_1', 'ds_step_begin_1_3_1', 'ms_step_end_1_2', 'ms_epoch_end_1_2',
         'ds_epoch_begin_2_4_2', 'ds_step_begin_2_5_2', 'ms_step_end_2_3',
         'ds_step_begin_2_7_3', 'ms_step_end_2_4', 'ms_epoch_end_2_4'])])
def test_waited_callback_follows_model_train_as_mindspore(batch_size, expected):
    # the event lists MindSpore 2.10 records for its documented example
    events = []
    waited, train_cb = Waited(events, batch_size), TrainEvents(events)
    arr = [1, 2, 3, 4]
    data = ds.NumpySlicesDataset((arr, arr), column_names=['c1', 'c2'], shuffle=False)
    data = data.map(lambda x: x, input_columns='c1', callbacks=waited)
    if batch_size > 1:
        data = data.batch(batch_size)
    ms.train.Model(Identity()).train(2, data, dataset_sink_mode=False,
                                     callbacks=[train_cb, waited])
    assert events == expected
    assert waited.training_ended


def test_waited_callback_without_training_times_out():
    events = []
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(
        lambda x: x, callbacks=Waited(events))
    old = ds.config.get_callback_timeout()
    ds.config.set_callback_timeout(1)
    try:
        with pytest.raises(RuntimeError, match="ds_step_begin timed out after 1 second"):
            list(data.create_tuple_iterator(output_numpy=True))
    finally:
        ds.config.set_callback_timeout(old)
    with pytest.raises(AttributeError, match="without overriding any methods"):
        data.map(lambda x: x, callbacks=ds.WaitedDSCallback())
    assert isinstance(Waited([]), ms.train.Callback)
