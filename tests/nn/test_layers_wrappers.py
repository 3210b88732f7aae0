"""ReflectionPad3d, ReplicationPad3d and TimeDistributed: values against MindSpore 2.10,
gradients, parameter names, repr and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_layer_grad, det

X = np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4)


def test_pad3d_matches_mindspore():
    y = nn.ReflectionPad3d((1, 2, 1, 0, 0, 1))(ms.Tensor(X)).asnumpy()
    # MindSpore 2.10's values
    assert y.shape == (1, 3, 3, 7) and y.sum() == 426.0
    assert y.ravel()[:10].tolist() == [5, 4, 5, 6, 7, 6, 5, 1, 0, 1]
    np.testing.assert_array_equal(y, np.pad(X, ((0, 0), (0, 1), (1, 0), (1, 2)), 'reflect'))
    y = nn.ReplicationPad3d((1, 2, 1, 0, 0, 1))(ms.Tensor(X)).asnumpy()
    assert y.shape == (1, 3, 3, 7) and y.sum() == 528.0
    np.testing.assert_array_equal(y, np.pad(X, ((0, 0), (0, 1), (1, 0), (1, 2)), 'edge'))


def _dense():
    d = nn.Dense(3, 2)
    d.weight.set_data(ms.Tensor(det((2, 3), 1)))
    d.bias.set_data(ms.Tensor(det((2,), 2)))
    return d


# (input shape, time_axis, reshape_with_axis, output shape, sum, first values): MindSpore
# 2.10's outputs with the Dense above on the ``det`` input
@pytest.mark.parametrize('shape,t,r,out,total,head', [
    ((2, 5, 3), 1, 0, (2, 5, 2), 34.2783, [3.6567, 1.9819, 7.3875, 4.7737, 4.428]),
    ((2, 5, 3), 1, None, (2, 5, 2), 34.2783, [3.6567, 1.9819, 7.3875, 4.7737, 4.428]),
    ((2, 4, 5, 3), 2, 0, (2, 5, 4, 2), 96.3502, [3.6567, 1.9819, -0.6713, -0.7329, -3.9534]),
    ((4, 2, 5, 3), 0, 2, (2, 4, 5, 2), 96.3502, [3.6567, 1.9819, 7.3875, 4.7737, 4.428]),
    ((2, 5, 3), -2, -3, (2, 5, 2), 34.2783, [3.6567, 1.9819, 7.3875, 4.7737, 4.428]),
])
def test_time_distributed_matches_mindspore(shape, t, r, out, total, head):
    y = nn.TimeDistributed(_dense(), t, r)(ms.Tensor(det(shape))).asnumpy()
    assert y.shape == out
    np.testing.assert_allclose(y.sum(), total, rtol=1e-4)
    np.testing.assert_allclose(y.ravel()[:5], head, rtol=1e-4, atol=1e-4)


def test_gradients():
    rng = np.random.default_rng(15)
    check_layer_grad(nn.ReflectionPad3d((1, 0, 2, 1, 1, 1)), rng.standard_normal((1, 2, 3, 3)))
    check_layer_grad(nn.ReplicationPad3d(1), rng.standard_normal((1, 2, 2, 3)))
    for r in (None, 0):
        net = nn.TimeDistributed(nn.Dense(3, 2, dtype=ms.float64), 1, r)
        check_layer_grad(net, rng.standard_normal((2, 4, 3)))


def test_names_and_reprs():
    net = nn.TimeDistributed(nn.Dense(3, 4), 1)
    assert [n for n, _ in net.parameters_and_names()] == ['layer.weight', 'layer.bias']
    assert repr(net) == ("TimeDistributed(\n  (layer): Dense(input_channels=3, "
                         "output_channels=4, has_bias=True)\n)")
    assert repr(nn.ReflectionPad3d(1)) == "ReflectionPad3d()"
    assert repr(nn.ReplicationPad3d(1)) == "ReplicationPad3d()"


@pytest.mark.parametrize('make,err,match', [
    (lambda: nn.TimeDistributed(lambda x: x, 1), TypeError,
     "nn.TimeDistributed: layer must be a Cell or a Primitive, got function"),
    (lambda: nn.TimeDistributed(nn.ReLU(), 1.0), TypeError,
     "nn.TimeDistributed: time_axis must be an int, got 1.0"),
    (lambda: nn.TimeDistributed(nn.ReLU(), 1)(ops.ones((2, 3))), ValueError,
     r"nn.TimeDistributed 'TimeDistributed': expected an input with at least 3 axes"),
    (lambda: nn.TimeDistributed(nn.Flatten(0), 1, 0)(ops.ones((2, 3, 4))), ValueError,
     "the layer changed the merged axis 0 of length 6"),
    (lambda: nn.ReflectionPad3d(-1), ValueError,
     "nn.ReflectionPad3d: every element of padding must be >= 0"),
])
def test_bad_arguments(make, err, match):
    with pytest.raises(err, match=match):
        make()
