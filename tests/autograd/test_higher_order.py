"""Gradients of gradients: the same backward rules run on Tensors and record a graph."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def test_second_derivative_of_sin_is_minus_sin():
    x = ms.Tensor(np.linspace(-3, 3, 7), ms.float64)
    d2 = ms.grad(ms.grad(ops.sin))(x)
    np.testing.assert_allclose(d2.asnumpy(), -np.sin(x.asnumpy()), rtol=1e-12)


def test_third_derivative_of_x_to_the_fourth():
    x = ms.Tensor([-2., 0.5, 1.5], ms.float64)
    f = lambda t: t ** 4
    d3 = ms.grad(ms.grad(ms.grad(f)))(x)
    np.testing.assert_allclose(d3.asnumpy(), 24 * x.asnumpy(), rtol=1e-12)
    d4 = ms.grad(ms.grad(ms.grad(ms.grad(f))))(x)
    np.testing.assert_allclose(d4.asnumpy(), [24., 24., 24.], rtol=1e-12)


def test_hessian_vector_product_of_a_quadratic_form():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 5))
    b = rng.standard_normal(5)
    A, B = ms.Tensor(a), ms.Tensor(b)
    v = rng.standard_normal(5)

    def f(x):
        return ops.sum(x * ops.matmul(A, x)) * 0.5 + ops.sum(B * x)

    def grad_dot_v(x):
        return ops.sum(ms.grad(f)(x) * ms.Tensor(v))

    x = ms.Tensor(rng.standard_normal(5))
    hvp = ms.grad(grad_dot_v)(x)
    np.testing.assert_allclose(hvp.asnumpy(), 0.5 * (a + a.T) @ v, rtol=1e-10)


def test_backward_with_create_graph_then_backward_of_the_gradient():
    x = ms.Tensor([1.5, -0.5], ms.float64, requires_grad=True)
    y = ops.sum(x ** 3)
    y.backward(create_graph=True)
    g = x.grad
    assert g.requires_grad
    np.testing.assert_allclose(g.asnumpy(), 3 * x.asnumpy() ** 2)
    x.grad = None
    ops.sum(g).backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * x.asnumpy())


def test_gradient_penalty_reaches_the_weights():
    w = ms.Parameter(ms.Tensor([[0.5, -1.0], [2.0, 0.25]], ms.float64), name='w')
    x = ms.Tensor([[1.0, 2.0]], ms.float64, requires_grad=True)

    def net(inp):
        return ops.sum(ops.tanh(ops.matmul(inp, w)))

    gx = ms.grad(net)(x)                       # x requires grad: the gradient keeps its graph
    penalty = ops.sum(gx * gx)
    penalty.backward()
    # check d(penalty)/dw against finite differences of the same expression
    def penalty_at(wv):
        h = np.tanh(x.asnumpy() @ wv)
        g = (1 - h ** 2) @ wv.T
        return np.sum(g * g)
    eps, wv = 1e-6, w.asnumpy().copy()
    num = np.zeros_like(wv)
    for i in np.ndindex(wv.shape):
        p, m = wv.copy(), wv.copy()
        p[i] += eps
        m[i] -= eps
        num[i] = (penalty_at(p) - penalty_at(m)) / (2 * eps)
    np.testing.assert_allclose(w.grad.asnumpy(), num, rtol=1e-6, atol=1e-8)


def test_mixed_partial_derivatives():
    f = lambda x, y: x * x * y + ops.sin(x * y)
    x, y = ms.Tensor(0.7, ms.float64), ms.Tensor(-1.3, ms.float64)
    dxy = ms.grad(ms.grad(f, grad_position=0), grad_position=1)(x, y)
    xv, yv = 0.7, -1.3
    want = 2 * xv + np.cos(xv * yv) - xv * yv * np.sin(xv * yv)
    assert dxy.item() == pytest.approx(want, rel=1e-12)
