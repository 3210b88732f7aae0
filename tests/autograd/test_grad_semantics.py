"""grad, value_and_grad, vjp, GradOperation and get_grad give MindSpore 2.10's results.

Every expected value here was produced by MindSpore 2.10 (CPU, PyNative) on the same inputs.
"""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops


def T(v, dtype=np.float32):
    return ms.Tensor(np.asarray(v, dtype=dtype))


def P(v, name, requires_grad=True):
    return ms.Parameter(T(v), name=name, requires_grad=requires_grad)


X3 = T([1., 2., 3.])


# ------------------------------------------------------------------ structured outputs
def test_dict_output_adds_the_gradients_of_its_values():
    g = ms.grad(lambda x: {'a': x * x, 'b': x * 3})(X3)
    np.testing.assert_allclose(g.asnumpy(), [5., 7., 9.])
    nested = ms.grad(lambda x: {'a': x * x, 'b': (x * 3, x * 2)})(X3)
    np.testing.assert_allclose(nested.asnumpy(), [7., 9., 11.])


def test_dict_output_of_a_cell_and_of_grad_operation():
    class DictNet(nn.Cell):
        def construct(self, x):
            return {'a': x * x, 'b': x * 3}

    np.testing.assert_allclose(ms.grad(DictNet())(X3).asnumpy(), [5., 7., 9.])
    np.testing.assert_allclose(ops.GradOperation()(DictNet())(X3).asnumpy(), [5., 7., 9.])
    value, g = ms.value_and_grad(DictNet())(X3)
    assert list(value) == ['a', 'b'] and not value['a'].requires_grad
    np.testing.assert_allclose(value['a'].asnumpy(), [1., 4., 9.])
    np.testing.assert_allclose(g.asnumpy(), [5., 7., 9.])


def test_list_outputs_and_non_tensor_outputs():
    np.testing.assert_allclose(ms.grad(lambda x: [x * x, x * 3])(X3).asnumpy(), [5., 7., 9.])
    np.testing.assert_allclose(ms.grad(lambda x: (x * x, 3, None))(X3).asnumpy(), [2., 4., 6.])
    np.testing.assert_array_equal(ms.grad(lambda x: 2.0)(X3).asnumpy(), [0., 0., 0.])


def test_pair_outputs_of_mint_max_min_and_sort():
    # mint.max/min/sort return (values, indices): the gradient flows through the values only
    x = T([[3., 1., 2.], [0., 5., 4.]])
    np.testing.assert_array_equal(ops.grad(lambda v: ms.mint.max(v, 1), 0)(x).asnumpy(),
                                  [[1., 0., 0.], [0., 1., 0.]])
    np.testing.assert_array_equal(ops.grad(lambda v: ms.mint.min(v, 1, True), 0)(x).asnumpy(),
                                  [[0., 1., 0.], [1., 0., 0.]])
    g = ops.grad(lambda v: ms.mint.sort(v, dim=-1, descending=True), (0,))(x)
    np.testing.assert_array_equal(g.asnumpy(), np.ones((2, 3), np.float32))
    values, indices = ops.stop_gradient(ms.mint.max(x, 1))
    assert values.asnumpy().tolist() == [3., 5.] and indices.asnumpy().tolist() == [0, 1]


def test_dict_sensitivity_matches_a_dict_output():
    y = T([4., 5., 6.])
    fn = lambda a: {'k': a * a, 'j': a}
    g = ms.grad(fn, 0, sens_param=True)(y, {'k': y, 'j': y})
    np.testing.assert_allclose(g.asnumpy(), [36., 55., 78.])
    g2 = ms.grad(fn, 0, sens_param=True)(y, (y, y))
    np.testing.assert_allclose(g2.asnumpy(), [36., 55., 78.])


# ------------------------------------------------------------------ vjp
def test_vjp_with_one_input_returns_a_one_element_tuple():
    out, vjp_fn = ms.vjp(lambda x: x * x, X3)
    grads = vjp_fn(T([1., 1., 1.]))
    assert isinstance(grads, tuple) and len(grads) == 1
    np.testing.assert_allclose(grads[0].asnumpy(), [2., 4., 6.])
    (again,) = vjp_fn(T([2., 2., 2.]))
    np.testing.assert_allclose(again.asnumpy(), [4., 8., 12.])


def test_vjp_with_weights_and_aux():
    w = P([2., 2., 2.], 'w')
    _, vjp_fn = ms.vjp(lambda x: x * w, X3, weights=w)
    (gx,), gw = vjp_fn(T([1., 1., 1.]))
    np.testing.assert_allclose(gx.asnumpy(), [2., 2., 2.])
    np.testing.assert_allclose(gw.asnumpy(), [1., 2., 3.])
    _, vjp_list = ms.vjp(lambda x: x * w, X3, weights=[w])
    (gx,), (gw,) = vjp_list(T([1., 1., 1.]))
    np.testing.assert_allclose(gw.asnumpy(), [1., 2., 3.])
    out, vjp_aux, aux = ms.vjp(lambda x: (x * x, x + 1, x + 2), X3, has_aux=True)
    np.testing.assert_allclose(out.asnumpy(), [1., 4., 9.])
    assert isinstance(aux, tuple) and len(aux) == 2
    np.testing.assert_allclose(aux[1].asnumpy(), [3., 4., 5.])
    np.testing.assert_allclose(vjp_aux(T([1., 1., 1.]))[0].asnumpy(), [2., 4., 6.])


def test_vjp_with_two_outputs_takes_cotangents_apart_or_as_a_tuple():
    x, y = T([1., 2., 3.]), T([4., 5., 6.])
    _, vjp_fn = ms.vjp(lambda a, b: (a * b, a + b), x, y)
    ones = T([1., 1., 1.])
    for gx, gy in (vjp_fn(ones, ones), vjp_fn((ones, ones))):
        np.testing.assert_allclose(gx.asnumpy(), [5., 6., 7.])
        np.testing.assert_allclose(gy.asnumpy(), [2., 3., 4.])


def test_vjp_bad_input_and_cotangents():
    _, vjp_fn = ms.vjp(lambda x: x * x, X3)
    with pytest.raises(TypeError, match="vjp: every input must be a Tensor, input 0 is float"):
        ms.vjp(lambda x: x * x, 3.0)
    with pytest.raises(TypeError, match="vjp_fn: cotangent 0 must be a Tensor, got float"):
        vjp_fn(3.0)
    with pytest.raises(ValueError, match=r"vjp_fn: cotangent of shape \(2,\) does not match the output shape \(3,\)"):
        vjp_fn(T([1., 1.]))
    with pytest.raises(TypeError, match="vjp_fn: cotangent of dtype Float64 does not match the output dtype Float32"):
        vjp_fn(T([1., 1., 1.], np.float64))
    with pytest.raises(ValueError, match="vjp_fn: got 2 cotangents for 1 output"):
        vjp_fn(T([1., 1., 1.]), T([1., 1., 1.]))
    with pytest.raises(TypeError, match="vjp: has_aux must be a bool, got int"):
        ms.vjp(lambda x: x, X3, has_aux=1)


# ------------------------------------------------------------------ GradOperation
def test_grad_operation_by_list_without_weights_takes_the_parameters_the_output_uses():
    w, b = P([2., 2., 2.], 'w'), P([1., 1., 1.], 'b')
    d = P([7., 7., 7.], 'd')
    frozen = P([5., 5., 5.], 'frozen', requires_grad=False)

    def forward_order(x):       # w is used first although the sum lists b first
        y1 = x * w * 3
        y2 = x * b * 2 * frozen
        return y2 + y1

    gw, gb = ops.GradOperation(get_by_list=True)(forward_order)(X3)
    np.testing.assert_allclose(gw.asnumpy(), [3., 6., 9.])
    np.testing.assert_allclose(gb.asnumpy(), [10., 20., 30.])

    def off_path(x):            # d is used, but not on the output's path
        _ = d * 2
        return x * w * 3

    (only_w,) = ops.GradOperation(get_by_list=True)(off_path)(X3)
    np.testing.assert_allclose(only_w.asnumpy(), [3., 6., 9.])

    def zero_gradient(x):       # d is on the path with a zero gradient: it is included
        return x * w * 3 + d.sum() * 0

    gw, gd = ops.GradOperation(get_by_list=True)(zero_gradient)(X3)
    np.testing.assert_array_equal(gd.asnumpy(), [0., 0., 0.])


def test_grad_operation_by_list_without_weights_on_a_cell():
    outside = P([7., 7., 7.], 'outside')

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P([2., 2., 2.], 'w')
            self.b = P([2., 2., 2.], 'b')
            self.unused = P([2., 2.], 'unused')

        def construct(self, x):
            return x * self.b * 5 + x * self.w * outside

    grads = ops.GradOperation(get_by_list=True)(Net())(X3)
    assert len(grads) == 3     # b, w, outside: not the unused parameter
    np.testing.assert_allclose(grads[0].asnumpy(), [5., 10., 15.])
    np.testing.assert_allclose(grads[1].asnumpy(), [7., 14., 21.])
    np.testing.assert_allclose(grads[2].asnumpy(), [2., 4., 6.])
    ins, ws = ops.GradOperation(get_all=True, get_by_list=True)(Net(), None)(X3)
    np.testing.assert_allclose(ins[0].asnumpy(), [24., 24., 24.])
    assert len(ws) == 3
    assert ops.GradOperation(get_by_list=True)(lambda x: x * 2)(X3) == ()


def test_grad_operation_with_one_parameter_returns_one_tensor():
    w = P([2., 5.], 'w')
    g = ops.GradOperation(get_by_list=True)(lambda x: x * w, w)(T([1., 2.]))
    assert isinstance(g, ms.Tensor)
    np.testing.assert_allclose(g.asnumpy(), [1., 2.])
    ins, gw = ops.GradOperation(True, True)(lambda a, b: a * b * w, w)(2.0, T([3., 4.]))
    np.testing.assert_allclose(ins[0].asnumpy(), [4., 10.])
    np.testing.assert_allclose(gw.asnumpy(), [6., 8.])


def test_grad_operation_get_all_counts_keyword_arguments_in_the_order_given():
    x, y, z = X3, T([4., 5., 6.]), T([7., 8., 9.])
    f = lambda x, y, z=None: x * y * (z if z is not None else 1)
    gx, gy = ops.GradOperation(get_all=True)(f)(x, y=y)
    np.testing.assert_allclose(gx.asnumpy(), [4., 5., 6.])
    np.testing.assert_allclose(gy.asnumpy(), [1., 2., 3.])
    gx, gz, gy = ops.GradOperation(get_all=True)(f)(x, z=z, y=y)
    np.testing.assert_allclose(gx.asnumpy(), [28., 40., 54.])
    np.testing.assert_allclose(gz.asnumpy(), [4., 10., 18.])
    np.testing.assert_allclose(gy.asnumpy(), [7., 16., 27.])
    np.testing.assert_allclose(ops.GradOperation()(f)(x=x, y=y, z=z).asnumpy(), [28., 40., 54.])


def test_grad_positions_count_keyword_arguments_too():
    x, y, z = X3, T([4., 5., 6.]), T([7., 8., 9.])
    f = lambda x, y, z=None: x * y * (z if z is not None else 1)
    gx, gy, gz = ms.grad(f, (0, 1, 2))(x, y, z=z)
    np.testing.assert_allclose(gz.asnumpy(), [4., 10., 18.])
    np.testing.assert_allclose(ms.grad(f, 0)(x=x, y=y).asnumpy(), [4., 5., 6.])


def test_grad_operation_sensitivity_positional_or_keyword():
    x, y, s = T([1., 2.]), T([3., 4.]), T([10., 100.])
    f = lambda a, y: a * a * y
    for g in (ops.GradOperation(sens_param=True)(f)(x, y, sens=s),
              ops.GradOperation(sens_param=True)(f)(x, y, s),
              ops.GradOperation(sens_param=True)(f)(x, y=y, sens=s)):
        np.testing.assert_allclose(g.asnumpy(), [60., 1600.])
    gx, gy = ops.GradOperation(get_all=True, sens_param=True)(f)(x, y, sens=s)
    np.testing.assert_allclose(gy.asnumpy(), [10., 400.])
    two = ops.GradOperation(sens_param=True)(lambda a, b: (a * b, a + b))(x, y, (s, s))
    np.testing.assert_allclose(two.asnumpy(), [40., 500.])


def test_grad_operation_of_a_function_without_inputs_gives_an_empty_tuple():
    assert ops.GradOperation()(lambda: X3 * 2)() == ()        # MindSpore 2.10


def test_grad_operation_errors():
    with pytest.raises(TypeError, match="GradOperation: sens_param must be a bool, got int"):
        ops.GradOperation(sens_param=1)
    with pytest.raises(TypeError, match="GradOperation: get_all must be a bool, got int"):
        ops.GradOperation(get_all=1)
    with pytest.raises(TypeError, match="GradOperation: sens_param=True needs the sensitivity"):
        ops.GradOperation(sens_param=True)(lambda: 1)()
    with pytest.raises(ValueError, match=r"GradOperation: got 1 sensitivity for 2 outputs"):
        ops.GradOperation(sens_param=True)(lambda a: (a, a))(X3, X3)


# ------------------------------------------------------------------ sens_param
def test_grad_and_value_and_grad_take_a_sensitivity():
    x, y, s = T([1., 2.]), T([3., 4.]), T([10., 100.])
    f = lambda a, b: a * a * b
    np.testing.assert_allclose(ms.grad(f, 0, sens_param=True)(x, y, s).asnumpy(), [60., 1600.])
    np.testing.assert_allclose(ms.grad(f, 0, sens_param=True)(x, y, sens=s).asnumpy(),
                               [60., 1600.])
    gx, gy = ms.grad(f, (0, 1), sens_param=True)(x, y, s)
    np.testing.assert_allclose(gy.asnumpy(), [10., 400.])
    value, g = ms.value_and_grad(f, 0, sens_param=True)(x, y, sens=s)
    np.testing.assert_allclose(value.asnumpy(), [3., 16.])
    np.testing.assert_allclose(g.asnumpy(), [60., 1600.])
    g, aux = ms.grad(lambda a, b: (a * b, a + b), 0, has_aux=True, sens_param=True)(x, y, s)
    np.testing.assert_allclose(g.asnumpy(), [30., 400.])
    np.testing.assert_allclose(aux[0].asnumpy(), [4., 6.])
    w = ms.Parameter(T([2., 5.]), name='w')
    gw = ms.grad(lambda a: a * w, None, w, sens_param=True)(x, s)
    np.testing.assert_allclose(gw.asnumpy(), [10., 200.])
    scalar = ms.grad(lambda a: (a * a).sum(), 0, sens_param=True)(T([3., 4.]), 2.0)
    np.testing.assert_allclose(scalar.asnumpy(), [12., 16.])


def test_sensitivity_errors():
    f = lambda a, b: a * a * b
    x, y = T([1., 2.]), T([3., 4.])
    with pytest.raises(ValueError, match=r"grad: sensitivity of shape \(3,\) does not match the output shape \(2,\)"):
        ms.grad(f, 0, sens_param=True)(x, y, T([1., 1., 1.]))
    with pytest.raises(TypeError, match="grad: sensitivity of dtype Float64 does not match the output dtype Float32"):
        ms.grad(f, 0, sens_param=True)(x, y, T([1., 1.], np.float64))
    with pytest.raises(ValueError, match=r"grad: sensitivity of shape \(\) does not match the output shape \(2,\)"):
        ms.grad(f, 0, sens_param=True)(x, y, 2.0)
    with pytest.raises(TypeError, match="grad: sens_param must be a bool, got int"):
        ms.grad(f, 0, sens_param=1)


# ------------------------------------------------------------------ what is differentiated
def test_integer_and_bool_arguments_get_gradients_in_their_dtype():
    g = ms.grad(lambda a: (a * 1.5) ** 2)(T([1, 2, 3], np.int32))
    assert g.dtype == ms.int32 and g.asnumpy().tolist() == [4, 9, 13]
    g64 = ms.grad(lambda a: a * a)(T([1, 2, 3], np.int64))
    assert g64.dtype == ms.int64 and g64.asnumpy().tolist() == [2, 4, 6]
    assert ms.grad(lambda a: a * -0.7)(T([1, 2], np.int32)).asnumpy().tolist() == [0, 0]
    gb = ms.grad(lambda a: a * 1.5)(T([True, False], np.bool_))
    assert gb.dtype == ms.bool_ and gb.asnumpy().tolist() == [True, True]
    value, g = ms.value_and_grad(lambda a: a * a)(T([1, 2], np.int32))
    assert value.asnumpy().tolist() == [1, 4] and g.asnumpy().tolist() == [2, 4]
    cast = ms.grad(lambda a: a.astype(ms.float32) * 2.5)(T([1, 2], np.int32))
    assert cast.asnumpy().tolist() == [2, 2]
    unused = ms.grad(lambda a, b: b * 2, 0)(T([1, 2], np.int32), T([3., 4.]))
    assert unused.dtype == ms.int32 and unused.asnumpy().tolist() == [0, 0]
    (gv,) = ms.vjp(lambda a: a * 2.5, T([1, 2], np.int32))[1](T([1., 1.]))
    assert gv.asnumpy().tolist() == [2, 2]


def test_arguments_that_are_not_tensors_are_skipped():
    y = T([3., 4.])
    f = lambda a, b: a * b
    only = ms.grad(f, (0, 1))(2.0, y)
    assert isinstance(only, ms.Tensor)
    np.testing.assert_allclose(only.asnumpy(), [2., 2.])
    assert ms.grad(f, 1)(y, 2.0) == ()
    assert ops.GradOperation()(f)(2.0, y) == ()
    (g,) = ops.GradOperation(get_all=True)(f)(2.0, y)
    np.testing.assert_allclose(g.asnumpy(), [2., 2.])
    value, empty = ms.value_and_grad(f, 0)(2.0, y)
    np.testing.assert_allclose(value.asnumpy(), [6., 8.])
    assert empty == ()
    w = ms.Parameter(T([2., 5.]), name='w')
    ins, gw = ms.grad(lambda a, b: a * b * w, 0, w)(2.0, y)
    assert ins == ()
    np.testing.assert_allclose(gw.asnumpy(), [6., 8.])


def test_bool_positions_count_as_ints():
    g = ms.grad(lambda a, b: a * b, True)(T([1., 2.]), T([3., 4.]))
    np.testing.assert_allclose(g.asnumpy(), [1., 2.])


# ------------------------------------------------------------------ hooks on weights
def test_hook_on_a_weight_no_gradient_reaches_runs_on_zeros():
    d = P([7., 7., 7.], 'd')
    w = P([2., 2., 2.], 'w')
    seen = []
    d.register_hook(lambda g: seen.append(('d', g.asnumpy().tolist())))
    w.register_hook(lambda g: seen.append(('w', g.asnumpy().tolist())))

    def f(x):
        _ = d * 2               # used in forward, off the output's path
        return x * w

    gw, gd = ms.grad(f, None, [w, d])(X3)
    assert seen == [('w', [1., 2., 3.]), ('d', [0., 0., 0.])]
    np.testing.assert_array_equal(gd.asnumpy(), [0., 0., 0.])
    seen.clear()
    ms.grad(f, None, [w])(X3)   # a parameter not asked for: its hook does not run
    assert seen == [('w', [1., 2., 3.])]
    seen.clear()
    ms.grad(f, 0)(X3)
    assert seen == []


def test_hook_on_an_unreached_weight_may_replace_its_zeros():
    e = P([9., 9., 9.], 'e')
    e.register_hook(lambda g: g + 5)
    (ge,) = ms.grad(lambda x: x * 3, None, [e])(X3)
    np.testing.assert_allclose(ge.asnumpy(), [5., 5., 5.])


def test_hook_on_an_unreached_input_does_not_run():
    x, y = T([1., 2.]), T([3., 4.])
    seen = []
    x.register_hook(lambda g: seen.append('x'))
    y.register_hook(lambda g: seen.append('y'))
    gx, gy = ms.grad(lambda a, b: a * 3, (0, 1))(x, y)
    assert seen == ['x']
    np.testing.assert_array_equal(gy.asnumpy(), [0., 0.])


# ------------------------------------------------------------------ return_ids and get_grad
def test_return_ids_and_get_grad():
    x, y = T([1., 2.]), T([3., 4.])
    w, b = P([2., 5.], 'w'), P([1., 1.], 'b')
    fw = lambda x, y: x * w + y * b
    grads = ms.grad(fw, (0, 1), [w, b], return_ids=True)(x, y)
    (p0, g0), (p1, g1) = grads[0]
    (nw, gw), (nb, gb) = grads[1]
    assert (p0, p1, nw, nb) == (0, 1, 'w', 'b')
    np.testing.assert_allclose(ms.get_grad(grads, 0).asnumpy(), [2., 5.])
    np.testing.assert_allclose(ms.get_grad(grads, 1).asnumpy(), [1., 1.])
    np.testing.assert_allclose(ms.get_grad(grads, w).asnumpy(), [1., 2.])
    np.testing.assert_allclose(ms.get_grad(grads, b).asnumpy(), [3., 4.])
    same_name = ms.Parameter(T([0., 0.]), name='w')
    np.testing.assert_allclose(ms.get_grad(grads, same_name).asnumpy(), [1., 2.])
    np.testing.assert_allclose(ops.get_grad(grads, True).asnumpy(), [1., 1.])
    value, vgrads = ms.value_and_grad(fw, (0, 1), [w, b], return_ids=True)(x, y)
    np.testing.assert_allclose(ms.get_grad(vgrads, b).asnumpy(), [3., 4.])
    single = ms.grad(fw, 0, return_ids=True)(x, y)
    assert single[0] == 0
    np.testing.assert_allclose(ms.get_grad(single, 0).asnumpy(), [2., 5.])
    np.testing.assert_allclose(ms.get_grad((((0, x),),), 0).asnumpy(), [1., 2.])


def test_get_grad_errors():
    x = T([1., 2.])
    grads = ms.grad(lambda a, b: a * b, (0, 1), return_ids=True)(x, x)
    with pytest.raises(TypeError, match="get_grad: identifier must be an int position or a Parameter, got str"):
        ms.get_grad(grads, 'w')
    with pytest.raises(TypeError, match="get_grad: identifier must be an int position or a Parameter, got float"):
        ms.get_grad(grads, 1.0)
    with pytest.raises(RuntimeError, match="get_grad: no gradient for position or Parameter 5"):
        ms.get_grad(grads, 5)
    with pytest.raises(RuntimeError, match="get_grad: no gradient for position or Parameter 1"):
        ms.get_grad(ms.grad(lambda a: a * 2, 0, return_ids=True)(x), 1)
    with pytest.raises(RuntimeError, match="get_grad: no gradient for position or Parameter 0"):
        ms.get_grad(ms.grad(lambda a: a * 2)(x), 0)
    with pytest.raises(RuntimeError, match="get_grad: no gradient for position or Parameter 1"):
        ms.get_grad([(0, x), (1, x)], 1)


def test_the_transforms_are_the_same_objects_in_ops_and_at_the_top_level():
    for name in ('grad', 'value_and_grad', 'vjp', 'jvp', 'vmap', 'jacfwd', 'jacrev', 'get_grad'):
        assert getattr(ms, name) is getattr(ops, name)
    for name in ('derivative', 'jet', 'linearize'):
        assert callable(getattr(ops, name)) and getattr(ops.functional, name) is getattr(ops, name)
