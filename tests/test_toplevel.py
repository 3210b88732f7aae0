"""Top-level helpers: tensor, from_numpy, is_tensor, the generator functions, run_check and
the device functions (behaviour and messages checked against MindSpore 2.10)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _random
from hookgrad import _toplevel
from hookgrad.context import get_context, set_context


@pytest.fixture(autouse=True)
def keep_global_state():
    saved = _random._seed, _random._generator, _toplevel._device_set
    target, device_id = get_context('device_target'), get_context('device_id')
    yield
    _random._seed, _random._generator, _toplevel._device_set = saved
    set_context(device_target=target, device_id=device_id)


def test_tensor_function():
    assert repr(ms.tensor([1, 2])) == 'Tensor(shape=[2], dtype=Int64, value= [1, 2])'
    assert repr(ms.tensor(1.5)) == 'Tensor(shape=[], dtype=Float32, value= 1.5)'
    t = ms.tensor([1, 2], ms.float32, device='CPU')
    assert t.dtype == ms.float32 and t.tolist() == [1.0, 2.0]
    assert ms.tensor(shape=(2, 3), dtype=ms.float32, init='ones').tolist() == [[1.0] * 3] * 2
    for device in ('Ascend', 'cpu', 'meta', 3):
        with pytest.raises(ValueError, match=r"tensor: device must be None or 'CPU' \(hookgrad "
                                             r"keeps tensors in host memory and has no "
                                             r"data-less 'meta' tensors\), got"):
            ms.tensor([1, 2], device=device)
    with pytest.raises(TypeError, match="input_data is required"):
        ms.tensor()


def test_from_numpy_shares_memory():
    a = np.array([1.0, 2.0])
    t = ms.from_numpy(a)
    a[0] = 9.0
    assert t.tolist() == [9.0, 2.0] and t.dtype == ms.float64
    b = np.array([[1, 2], [3, 4]]).T                # not C-contiguous: copied
    u = ms.from_numpy(b)
    assert u.tolist() == [[1, 3], [2, 4]] and u.asnumpy().flags.c_contiguous
    assert ms.from_numpy(np.array([1, 2], np.uint32)).dtype == ms.uint32
    with pytest.raises(TypeError, match="from_numpy: expected a NumPy array, got list"):
        ms.from_numpy([1, 2])
    with pytest.raises(TypeError, match="from_numpy: expected a NumPy array, got float32"):
        ms.from_numpy(np.float32(3))
    with pytest.raises(TypeError, match="dtype <U1 is not supported"):
        ms.from_numpy(np.array(['a']))


def test_is_tensor():
    assert ms.is_tensor(ms.Tensor([1.0])) and ms.is_tensor(ms.Parameter(ms.Tensor(1.0)))
    assert not ms.is_tensor(np.ones(2)) and not ms.is_tensor(1)


def test_manual_seed_and_initial_seed():
    assert ms.manual_seed(13) == 13
    assert ms.initial_seed() == 13 and ms.get_seed() == 13
    a = _random.generator().random(3)
    ms.manual_seed(13)
    np.testing.assert_array_equal(_random.generator().random(3), a)
    with pytest.raises(TypeError, match="manual_seed: seed must be an int >= 0, got 1.5"):
        ms.manual_seed(1.5)
    with pytest.raises(ValueError, match="manual_seed: seed must be an int >= 0, got -1"):
        ms.manual_seed(-1)


def test_seed_draws_a_new_seed():
    s = ms.seed()
    assert isinstance(s, int) and 0 <= s < 2 ** 32 and ms.initial_seed() == s
    a = _random.generator().random(3)
    ms.manual_seed(s)
    np.testing.assert_array_equal(_random.generator().random(3), a)


def test_initial_seed_of_an_unseeded_generator_is_none():
    _random._seed = None
    assert ms.initial_seed() is None


def test_rng_state_round_trip():
    ms.set_seed(3)
    state = ms.get_rng_state()
    assert state.dtype == ms.uint8 and state.shape == (37,)
    first = [_random.generator().random(4), ms.ops.dropout(ms.ops.ones((20,)), p=0.5).asnumpy()]
    ms.set_rng_state(state)
    again = [_random.generator().random(4), ms.ops.dropout(ms.ops.ones((20,)), p=0.5).asnumpy()]
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)


def test_set_rng_state_errors():
    with pytest.raises(RuntimeError, match="set_rng_state: state must be a Tensor from "
                                           "get_rng_state, got int"):
        ms.set_rng_state(3)
    with pytest.raises(RuntimeError, match="set_rng_state: state data type must be UInt8, but "
                                           "got Int64"):
        ms.set_rng_state(ms.Tensor([1, 2]))
    with pytest.raises(RuntimeError, match=r"set_rng_state: state must have shape \(37,\), as "
                                           r"get_rng_state gives it, got \(2,\)"):
        ms.set_rng_state(ms.Tensor(np.array([1, 2], np.uint8)))


def test_run_check(capsys):
    ms.run_check()
    assert capsys.readouterr().out == (
        "hookgrad version:  0.1.0\nThe result of multiplication calculation is correct, "
        "hookgrad has been installed on platform [CPU] successfully!\n")


def test_run_check_reports_a_failure(capsys, monkeypatch):
    monkeypatch.setattr(ms.Tensor, '__mul__', lambda self, other: ms.Tensor([0.0, 0.0, 0.0]))
    ms.run_check()
    out = capsys.readouterr().out.split('\n')
    assert out[1] == 'hookgrad running check failed.'
    assert out[2].startswith('the product of [1. 2. 3.] and [4. 5. 6.] is [0. 0. 0.]')


def test_set_device_and_get_current_device():
    assert ms.get_current_device() == ('CPU', 0)
    ms.set_device('CPU', 1)
    d = ms.get_current_device()
    assert d == ('CPU', 1) and d.device_target == 'CPU' and d.device_id == 1
    assert get_context('device_id') == 1
    ms.set_device('CPU', 1)                         # the same device again is fine
    with pytest.raises(RuntimeError, match=r"set_device: the device is already set to "
                                           r"\('CPU', 1\); it cannot be changed"):
        ms.set_device('CPU', 0)


@pytest.mark.parametrize('args, error, msg', [
    (('Ascend',), ValueError, "set_device: hookgrad has no Ascend device; it computes on the "
                              "CPU \\(NumPy\\) or an NVIDIA GPU \\(CuPy\\)"),
    (('GPU', 1), ValueError, "set_device: hookgrad uses GPU 0 of a process; got device_id 1"),
    (('cpu',), ValueError, "set_device: device_target must be one of \\['CPU', 'GPU', "
                           "'Ascend'\\], but got cpu"),
    ((3,), TypeError, "set_device: device_target must be a str, got int"),
    (('CPU', 1.0), TypeError, "set_device: device_id must be an int, got float"),
    (('CPU', -1), ValueError, "set_device: the device id must be >= 0, got -1"),
])
def test_set_device_errors(args, error, msg):
    with pytest.raises(error, match=msg):
        ms.set_device(*args)
    assert _toplevel._device_set is None


def test_set_device_gpu_puts_new_tensors_and_parameters_there():
    from hookgrad.kernels import backend
    ms.set_device('GPU')
    try:
        assert ms.get_current_device() == ('GPU', 0) and get_context('device_target') == 'GPU'
        assert ms.Tensor([1.0]).device == 'GPU:0'
        assert ms.Parameter(np.zeros(2, np.float32), name='w').device == 'GPU:0'
        assert ms.Parameter(np.zeros(2, np.float32), name='w', device='CPU').device == 'CPU'
    finally:
        backend.set_default(backend.CPU)


def test_a_gpu_that_is_not_there(monkeypatch):
    from hookgrad.kernels import backend

    def none():
        raise RuntimeError("CuPy finds no CUDA device on this machine")
    monkeypatch.setattr(backend, 'gpu', none)
    with pytest.raises(ValueError, match="set_device: device 'GPU' is not available: CuPy "
                                         "finds no CUDA device"):
        ms.set_device('GPU')
    with pytest.warns(RuntimeWarning, match="set_context: device 'GPU' is not available: .*; "
                                            "computing on the CPU"):
        set_context(device_target='GPU')
    assert ms.Tensor([1.0]).device == 'CPU' and get_context('device_target') == 'GPU'


def test_top_level_names_are_mindspores():
    from hookgrad import train
    assert ms.Accuracy is train.Accuracy and ms.get_metric_fn is train.get_metric_fn
    assert ms.export is train.export and ms.load is train.load
    assert ms.uint32 is ms.dtype.uint32 and ms.int is ms.int32
