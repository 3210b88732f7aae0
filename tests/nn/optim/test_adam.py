"""nn.Adam and nn.AdamWeightDecay against MindSpore's update formulas written out in NumPy."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

from .reference import f32, run
from .reference import setup as _setup

SHAPES = {'fc.weight': (3, 4), 'fc.bias': (4,), 'bn.beta': (4,), 'scale': ()}


def setup(seed=0):
    return _setup(SHAPES, seed, steps=5)


def adam_reference(w, grads, lrs, beta1=0.9, beta2=0.999, eps=1e-8, wd=0.0, loss_scale=1.0,
                   nesterov=False, amsgrad=False):
    """MindSpore's Adam: L2 decay and loss scale on the gradient, bias correction in the step
    size, beta1_power / beta2_power kept in float32."""
    b1, b2 = beta1, beta2
    w, m, v, vhat = w.copy(), np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)
    b1_power = b2_power = np.float32(1.0)
    for g, lr in zip(grads, lrs):
        g = (g + wd * loss_scale * w) / loss_scale
        b1_power, b2_power = b1_power * np.float32(b1), b2_power * np.float32(b2)
        step = lr * np.sqrt(1 - float(b2_power)) / (1 - float(b1_power))
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        if amsgrad:
            vhat = np.maximum(vhat, v)
            w = w - step * m / (np.sqrt(vhat) + eps)
        elif nesterov:
            w = w - step * (b1 * m + (1 - b1) * g) / (np.sqrt(v) + eps)
        else:
            w = w - step * m / (np.sqrt(v) + eps)
    return w, m, v, vhat, (b1_power, b2_power)


@pytest.mark.parametrize('kwargs', [
    {},
    {'use_nesterov': True},
    {'use_amsgrad': True},
    {'weight_decay': 0.1},
    {'weight_decay': 0.01, 'loss_scale': 128.0},
    {'beta1': 0.5, 'beta2': 0.9, 'eps': 1e-3},
    {'use_lazy': True},
], ids=str)
def test_adam_matches_the_formula(kwargs):
    start, grads, params = setup()
    opt = nn.Adam(params, learning_rate=0.125, **kwargs)
    got = run(opt, params, grads)
    ref = {k: kwargs[k] for k in ('beta1', 'beta2', 'eps', 'loss_scale') if k in kwargs}
    for i, name in enumerate(SHAPES):
        wd = kwargs.get('weight_decay', 0.0) if name != 'bn.beta' else 0.0
        w, m, v, vhat, powers = adam_reference(
            start[name], [g[name] for g in grads], [0.125] * 5, wd=wd,
            nesterov=kwargs.get('use_nesterov', False), amsgrad=kwargs.get('use_amsgrad', False),
            **ref)
        np.testing.assert_allclose(got[name], w, rtol=1e-12, atol=1e-14, err_msg=name)
        np.testing.assert_allclose(opt.moment1[i].asnumpy(), m, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(opt.moment2[i].asnumpy(), v, rtol=1e-12, atol=1e-15)
        if kwargs.get('use_amsgrad'):
            np.testing.assert_allclose(opt.vhat[i].asnumpy(), vhat, rtol=1e-12, atol=1e-15)
    assert opt.beta1_power.asnumpy() == powers[0] and opt.beta2_power.asnumpy() == powers[1]
    assert [s.name for s in opt.moment2][:2] == ['moment2.fc.weight', 'moment2.fc.bias']
    assert hasattr(opt, 'vhat') == kwargs.get('use_amsgrad', False)


def test_amsgrad_keeps_the_largest_second_moment():
    w = ms.Parameter(ms.Tensor(np.zeros(1)), name='w')
    opt = nn.Adam([w], learning_rate=0.1, use_amsgrad=True)
    opt((ms.Tensor(np.array([10.0])),))
    peak = opt.vhat[0].asnumpy().copy()
    opt((ms.Tensor(np.array([0.0])),))
    assert opt.moment2[0].asnumpy() < peak and opt.vhat[0].asnumpy() == peak


def test_adam_with_groups_and_a_schedule():
    start, grads, params = setup(1)
    schedule = nn.ExponentialDecayLR(0.1, 0.5, 1)
    groups = [{'params': params[:2], 'lr': schedule, 'weight_decay': 0.1},
              {'params': params[2:]}]
    opt = nn.Adam(groups, learning_rate=0.03125)
    got = run(opt, params, grads)
    for name in SHAPES:
        first = name in ('fc.weight', 'fc.bias')
        lrs = [f32(0.1 * 0.5 ** i) for i in range(5)] if first else [0.03125] * 5
        w = adam_reference(start[name], [g[name] for g in grads], lrs,
                           wd=0.1 if first else 0.0)[0]
        np.testing.assert_allclose(got[name], w, rtol=1e-12, atol=1e-14, err_msg=name)
    assert opt.global_step.asnumpy().tolist() == [5]


def test_adam_in_float32_stays_float32_and_close():
    rng = np.random.default_rng(2)
    w0, grads = rng.standard_normal(16).astype(np.float32), rng.standard_normal((6, 16))
    w = ms.Parameter(w0, name='w')
    opt = nn.Adam([w], learning_rate=0.01)
    for g in grads:
        opt((ms.Tensor(g.astype(np.float32)),))
    ref = adam_reference(w0.astype(np.float64), grads.astype(np.float32), [f32(0.01)] * 6)[0]
    assert w.asnumpy().dtype == opt.moment1[0].asnumpy().dtype == np.float32
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('kwargs,error,match', [
    ({'beta1': 1.0}, ValueError, r'beta1 must be in \(0, 1\), got 1.0'),
    ({'beta2': 0.0}, ValueError, r'beta2 must be in \(0, 1\)'),
    ({'beta1': '0.9'}, TypeError, 'beta1 must be a float'),
    ({'eps': 0.0}, ValueError, 'eps must be a finite float > 0'),
    ({'eps': None}, TypeError, 'eps must be a float'),
    ({'use_locking': 1}, TypeError, 'use_locking must be a bool'),
    ({'use_nesterov': None}, TypeError, 'use_nesterov must be a bool'),
    ({'use_amsgrad': 'no'}, TypeError, 'use_amsgrad must be a bool'),
    ({'use_amsgrad': True, 'use_nesterov': True}, ValueError,
     'use_amsgrad cannot be combined with use_nesterov'),
    ({'use_amsgrad': True, 'use_offload': True}, ValueError, 'use_amsgrad cannot be combined'),
    ({'use_lazy': True, 'use_offload': True}, ValueError, 'cannot both be True'),
    ({'use_lazy': 1}, TypeError, 'use_lazy must be a bool'),
    ({'lazy': True}, TypeError, r"unexpected keyword arguments \['lazy'\]"),
    ({'weight_decay': -1.0}, ValueError, 'nn.Adam: weight_decay must be a finite number >= 0'),
])
def test_adam_argument_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        nn.Adam([ms.Parameter(ms.Tensor([1.0]), name='w')], **kwargs)


def adamw_reference(w, grads, lr, b1=0.9, b2=0.999, eps=1e-6, wd=0.0):
    """MindSpore's AdamWeightDecay: no bias correction, decay added to the update."""
    w, m, v = w.copy(), np.zeros_like(w), np.zeros_like(w)
    for g in grads:
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w = w - lr * (m / (np.sqrt(v) + eps) + wd * w)
    return w, m, v


@pytest.mark.parametrize('kwargs', [{}, {'weight_decay': 0.1},
                                    {'weight_decay': 0.01, 'beta1': 0.8, 'eps': 1e-4}], ids=str)
def test_adam_weight_decay_matches_the_formula(kwargs):
    start, grads, params = setup(3)
    opt = nn.AdamWeightDecay(params, learning_rate=0.0625, **kwargs)
    got = run(opt, params, grads)
    for i, name in enumerate(SHAPES):
        wd = kwargs.get('weight_decay', 0.0) if name != 'bn.beta' else 0.0
        w, m, v = adamw_reference(start[name], [g[name] for g in grads], 0.0625,
                                  b1=kwargs.get('beta1', 0.9), eps=kwargs.get('eps', 1e-6), wd=wd)
        np.testing.assert_allclose(got[name], w, rtol=1e-12, atol=1e-14, err_msg=name)
        np.testing.assert_allclose(opt.moments1[i].asnumpy(), m, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(opt.moments2[i].asnumpy(), v, rtol=1e-12, atol=1e-15)
    assert opt.moments1[0].name == 'adam_m.fc.weight' and opt.moments2[0].name == 'adam_v.fc.weight'


def test_adam_weight_decay_groups_decay_only_where_asked():
    start, grads, params = setup(4)
    opt = nn.AdamWeightDecay([{'params': params[:1], 'weight_decay': 0.5},
                              {'params': params[1:]}], learning_rate=[0.25] * 5)
    got = run(opt, params, grads)
    for name in SHAPES:
        wd = 0.5 if name == 'fc.weight' else 0.0
        w = adamw_reference(start[name], [g[name] for g in grads], 0.25, wd=wd)[0]
        np.testing.assert_allclose(got[name], w, rtol=1e-12, atol=1e-14, err_msg=name)


def test_adam_weight_decay_argument_errors():
    w = ms.Parameter(ms.Tensor([1.0]), name='w')
    with pytest.raises(ValueError, match=r'nn.AdamWeightDecay: beta2 must be in \(0, 1\)'):
        nn.AdamWeightDecay([w], beta2=1.5)
    with pytest.raises(ValueError, match='does not apply grad_centralization'):
        nn.AdamWeightDecay([{'params': [w], 'grad_centralization': True}])


class _RisingDecay(nn.Cell):
    """A weight-decay schedule: 0.01 * (global_step + 1)."""

    def construct(self, global_step):
        return 0.01 * (ms.ops.cast(global_step, ms.float32) + 1.0)


@pytest.mark.parametrize('decay, want, rtol', [
    (0.02, [[-0.24003615975379944, -3.222014904022217]], 0),
    (_RisingDecay(), [[-0.23929665982723236, -3.2212729454040527]], 1e-6),
])
def test_adam_weight_decay_float32_matches_mindspore(decay, want, rtol):
    # MindSpore 2.10 on the CPU: three steps of gradient [0.5, 0.25], lr 0.1, from [1, -2]
    # (its kernel computes 1 - beta in float32, which this reproduces to the last bit)
    w = ms.Parameter(ms.Tensor(np.float32([[1.0, -2.0]])), name='w')
    opt = nn.AdamWeightDecay([w], learning_rate=0.1, weight_decay=decay)
    for _ in range(3):
        opt((ms.Tensor(np.float32([[0.5, 0.25]])),))
    # a scheduled decay runs MindSpore's kernel with a Tensor decay: a few ulps apart
    np.testing.assert_allclose(w.asnumpy(), np.float32(want), rtol=rtol, atol=0)


# MindSpore 2.10's CPU nn.Adam, three and four steps from w0 with g = base * (step + 1)
_W0 = [0.5, -1.25, 3.0]
_MS_STEPS = [[0.49000003933906555, -1.2400000095367432, 2.9900031089782715],
             [0.48034825921058655, -1.2303482294082642, 2.9803526401519775],
             [0.4707683324813843, -1.2207683324813843, 2.970773458480835]]
_MS_KWARGS = [({'weight_decay': 0.1}, [0.4881865680217743, -1.238322138786316,
                                      2.9879982471466064, -0.011550769209861755]),
              ({'loss_scale': 2.0}, [0.4883492588996887, -1.238349199295044,
                                     2.9883530139923096, -0.011550741270184517])]


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
def test_adam_steps_match_mindspore_bit_for_bit(device):
    from hookgrad.testing.cases import on_device
    with on_device(device):
        w = ms.Parameter(ms.Tensor(np.array(_W0, np.float32)), name='w')
        opt = nn.Adam([w], learning_rate=0.01)
        for step, want in enumerate(_MS_STEPS):
            opt((ms.Tensor(np.array([0.1, -2.0, 1e-3], np.float32) * (step + 1)),))
            assert w.asnumpy().tolist() == want, f"step {step}"


@pytest.mark.parametrize('kwargs,want', _MS_KWARGS)
def test_adam_options_match_mindspore_bit_for_bit(kwargs, want):
    w = ms.Parameter(ms.Tensor(np.array([0.5, -1.25, 3.0, 1e-4], np.float32)), name='w')
    opt = nn.Adam([w], learning_rate=0.003, **kwargs)
    for step in range(4):
        opt((ms.Tensor(np.array([0.1, -2.0, 1e-3, 5.0], np.float32) * (step + 1)),))
    assert w.asnumpy().tolist() == want
