"""Conv1dTranspose, Conv2dTranspose, Conv3d and Conv3dTranspose: values against MindSpore
2.10, parameter shapes and defaults, gradients, repr and errors."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad

# (cell, kwargs, input shapes, output shape, sum, sum of squares, first values): MindSpore
# 2.10's outputs for the ``det`` inputs and parameters of test_layers_support
CASES = [
    ('Conv2dTranspose',
     {'in_channels': 2, 'out_channels': 4, 'kernel_size': 3, 'stride': 2, 'group': 2,
      'has_bias': True}, [(1, 2, 3, 4)], (1, 4, 6, 8), -226.702, 1013.32,
     [-1.49999, -1.49999, -1.94262, -2.15954]),
    ('Conv2dTranspose',
     {'in_channels': 2, 'out_channels': 3, 'kernel_size': (2, 3), 'stride': (2, 1),
      'pad_mode': 'valid', 'dilation': (1, 2), 'has_bias': True}, [(2, 2, 3, 3)], (2, 3, 6, 7),
     -330.114, 561.529, [-1.1567, -0.971511, -0.449405, -1.0041]),
    ('Conv2dTranspose',
     {'in_channels': 2, 'out_channels': 3, 'kernel_size': 3, 'stride': 2, 'pad_mode': 'pad',
      'padding': (1, 0, 2, 1), 'output_padding': 1, 'has_bias': True}, [(1, 2, 3, 3)],
     (1, 3, 7, 5), -131.951, 792.515, [-3.29899, -2.81354, -5.12219, -3.7395]),
    ('Conv2dTranspose',
     {'in_channels': 1, 'out_channels': 2, 'kernel_size': 1, 'stride': 3, 'pad_mode': 'valid'},
     [(1, 1, 2, 2)], (1, 2, 6, 6), -5.88744, 6.6956, [0.0, 0.0, 0.0, -0.442634]),
    ('Conv1dTranspose',
     {'in_channels': 2, 'out_channels': 3, 'kernel_size': 3, 'stride': 2, 'has_bias': True},
     [(2, 2, 4)], (2, 3, 8), -72.1272, 217.1, [0.0495875, 0.530016, 1.78879, -0.200078]),
    ('Conv1dTranspose',
     {'in_channels': 2, 'out_channels': 4, 'kernel_size': 2, 'stride': 3, 'pad_mode': 'pad',
      'padding': 1, 'dilation': 2, 'group': 2}, [(1, 2, 5)], (1, 4, 13), -24.9241, 34.9124,
     [0.0, 0.0, -0.442634, 0.0]),
    ('Conv1dTranspose',
     {'in_channels': 2, 'out_channels': 3, 'kernel_size': 3, 'stride': 1, 'pad_mode': 'valid'},
     [(1, 2, 5)], (1, 3, 7), -9.87996, 108.799, [1.49573, 2.75627, 3.1122, 0.0240216]),
    ('Conv3d',
     {'in_channels': 2, 'out_channels': 4, 'kernel_size': (2, 3, 2), 'stride': (2, 1, 2),
      'has_bias': True, 'group': 2}, [(1, 2, 5, 4, 5)], (1, 4, 3, 4, 3), -162.591, 2147.42,
     [-3.15418, -7.11768, -4.81473, -8.60433]),
    ('Conv3d',
     {'in_channels': 2, 'out_channels': 3, 'kernel_size': 3, 'pad_mode': 'pad',
      'padding': (1, 0, 0, 1, 2, 1), 'dilation': (2, 1, 1)}, [(2, 2, 5, 4, 3)], (2, 3, 2, 3, 4),
     -516.143, 56171.2, [-9.50045, -23.8297, -38.2611, -24.0091]),
    ('Conv3d',
     {'in_channels': 1, 'out_channels': 2, 'kernel_size': 2, 'pad_mode': 'valid', 'stride': 2},
     [(1, 1, 4, 5, 3)], (1, 2, 2, 2, 1), 0.166025, 285.76,
     [-3.22303, -4.12693, 7.24952, -7.56936]),
    ('Conv3dTranspose',
     {'in_channels': 2, 'out_channels': 4, 'kernel_size': (2, 3, 2), 'stride': (2, 1, 2),
      'has_bias': True, 'group': 2}, [(1, 2, 3, 4, 2)], (1, 4, 6, 4, 4), -521.137, 3017.55,
     [-2.32535, -2.72983, -3.38357, -3.94197]),
    ('Conv3dTranspose',
     {'in_channels': 2, 'out_channels': 3, 'kernel_size': 3, 'stride': (2, 2, 1),
      'pad_mode': 'pad', 'padding': (1, 0, 0, 1, 2, 1), 'output_padding': (1, 0, 0)},
     [(1, 2, 2, 3, 4)], (1, 3, 5, 6, 3), -18.4982, 5279.24, [2.00856, 4.49654, 3.68461, 3.25598]),
    ('Conv3dTranspose',
     {'in_channels': 2, 'out_channels': 2, 'kernel_size': (3, 1, 2), 'stride': 2,
      'pad_mode': 'valid', 'dilation': (1, 2, 1)}, [(1, 2, 2, 2, 3)], (1, 2, 5, 4, 6), -24.6999,
     336.885, [-2.06843, -1.69476, -2.58003, -2.41081]),
]


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[0])
def test_values_match_mindspore(case):
    check_case(*case)


@pytest.mark.parametrize('cell,args,shape', [
    (nn.Conv2dTranspose, (4, 6, 3), (4, 6, 3, 3)),
    (nn.Conv2dTranspose, (4, 6, (2, 3), 1, 'same', 0, 0, 1, 2), (4, 3, 2, 3)),
    (nn.Conv1dTranspose, (2, 3, 4), (2, 3, 1, 4)),
    (nn.Conv3d, (4, 6, 3, 1, 'same', 0, 1, 2), (6, 2, 3, 3, 3)),
    (nn.Conv3dTranspose, (4, 6, (1, 2, 3), 1, 'same', 0, 1, 2), (4, 3, 1, 2, 3)),
])
def test_parameter_shapes_and_default_bias_bound(cell, args, shape):
    ms.set_seed(0)
    net = cell(*args, has_bias=True)
    assert net.weight.shape == shape and net.bias.shape == (args[1],)
    assert [n for n, _ in net.parameters_and_names()] == ['weight', 'bias']
    bound = 1 / math.sqrt(math.prod(shape[1:]))     # MindSpore's fan_in of the weight shape
    assert np.abs(net.weight.asnumpy()).max() <= bound
    assert 0.5 * bound < np.abs(net.bias.asnumpy()).max() <= bound
    assert cell(*args).bias is None


def test_conv1d_transpose_accepts_a_3d_weight_tensor():
    w = ms.Tensor(np.arange(6.0, dtype=np.float32).reshape(1, 2, 3))
    net = nn.Conv1dTranspose(1, 2, 3, pad_mode='valid', weight_init=w)
    assert net.weight.shape == (1, 2, 1, 3)
    y = net(ms.Tensor([[[1.0, 10.0]]]))
    np.testing.assert_allclose(y.asnumpy(), [[[0, 1, 12, 20], [3, 34, 45, 50]]])


def test_transposed_conv_inverts_the_shape_of_conv():
    x = ops.ones((1, 2, 7, 6))
    y = nn.Conv2d(2, 3, 3, 2, 'pad', 1)(x)
    back = nn.Conv2dTranspose(3, 2, 3, 2, 'pad', 1, output_padding=(0, 1))(y)
    assert y.shape == (1, 3, 4, 3) and back.shape == (1, 2, 7, 6)


@pytest.mark.parametrize('net,shape', [
    (nn.Conv2dTranspose(2, 4, (2, 3), stride=2, group=2, has_bias=True, dtype=ms.float64),
     (1, 2, 2, 3)),
    (nn.Conv2dTranspose(2, 2, 3, stride=2, pad_mode='pad', padding=1, output_padding=1,
                        has_bias=True, dtype=ms.float64), (1, 2, 2, 2)),
    (nn.Conv1dTranspose(2, 3, 3, stride=2, pad_mode='valid', dtype=ms.float64), (2, 2, 3)),
    (nn.Conv3d(2, 2, (2, 2, 3), stride=(2, 1, 1), has_bias=True, dtype=ms.float64),
     (1, 2, 3, 3, 3)),
    (nn.Conv3dTranspose(2, 2, (3, 2, 1), stride=(2, 1, 2), pad_mode='pad',
                        padding=(1, 0, 0, 1, 0, 0), output_padding=(1, 0, 0), has_bias=True,
                        dtype=ms.float64), (1, 2, 2, 2, 2)),
], ids=['2d', '2d-pad', '1d', '3d', '3d-transpose'])
def test_gradients_of_input_and_parameters(net, shape):
    check_layer_grad(net, np.random.default_rng(4).standard_normal(shape))


def test_reprs_print_as_mindspore():
    assert repr(nn.Conv1dTranspose(2, 4, 3, has_bias=True, pad_mode='pad', padding=1,
                                   weight_init='ones', bias_init='zeros')) == (
        "Conv1dTranspose(input_channels=2, output_channels=4, kernel_size=(1, 3), "
        "stride=(1, 1), pad_mode=pad, padding=(0, 0, 1, 1), dilation=(1, 1), group=1, "
        "has_bias=True, weight_init=ones, bias_init=zeros, format=NCHW)")
    assert repr(nn.Conv2dTranspose(2, 4, 3, stride=2, pad_mode='pad', padding=(1, 0, 1, 0),
                                   weight_init='normal')) == (
        "Conv2dTranspose(input_channels=2, output_channels=4, kernel_size=(3, 3), "
        "stride=(2, 2), pad_mode=pad, padding=(1, 0, 1, 0), dilation=(1, 1), group=1, "
        "has_bias=False, weight_init=normal, bias_init=None, format=NCHW)")
    assert repr(nn.Conv3d(2, 4, (1, 2, 3), weight_init='ones')) == (
        "Conv3d(input_channels=2, output_channels=4, kernel_size=(1, 2, 3), stride=(1, 1, 1), "
        "pad_mode=same, padding=0, dilation=(1, 1, 1), group=1, has_bias=False, "
        "weight_init=ones, bias_init=None, format=NCDHW)")
    assert repr(nn.Conv3dTranspose(2, 4, 3, pad_mode='pad', padding=1, output_padding=1,
                                   stride=2, weight_init='ones')) == (
        "Conv3dTranspose(input_channels=2, output_channels=4, kernel_size=(3, 3, 3), "
        "stride=(2, 2, 2), pad_mode=pad, padding=1, dilation=(1, 1, 1), group=1, "
        "has_bias=False, weight_init=ones, bias_init=None, format=NCDHW)")


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.Conv2dTranspose(2, 4, 3, padding=1), ValueError,
     "nn.Conv2dTranspose: padding must be 0 when pad_mode is 'same'"),
    (lambda: nn.Conv2dTranspose(2, 4, 3, pad_mode='pad', padding=(1, 1)), TypeError,
     "nn.Conv2dTranspose: padding must be an int or a tuple of 4 ints"),
    (lambda: nn.Conv3d(3, 4, 3, group=2), ValueError,
     r"nn.Conv3d: in_channels \(3\) and out_channels \(4\) must both be divisible by group"),
    (lambda: nn.Conv3d(2, 4, 3, data_format='NDHWC'), ValueError,
     "nn.Conv3d: data_format must be 'NCDHW'"),
    (lambda: nn.Conv1dTranspose(2, 3, (3,)), TypeError,
     r"nn.Conv1dTranspose: kernel_size must be an int, got \(3,\)"),
    (lambda: nn.Conv3dTranspose(2, 4, 3, output_padding=1), ValueError,
     "nn.Conv3dTranspose: output_padding needs pad_mode 'pad'"),
    (lambda: nn.Conv3dTranspose(2, 4, 3, pad_mode='pad', output_padding=1), ValueError,
     r"nn.Conv3dTranspose: output_padding 1 must be in \[0, max\(stride, dilation\)\)"),
    (lambda: nn.Conv2dTranspose(0, 4, 3), ValueError,
     "nn.Conv2dTranspose: in_channels must be a positive int, got 0"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"nn.Conv2dTranspose 'Conv2dTranspose': output_padding "
                                         r"1 must be in \[0, max\(stride, dilation\)\)"):
        nn.Conv2dTranspose(2, 2, 3, pad_mode='pad', output_padding=1)(ops.ones((1, 2, 3, 3)))
    with pytest.raises(ValueError, match=r"nn.Conv3d 'Conv3d': expected an input "
                                         r"\(N, C, D, H, W\) with C = 2, got shape "
                                         r"\(1, 2, 3, 3\)"):
        nn.Conv3d(2, 2, 3)(ops.ones((1, 2, 3, 3)))
    with pytest.raises(ValueError, match="nn.Conv3d 'Conv3d': the dilated kernel"):
        nn.Conv3d(2, 2, 3, pad_mode='valid')(ops.ones((1, 2, 2, 3, 3)))
    with pytest.raises(TypeError, match="nn.Conv1dTranspose 'Conv1dTranspose': expected a "
                                        "Tensor input, got list"):
        nn.Conv1dTranspose(2, 2, 3)([1.0])
