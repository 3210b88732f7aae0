"""``mindspore.hal`` and ``mindspore.device_context``: which devices exist and what they are.
The CPU values are MindSpore 2.10's on the CPU; the GPU is the CUDA stand-in here."""
import pytest

import hookgrad as ms
from hookgrad.kernels import backend

GPU = backend.gpu()


def test_the_cpu_as_mindspore_reports_it():
    hal = ms.hal
    assert hal.is_available('CPU') is True and hal.device_count('CPU') == 1
    assert hal.is_initialized('CPU') is False
    assert hal.get_device_name(0, 'CPU') == 'CPU'
    assert hal.get_device_properties(0, 'CPU') is None
    assert hal.get_device_capability(0, 'CPU') is None and hal.get_arch_list('CPU') is None
    with backend.default_device(backend.CPU):
        assert hal.device_count() == 1
    assert ms.device_context.cpu.device_count() == 1 and ms.device_context.cpu.is_available()


def test_the_gpu():
    hal = ms.hal
    assert hal.is_available('GPU') and hal.is_initialized('GPU')
    assert hal.device_count('GPU') == 1 and ms.device_context.gpu.device_count() == 1
    assert ms.device_context.gpu.is_available()
    props = hal.get_device_properties(0, 'GPU')
    expected = GPU.xp.cuda.runtime.getDeviceProperties(0)
    assert (props.major, props.minor) == (expected['major'], expected['minor'])
    assert props.total_memory == expected['totalGlobalMem']
    assert repr(props).startswith("_GpuDeviceProperties(name='")
    assert hal.get_device_capability(0, 'GPU') == (props.major, props.minor)
    assert hal.get_arch_list('GPU') == [f"sm_{props.major}{props.minor}"]
    assert hal.get_device_name(0, 'GPU') == props.name
    with backend.default_device(GPU):
        assert hal.device_count() == 1
    with pytest.raises(RuntimeError, match="GPU 1: .*invalid device ordinal"):
        hal.get_device_properties(1, 'GPU')


def test_ascend_and_unknown_targets():
    assert ms.hal.is_available('Ascend') is False
    with pytest.raises(ValueError, match="hookgrad has no Ascend backend"):
        ms.hal.device_count('Ascend')
    with pytest.raises(ValueError, match="device_target must be one of CPU, GPU, Ascend, got "
                                         "'TPU'"):
        ms.hal.is_available('TPU')
    assert ms.device_context.ascend.is_available() is False
    with pytest.raises(RuntimeError, match="Device_target Ascend not exist"):
        ms.device_context.ascend.device_count()


def test_names_mindspore_has_and_hookgrad_lacks_say_so():
    with pytest.raises(AttributeError, match="module 'mindspore.runtime' has no attribute "
                                             "'nope' \\(nor has MindSpore 2.10\\)"):
        ms.runtime.nope
    with pytest.raises(AttributeError, match="module 'mindspore.hal' has no attribute 'nope' "
                                             "\\(nor has MindSpore 2.10\\)"):
        ms.hal.nope


def test_the_mindspore_paths_import(monkeypatch):
    import importlib
    from hookgrad.compat import alias_mindspore
    alias_mindspore()
    for path in ('mindspore.runtime', 'mindspore.hal', 'mindspore.device_context',
                 'mindspore.device_context.gpu.op_precision'):
        assert importlib.import_module(path) is importlib.import_module(
            'hookgrad' + path[len('mindspore'):])
