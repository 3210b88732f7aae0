"""ms.grad, ms.value_and_grad, ms.vjp and ops.GradOperation in every form of SPEC section 4."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def T(v):
    return ms.Tensor(np.asarray(v, dtype=np.float32))


def f2(x, y):
    return x * x * y


X, Y = T([1., 2.]), T([3., 4.])
W = ms.Parameter(T([2., 5.]), name='w')


def fw(x, y):
    return x * W + y


def test_int_position_returns_one_tensor():
    g = ms.grad(f2)(X, Y)
    assert isinstance(g, ms.Tensor)
    np.testing.assert_allclose(g.asnumpy(), [6., 16.])
    np.testing.assert_allclose(ms.grad(f2, 1)(X, Y).asnumpy(), [1., 4.])


def test_tuple_position_returns_tuple_and_one_element_tuple_returns_tensor():
    gx, gy = ms.grad(f2, grad_position=(0, 1))(X, Y)
    np.testing.assert_allclose(gx.asnumpy(), [6., 16.])
    np.testing.assert_allclose(gy.asnumpy(), [1., 4.])
    g = ms.grad(f2, grad_position=(1,))(X, Y)
    assert isinstance(g, ms.Tensor)
    np.testing.assert_allclose(g.asnumpy(), [1., 4.])


def test_weights_only_and_both():
    gw = ms.grad(fw, grad_position=None, weights=[W])(X, Y)
    assert isinstance(gw, tuple) and len(gw) == 1
    np.testing.assert_allclose(gw[0].asnumpy(), X.asnumpy())
    single = ms.grad(fw, grad_position=None, weights=W)(X, Y)
    assert isinstance(single, ms.Tensor)
    (gx, gy), (gw,) = ms.grad(fw, grad_position=(0, 1), weights=[W])(X, Y)
    np.testing.assert_allclose(gx.asnumpy(), [2., 5.])
    np.testing.assert_allclose(gy.asnumpy(), [1., 1.])
    np.testing.assert_allclose(gw.asnumpy(), [1., 2.])
    assert W.grad is None       # functional grad never touches .grad


def test_several_outputs_add_their_all_ones_gradients():
    g = ms.grad(lambda x: (x * 2, x * x))(X)
    np.testing.assert_allclose(g.asnumpy(), 2 + 2 * X.asnumpy())


def test_unreached_input_gets_zeros():
    gx, gy = ms.grad(lambda x, y: x * 3, grad_position=(0, 1))(X, Y)
    np.testing.assert_array_equal(gy.asnumpy(), [0., 0.])
    assert gy.dtype == ms.float32


def test_constant_output_gives_zero_gradients():
    g = ms.grad(lambda x: T([1., 1.]))(X)
    np.testing.assert_array_equal(g.asnumpy(), [0., 0.])


def test_has_aux_for_grad_and_value_and_grad():
    fn = lambda x: (x * x, x + 1, 'tag')
    g, aux = ms.grad(fn, has_aux=True)(X)
    np.testing.assert_allclose(g.asnumpy(), [2., 4.])
    np.testing.assert_allclose(aux[0].asnumpy(), [2., 3.])
    assert aux[1] == 'tag' and not aux[0].requires_grad
    (value, a1, a2), g2 = ms.value_and_grad(fn, has_aux=True)(X)
    np.testing.assert_allclose(value.asnumpy(), [1., 4.])
    np.testing.assert_allclose(g2.asnumpy(), [2., 4.])
    with pytest.raises(ValueError, match="has_aux=True needs fn to return a tuple"):
        ms.grad(lambda x: x * 2, has_aux=True)(X)


def test_value_and_grad_returns_value_without_graph():
    value, g = ms.value_and_grad(f2, grad_position=(0, 1))(X, Y)
    np.testing.assert_allclose(value.asnumpy(), [3., 16.])
    assert not value.requires_grad
    np.testing.assert_allclose(g[0].asnumpy(), [6., 16.])


def test_return_ids_pairs_gradients_with_positions_and_names():
    (px, gx), (name, gw) = ms.grad(fw, grad_position=0, weights=W, return_ids=True)(X, Y)
    assert px == 0 and name == 'w'
    np.testing.assert_allclose(gw.asnumpy(), [1., 2.])


def test_keyword_arguments_pass_through():
    g = ms.grad(lambda x, scale=1.0: x * scale)(X, scale=3.0)
    np.testing.assert_allclose(g.asnumpy(), [3., 3.])


def test_same_tensor_at_two_positions_gets_the_total_gradient_at_each():
    # MindSpore differentiates with respect to the tensor object: [7, 7] at both positions
    gx, gy = ms.grad(lambda a, b: a * 2 + b * 5, grad_position=(0, 1))(X, X)
    np.testing.assert_allclose(gx.asnumpy(), [7., 7.])
    np.testing.assert_allclose(gy.asnumpy(), [7., 7.])
    np.testing.assert_allclose(ms.grad(lambda a, b: a * 2 + b * 5, 1)(X, X).asnumpy(), [7., 7.])


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="grad_position 2 is out of range for a function called with 2 arguments"):
        ms.grad(f2, grad_position=(0, 2))(X, Y)
    with pytest.raises(ValueError, match="grad_position and weights cannot both be None"):
        ms.grad(f2, grad_position=None)
    with pytest.raises(TypeError, match="grad_position must be an int, a tuple of ints or None, got list"):
        ms.grad(f2, grad_position=[0])
    with pytest.raises(TypeError, match="every element of grad_position must be an int, got str"):
        ms.grad(f2, grad_position=('a',))
    with pytest.raises(ValueError, match="grad_position must be >= 0, got -1"):
        ms.grad(f2, grad_position=-1)
    with pytest.raises(ValueError, match=r"grad_position \(0, 0\) has duplicate positions"):
        ms.grad(f2, grad_position=(0, 0))
    with pytest.raises(ValueError, match="grad_position is an empty tuple"):
        ms.grad(f2, grad_position=())
    with pytest.raises(TypeError, match="weights must be a Parameter"):
        ms.grad(f2, weights=3)
    with pytest.raises(TypeError, match="grad: has_aux must be a bool, got int"):
        ms.grad(f2, has_aux=1)
    with pytest.raises(TypeError, match="value_and_grad: return_ids must be a bool, got int"):
        ms.value_and_grad(f2, return_ids=1)
    with pytest.raises(TypeError, match="grad: fn must be a function or a Cell, got int"):
        ms.grad(3)


def test_vjp_single_and_several_inputs_and_repeated_calls():
    out, vjp_fn = ms.vjp(lambda x, y: x ** 3 + y, T([[1, 2], [3, 4]]), T([[1, 2], [3, 4]]))
    np.testing.assert_allclose(out.asnumpy(), [[2., 10.], [30., 68.]])
    gx, gy = vjp_fn(T([[1, 1], [1, 1]]))
    np.testing.assert_allclose(gx.asnumpy(), [[3., 12.], [27., 48.]])
    np.testing.assert_allclose(gy.asnumpy(), [[1., 1.], [1., 1.]])
    gx2, _ = vjp_fn(T([[2, 0], [0, 2]]))
    np.testing.assert_allclose(gx2.asnumpy(), [[6., 0.], [0., 96.]])
    out1, vjp1, aux = ms.vjp(lambda x: (x * 2, x + 1), T([1.]), has_aux=True)
    (g1,) = vjp1(T([1.]))               # one input: a one-element tuple, as in MindSpore
    np.testing.assert_allclose(g1.asnumpy(), [2.])
    np.testing.assert_allclose(aux.asnumpy(), [2.])
    with pytest.raises(ValueError, match="vjp_fn: cotangent of shape \\(3,\\) does not match the output shape \\(1,\\)"):
        vjp1(T([1., 2., 3.]))


def test_grad_operation_forms():
    np.testing.assert_allclose(ops.GradOperation()(f2)(X, Y).asnumpy(), [6., 16.])
    gx, gy = ops.GradOperation(get_all=True)(f2)(X, Y)
    np.testing.assert_allclose(gy.asnumpy(), [1., 4.])
    (gw,) = ops.GradOperation(get_by_list=True)(fw, [W])(X, Y)
    np.testing.assert_allclose(ops.GradOperation(get_by_list=True)(fw, W)(X, Y).asnumpy(), [1., 2.])
    np.testing.assert_allclose(gw.asnumpy(), [1., 2.])
    (ins, ws) = ops.GradOperation(get_all=True, get_by_list=True)(fw, [W])(X, Y)
    assert len(ins) == 2 and len(ws) == 1
    g = ops.GradOperation(sens_param=True)(f2)(X, Y, T([10., 100.]))
    np.testing.assert_allclose(g.asnumpy(), [60., 1600.])
    with pytest.raises(ValueError, match="sensitivity of shape \\(3,\\) does not match the output shape \\(2,\\)"):
        ops.GradOperation(sens_param=True)(f2)(X, Y, T([1., 2., 3.]))


def test_grad_of_a_function_used_inside_no_grad_still_works():
    with ms.no_grad():
        g = ms.grad(f2)(X, Y)
    np.testing.assert_allclose(g.asnumpy(), [6., 16.])
