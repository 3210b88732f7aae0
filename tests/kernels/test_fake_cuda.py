"""The CUDA stand-in keeps CuPy 14's contract: what CuPy refuses, it refuses; host reads count."""
import numpy as np
import pytest

from hookgrad.kernels import fake_cuda
from hookgrad.kernels.fake_cuda import IMPLICIT, xp


@pytest.fixture
def reads():
    fake_cuda.host_reads.clear()
    return fake_cuda.host_reads


def test_device_arrays_compute_like_numpy():
    a = xp.arange(6, dtype=np.float32).reshape(2, 3)
    b = xp.ones((2, 3), np.float32)
    c = (a * 2 + b) / 3.0
    assert type(c) is xp.ndarray and c.dtype == np.float32 and c.shape == (2, 3)
    np.testing.assert_allclose(c.get(), (np.arange(6).reshape(2, 3) * 2 + 1) / 3.0, rtol=1e-6)
    np.testing.assert_array_equal(np.add(a, b).get(), xp.add(a, b).get())     # NEP 13
    assert np.concatenate([a, b]).shape == (4, 3)                              # NEP 18
    assert type(a.sum()) is xp.ndarray and a.sum().shape == ()      # 0-d arrays, not scalars
    np.testing.assert_allclose(xp.linalg.norm(b).get(), np.sqrt(6.0), rtol=1e-6)


def test_in_place_operations_and_views_write_through():
    a = xp.zeros((2, 3), np.float32)
    view = a[1]
    view += 5
    a[0, 1] = 2
    out = xp.empty((2, 3), np.float32)
    assert xp.add(a, 1, out=out) is out
    np.testing.assert_array_equal(out.get(), [[1, 3, 1], [6, 6, 6]])


def test_implicit_conversion_to_numpy_is_refused_with_cupys_message():
    a = xp.ones(3)
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
        np.asarray(a)
    assert IMPLICIT.startswith("Implicit conversion")


def test_mixing_device_and_host_arrays_is_refused():
    with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
        xp.ones(3) + np.ones(3)
    with pytest.raises(TypeError, match="Unsupported type"):
        np.maximum(xp.ones(3), np.ones(3))
    with pytest.raises(TypeError, match="Unsupported type"):
        xp.zeros_like(np.ones(3))
    np.testing.assert_array_equal(xp.asarray(np.ones(3)).get(), np.ones(3))  # an upload


def test_only_cupys_names_exist():
    for name in ('errstate', 'geterr', 'ma', 'str_'):     # NumPy has them, CuPy 14 not
        assert not hasattr(xp, name)
    a = xp.ones(3)
    with pytest.raises(AttributeError, match="'cupy.ndarray' object has no attribute 'setflags'"):
        a.setflags(write=False)
    with pytest.raises(AttributeError, match="writeable"):
        a.flags.writeable
    assert a.flags.c_contiguous


def test_cupy_names_the_stand_in_does_not_emulate_say_so():
    with pytest.raises(NotImplementedError, match="cupy.fuse exists in CuPy 14 but the CUDA "
                                                  "stand-in"):
        xp.fuse()


def test_every_host_read_is_counted(reads):
    a = xp.arange(4, dtype=np.float32)
    a + a
    assert not reads
    a.get(), xp.asnumpy(a), a[1].item(), float(a[0]), int(a[1]), bool(a[2]), a.tolist()
    repr(a)
    assert reads == {'get': 2, 'item': 1, 'float': 1, 'int': 1, 'bool': 1, 'tolist': 1,
                     'print': 1}


def test_scatter_add_as_cupyx():
    a = xp.zeros(4, np.float32)
    fake_cuda.cupyx.scatter_add(a, xp.asarray(np.array([0, 0, 3])), 1.0)
    np.testing.assert_array_equal(a.get(), [2, 0, 0, 1])


def test_only_cupys_parameters_and_ufunc_methods():
    a = xp.arange(4, dtype=np.float32)
    with pytest.raises(TypeError, match="take\\(\\) got an unexpected keyword argument 'mode'"):
        xp.take(a, xp.asarray(np.array([0, 1])), mode='clip')
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'initial'"):
        a.max(initial=0.0)
    with pytest.raises(NotImplementedError, match="CuPy 14 supports ufunc.accumulate for "
                                                  "\\['add'\\] only, not for 'maximum'"):
        np.maximum.accumulate(a)
    np.testing.assert_array_equal(np.add.accumulate(a).get(), [0, 1, 3, 6])
    xp.maximum.at(a, xp.asarray(np.array([0])), 5.0)
    assert a[0].item() == 5.0


def test_nothing_warns_on_the_device():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = xp.log(xp.asarray(np.array([-1.0, 0.0])))
    assert np.isnan(y.get()[0]) and np.isneginf(y.get()[1])


def test_a_views_base_is_the_array_owning_the_memory():
    a = xp.ones((4, 4), np.float32)
    assert a.base is None
    for view in (a[1:], a[1:][1:], a.T, a.reshape(16)):
        assert view.base is a                   # CuPy's rule: the owner, not the parent view


def test_sorting_is_stable_as_cupys():
    keys = np.array([2, 1, 2, 1, 0, 2, 1] * 40)
    a = xp.asarray(keys)
    want = np.argsort(keys, kind='stable')
    np.testing.assert_array_equal(xp.argsort(a).get(), want)
    np.testing.assert_array_equal(a.argsort().get(), want)
    np.testing.assert_array_equal(xp.argsort(a, kind='stable').get(), want)
    with pytest.raises(ValueError, match="CuPy sorts stably only; kind must be None or "
                                         "'stable', got 'quicksort'"):
        xp.sort(a, kind='quicksort')
