"""Activation layers added beside ReLU & co. (ELU, HSwish, PReLU, GLU...): each runs its ops
function, prints as MindSpore, PReLU's parameter and gradients against MindSpore, get_activation
and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad

X = np.array([[-3., -1.5, -0.5, 0.2], [0.5, 1.5, 3., -2.2]], np.float32)

LAYERS = [
    (lambda: nn.ELU(), ops.elu, 'ELU()'),
    (lambda: nn.CELU(2.0), lambda x: ops.celu(x, 2.0), 'CELU()'),
    (lambda: nn.SeLU(), ops.selu, 'SeLU()'),
    (lambda: nn.Mish(), ops.mish, 'Mish()'),
    (lambda: nn.Softsign(), ops.softsign, 'Softsign()'),
    (lambda: nn.LogSigmoid(), ops.logsigmoid, 'LogSigmoid()'),
    (lambda: nn.FastGelu(), ops.fast_gelu, 'FastGelu()'),
    (lambda: nn.HSwish(), ops.hardswish, 'HSwish()'),
    (lambda: nn.HSigmoid(), ops.hardsigmoid, 'HSigmoid()'),
    (lambda: nn.Tanhshrink(), ops.tanhshrink, 'Tanhshrink()'),
    (lambda: nn.Softmin(0), lambda x: ops.softmin(x, 0), 'Softmin()'),
    (lambda: nn.GLU(), ops.glu, 'GLU()'),
    (lambda: nn.Hardtanh(-1.0, 2.0), lambda x: ops.hardtanh(x, -1.0, 2.0), 'Hardtanh()'),
    (lambda: nn.HShrink(0.6), lambda x: ops.hardshrink(x, 0.6), 'HShrink()'),
    (lambda: nn.SoftShrink(), ops.softshrink, 'SoftShrink()'),
    (lambda: nn.Threshold(0.1, 2.0), lambda x: ops.threshold(x, 0.1, 2.0), 'Threshold()'),
]


@pytest.mark.parametrize('make, fn, text', LAYERS, ids=[t for _, _, t in LAYERS])
def test_layer_runs_its_function_and_prints_as_mindspore(make, fn, text):
    cell = make()
    x = ms.Tensor(X)
    np.testing.assert_array_equal(cell(x).asnumpy(), fn(x).asnumpy())
    assert repr(cell) == text and list(cell.get_parameters()) == []
    check_grad(lambda t: cell(t), X.astype(np.float64) + 0.05)


def test_prelu_parameter_values_and_gradients_match_mindspore():
    p = nn.PReLU(3, 0.5)
    assert [(n, q.name, q.shape) for n, q in p.parameters_and_names()] == [('w', 'a', (3,))]
    x = ms.Tensor(np.arange(-6, 6, dtype=np.float32).reshape(1, 3, 2, 2))
    gx, (gw,) = ms.grad(lambda t: p(t).sum(), 0, p.trainable_params())(x)
    # MindSpore 2.10: the input gradient is the slope at 0 too; w's is the sum of x <= 0
    np.testing.assert_array_equal(gx.asnumpy().ravel(), [0.5] * 7 + [1.0] * 5)
    np.testing.assert_array_equal(gw.asnumpy(), [-18.0, -3.0, 0.0])
    shared = nn.PReLU()
    np.testing.assert_array_equal(shared(x).asnumpy().ravel()[:4], [-1.5, -1.25, -1.0, -0.75])
    assert repr(shared) == 'PReLU()'
    listed = nn.PReLU(2, [0.1, 0.2])
    np.testing.assert_allclose(listed.w.asnumpy(), [0.1, 0.2])
    given = nn.PReLU(2, ms.Tensor(np.array([0.3, 0.4], np.float32)))
    np.testing.assert_allclose(given.w.asnumpy(), [0.3, 0.4])

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.act = nn.PReLU()

    assert [q.name for q in Net().get_parameters()] == ['act.w']


def test_rrelu_layer_is_random_in_both_modes():
    cell = nn.RReLU(0.2, 0.4)
    assert repr(cell) == 'RReLU()'
    x = ms.Tensor(-np.ones(500, np.float32))
    for mode in (True, False):
        y = cell.set_train(mode)(x).asnumpy()
        assert y.min() >= -0.4 and y.max() <= -0.2 and len(np.unique(y)) > 50


def test_get_activation_knows_mindspores_names():
    assert repr(nn.get_activation('hswish')) == 'HSwish()'
    assert isinstance(nn.get_activation('prelu'), nn.PReLU)
    assert isinstance(nn.Dense(2, 2, activation='elu').activation, nn.ELU)
    with pytest.raises(TypeError, match="missing 2 required positional arguments"):
        nn.get_activation('threshold')


@pytest.mark.parametrize('make, error, message', [
    (lambda: nn.Hardtanh(2.0, 1.0), ValueError,
     "nn.Hardtanh: min_val must be less than max_val, got min_val=2.0, max_val=1.0"),
    (lambda: nn.PReLU(2, [0.1]), ValueError,
     "nn.PReLU: w as a list must hold channel=2 floats, got 1"),
    (lambda: nn.PReLU(2, 1), TypeError, "nn.PReLU: w must be a float, a list or a Tensor, got int"),
    (lambda: nn.PReLU(0), ValueError, "nn.PReLU: channel must be a positive int, got 0"),
    (lambda: nn.PReLU(2, ms.Tensor([1, 2])), ValueError,
     "nn.PReLU: w as a Tensor must be Float16 or Float32, got Int64"),
    (lambda: nn.PReLU(2, ms.Tensor(np.ones(3, np.float32))), ValueError,
     r"nn.PReLU: w as a Tensor must have shape \(2,\), got \(3,\)"),
    (lambda: nn.SoftShrink(-1), ValueError, "nn.SoftShrink: lambd must be >= 0, got -1"),
    (lambda: nn.CELU(0.0), ValueError, "nn.CELU: alpha must be non-zero, got 0"),
    (lambda: nn.GLU(1.5), TypeError, "nn.GLU: axis must be an int, got 1.5"),
    (lambda: nn.Softmin(1.5), TypeError, "nn.Softmin: axis must be an int or a tuple of ints"),
    (lambda: nn.ELU('a'), TypeError, "nn.ELU: alpha must be a float or int, got str"),
    (lambda: nn.RReLU(0.5, 0.1), ValueError, "nn.RReLU: upper must be >= lower"),
])
def test_bad_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()
