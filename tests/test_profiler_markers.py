"""mindspore.profiler's mstx markers, _ExperimentalConfig, DynamicProfilerMonitor and
EnvProfiler over hookgrad's profiler trace."""
import glob
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.profiler import (mstx, profile, Profiler, _ExperimentalConfig, ProfilerLevel,
                               AicoreMetrics, DynamicProfilerMonitor, EnvProfiler)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def trace_of(folder):
    with open(os.path.join(folder, 'ASCEND_PROFILER_OUTPUT', 'trace_view.json')) as f:
        return json.load(f)


def mstx_events(trace):
    return [(e['ph'], e['name'], e['args']['domain']) for e in trace if e.get('cat') == 'mstx']


def test_marks_and_ranges_appear_in_the_trace(tmp_path):
    prof = Profiler(output_path=str(tmp_path), mstx=True)
    mstx.mark('begin')
    range_id = mstx.range_start('multiply', domain='net')
    ms.Tensor(np.ones(3, np.float32)) * 2
    mstx.range_end(range_id, domain='net')
    prof.stop()
    trace = trace_of(prof.analyse())
    assert range_id >= 1
    assert mstx_events(trace) == [('i', 'begin', 'default'), ('X', 'multiply', 'net')]
    mul = next(e for e in trace if e['name'] == 'Mul')
    span = next(e for e in trace if e['name'] == 'multiply')
    assert float(span['ts']) <= float(mul['ts'])
    assert float(span['ts']) + float(span['dur']) >= float(mul['ts']) + float(mul['dur'])


def test_nothing_is_recorded_without_mstx_or_profiler(tmp_path):
    assert mstx.range_start('idle') == 0        # no profiler running: MindSpore returns 0
    prof = Profiler(output_path=str(tmp_path))  # mstx=False
    mstx.mark('ignored')
    assert mstx.range_start('ignored') == 0
    prof.stop()
    assert mstx_events(trace_of(prof.analyse())) == []


def test_domains_filter_markers(tmp_path):
    config = _ExperimentalConfig(mstx=True, mstx_domain_include=['keep'])
    prof = profile(experimental_config=config)
    prof.output_path = str(tmp_path)
    mstx.mark('kept', domain='keep')
    mstx.mark('dropped')
    prof.stop()
    assert mstx_events(trace_of(prof.analyse())) == [('i', 'kept', 'keep')]
    excluding = Profiler(output_path=str(tmp_path), mstx=True, mstx_domain_exclude=['noisy'])
    mstx.mark('dropped', domain='noisy')
    mstx.mark('kept')
    excluding.stop()
    assert mstx_events(trace_of(excluding.analyse())) == [('i', 'kept', 'default')]


def test_invalid_marker_arguments_warn_and_record_nothing(tmp_path):
    prof = Profiler(output_path=str(tmp_path), mstx=True)
    with pytest.warns(UserWarning, match="Invalid message for mstx.mark func"):
        mstx.mark('')
    with pytest.warns(UserWarning, match="Invalid domain name for mstx.range_start func"):
        assert mstx.range_start('m', domain='') == 0
    with pytest.warns(UserWarning, match="Invalid stream for mstx.mark func. Expected "
                                         "mindspore.runtime.Stream"):
        mstx.mark('m', stream=3)
    with pytest.warns(UserWarning, match="Invalid range_id for mstx.range_end func"):
        mstx.range_end(-1)
    mstx.mark('on a stream', stream=ms.runtime.current_stream())
    prof.stop()
    assert mstx_events(trace_of(prof.analyse())) == [('i', 'on a stream', 'default')]


def test_experimental_config_options():
    config = _ExperimentalConfig()
    assert config.profiler_level is ProfilerLevel.Level0
    assert config.aic_metrics is AicoreMetrics.AiCoreNone
    assert (config.mstx, config.l2_cache, config.data_simplification) == (False, False, True)
    assert config.export_type is None and config.host_sys is None
    config.mstx = True
    config.profiler_level = ProfilerLevel.Level1
    prof = profile(experimental_config=config, start_profile=False)
    assert prof.mstx is True and prof.profiler_level is ProfilerLevel.Level1
    with pytest.raises(TypeError, match="experimental_config must be an _ExperimentalConfig"):
        profile(experimental_config={'mstx': True}, start_profile=False)


def run_steps(monitor, count):
    ops = [lambda t: t * 2, lambda t: t + 1, lambda t: t - 1, lambda t: t / 2, lambda t: -t,
           lambda t: abs(t)]
    x = ms.Tensor(np.ones(2, np.float32))
    for i in range(count):
        ops[i](x)
        monitor.step()


def test_dynamic_monitor_profiles_the_steps_the_file_names(tmp_path):
    cfg = tmp_path / 'cfg'
    cfg.mkdir()
    (cfg / 'profiler_config.json').write_text(json.dumps({'start_step': 2, 'stop_step': 3}))
    monitor = DynamicProfilerMonitor(cfg_path=str(cfg), output_path=str(tmp_path / 'out'))
    run_steps(monitor, 6)
    folders = glob.glob(str(tmp_path / 'out' / 'rank0_start2_stop3' / '*_ascend_ms'))
    assert len(folders) == 1
    kernels = [e['name'] for e in trace_of(folders[0]) if e['ph'] == 'X']
    assert kernels == ['Sub', 'Div']    # the two steps after step 2 ends, as MindSpore counts


def test_dynamic_monitor_writes_the_default_file(tmp_path):
    monitor = DynamicProfilerMonitor(cfg_path=str(tmp_path / 'cfg'))
    with open(tmp_path / 'cfg' / 'profiler_config.json') as f:
        written = json.load(f)
    assert written['start_step'] == -1 and written['stop_step'] == -1
    assert written['activities'] == ['CPU', 'NPU'] and written['prof_path'] == './'
    run_steps(monitor, 2)
    assert monitor._profiler is None
    with pytest.raises(TypeError, match="The cfg_path must be a string."):
        DynamicProfilerMonitor(cfg_path=3)
    with pytest.warns(UserWarning, match="Poll interval must be greater than 1, reset to 2."):
        DynamicProfilerMonitor(cfg_path=str(tmp_path / 'cfg'), poll_interval=0)


def test_dynamic_monitor_bad_json_warns(tmp_path):
    (tmp_path / 'profiler_config.json').write_text('{not json')
    monitor = DynamicProfilerMonitor(cfg_path=str(tmp_path))
    with pytest.warns(UserWarning) as caught:
        monitor.step()
    messages = [str(w.message) for w in caught]
    assert messages[0].startswith("Dynamic profiler process load json failed")
    assert messages[1] == ("Dynamic profiler config is not valid, please check the json or dyno "
                           "config.")
    assert monitor._profiler is None


def test_env_profiler_profiles_the_run(tmp_path):
    out = tmp_path / 'env'
    options = json.dumps({'start': True, 'output_path': str(out), 'mstx': True,
                          'profiler_level': 'Level9'})
    code = ("import numpy as np, hookgrad as ms\n"
            "from hookgrad.profiler import EnvProfiler, mstx\n"
            "assert EnvProfiler.profiler is not None\n"
            "mstx.mark('from env')\n"
            "ms.Tensor(np.ones(2, np.float32)) * 3\n")
    run = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=dict(os.environ, MS_PROFILER_OPTIONS=options, PYTHONPATH=ROOT))
    assert run.returncode == 0, run.stderr
    assert "The value 'Level9' of parameter 'ProfilerLevel' is invalid" in run.stderr
    folders = glob.glob(str(out / '*_ascend_ms'))
    assert len(folders) == 1
    trace = trace_of(folders[0])
    assert 'Mul' in [e['name'] for e in trace] and mstx_events(trace) == [
        ('i', 'from env', 'default')]


def test_env_profiler_without_the_variable():
    assert EnvProfiler.profiler is None
    EnvProfiler().analyse()     # nothing to stop


def test_dynamic_monitor_as_a_model_callback(tmp_path):
    from hookgrad import dataset as ds, nn
    (tmp_path / 'profiler_config.json').write_text(json.dumps({'start_step': 1,
                                                               'stop_step': 2}))
    monitor = DynamicProfilerMonitor(cfg_path=str(tmp_path), output_path=str(tmp_path / 'out'))
    net = nn.Dense(2, 1)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    data = ds.NumpySlicesDataset({'x': np.ones((8, 2), np.float32),
                                  'y': np.ones((8, 1), np.float32)}, shuffle=False).batch(2)
    model.train(1, data, callbacks=[monitor])
    folders = glob.glob(str(tmp_path / 'out' / 'rank0_start1_stop2' / '*_ascend_ms'))
    assert len(folders) == 1
    kernels = [e['name'] for e in trace_of(folders[0]) if e['ph'] == 'X']
    assert kernels.count('Dense') == 2 and kernels.count('DenseGrad') == 2    # steps 2 and 3
