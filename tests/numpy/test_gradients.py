"""Gradients of the differentiable hookgrad.numpy functions against float64 central
differences (inputs kept clear of kinks, poles and ties)."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.numpy as mnp
from hookgrad.testing.gradcheck import check_grad

RNG = np.random.default_rng(7)


def normal(*shape):
    return RNG.standard_normal(shape)


def positive(*shape):
    return RNG.uniform(0.5, 2.5, shape)


def inside(*shape):
    """Values in (-0.8, 0.8): the domain of arcsin, arccos and arctanh."""
    return RNG.uniform(-0.8, 0.8, shape)


def spread(*shape):
    """Distinct values at least 0.2 apart: maxima, minima and sorts have no ties."""
    n = int(np.prod(shape))
    return ((RNG.permutation(n) - n / 2) * 0.3 + RNG.uniform(-0.05, 0.05, n)).reshape(shape)


def away(*shape):
    """|x| in [0.3, 2]: clear of kinks at 0."""
    return RNG.choice([-1.0, 1.0], shape) * RNG.uniform(0.3, 2.0, shape)


def nan_some(*shape):
    x = normal(*shape)
    x.reshape(-1)[::3] = np.nan
    return x


I = ms.Tensor(np.array([2, 0, 1], np.int32))       # noqa: E741  (integer positions)

CASES = [
    # element-wise math
    ('add', lambda a, b: mnp.add(a, b), [normal(3, 4), normal(4)]),
    ('subtract', lambda a, b: mnp.subtract(a, b), [normal(3, 4), normal(3, 1)]),
    ('multiply', lambda a, b: mnp.multiply(a, b), [normal(3, 4), normal(4)]),
    ('divide', lambda a, b: mnp.divide(a, b), [normal(3, 4), away(4)]),
    ('true_divide', lambda a, b: mnp.true_divide(a, b), [normal(5), away(5)]),
    ('power', lambda a, b: mnp.power(a, b), [positive(3, 4), normal(4)]),
    ('remainder', lambda a: mnp.remainder(a, 0.7), [np.array([0.2, 1.1, -0.5, 2.3])]),
    ('fmod', lambda a, b: mnp.fmod(a, b),
     [np.array([0.2, 1.1, -0.5, 2.3]), np.array([0.7, 0.4, 0.3, -0.9])]),
    ('negative', mnp.negative, [normal(5)]),
    ('positive', mnp.positive, [normal(5)]),
    ('absolute', mnp.absolute, [away(5)]),
    ('square', mnp.square, [normal(5)]),
    ('sqrt', mnp.sqrt, [positive(5)]),
    ('cbrt', mnp.cbrt, [away(5)]),
    ('reciprocal', mnp.reciprocal, [away(5)]),
    ('exp', mnp.exp, [normal(5)]),
    ('exp2', mnp.exp2, [normal(5)]),
    ('expm1', mnp.expm1, [normal(5)]),
    ('log', mnp.log, [positive(5)]),
    ('log2', mnp.log2, [positive(5)]),
    ('log10', mnp.log10, [positive(5)]),
    ('log1p', mnp.log1p, [positive(5)]),
    ('logaddexp', mnp.logaddexp, [normal(5), normal(5)]),
    ('logaddexp2', mnp.logaddexp2, [normal(5), normal(5)]),
    ('sin', mnp.sin, [normal(5)]),
    ('cos', mnp.cos, [normal(5)]),
    ('tan', mnp.tan, [inside(5)]),
    ('arcsin', mnp.arcsin, [inside(5)]),
    ('arccos', mnp.arccos, [inside(5)]),
    ('arctan', mnp.arctan, [normal(5)]),
    ('arctan2', mnp.arctan2, [normal(5), away(5)]),
    ('hypot', mnp.hypot, [away(5), away(5)]),
    ('sinh', mnp.sinh, [normal(5)]),
    ('cosh', mnp.cosh, [normal(5)]),
    ('tanh', mnp.tanh, [normal(5)]),
    ('arcsinh', mnp.arcsinh, [normal(5)]),
    ('arccosh', mnp.arccosh, [positive(5) + 1]),
    ('arctanh', mnp.arctanh, [inside(5)]),
    ('deg2rad', mnp.deg2rad, [normal(5)]),
    ('rad2deg', mnp.rad2deg, [normal(5)]),
    ('clip', lambda a: mnp.clip(a, -0.55, 0.45), [spread(6)]),
    ('maximum', mnp.maximum, [spread(5), spread(5) + 0.1]),
    ('minimum', mnp.minimum, [spread(5), spread(5) + 0.1]),
    ('copysign', mnp.copysign, [away(5), away(5)]),
    ('heaviside', lambda b: mnp.heaviside(mnp.array([-1.0, 0.0, 2.0]), b), [normal(3)]),
    # reductions and statistics
    ('sum', lambda a: mnp.sum(a, axis=1), [normal(3, 4)]),
    ('sum_initial', lambda a: mnp.sum(a, initial=2.0), [normal(3, 4)]),
    ('mean', lambda a: mnp.mean(a, axis=(0, 2)), [normal(2, 3, 4)]),
    ('amax', lambda a: mnp.amax(a, axis=0), [spread(3, 4)]),
    ('amin_where', lambda a: mnp.amin(a, where=mnp.array([True, False, True]), initial=9.0),
     [spread(2, 3)]),
    ('ptp', lambda a: mnp.ptp(a, axis=1), [spread(3, 4)]),
    ('var', lambda a: mnp.var(a, axis=1, ddof=1), [normal(3, 4)]),
    ('std', lambda a: mnp.std(a), [normal(3, 4)]),
    ('average', lambda a, w: mnp.average(a, axis=1, weights=w), [normal(3, 4), positive(4)]),
    ('average_returned', lambda a, w: mnp.average(a, weights=w, returned=True),
     [normal(2, 3), positive(2, 3)]),
    ('cumsum', lambda a: mnp.cumsum(a, 1), [normal(3, 4)]),
    ('cumprod', lambda a: mnp.cumprod(a, 0), [normal(3, 4)]),
    ('cumprod_zero', lambda a: mnp.cumprod(a), [np.array([1.5, 0.0, 2.0, -1.0, 0.0, 3.0])]),
    ('nansum', lambda a: mnp.nansum(a, axis=0), [nan_some(3, 4)]),
    ('nanmean', lambda a: mnp.nanmean(a, axis=1, dtype=mnp.float64), [nan_some(3, 4)]),
    ('nanvar', lambda a: mnp.nanvar(a, axis=1, dtype=mnp.float64), [nan_some(3, 4)]),
    ('nanstd', lambda a: mnp.nanstd(a, dtype=mnp.float64), [nan_some(3, 4)]),
    ('nanmax', lambda a: mnp.nanmax(a, axis=1),
     [np.where(np.arange(12).reshape(3, 4) % 3 == 0, np.nan, spread(3, 4))]),
    ('nanmin', lambda a: mnp.nanmin(a),
     [np.where(np.arange(12).reshape(3, 4) % 3 == 0, np.nan, spread(3, 4))]),
    ('nancumsum', lambda a: mnp.nancumsum(a, axis=1), [nan_some(3, 4)]),
    ('cov', mnp.cov, [normal(3, 5)]),
    ('cov_weights', lambda a, w: mnp.cov(a, aweights=w), [normal(2, 4), positive(4)]),
    ('corrcoef', mnp.corrcoef, [normal(3, 5)]),
    # creation from Tensors
    ('array_copy', lambda a: mnp.array(a, ndmin=3), [normal(2, 3)]),
    ('full', lambda a: mnp.full((3, 4), a), [normal(4)]),
    ('linspace', lambda a, b: mnp.linspace(a, b, 4), [normal(3), normal(3)]),
    ('linspace_axis', lambda a, b: mnp.linspace(a, b, 5, endpoint=False, axis=1),
     [normal(2), normal(2)]),
    ('logspace', lambda a, b: mnp.logspace(a, b, 3), [normal(2), normal(2)]),
    ('geomspace', lambda a, b: mnp.geomspace(a, b, 4), [positive(2), positive(2)]),
    ('tril', lambda a: mnp.tril(a, -1), [normal(3, 4)]),
    ('triu', lambda a: mnp.triu(a, 1), [normal(2, 3, 4)]),
    ('diag_matrix', lambda a: mnp.diag(a, 1), [normal(3, 4)]),
    ('diag_vector', lambda a: mnp.diag(a, -1), [normal(3)]),
    ('diagflat', mnp.diagflat, [normal(2, 2)]),
    ('diagonal', lambda a: mnp.diagonal(a, 0, 1, 2), [normal(2, 3, 3)]),
    ('trace', lambda a: mnp.trace(a, 1), [normal(3, 4)]),
    ('vander', lambda a: mnp.vander(a, 4), [normal(3)]),
    ('meshgrid', lambda a, b: mnp.meshgrid(a, b), [normal(3), normal(2)]),
    # manipulation
    ('reshape', lambda a: mnp.reshape(a, (4, -1)), [normal(3, 4)]),
    ('ravel', mnp.ravel, [normal(3, 4)]),
    ('transpose', lambda a: mnp.transpose(a, (2, 0, 1)), [normal(2, 3, 4)]),
    ('swapaxes', lambda a: mnp.swapaxes(a, 0, 2), [normal(2, 3, 4)]),
    ('moveaxis', lambda a: mnp.moveaxis(a, (0, 1), (2, 0)), [normal(2, 3, 4)]),
    ('rollaxis', lambda a: mnp.rollaxis(a, 2), [normal(2, 3, 4)]),
    ('expand_dims', lambda a: mnp.expand_dims(a, (0, 2)), [normal(3, 4)]),
    ('squeeze', mnp.squeeze, [normal(1, 3, 1)]),
    ('atleast_3d', mnp.atleast_3d, [normal(3)]),
    ('broadcast_to', lambda a: mnp.broadcast_to(a, (2, 3, 4)), [normal(3, 1)]),
    ('broadcast_arrays', mnp.broadcast_arrays, [normal(3, 1), normal(4)]),
    ('concatenate', lambda a, b: mnp.concatenate([a, b], 1), [normal(3, 2), normal(3, 4)]),
    ('append', lambda a, b: mnp.append(a, b), [normal(3), normal(2, 2)]),
    ('stack', lambda a, b: mnp.stack([a, b], -1), [normal(3, 2), normal(3, 2)]),
    ('hstack', lambda a, b: mnp.hstack((a, b)), [normal(3), normal(2)]),
    ('vstack', lambda a, b: mnp.vstack((a, b)), [normal(3), normal(2, 3)]),
    ('dstack', lambda a, b: mnp.dstack((a, b)), [normal(2, 3), normal(2, 3)]),
    ('column_stack', lambda a, b: mnp.column_stack((a, b)), [normal(3), normal(3, 2)]),
    ('split', lambda a: mnp.split(a, [1, 3], axis=1), [normal(2, 5)]),
    ('array_split', lambda a: mnp.array_split(a, 3), [normal(7)]),
    ('hsplit', lambda a: mnp.hsplit(a, 2), [normal(3, 4)]),
    ('vsplit', lambda a: mnp.vsplit(a, [1]), [normal(3, 4)]),
    ('dsplit', lambda a: mnp.dsplit(a, 2), [normal(2, 2, 4)]),
    ('tile', lambda a: mnp.tile(a, (2, 1, 2)), [normal(3, 2)]),
    ('repeat', lambda a: mnp.repeat(a, [2, 0, 1], axis=0), [normal(3, 2)]),
    ('flip', lambda a: mnp.flip(a, (0, 2)), [normal(2, 3, 4)]),
    ('fliplr', mnp.fliplr, [normal(3, 4)]),
    ('flipud', mnp.flipud, [normal(3, 4)]),
    ('rot90', lambda a: mnp.rot90(a, 3), [normal(3, 4)]),
    ('roll', lambda a: mnp.roll(a, (1, -2), (0, 1)), [normal(3, 4)]),
    ('roll_flat', lambda a: mnp.roll(a, 5), [normal(3, 4)]),
    # selection
    ('where', lambda a, b: mnp.where(mnp.array([True, False, True]), a, b),
     [normal(2, 3), normal(3)]),
    ('select', lambda a, b: mnp.select([mnp.array([True, False, False]), mnp.array([True, True, False])], [a, b], 0.5),
     [normal(3), normal(3)]),
    ('take', lambda a: mnp.take(a, mnp.array([[0, 5], [5, -1]])), [normal(2, 3)]),
    ('take_along_axis', lambda a: mnp.take_along_axis(a, mnp.array([[2, 0], [1, 1]]), 1),
     [normal(2, 3)]),
    ('choose', lambda a, b: mnp.choose(mnp.array([0, 1, 1]), [a, b]), [normal(3), normal(2, 3)]),
    ('piecewise', lambda a: mnp.piecewise(a, [mnp.less(a, 0)], [lambda t: mnp.square(t), lambda t: mnp.sin(t)]),
     [away(5)]),
    ('apply_along_axis', lambda a: mnp.apply_along_axis(lambda t: mnp.multiply(t, t), 1, a),
     [normal(2, 3)]),
    ('apply_over_axes', lambda a: mnp.apply_over_axes(mnp.sum, a, (0, 2)), [normal(2, 3, 4)]),
    ('unique', mnp.unique, [spread(5)]),
    # linear algebra
    ('dot', mnp.dot, [normal(2, 3), normal(4, 3, 2)]),
    ('inner', mnp.inner, [normal(2, 3), normal(4, 3)]),
    ('outer', mnp.outer, [normal(3), normal(2, 2)]),
    ('matmul', mnp.matmul, [normal(2, 2, 3), normal(3, 4)]),
    ('tensordot', lambda a, b: mnp.tensordot(a, b, ((0, 2), (1, 0))),
     [normal(2, 3, 4), normal(4, 2, 3)]),
    ('kron', mnp.kron, [normal(2, 3), normal(3, 2)]),
    ('cross', mnp.cross, [normal(2, 3), normal(3)]),
    ('cross_2d', lambda a, b: mnp.cross(a, b, axisa=0), [normal(2, 3), normal(3, 2)]),
    ('multi_dot', lambda a, b, c: mnp.multi_dot([a, b, c]),
     [normal(3), normal(3, 4), normal(4, 2)]),
    ('matrix_power', lambda a: mnp.matrix_power(a, 5), [normal(3, 3) * 0.5]),
    ('norm', mnp.norm, [normal(3, 4)]),
    ('norm_p', lambda a: mnp.norm(a, 3, axis=1), [away(3, 4)]),
    ('norm_matrix_1', lambda a: mnp.norm(a, 1), [spread(3, 4)]),
    ('norm_matrix_inf', lambda a: mnp.norm(a, -mnp.inf, axis=(2, 1)), [spread(2, 3, 4)]),
    ('norm_nuc', lambda a: mnp.norm(a, 'nuc'), [normal(3, 4)]),
    # numerics
    ('diff', lambda a: mnp.diff(a, 2, prepend=mnp.zeros((3, 1), mnp.float64)), [normal(3, 4)]),
    ('ediff1d', lambda a: mnp.ediff1d(a, to_begin=mnp.array([1.0])), [normal(2, 3)]),
    ('gradient', lambda a: mnp.gradient(a, 0.5), [normal(3, 4)]),
    ('trapz', lambda a, b: mnp.trapz(a, b), [normal(3, 4), spread(4)]),
    ('unwrap', lambda a: mnp.unwrap(a), [np.array([0.0, 0.9, 5.5, 6.2, 0.3])]),
    ('convolve', lambda a, b: mnp.convolve(a, b, 'same'), [normal(5), normal(3)]),
    ('correlate', lambda a, b: mnp.correlate(a, b, 'full'), [normal(3), normal(5)]),
    ('polyadd', mnp.polyadd, [normal(4), normal(2)]),
    ('polysub', mnp.polysub, [normal(2), normal(3)]),
    ('polymul', mnp.polymul, [normal(3), normal(2)]),
    ('polyval', mnp.polyval, [normal(4), normal(5)]),
    ('polyder', lambda a: mnp.polyder(a, 2), [normal(5)]),
    ('polyint', lambda a: mnp.polyint(a, 2, 0.5), [normal(3)]),
    ('bincount', lambda w: mnp.bincount(mnp.array([0, 2, 2, 4]), weights=w), [normal(4)]),
    ('histogram', lambda w: mnp.histogram(mnp.array([0.5, 1.5, 1.7, 3.0]), 3, weights=w)[0],
     [normal(4)]),
    ('histogramdd', lambda w: mnp.histogramdd(mnp.array([[0.5, 1.0], [1.5, 0.2], [1.7, 0.9]]), 2, weights=w)[0],
     [normal(3)]),
    ('pad_constant', lambda a: mnp.pad(a, ((1, 0), (0, 2))), [normal(2, 3)]),
    ('pad_edge', lambda a: mnp.pad(a, 2, 'edge'), [normal(2, 3)]),
    ('pad_wrap', lambda a: mnp.pad(a, (1, 4), 'wrap'), [normal(3)]),
    ('pad_reflect_odd', lambda a: mnp.pad(a, (4, 5), 'reflect', reflect_type='odd'), [normal(3)]),
    ('pad_symmetric', lambda a: mnp.pad(a, (2, 1), 'symmetric'), [normal(2, 3)]),
    ('pad_mean', lambda a: mnp.pad(a, 1, 'mean', stat_length=2), [normal(3, 3)]),
    ('pad_maximum', lambda a: mnp.pad(a, (1, 2), 'maximum'), [spread(4)]),
    ('pad_linear_ramp', lambda a: mnp.pad(a, (2, 1), 'linear_ramp', end_values=(1.0, -1.0)),
     [normal(3)]),
]


@pytest.mark.parametrize('fn,inputs', [pytest.param(f, x, id=n) for n, f, x in CASES])
def test_gradient_matches_finite_differences(fn, inputs):
    check_grad(fn, *[np.array(x, np.float64) for x in inputs], atol=1e-6, rtol=1e-5)


def test_float32_casting_functions_are_differentiable():
    """interp computes in Float32 (MindSpore's rule): its gradients, to Float32 accuracy."""
    x = ms.Tensor(np.array([0.3, 1.7, 2.2], np.float32), requires_grad=True)
    fp = ms.Tensor(np.array([1.0, 3.0, -2.0], np.float32), requires_grad=True)
    grads = ms.grad(lambda a, b: mnp.sum(mnp.interp(a, mnp.array([0.0, 1.0, 2.5]), b)),
                    grad_position=(0, 1))(x, fp)
    np.testing.assert_allclose(grads[0].asnumpy(), [2.0, -5 / 1.5, -5 / 1.5], rtol=1e-5)
    np.testing.assert_allclose(grads[1].asnumpy(), [0.7, 0.3 + 0.8 / 1.5 + 0.3 / 1.5,
                                                    0.7 / 1.5 + 1.2 / 1.5], rtol=1e-5)


def test_set_operations_pass_gradients_to_the_values_they_keep():
    """Finite differences cannot see these (a perturbed value leaves the set): the gradient
    of each kept value goes to its first occurrence."""
    a = ms.Tensor(np.array([100.0, 3.0, 0.0, 100.0]), requires_grad=True)
    weights = mnp.array([10.0, 20.0], mnp.float64)
    g = ms.grad(lambda t: mnp.sum(mnp.multiply(mnp.intersect1d(t, mnp.array([0.0, 100.0])),
                                               weights)))(a)
    np.testing.assert_array_equal(g.asnumpy(), [20.0, 0.0, 10.0, 0.0])
    g = ms.grad(lambda t: mnp.sum(mnp.multiply(mnp.setdiff1d(t, mnp.array([3.0])),
                                               weights)))(a)
    np.testing.assert_array_equal(g.asnumpy(), [20.0, 0.0, 10.0, 0.0])


def test_piecewise_constant_functions_pass_zero_gradients():
    x = ms.Tensor(np.array([0.4, -1.6, 2.5]), requires_grad=True)
    for fn in (mnp.floor, mnp.ceil, mnp.trunc, mnp.fix, mnp.rint, mnp.sign, mnp.around):
        g = ms.grad(lambda t: mnp.sum(mnp.multiply(fn(t), 1.0)))(x)
        np.testing.assert_array_equal(g.asnumpy(), [0.0, 0.0, 0.0], err_msg=fn.__name__)


def test_second_order_gradients_flow_through_compositions():
    """A gradient of a gradient through functions built from ops (logaddexp, cumprod, pad)."""
    x = np.array([0.3, -1.2, 0.8])

    def f(t):
        return mnp.sum(mnp.multiply(mnp.logaddexp(t, mnp.cumprod(t)), mnp.pad(t, 0)))

    from hookgrad.testing.gradcheck import check_double_grad
    check_double_grad(f, x, atol=1e-5, rtol=1e-4)
