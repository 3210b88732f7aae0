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
    # MindSpore's documentation prints 0.09486833; MindSpore 2.10 on the CPU gives 0.094868325
    # (its float32 steps), and so does hookgrad
    (nn.ExponentialDecayLR(0.1, 0.9, 4), '0.094868325'),
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


# MindSpore 2.10's values at steps 0, 1, 2, 3, 4, 5, 7, 9, 10, 13, 17, 25 (CPU): its schedules
# compute in float32, op by op, and hookgrad's reproduce them to the bit
SCHEDULE_STEPS = [0, 1, 2, 3, 4, 5, 7, 9, 10, 13, 17, 25]
MINDSPORE_SCHEDULES = [
    (nn.ExponentialDecayLR(0.1, 0.9, 4),
     [0.10000000149011612, 0.09740037471055984, 0.09486832469701767, 0.09240210801362991,
      0.08999999612569809, 0.08766033500432968, 0.08316189795732498, 0.07889430224895477,
      0.07684334367513657, 0.07100486755371094, 0.06390438228845596, 0.051762547343969345]),
    (nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True),
     [0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
      0.08999999612569809, 0.08999999612569809, 0.08999999612569809, 0.08099999278783798,
      0.08099999278783798, 0.07289998978376389, 0.06560999155044556, 0.05314409360289574]),
    (nn.NaturalExpDecayLR(0.1, 0.9, 4),
     [0.10000000149011612, 0.04065696895122528, 0.01652989163994789, 0.006720553617924452,
      0.0027323728427290916, 0.0011108998442068696, 0.0001836305600591004,
      3.035394001926761e-05, 1.234098363056546e-05, 8.293824294014485e-07,
      2.266182974608455e-08, 1.6918992248871056e-11]),
    (nn.NaturalExpDecayLR(0.1, 0.9, 4, True),
     [0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
      0.0027323728427290916, 0.0027323728427290916, 0.0027323728427290916,
      7.465861563105136e-05, 7.465861563105136e-05, 2.0399527329573175e-06,
      5.573908268274863e-08, 4.1614066359496604e-11]),
    (nn.InverseDecayLR(0.1, 0.5, 2),
     [0.10000000149011612, 0.08000000566244125, 0.06666667014360428, 0.05714286118745804,
      0.05000000074505806, 0.04444444552063942, 0.0363636389374733, 0.030769232660531998,
      0.02857143059372902, 0.0235294122248888, 0.01904761977493763, 0.013793103396892548]),
    (nn.InverseDecayLR(0.1, 0.5, 2, True),
     [0.10000000149011612, 0.10000000149011612, 0.06666667014360428, 0.06666667014360428,
      0.05000000074505806, 0.05000000074505806, 0.04000000283122063, 0.03333333507180214,
      0.02857143059372902, 0.02500000037252903, 0.020000001415610313, 0.01428571529686451]),
    (nn.CosineDecayLR(0.01, 0.1, 10),
     [0.10000000149011612, 0.09779754281044006, 0.09140576422214508, 0.08145033568143845,
      0.068905770778656, 0.054999999701976776, 0.02854965068399906, 0.012202458456158638,
      0.009999999776482582, 0.009999999776482582, 0.009999999776482582, 0.009999999776482582]),
    (nn.PolynomialDecayLR(0.1, 0.01, 10, 0.5),
     [0.10000000149011612, 0.09538149833679199, 0.09049844741821289, 0.08529940247535706,
      0.07971370220184326, 0.07363960891962051, 0.059295035898685455, 0.03846050053834915,
      0.009999999776482582, 0.009999999776482582, 0.009999999776482582, 0.009999999776482582]),
    (nn.PolynomialDecayLR(0.1, 0.01, 10, 0.5, True),
     [0.10000000149011612, 0.09538149833679199, 0.09049844741821289, 0.08529940247535706,
      0.07971370220184326, 0.07363960891962051, 0.059295035898685455, 0.03846050053834915,
      0.009999999776482582, 0.06324472278356552, 0.04485684633255005, 0.04674234986305237]),
    (nn.WarmUpLR(0.1, 7),
     [0.0, 0.01428571529686451, 0.02857143059372902, 0.04285714402794838,
      0.05714286118745804, 0.0714285746216774, 0.10000000149011612, 0.10000000149011612,
      0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612]),
]


@pytest.mark.parametrize('schedule,want', MINDSPORE_SCHEDULES,
                         ids=[type(s).__name__ for s, _ in MINDSPORE_SCHEDULES])
def test_schedules_give_mindspores_float32_values(schedule, want):
    assert [float(schedule(ms.Tensor(i, ms.int32))) for i in SCHEDULE_STEPS] == want
