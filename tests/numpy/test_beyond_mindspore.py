"""Behaviour checked against NumPy where MindSpore 2.10 fails, gives a wrong value, or has no
counterpart to compare with (see docs/numpy.md, "Where hookgrad differs")."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.numpy as mnp

X = np.array([[0.5, -1.25, 2.0], [3.5, 0.0, -0.75]], np.float32)


def t(a):
    return ms.Tensor(np.asarray(a))


def test_std_of_integers_uses_the_exact_mean():
    """MindSpore truncates the mean of integers first (1.29 here); NumPy gives 1.247."""
    y = mnp.std(mnp.array([1, 2, 4]))
    assert y.dtype == ms.float32
    np.testing.assert_allclose(y.asnumpy(), np.std([1, 2, 4]), rtol=1e-6)


def test_cube_root_of_zero_is_zero():
    np.testing.assert_array_equal(mnp.cbrt(mnp.array([0.0, -8.0])).asnumpy(), [0.0, -2.0])


def test_nan_extremes_of_all_nan_slices_are_nan():
    n = t(np.array([[1.0, np.nan], [np.nan, np.nan]], np.float32))
    np.testing.assert_array_equal(mnp.nanmax(n, axis=1).asnumpy(), [1.0, np.nan])
    np.testing.assert_array_equal(mnp.nanmin(n, axis=0).asnumpy(), [1.0, np.nan])


def test_ravel_multi_index_gives_integer_positions():
    idx = (mnp.array([3, 6, 6]), mnp.array([4, 5, 1]))
    for order in ('C', 'F'):
        got = mnp.ravel_multi_index(idx, (7, 6), order=order)
        assert got.dtype == ms.int32
        want = np.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6), order=order)
        np.testing.assert_array_equal(got.asnumpy(), want)
    bad = (mnp.array([3, 6, -1]), mnp.array([4, 5, 9]))
    np.testing.assert_array_equal(mnp.ravel_multi_index(bad, (7, 6), mode='wrap').asnumpy(),
                                  [22, 41, 39])
    np.testing.assert_array_equal(mnp.ravel_multi_index(bad, (7, 6), mode='clip').asnumpy(),
                                  [22, 41, 5])


def test_cross_of_two_2_vectors_is_the_z_component():
    got = mnp.cross(mnp.array([1.0, 2.0]), mnp.array([3.0, 4.0]))
    np.testing.assert_allclose(got.asnumpy(), 1.0 * 4.0 - 2.0 * 3.0)


def test_where_with_only_a_condition_gives_positions():
    rows, cols = mnp.where(mnp.array([[1, 0], [0, 2]]))
    np.testing.assert_array_equal(rows.asnumpy(), [0, 1])
    np.testing.assert_array_equal(cols.asnumpy(), [0, 1])


def test_unique_is_sorted_for_unsorted_input():
    """MindSpore's CPU kernel keeps the order of first appearance; NumPy sorts."""
    values, inverse = mnp.unique(mnp.array([3, 1, 3, 2]), return_inverse=True)
    np.testing.assert_array_equal(values.asnumpy(), [1, 2, 3])
    np.testing.assert_array_equal(inverse.asnumpy(), [2, 0, 2, 1])
    assert values.dtype == ms.int32 and inverse.dtype == ms.int32


def test_take_raise_mode_checks_the_positions():
    np.testing.assert_array_equal(mnp.take(mnp.array([1, 2, 3]), mnp.array([-1, 2]),
                                           mode='raise').asnumpy(), [3, 3])
    with pytest.raises(IndexError, match=r"numpy.take: index 5 is out of bounds for an axis "
                                         r"of size 3"):
        mnp.take(mnp.array([1, 2, 3]), mnp.array([5]), mode='raise')


@pytest.mark.parametrize('order', ['nuc', 2, -2])
def test_matrix_norms_from_singular_values(order):
    got = mnp.norm(t(X), order)
    np.testing.assert_allclose(got.asnumpy(), np.linalg.norm(X, order), rtol=1e-5)


def test_negative_decimals_round_to_tens():
    np.testing.assert_array_equal(mnp.around(mnp.array([1234.0, 1250.0]), -2).asnumpy(),
                                  [1200.0, 1200.0])


def test_float_fill_with_an_integer_dtype_is_converted():
    got = mnp.full((2, 2), [1.5, 2.0], mnp.int32)
    assert got.dtype == ms.int32
    np.testing.assert_array_equal(got.asnumpy(), [[1, 2], [1, 2]])


@pytest.mark.parametrize('n,m', [(5, 3), (3, 5), (4, 4), (1, 3), (6, 1), (2, 7)])
@pytest.mark.parametrize('mode', ['full', 'same', 'valid'])
def test_convolve_and_correlate_match_numpy_for_all_lengths(n, m, mode):
    a = np.linspace(-1, 2, n)
    v = np.cos(np.arange(m) + 0.5)
    np.testing.assert_allclose(mnp.convolve(t(a), t(v), mode).asnumpy(),
                               np.convolve(a, v, mode), atol=1e-12)
    np.testing.assert_allclose(mnp.correlate(t(a), t(v), mode).asnumpy(),
                               np.correlate(a, v, mode), atol=1e-12)


@pytest.mark.parametrize('mode,kw', [
    ('constant', {'constant_values': ((1, 2), (3, 4))}), ('edge', {}), ('wrap', {}),
    ('reflect', {}), ('reflect', {'reflect_type': 'odd'}), ('symmetric', {}),
    ('symmetric', {'reflect_type': 'odd'}), ('maximum', {}), ('minimum', {'stat_length': 1}),
    ('mean', {'stat_length': (1, 2)}), ('linear_ramp', {'end_values': (-3, 5)})])
def test_pad_matches_numpy_with_long_pads(mode, kw):
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    widths = ((4, 7), (0, 5))
    np.testing.assert_allclose(mnp.pad(t(a), widths, mode, **kw).asnumpy(),
                               np.pad(a, widths, mode, **kw), rtol=1e-12, atol=1e-12)


def test_pad_of_integers_rounds_means_and_ramps():
    a = np.array([1, 2, 4, 8], np.int32)
    for mode, kw in (('mean', {}), ('linear_ramp', {'end_values': 0})):
        got = mnp.pad(t(a), 3, mode, **kw)
        assert got.dtype == ms.int32
        np.testing.assert_array_equal(got.asnumpy(), np.pad(a, 3, mode, **kw))


def test_gradient_of_one_axis_of_three():
    f = np.arange(24.0).reshape(2, 3, 4) ** 2
    np.testing.assert_allclose(mnp.gradient(t(f), 0.5, axis=2).asnumpy(),
                               np.gradient(f, 0.5, axis=2))


def test_histogramdd_of_a_sequence_matches_numpy():
    xs = [np.array([0.1, 0.4, 0.9, 0.5]), np.array([1.0, 3.0, 2.0, 2.5])]
    counts, edges = mnp.histogramdd([t(x) for x in xs], bins=(2, 3))
    want, want_edges = np.histogramdd(np.stack(xs, -1), bins=(2, 3))
    np.testing.assert_array_equal(counts.asnumpy(), want)
    for e, w in zip(edges, want_edges):
        np.testing.assert_allclose(e.asnumpy(), w, rtol=1e-6)


def test_linspace_of_arrays_with_the_step():
    y, step = mnp.linspace(t(np.array([0.0, 1.0])), t(np.array([1.0, 3.0])), 5, retstep=True)
    want, want_step = np.linspace([0.0, 1.0], [1.0, 3.0], 5, retstep=True)
    np.testing.assert_allclose(y.asnumpy(), want)
    np.testing.assert_allclose(step.asnumpy(), want_step)


def test_apply_along_axis_places_vector_results_at_the_axis():
    a = np.arange(24.0).reshape(2, 3, 4)
    got = mnp.apply_along_axis(lambda v: mnp.stack([mnp.sum(v), mnp.amax(v)]), 1, t(a))
    want = np.apply_along_axis(lambda v: np.stack([v.sum(), v.max()]), 1, a)
    np.testing.assert_allclose(got.asnumpy(), want)


def test_constants_and_dtypes():
    assert mnp.pi == np.pi and mnp.inf == np.inf and np.isnan(mnp.nan)
    assert mnp.PINF == np.inf and mnp.NINF == -np.inf
    assert mnp.int_ == ms.int32 and mnp.float_ == ms.float32
    assert mnp.float32 is ms.float32 and mnp.bool_ is ms.bool_
    assert 'int_' in mnp.numeric_types


def test_names_mindspore_lacks_say_so():
    assert mnp.uint16 is ms.uint16 and 'uint64' in mnp.numeric_types
    with pytest.raises(AttributeError, match=r"module 'mindspore.numpy' has no attribute "
                                             r"'median' \(nor has MindSpore 2.10\)"):
        mnp.median


@pytest.mark.parametrize('fn', [mnp.exp, mnp.log, mnp.log1p, mnp.expm1, mnp.floor,
                                lambda a: mnp.logaddexp(a, a), lambda a: mnp.logaddexp2(a, 1)])
def test_floating_functions_of_integers_give_float32(fn):
    """MindSpore's CPU kernels reject Int32 here; hookgrad computes in Float32."""
    got = fn(mnp.array([1, 2, 3]))
    assert got.dtype == ms.float32
    want = fn(mnp.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy())
