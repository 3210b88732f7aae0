"""The bessel_* family: values against integral representations computed here (an independent
method), MindSpore 2.10's values and gradients (CPU), gradients of every order against finite
differences across the series, integral and asymptotic ranges, and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import operations as P
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _trapezoid(values, step):
    return step * (values.sum(axis=-1) - (values[..., 0] + values[..., -1]) / 2)


def _periodic(f, x, n=4000):
    """(1/pi) int_0^pi f(x, t) dt for integrands that are smooth and periodic in t."""
    t = np.linspace(0.0, np.pi, n + 1)
    return _trapezoid(f(np.asarray(x, np.float64)[..., None], t), np.pi / n) / np.pi


def ref_j(n):
    return lambda x: _periodic(lambda x, t: np.cos(n * t - x * np.sin(t)), x)


def ref_ie(n):
    return lambda x: _periodic(lambda x, t: np.exp(np.abs(x) * (np.cos(t) - 1))
                               * np.cos(n * t), x) * np.where(np.asarray(x) < 0, (-1) ** n, 1)


def ref_ke(n):
    """int_0^inf exp(-x (cosh t - 1)) cosh(n t) dt (DLMF 10.32.9), x > 0."""
    t = np.linspace(0.0, 12.0, 24001)
    return lambda x: _trapezoid(np.exp(-np.asarray(x, np.float64)[..., None] * np.expm1(t) ** 2
                                       / (2 * np.exp(t))) * np.cosh(n * t), t[1])


def _simpson(values, step):
    return (values[..., 0] + values[..., -1] + 4 * values[..., 1:-1:2].sum(-1)
            + 2 * values[..., 2:-1:2].sum(-1)) * (step / 3)


def ref_y(n):
    """DLMF 10.9.7, both integrals by Simpson's rule."""
    def y(x):
        x = np.asarray(x, np.float64)[..., None]
        t = np.linspace(0.0, np.pi, 20001)
        first = _simpson(np.sin(x * np.sin(t) - n * t), t[1]) / np.pi
        s = np.linspace(0.0, 12.0, 48001)
        g = (np.exp(n * s) + (-1) ** n * np.exp(-n * s)) * np.exp(-x * np.sinh(s))
        return first - _simpson(g, s[1]) / np.pi
    return y


def both_signs(rng, shape):
    return rng.uniform(0.2, 30.0, shape) * rng.choice([-1.0, 1.0], shape)


def positive(rng, shape):
    return rng.uniform(0.3, 30.0, shape)


SHAPES = [((7,),), ((2, 3),)]


def row(op, fn, ref, domain):
    return Case(op, fn, ref=ref, shapes=SHAPES, domains=(domain,), rtol=1e-9, atol=1e-12,
                grad_rtol=1e-5, grad_atol=1e-8)


CASES = [
    row(('BesselJ0', 'BesselJ1'), ops.bessel_j0, ref_j(0), both_signs),
    row(('BesselJ1', 'BesselJ0'), ops.bessel_j1, ref_j(1), both_signs),
    row(('BesselI0e', 'BesselI1e'), ops.bessel_i0e, ref_ie(0), both_signs),
    row(('BesselI1e', 'BesselI0e'), ops.bessel_i1e, ref_ie(1), both_signs),
    row(('BesselY0', 'BesselY1'), ops.bessel_y0, ref_y(0), positive),
    row(('BesselY1', 'BesselY0'), ops.bessel_y1, ref_y(1), positive),
    row(('BesselK0e', 'BesselK1e'), ops.bessel_k0e, ref_ke(0), positive),
    row(('BesselK1e', 'BesselK0e'), ops.bessel_k1e, ref_ke(1), positive),
    row(('BesselK0', 'BesselK1'), ops.bessel_k0, lambda x: ref_ke(0)(x) * np.exp(-x), positive),
    row(('BesselK1', 'BesselK0'), ops.bessel_k1, lambda x: ref_ke(1)(x) * np.exp(-x), positive),
]

globals().update(row_tests(CASES))

X = [-2.5, -1.0, 0.0, 0.5, 3.0, 25.0]
W = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
INF, NAN = np.inf, np.nan

# MindSpore 2.10's values at X and gradients of (out * W).sum() (CPU, Float32)
MINDSPORE = {
    'i0': ([3.289839506149292, 1.2660659551620483, 1.0, 1.063483476638794, 4.88079309463501,
            5774560256.0],
           [-2.516716241836548, -1.1303181648254395, 0.0, 1.0315773487091064, 19.766855239868164,
            33947193344.0]),
    'i0e': ([0.2700464725494385, 0.46575963497161865, 1.0, 0.6450353860855103,
             0.24300038814544678, 0.08019676804542542],
            [0.06346182525157928, 0.5156984329223633, 0.0, -1.954458236694336,
             -0.2308681607246399, -0.009723901748657227]),
    'i1': ([-2.516716241836548, -0.5651590824127197, 0.0, 0.2578943371772766, 3.953371047973633,
            5657865728.0],
           # MindSpore gives 3.0 at 0 (a slope of 1); I1'(0) is 1/2
           [2.2831530570983887, 1.4018137454986572, 1.5, 2.190779209136963, 17.815013885498047,
            33289474048.0]),
    'i1e': ([-0.2065846472978592, -0.207910418510437, 0.0, 0.15642082691192627,
             0.1968267560005188, 0.07857611775398254],
            [-0.01917204260826111, 0.09987759590148926, 1.5, 0.7030916213989258,
             -0.0971764326095581, -0.009134352207183838]),
    'j0': ([-0.048383794724941254, 0.7651976943016052, 1.0, 0.9384698867797852,
            -0.2600519061088562, 0.09626681357622147],
           [0.497094064950943, 0.880101203918457, -0.0, -0.9690738916397095, -1.6952948570251465,
            0.7521018981933594]),
    'j1': ([-0.497094064950943, -0.4400506019592285, 0.0, 0.24226847290992737, 0.3390589654445648,
            -0.12535031139850616],
           [-0.24722141027450562, 0.6502941846847534, 1.5, 1.8157317638397217,
            -1.865357756614685, 0.6076849699020386]),
    'y0': ([-INF, -INF, -INF, -0.44451871514320374, 0.37685003876686096, -0.12724941968917847],
           [INF, INF, NAN, 5.885889530181885, -1.623371958732605, 0.5929793119430542]),
    'y1': ([-INF, -INF, NAN, -1.4714723825454712, 0.3246743977069855, -0.09882988035678864],
           [-INF, -INF, NAN, 9.993703842163086, 1.3431261777877808, -0.7397773265838623]),
    'k0': ([INF, INF, INF, 0.924419105052948, 0.034739505499601364, 3.464161249522313e-12],
           [-INF, -INF, -INF, -6.625763893127441, -0.2007821500301361, -2.1196667684963977e-11]),
    'k0e': ([INF, INF, INF, 1.5241093635559082, 0.6977616548538208, 0.24943660199642181],
            [NAN, NAN, NAN, -4.827600479125977, -0.5440092086791992, -0.029644399881362915]),
    'k1': ([INF, INF, INF, 1.6564409732818604, 0.04015643149614334, 3.532778019774141e-12],
           [NAN, NAN, -INF, -16.949203491210938, -0.24062491953372955, -2.1632834412699253e-11]),
    'k1e': ([INF, INF, INF, 2.7310094833374023, 0.8065634965896606, 0.2543773353099823],
            [NAN, NAN, -INF, -17.020475387573242, -0.8002635836601257, -0.03140616416931152]),
}


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


@pytest.mark.parametrize('kind', sorted(MINDSPORE))
def test_mindspore_values_and_gradients(kind):
    fn = getattr(ops, 'bessel_' + kind)
    want_y, want_g = (np.array(v, np.float64) for v in MINDSPORE[kind])
    with np.errstate(all='ignore'):
        y = fn(t(X))
        g = ms.grad(lambda v: (fn(v) * t(W)).sum())(t(X))
    assert y.dtype == ms.float32 and g.dtype == ms.float32
    # float32 rounding, and MindSpore's own cancellation in the gradients of i0e and i1e at 25
    np.testing.assert_allclose(y.asnumpy(), want_y, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(g.asnumpy(), want_g, rtol=2e-5, atol=1e-7)
    primitive = getattr(P, 'Bessel' + kind.upper()[0] + kind[1:])
    with np.errstate(all='ignore'):
        np.testing.assert_array_equal(primitive()(t(X)).asnumpy(), y.asnumpy())


def test_other_types():
    # MindSpore 2.10's results
    np.testing.assert_allclose(ops.bessel_j1(t(X, np.float64)).asnumpy(),
                               [-0.497094102464274, -0.44005058574493355, 0.0,
                                0.24226845767487387, 0.33905895852593654, -0.12535024958028984],
                               rtol=1e-13)
    with np.errstate(all='ignore'):
        y16 = ops.bessel_k1e(t(X, np.float16))
    assert y16.dtype == ms.float16
    np.testing.assert_array_equal(y16.asnumpy(), np.array(
        [INF, INF, INF, 2.73046875, 0.806640625, 0.25439453125], np.float16))


def test_large_and_tiny_arguments():
    x = t([1e-30, 1e-6, 1e3, 1e6], np.float64)
    np.testing.assert_allclose(ops.bessel_j0(x).asnumpy()[:2], [1.0, 1.0 - 2.5e-13], rtol=1e-15)
    np.testing.assert_allclose(ops.bessel_i0e(x).asnumpy()[2:],
                               1 / np.sqrt(2 * np.pi * np.array([1e3, 1e6])) *
                               (1 + 1 / (8 * np.array([1e3, 1e6]))), rtol=1e-7)
    k0 = ops.bessel_k0(x).asnumpy()
    np.testing.assert_allclose(k0[0], -(np.log(0.5e-30) + 0.5772156649015329), rtol=1e-14)
    assert k0[3] == 0.0 and np.isfinite(ops.bessel_k0e(x).asnumpy()).all()


@pytest.mark.parametrize('call, match', [
    (lambda: ops.bessel_j0([1.0]), r'ops.bessel_j0: x must be a Tensor, got list'),
    (lambda: ops.bessel_k1e(t([1], np.int32)),
     r'ops.bessel_k1e: x must be a Float16, Float32 or Float64 tensor, got Int32'),
    (lambda: ops.bessel_i1(t([1], np.int32)),
     r'ops.bessel_i1: x must be a Float16, Float32 or Float64 tensor'),
    (lambda: ops.bessel_i0(1.0), r'ops.bessel_i0: x must be a Tensor, got float'),
    (lambda: P.BesselY1()(t([1], np.int64)), r'ops.bessel_y1: x must be a Float16'),
])
def test_argument_errors(call, match):
    with pytest.raises(TypeError, match=match):
        call()
