"""Layers: activations, Dense, Flatten, Dropout, Dropout2d (values, gradients, state, repr, errors)."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.common.initializer import Constant, Normal, One
from hookgrad.nn import layer as layers
from hookgrad.nn.layer import (GELU, Dense, Dropout, Dropout2d, Flatten, LeakyReLU, LogSoftmax,
                                ReLU, ReLU6, Sigmoid, SiLU, Softmax, Tanh, get_activation)
from hookgrad.testing import check_grad


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _gelu_erf(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def off_kinks(shape, seed=0):
    """Values in +-[0.2, 3], clear of the kinks of relu, relu6 (at 0 and 6) and leaky_relu."""
    rng = np.random.default_rng(seed)
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.2, 3.0, size=shape)


# cell factory, NumPy reference, repr
ACTIVATIONS = [
    (ReLU, lambda x: np.maximum(x, 0), 'ReLU()'),
    (ReLU6, lambda x: np.clip(x, 0, 6), 'ReLU6()'),
    # alpha is a float32 value, as MindSpore's attribute
    (LeakyReLU, lambda x: np.where(x > 0, x, float(np.float32(0.2)) * x), 'LeakyReLU()'),
    (lambda: LeakyReLU(alpha=0.05), lambda x: np.where(x > 0, x, float(np.float32(0.05)) * x),
     'LeakyReLU()'),
    (Sigmoid, _sigmoid, 'Sigmoid()'),
    (Tanh, np.tanh, 'Tanh()'),
    (GELU, _gelu_tanh, 'GELU()'),
    (lambda: GELU(approximate=False), _gelu_erf, 'GELU()'),
    (SiLU, lambda x: x * _sigmoid(x), 'SiLU()'),
    (Softmax, lambda x: _softmax(x, -1), 'Softmax()'),
    (lambda: Softmax(axis=0), lambda x: _softmax(x, 0), 'Softmax()'),
    (lambda: Softmax(axis=(0, 1)), lambda x: _softmax(x, (0, 1)), 'Softmax()'),
    (LogSoftmax, lambda x: np.log(_softmax(x, -1)), 'LogSoftmax()'),
    (lambda: LogSoftmax(0), lambda x: np.log(_softmax(x, 0)), 'LogSoftmax()'),
]
_ACT_PARAMS = [pytest.param(make, ref, text, id=text) for make, ref, text in ACTIVATIONS]


@pytest.mark.parametrize('make,ref,text', _ACT_PARAMS)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_activation_forward_matches_numpy(make, ref, text, dtype):
    x = off_kinks((3, 4)).astype(dtype)
    y = make()(ms.Tensor(x))
    assert y.shape == (3, 4) and y.asnumpy().dtype == dtype
    tol = 2e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(y.asnumpy(), ref(x), rtol=tol, atol=tol)


@pytest.mark.parametrize('make,ref,text', _ACT_PARAMS)
def test_activation_backward_matches_finite_differences(make, ref, text):
    cell = make()
    check_grad(lambda x: cell(x), off_kinks((2, 3), seed=1))


@pytest.mark.parametrize('make,ref,text', _ACT_PARAMS)
def test_activation_repr_and_state(make, ref, text):
    cell = make()
    assert repr(cell) == text
    assert cell.training is False and list(cell.get_parameters()) == []


def test_get_activation_builds_a_new_cell_per_call():
    for name, cls in [('relu', ReLU), ('relu6', ReLU6), ('leakyrelu', LeakyReLU),
                      ('sigmoid', Sigmoid), ('tanh', Tanh), ('gelu', GELU), ('silu', SiLU),
                      ('softmax', Softmax), ('logsoftmax', LogSoftmax)]:
        a, b = get_activation(name), get_activation(name)
        assert type(a) is cls and a is not b
    assert get_activation(None) is None


def test_layers_module_exports_every_public_layer():
    import importlib
    import pkgutil
    defined = set()
    for info in pkgutil.iter_modules(layers.__path__):
        module = importlib.import_module(f"{layers.__name__}.{info.name}")
        defined |= {name for name, obj in vars(module).items()
                    if isinstance(obj, type) and issubclass(obj, nn.Cell) and not name.startswith('_')
                    and obj.__module__ == module.__name__}
    assert {'Dense', 'Conv2d', 'BatchNorm2d', 'MaxPool2d', 'Dropout2d', 'ReLU'} <= defined
    assert defined <= set(layers.__all__)
    assert all(getattr(ms.nn, name) is getattr(layers, name) for name in layers.__all__)
    for name in layers.__all__:
        assert getattr(layers, name).__module__.startswith('hookgrad.nn.layer.')


# ------------------------------------------------------------------------------ Dense
def _dense64(in_c=3, out_c=4, **kwargs):
    rng = np.random.default_rng(5)
    w = rng.standard_normal((out_c, in_c))
    b = rng.standard_normal(out_c)
    kwargs.setdefault('bias_init', ms.Tensor(b, dtype=ms.float64))
    return Dense(in_c, out_c, weight_init=ms.Tensor(w, dtype=ms.float64), dtype=ms.float64,
                 **kwargs), w, b


@pytest.mark.parametrize('shape', [(3,), (5, 3), (2, 5, 3), (2, 1, 4, 3)])
def test_dense_forward_matches_numpy_for_any_leading_shape(shape):
    net, w, b = _dense64()
    x = np.random.default_rng(0).standard_normal(shape)
    y = net(ms.Tensor(x))
    assert y.shape == shape[:-1] + (4,) and y.dtype == ms.float64
    np.testing.assert_allclose(y.asnumpy(), x @ w.T + b, rtol=1e-12)


@pytest.mark.parametrize('activation,ref', [
    ('relu', lambda z: np.maximum(z, 0)), ('sigmoid', _sigmoid), ('tanh', np.tanh),
    ('gelu', _gelu_tanh), (Tanh(), np.tanh), (ops.Sigmoid(), _sigmoid),
    (LeakyReLU(0.1), lambda z: np.where(z > 0, z, 0.1 * z)),
])
def test_dense_applies_its_activation(activation, ref):
    net, w, b = _dense64(activation=activation)
    x = np.random.default_rng(1).standard_normal((4, 3))
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), ref(x @ w.T + b), rtol=1e-7)


def test_dense_without_bias():
    net, w, _ = _dense64(has_bias=False, bias_init=None)
    assert net.bias is None and [n for n, _ in net.parameters_and_names()] == ['weight']
    x = np.random.default_rng(2).standard_normal((2, 3))
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), x @ w.T, rtol=1e-12)
    assert repr(net) == 'Dense(input_channels=3, output_channels=4)'


def _fd_param_grad(loss, param, eps=1e-6):
    """Central differences of ``loss()`` with respect to every element of ``param``."""
    base = param.asnumpy().copy()
    g = np.zeros_like(base)
    for i in np.ndindex(base.shape):
        vals = []
        for step in (eps, -eps):
            moved = base.copy()
            moved[i] += step
            param.set_data(ms.Tensor(moved))
            vals.append(loss().asnumpy().item())
        g[i] = (vals[0] - vals[1]) / (2 * eps)
    param.set_data(ms.Tensor(base))
    return g


@pytest.mark.parametrize('activation', [None, 'sigmoid', 'gelu'])
@pytest.mark.parametrize('shape', [(3,), (2, 3), (2, 2, 3)])
def test_dense_gradients_match_finite_differences(activation, shape):
    net, _, _ = _dense64(activation=activation)
    x = np.random.default_rng(3).standard_normal(shape)
    check_grad(lambda t: net(t), x)
    ct = ms.Tensor(np.random.default_rng(4).standard_normal(shape[:-1] + (4,)))

    def loss():
        return (net(ms.Tensor(x)) * ct).sum()

    grads = ms.grad(loss, grad_position=None, weights=net.trainable_params())()
    for p, g in zip(net.trainable_params(), grads):
        assert g.shape == p.shape
        np.testing.assert_allclose(g.asnumpy(), _fd_param_grad(loss, p), rtol=1e-6, atol=1e-8)


def test_dense_parameters_names_shapes_and_dtypes():
    net = Dense(5, 2)
    assert [(n, p.shape, p.dtype) for n, p in net.parameters_and_names()] == \
        [('weight', (2, 5), ms.float32), ('bias', (2,), ms.float32)]
    assert net.weight.name == 'weight' and net.bias.name == 'bias'
    assert all(p.requires_grad for p in net.trainable_params())
    seq = nn.SequentialCell(Dense(5, 3), ReLU(), Dense(3, 1))
    assert [n for n, _ in seq.parameters_and_names()] == ['0.weight', '0.bias', '2.weight',
                                                         '2.bias']
    assert seq(ms.ops.ones((4, 5))).shape == (4, 1)
    assert Dense(2, 2, dtype=ms.float64).weight.dtype == ms.float64


def test_dense_default_initializers_follow_mindspore():
    ms.set_seed(0)
    in_c, out_c = 400, 300
    net = Dense(in_c, out_c)
    bound = 1 / math.sqrt(in_c)     # HeUniform(sqrt(5)): sqrt(1/3) * sqrt(3 / fan_in)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.01 * bound
    assert abs(w.mean()) < 0.01 * bound
    assert np.abs(b).max() <= bound and np.abs(b).max() > 0.9 * bound
    assert abs(b.std() - bound / math.sqrt(3)) < 0.1 * bound
    ms.set_seed(0)
    again = Dense(in_c, out_c)
    np.testing.assert_array_equal(again.weight.asnumpy(), w)
    np.testing.assert_array_equal(again.bias.asnumpy(), b)


@pytest.mark.parametrize('init,check', [
    ('zeros', lambda w: np.all(w == 0)),
    ('ones', lambda w: np.all(w == 1)),
    (One(), lambda w: np.all(w == 1)),
    (Constant(0.5), lambda w: np.all(w == 0.5)),
    (2.5, lambda w: np.all(w == 2.5)),
    (Normal(sigma=0.02), lambda w: 0.015 < w.std() < 0.025),
    ('xavier_uniform', lambda w: np.abs(w).max() <= math.sqrt(6 / (60 + 50))),
    (ms.Tensor(np.arange(3000.0).reshape(50, 60)), lambda w: w[1, 2] == 62.0),
])
def test_dense_weight_init_forms(init, check):
    net = Dense(60, 50, weight_init=init, bias_init='zeros')
    w = net.weight.asnumpy()
    assert w.shape == (50, 60) and w.dtype == np.float32 and check(w)
    assert np.all(net.bias.asnumpy() == 0)


def test_dense_copies_a_tensor_init():
    w = ms.Tensor(np.ones((2, 3), np.float32))
    net = Dense(3, 2, weight_init=w)
    net.weight.set_data(ms.Tensor(np.zeros((2, 3), np.float32)))
    assert np.all(w.asnumpy() == 1)


def test_dense_repr_and_extend_repr():
    # MindSpore 2.10's text, the activation both in the settings and as a sub-cell
    assert repr(Dense(3, 4)) == 'Dense(input_channels=3, output_channels=4, has_bias=True)'
    net = Dense(3, 4, activation='relu')
    assert net.extend_repr() == \
        'input_channels=3, output_channels=4, has_bias=True, activation=ReLU()'
    assert repr(net) == ('Dense(\n  input_channels=3, output_channels=4, has_bias=True, '
                         'activation=ReLU()\n  (activation): ReLU()\n)')


def test_dense_in_a_network_trains_towards_a_target():
    ms.set_seed(1)
    net = nn.SequentialCell(Dense(2, 8, activation='tanh'), Dense(8, 1))
    x = ms.Tensor(np.random.default_rng(0).standard_normal((32, 2)).astype(np.float32))
    target = x[:, :1] * 2 - x[:, 1:]
    params = net.trainable_params()

    def loss():
        return ((net(x) - target) ** 2).mean()

    first = loss().item()
    for _ in range(50):
        grads = ms.grad(loss, grad_position=None, weights=params)()
        for p, g in zip(params, grads):
            p.set_data(p - 0.1 * g)
    assert loss().item() < 0.2 * first


# ------------------------------------------------------------------------------ Flatten
@pytest.mark.parametrize('args,shape,want', [
    ((), (2, 3, 4, 5), (2, 60)),
    ((0,), (2, 3, 4), (24,)),
    ((1, 2), (2, 3, 4, 5), (2, 12, 5)),
    ((-3, -2), (2, 3, 4, 5), (2, 12, 5)),
    ((), (2, 3), (2, 3)),
    ((), (7,), (7,)),
])
def test_flatten_shapes_values_and_gradient(args, shape, want):
    x = np.random.default_rng(0).standard_normal(shape)
    cell = Flatten(*args)
    y = cell(ms.Tensor(x))
    assert y.shape == want
    np.testing.assert_array_equal(y.asnumpy(), x.reshape(want))
    check_grad(lambda t: cell(t), x)


def test_flatten_repr():
    assert repr(Flatten()) == 'Flatten()'
    assert repr(Flatten(0, 2)) == 'Flatten()'


# ------------------------------------------------------------------------------ Dropout
def test_new_dropout_cells_are_the_identity_until_set_train():
    x = ms.Tensor(np.ones((4, 3, 2, 2), np.float32))
    for cell in (Dropout(), Dropout(p=0.9), Dropout(keep_prob=0.1), Dropout2d(), Dropout2d(1.0)):
        assert cell.training is False and cell(x) is x
        cell.set_train()
        assert not np.array_equal(cell(x).asnumpy(), x.asnumpy())
        cell.set_train(False)
        assert cell(x) is x


def test_dropout_in_training_drops_a_fraction_p_and_scales():
    ms.set_seed(0)
    x = ms.Tensor(np.ones((200, 500), np.float32))
    for cell, p in [(Dropout(), 0.5), (Dropout(p=0.2), 0.2), (Dropout(keep_prob=0.9), 0.1)]:
        y = cell.set_train()(x).asnumpy()
        assert abs((y == 0).mean() - p) < 0.01
        np.testing.assert_allclose(np.unique(y), [0, 1 / (1 - p)], rtol=1e-6)


def test_dropout2d_in_training_drops_whole_channels():
    ms.set_seed(0)
    y = Dropout2d(p=0.25).set_train()(ms.Tensor(np.ones((40, 500, 2, 2), np.float32))).asnumpy()
    kept = y[:, :, :1, :1] != 0
    assert np.all((y != 0) == kept)
    assert abs(1 - kept.mean() - 0.25) < 0.015
    np.testing.assert_allclose(np.unique(y), [0, 1 / 0.75], rtol=1e-6)


def test_p_zero_is_the_identity_in_training():
    x = ms.Tensor(np.ones((2, 3, 2, 2), np.float32))
    assert Dropout(p=0.0).set_train()(x) is x
    assert Dropout(keep_prob=1.0).set_train()(x) is x
    assert Dropout2d(0.0).set_train()(x) is x


@pytest.mark.parametrize('make', [lambda: Dropout(p=0.4), lambda: Dropout2d(p=0.4)])
def test_dropout_layer_gradients_match_finite_differences(make):
    cell = make().set_train()

    def fn(t):
        ms.set_seed(9)          # the same mask on every evaluation
        return cell(t)

    x = np.random.default_rng(0).standard_normal((2, 3, 2, 2))
    g = check_grad(fn, x)[0]
    y = fn(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(g != 0, y != 0)


def test_set_train_reaches_dropout_inside_a_network():
    ms.set_seed(2)
    net = nn.SequentialCell(Dense(10, 10, weight_init='ones', bias_init='zeros'), Dropout(p=0.5))
    x = ms.Tensor(np.ones((8, 10), np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), 10)
    net.set_train()
    assert net[1].training and net[1].phase == 'train'
    y = net(x).asnumpy()
    assert set(np.unique(y).tolist()) == {0.0, 20.0}
    net.set_train(False)
    np.testing.assert_array_equal(net(x).asnumpy(), 10)


def test_dropout_reprs():
    # MindSpore 2.10 prints keep_prob unless p was given, and Dropout2d's keep probability
    # under the name p
    assert repr(Dropout()) == 'Dropout(keep_prob=0.5)'
    assert repr(Dropout(p=0.1)) == 'Dropout(p=0.1)'
    assert repr(Dropout(keep_prob=0.8)) == 'Dropout(keep_prob=0.8)'
    assert repr(Dropout2d(0.3)) == 'Dropout2d(p=0.7)'
    assert Dropout(keep_prob=0.8).p == pytest.approx(0.2)
    assert Dropout(p=0.3).keep_prob == pytest.approx(0.7)


# ------------------------------------------------------------------------------ errors
X23 = ms.Tensor(np.ones((2, 3), np.float32))


def _nested_dense():
    net = nn.SequentialCell(Dense(3, 4), Dense(5, 2))
    return net(X23)


ERRORS = [
    (lambda: LeakyReLU(alpha='0.1'), TypeError, r"nn\.LeakyReLU: alpha must be a number, got str"),
    (lambda: GELU(approximate='tanh'), TypeError,
     r"nn\.GELU: approximate must be a bool, got 'tanh'"),
    (lambda: Softmax(axis=1.0), TypeError,
     r"nn\.Softmax: axis must be an int or a tuple of ints, got 1\.0"),
    (lambda: Softmax(axis=(0, 'a')), TypeError,
     r"nn\.Softmax: axis must be an int or a tuple of ints, got \(0, 'a'\)"),
    (lambda: LogSoftmax(axis=(0, 1)), TypeError,
     r"nn\.LogSoftmax: axis must be an int, got \(0, 1\)"),
    (lambda: Softmax(axis=2)(X23), ValueError,
     r"ops\.softmax: axis 2 is out of range for a tensor of rank 2"),
    (lambda: get_activation('swish'), KeyError,
     r"nn\.get_activation: unknown activation 'swish'; valid names: softmin, softmax, "
     r"logsoftmax, relu, relu6, rrelu, silu, tanh, .*, mish"),
    (lambda: get_activation(3), TypeError,
     r"nn\.get_activation: the activation name must be a str, got int"),
    (lambda: Dense(3, 4, activation='Relu'), KeyError,
     r"nn\.Dense: unknown activation 'Relu'; valid names: softmin, .*relu"),
    (lambda: Dense(3, 4, activation=np.tanh), TypeError,
     r"nn\.Dense: activation must be a str, a Cell, a Primitive or None, got ufunc"),
    (lambda: Dense(3.0, 4), TypeError, r"nn\.Dense: in_channels must be a positive int, got 3\.0"),
    (lambda: Dense(3, True), TypeError,
     r"nn\.Dense: out_channels must be a positive int, got True"),
    (lambda: Dense(0, 4), ValueError, r"nn\.Dense: in_channels must be a positive int, got 0"),
    (lambda: Dense(3, -1), ValueError, r"nn\.Dense: out_channels must be a positive int, got -1"),
    (lambda: Dense(3, 4, has_bias=1), TypeError, r"nn\.Dense: has_bias must be a bool, got 1"),
    (lambda: Dense(3, 4, weight_init=ms.Tensor(np.ones((3, 4)))), ValueError,
     r"nn\.Dense: weight_init has shape \(3, 4\), expected \(4, 3\)"),
    (lambda: Dense(3, 4, bias_init=ms.Tensor(np.ones((3,)))), ValueError,
     r"nn\.Dense: bias_init has shape \(3,\), expected \(4,\)"),
    (lambda: Dense(3, 4, weight_init='glorot'), ValueError,
     r"initializer: unknown initializer name 'glorot'"),
    (lambda: Dense(3, 4)(ms.Tensor(np.ones((2, 5), np.float32))), ValueError,
     r"nn\.Dense 'Dense': input of shape \(2, 5\) does not match weight of shape \(4, 3\): "
     r"expected \(\.\.\., 3\)"),
    (lambda: Dense(3, 4)(ms.Tensor(1.0)), ValueError,
     r"nn\.Dense 'Dense': input of shape \(\) does not match weight of shape \(4, 3\)"),
    (_nested_dense, ValueError,
     r"nn\.Dense 'SequentialCell\.1': input of shape \(2, 4\) does not match weight of shape "
     r"\(2, 5\): expected \(\.\.\., 5\)"),
    (lambda: Dense(3, 4)([1.0, 2.0, 3.0]), TypeError,
     r"nn\.Dense 'Dense': expected a Tensor input, got list"),
    (lambda: Flatten(start_dim=1.0), TypeError, r"nn\.Flatten: start_dim must be an int, got 1\.0"),
    (lambda: Flatten(end_dim=None), TypeError, r"nn\.Flatten: end_dim must be an int, got None"),
    (lambda: Flatten(2, 1)(ms.Tensor(np.ones((2, 3, 4)))), ValueError,
     r"ops\.flatten: start_dim 2 comes after end_dim 1 for a tensor of shape \(2, 3, 4\)"),
    (lambda: Flatten(3)(ms.Tensor(np.ones((2, 3, 4)))), ValueError,
     r"ops\.flatten: start_dim 3 or end_dim -1 is out of range for a tensor of shape \(2, 3, 4\)"),
    (lambda: Dropout(keep_prob=0.5, p=0.5), ValueError,
     r"nn\.Dropout: give keep_prob or p, not both \(got keep_prob=0\.5 and p=0\.5\)"),
    (lambda: Dropout(p=1.0), ValueError, r"nn\.Dropout: p must be in \[0\.0, 1\.0\), got 1\.0"),
    (lambda: Dropout(p=-0.5), ValueError, r"nn\.Dropout: p must be in \[0\.0, 1\.0\), got -0\.5"),
    (lambda: Dropout(p='0.5'), TypeError, r"nn\.Dropout: p must be a float, got str"),
    (lambda: Dropout(keep_prob=0), ValueError,
     r"nn\.Dropout: keep_prob must be in \(0\.0, 1\.0\], got 0\.0"),
    (lambda: Dropout(keep_prob=1.5), ValueError,
     r"nn\.Dropout: keep_prob must be in \(0\.0, 1\.0\], got 1\.5"),
    (lambda: Dropout(keep_prob=[0.5]), TypeError, r"nn\.Dropout: keep_prob must be a float, got list"),
    (lambda: Dropout(dtype='float99'), TypeError,
     r"nn\.Dropout: dtype: unknown dtype name 'float99'"),
    (lambda: Dropout().set_train()(ms.Tensor([1, 2, 3])), TypeError,
     r"ops\.dropout: expected a floating tensor .* got dtype Int64"),
    (lambda: Dropout2d(p=1.5), ValueError, r"nn\.Dropout2d: p must be in \[0\.0, 1\.0\], got 1\.5"),
    (lambda: Dropout2d(p=None), TypeError, r"nn\.Dropout2d: p must be a float, got NoneType"),
    (lambda: Dropout2d().set_train()(X23), ValueError,
     r"ops\.dropout2d: expected a 4-d input of shape \(N, C, H, W\), got shape \(2, 3\)"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
