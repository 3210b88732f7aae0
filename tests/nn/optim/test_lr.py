"""Learning-rate schedules: MindSpore's documented example outputs, the formulas over more steps,
the Cell schedules as an optimizer calls them, and argument errors."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

# MindSpore's documented examples: (function, arguments, printed output)
LIST_EXAMPLES = [
    (nn.piecewise_constant_lr, ([2, 5, 10], [0.1, 0.05, 0.01]),
     [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]),
    (nn.exponential_decay_lr, (0.1, 0.9, 6, 2, 1),
     [0.1, 0.1, 0.09000000000000001, 0.09000000000000001, 0.08100000000000002,
      0.08100000000000002]),
    (nn.natural_exp_decay_lr, (0.1, 0.9, 6, 2, 2, True),
     [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657]),
    (nn.inverse_decay_lr, (0.1, 0.5, 6, 1, 1, True),
     [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333, 0.028571428571428574]),
    (nn.cosine_decay_lr, (0.01, 0.1, 6, 2, 2),
     [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01]),
    (nn.polynomial_decay_lr, (0.1, 0.01, 6, 2, 2, 0.5),
     [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]),
    (nn.warmup_lr, (0.1, 6, 2, 2), [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]),
]


@pytest.mark.parametrize('fn,args,expected', LIST_EXAMPLES, ids=lambda v: getattr(v, '__name__',
                                                                                   ''))
def test_list_schedules_reproduce_the_documented_examples(fn, args, expected):
    out = fn(*args)
    assert isinstance(out, list) and out == expected


def test_list_schedules_follow_their_formulas_over_more_steps():
    i = np.arange(40)
    epoch = i // 3
    np.testing.assert_allclose(nn.exponential_decay_lr(0.2, 0.7, 40, 3, 4),
                               0.2 * 0.7 ** (epoch / 4))
    np.testing.assert_allclose(nn.exponential_decay_lr(0.2, 0.7, 40, 3, 4, is_stair=True),
                               0.2 * 0.7 ** np.floor(epoch / 4))
    np.testing.assert_allclose(nn.cosine_decay_lr(0.0, 1.0, 40, 3, 5),
                               0.5 * (1 + np.cos(np.pi * np.minimum(epoch, 5) / 5)), atol=1e-15)
    np.testing.assert_allclose(nn.inverse_decay_lr(1.0, 0.5, 40, 3, 2),
                               1.0 / (1 + 0.5 * epoch / 2))
    np.testing.assert_allclose(nn.natural_exp_decay_lr(1.0, 0.5, 40, 3, 2),
                               np.exp(-0.5 * epoch))
    np.testing.assert_allclose(nn.warmup_lr(1.0, 40, 3, 6), np.minimum(epoch, 6) / 6)
    span = 4 * np.maximum(np.ceil(epoch / 4), 1)
    np.testing.assert_allclose(nn.polynomial_decay_lr(0.5, 0.1, 40, 3, 4, 2.0, True),
                               0.4 * (1 - epoch / span) ** 2 + 0.1)
    assert nn.piecewise_constant_lr([2, 2, 3], [0.3, 0.2, 0.1]) == [0.3, 0.3, 0.1]


@pytest.mark.parametrize('call,error,match', [
    (lambda: nn.piecewise_constant_lr([2, 5], [0.1]), ValueError,
     'milestone has 2 entries but learning_rates has 1'),
    (lambda: nn.piecewise_constant_lr(5, [0.1]), TypeError, 'milestone must be a list'),
    (lambda: nn.piecewise_constant_lr([5, 2], [0.1, 0.2]), ValueError,
     r'milestone\[1\] = 2 is smaller than milestone\[0\] = 5'),
    (lambda: nn.piecewise_constant_lr([0], [0.1]), ValueError, r'milestone\[0\] must be a '
                                                               'positive int'),
    (lambda: nn.piecewise_constant_lr([2], [1]), TypeError, r'learning_rates\[0\] must be a float'),
    (lambda: nn.exponential_decay_lr(1, 0.9, 6, 2, 1), TypeError,
     'learning_rate must be a float, got int'),
    (lambda: nn.exponential_decay_lr(0.1, -0.9, 6, 2, 1), ValueError, 'decay_rate must be a '
                                                                      'finite float > 0'),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 2, 1), ValueError, 'total_step must be a '
                                                                     'positive int'),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 6, 2.0, 1), TypeError, 'step_per_epoch must be'),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1, is_stair=1), TypeError,
     'is_stair must be a bool'),
    (lambda: nn.cosine_decay_lr(0.1, 0.1, 6, 2, 2), ValueError, 'max_lr must be greater than'),
    (lambda: nn.cosine_decay_lr(-0.1, 0.1, 6, 2, 2), ValueError, 'min_lr must be a finite float '
                                                                 '>= 0'),
    (lambda: nn.cosine_decay_lr(0.0, 0.1, 6, 2, True), TypeError, 'decay_epoch must be a '
                                                                  'positive int'),
    (lambda: nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.0), ValueError, 'power must be'),
    (lambda: nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5, 'x'), TypeError,
     'update_decay_epoch must be a bool'),
    (lambda: nn.warmup_lr(0.1, 6, 2, 0), ValueError, 'warmup_epoch must be a positive int'),
    (lambda: nn.inverse_decay_lr(0.1, 0.5, 6, 1, 1, None), TypeError, 'is_stair must be a bool'),
    (lambda: nn.natural_exp_decay_lr(float('nan'), 0.5, 6, 1, 1), ValueError,
     'learning_rate must be a finite float'),
])
def test_list_schedule_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ----------------------------------------------------------------- Cell schedules
STEP2 = ms.Tensor(2, ms.int32)


@pytest.mark.parametrize('schedule,printed', [
    (nn.ExponentialDecayLR(0.1, 0.9, 4), '0.09486833'),
    (nn.NaturalExpDecayLR(0.1, 0.9, 4, True), '0.1'),
    (nn.InverseDecayLR(0.1, 0.9, 4, True), '0.1'),
    (nn.CosineDecayLR(0.01, 0.1, 4), '0.055'),
    (nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5), '0.07363961'),
    (nn.WarmUpLR(0.1, 2), '0.1'),
], ids=lambda v: type(v).__name__ if isinstance(v, nn.Cell) else v)
def test_cell_schedules_reproduce_the_documented_examples(schedule, printed):
    out = schedule(STEP2)
    assert str(out) == printed and out.shape == () and out.dtype == ms.float32


def values_of(schedule, steps):
    return np.array([float(schedule(ms.Tensor(np.array([s], np.int32)))) for s in steps])


def test_cell_schedules_follow_their_formulas():
    s = np.arange(12)
    tol = dict(rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(values_of(nn.ExponentialDecayLR(0.5, 0.8, 3), s),
                               0.5 * 0.8 ** (s / 3), **tol)
    np.testing.assert_allclose(values_of(nn.ExponentialDecayLR(0.5, 0.8, 3, True), s),
                               0.5 * 0.8 ** np.floor(s / 3), **tol)
    np.testing.assert_allclose(values_of(nn.NaturalExpDecayLR(0.5, 0.1, 3), s),
                               0.5 * np.exp(-0.1 * s), **tol)
    np.testing.assert_allclose(values_of(nn.NaturalExpDecayLR(0.5, 0.1, 3, True), s),
                               0.5 * np.exp(-0.1 * np.floor(s / 3) * 3), **tol)
    np.testing.assert_allclose(values_of(nn.InverseDecayLR(0.5, 0.1, 3), s),
                               0.5 / (1 + 0.1 * s / 3), **tol)
    np.testing.assert_allclose(values_of(nn.CosineDecayLR(0.1, 0.9, 7), s),
                               0.1 + 0.4 * (1 + np.cos(np.pi * np.minimum(s, 7) / 7)), **tol)
    np.testing.assert_allclose(values_of(nn.PolynomialDecayLR(0.5, 0.1, 5, 2.0), s),
                               0.4 * (1 - np.minimum(s, 5) / 5) ** 2 + 0.1, **tol)
    span = 5 * np.maximum(np.ceil(s / 5), 1)
    np.testing.assert_allclose(values_of(nn.PolynomialDecayLR(0.5, 0.1, 5, 2.0, True), s),
                               0.4 * (1 - s / span) ** 2 + 0.1, **tol)
    np.testing.assert_allclose(values_of(nn.WarmUpLR(0.6, 4), s), 0.6 * np.minimum(s, 4) / 4,
                               **tol)


def test_an_optimizer_steps_through_a_cell_schedule():
    w = ms.Parameter(ms.Tensor(np.zeros(1)), name='w')
    opt = nn.SGD([w], learning_rate=nn.CosineDecayLR(0.0, 1.0, 2))
    for _ in range(4):
        opt((ms.Tensor(np.ones(1)),))
    np.testing.assert_allclose(w.asnumpy(), [-(1.0 + 0.5 + 0.0 + 0.0)], atol=1e-7)


def test_schedules_accept_ints_and_float_steps_and_reject_others():
    warm = nn.WarmUpLR(1.0, 4)
    assert float(warm(1)) == 0.25 and float(warm(ms.Tensor(3.0))) == 0.75
    with pytest.raises(ValueError, match='one-element integer or float Tensor, got shape'):
        warm(ms.Tensor(np.ones(2)))
    with pytest.raises(TypeError, match=r'nn.WarmUpLR: global_step must be a Tensor \(or an '
                                        r'int\), got str'):
        warm('3')


@pytest.mark.parametrize('make,error,match', [
    (lambda: nn.ExponentialDecayLR(1, 0.9, 4), TypeError, 'nn.ExponentialDecayLR: learning_rate'
                                                          ' must be a float'),
    (lambda: nn.NaturalExpDecayLR(0.1, 0.0, 4), ValueError, 'decay_rate must be a finite float'),
    (lambda: nn.InverseDecayLR(0.1, 0.9, 0), ValueError, 'decay_steps must be a positive int'),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4, 'no'), TypeError, 'is_stair must be a bool'),
    (lambda: nn.CosineDecayLR(0.2, 0.1, 4), ValueError, 'max_lr must be greater than min_lr'),
    (lambda: nn.CosineDecayLR(0, 0.1, 4), TypeError, 'min_lr must be a float'),
    (lambda: nn.PolynomialDecayLR(0.1, -0.01, 4, 0.5), ValueError, 'end_learning_rate must be'),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 1), TypeError, 'power must be a float'),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5, 1), TypeError,
     'update_decay_steps must be a bool'),
    (lambda: nn.WarmUpLR(0.1, 2.0), TypeError, 'warmup_steps must be a positive int'),
])
def test_cell_schedule_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_the_base_schedule_must_be_subclassed():
    with pytest.raises(NotImplementedError, match='must define construct'):
        nn.LearningRateSchedule()(STEP2)


def test_schedules_print_as_mindspore():
    assert repr(nn.WarmUpLR(0.1, 2)) == 'WarmUpLR()'
    assert repr(nn.ExponentialDecayLR(0.1, 0.9, 4)) == 'ExponentialDecayLR()'
    assert repr(nn.CosineDecayLR(0.0, 1.0, 3)) == 'CosineDecayLR()'
    assert repr(nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)) == 'PolynomialDecayLR()'
    assert math.isclose(nn.CosineDecayLR(0.0, 1.0, 3).delta, 0.5)
