"""Conv2d, Conv1d, MaxPool2d, AvgPool2d and AdaptiveAvgPool2d cells: shapes, defaults,
initialization, values, gradients, repr and errors."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad


# ------------------------------------------------------------------------------ Conv2d
def test_seed_conv2d_with_ones_weight_sums_each_window():
    net = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones",
                    pad_mode="valid")
    y = net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
    assert y.shape == (1, 2, 1, 1) and y.dtype == ms.float32
    np.testing.assert_array_equal(y.asnumpy().ravel(), [4.0, 4.0])


def test_conv2d_defaults_follow_mindspore():
    ms.set_seed(1)
    net = nn.Conv2d(4, 8, 3)
    assert (net.pad_mode, net.has_bias, net.bias, net.group) == ('same', False, None, 1)
    assert net.weight.shape == (8, 4, 3, 3) and net.weight.dtype == ms.float32
    assert [n for n, _ in net.parameters_and_names()] == ['weight']
    # HeUniform(negative_slope=sqrt(5)) has bound 1 / sqrt(fan_in), fan_in = 4 * 3 * 3
    w = net.weight.asnumpy()
    bound = 1 / math.sqrt(36)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    assert net(ops.ones((2, 4, 5, 7))).shape == (2, 8, 5, 7)


def test_conv2d_bias_default_is_uniform_over_one_over_sqrt_fan_in():
    ms.set_seed(2)
    net = nn.Conv2d(6, 64, (3, 2), group=2, has_bias=True)
    assert net.weight.shape == (64, 3, 3, 2) and net.bias.shape == (64,)
    b = net.bias.asnumpy()
    bound = 1 / math.sqrt(3 * 3 * 2)
    assert np.abs(b).max() <= bound and np.abs(b).max() > 0.7 * bound
    assert [n for n, _ in net.parameters_and_names()] == ['weight', 'bias']


@pytest.mark.parametrize('kwargs,out', [
    (dict(pad_mode='same'), (2, 3, 7, 6)),
    (dict(pad_mode='same', stride=2), (2, 3, 4, 3)),
    (dict(pad_mode='valid'), (2, 3, 5, 4)),
    (dict(pad_mode='pad', padding=1, stride=(2, 1)), (2, 3, 4, 6)),
    (dict(pad_mode='pad', padding=(0, 2)), (2, 3, 5, 8)),
    (dict(pad_mode='pad', padding=(1, 0, 2, 1), dilation=2), (2, 3, 4, 5)),
])
def test_conv2d_output_shapes(kwargs, out):
    net = nn.Conv2d(2, 3, 3, **kwargs)
    assert net(ops.ones((2, 2, 7, 6))).shape == out


def test_conv2d_values_and_gradients_match_ops_conv2d():
    rng = np.random.default_rng(0)
    net = nn.Conv2d(2, 4, 3, stride=2, pad_mode='pad', padding=1, group=2, has_bias=True,
                    weight_init='normal', bias_init='normal', dtype=ms.float64)
    x = rng.standard_normal((2, 2, 5, 5))
    want = ops.conv2d(ms.Tensor(x), net.weight, net.bias, 2, 'pad', 1, 1, 2)
    np.testing.assert_array_equal(net(ms.Tensor(x)).asnumpy(), want.asnumpy())
    check_grad(lambda t: net(t), x)
    grads = ms.grad(net, grad_position=None, weights=net.trainable_params())(ms.Tensor(x))
    assert [g.shape for g in grads] == [(4, 1, 3, 3), (4,)]
    np.testing.assert_allclose(grads[1].asnumpy(), np.full(4, 18.0))   # 2 samples x 3x3 outputs


def test_conv2d_inside_a_network_names_its_parameters():
    seq = nn.SequentialCell([nn.Conv2d(1, 2, 3, has_bias=True), nn.ReLU(),
                             nn.Conv2d(2, 2, 1)])
    assert [n for n, _ in seq.parameters_and_names()] == ['0.weight', '0.bias', '2.weight']
    assert seq(ops.ones((1, 1, 4, 4))).shape == (1, 2, 4, 4)


def test_conv2d_repr():
    net = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones",
                    pad_mode="valid")
    # MindSpore 2.10 prints the same for the same arguments
    assert repr(net) == ("Conv2d(input_channels=1, output_channels=2, kernel_size=(2, 2), "
                         "stride=(1, 1), pad_mode=valid, padding=0, dilation=(1, 1), group=1, "
                         "has_bias=False, weight_init=ones, bias_init=None, format=NCHW)")


@pytest.mark.parametrize('kwargs,err,match', [
    (dict(pad_mode='same', padding=1), ValueError,
     r"nn.Conv2d: padding must be 0 when pad_mode is 'same', got 1 \(use pad_mode='pad'\)"),
    (dict(pad_mode='reflect'), ValueError, "nn.Conv2d: pad_mode must be one of 'same', "
                                           "'valid', 'pad', got 'reflect'"),
    (dict(group=3), ValueError, r"nn.Conv2d: in_channels \(4\) and out_channels \(6\) must both "
                                r"be divisible by group \(3\)"),
    (dict(group=0), ValueError, "nn.Conv2d: group must be a positive int, got 0"),
    (dict(data_format='NHWC'), ValueError, "nn.Conv2d: data_format must be 'NCHW', got 'NHWC'"),
    (dict(has_bias=1), TypeError, "nn.Conv2d: has_bias must be a bool, got 1"),
    (dict(kernel_size=(3, 3, 3)), TypeError, r"nn.Conv2d: kernel_size must be an int or a tuple "
                                             r"of 2 ints, got \(3, 3, 3\)"),
    (dict(stride=0), ValueError, "nn.Conv2d: stride must be >= 1, got 0"),
    (dict(weight_init=ms.Tensor(np.ones((6, 4, 2, 2), np.float32))), ValueError,
     r"nn.Conv2d: weight_init has shape \(6, 4, 2, 2\), expected \(6, 4, 3, 3\)"),
    (dict(dtype='float128'), TypeError, "nn.Conv2d: dtype:"),
    (dict(in_channels=0), ValueError, "nn.Conv2d: in_channels must be a positive int, got 0"),
])
def test_conv2d_constructor_errors(kwargs, err, match):
    args = dict(in_channels=4, out_channels=6, kernel_size=3)
    args.update(kwargs)
    with pytest.raises(err, match=match):
        nn.Conv2d(**args)


def test_conv2d_input_errors_name_the_cell():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 2, 3)

        def construct(self, x):
            return self.conv(x)
    net = Net()
    with pytest.raises(ValueError, match=r"nn.Conv2d 'Net.conv': expected an input \(N, C, H, W\) "
                                         r"with C = 3, got shape \(1, 2, 5, 5\)"):
        net(ops.ones((1, 2, 5, 5)))
    with pytest.raises(TypeError, match="nn.Conv2d 'Net.conv': expected a Tensor input, got list"):
        net.conv([1.0])


@pytest.mark.parametrize('np_dtype, name', [(np.uint8, 'UInt8'), (np.float64, 'Float64'),
                                             (np.float16, 'Float16'), (np.int32, 'Int32')])
def test_conv_input_of_another_dtype_names_the_cell_and_the_cast(np_dtype, name):
    # MindSpore 2.10 raises a TypeError for each ("For primitive[Conv2D], the input type must
    # be same"); hookgrad names the cell and the cast instead of computing in Float64
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.features = nn.SequentialCell(nn.Conv2d(3, 2, 3), nn.ReLU())

        def construct(self, x):
            return self.features(x)
    x = ms.Tensor(np.ones((1, 3, 5, 5), np_dtype))
    with pytest.raises(TypeError, match=rf"^nn.Conv2d 'Net.features.0': input is {name}, weight "
                                        rf"is Float32: cast the input with "
                                        rf"ops.cast\(x, ms.float32\) \(or "
                                        rf"x.astype\(ms.float32\)\)$"):
        Net()(x)
    y = Net()(ops.cast(x, ms.float32))
    assert y.dtype == ms.float32 and y.shape == (1, 2, 5, 5)
    conv = nn.Conv1d(2, 1, 1, dtype=ms.float64)
    with pytest.raises(TypeError, match=r"^nn.Conv1d 'Conv1d': input is Float32, weight is "
                                        r"Float64: cast the input with ops.cast\(x, "
                                        r"ms.float64\)"):
        conv(ops.ones((1, 2, 4)))
    assert conv(ops.ones((1, 2, 4), ms.float64)).dtype == ms.float64


# ------------------------------------------------------------------------------ Conv1d
def test_conv1d_shapes_values_and_defaults():
    net = nn.Conv1d(2, 3, 3, has_bias=True, weight_init='ones', bias_init='zeros')
    assert net.weight.shape == (3, 2, 3) and net.pad_mode == 'same'
    y = net(ops.ones((1, 2, 5)))
    assert y.shape == (1, 3, 5)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [4, 6, 6, 6, 4])
    net = nn.Conv1d(2, 4, 2, stride=2, pad_mode='pad', padding=(1, 0), group=2)
    assert net(ops.ones((2, 2, 6))).shape == (2, 4, 3)
    assert repr(net) == ("Conv1d(input_channels=2, output_channels=4, kernel_size=(1, 2), "
                         "stride=(1, 2), pad_mode=pad, padding=(0, 0, 1, 0), dilation=(1, 1), "
                         "group=2, has_bias=False, weight_init=HeUniform(negative_slope="
                         "2.23606797749979, mode='fan_in', nonlinearity='leaky_relu'), "
                         "bias_init=None, format=NCHW)")


def test_conv1d_gradients():
    net = nn.Conv1d(2, 2, 3, pad_mode='valid', weight_init='normal', dtype=ms.float64)
    check_grad(lambda t: net(t), np.random.default_rng(1).standard_normal((2, 2, 6)))


def test_conv1d_errors():
    with pytest.raises(TypeError, match=r"nn.Conv1d: padding must be an int or a pair "
                                        r"\(left, right\)"):
        nn.Conv1d(2, 2, 3, pad_mode='pad', padding=(1, 1, 1, 1))
    with pytest.raises(TypeError, match="nn.Conv1d: kernel_size must be an int or a tuple of 1"):
        nn.Conv1d(2, 2, (3, 3))
    with pytest.raises(ValueError, match=r"nn.Conv1d 'Conv1d': expected an input \(N, C, L\) "
                                         r"with C = 2"):
        nn.Conv1d(2, 2, 3)(ops.ones((1, 2, 4, 4)))


# ------------------------------------------------------------------------------ pooling
@pytest.mark.parametrize('kwargs,out', [
    (dict(kernel_size=2, stride=2), (2, 3, 3, 3)),
    (dict(kernel_size=3, stride=2, pad_mode='same'), (2, 3, 4, 4)),
    (dict(kernel_size=3, stride=2, pad_mode='pad', padding=1), (2, 3, 4, 4)),
    (dict(kernel_size=2, stride=2, pad_mode='pad', ceil_mode=True), (2, 3, 4, 4)),
    (dict(kernel_size=(3, 1), stride=1, pad_mode='same'), (2, 3, 7, 7)),
])
@pytest.mark.parametrize('cls', [nn.MaxPool2d, nn.AvgPool2d])
def test_pool_output_shapes(cls, kwargs, out):
    pool = cls(**kwargs)
    assert pool(ops.ones((2, 3, 7, 7))).shape == out
    assert pool(ops.ones((3, 7, 7))).shape == out[1:]


def test_max_pool2d_same_padding_never_wins_and_gradient_reaches_the_maximum():
    x = -np.arange(1.0, 10.0).reshape(1, 1, 3, 3)           # all negative: zeros would win
    xt = ms.Tensor(x, requires_grad=True)
    y = nn.MaxPool2d(2, 2, 'same')(xt)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[-1, -3], [-7, -9]])
    y.sum().backward()
    np.testing.assert_array_equal(xt.grad.asnumpy()[0, 0], [[1, 0, 1], [0, 0, 0], [1, 0, 1]])


def test_max_pool2d_return_indices_and_unbatched_input():
    pool = nn.MaxPool2d(2, 2, 'pad', return_indices=True)
    x = ms.Tensor(np.array([[[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 8.0, 9.0]]]))
    y, idx = pool(x)
    assert y.asnumpy().tolist() == [[[5.0, 9.0]]] and idx.asnumpy().tolist() == [[[1, 7]]]


def test_avg_pool2d_same_divides_by_the_input_elements_only():
    y = nn.AvgPool2d(3, 1, 'same')(ms.Tensor(np.arange(16.0).reshape(1, 1, 4, 4)))
    assert y.asnumpy()[0, 0, 0, 0] == np.mean([0, 1, 4, 5])
    assert y.asnumpy()[0, 0, 1, 1] == np.mean([0, 1, 2, 4, 5, 6, 8, 9, 10])


def test_avg_pool2d_pad_mode_options_reach_the_op():
    x = ms.Tensor(np.arange(16.0).reshape(1, 1, 4, 4))
    y = nn.AvgPool2d(2, 2, 'pad', padding=1, count_include_pad=False)(x)
    np.testing.assert_array_equal(y.asnumpy()[0, 0, 0], [0, 1.5, 3])
    y = nn.AvgPool2d(2, 2, 'pad', padding=1)(x)
    np.testing.assert_array_equal(y.asnumpy()[0, 0, 0], [0, 0.75, 0.75])
    y = nn.AvgPool2d(2, 2, divisor_override=1)(x)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[10, 18], [42, 50]])


def test_pool_gradients():
    x = np.random.default_rng(2).standard_normal((1, 2, 5, 5))
    check_grad(lambda t: nn.MaxPool2d(3, 2, 'same')(t), x)
    check_grad(lambda t: nn.AvgPool2d(3, 2, 'same')(t), x)
    check_grad(lambda t: nn.AdaptiveAvgPool2d((2, 3))(t), x)


def test_pool_reprs():
    # MindSpore 2.10's text: sizes as given, the pad mode in capitals
    assert repr(nn.MaxPool2d(2, 2)) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"
    assert repr(nn.MaxPool2d((2, 3))) == "MaxPool2d(kernel_size=(2, 3), stride=1, pad_mode=VALID)"
    assert repr(nn.AvgPool2d(3, 2, 'pad', 1)) == "AvgPool2d(kernel_size=3, stride=2, pad_mode=PAD)"
    assert repr(nn.AdaptiveAvgPool2d((2, None))) == "AdaptiveAvgPool2d()"


def test_adaptive_avg_pool2d_cell():
    x = ms.Tensor(np.arange(24.0).reshape(1, 1, 4, 6))
    y = nn.AdaptiveAvgPool2d((2, 3))(x)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[3.5, 5.5, 7.5], [15.5, 17.5, 19.5]])
    assert nn.AdaptiveAvgPool2d(1)(ops.ones((3, 4, 4))).shape == (3, 1, 1)


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.MaxPool2d(2, 2, 'valid', padding=1), ValueError,
     r"nn.MaxPool2d: padding must be 0 when pad_mode is 'valid', got 1 \(use pad_mode='pad'\)"),
    (lambda: nn.MaxPool2d(2, 2, 'pad', padding=2), ValueError,
     r"nn.MaxPool2d: padding 2 is more than half the kernel size \(2, 2\)"),
    (lambda: nn.MaxPool2d(2, return_indices=1), TypeError,
     "nn.MaxPool2d: return_indices must be a bool, got 1"),
    (lambda: nn.MaxPool2d(2, data_format='NHWC'), ValueError,
     "nn.MaxPool2d: data_format must be 'NCHW', got 'NHWC'"),
    (lambda: nn.AvgPool2d(2, pad_mode='full'), ValueError,
     "nn.AvgPool2d: pad_mode must be one of 'same', 'valid', 'pad', got 'full'"),
    (lambda: nn.AvgPool2d(2, divisor_override=0), ValueError,
     "nn.AvgPool2d: divisor_override must be None or an int >= 1, got 0"),
    (lambda: nn.AvgPool2d(2, count_include_pad='yes'), TypeError,
     "nn.AvgPool2d: count_include_pad must be a bool"),
    (lambda: nn.AvgPool2d(0), ValueError, "nn.AvgPool2d: kernel_size must be >= 1"),
    (lambda: nn.AdaptiveAvgPool2d((2, 0)), ValueError,
     r"nn.AdaptiveAvgPool2d: output_size must be a positive int or a pair"),
])
def test_pool_constructor_errors(make, err, match):
    with pytest.raises(err, match=match):
        make()


def test_pool_input_errors():
    with pytest.raises(ValueError, match=r"nn.MaxPool2d 'MaxPool2d': expected an input "
                                         r"\(N, C, H, W\) or \(C, H, W\), got shape \(4, 4\)"):
        nn.MaxPool2d(2)(ops.ones((4, 4)))
    with pytest.raises(TypeError, match="nn.AvgPool2d 'AvgPool2d': expected a Tensor input"):
        nn.AvgPool2d(2)(np.ones((1, 1, 4, 4)))
    with pytest.raises(TypeError, match="nn.AvgPool2d 'AvgPool2d': expected a floating tensor, "
                                        "got dtype Int64"):
        nn.AvgPool2d(2)(ms.Tensor(np.ones((1, 1, 4, 4), np.int64)))
    with pytest.raises(ValueError, match=r"nn.MaxPool2d 'MaxPool2d': the kernel \(5, 5\)"):
        nn.MaxPool2d(5)(ops.ones((1, 1, 4, 4)))
