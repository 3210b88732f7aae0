"""nn.SGD and nn.Momentum against MindSpore's update formulas written out in NumPy (float64)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

from .reference import f32, run
from .reference import setup as _setup

SHAPES = {'fc.weight': (3, 4), 'fc.bias': (4,), 'bn.gamma': (4,), 'scale': ()}


def setup(seed=0):
    return _setup(SHAPES, seed)


def sgd_reference(w, grads, lrs, momentum=0.0, dampening=0.0, wd=0.0, nesterov=False,
                  loss_scale=1.0):
    """MindSpore's SGD kernel: decay on the scaled gradient, accum = g at the first step."""
    w, accum = w.copy(), None
    for g, lr in zip(grads, lrs):
        g = g / loss_scale + wd * w
        if momentum > 0:
            accum = g.copy() if accum is None else momentum * accum + (1 - dampening) * g
            g = g + momentum * accum if nesterov else accum
        w = w - lr * g
    return w, accum


@pytest.mark.parametrize('kwargs', [
    {},
    {'momentum': 0.9},
    {'momentum': 0.9, 'dampening': 0.25},
    {'momentum': 0.5, 'nesterov': True},
    {'momentum': 0.9, 'weight_decay': 0.1},
    {'momentum': 0.9, 'loss_scale': 4.0, 'weight_decay': 0.01},
    {'dampening': 0.5},
], ids=str)
def test_sgd_matches_the_formula(kwargs):
    start, grads, params = setup()
    lr = 0.05
    opt = nn.SGD(params, learning_rate=lr, **kwargs)
    got = run(opt, params, grads)
    ref_kwargs = dict(momentum=f32(kwargs.get('momentum', 0.0)),
                      dampening=kwargs.get('dampening', 0.0),
                      wd=kwargs.get('weight_decay', 0.0), nesterov=kwargs.get('nesterov', False),
                      loss_scale=kwargs.get('loss_scale', 1.0))
    for i, name in enumerate(SHAPES):
        # without groups, SGD decays only the parameters without 'beta'/'gamma' in their names
        decayed = dict(ref_kwargs, wd=0.0) if 'gamma' in name else ref_kwargs
        w, accum = sgd_reference(start[name], [g[name] for g in grads], [f32(lr)] * 4,
                                 **decayed)
        np.testing.assert_allclose(got[name], w, rtol=1e-12, atol=1e-14, err_msg=name)
        if accum is not None:
            np.testing.assert_allclose(opt.accum[i].asnumpy(), accum, rtol=1e-12)
            assert opt.stat[i].asnumpy().max() == 0
    assert [p.name for p in opt.accum][:2] == ['accum.fc.weight', 'accum.fc.bias']
    assert opt.momentum.name == 'momentum'


def test_sgd_with_a_per_step_list_and_groups():
    start, grads, params = setup(1)
    lrs = [0.1, 0.05, 0.025, 0.0125]
    groups = [{'params': params[:2], 'weight_decay': 0.2}, {'params': params[2:], 'lr': lrs}]
    opt = nn.SGD(groups, learning_rate=0.5, momentum=0.9)
    got = run(opt, params, grads)
    for name in SHAPES:
        first = name in ('fc.weight', 'fc.bias')
        w, _ = sgd_reference(start[name], [g[name] for g in grads],
                             [0.5] * 4 if first else [f32(x) for x in lrs], f32(0.9),
                             wd=0.2 if first else 0.0)
        np.testing.assert_allclose(got[name], w, rtol=1e-12, atol=1e-14, err_msg=name)


def test_stat_restarts_the_momentum_per_value():
    """A parameter whose 'stat' flags are set again (a checkpoint from step 0) restarts."""
    start, grads, params = setup(2)
    opt = nn.SGD(params, learning_rate=0.25, momentum=0.5)
    run(opt, params, grads[:2])
    stat = np.zeros(4)
    stat[1] = 1.0                       # one value of fc.bias starts over; the rest continue
    opt.stat[1].set_data(ms.Tensor(stat))
    accum = opt.accum[1].asnumpy().copy()
    g = grads[2]['fc.bias']
    run(opt, params, grads[2:3])
    expected = 0.5 * accum + g
    expected[1] = g[1]
    np.testing.assert_allclose(opt.accum[1].asnumpy(), expected, rtol=1e-12)
    np.testing.assert_array_equal(opt.stat[1].asnumpy(), np.zeros(4))


def test_momentum_can_be_changed_through_its_parameter():
    w = ms.Parameter(ms.Tensor(np.zeros(1)), name='w')
    opt = nn.SGD([w], learning_rate=1.0, momentum=0.5)
    opt((ms.Tensor(np.ones(1)),))
    opt.momentum.set_data(ms.Tensor(np.float32(0.0)))
    opt((ms.Tensor(np.ones(1)),))           # momentum 0: plain step, accum untouched
    np.testing.assert_allclose(w.asnumpy(), [-2.0])
    np.testing.assert_allclose(opt.accum[0].asnumpy(), [1.0])


@pytest.mark.parametrize('kwargs,error,match', [
    ({'momentum': -0.1}, ValueError, 'momentum must be a finite number >= 0'),
    ({'momentum': '0.9'}, TypeError, 'momentum must be a float'),
    ({'dampening': -1.0}, ValueError, 'dampening must be a finite number >= 0'),
    ({'dampening': None}, TypeError, 'dampening must be a float'),
    ({'nesterov': 1}, TypeError, 'nesterov must be a bool'),
    ({'nesterov': True}, ValueError, 'nesterov needs momentum > 0 and dampening == 0'),
    ({'nesterov': True, 'momentum': 0.9, 'dampening': 0.1}, ValueError, 'dampening=0.1'),
])
def test_sgd_argument_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        nn.SGD([ms.Parameter(ms.Tensor([1.0]), name='w')], **kwargs)


def momentum_reference(w, grads, lr, u, wd=0.0, loss_scale=1.0, nesterov=False):
    """MindSpore's ApplyMomentum after decay_weight and scale_grad."""
    w, v = w.copy(), np.zeros_like(w)
    for g in grads:
        g = (g + wd * loss_scale * w) / loss_scale
        v = u * v + g
        w = w - lr * (g + u * v) if nesterov else w - lr * v
    return w, v


@pytest.mark.parametrize('kwargs', [
    {},
    {'use_nesterov': True},
    {'weight_decay': 0.1},
    {'weight_decay': 0.05, 'loss_scale': 16.0, 'use_nesterov': True},
], ids=str)
def test_momentum_matches_the_formula(kwargs):
    start, grads, params = setup(3)
    opt = nn.Momentum(params, 0.125, 0.9, **kwargs)
    got = run(opt, params, grads)
    for i, name in enumerate(SHAPES):
        wd = kwargs.get('weight_decay', 0.0) if name != 'bn.gamma' else 0.0
        w, v = momentum_reference(start[name], [g[name] for g in grads], 0.125, f32(0.9), wd,
                                  kwargs.get('loss_scale', 1.0), kwargs.get('use_nesterov', False))
        np.testing.assert_allclose(got[name], w, rtol=1e-12, atol=1e-14, err_msg=name)
        np.testing.assert_allclose(opt.moments[i].asnumpy(), v, rtol=1e-12, atol=1e-14)
    assert opt.moments[0].name == 'moments.fc.weight'


def test_momentum_in_float32_stays_float32_and_close():
    rng = np.random.default_rng(4)
    w0, grads = rng.standard_normal((8, 8)).astype(np.float32), rng.standard_normal((5, 8, 8))
    w = ms.Parameter(w0, name='w')
    opt = nn.Momentum([w], 0.01, 0.9)
    for g in grads:
        opt((ms.Tensor(g.astype(np.float32)),))
    ref, _ = momentum_reference(w0.astype(np.float64), grads.astype(np.float32), 0.01, 0.9)
    assert w.asnumpy().dtype == np.float32
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('kwargs,error,match', [
    ({'momentum': -0.5}, ValueError, 'nn.Momentum: momentum must be a finite number >= 0'),
    ({'momentum': True}, TypeError, 'nn.Momentum: momentum must be a float'),
    ({'momentum': 0.9, 'use_nesterov': 'yes'}, TypeError, 'use_nesterov must be a bool'),
])
def test_momentum_argument_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        nn.Momentum([ms.Parameter(ms.Tensor([1.0]), name='w')], 0.1, **kwargs)
