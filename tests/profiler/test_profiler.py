"""``mindspore.profiler``: MindSpore 2.10's Profiler API and CPU file layout, over hookgrad's
op observer."""
import csv
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.profiler import Profiler, ProfilerAction, schedule, tensorboard_trace_handler

X = ms.Tensor(np.ones((2, 4), np.float32))


def _rows(folder, name):
    with open(os.path.join(folder, 'FRAMEWORK', name)) as f:
        return list(csv.reader(f))


def test_a_recording_writes_mindspores_files(tmp_path):
    net = nn.Dense(4, 3)
    prof = Profiler(output_path=str(tmp_path))
    step = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
    for _ in range(3):
        step(X)
    prof.stop()
    folder = prof.analyse()
    assert os.path.dirname(folder) == str(tmp_path) and folder.endswith('_ascend_ms')
    types = _rows(folder, 'cpu_op_type_info_0.csv')
    assert types[0] == ['op_type', 'type_occurrences', 'execution_frequency(per-step)',
                        'total_compute_time', 'avg_time(ms)', 'percent']   # MindSpore 2.10's
    counts = {r[0]: int(r[1]) for r in types[1:]}
    assert counts['Dense'] == 3 and counts['DenseGrad'] == 3
    assert sum(float(r[5]) for r in types[1:]) == pytest.approx(1.0, abs=1e-5)
    detail = _rows(folder, 'cpu_op_detail_info_0.csv')
    assert detail[0] == ['op_side', 'op_type', 'op_name', 'full_op_name', 'op_occurrences',
                         'op_total_time(ms)', 'op_avg_time(ms)', 'total_proportion',
                         'subgraph', 'pid']
    with open(os.path.join(folder, 'ASCEND_PROFILER_OUTPUT', 'trace_view.json')) as f:
        trace = json.load(f)
    assert trace[0] == {'ph': 'M', 'name': 'process_name', 'pid': os.getpid(), 'tid': 0,
                        'args': {'name': 'CPU OP'}}
    ops = [e['name'] for e in trace if e['ph'] == 'X']
    assert ops.count('Dense') == 3 and ops.count('DenseGrad') == 3
    assert all(float(e['dur']) >= 0 for e in trace if e['ph'] == 'X')


def test_the_schedule_is_mindspores():
    # MindSpore 2.10: schedule(wait=1, active=2, warmup=1, repeat=2, skip_first=1), steps 0-11
    s = schedule(wait=1, active=2, warmup=1, repeat=2, skip_first=1)
    want = ['NONE', 'NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE', 'NONE', 'WARM_UP', 'RECORD',
            'RECORD_AND_SAVE', 'NONE', 'NONE', 'NONE']
    assert [s(i).name for i in range(12)] == want
    with pytest.raises(ValueError, match="active must be at least 1"):
        schedule(wait=0, active=0)
    with pytest.raises(ValueError, match="wait must be an int >= 0"):
        schedule(wait=-1, active=1)
    assert ProfilerAction.RECORD.value == 2


def test_steps_record_only_in_the_schedules_windows(tmp_path):
    net = nn.Dense(4, 3)
    saved = []
    prof = Profiler(schedule=schedule(wait=1, active=2), on_trace_ready=saved.append)
    calls = []
    for _ in range(6):
        net(X)
        calls.append(sum(r.calls['forward'] for r in prof._events.by_op().rows))
        prof.step()
    prof.stop()
    assert calls == [0, 1, 2, 0, 1, 2] and saved == [prof, prof]
    handler = tensorboard_trace_handler(str(tmp_path / 'tb'), worker_name='w0')
    with Profiler(schedule=schedule(wait=0, active=1), on_trace_ready=handler) as prof:
        net(X)
        prof.step()
    (folder,) = os.listdir(tmp_path / 'tb')
    assert folder.startswith('w0_') and folder.endswith('_ascend_ms')


def test_arguments_metadata_and_what_hookgrad_has_not(tmp_path):
    with pytest.raises(TypeError, match=r"unexpected keyword arguments \['frequency'\]"):
        Profiler(frequency=2)
    with pytest.raises(TypeError, match="with_stack must be a bool, got int"):
        Profiler(with_stack=1)
    prof = Profiler(output_path=str(tmp_path), start_profile=False, aic_metrics=None)
    prof.add_metadata('run', 'a')
    prof.add_metadata_json('cfg', '{"lr": 0.1}')
    folder = prof.analyse()
    with open(os.path.join(folder, 'profiler_metadata.json')) as f:
        assert json.load(f) == {'run': 'a', 'cfg': {'lr': 0.1}}
    with pytest.raises(RuntimeError, match="Ascend kernel details"):
        prof.op_analyse('MatMul')
    assert isinstance(ms.profiler.profile(start_profile=False), Profiler)
    with pytest.raises(AttributeError, match="module 'mindspore.profiler' has no attribute "
                                             "'NoSuchProfiler' \\(nor has MindSpore 2.10\\)"):
        ms.profiler.NoSuchProfiler
