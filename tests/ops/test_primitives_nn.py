"""MindSpore's activation, normalization and loss Primitives: values (MindSpore 2.10's, recorded
as literals, or an independent NumPy formula), gradients and constructor errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import backend
from hookgrad.ops import operations as P
from hookgrad.testing import check_grad
from hookgrad.testing.cases import device_named
from tests.ops.rows import error_test

X = np.array([[-2.0, -0.5, 0.0], [0.7, 1.5, 3.0]], np.float32)
X4 = (np.arange(24).reshape(2, 3, 2, 2) * 0.1 - 1).astype(np.float32)
LOGITS = np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0]], np.float32)
LABELS = np.array([[0., 1., 0.], [0.2, 0.3, 0.5]], np.float32)
PROBS = np.array([[0.2, 0.7, 0.5], [0.9, 0.1, 0.4]], np.float32)
CLASSES = np.array([1, 2], np.int32)
X3 = (np.arange(24).reshape(2, 3, 4) * 0.3 - 2
      + (np.arange(24) % 5).reshape(2, 3, 4) * 0.2).astype(np.float32)


def T(a):
    return ms.Tensor(np.asarray(a))


# name, primitive factory, inputs, expected outputs: all from MindSpore 2.10 (CPU)
MINDSPORE = [
    ('ReLU6', lambda: P.ReLU6(), (X,), [[0.0, 0.0, 0.0], [0.7, 1.5, 3.0]]),
    ('FastGeLU', lambda: P.FastGeLU(), (X,),
     [[-0.06434137, -0.14961156, 0.0], [0.5368939, 1.39166224, 2.98192883]]),
    ('Gelu', lambda: P.Gelu(), (X,),
     [[-0.04540229, -0.15428600, 0.0], [0.53057015, 1.39957154, 2.99636269]]),
    ('HSwish', lambda: P.HSwish(), (X,),
     [[-0.33333334, -0.20833333, 0.0], [0.43166664, 1.125, 3.0]]),
    ('HSigmoid', lambda: P.HSigmoid(), (X,),
     [[0.16666667, 0.41666666, 0.5], [0.61666667, 0.75, 1.0]]),
    ('SeLU', lambda: P.SeLU(), (X,),
     [[-1.52016652, -0.69175816, 0.0], [0.73549068, 1.57605147, 3.15210295]]),
    ('Softplus', lambda: P.Softplus(), (X,),
     [[0.12692794, 0.47407684, 0.693147], [1.10318601, 1.70141351, 3.0485878]]),
    ('Softsign', lambda: P.Softsign(), (X,),
     [[-0.66666669, -0.33333334, 0.0], [0.41176468, 0.6, 0.75]]),
    ('Mish', lambda: P.Mish(), (X,),
     [[-0.25250134, -0.22074372, 0.0], [0.56114841, 1.40337837, 2.98653507]]),
    ('Elu', lambda: P.Elu(), (X,), [[-0.86466479, -0.39346951, 0.0], [0.7, 1.5, 3.0]]),
    ('CeLU', lambda: P.CeLU(2.0), (X,), [[-1.2642411, -0.44239843, 0.0], [0.7, 1.5, 3.0]]),
    ('HShrink', lambda: P.HShrink(0.6), (X,), [[-2.0, 0.0, 0.0], [0.7, 1.5, 3.0]]),
    ('SoftShrink', lambda: P.SoftShrink(0.6), (X,), [[-1.4, 0.0, 0.0], [0.1, 0.9, 2.4]]),
    ('GLU', lambda: P.GLU(0), (X,), [[-1.33637547, -0.40878722, 0.0]]),
    ('PReLU', lambda: P.PReLU(), (X, np.float32([0.25])),
     [[-0.5, -0.125, 0.0], [0.7, 1.5, 3.0]]),
    ('BiasAdd-NHWC', lambda: P.BiasAdd('NHWC'), (np.ones((1, 2, 2), np.float32),
                                                np.float32([1, 2])),
     [[[2.0, 3.0], [2.0, 3.0]]]),
    ('SoftmaxCrossEntropyWithLogits', lambda: P.SoftmaxCrossEntropyWithLogits(),
     (LOGITS, LABELS),
     ([0.46436879, 1.4617846],
      [[0.23122390, -0.37146831, 0.14024438], [-0.07529254, -0.25848851, 0.33378100]])),
    ('SparseSoftmaxCrossEntropyWithLogits', lambda: P.SparseSoftmaxCrossEntropyWithLogits(),
     (LOGITS, CLASSES), 0.32307637),
    ('SparseSoftmaxCrossEntropyWithLogits-grad',
     lambda: P.SparseSoftmaxCrossEntropyWithLogits(True), (LOGITS, CLASSES),
     [[0.11561181, -0.18573400, 0.07012220], [0.06235371, 0.02075574, -0.08310947]]),
    ('SigmoidCrossEntropyWithLogits', lambda: P.SigmoidCrossEntropyWithLogits(),
     (LOGITS, LABELS), [[1.31326175, 0.12692800, 0.97407699], [0.72439665, 0.6132617,
                                                              1.12692797]]),
    ('BinaryCrossEntropy', lambda: P.BinaryCrossEntropy(), (PROBS, LABELS), 0.769032),
    ('BinaryCrossEntropy-sum', lambda: P.BinaryCrossEntropy('sum'), (PROBS, LABELS),
     4.614192),
    ('BCEWithLogitsLoss', lambda: P.BCEWithLogitsLoss(),
     (LOGITS, LABELS, np.float32([1, 2, 3]), np.float32([1, 1, 2])), 1.66857398),
    ('L2Loss', lambda: P.L2Loss(), (X,), 7.995),
    ('SmoothL1Loss', lambda: P.SmoothL1Loss(), (LOGITS, LABELS),
     [[0.5, 0.5, 0.125], [0.005, 0.8, 1.0]]),
    ('SmoothL1Loss-beta', lambda: P.SmoothL1Loss(0.5, 'mean'), (LOGITS, LABELS), 0.67666668),
    ('KLDivLoss', lambda: P.KLDivLoss(), (LOGITS, PROBS), -0.70828885),
    ('KLDivLoss-batchmean', lambda: P.KLDivLoss('batchmean'), (LOGITS, PROBS), -2.12486649),
    ('NLLLoss', lambda: P.NLLLoss(), (LOGITS, CLASSES, np.float32([1, 2, 0.5])), (-2.0, 2.5)),
    ('NLLLoss-none', lambda: P.NLLLoss('none'), (LOGITS, CLASSES, np.float32([1, 2, 0.5])),
     ([-4.0, -1.0], 2.5)),
    ('NLLLoss-sum-ignore', lambda: P.NLLLoss('sum', ignore_index=2),
     (LOGITS, CLASSES, np.float32([1, 2, 0.5])), (-4.0, 2.0)),
    ('LayerNorm', lambda: P.LayerNorm(-1, -1, 1e-5),
     (X3, np.float32([1, 2, 3, 4]), np.float32([0, 0.1, 0.2, 0.3])),
     ([[[-1.34161925, -0.79441285, 1.54161930, 5.66647720],
        [0.0, -2.72831392, 0.2, 5.95662785],
        [-0.99992001, 2.09983993, -2.79976010, 4.29968023]],
       [[-1.41415691, 0.1, 4.44247055, 0.3],
        [-1.34161925, -0.79441285, 1.54161930, 5.66647720],
        [-1.34161925, -0.79441285, 1.54161930, 5.66647720]]],
      [[[-1.25], [0.0], [1.25]], [[2.5], [3.75], [4.75]]],
      [[[0.3125], [0.125], [0.0625]], [[0.125], [0.3125], [0.3125]]])),
    ('LayerNorm-default', lambda: P.LayerNorm(), (X3, np.full((3, 4), 1.5, np.float32),
                                                  np.full((3, 4), 0.1, np.float32)),
     (None, [[[0.0]], [[3.66666675]]], [[[1.20833337]], [[1.09722221]]])),
    ('BatchNorm-inference', lambda: P.BatchNorm(),
     (X4, np.float32([1, 2, 3]), np.float32([0, 1, 0]), np.float32([0.1, 0.2, 0.3]),
      np.float32([1, 2, 0.5])),
     ([[[[-1.09999454, -0.99999499], [-0.89999551, -0.79999602]],
        [[-0.13136804, 0.01005304], [0.15147400, 0.29289502]],
        [[-2.12129903, -1.69703925], [-1.27277946, -0.84851968]]],
       [[[0.09999950, 0.19999902], [0.29999852, 0.39999801]],
        [[1.56568408, 1.70710492], [1.84852600, 1.98994696]],
        [[2.96981859, 3.39407849], [3.81833839, 4.24259758]]]],
      [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0])),
]


def _outputs(y):
    return list(y) if isinstance(y, (tuple, list)) else [y]


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
@pytest.mark.parametrize('make,args,want', [pytest.param(m, a, w, id=n)
                                             for n, m, a, w in MINDSPORE])
def test_primitive_values_match_mindspore(make, args, want, device):
    with backend.default_device(device_named(device)):
        got = _outputs(make()(*[T(a) for a in args]))
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, ms.Tensor)
        if w is None:
            continue
        assert g.dtype in (ms.float32, ms.int32)
        np.testing.assert_allclose(g.asnumpy(), np.asarray(w, np.float32), rtol=2e-5,
                                   atol=2e-6)


def test_batch_norm_training_updates_the_statistics_as_mindspore():
    mean = ms.Parameter(T(np.float32([0.1, 0.2, 0.3])), name='mean')
    var = ms.Parameter(T(np.float32([1, 2, 0.5])), name='var')
    y, bm, bv, r1, r2 = P.BatchNorm(True, momentum=0.2)(
        T(X4), T(np.float32([1, 2, 3])), T(np.float32([0, 1, 0])), mean, var)
    # MindSpore 2.10: the updated Parameters and reserve_space_1 / reserve_space_2
    np.testing.assert_allclose(mean.asnumpy(), [0.03, 0.19000001, 0.35], rtol=1e-5)
    np.testing.assert_allclose(var.asnumpy(), [0.88514286, 1.6851429, 0.4851429], rtol=1e-5)
    np.testing.assert_allclose(r1.asnumpy(), [-0.25, 0.15, 0.55], rtol=1e-5)
    np.testing.assert_allclose(r2.asnumpy(), [0.3725] * 3, rtol=1e-5)
    np.testing.assert_allclose(y.asnumpy()[0, 0, 0], [-1.22883141, -1.06498718], rtol=1e-5)
    np.testing.assert_array_equal(bm.asnumpy(), r1.asnumpy())
    np.testing.assert_array_equal(bv.asnumpy(), r2.asnumpy())


def test_binary_cross_entropy_none_with_weight_is_the_formula():
    w = np.float32([1, 2, 3])
    got = P.BinaryCrossEntropy('none')(T(PROBS), T(LABELS), T(w)).asnumpy()
    want = -w * (LABELS * np.log(PROBS) + (1 - LABELS) * np.log(1 - PROBS))
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_soft_margin_loss_is_the_formula():
    y = np.float32([[1, -1, 1], [-1, -1, 1]])
    got = P.SoftMarginLoss()(T(LOGITS), T(y)).asnumpy()
    np.testing.assert_allclose(got, np.mean(np.log1p(np.exp(-y * LOGITS))), rtol=1e-6)


def test_prelu_and_bias_add_per_channel_match_numpy():
    w = np.float32([0.1, 0.2, 0.3])
    got = P.PReLU()(T(X4), T(w)).asnumpy()
    np.testing.assert_allclose(got, np.where(X4 > 0, X4, X4 * w[:, None, None]), rtol=1e-6)
    got = P.BiasAdd()(T(X4), T(w)).asnumpy()
    np.testing.assert_allclose(got, X4 + w[:, None, None], rtol=1e-6)


def test_aliases_are_the_same_classes():
    assert P.FastGelu is P.FastGeLU and P.Gelu is P.GeLU
    assert ops.TensorAdd is ops.Add


RNG = np.random.default_rng(3)
GRADS = [
    ('HSwish', lambda x: P.HSwish()(x), (RNG.uniform(-4, 4, (2, 5)),)),
    ('Mish', lambda x: P.Mish()(x), (RNG.standard_normal((2, 3)),)),
    ('GLU', lambda x: P.GLU(-1)(x), (RNG.standard_normal((2, 4)),)),
    ('BiasAdd', lambda x, b: P.BiasAdd()(x, b), (RNG.standard_normal((2, 3, 2)),
                                                 RNG.standard_normal(3))),
    ('LayerNorm', lambda x, g, b: P.LayerNorm(1, 1, 1e-5)(x, g, b),
     (RNG.standard_normal((2, 3, 2)), RNG.standard_normal((3, 2)),
      RNG.standard_normal((3, 2)))),
    ('SoftmaxCrossEntropyWithLogits', lambda x: P.SoftmaxCrossEntropyWithLogits()(
        x, T(np.array([[0.2, 0.8, 0.0], [0.5, 0.25, 0.25]]))), (RNG.standard_normal((2, 3)),)),
    ('SparseSoftmaxCrossEntropyWithLogits', lambda x: P.SparseSoftmaxCrossEntropyWithLogits()(
        x, T(np.int32([2, 0]))), (RNG.standard_normal((2, 3)),)),
    ('NLLLoss', lambda x, w: P.NLLLoss()(x, T(np.int32([2, 0])), w),
     (RNG.standard_normal((2, 3)), RNG.uniform(0.5, 2, 3))),
    ('L2Loss', lambda x: P.L2Loss()(x), (RNG.standard_normal((2, 3)),)),
]


@pytest.mark.parametrize('fn,arrays', [pytest.param(f, a, id=n) for n, f, a in GRADS])
def test_gradients_match_finite_differences(fn, arrays):
    check_grad(fn, *arrays)


ERRORS = [
    (lambda: P.Elu(2.0), ValueError, r"ops\.Elu: alpha must be 1\.0, got 2\.0"),
    (lambda: P.Elu('1'), TypeError, r"ops\.Elu: alpha must be a float, got '1'"),
    (lambda: P.CeLU(0.0), ValueError, r"ops\.CeLU: alpha must not be 0"),
    (lambda: P.HShrink('a'), TypeError, r"ops\.HShrink: lambd must be a float, got 'a'"),
    (lambda: P.GLU(1.5), TypeError, r"ops\.GLU: axis must be an int, got 1\.5"),
    (lambda: P.BiasAdd('NDHWC'), ValueError, r"ops\.BiasAdd: data_format must be 'NCHW', "),
    (lambda: P.BiasAdd()(T(X4), T(np.float32([1, 2]))), ValueError,
     r"ops\.BiasAdd: bias must have shape \(3,\) for input_x of shape \(2, 3, 2, 2\), got "
     r"\(2,\)"),
    (lambda: P.LayerNorm()(T(X3), T(np.ones(4, np.float32)), T(np.ones(4, np.float32))),
     ValueError, r"ops\.LayerNorm: gamma must have shape \(3, 4\)"),
    (lambda: P.BatchNorm(is_training=1), TypeError,
     r"ops\.BatchNorm: is_training must be a bool, got 1"),
    (lambda: P.BatchNorm(epsilon=2.0), ValueError,
     r"ops\.BatchNorm: epsilon must be in \(0, 1\], got 2\.0"),
    (lambda: P.BatchNorm(data_format='NHWC'), ValueError,
     r"ops\.BatchNorm: data_format must be 'NCHW', got 'NHWC'"),
    (lambda: P.BinaryCrossEntropy('avg'), ValueError,
     r"ops\.BinaryCrossEntropy: reduction must be one of 'none', 'mean', 'sum', got 'avg'"),
    (lambda: P.KLDivLoss('x'), ValueError,
     r"ops\.KLDivLoss: reduction must be one of 'none', 'mean', 'batchmean', 'sum', got 'x'"),
    (lambda: P.SmoothL1Loss(0.0), ValueError, r"ops\.SmoothL1Loss: beta must be > 0, got 0\.0"),
    (lambda: P.SparseSoftmaxCrossEntropyWithLogits(1), TypeError,
     r"ops\.SparseSoftmaxCrossEntropyWithLogits: is_grad must be a bool, got 1"),
    (lambda: P.SparseSoftmaxCrossEntropyWithLogits()(T(LOGITS), T(np.float32([1, 2]))),
     TypeError, r"ops\.SparseSoftmaxCrossEntropyWithLogits: labels must be an integer Tensor"),
    (lambda: P.SoftmaxCrossEntropyWithLogits()(T(LOGITS), T(LABELS[:1])), ValueError,
     r"ops\.SoftmaxCrossEntropyWithLogits: labels must have the logits' shape \(2, 3\)"),
    (lambda: P.NLLLoss()(T(LOGITS), T(np.int32([1, 3])), T(np.ones(3, np.float32))),
     ValueError, r"ops\.NLLLoss: labels must be in \[0, 3\), got \[1, 3\]"),
    (lambda: P.NLLLoss(ignore_index=None), TypeError,
     r"ops\.NLLLoss: ignore_index must be an int, got None"),
]


test_errors_name_the_primitive_and_argument = error_test(ERRORS)


def test_constructor_arguments_and_repr():
    p = P.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1)
    assert (p.begin_norm_axis, p.begin_params_axis, p.epsilon) == (-1, -1, 1e-7)
    assert repr(P.SmoothL1Loss()) == "Prim[SmoothL1Loss]<beta=1.0, reduction='none'>"
    assert repr(P.ReLU6()) == 'Prim[ReLU6]'
    bn = P.BatchNorm()
    assert (bn.is_training, bn.epsilon, bn.momentum, bn.data_format) == \
        (False, 1e-5, 0.1, 'NCHW')
