"""Tensor's memory methods (data_ptr, is_pinned, is_shared, to_dlpack, from_dlpack) and
Tensor.triangular_solve."""
import numpy as np
import pytest

import hookgrad as ms


def test_data_ptr_is_the_address_of_the_first_element():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = ms.Tensor.from_numpy(a)
    assert x.data_ptr() == a.ctypes.data
    assert x[1].data_ptr() == a.ctypes.data + 3 * a.itemsize


def test_data_ptr_on_the_gpu_counts_in_elements_of_the_device_array():
    from tests.device.common import GPU, on
    with on(GPU):
        x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        assert x.device == 'GPU:0'
        assert x[1].data_ptr() - x.data_ptr() == 3 * 4
        assert x.data_ptr() == int(x._data.data.ptr)


def test_never_pinned_nor_shared():
    x = ms.Tensor(np.ones(3, np.float32))
    assert x.is_pinned() is False and x.is_shared() is False


def test_dlpack_round_trip_with_numpy_shares_memory():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    x = ms.Tensor.from_dlpack(a)
    assert x.dtype == ms.float64 and x.tolist() == a.tolist()
    y = ms.Tensor.from_dlpack(x.to_dlpack())
    assert y.data_ptr() == a.ctypes.data
    a[0, 0] = 7.0
    assert y.asnumpy()[0, 0] == 7.0 and y.shape == (2, 3)


def test_from_dlpack_rejects_other_objects():
    with pytest.raises(TypeError, match=r"Tensor\.from_dlpack: dlpack must be a DLPack capsule "
                                        r"or an object with __dlpack__, got list"):
        ms.Tensor.from_dlpack([1, 2])


def _triangle(a, upper, unitriangular):
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        np.fill_diagonal(t, 1.0)
    return t


@pytest.mark.parametrize('upper', [True, False])
@pytest.mark.parametrize('transpose', [True, False])
@pytest.mark.parametrize('unitriangular', [True, False])
def test_triangular_solve_solves_with_the_named_triangle(upper, transpose, unitriangular):
    a = np.array([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.5, 1.5, 1.0]])
    b = np.array([[1.0, 0.5], [-1.0, 2.0], [0.25, 1.5]])
    t = _triangle(a, upper, unitriangular)
    want = np.linalg.solve(t.T if transpose else t, b)
    x, same = ms.Tensor(b).triangular_solve(ms.Tensor(a), upper, transpose, unitriangular)
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-12)
    assert same.tolist() == a.tolist()


def test_triangular_solve_gradient_matches_finite_differences():
    a = np.array([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.5, 1.5, 1.0]])
    b = np.array([[1.0, 0.5], [-1.0, 2.0], [0.25, 1.5]])
    w = np.arange(6.0).reshape(3, 2) - 2

    def loss(bb, aa):
        return (bb.triangular_solve(aa, False)[0] * ms.Tensor(w)).sum()

    gb, ga = ms.grad(loss, grad_position=(0, 1))(ms.Tensor(b), ms.Tensor(a))

    def value(bb, aa):
        return float((np.linalg.solve(np.tril(aa), bb) * w).sum())

    eps = 1e-6
    for arg, grad in ((0, gb), (1, ga)):
        base = (b, a)[arg]
        numeric = np.zeros_like(base)
        for k in np.ndindex(base.shape):
            step = np.zeros_like(base)
            step[k] = eps
            plus = (b + step, a) if arg == 0 else (b, a + step)
            minus = (b - step, a) if arg == 0 else (b, a - step)
            numeric[k] = (value(*plus) - value(*minus)) / (2 * eps)
        np.testing.assert_allclose(grad.asnumpy(), numeric, rtol=1e-6, atol=1e-8)


def test_to_moves_in_place_and_returns_self():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert x.to_('CPU') is x and x.device == 'CPU' and x.tolist() == [1.0, 2.0]


@pytest.mark.parametrize('args,match', [
    ((), r"Tensor\.to_: device must be 'CPU' or 'GPU', got None"),
    (('CPU', 1), r"Tensor\.to_: non_blocking must be a bool, got int"),
    (('Ascend',), r"move_to: hookgrad has no Ascend device"),
])
def test_to_rejects_bad_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        ms.Tensor(np.ones(2, np.float32)).to_(*args)


def _square():
    return ms.Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))


def test_set_shares_the_source_memory_both_ways():
    x, m = ms.Tensor(np.ones((2, 3), np.float32)), _square()
    assert x.set_(m) is x and x.shape == (3, 3) and x.data_ptr() == m.data_ptr()
    m[0, 0] = 100.0
    x[1, 1] = -5.0
    assert x.asnumpy()[0, 0] == 100.0 and m.asnumpy()[1, 1] == -5.0


def test_set_with_offset_size_and_stride_views_the_source():
    x, m = ms.Tensor(np.ones(2, np.float32)), _square()
    assert x.set_(m, 1, (2, 2), (3, 1)).tolist() == [[1.0, 2.0], [4.0, 5.0]]
    assert x.stride() == [3, 1]
    assert x.set_(m, 0, [2], [4]).tolist() == [0.0, 4.0]


def test_set_without_source_empties_the_tensor():
    x = ms.Tensor(np.ones(2, np.float32)).set_()
    assert x.shape == (0,) and x.dtype == ms.float32


def test_set_makes_a_recorded_result_a_constant():
    w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name='w')
    y = w * 2
    y.set_(_square())
    assert y.requires_grad is False and y.tolist()[2] == [6.0, 7.0, 8.0]


@pytest.mark.parametrize('args,exc,match', [
    ((ms.Tensor(np.ones(3, np.int32)),), RuntimeError,
     r"Tensor\.set_: cannot make a Float32 tensor a view of a Int32 tensor"),
    ((_square(), 1), TypeError,
     r"Tensor\.set_: give source, storage_offset, size and stride together"),
    ((None, 1), TypeError, r"Tensor\.set_: storage_offset, size and stride need a source"),
    ((np.ones(3, np.float32),), TypeError, r"Tensor\.set_: source must be a Tensor, got ndarray"),
    ((_square(), 1, (3, 3), (3, 1)), ValueError,
     r"Tensor\.set_: the view reaches element 9, past the 9 elements of source"),
    ((_square(), 0, (2,), (1, 1)), ValueError,
     r"Tensor\.set_: size \(2,\) and stride \(1, 1\) must be non-negative and of one length"),
    ((_square().T, 0, (2,), (1,)), ValueError,
     r"Tensor\.set_: source must be contiguous to be viewed with a stride"),
])
def test_set_rejects_bad_arguments(args, exc, match):
    with pytest.raises(exc, match=match):
        ms.Tensor(np.ones(2, np.float32)).set_(*args)
