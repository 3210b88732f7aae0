"""``mindspore.context``: the settings MindSpore 2.10 accepts, its defaults and its errors
(values checked against MindSpore 2.10 on CPU)."""
import pytest

import hookgrad as ms
from hookgrad import context


@pytest.fixture(autouse=True)
def restore():
    saved = dict(context._context)
    yield
    context._context.clear()
    context._context.update(saved)
    context.reset_auto_parallel_context()
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_defaults_are_mindspores():
    assert (ms.get_context('mode'), ms.get_context('device_target'), ms.get_context('device_id'),
            ms.get_context('save_graphs'), ms.get_context('save_graphs_path'),
            ms.get_context('max_call_depth'), ms.get_context('deterministic'),
            ms.get_context('jit_syntax_level'), ms.get_context('pynative_synchronize')) == \
        (ms.PYNATIVE_MODE, 'CPU', 0, 0, '.', 1000, 'OFF', ms.LAX, False)
    assert (ms.STRICT, ms.COMPATIBLE, ms.LAX, context.RELEASE, context.DEBUG) == (0, 1, 2, 0, 1)


def test_settings_with_no_meaning_here_are_kept():
    ms.set_context(device_id=1, save_graphs=True, max_call_depth=2000,
                   jit_config={'jit_level': 'O0'}, runtime_num_threads=4, enable_compile_cache=True)
    assert (ms.get_context('device_id'), ms.get_context('save_graphs'),
            ms.get_context('max_call_depth')) == (1, 2, 2000)
    assert context.get_jit_config() == {'jit_level': 'O0'}


def test_unknown_settings_are_errors_as_in_mindspore():
    with pytest.raises(ValueError, match=r"For 'context.set_context', the keyword argument foo "
                                         r"is not recognized!"):
        ms.set_context(foo=1)
    with pytest.raises(ValueError, match=r"For 'context.get_context', the argument foo is not "
                                         r"recognized!"):
        ms.get_context('foo')
    with pytest.raises(ValueError, match="save_graphs should be 0-3 but got '7'"):
        ms.set_context(save_graphs=7)
    with pytest.raises(ValueError, match="device_target must be one of"):
        ms.set_context(device_target='TPU')


def test_auto_parallel_context():
    assert context.ParallelMode.DATA_PARALLEL == 'data_parallel'
    assert ms.get_auto_parallel_context('parallel_mode') == 'stand_alone'
    assert (ms.get_auto_parallel_context('device_num'), ms.get_auto_parallel_context('global_rank'),
            ms.get_auto_parallel_context('gradients_mean')) == (1, 0, False)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    assert ms.get_auto_parallel_context('parallel_mode') == 'data_parallel'
    assert ms.get_auto_parallel_context('gradients_mean') is True
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context('parallel_mode') == 'stand_alone'
    with pytest.raises(ValueError, match="'parallel_mode' must be in"):
        ms.set_auto_parallel_context(parallel_mode='everything')
    with pytest.raises(ValueError, match="keyword argument bogus is not recognized"):
        ms.set_auto_parallel_context(bogus=1)


def test_parameter_server_context():
    assert ms.get_ps_context('enable_ps') is False
    ms.set_ps_context(config_file_path='/tmp/x')
    assert ms.get_ps_context('config_file_path') == '/tmp/x'
    ms.reset_ps_context()
    with pytest.raises(ValueError, match="enable_ps=True is not available in hookgrad"):
        ms.set_ps_context(enable_ps=True)


def test_graph_mode_switches_cells():
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.nn.Cell.__call__ is ms.nn.Cell._graph_call
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert ms.nn.Cell.__call__ is ms.nn.Cell._eager_call
