"""Custom backward with Cell.bprop: both forms of SPEC section 6, hooks, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad


def T(*v, dtype=np.float32):
    return ms.Tensor(np.asarray(v, dtype))


class SmoothAbs(nn.Cell):
    """f(x, y) = sqrt(x*x + 1) * y, with a hand-written backward."""

    def construct(self, x, y):
        return ops.sqrt(x * x + 1) * y

    def bprop(self, x, y, out, dout):
        r = ops.sqrt(x * x + 1)
        return dout * y * x / r, dout * r


class SmoothAbsAuto(nn.Cell):
    def construct(self, x, y):
        return ops.sqrt(x * x + 1) * y


def test_fixed_form_matches_autograd_of_the_same_function():
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    g_custom = ms.grad(SmoothAbs(), grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(y))
    g_auto = ms.grad(SmoothAbsAuto(), grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(y))
    for a, b in zip(g_custom, g_auto):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-12)
    check_grad(lambda a, b: SmoothAbs()(a, b), x, y)


def test_bprop_replaces_the_recorded_backward():
    class Straight(nn.Cell):
        """Straight-through rounding: forward rounds, backward passes the gradient."""

        def construct(self, x):
            return ops.floor(x + 0.5)

        def bprop(self, x, out, dout):
            return (dout,)

    g = ms.grad(lambda x: Straight()(x) * 3)(T(0.2, 1.7))
    assert g.asnumpy().tolist() == [3.0, 3.0]


def test_args_form_with_internal_params_gives_parameter_gradients():
    class NetWithParam(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([2.0], dtype=np.float32)), name='weight')
            self.internal_params = [self.w]

        def construct(self, x):
            return self.w * x

        def bprop(self, *args):
            return (self.w * args[-1],), {self.w: args[0] * args[-1]}

    net = NetWithParam()
    gx, (gw,) = ms.grad(net, grad_position=0, weights=[net.w])(T(3.0))
    assert gx.asnumpy().tolist() == [2.0] and gw.asnumpy().tolist() == [3.0]
    out = net(T(5.0))
    out.backward()
    assert net.w.grad.asnumpy().tolist() == [5.0]


def test_parameters_without_internal_params_get_no_gradient_through_bprop():
    class Hidden(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T(2.0), name='w')

        def construct(self, x):
            return self.w * x

        def bprop(self, x, out, dout):
            return (dout * 2,)

    net = Hidden()
    gx, (gw,) = ms.grad(net, weights=[net.w])(T(3.0))
    assert gx.asnumpy().tolist() == [2.0] and gw.asnumpy().tolist() == [0.0]


def test_tuple_outputs_give_tuple_out_and_dout():
    class WithMask(nn.Cell):
        def construct(self, x):
            mask = x > 0
            return x * mask, mask

        def bprop(self, x, out, dout):
            _, mask = out
            dy, _ = dout
            return (dy * mask.astype(ms.float32) * 10,)

    cell = WithMask()
    cell.bprop_debug = True
    g = ms.grad(lambda x: cell(x)[0])(T(-1.0, 2.0))
    assert g.asnumpy().tolist() == [0.0, 10.0]


def test_hooks_on_a_cell_with_bprop_still_fire():
    cell = SmoothAbs()
    events = []
    cell.register_forward_hook(lambda c, i, o: events.append('fwd'))
    cell.register_backward_pre_hook(lambda c, go: events.append(('bpre', go[0].item())))
    cell.register_backward_hook(lambda c, gi, go: events.append(('bwd', gi[1].item())))
    ms.grad(cell, grad_position=(0, 1))(T(0.0), T(3.0))
    assert events == ['fwd', ('bpre', 1.0), ('bwd', 1.0)]


def test_non_tensor_inputs_get_none_gradients():
    class Scaled(nn.Cell):
        def construct(self, x, k):
            return x * k

        def bprop(self, x, k, out, dout):
            return dout * k, None

    g = ms.grad(lambda x: Scaled()(x, 4.0))(T(1.0))
    assert g.asnumpy().tolist() == [4.0]


def test_wrong_count_or_shape_names_the_cell():
    class TooFew(nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return (dout,)

    class WrongShape(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (T(1.0, 2.0, 3.0),)

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = WrongShape()

        def construct(self, x):
            return self.inner(x)

    with pytest.raises(RuntimeError, match=r"bprop of Cell 'TooFew' returned 1 gradient, expected 2"):
        ms.grad(TooFew(), (0, 1))(T(1.0), T(2.0))
    with pytest.raises(ValueError, match=r"bprop of Cell 'Outer.inner' returned gradient 0 of shape \(3,\), expected shape \(2,\)"):
        ms.grad(Outer())(T(1.0, 2.0))


def test_unknown_parameter_in_the_gradient_dict_is_an_error():
    class Stray(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T(1.0), name='w')
            self.other = ms.Parameter(T(1.0), name='other')
            self.internal_params = [self.w]

        def construct(self, x):
            return self.w * x

        def bprop(self, *args):
            return (args[-1],), {self.other: args[-1]}

    with pytest.raises(ValueError, match=r"returned gradients for parameters not in internal_params: \['other'\]"):
        ms.grad(Stray())(T(1.0))


def test_without_anything_requiring_grad_bprop_cells_just_run_construct():
    out = SmoothAbs()(T(0.0), T(2.0))
    assert out.grad_fn is None and out.asnumpy().tolist() == [2.0]
