"""jvp, linearize, jacfwd, jacrev, derivative and jet give MindSpore 2.10's results.

The expected values were produced by MindSpore 2.10 (CPU) on the same inputs; the nested cases
(Hessians, gradients of products) are checked against closed forms.
"""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops


def T(v, dtype=np.float32):
    return ms.Tensor(np.asarray(v, dtype=dtype))


X = T([[1, 2], [3, 4]])
V = T([[1, 1], [1, 1]])


class Cube(nn.Cell):
    def construct(self, x, y):
        return x ** 3 + y


# ------------------------------------------------------------------ jvp
def test_jvp_of_a_cell_and_of_functions():
    out, tangent = ms.jvp(Cube(), (X, X), (V, V))
    np.testing.assert_allclose(out.asnumpy(), [[2., 10.], [30., 68.]])
    np.testing.assert_allclose(tangent.asnumpy(), [[4., 13.], [28., 49.]])
    out, tangent = ms.jvp(lambda x: x ** 3, X, V)
    np.testing.assert_allclose(tangent.asnumpy(), [[3., 12.], [27., 48.]])
    _, listed = ms.jvp(Cube(), [X, X], [V, V])
    np.testing.assert_allclose(listed.asnumpy(), [[4., 13.], [28., 49.]])
    out, reduced = ms.jvp(lambda x: (x * x).sum(), X, V)
    assert out.item() == 30. and reduced.item() == 20.


def test_jvp_of_several_outputs_and_aux():
    out, (t1, t2) = ms.jvp(lambda x, y: (x * y, x + y), (X, X), (V, V))
    np.testing.assert_allclose(out[0].asnumpy(), [[1., 4.], [9., 16.]])
    np.testing.assert_allclose(t1.asnumpy(), [[2., 4.], [6., 8.]])
    np.testing.assert_allclose(t2.asnumpy(), [[2., 2.], [2., 2.]])
    out, tangent, aux = ms.jvp(lambda x, y: (x ** 3 + y, y), (X, X), (V, V), has_aux=True)
    np.testing.assert_allclose(tangent.asnumpy(), [[4., 13.], [28., 49.]])
    np.testing.assert_allclose(aux.asnumpy(), [[1., 2.], [3., 4.]])
    _, _, aux3 = ms.jvp(lambda x, y: (x ** 3 + y, y, x), (X, X), (V, V), has_aux=True)
    assert isinstance(aux3, tuple) and len(aux3) == 2


def test_jvp_of_constants_unused_inputs_and_integers():
    _, zeros = ms.jvp(lambda x: T([1., 1.]), X, V)
    np.testing.assert_array_equal(zeros.asnumpy(), [0., 0.])
    _, unused = ms.jvp(lambda x, y: x * 2, (X, X), (V, V))
    np.testing.assert_allclose(unused.asnumpy(), [[2., 2.], [2., 2.]])
    out, tangent = ms.jvp(lambda x: x * 2, T([1, 2], np.int32), T([1, 1], np.int32))
    assert tangent.dtype == ms.int32 and tangent.asnumpy().tolist() == [2, 2]
    assert out.asnumpy().tolist() == [2, 4]


def test_jvp_takes_each_position_as_a_separate_variable():
    x, v = T([1., 2.]), T([1., 1.])
    _, tangent = ms.jvp(lambda a, b: a * 2 + b * 5, (x, x), (v, v))
    np.testing.assert_allclose(tangent.asnumpy(), [7., 7.])


def test_jvp_errors():
    with pytest.raises(TypeError, match="jvp: inputs must be a Tensor or a tuple/list of Tensors, got float"):
        ms.jvp(lambda x: x, 3.0, V)
    with pytest.raises(TypeError, match="jvp: v must be a Tensor or a tuple/list of Tensors, got tuple holding float"):
        ms.jvp(lambda x: x, X, (1.0,))
    with pytest.raises(ValueError, match="jvp: v has 1 tangent for 2 inputs"):
        ms.jvp(Cube(), (X, X), (V,))
    with pytest.raises(ValueError, match=r"jvp: tangent 0 has shape \(3,\), its input \(2, 2\)"):
        ms.jvp(lambda x: x * 2, X, T([1., 1., 1.]))
    with pytest.raises(TypeError, match="jvp: tangent 0 has dtype Float64, its input Float32"):
        ms.jvp(lambda x: x * 2, X, T(np.ones((2, 2)), np.float64))
    with pytest.raises(ValueError, match="jvp: has_aux=True needs fn to return a tuple of at least two outputs"):
        ms.jvp(lambda x: x * 2, X, V, has_aux=True)
    with pytest.raises(TypeError, match="jvp: has_aux must be a bool, got int"):
        ms.jvp(lambda x: x * 2, X, V, has_aux=1)
    with pytest.raises(TypeError, match="jvp: fn must return Tensors \\(or tuples of them\\), output 1 is str"):
        ms.jvp(lambda x: (x, 'tag'), X, V)


# ------------------------------------------------------------------ linearize
def test_linearize_gives_repeated_products_from_one_recorded_pass():
    x = T([[1, 2, 3], [3, 4, 5]])
    y = T([[1, 2], [3, 4], [5, 6]])
    v = (T([[1, 1, 1], [1, 1, 1]]), T([[1, 1], [1, 1], [0, 0]]))
    out, jvp_fn = ops.linearize(lambda a, b: ops.matmul(a, b), (x, y))
    np.testing.assert_allclose(out.asnumpy(), [[22., 28.], [40., 52.]])
    np.testing.assert_allclose(jvp_fn(v).asnumpy(), [[12., 15.], [16., 19.]])
    np.testing.assert_allclose(jvp_fn(list(v)).asnumpy(), [[12., 15.], [16., 19.]])
    np.testing.assert_allclose(jvp_fn((v[0] * 2, v[1])).asnumpy(), [[21., 27.], [25., 31.]])
    a = T([0.5, 1.0])
    _, single = ops.linearize(ops.sin, a)
    np.testing.assert_allclose(single(T([1., 2.])).asnumpy(), [0.87758255, 1.0806046], rtol=1e-6)
    out2, two = ops.linearize(lambda q: (ops.sin(q), ops.cos(q)), a)
    s, c = two(T([1., 2.]))
    np.testing.assert_allclose(c.asnumpy(), [-0.47942555, -1.682942], rtol=1e-6)
    with pytest.raises(TypeError, match="linearize: inputs must be a Tensor or a tuple/list of Tensors, got float"):
        ops.linearize(ops.sin, 3.0)
    with pytest.raises(ValueError, match="jvp_fn: v has 1 tangent for 2 inputs"):
        jvp_fn(v[0])


# ------------------------------------------------------------------ Jacobians
def net(x, y, z):
    return x ** 2 + y ** 2 + z ** 2, x * y * z


DX = [[[[2., 0.], [0., 0.]], [[0., 4.], [0., 0.]]],
      [[[0., 0.], [6., 0.]], [[0., 0.], [0., 8.]]]]
DXYZ = [[[[1., 0.], [0., 0.]], [[0., 2.], [0., 0.]]],
        [[[0., 0.], [3., 0.]], [[0., 0.], [0., 4.]]]]


@pytest.mark.parametrize('jac', [ms.jacfwd, ms.jacrev], ids=['jacfwd', 'jacrev'])
def test_jacobians(jac):
    z = T([[1, 1], [1, 1]])
    j, aux = jac(net, grad_position=0, has_aux=True)(X, X, z)
    np.testing.assert_allclose(j.asnumpy(), DX)
    np.testing.assert_allclose(aux.asnumpy(), [[1., 4.], [9., 16.]])
    j1, j2 = jac(net)(X, X, z)
    np.testing.assert_allclose(j1.asnumpy(), DX)
    np.testing.assert_allclose(j2.asnumpy(), DXYZ)
    (jx1, jy1), (jx2, jy2) = jac(net, grad_position=(0, 1))(X, X, z)
    np.testing.assert_allclose(jy1.asnumpy(), DX)
    np.testing.assert_allclose(jy2.asnumpy(), DXYZ)
    a = T([0.5, 1.0, 2.0])
    np.testing.assert_allclose(jac(lambda q: (q ** 2).sum())(a).asnumpy(), [1., 2., 4.])
    np.testing.assert_allclose(jac(lambda q: (q ** 2).sum(), (0,))(a).asnumpy(), [1., 2., 4.])
    np.testing.assert_allclose(jac(ops.sin)(a).asnumpy(), np.diag(np.cos([0.5, 1.0, 2.0])),
                               rtol=1e-6)
    two = jac(lambda p, q: p * q, (0,))(a, a)
    np.testing.assert_allclose(two.asnumpy(), np.diag([0.5, 1.0, 2.0]))
    same = jac(lambda p, q: p * 2 + q * 5, (0, 1))(a, a)
    np.testing.assert_allclose(same[1].asnumpy(), np.eye(3) * 5)
    assert jac(ops.sin)(T(2.0)).item() == pytest.approx(np.cos(2.0), rel=1e-6)
    j3, (aux1, aux2) = jac(lambda q: (q * q, q + 1, q + 2), 0, True)(a)
    np.testing.assert_allclose(aux2.asnumpy(), [2.5, 3., 4.])
    f64 = jac(ops.sin)(T([1., 2.], np.float64))
    assert f64.dtype == ms.float64


@pytest.mark.parametrize('jac', [ms.jacfwd, ms.jacrev], ids=['jacfwd', 'jacrev'])
def test_jacobian_errors(jac):
    name = jac.__name__
    with pytest.raises(ValueError, match=f"{name}: grad_position must be >= 0, got -1"):
        jac(ops.sin, -1)
    with pytest.raises(ValueError, match=f"{name}: grad_position 3 is out of range for a function called with 1 argument"):
        jac(ops.sin, 3)(T([1.]))
    with pytest.raises(TypeError, match=f"{name}: has_aux must be a bool, got int"):
        jac(ops.sin, 0, 1)
    with pytest.raises(TypeError, match=f"{name}: grad_position must be an int, a tuple of ints or None, got list"):
        jac(ops.sin, [0])
    with pytest.raises(ValueError, match=f"{name}: has_aux=True needs fn to return a tuple"):
        jac(ops.sin, 0, True)(T([1.]))
    with pytest.raises(TypeError, match=f"{name}: the argument at grad_position 0 must be a Tensor, got float"):
        jac(ops.sin)(1.0)


def test_hessian_by_jacfwd_of_jacrev_and_gradient_through_jvp():
    a = np.array([[2., 1.], [1., 3.]])
    f = lambda x: (x * ops.matmul(T(a, np.float64), x)).sum() + (x ** 3).sum()
    x = T([0.5, -1.0], np.float64)
    hessian = ms.jacfwd(ms.jacrev(f))(x)
    np.testing.assert_allclose(hessian.asnumpy(), 2 * a + np.diag(6 * x.asnumpy()), rtol=1e-12)
    np.testing.assert_allclose(ms.jacrev(ms.jacrev(f))(x).asnumpy(), hessian.asnumpy(),
                               rtol=1e-12)
    v = T([1., 2.], np.float64)
    directional = lambda q: ms.jvp(f, q, v)[1]          # grad of (grad f . v) = H v
    np.testing.assert_allclose(ms.grad(directional)(x).asnumpy(), hessian.asnumpy() @ [1., 2.],
                               rtol=1e-12)


# ------------------------------------------------------------------ Taylor mode
class SinExp(nn.Cell):
    def construct(self, x):
        return ops.exp(ops.sin(x))


P = T([[1, 2], [3, 4]])


@pytest.mark.parametrize('order,want', [
    (1, [[1.25338078, -1.03311694], [-1.14003849, -0.306666106]]),
    (2, [[-1.27482045, -1.82747316], [0.966121018, 0.555514932]]),
    (3, [[-4.05153656, 3.67243528], [0.505350411, -0.520614028]]),
])
def test_derivative_of_a_cell(order, want):
    out, series = ops.derivative(SinExp(), P, order)
    np.testing.assert_allclose(out.asnumpy(), [[2.31977701, 2.4825778], [1.15156281, 0.469164103]],
                               rtol=1e-6)
    np.testing.assert_allclose(series.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_derivative_forms():
    _, d2 = ops.derivative(lambda x: x * x * x, P, 2)
    np.testing.assert_allclose(d2.asnumpy(), [[6., 12.], [18., 24.]])
    _, both = ops.derivative(lambda x, y: x * y, (P, P), 1)
    np.testing.assert_allclose(both.asnumpy(), [[2., 4.], [6., 8.]])
    _, d3 = ops.derivative(ops.log, P, 3)
    np.testing.assert_allclose(d3.asnumpy(), 2 / P.asnumpy() ** 3, rtol=1e-6)
    out, d1 = ops.derivative(lambda x: x * x * x, T([1, 2], np.int32), 1)
    assert out.dtype == ms.float32 and d1.asnumpy().tolist() == [3., 12.]
    outs, series = ops.derivative(lambda q: (ops.sin(q), ops.cos(q)), T([1., 2.]), 2)
    assert isinstance(outs, list) and isinstance(series, list)
    np.testing.assert_allclose(series[1].asnumpy(), [-0.540302277, 0.416146845], rtol=1e-6)
    with pytest.raises(ValueError, match="derivative: order must be at least 1, got 0"):
        ops.derivative(ops.sin, P, 0)
    with pytest.raises(TypeError, match="derivative: order must be an int, got float"):
        ops.derivative(ops.sin, P, 1.0)


def test_jet():
    x = T([1., 2.])
    s = T([[1., 1.], [2., 3.], [0.5, 0.5]])
    out, series = ops.jet(lambda q: q * q, x, s)
    np.testing.assert_allclose(out.asnumpy(), [1., 4.])
    np.testing.assert_allclose(series.asnumpy(), [[2., 4.], [6., 14.], [13., 20.]])
    _, sin_series = ops.jet(ops.sin, x, s)
    np.testing.assert_allclose(sin_series.asnumpy(), [[0.540302277, -0.416146845],
                                                      [0.239133596, -2.15773797],
                                                      [-5.31897688, -7.9756031]], rtol=1e-5)
    _, two = ops.jet(lambda a, b: a * b, (x, x), (s, s))
    np.testing.assert_allclose(two.asnumpy(), [[2., 4.], [6., 14.], [13., 20.]])
    _, first = ops.jet(lambda q: q * q, x, T([1., 1.]))
    assert first.shape == (1, 2)
    outs, both = ops.jet(lambda q: (ops.sin(q), ops.cos(q)), x, s)
    np.testing.assert_allclose(both[1].asnumpy()[2], [-2.8210783, 4.19997072], rtol=1e-5)
    with pytest.raises(TypeError, match="jet: primals and series must both be Tensors or both tuples, got Tensor and float"):
        ops.jet(ops.sin, x, 1.0)
    with pytest.raises(ValueError, match=r"jet: a series of shape \(2, 3\) for a primal of shape \(2,\)"):
        ops.jet(ops.sin, x, T(np.ones((2, 3))))
    with pytest.raises(ValueError, match="jet: 2 primals but 1 series"):
        ops.jet(lambda a, b: a * b, (x, x), (s,))
