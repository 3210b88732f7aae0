"""``ops.operations._grad_ops``: the backward Primitives MindSpore's tests call directly, with
the values MindSpore 2.10 gives on the CPU for the same inputs."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.ops.operations import _grad_ops as G

A = ms.Tensor(np.array([-0.5, 0.25, 0.75, 7.0], np.float32))
B = ms.Tensor(np.array([0.5, -2.0, 3.0, 1.5], np.float32))
P = ms.Tensor(np.array([0.5, 0.25, 0.75, 0.9], np.float32))
BIG = ms.Tensor(np.array([1.5, 2.0, 3.0, 1.2], np.float32))

ELEMENTWISE_GRADS = [
    ('ReluGrad', (B, A), [0.0, -2.0, 3.0, 1.5]),
    ('ReLU6Grad', (B, A), [0.0, -2.0, 3.0, 0.0]),
    ('SigmoidGrad', (P, B), [0.125, -0.375, 0.5625, 0.13500002]),
    ('TanhGrad', (P, B), [0.375, -1.875, 1.3125, 0.28500006]),
    ('SqrtGrad', (BIG, B), [0.16666667, -0.5, 0.5, 0.625]),
    ('RsqrtGrad', (BIG, B), [-0.84375, 8.0, -40.5, -1.2960001]),
    ('ReciprocalGrad', (BIG, B), [-1.125, 8.0, -27.0, -2.16]),
    ('InvGrad', (BIG, B), [-1.125, 8.0, -27.0, -2.16]),
    ('AsinGrad', (P, B), [0.57735026, -2.0655911, 4.535574, 3.4412355]),
    ('ACosGrad', (P, B), [-0.57735026, 2.0655911, -4.535574, -3.4412355]),
    ('AtanGrad', (A, B), [0.4, -1.882353, 1.92, 0.03]),
    ('AsinhGrad', (BIG, B), [0.21254802, -0.5316044, 0.29798377, 0.8284292]),
    ('AcoshGrad', (BIG, B), [0.23482123, -0.55144113, 0.2994647, 0.9937319]),
    ('AbsGrad', (A, B), [-0.5, -2.0, 3.0, 1.5]),
    ('EluGrad', (B, A), [0.25, -2.0, 3.0, 1.5]),
    ('HSigmoidGrad', (B, A), [0.083333336, -0.33333334, 0.5, 0.0]),
    ('HSwishGrad', (B, A), [0.16666667, -1.1666666, 2.25, 1.5]),
    ('SoftplusGrad', (B, A), [0.18877032, -1.1243532, 2.0375361, 1.4986335]),
    ('SiLUGrad', (B, A), [0.1300194, -1.2474202, 2.5278, 1.5081903]),
    ('GeLUGrad', (B, A, A), [0.066315055, -1.3907082, 2.9968147, 1.5]),
]


@pytest.mark.parametrize('name,args,expected', ELEMENTWISE_GRADS,
                         ids=[c[0] for c in ELEMENTWISE_GRADS])
def test_elementwise_grads_match_mindspore(name, args, expected):
    out = getattr(G, name)()(*args)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6, atol=1e-7)


def test_relu6_grad_passes_the_gradient_at_six_but_not_at_zero():
    # MindSpore 2.10 (CPU): ReLU6Grad()(ones, [-1, 0, 1, 6, 6.1, 7]) gives [0, 0, 1, 1, 0, 0]
    x = ms.Tensor(np.array([-1.0, 0.0, 1.0, 6.0, 6.1, 7.0], np.float32))
    dy = ms.Tensor(np.ones(6, np.float32))
    out = G.ReLU6Grad()(dy, x).asnumpy()
    np.testing.assert_array_equal(out, [0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
                                  err_msg='ReLU6Grad keeps dy on 0 < x <= 6')


def test_bias_add_grad_sums_all_but_the_channel_axis():
    dout = ms.Tensor(np.arange(24).reshape(2, 3, 2, 2).astype(np.float32))
    assert G.BiasAddGrad()(dout).asnumpy().tolist() == [60.0, 92.0, 124.0]
    assert G.BiasAddGrad('NHWC')(dout).asnumpy().tolist() == [132.0, 144.0]
    with pytest.raises(ValueError, match=r"ops\.BiasAddGrad: data_format must be 'NCHW', "
                                         r"'NHWC' or 'NCDHW', got 'NC'"):
        G.BiasAddGrad('NC')


def test_maximum_and_minimum_grads_route_dout_to_the_chosen_input():
    dx, dy = G.MaximumGrad()(A, B, P)
    assert dx.asnumpy().tolist() == pytest.approx([0.0, 0.25, 0.0, 0.9])
    assert dy.asnumpy().tolist() == pytest.approx([0.5, 0.0, 0.75, 0.0])
    dx, dy = G.MinimumGrad()(A, B, P)
    assert dx.asnumpy().tolist() == pytest.approx([0.5, 0.0, 0.75, 0.0])
    assert dy.asnumpy().tolist() == pytest.approx([0.0, 0.25, 0.0, 0.9])


def test_maximum_grad_sums_a_broadcast_operand_back_to_its_shape():
    dx, dy = G.MaximumGrad()(ms.Tensor(np.ones((2, 3), np.float32)),
                             ms.Tensor(np.array([0.5, 1.0, 2.0], np.float32)),
                             ms.Tensor(np.ones((2, 3), np.float32)))
    assert dx.asnumpy().tolist() == [[1.0, 0.5, 0.0], [1.0, 0.5, 0.0]]
    assert dy.asnumpy().tolist() == [0.0, 1.0, 2.0]


def test_maximum_grad_shares_ties_and_gives_a_nan_pair_to_both():
    x = ms.Tensor(np.array([np.nan, 1.0, 2.0, np.nan], np.float32))
    y = ms.Tensor(np.array([1.7, np.nan, 2.0, np.nan], np.float32))
    dout = ms.Tensor(np.array([1.28, -0.23, 0.96, 2.0], np.float32))
    for grad in (G.MaximumGrad(), G.MinimumGrad()):
        dx, dy = grad(x, y, dout)
        assert dx.asnumpy().tolist() == pytest.approx([1.28, -0.23, 0.48, 2.0])
        assert dy.asnumpy().tolist() == pytest.approx([1.28, -0.23, 0.48, 2.0])



def test_the_gradient_of_maximum_and_minimum_follows_their_grad_primitives():
    """GradOperation over ops.maximum / ops.minimum gives what MaximumGrad / MinimumGrad give
    (MindSpore 2.10: a NaN pair sends dout to both inputs, a tie half to each)."""
    x = ms.Tensor(np.array([np.nan, 1.0, 2.0, np.nan, 3.0], np.float32))
    y = ms.Tensor(np.array([1.7, np.nan, 2.0, np.nan, 1.0], np.float32))
    dout = ms.Tensor(np.array([1.28, -0.23, 0.96, 2.0, 1.0], np.float32))
    grad = ms.ops.GradOperation(get_all=True, sens_param=True)
    dx, dy = grad(ms.ops.maximum)(x, y, dout)
    assert dx.asnumpy().tolist() == pytest.approx([1.28, -0.23, 0.48, 2.0, 1.0])
    assert dy.asnumpy().tolist() == pytest.approx([1.28, -0.23, 0.48, 2.0, 0.0])
    dx, dy = grad(ms.ops.minimum)(x, y, dout)
    assert dx.asnumpy().tolist() == pytest.approx([1.28, -0.23, 0.48, 2.0, 0.0])
    assert dy.asnumpy().tolist() == pytest.approx([1.28, -0.23, 0.48, 2.0, 1.0])
    ints = grad(ms.ops.maximum)(ms.Tensor([1, 5]), ms.Tensor([3, 5]), ms.Tensor([2, 2]))
    assert [g.asnumpy().tolist() for g in ints] == [[0, 1], [2, 1]]


# LayerNormGrad: values printed by MindSpore 2.10 (CPU); mean and variance are not x's own, so
# every term of the formula counts
LN_X = np.array([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 3.0]], np.float32)
LN_DY = np.array([[1.0, -0.5, 0.25, 2.0], [-1.0, 0.75, 0.5, -0.25]], np.float32)
LN_G = np.array([0.5, 1.5, -1.0, 2.0], np.float32)
LN_MEAN = np.array([[0.3], [1.1]], np.float32)
LN_VAR = np.array([[1.2], [0.8]], np.float32)


def _layer_norm_grad(op, *arrays):
    return op(*(ms.Tensor(a) for a in arrays))


def test_layer_norm_grad_values():
    dx, dg, db = _layer_norm_grad(G.LayerNormGrad(1, 1), LN_X, LN_DY, LN_VAR, LN_MEAN, LN_G)
    np.testing.assert_allclose(dx.asnumpy(), [
        [-0.3476754426956177, -1.360391616821289, -1.160701036453247, 2.8687682151794434],
        [-0.1768764704465866, 0.8079543113708496, -1.2861754894256592, 0.6550977826118469]],
        rtol=1e-6)
    np.testing.assert_allclose(dg.asnumpy(), [-0.26463937759399414, -0.3290119767189026,
                                              -0.5064569711685181, -0.622353196144104], rtol=1e-6)
    np.testing.assert_array_equal(db.asnumpy(), [0.0, 0.25, 0.75, 1.75])
    assert dg.shape == db.shape == (4,) and dx.dtype == ms.float32


def test_layer_norm_grad_params_axis_before_norm_axis():
    var = np.array([1.0, 0.5, 2.0, 0.25], np.float32).reshape(2, 2, 1)
    mean = np.array([0.1, -0.2, 0.3, 0.0], np.float32).reshape(2, 2, 1)
    dx, dg, db = _layer_norm_grad(G.LayerNormGrad(2, 1), LN_X.reshape(2, 2, 2),
                                  LN_DY.reshape(2, 2, 2), var, mean, LN_G.reshape(2, 2))
    np.testing.assert_allclose(dx.asnumpy(), [
        [[0.2406250238418579, -0.2406250238418579], [-4.551999092102051, 4.551999092102051]],
        [[-0.45022815465927124, 0.45022809505462646],
         [-8.749994277954102, 8.749995231628418]]], rtol=1e-6)
    np.testing.assert_allclose(dg.asnumpy(), [[-0.4485281705856323, 0.3909009099006653],
                                              [0.2778174579143524, -0.22720766067504883]],
                               rtol=1e-6)
    np.testing.assert_array_equal(db.asnumpy(), [[0.0, 0.25], [0.75, 1.75]])


def test_layer_norm_grad_epsilon_and_float16():
    # a zero variance shows the kernel's epsilon, 1e-7
    _, dg, _ = _layer_norm_grad(G.LayerNormGrad(-1, -1), LN_X, LN_DY,
                                np.zeros((2, 1), np.float32), LN_MEAN, LN_G)
    np.testing.assert_allclose(dg.asnumpy(), [-632.4555053710938, -553.398681640625,
                                              -1185.85400390625, -1818.3095703125], rtol=1e-6)
    out = _layer_norm_grad(G.LayerNormGrad(), *(a.astype(np.float16) for a in
                                                (LN_X, LN_DY, LN_VAR, LN_MEAN, LN_G)))
    assert [t.dtype for t in out] == [ms.float16] * 3
    np.testing.assert_array_equal(out[1].asnumpy(), np.array(
        [-0.26513671875, -0.328857421875, -0.50634765625, -0.62255859375], np.float16))


def test_layer_norm_grad_bad_arguments():
    with pytest.raises(TypeError, match="ops.LayerNormGrad: begin_norm_axis must be an int"):
        G.LayerNormGrad(1.0)
    with pytest.raises(ValueError, match=r"ops.LayerNormGrad: mean must hold one value per "
                                         r"normalized group \(2\), got shape \(3,\)"):
        _layer_norm_grad(G.LayerNormGrad(), LN_X, LN_DY, LN_VAR,
                         np.zeros(3, np.float32), LN_G)
    with pytest.raises(ValueError, match="ops.LayerNormGrad: dy must have x's shape"):
        _layer_norm_grad(G.LayerNormGrad(), LN_X, LN_DY[:1], LN_VAR, LN_MEAN, LN_G)


# L2NormalizeGrad: values printed by MindSpore 2.10 (CPU); the second row's norm (~0.00245)
# is above 1e-4 but below 0.5, so epsilon bounds the norm itself
L2_X = np.array([[0.5, -1.0, 2.0], [0.001, 0.002, -0.001]], np.float32)
L2_OUT = np.array([[0.2, -0.4, 0.8], [0.3, 0.6, -0.3]], np.float32)
L2_DOUT = np.array([[1.0, 2.0, -0.5], [0.25, -1.0, 3.0]], np.float32)


@pytest.mark.parametrize('axis, epsilon, expected', [
    (1, 1e-4, [[0.5237229466438293, 0.6982972621917725, 0.13093073666095734],
               [276.58819580078125, -59.19596481323242, 1050.2186279296875]]),
    (0, 1e-4, [[1.8899961709976196, 1.4399970769882202, 0.27000001072883606],
               [0.33499929308891296, -0.15999957919120789, 1.304999828338623]]),
    ((-1,), 0.5, [[0.5237229466438293, 0.6982972621917725, 0.13093073666095734],
                  [1.3550000190734863, -0.2899998426437378, 5.144999980926514]]),
])
def test_l2_normalize_grad_values(axis, epsilon, expected):
    out = G.L2NormalizeGrad(axis, epsilon)(ms.Tensor(L2_X), ms.Tensor(L2_OUT), ms.Tensor(L2_DOUT))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)


@pytest.mark.parametrize('args, message', [
    ((1.5,), "ops.L2NormalizeGrad: axis must be an int, list or tuple, got float"),
    (((0, 1),), r"ops.L2NormalizeGrad: axis must hold exactly one int, got \(0, 1\)"),
    ((0, 'a'), "ops.L2NormalizeGrad: epsilon must be an int or float, got str"),
])
def test_l2_normalize_grad_bad_arguments(args, message):
    with pytest.raises(TypeError, match=message):
        G.L2NormalizeGrad(*args)


CONV_X = ms.Tensor(np.arange(2 * 2 * 5 * 5, dtype=np.float32).reshape(2, 2, 5, 5) / 10)
CONV_ONES_3 = ms.Tensor(np.ones((2, 4, 3, 3), np.float32))
CONV_ONES_5 = ms.Tensor(np.ones((2, 4, 5, 5), np.float32))


@pytest.mark.parametrize('make, dout, size, first', [
    (lambda: G.Conv2DBackpropFilter(4, 3), CONV_ONES_3, (4, 2, 3, 3),
     [55.8, 57.6, 59.4, 64.8, 66.6, 68.4]),
    (lambda: G.Conv2DBackpropFilter(4, 3, pad_mode='pad', pad_list=(1, 1, 1, 1)), CONV_ONES_5,
     (4, 2, 3, 3), [108.8, 138.0, 112.0, 146.0, 185.0, 150.0]),
    (lambda: G.Conv2DBackpropFilter(4, 3, pad_mode='same'), CONV_ONES_5, (4, 2, 3, 3),
     [108.8, 138.0, 112.0, 146.0, 185.0, 150.0]),
    (lambda: G.Conv2DBackpropFilter(4, 3, stride=(2, 2)), ms.Tensor(np.ones((2, 4, 2, 2),
                                                                            np.float32)),
     (4, 2, 3, 3), [24.8, 25.6, 26.4, 28.8, 29.6, 30.4]),
    (lambda: G.Conv2DBackpropFilter(4, 3, group=2), CONV_ONES_3, (4, 1, 3, 3),
     [55.8, 57.6, 59.4, 64.8, 66.6, 68.4]),
    (lambda: G.Conv2DBackpropFilter(4, 3), CONV_ONES_3, ms.Tensor(np.array([4, 2, 3, 3])),
     [55.8, 57.6, 59.4, 64.8, 66.6, 68.4]),
])
def test_conv2d_backprop_filter_values(make, dout, size, first):
    """MindSpore 2.10's weight gradients (their first six values) for x = arange / 10."""
    out = make()(dout, CONV_X, size)
    want = tuple(size.asnumpy()) if isinstance(size, ms.Tensor) else size
    assert out.shape == want and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy().ravel()[:6], first, rtol=1e-6)


def test_conv2d_backprop_filter_reads_pad_list_not_pad():
    """As in MindSpore, pad_mode='pad' pads by pad_list (default zeros), so pad=1 alone leaves
    dout's shape unmatched: a RuntimeError, as for a filter_size that does not fit."""
    with pytest.raises(RuntimeError, match=r"ops.Conv2DBackpropFilter: a filter of size "
                                           r"\(4, 2, 3, 3\) does not convolve x"):
        G.Conv2DBackpropFilter(4, 3, pad_mode='pad', pad=1)(CONV_ONES_5, CONV_X, (4, 2, 3, 3))
    with pytest.raises(RuntimeError, match=r"filter of size \(4, 2, 2, 2\)"):
        G.Conv2DBackpropFilter(4, 3)(CONV_ONES_3, CONV_X, (4, 2, 2, 2))


# MindSpore 2.10 CPU values: dy is laid out in row-major order over the picked elements
def test_strided_slice_grad_places_dy_at_the_slice():
    out = G.StridedSliceGrad()(ms.Tensor(np.float32([1, 2, 3])), (3, 3), (1, 0), (2, 3), (1, 1))
    assert out.dtype == ms.float32 and out.asnumpy().tolist() == [[0, 0, 0], [1, 2, 3], [0, 0, 0]]
    out = G.StridedSliceGrad(shrink_axis_mask=1)(ms.Tensor(np.float32([1, 2, 3])), (3, 3),
                                                 (1, 0), (2, 3), (1, 1))
    assert out.asnumpy().tolist() == [[0, 0, 0], [1, 2, 3], [0, 0, 0]]
    weights = ms.Tensor(np.arange(9.0).reshape(3, 3).astype(np.float32))
    grad = ms.grad(lambda d: (G.StridedSliceGrad()(d, (3, 3), (1, 0), (2, 3), (1, 2))
                              * weights).sum())(ms.Tensor(np.float32([[1, 2]])))
    assert grad.asnumpy().tolist() == [[3, 5]]


def test_strided_slice_grad_checks_the_size_of_dy():
    with pytest.raises(ValueError, match=r"ops\.StridedSliceGrad: dy must have the 3 elements "
                                         r"of the slice of shape \(1, 3\), got shape \(2,\)"):
        G.StridedSliceGrad()(ms.Tensor(np.float32([1, 2])), (3, 3), (1, 0), (2, 3), (1, 1))


@pytest.mark.parametrize('name,factor', [
    ('SigmoidGrad', lambda v: v * (1 - v)), ('TanhGrad', lambda v: 1 - v * v),
    ('SqrtGrad', lambda v: 1 / (2 * v)), ('RsqrtGrad', lambda v: v ** 3 * -0.5),
    ('ReciprocalGrad', lambda v: -v * v), ('AsinGrad', lambda v: 1 / np.sqrt(1 - v * v)),
    ('ACosGrad', lambda v: -1 / np.sqrt(1 - v * v)), ('AtanGrad', lambda v: 1 / (1 + v * v)),
    ('AsinhGrad', lambda v: 1 / np.cosh(v)), ('AcoshGrad', lambda v: 1 / np.sinh(v)),
])
def test_gradient_kernels_conjugate_the_factor_of_complex_inputs(name, factor):
    # MindSpore's kernels give dy * conj(f'(v)) for complex v (its test of AtanGrad expects
    # dy / conj(1 + x * x))
    v = np.array([-0.5, 0.3, 0.5], np.complex128) * (1 + 0.5j) + 0.1j
    dy = np.array([1, 0.2, -1], np.complex128) * (1 + 0.3j)
    out = getattr(G, name)()(ms.Tensor(v), ms.Tensor(dy))
    np.testing.assert_allclose(out.asnumpy(), dy * np.conj(factor(v)), rtol=1e-12)
