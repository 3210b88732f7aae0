"""The CUDA stand-in's ``ElementwiseKernel`` runs the C subset element-wise kernels are written
in, with CuPy's calling rules, and refuses what it cannot read."""
import numpy as np
import pytest

from hookgrad.kernels import fused
from hookgrad.kernels.fake_cuda import xp


def up(values, dtype=np.float32):
    return xp.asarray(np.asarray(values, dtype))


def test_outputs_given_are_written_in_place_and_scalars_take_the_placeholder_type():
    k = xp.ElementwiseKernel('T g, T lr, T u', 'T w, T v', 'v = u * v + g; w -= lr * v', 'm')
    w, v = up([1, 1]), up([0.5, 0])
    out = k(up([1, 2]), 0.1, 0.9, w, v)
    assert out[0] is w and out[1] is v
    np.testing.assert_array_equal(v.get(), np.float32([0.45 + 1, 2]))
    np.testing.assert_array_equal(w.get(), np.float32(1) - np.float32(0.1) * v.get())
    assert w.dtype == np.float32


def test_missing_outputs_are_allocated_in_the_broadcast_shape():
    k = xp.ElementwiseKernel('T x, T y', 'T z', 'z = (x - y) * (x - y)', 'squared_diff')
    z = k(up([[1], [2]]), up([0, 1, 2]))
    assert type(z) is xp.ndarray and z.shape == (2, 3)
    np.testing.assert_array_equal(z.get(), [[1, 0, 1], [4, 1, 0]])


def test_locals_casts_functions_and_the_ternary():
    k = xp.ElementwiseKernel(
        'T x', 'T y, int32 n',
        'const T a = x > 0 ? x : 0.5f * x; y = sqrt(fabs(a)) + max(a, T(1)); n = int32(x * 2)',
        'mixed')
    y, n = k(up([-4, 9]))
    np.testing.assert_allclose(y.get(), [np.sqrt(2) + 1, 3 + 9])
    assert n.dtype == np.int32 and n.get().tolist() == [-8, 18]


def test_cupys_calling_rules():
    k = xp.ElementwiseKernel('T x, T y', 'T z', 'z = x + y', 'add')
    with pytest.raises(TypeError, match="Type is mismatched"):
        k(up([1]), up([1], np.float64))
    with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
        k(up([1]), np.ones(1, np.float32))
    with pytest.raises(TypeError, match="Wrong number of arguments for 'add'"):
        k(up([1]))


@pytest.mark.parametrize('params, body, error, match', [
    ('raw T x', 'y = x[i]', NotImplementedError, "does not emulate raw parameters"),
    ('T x', 'y = q + x', NameError, "'q' is not declared"),
    ('T x', 'z = x', NameError, "'z' is not declared"),
    ('T x', 'y = x % 2', NotImplementedError, "cannot read '% 2'"),
    ('T x', 'for (int k = 0; k < 2; k++) y += x', NotImplementedError,
     "cannot read the statement"),
])
def test_what_it_cannot_read_is_refused(params, body, error, match):
    with pytest.raises(error, match=match):
        xp.ElementwiseKernel(params, 'T y', body, 'k')


@pytest.mark.parametrize('name', sorted(fused._SOURCES))
def test_every_fused_kernel_reads(name):
    k = fused.kernel(xp, name)
    ins, outs, _ = fused._SOURCES[name]
    assert k.name == f'hookgrad_{name}'
    assert (k.nin, k.nout) == (ins.count(',') + 1, outs.count(',') + 1)
