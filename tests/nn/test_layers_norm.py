"""BatchNorm3d, GroupNorm, InstanceNorm1d/2d/3d and LRN: values against MindSpore 2.10 (or
a NumPy formula where MindSpore runs the layer on GPU only), moving statistics, gradients,
parameter names, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad, det

# (cell, kwargs, input shapes, output shape, sum, sum of squares, first values): MindSpore
# 2.10's outputs for the ``det`` inputs and parameters of test_layers_support
CASES = [
    ('GroupNorm', {'num_groups': 2, 'num_channels': 4}, [(2, 4, 3)], (2, 4, 3), -29.9436, 79.544,
     [-0.0360614, -0.852843, -1.55908, -2.22931]),
    ('GroupNorm', {'num_groups': 3, 'num_channels': 6, 'eps': 0.1}, [(1, 6, 2, 2)], (1, 6, 2, 2),
     -17.0925, 53.762, [-0.114072, -0.883713, -1.54919, -2.02042]),
    ('GroupNorm', {'num_groups': 1, 'num_channels': 2, 'affine': False}, [(3, 2, 2, 1, 3)],
     (3, 2, 2, 1, 3), -52.7076, 116.224, [-1.04119, -1.55534, -1.99991, -2.31472]),
    ('BatchNorm3d', {'num_features': 2, 'use_batch_statistics': True, 'eps': 0.01},
     [(2, 2, 1, 3, 2)], (2, 2, 1, 3, 2), 20.5208, 27.4843,
     [0.632059, 0.240965, -0.0971953, -0.336655]),
    ('LRN', {}, [(1, 6, 2, 2)], (1, 6, 2, 2), 2.48193, 3.49887, [0.0, 0.1928, 0.352121, 0.465671]),
    ('LRN', {'depth_radius': 1, 'bias': 2.0, 'alpha': 0.3, 'beta': 0.75}, [(2, 3, 2, 3)],
     (2, 3, 2, 3), 0.284346, 8.32815, [0.0, 0.292953, 0.536502, 0.662843]),
]


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[0])
def test_values_match_mindspore(case):
    check_case(*case)


def test_batchnorm3d_moving_statistics_and_names():
    bn = nn.BatchNorm3d(2, momentum=0.8).set_train()
    bn(ms.Tensor(np.sin(np.arange(24)).reshape(2, 2, 1, 3, 2).astype(np.float32)))
    # MindSpore 2.10's moving statistics after that step
    np.testing.assert_allclose(bn.bn2d.moving_mean.asnumpy(), [0.0075225, 0.0088076], rtol=1e-4)
    np.testing.assert_allclose(bn.bn2d.moving_variance.asnumpy(), [0.90738, 0.904857],
                               rtol=1e-4)
    assert [n for n, _ in bn.parameters_and_names()] == [
        'bn2d.moving_mean', 'bn2d.moving_variance', 'bn2d.gamma', 'bn2d.beta']


@pytest.mark.parametrize('cell,shape', [(nn.InstanceNorm1d, (2, 3, 4)),
                                        (nn.InstanceNorm2d, (2, 3, 2, 3)),
                                        (nn.InstanceNorm3d, (1, 3, 2, 2, 2))])
def test_instance_norm_normalizes_each_plane(cell, shape):
    x = det(shape).astype(np.float64)
    net = cell(3, eps=0.01, gamma_init=ms.Tensor([1.0, 2.0, -1.0]),
               beta_init=ms.Tensor([0.0, 0.5, 1.0]))
    flat = x.reshape(shape[0], 3, -1)
    want = (flat - flat.mean(-1, keepdims=True)) / np.sqrt(flat.var(-1, keepdims=True) + 0.01)
    want = want * np.array([1.0, 2.0, -1.0])[:, None] + np.array([0.0, 0.5, 1.0])[:, None]
    np.testing.assert_allclose(net(ms.Tensor(x.astype(np.float32))).asnumpy(),
                               want.reshape(shape), rtol=1e-5, atol=1e-5)
    # predict mode leaves the moving statistics; training moves them
    np.testing.assert_array_equal(net.moving_mean.asnumpy(), [0, 0, 0])
    net.set_train()
    net(ms.Tensor(x.astype(np.float32)))
    np.testing.assert_allclose(net.moving_mean.asnumpy(), 0.9 * flat.mean((0, 2)), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(net.moving_variance.asnumpy(),
                               0.1 + 0.9 * flat.var(2, ddof=1).mean(0), rtol=1e-5)
    assert [n for n, _ in net.parameters_and_names()] == [
        'moving_mean', 'moving_variance', 'gamma', 'beta']


def test_affine_false_freezes_gamma_and_beta():
    assert nn.GroupNorm(2, 4, affine=False).trainable_params() == []
    assert [p.requires_grad for p in nn.InstanceNorm2d(2, affine=False).get_parameters()] == \
        [False] * 4


@pytest.mark.parametrize('net,shape', [
    (nn.GroupNorm(2, 4, dtype=ms.float64), (2, 4, 3)),
    (nn.InstanceNorm2d(2, dtype=ms.float64), (2, 2, 2, 3)),
    (nn.BatchNorm3d(2, use_batch_statistics=True, dtype=ms.float64), (2, 2, 2, 1, 2)),
    (nn.LRN(1, 1.5, 0.7, 0.75), (1, 3, 2, 2)),
], ids=['group', 'instance', 'batch3d', 'lrn'])
def test_gradients_of_input_and_parameters(net, shape):
    rng = np.random.default_rng(5)
    for p in net.trainable_params():
        p.set_data(ms.Tensor(rng.standard_normal(p.shape)))
    check_layer_grad(net, rng.standard_normal(shape))


def test_reprs_print_as_mindspore():
    assert repr(nn.GroupNorm(2, 4)) == "GroupNorm(num_groups=2, num_channels=4)"
    assert repr(nn.LRN()) == "LRN()"
    assert repr(nn.InstanceNorm3d(2, affine=False)) == (
        "InstanceNorm3d(num_features=2, eps=1e-05, momentum=0.1, gamma=Parameter (name=gamma, "
        "shape=(2,), dtype=Float32, requires_grad=False), beta=Parameter (name=beta, "
        "shape=(2,), dtype=Float32, requires_grad=False), moving_mean=Parameter (name=mean, "
        "shape=(2,), dtype=Float32, requires_grad=False), moving_variance=Parameter "
        "(name=variance, shape=(2,), dtype=Float32, requires_grad=False))")
    assert repr(nn.BatchNorm3d(2)) == (
        "BatchNorm3d(\n  (bn2d): BatchNorm2d(num_features=2, eps=1e-05, momentum=0.9, "
        "gamma=Parameter (name=bn2d.gamma, shape=(2,), dtype=Float32, requires_grad=True), "
        "beta=Parameter (name=bn2d.beta, shape=(2,), dtype=Float32, requires_grad=True), "
        "moving_mean=Parameter (name=bn2d.moving_mean, shape=(2,), dtype=Float32, "
        "requires_grad=False), moving_variance=Parameter (name=bn2d.moving_variance, "
        "shape=(2,), dtype=Float32, requires_grad=False))\n)")


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.GroupNorm(3, 4), ValueError,
     r"nn.GroupNorm: num_channels \(4\) must be divisible by num_groups \(3\)"),
    (lambda: nn.GroupNorm(2, 4, eps=1), TypeError, "nn.GroupNorm: eps must be a float, got int"),
    (lambda: nn.InstanceNorm2d(3, momentum=2), TypeError,
     "nn.InstanceNorm2d: momentum must be a float, got int"),
    (lambda: nn.InstanceNorm2d(3, momentum=2.0), ValueError,
     r"nn.InstanceNorm2d: momentum must be in \[0, 1\], got 2.0"),
    (lambda: nn.InstanceNorm1d(0), ValueError, "nn.InstanceNorm1d: num_features must be at "
                                               "least 1, got 0"),
    (lambda: nn.LRN(depth_radius=-1), ValueError, "nn.LRN: depth_radius must be >= 0, got -1"),
    (lambda: nn.LRN(bias=1), TypeError, "nn.LRN: bias must be a float, got int"),
    (lambda: nn.LRN(norm_region='WITHIN'), ValueError,
     "nn.LRN: norm_region must be 'ACROSS_CHANNELS', got 'WITHIN'"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"nn.GroupNorm 'GroupNorm': expected an input \(N, 4, "
                                         r"\*\), got shape \(2, 3, 2\)"):
        nn.GroupNorm(2, 4)(ops.ones((2, 3, 2)))
    with pytest.raises(ValueError, match=r"nn.InstanceNorm2d 'InstanceNorm2d': expected a 4-d "
                                         r"input, got shape \(2, 3, 2\)"):
        nn.InstanceNorm2d(3)(ops.ones((2, 3, 2)))
    with pytest.raises(ValueError, match="nn.BatchNorm3d 'BatchNorm3d': expected a 5-d input"):
        nn.BatchNorm3d(3)(ops.ones((2, 3, 2, 2)))
    with pytest.raises(TypeError, match="nn.LRN 'LRN': expected a floating input, got dtype "
                                        "Int64"):
        nn.LRN()(ms.Tensor(np.ones((1, 2, 2, 2), np.int64)))
