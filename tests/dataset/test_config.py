"""hookgrad.dataset.config: seeds tied to hookgrad's generator, worker defaults, kept setters."""
import random

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import dataset as ds
from hookgrad.dataset import config


@pytest.fixture(autouse=True)
def restore():
    saved = dict(config._settings)
    yield
    config._settings.clear()
    config._settings.update(saved)


def test_set_seed_seeds_shuffles_random_and_numpy_and_ms_get_seed():
    config.set_seed(1000)
    a = [int(x) for (x,) in ds.NumpySlicesDataset(np.arange(20))]
    r, n = random.random(), np.random.rand()
    config.set_seed(1000)
    assert [int(x) for (x,) in ds.NumpySlicesDataset(np.arange(20))] == a
    assert (random.random(), np.random.rand()) == (r, n)
    assert config.get_seed() == 1000 and ms.get_seed() == 1000
    ms.set_seed(7)                               # as in MindSpore, ms.set_seed sets it too
    assert config.get_seed() == 7


def test_defaults_are_mindspore_values():
    assert config.get_prefetch_size() == 16 and config.get_callback_timeout() == 60
    assert config.get_monitor_sampling_interval() == 1000
    assert config.get_multiprocessing_timeout_interval() == 300
    assert config.get_enable_watchdog() is True and config.get_auto_offload() is False
    assert config.get_iterator_mode() == {'do_copy': False, 'parallel_convert': False}
    assert config.get_multiprocessing_start_method() == 'fork'
    assert config.get_video_backend() == 'CPU'
    assert 1 <= config.get_num_parallel_workers() <= 8


def test_setters_keep_their_values():
    config.set_num_parallel_workers(3)
    config.set_prefetch_size(4)
    config.set_numa_enable(True)
    config.set_callback_timeout(5)
    config.set_enable_autotune(False, 'prefix')
    config.set_iterator_mode(do_copy=True)
    config.set_video_backend('Ascend')
    assert (config.get_num_parallel_workers(), config.get_prefetch_size(),
            config.get_numa_enable(), config.get_callback_timeout(),
            config.get_enable_autotune(), config.get_iterator_mode()['do_copy'],
            config.get_video_backend()) == (3, 4, True, 5, False, True, 'Ascend')


def test_load_applies_json_settings(tmp_path):
    path = tmp_path / 'c.json'
    path.write_text('{"seed": 12, "numParallelWorkers": 5, "opConnectorSize": 9, '
                    '"rowsPerBuffer": 1}')
    config.load(str(path))
    assert (config.get_seed(), config.get_num_parallel_workers(),
            config.get_prefetch_size()) == (12, 5, 9)
    path.write_text('[1]')
    with pytest.raises(RuntimeError, match="must hold a JSON object"):
        config.load(str(path))


@pytest.mark.parametrize('call,err,match', [
    (lambda: config.set_seed(-1), ValueError, r"set_seed: seed must be in \[0, 4294967295\], "
     r"got -1"),
    (lambda: config.set_seed(2 ** 32), ValueError, "got 4294967296"),
    (lambda: config.set_seed(1.5), TypeError, "set_seed: seed must be an int, got 1.5"),
    (lambda: config.set_num_parallel_workers(0), ValueError, "num must be in"),
    (lambda: config.set_num_parallel_workers(True), TypeError, "num must be an int, got True"),
    (lambda: config.set_prefetch_size(0), ValueError, "set_prefetch_size: size must be in"),
    (lambda: config.set_numa_enable(1), TypeError, "numa_enable must be a bool, got 1"),
    (lambda: config.set_multiprocessing_start_method('forkserver'), ValueError,
     r"start_method must be one of \['fork', 'spawn'\]"),
    (lambda: config.set_error_samples_mode(config.ErrorSamplesMode.SKIP), ValueError,
     "is not supported: hookgrad's pipelines raise the first error"),
    (lambda: config.set_debug_mode(True, [object()]), ValueError,
     "debug_hook_list is not supported"),
    (lambda: config.load(3), TypeError, "file must be a str path"),
])
def test_setter_errors(call, err, match):
    with pytest.raises(err, match=match):
        call()
