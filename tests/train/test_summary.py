"""SummaryRecord, SummaryCollector and the summary Primitives against the files MindSpore 2.10
writes for the same calls (tests/train/fixtures/summary, written by
tools/make_mindspore_summaries.py with MindSpore itself)."""
import glob
import json
import os
import platform
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import Tensor, Parameter, nn, ops
from hookgrad.train import Model, SummaryCollector
from hookgrad.train.summary import SummaryRecord
from hookgrad.train.summary._format import read_events, image_pixels, histogram_bins
import hookgrad.dataset as ds

FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures', 'summary')
with open(os.path.join(FIXTURES, 'cases.json')) as _f:
    SPEC = json.load(_f)
INPUTS = dict(np.load(os.path.join(FIXTURES, 'inputs.npz')))


def summary_file(directory):
    (path,) = glob.glob(os.path.join(str(directory), 'events.out.events.summary.*_MS'))
    return path


def run_case(steps, directory):
    with SummaryRecord(str(directory)) as rec:
        for step in steps:
            kind = step[0]
            if kind == 'add':
                rec.add_value(step[1], step[2], Tensor(INPUTS[step[3]]))
            elif kind == 'op':
                getattr(ops, step[1])()(step[2], Tensor(INPUTS[step[3]]))
            elif kind == 'record':
                rec.record(step[1])
            elif kind == 'record_filter':
                rec.record(step[1], plugin_filter=lambda p, keep=step[2]: p == keep)
            elif kind == 'mode':
                rec.set_mode(step[1])
    return summary_file(directory)


def without_time(events):
    out = []
    for e in events:
        e.wall_time = 0
        out.append(e.SerializeToString())
    return out


@pytest.mark.parametrize('case', sorted(SPEC['cases']))
def test_records_are_mindsporess_bytes(case, tmp_path):
    """Every event (version, scalars, tensors, histogram buckets, PNG images, tags, steps, the
    order of values) serializes to the bytes MindSpore wrote; only wall_time differs."""
    mine = read_events(run_case(SPEC['cases'][case], tmp_path))
    ref = read_events(os.path.join(FIXTURES, f'{case}.summary'))
    assert mine[0].version == ref[0].version == 'MindSpore.Event:1'
    assert [e.step for e in mine] == [e.step for e in ref]
    assert without_time(mine) == without_time(ref)


def test_values_case_content(tmp_path):
    events = read_events(run_case(SPEC['cases']['values'], tmp_path))
    first = events[1].summary.value
    # both values of a duplicated tag are written, as MindSpore writes them
    assert [v.tag for v in first][:5] == ['loss', 'lr', 'n', 'half', 'loss']
    hist = {v.tag: v.histogram for v in events[2].summary.value}
    mixed = hist['mixed']
    assert (mixed.nan_count, mixed.pos_inf_count, mixed.neg_inf_count, mixed.count) == \
        (1, 2, 1, 9)
    assert sum(b.count for b in mixed.buckets) == 5 and len(mixed.buckets) == 2
    assert len(hist['large'].buckets) == 90 and len(hist['normal'].buckets) == 90
    assert hist['nan'].nan_count == 2 and not hist['nan'].buckets
    # no event for the record that had nothing (step 3)
    assert [e.step for e in events] == [0, 1, 2, 4]


def test_histogram_bins_and_image_pixels():
    assert [histogram_bins(n) for n in (0, 1, 5, 6, 10, 11, 880, 881)] == \
        [1, 2, 2, 3, 3, 2, 89, 90]
    px = image_pixels(np.full((1, 1, 2, 2), 0.5, np.float32))
    assert px.shape == (2, 2, 3) and (px == 127).all()
    assert image_pixels(np.zeros((1, 2, 2, 2), np.float32)) is None
    grid = image_pixels(np.ones((10, 3, 2, 3), np.float32))     # 8 a row: 2 rows
    assert grid.shape == (4, 24, 3) and grid[2:, 6:].max() == 0 and grid[2:, :6].min() == 255


def test_file_name_mode_and_log_dir(tmp_path):
    with SummaryRecord(str(tmp_path), file_prefix='run', file_suffix='_x') as rec:
        rec.add_value('scalar', 'a', Tensor(1.0))
        rec.record(1)
        rec.flush()
        path = rec.log_dir
        assert oct(os.stat(path).st_mode & 0o777) == '0o600'
    name = os.path.basename(path)
    assert re.fullmatch(rf'run\.out\.events\.summary\.\d+\.0\.{re.escape(platform.node())}_x',
                        name), name
    assert os.path.dirname(path) == os.path.realpath(str(tmp_path))
    assert oct(os.stat(path).st_mode & 0o777) == '0o400'


def test_nothing_recorded_leaves_no_file(tmp_path):
    with SummaryRecord(str(tmp_path)) as rec:
        rec.record(1)
    assert os.listdir(str(tmp_path)) == []
    assert rec.record(2) is False


def test_max_file_size_drops_what_does_not_fit(tmp_path, caplog):
    with SummaryRecord(str(tmp_path), max_file_size=120) as rec:
        for step in range(1, 6):
            rec.add_value('scalar', 'loss', Tensor(float(step)))
            rec.record(step)
    events = read_events(summary_file(tmp_path))
    assert os.path.getsize(summary_file(tmp_path)) <= 120
    # 28 + 16 for the version, then 37 + 16 per scalar event: one fits
    assert [e.step for e in events] == [0, 1]


def test_one_instance_at_a_time(tmp_path):
    rec = SummaryRecord(str(tmp_path))
    with pytest.raises(RuntimeError, match="only one instance is supported in a training "
                       "process, you are trying to create a new one when the existing instance "
                       "number is 1"):
        SummaryRecord(str(tmp_path))
    rec.close()
    rec.close()
    SummaryRecord(str(tmp_path)).close()
    with pytest.raises(ValueError, match="SummaryRecord has been closed"):
        rec.__enter__()


def test_plugins_hookgrad_does_not_build(tmp_path):
    with SummaryRecord(str(tmp_path)) as rec:
        for plugin in ('graph', 'train_lineage', 'eval_lineage', 'dataset_graph',
                       'custom_lineage_data', 'LANDSCAPE'):
            with pytest.raises(NotImplementedError, match=f"the '{plugin}' plugin takes "
                               "MindSpore's"):
                rec.add_value(plugin, 'x', None)


def test_export_npy(tmp_path):
    with SummaryRecord(str(tmp_path), export_options={'tensor_format': 'npy'}) as rec:
        rec.add_value('tensor', 'a/b', Tensor(INPUTS['t_f32']))
        rec.add_value('scalar', 's', Tensor(1.0))
        rec.record(3)
    (path,) = glob.glob(os.path.join(str(tmp_path), 'export_*', 'tensor', '*.npy'))
    assert os.path.basename(path) == 'a%2Fb_3.npy'
    np.testing.assert_array_equal(np.load(path), INPUTS['t_f32'])


def test_summary_ops_under_jit(tmp_path):
    scalar, hist = ops.ScalarSummary(), ops.HistogramSummary()

    @ms.jit
    def f(x):
        y = x * 2
        scalar('y0', y[0])
        hist('y', y)
        return y + 1

    with SummaryRecord(str(tmp_path)) as rec:
        for i in range(3):
            assert f(Tensor(np.array([i, 1.0, 2.0], np.float32))) is not None
            rec.record(i)
    events = read_events(summary_file(tmp_path))[1:]
    assert [[v.tag for v in e.summary.value] for e in events] == [['y0', 'y']] * 3
    assert [e.summary.value[0].scalar_value for e in events] == [0.0, 2.0, 4.0]
    assert [e.summary.value[1].histogram.sum for e in events] == [6.0, 8.0, 10.0]


def test_summary_primitive_returns_none():
    op = ops.TensorSummary()
    assert op.channel_name == 'ms_tensor_summary' and op.side_effect_io is True
    from hookgrad.ops.operations import _summary
    assert op('t', Tensor([1.0])) is None
    assert _summary.take_cache()[-1][:2] == ('TensorSummary', 't')


def test_a_loop_without_a_summary_record_keeps_the_last_value_of_each_name(tmp_path):
    from hookgrad.ops.operations import _summary
    _summary.take_cache()
    w = Parameter(Tensor([2.0]), name='w')
    scalar, tensor = ops.ScalarSummary(), ops.TensorSummary()
    for i in range(50):
        loss = (w * i).sum()
        scalar('loss', loss)
        tensor('w', w * 1)
    cached = _summary.take_cache()
    assert [(op, name) for op, name, _ in cached] == [('ScalarSummary', 'loss'),
                                                      ('TensorSummary', 'w')]
    assert float(cached[0][2]) == 98.0 and cached[0][2]._node is None    # no graph kept
    with SummaryRecord(str(tmp_path)) as rec:       # while one is open, every call is kept
        for i in range(3):
            scalar('loss', Tensor(np.float32(i)))
        assert len(_summary.SUMMARY_TENSOR_CACHE) == 3
        rec.record(1)


# ----------------------------------------------------------------- errors
def run_error(expr, directory):
    def OP(name, *args):
        getattr(ops, name)()(*args)
        rec.record(1)

    env = {'SummaryRecord': SummaryRecord, 'SummaryCollector': SummaryCollector, 'T': Tensor,
           'np': np, 'D': directory, 'OP': OP}
    rec = env['R'] = SummaryRecord(directory) if expr.startswith(
        ('R.', 'OP', 'SummaryRecord(D)')) else None
    try:
        eval(expr, env)
    except Exception as e:      # noqa: BLE001
        return [type(e).__name__, str(e)]
    finally:
        if rec is not None:
            rec.close()
    return None


@pytest.mark.parametrize('expr', sorted(SPEC['errors']))
def test_errors_are_mindsporess(expr, tmp_path):
    expected = SPEC['errors'][expr]
    assert expected is not None
    assert run_error(expr, str(tmp_path)) == expected


# ----------------------------------------------------------------- SummaryCollector
class CollectorNet(nn.Cell):
    def __init__(self, data):
        super().__init__()
        self.flat = nn.Flatten()
        self.fc = nn.Dense(6, 2)
        self.fc.weight = Parameter(Tensor(data['w']), name='fc.weight')
        self.fc.bias = Parameter(Tensor(data['b']), name='fc.bias')
        self.summary = ops.ScalarSummary()

    def construct(self, x):
        out = self.fc(self.flat(x))
        self.summary('out_mean', out.mean())
        return out


def train(directory, **kwargs):
    data = dict(np.load(os.path.join(FIXTURES, 'collector_inputs.npz')))
    net = CollectorNet(data)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    dataset = ds.NumpySlicesDataset({'x': data['x'], 'y': data['y']}, shuffle=False).batch(2)
    model.train(2, dataset, callbacks=[SummaryCollector(str(directory), **kwargs)],
                dataset_sink_mode=False)
    return read_events(summary_file(directory))


def test_collector_training_matches_mindspore(tmp_path):
    """Model.train with SummaryCollector: the same events (steps, tags, order) as MindSpore's
    run; the same images and histogram buckets; losses to float32 rounding."""
    mine = train(tmp_path, collect_freq=4)
    ref = read_events(os.path.join(FIXTURES, 'collector.summary'))
    assert [e.step for e in mine] == [e.step for e in ref] == [0, 1, 1, 4, 8, 12, 12]
    for a, b in zip(mine[1:], ref[1:]):
        assert [v.tag for v in a.summary.value] == [v.tag for v in b.summary.value]
        for va, vb in zip(a.summary.value, b.summary.value):
            kind = va.WhichOneof('value')
            if kind == 'scalar_value':
                assert va.scalar_value == pytest.approx(vb.scalar_value, rel=1e-5, abs=1e-6)
            elif kind == 'image':
                assert va.image == vb.image
            else:
                assert [x.count for x in va.histogram.buckets] == \
                    [x.count for x in vb.histogram.buckets]
                assert va.histogram.sum == pytest.approx(vb.histogram.sum, rel=1e-5, abs=1e-6)
    assert [v.tag for v in mine[2].summary.value] == \
        ['input_data/auto', 'loss/auto', 'fc.weight/auto', 'fc.bias/auto']


def test_collector_options(tmp_path):
    events = train(tmp_path, collect_freq=100, keep_default_action=False,
                   collect_specified_data={'histogram_regular': r'fc\.bias'})
    assert [[v.tag for v in e.summary.value] for e in events[1:]] == \
        [['out_mean'], ['fc.bias/auto']]


def test_collector_non_image_input_is_skipped(tmp_path, caplog):
    from hookgrad.ops.operations import _summary
    _summary.take_cache()       # values other tests' networks left (MindSpore keeps them too)
    data = np.arange(8, dtype=np.float32).reshape(4, 2)
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    dataset = ds.NumpySlicesDataset({'x': data, 'y': data[:, :1]}, shuffle=False).batch(2)
    model.train(1, dataset, callbacks=[SummaryCollector(str(tmp_path), collect_freq=1)],
                dataset_sink_mode=False)
    events = read_events(summary_file(tmp_path))
    # step 2 twice: the step's and the epoch end's (MindSpore's schedule)
    assert [(e.step, [v.tag for v in e.summary.value]) for e in events[1:]] == \
        [(s, ['loss/auto', 'weight/auto', 'bias/auto']) for s in (1, 2, 2)]
    assert 'The input data of network are not image' in caplog.text
