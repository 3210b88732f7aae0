"""hookgrad.common.initializer: names, classes, fans, statistics, dtypes, shapes and errors."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _random
from hookgrad.common import initializer as init_mod
from hookgrad.common.initializer import (initializer, Initializer, Zero, One, Constant, Normal,
                                         Uniform, TruncatedNormal, XavierUniform, XavierNormal,
                                         HeUniform, HeNormal, _calculate_fan_in_and_fan_out,
                                         _calculate_gain, _ndtri)

N = 200_000     # samples for statistical checks: std error of a mean ~ 0.2% of sigma


@pytest.fixture(autouse=True)
def seeded():
    saved = _random._seed, _random._generator
    ms.set_seed(2024)
    yield
    _random._seed, _random._generator = saved


def values(init, shape, dtype=ms.float64):
    return initializer(init, shape, dtype).asnumpy()


# ----------------------------------------------------------------- names and aliases
NAMES = [
    ('zeros', Zero), ('Zero', Zero), ('ones', One), ('One', One), ('normal', Normal),
    ('Normal', Normal), ('uniform', Uniform), ('Uniform', Uniform),
    ('truncatedNormal', TruncatedNormal), ('TruncatedNormal', TruncatedNormal),
    ('xavier_uniform', XavierUniform), ('XavierUniform', XavierUniform),
    ('xavier_normal', XavierNormal), ('XavierNormal', XavierNormal),
    ('he_uniform', HeUniform), ('HeUniform', HeUniform), ('he_normal', HeNormal),
    ('HeNormal', HeNormal),
]


@pytest.mark.parametrize('name, cls', NAMES)
def test_a_name_gives_the_same_values_as_its_class_with_defaults(name, cls):
    ms.set_seed(11)
    by_name = values(name, (6, 5, 2))
    ms.set_seed(11)
    by_class = values(cls(), (6, 5, 2))
    np.testing.assert_array_equal(by_name, by_class)


def test_every_documented_name_is_registered():
    assert {n.lower() for n, _ in NAMES} <= set(init_mod._BY_NAME)


def test_zeros_ones_and_constants():
    np.testing.assert_array_equal(values('zeros', (2, 3)), np.zeros((2, 3)))
    np.testing.assert_array_equal(values('ones', [1, 2, 3]), np.ones((1, 2, 3)))
    np.testing.assert_array_equal(values(2.5, (2,)), [2.5, 2.5])
    np.testing.assert_array_equal(values(Constant(-3), 4), [-3.0] * 4)
    np.testing.assert_array_equal(initializer(7, (2,), ms.int32).asnumpy(), [7, 7])


def test_result_is_a_fresh_constant_tensor():
    t = initializer('ones', (2, 2))
    assert type(t) is ms.Tensor and t.dtype == ms.float32 and t.shape == (2, 2)
    assert not t.requires_grad and t.is_leaf


def test_a_parameter_from_an_initializer_owns_its_values():
    t = initializer('normal', [2, 3])
    p = ms.Parameter(t, name='w')
    p[0, 0] = 5.0
    assert t.asnumpy()[0, 0] != 5.0
    p.set_data(initializer('zeros', [2, 3]))
    np.testing.assert_array_equal(p.asnumpy(), np.zeros((2, 3), np.float32))


# ----------------------------------------------------------------- fans and gains
@pytest.mark.parametrize('shape, fans', [
    ((7,), (7, 7)),                 # 1-d: a bias
    ((3, 5), (5, 3)),               # Dense weight (out_channels, in_channels)
    ((8, 4, 3, 2), (24, 48)),       # Conv2d weight (out, in, kh, kw): receptive field 6
    ((6, 2, 5), (10, 30)),          # Conv1d weight
    ((3, 0), (0, 3)),
])
def test_fans(shape, fans):
    assert _calculate_fan_in_and_fan_out(shape) == fans


def test_fans_of_a_0d_shape_are_undefined():
    with pytest.raises(ValueError, match=r"fan_in and fan_out need a shape with at least 1 "
                                         r"dimension, got a 0-d shape \(\)"):
        _calculate_fan_in_and_fan_out(())
    with pytest.raises(ValueError, match="at least 1 dimension"):
        initializer('xavier_uniform', ())


@pytest.mark.parametrize('nonlinearity, param, gain', [
    ('linear', None, 1.0), ('conv2d', None, 1.0), ('sigmoid', None, 1.0), ('tanh', None, 5 / 3),
    ('relu', None, math.sqrt(2)), ('leaky_relu', None, math.sqrt(2 / (1 + 0.01 ** 2))),
    ('leaky_relu', 0, math.sqrt(2)), ('leaky_relu', 0.2, math.sqrt(2 / 1.04)), ('selu', None, 0.75),
])
def test_gains(nonlinearity, param, gain):
    assert _calculate_gain(nonlinearity, param) == pytest.approx(gain)


# ----------------------------------------------------------------- statistics
def test_normal_mean_and_std():
    x = values(Normal(sigma=0.5, mean=1.0), (N,))
    assert x.mean() == pytest.approx(1.0, abs=0.005)
    assert x.std() == pytest.approx(0.5, rel=0.01)
    d = values('normal', (N,))
    assert d.mean() == pytest.approx(0.0, abs=1e-4) and d.std() == pytest.approx(0.01, rel=0.01)


def test_uniform_bounds_mean_and_std():
    x = values(Uniform(scale=0.3), (N,))
    assert x.min() >= -0.3 and x.max() < 0.3
    assert x.min() < -0.299 and x.max() > 0.299
    assert x.mean() == pytest.approx(0.0, abs=0.003)
    assert x.std() == pytest.approx(0.3 / math.sqrt(3), rel=0.01)
    d = values('uniform', (N,))
    assert np.abs(d).max() <= 0.07 and d.std() == pytest.approx(0.07 / math.sqrt(3), rel=0.01)


def _truncated_moments(a, b):
    """Mean and std of a standard normal truncated to [a, b]."""
    pdf = lambda z: 0.0 if math.isinf(z) else math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    cdf = lambda z: 0.5 * math.erfc(-z / math.sqrt(2))
    zmass = cdf(b) - cdf(a)
    mean = (pdf(a) - pdf(b)) / zmass
    za = 0.0 if math.isinf(a) else a * pdf(a)
    zb = 0.0 if math.isinf(b) else b * pdf(b)
    return mean, math.sqrt(1 + (za - zb) / zmass - mean ** 2)


@pytest.mark.parametrize('sigma, mean, a, b', [
    (0.01, 0.0, -2.0, 2.0),         # the defaults
    (2.0, 1.0, -1.0, 1.5),          # asymmetric
    (1.0, 0.0, 2.5, 4.0),           # an upper-tail interval: 0.6% of the mass
    (0.5, -3.0, -6.0, -5.0),        # a lower-tail interval far out
    (1.0, 0.0, 0.0, math.inf),      # half-normal
])
def test_truncated_normal_stays_in_bounds_with_the_right_moments(sigma, mean, a, b):
    """a and b bound the values themselves, as MindSpore's TruncatedNormal takes them."""
    x = values(TruncatedNormal(sigma=sigma, mean=mean, a=a, b=b), (N,))
    assert x.min() >= a and x.max() <= b
    m, s = _truncated_moments((a - mean) / sigma, (b - mean) / sigma)
    assert x.mean() == pytest.approx(mean + sigma * m, abs=0.01 * sigma * s + 1e-12)
    assert x.std() == pytest.approx(sigma * s, rel=0.01)


def test_truncated_normal_default_is_nearly_untruncated():
    """The defaults, sigma 0.01 within [-2, 2], cut nothing that a float32 sample reaches."""
    x = initializer('truncatedNormal', (N,)).asnumpy()
    assert x.dtype == np.float32
    assert np.abs(x).max() < 0.07
    assert x.std() == pytest.approx(0.01, rel=0.01)


def test_truncated_normal_beyond_the_reach_of_the_cdf():
    # 39-40 sigma out the normal CDF underflows; samples still land in the interval,
    # crowded against its inner end (mean offset about 1/39)
    x = values(TruncatedNormal(sigma=1.0, a=39.0, b=40.0), (N,))
    assert x.min() >= 39.0 and x.max() <= 40.0
    assert x.mean() - 39.0 == pytest.approx(1 / 39, rel=0.02)
    y = values(TruncatedNormal(sigma=1.0, a=-40.0, b=-39.0), (N,))
    assert y.min() >= -40.0 and y.max() <= -39.0
    assert -39.0 - y.mean() == pytest.approx(1 / 39, rel=0.02)


def test_inverse_normal_cdf_is_accurate():
    p = np.concatenate([np.logspace(-300, -1, 400), np.linspace(0.01, 0.99, 197)])
    back = np.array([0.5 * math.erfc(-z / math.sqrt(2)) for z in _ndtri(p)])
    np.testing.assert_allclose(back, p, rtol=1e-12)
    assert _ndtri(0.5) == 0.0
    assert _ndtri(0.975) == pytest.approx(1.959963984540054, rel=1e-14)


@pytest.mark.parametrize('shape', [(7,), (64, 32), (16, 8, 3, 3)])
def test_xavier_uniform_bound(shape):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    reps = N // math.prod(shape) + 1
    x = np.stack([values(XavierUniform(gain=2.0), shape) for _ in range(reps)])
    bound = 2.0 * math.sqrt(6 / (fan_in + fan_out))
    assert np.abs(x).max() <= bound and np.abs(x).max() > 0.99 * bound
    assert x.std() == pytest.approx(bound / math.sqrt(3), rel=0.01)


@pytest.mark.parametrize('shape', [(7,), (64, 32), (16, 8, 3, 3)])
def test_xavier_normal_std(shape):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    reps = N // math.prod(shape) + 1
    x = np.stack([values(XavierNormal(gain=0.5), shape) for _ in range(reps)])
    assert x.std() == pytest.approx(0.5 * math.sqrt(2 / (fan_in + fan_out)), rel=0.01)


@pytest.mark.parametrize('kwargs, gain', [
    ({}, math.sqrt(2)),
    ({'negative_slope': 0.2}, math.sqrt(2 / 1.04)),
    ({'nonlinearity': 'relu'}, math.sqrt(2)),
    ({'nonlinearity': 'tanh'}, 5 / 3),
    ({'nonlinearity': 'linear'}, 1.0),
])
@pytest.mark.parametrize('mode', ['fan_in', 'fan_out'])
def test_he_uniform_bound_and_he_normal_std(kwargs, gain, mode):
    shape = (32, 16, 3, 3)
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    std = gain / math.sqrt(fan_in if mode == 'fan_in' else fan_out)
    reps = N // math.prod(shape) + 1
    u = np.stack([values(HeUniform(mode=mode, **kwargs), shape) for _ in range(reps)])
    bound = math.sqrt(3) * std
    assert np.abs(u).max() <= bound and np.abs(u).max() > 0.99 * bound
    n = np.stack([values(HeNormal(mode=mode, **kwargs), shape) for _ in range(reps)])
    assert n.std() == pytest.approx(std, rel=0.01)
    assert n.mean() == pytest.approx(0.0, abs=0.01 * std)


def test_dense_weight_uses_in_channels_as_fan_in():
    x = values('he_uniform', (4, 1000))       # (out_channels, in_channels)
    assert np.abs(x).max() <= math.sqrt(6 / 1000) and np.abs(x).max() > 0.9 * math.sqrt(6 / 1000)


# ----------------------------------------------------------------- dtypes and shapes
@pytest.mark.parametrize('dtype', [ms.float16, ms.float32, ms.float64])
@pytest.mark.parametrize('name', ['normal', 'uniform', 'truncatedNormal', 'xavier_uniform',
                                  'xavier_normal', 'he_uniform', 'he_normal', 'zeros', 'ones'])
def test_floating_dtypes(name, dtype):
    t = initializer(name, (3, 4), dtype)
    assert t.dtype == dtype and t.shape == (3, 4) and np.isfinite(t.asnumpy()).all()


@pytest.mark.parametrize('dtype', [ms.int8, ms.int32, ms.int64, ms.uint8, ms.bool_])
def test_zeros_ones_constant_take_any_dtype(dtype):
    assert initializer('zeros', (2,), dtype).dtype == dtype
    np.testing.assert_array_equal(initializer('ones', (2,), dtype).asnumpy(), [1, 1])
    assert initializer(Constant(1), (3,), dtype).dtype == dtype


@pytest.mark.parametrize('name', ['normal', 'uniform', 'truncatedNormal', 'xavier_uniform',
                                  'xavier_normal', 'he_uniform', 'he_normal'])
def test_random_initializers_cast_their_draws_to_an_integer_dtype(name):
    # MindSpore 2.10 draws float32 values and casts them toward zero
    ms.set_seed(2)
    drawn = initializer(name, (4, 3), ms.float32).asnumpy()
    ms.set_seed(2)
    t = initializer(name, (4, 3), ms.int32)
    assert t.dtype == ms.int32
    np.testing.assert_array_equal(t.asnumpy(), np.trunc(drawn))
    if name in ('normal', 'uniform', 'truncatedNormal'):       # MindSpore gives all zeros
        assert not t.asnumpy().any()


def test_random_draws_cast_toward_zero_wrap_and_give_bool_nonzero():
    ms.set_seed(4)
    want = Normal(sigma=5.0).array((3, 4), ms.float32)
    for dtype, cast in [(ms.int32, lambda a: np.trunc(a).astype(np.int64)),
                        (ms.uint8, lambda a: np.trunc(a).astype(np.int64) % 256),
                        (ms.bool_, lambda a: a != 0)]:
        ms.set_seed(4)
        got = initializer(Normal(sigma=5.0), (3, 4), dtype)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.asnumpy(), cast(want))
    assert (np.abs(want) >= 1).any() and (want < -1).any()


@pytest.mark.parametrize('dtype, message', [
    ('quaternion', "unknown dtype name 'quaternion'"),
    (object(), "expected a dtype such as ms.float32"),
])
def test_unsupported_dtype(dtype, message):
    with pytest.raises(TypeError, match=message):
        initializer('zeros', (2,), dtype)


@pytest.mark.parametrize('shape, expected', [(None, ()), (3, (3,)), ([2, 3], (2, 3)),
                                             ((1, 2, 3), (1, 2, 3)), (np.int64(4), (4,)),
                                             ((np.int32(2), 5), (2, 5))])
def test_shape_spellings(shape, expected):
    assert initializer('normal', shape).shape == expected


@pytest.mark.parametrize('name', ['zeros', 'normal', 'truncatedNormal', 'xavier_uniform',
                                  'he_normal'])
@pytest.mark.parametrize('shape', [(0,), (3, 0), (0, 4, 3, 3)])
def test_empty_shapes(name, shape):
    assert initializer(name, shape).shape == shape


def test_number_with_no_shape_is_0d():
    t = initializer(2.0)
    assert t.shape == () and t.item() == 2.0


@pytest.mark.parametrize('shape', [(-1,), (2, -3), -2])
def test_negative_sizes_are_rejected(shape):
    with pytest.raises(ValueError, match=r"initializer: shape sizes must be >= 0, got \("):
        initializer('ones', shape)


@pytest.mark.parametrize('shape, shown', [((2, 1.5), r"\(2, 1\.5\)"), ((True, 2), r"\(True, 2\)")])
def test_non_int_sizes_are_rejected(shape, shown):
    with pytest.raises(TypeError, match=rf"initializer: shape must hold ints, got {shown}"):
        initializer('ones', shape)


def test_shape_of_the_wrong_type():
    with pytest.raises(TypeError, match="initializer: shape must be an int or a tuple/list of "
                                        "ints, got str"):
        initializer('ones', '23')


# ----------------------------------------------------------------- Tensor and bad init
def test_tensor_init_is_returned_as_is_or_cast():
    t = ms.Tensor(np.ones((2, 3), np.float32))
    assert initializer(t, (2, 3)) is t
    assert initializer(t) is t
    c = initializer(t, [2, 3], ms.float64)
    assert c.dtype == ms.float64 and c.shape == (2, 3)


def test_tensor_init_of_another_shape():
    t = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"initializer: the Tensor has shape \(2, 3\), but shape "
                                         r"\(3, 2\) was asked for"):
        initializer(t, (3, 2))


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown initializer name 'glorot'; valid names: "
                                         r"'zeros', 'ones', 'normal', 'uniform', "
                                         r"'truncatedNormal', 'xavier_uniform', 'xavier_normal', "
                                         r"'he_uniform', 'he_normal'"):
        initializer('glorot', (2, 2))


@pytest.mark.parametrize('bad', [None, [1.0, 2.0], 1 + 2j, Normal])
def test_unsupported_init(bad):
    with pytest.raises(TypeError, match="initializer: init must be a name, an Initializer, a "
                                        "number or a Tensor, got"):
        initializer(bad, (2,))


# ----------------------------------------------------------------- Initializer objects
def test_call_fills_an_array_in_place():
    arr = np.full((3, 4), 9.0, np.float32)
    assert One()(arr) is None
    np.testing.assert_array_equal(arr, np.ones((3, 4), np.float32))
    XavierUniform()(arr)
    assert arr.dtype == np.float32 and np.abs(arr).max() <= math.sqrt(6 / 7)
    assert len(np.unique(arr)) == 12


def test_array_makes_a_new_array():
    a = Constant(4).array((2, 2), ms.float16)
    assert isinstance(a, np.ndarray) and a.dtype == np.float16
    np.testing.assert_array_equal(a, np.full((2, 2), 4, np.float16))
    assert Zero().array(3).dtype == np.float32


def test_call_rejects_non_arrays_and_non_float_arrays():
    with pytest.raises(TypeError, match=r"Normal\(sigma=0\.01, mean=0\.0\): expected a NumPy "
                                        r"array to fill, got list"):
        Normal()([0.0, 1.0])
    ints = np.full((2, 2), 7, np.int64)
    HeNormal()(ints)                    # float draws cast toward zero (MindSpore's rule)
    assert ints.dtype == np.int64 and (np.abs(ints) < 7).all()
    filled = np.full(2, 5 + 5j, np.complex128)
    Zero()(filled)                      # complex arrays fill as MindSpore fills them
    assert filled.tolist() == [0j, 0j]


def test_a_custom_initializer():
    class Arange(Initializer):
        def _initialize(self, arr):
            arr[...] = np.arange(arr.size).reshape(arr.shape)

    np.testing.assert_array_equal(values(Arange(), (2, 3)), [[0, 1, 2], [3, 4, 5]])


def test_a_custom_initializer_without_super_init_still_reports_errors():
    class Fixed(Initializer):
        def __init__(self, v):
            self.v = v

        def _initialize(self, arr):
            arr.fill(self.v)

    assert repr(Fixed(2)) == 'Fixed()'
    with pytest.raises(TypeError, match=r"Fixed\(\): expected a NumPy array to fill, got int"):
        Fixed(2)(3)
    np.testing.assert_array_equal(values(Fixed(2), (2,)), [2.0, 2.0])


def test_base_initializer_has_no_rule():
    with pytest.raises(NotImplementedError, match=r"Initializer must implement "
                                                  r"_initialize\(arr\)"):
        initializer(Initializer(), (2,))


def test_reprs_show_the_arguments():
    assert repr(TruncatedNormal(0.1)) == 'TruncatedNormal(sigma=0.1, mean=0.0, a=-2.0, b=2.0)'
    assert repr(HeUniform()) == ("HeUniform(negative_slope=0, mode='fan_in', "
                                 "nonlinearity='leaky_relu')")
    assert repr(Zero()) == 'Zero()'


@pytest.mark.parametrize('make, error, message', [
    (lambda: Normal(sigma=-1), ValueError, r"Normal\(sigma=-1, mean=0\.0\): sigma must be >= 0"),
    (lambda: Normal(mean='0'), TypeError, r"mean must be a real number, got str"),
    (lambda: Normal(sigma=float('nan')), ValueError, r"sigma must be a finite number, got nan"),
    (lambda: Uniform(scale=-0.1), ValueError, r"Uniform\(scale=-0\.1\): scale must be >= 0"),
    (lambda: Uniform(scale=True), TypeError, r"scale must be a real number, got bool"),
    (lambda: TruncatedNormal(a=1.0, b=1.0), ValueError, r"the interval needs a < b, got a=1\.0 "
                                                        r"and b=1\.0"),
    (lambda: TruncatedNormal(a=float('nan')), ValueError, r"a must be a number, got nan"),
    (lambda: XavierUniform(gain=None), TypeError, r"XavierUniform\(gain=None\): gain must be a "
                                                  r"real number"),
    (lambda: XavierNormal(gain=float('inf')), ValueError, r"gain must be a finite number"),
    (lambda: HeUniform(mode='fan_avg'), ValueError, r"mode must be 'fan_in' or 'fan_out', got "
                                                    r"'fan_avg'"),
    (lambda: HeNormal(nonlinearity='gelu'), ValueError, r"HeNormal\(.*\): unknown nonlinearity "
                                                        r"'gelu'; valid: linear"),
    (lambda: HeUniform(negative_slope='x'), TypeError, r"negative_slope must be a real number, "
                                                       r"got 'x'"),
    (lambda: Constant('1'), TypeError, r"Constant: value must be a real number, got str"),
])
def test_bad_initializer_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_common_exports():
    assert ms.common.initializer is init_mod
    assert ms.common.XavierUniform is XavierUniform and ms.common.Initializer is Initializer
