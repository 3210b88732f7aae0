"""Write the MindSpore summary files that tests/train/test_summary.py reads, with MindSpore 2.10.

Run with a Python that has the real MindSpore (not hookgrad):

    /tmp/msvenv/bin/python tools/make_mindspore_summaries.py tests/train/fixtures/summary

For each case of ``CASES`` (a script of SummaryRecord calls and summary Primitive calls on the
arrays of ``inputs.npz``) it writes ``<case>.summary``, the file MindSpore's SummaryRecord
writes; ``cases.json`` holds the scripts and the exception type and message MindSpore raises
for each call of ``ERRORS`` (one message lists a set, whose order varies from run to run:
hookgrad gives ``['npy', None]``). The tests run the same scripts on hookgrad and compare the
files' events. ``collector.summary`` is a ``Model.train`` run with ``SummaryCollector`` on the
data and weights of ``collector_inputs.npz``.

``--read FILE...`` parses summary files (hookgrad's) with MindSpore's own ``summary_pb2``:

    /tmp/msvenv/bin/python tools/make_mindspore_summaries.py --read logs/events.out.*
"""
import glob
import json
import os
import shutil
import sys
import tempfile

import numpy as np

rng = np.random.default_rng(1234)
INPUTS = {
    's_f32': np.float32(0.5), 's_f64': np.array([3.25], np.float64), 's_i32': np.int32(7),
    's_f16': np.array([[1.5]], np.float16),
    't_f32': np.arange(6, dtype=np.float32).reshape(2, 3) / 3,
    't_i64': np.array([-2, 5, 9], np.int64), 't_bool': np.array([[True, False]]),
    't_f16': np.array([0.1, 2.5, -3], np.float16), 't_u8': np.array([1, 200], np.uint8),
    'h_mixed': np.array([0.1, 0.2, 0.2, 5.0, -1.0, np.nan, np.inf, -np.inf, np.inf], np.float32),
    'h_same': np.full((3, 2), 2.5, np.float32),
    'h_int': np.array([1, 7, 3, 3, 9, -4, 0, 2, 8, 11, 5, 6], np.int32),
    'h_normal': rng.standard_normal((40, 25)).astype(np.float32),
    'h_large': rng.uniform(-3, 7, 2000).astype(np.float64),
    'h_nan': np.array([np.nan, np.nan], np.float32),
    'h_seven': np.array([3, 1, 4, 1, 5, 9, 2], np.float32),
    'h_f16': rng.standard_normal(30).astype(np.float16),
    'i_unit': rng.random((1, 3, 4, 5)).astype(np.float32),
    'i_gray10': rng.uniform(-2, 3, (10, 1, 3, 2)).astype(np.float32),
    'i_u8': rng.integers(0, 256, (2, 3, 4, 4)).astype(np.uint8),
    'i_const': np.full((1, 1, 2, 3), 5.0, np.float32),
    'i_big': rng.uniform(0, 255, (3, 3, 6, 7)).astype(np.float64),
}
# each step: ['add', plugin, tag, input] | ['op', Primitive, tag, input] | ['record', step]
# | ['record_filter', step, plugin kept] | ['mode', mode]
CASES = {
    'values': [
        ['add', 'scalar', 'loss', 's_f32'], ['add', 'scalar', 'lr', 's_f64'],
        ['add', 'scalar', 'n', 's_i32'], ['add', 'scalar', 'half', 's_f16'],
        ['add', 'tensor', 'w', 't_f32'], ['add', 'tensor', 'ids', 't_i64'],
        ['add', 'tensor', 'mask', 't_bool'], ['add', 'tensor', 'h16', 't_f16'],
        ['add', 'tensor', 'bytes', 't_u8'],
        ['add', 'scalar', 'loss', 's_i32'], ['record', 1],
        ['add', 'histogram', 'mixed', 'h_mixed'], ['add', 'histogram', 'same', 'h_same'],
        ['add', 'histogram', 'int', 'h_int'], ['add', 'histogram', 'normal', 'h_normal'],
        ['add', 'histogram', 'large', 'h_large'], ['add', 'histogram', 'nan', 'h_nan'],
        ['add', 'histogram', 'seven', 'h_seven'], ['add', 'histogram', 'f16', 'h_f16'],
        ['record', 2], ['record', 3],
        ['add', 'image', 'unit', 'i_unit'], ['add', 'image', 'gray10', 'i_gray10'],
        ['add', 'image', 'u8', 'i_u8'], ['add', 'image', 'const', 'i_const'],
        ['add', 'image', 'big', 'i_big'], ['add', 'scalar', 'loss', 's_f64'], ['record', 4],
    ],
    'ops': [
        ['op', 'ScalarSummary', 'loss', 's_f32'], ['op', 'TensorSummary', 'w', 't_f32'],
        ['op', 'HistogramSummary', 'w', 'h_seven'], ['op', 'ImageSummary', 'x', 'i_unit'],
        ['op', 'ScalarSummary', 'loss', 's_f64'], ['add', 'scalar', 'extra', 's_i32'],
        ['record', 5],
        ['mode', 'eval'], ['op', 'ScalarSummary', 'held', 's_f32'],
        ['add', 'scalar', 'eval_only', 's_f32'], ['record', 6],
        ['mode', 'train'], ['record', 7],
        ['add', 'scalar', 'a', 's_f32'], ['add', 'tensor', 'b', 't_f32'],
        ['record_filter', 8, 'tensor'],
    ],
}
ERRORS = [
    "SummaryRecord(123)", "SummaryRecord('   ')", "SummaryRecord(D, file_prefix=1)",
    "SummaryRecord(D, file_suffix='a b')", "SummaryRecord(D, max_file_size='1')",
    "SummaryRecord(D, raise_exception=1)", "SummaryRecord(D, export_options={'x': 'npy'})",
    "SummaryRecord(D, export_options={'tensor_format': 'csv'})",
    "R.add_value('foo', 'a', T(1.0))", "R.add_value('scalar', '', T(1.0))",
    "R.add_value('scalar', 'a', 1.0)", "R.add_value('scalar', 'a', T([1.0, 2.0]))",
    "R.add_value('image', 'a', T(np.zeros((3, 4, 4), np.float32)))",
    "R.add_value('tensor', 'a', T(1.0))", "R.add_value('histogram', 'a', T(1.0))",
    "R.set_mode('test')", "R.record(1.0)", "R.record(1, train_network=1)",
    "SummaryRecord(D)",
    "OP('ScalarSummary', '', T(1.0))", "OP('ScalarSummary', 'a', 1.0)",
    "OP('ScalarSummary', 'a', T([1.0, 2.0]))", "OP('ImageSummary', 'a', T([1.0]))",
    "OP('TensorSummary', 'a', T(1.0))", "OP('HistogramSummary', 'a', T(2.0))",
    "SummaryCollector(D, collect_freq=0)", "SummaryCollector(D, collect_freq='a')",
    "SummaryCollector(D, collect_tensor_freq=-1)", "SummaryCollector(D, max_file_size=0)",
    "SummaryCollector(D, collect_specified_data={'x': 1})",
    "SummaryCollector(D, collect_specified_data={'histogram_regular': '('})",
    "SummaryCollector(D, collect_specified_data={'collect_metric': 1})",
    "SummaryCollector(D, collect_specified_data=[1])",
    "SummaryCollector(D, keep_default_action=1)",
    "SummaryCollector(D, custom_lineage_data={'a': [1]})",
    "SummaryCollector(D, custom_lineage_data={1: 2})",
]


def run_case(ms, steps, inputs, directory):
    """Run ``steps`` on a SummaryRecord writing into ``directory``; the summary file's path."""
    from mindspore import Tensor, ops
    from mindspore.train.summary import SummaryRecord
    with SummaryRecord(directory) as rec:
        for step in steps:
            kind = step[0]
            if kind == 'add':
                rec.add_value(step[1], step[2], Tensor(inputs[step[3]]))
            elif kind == 'op':
                getattr(ops, step[1])()(step[2], Tensor(inputs[step[3]]))
            elif kind == 'record':
                rec.record(step[1])
            elif kind == 'record_filter':
                rec.record(step[1], plugin_filter=lambda p, keep=step[2]: p == keep)
            elif kind == 'mode':
                rec.set_mode(step[1])
    return glob.glob(os.path.join(directory, 'events.out.events.summary.*_MS'))[0]


def run_error(expr, directory):
    """``(type name, message)`` of the exception ``expr`` raises (with an open SummaryRecord R
    for R.* calls and a record after OP calls)."""
    from mindspore import Tensor as T, ops
    from mindspore.train.summary import SummaryRecord
    from mindspore.train import SummaryCollector

    def OP(name, *args):
        getattr(ops, name)()(*args)
        rec.record(1)

    env = {'SummaryRecord': SummaryRecord, 'SummaryCollector': SummaryCollector, 'T': T,
           'np': np, 'D': directory, 'OP': OP}
    rec = env['R'] = SummaryRecord(directory) if expr.startswith(('R.', 'OP', 'SummaryRecord(D)')) \
        else None
    try:
        eval(expr, env)
    except Exception as e:      # noqa: BLE001  (the exception is what is recorded)
        return [type(e).__name__, str(e)]
    finally:
        if rec is not None:
            rec.close()
    return None


def collector_inputs():
    """The data and starting weights of the ``collector`` run (a Dense net on 1x2x3 images)."""
    r = np.random.default_rng(7)
    return {'x': r.random((12, 1, 2, 3)).astype(np.float32),
            'y': r.standard_normal((12, 2)).astype(np.float32),
            'w': (r.standard_normal((2, 6)) * 0.5).astype(np.float32),
            'b': np.array([0.1, -0.2], np.float32)}


def train_with_collector(ms, directory, data):
    """``Model.train`` (2 epochs of 6 steps) with ``SummaryCollector(collect_freq=4)`` and a
    ``ScalarSummary`` inside the network; the summary file's path."""
    from mindspore import nn, ops, Tensor, Parameter
    from mindspore.train import Model, SummaryCollector
    import mindspore.dataset as ds

    class Net(nn.Cell):
        def __init__(self):
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

    net = Net()
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    dataset = ds.NumpySlicesDataset({'x': data['x'], 'y': data['y']}, shuffle=False).batch(2)
    model.train(2, dataset, callbacks=[SummaryCollector(directory, collect_freq=4)],
                dataset_sink_mode=False)
    return glob.glob(os.path.join(directory, 'events.out.events.summary.*_MS'))[0]


def main(out):
    import mindspore as ms
    os.makedirs(out, exist_ok=True)
    np.savez(os.path.join(out, 'inputs.npz'), **INPUTS)
    for name, steps in CASES.items():
        tmp = tempfile.mkdtemp()
        path = run_case(ms, steps, INPUTS, tmp)
        shutil.copyfile(path, os.path.join(out, f'{name}.summary'))
        shutil.rmtree(tmp, ignore_errors=True)
    tmp = tempfile.mkdtemp()
    np.savez(os.path.join(out, 'collector_inputs.npz'), **collector_inputs())
    path = train_with_collector(ms, tmp, collector_inputs())
    shutil.copyfile(path, os.path.join(out, 'collector.summary'))
    shutil.rmtree(tmp, ignore_errors=True)
    errors = {}
    for expr in ERRORS:
        tmp = tempfile.mkdtemp()
        errors[expr] = run_error(expr, tmp)
        shutil.rmtree(tmp, ignore_errors=True)
    with open(os.path.join(out, 'cases.json'), 'w') as f:
        json.dump({'cases': CASES, 'errors': errors}, f, indent=1)


def read(paths):
    """Parse summary files (hookgrad's) with MindSpore's own ``summary_pb2``; print each event."""
    import struct
    from mindspore.train.summary_pb2 import Event
    for path in paths:
        with open(path, 'rb') as f:
            blob = f.read()
        pos = 0
        while pos < len(blob):
            (n,) = struct.unpack('<Q', blob[pos:pos + 8])
            event = Event()
            event.ParseFromString(blob[pos + 12:pos + 12 + n])
            pos += 16 + n
            print(path, event.step, event.WhichOneof('what'),
                  [(v.tag, v.WhichOneof('value')) for v in event.summary.value])


if __name__ == '__main__':
    if sys.argv[1] == '--read':
        read(sys.argv[2:])
    else:
        main(sys.argv[1])
