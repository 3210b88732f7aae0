"""Adagrad, RMSProp, Adadelta, AdaMax, ASGD, Rprop, FTRL, ProximalAdagrad and LazyAdam, step by
step against MindSpore 2.10's numbers (mindspore_steps.py); Lamb, whose kernel MindSpore runs
on Ascend and GPU only, against its formula in NumPy; state names, argument errors, ms.jit."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

from .mindspore_steps import CASES

SHAPES = [('fc.weight', (2, 3)), ('fc.bias', (2,)), ('ln.gamma', (2,)), ('ln.beta', (2,))]


def split(flat):
    out, k = [], 0
    for _, shape in SHAPES:
        size = int(np.prod(shape))
        out.append(flat[k:k + size].reshape(shape))
        k += size
    return out


def start():
    return split(np.cos(0.9 * np.arange(12) + 0.3).astype(np.float32))


def grads(step):
    return split((0.5 * np.sin(1.3 * np.arange(12) + 0.7 * step + 0.1)).astype(np.float32))


def learning_rate(spec):
    if spec[0] == 'exp':
        return nn.ExponentialDecayLR(*spec[1:])
    return list(spec[1]) if spec[0] == 'list' else spec[1]


def build(name, kwargs, lr, groups):
    params = [ms.Parameter(v, name=n) for (n, _), v in zip(SHAPES, start())]
    spec = params
    if groups:
        spec = [{'params': params[:2], 'weight_decay': groups[0], 'lr': learning_rate(groups[1])},
                {'params': params[2:]}]
    return getattr(nn, name)(spec, learning_rate=learning_rate(lr), **kwargs), params


@pytest.mark.parametrize('case', list(CASES))
def test_each_step_matches_mindspore(case):
    name, kwargs, lr, groups, rows = CASES[case]
    opt, params = build(name, kwargs, lr, groups)
    for step, row in enumerate(rows):
        assert opt(tuple(ms.Tensor(g) for g in grads(step))) is True
        got = np.concatenate([p.asnumpy().reshape(-1) for p in params])
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, np.array(row, np.float32), rtol=2e-5, atol=5e-6,
                                   err_msg=f'{case}, step {step}')
    assert opt.global_step.asnumpy().tolist() == [4] or not opt.dynamic_lr


STATE = {
    'Adagrad': ({}, ['accum']),
    'RMSProp': ({'centered': True}, ['mean_grad', 'mean_square', 'moment']),
    'Adadelta': ({}, ['accum', 'accum_update']),
    'AdaMax': ({}, ['moment1', 'moment2']),
    'FTRL': ({}, ['moments', 'linear']),
    'ProximalAdagrad': ({}, ['accum']),
    'Rprop': ({}, ['prev', 'step_size']),
    'LazyAdam': ({}, ['moment1', 'moment2']),
    'Lamb': ({'learning_rate': 0.1}, ['lamb_m', 'lamb_v']),
}


@pytest.mark.parametrize('name', list(STATE) + ['ASGD'])
def test_state_is_named_as_mindspore_names_it(name):
    params = [ms.Parameter(v, name=n) for (n, _), v in zip(SHAPES, start())]
    kwargs, prefixes = STATE.get(name, ({}, []))
    opt = getattr(nn, name)(params, **kwargs)
    names = [p.name for p in opt.get_parameters()]
    for prefix in prefixes:
        assert [f'{prefix}.{n}' for n, _ in SHAPES] == [n for n in names
                                                        if n.rsplit('.', 2)[0] == prefix
                                                        or n.startswith(prefix + '.')][:4]
    if name == 'ASGD':
        for prefix in ('mu_', 'eta_', 'ax_.'):
            assert [n for n in names if n.startswith(prefix)] == [prefix + n for n, _ in SHAPES]
    if name in ('AdaMax', 'LazyAdam'):
        assert 'beta1_power' in names


def test_adagrad_and_rmsprop_state_start_values():
    w = ms.Parameter(np.zeros(3, np.float32), name='w')
    assert (nn.Adagrad([w], accum=0.25).accum[0].asnumpy() == 0.25).all()
    opt = nn.RMSProp([w])
    assert (opt.ms[0].asnumpy() == 1).all() and (opt.moment[0].asnumpy() == 0).all()
    assert (nn.FTRL([w], initial_accum=0.5).moments[0].asnumpy() == 0.5).all()


def lamb_reference(w, steps, lr, b1=0.9, b2=0.999, eps=1e-6, wd=0.0):
    """LAMB as MindSpore documents it, in float64."""
    w, m, v = w.astype(np.float64), np.zeros(w.shape), np.zeros(w.shape)
    for t, (g, rate) in enumerate(zip(steps, lr), 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        r = (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps) + wd * w
        wn, rn = np.linalg.norm(w), np.linalg.norm(r)
        w = w - rate * (wn / rn if wn > 0 and rn > 0 else 1.0) * r
    return w


@pytest.mark.parametrize('kwargs,schedule', [({}, False),
                                             ({'beta1': 0.8, 'weight_decay': 0.1}, True)])
def test_lamb_matches_its_formula(kwargs, schedule):
    params = [ms.Parameter(v.astype(np.float64), name=n) for (n, _), v in zip(SHAPES, start())]
    lr = nn.ExponentialDecayLR(0.1, 0.8, 1) if schedule else 0.1
    opt = nn.Lamb(params, learning_rate=lr, **kwargs)
    for step in range(4):
        opt(tuple(ms.Tensor(g.astype(np.float64)) for g in grads(step)))
    rates = [float(np.float32(0.1 * 0.8 ** i)) for i in range(4)] if schedule else [0.1] * 4
    for k, (p, (n, _)) in enumerate(zip(params, SHAPES)):
        wd = kwargs.get('weight_decay', 0.0) if n not in ('ln.gamma', 'ln.beta') else 0.0
        ref = lamb_reference(start()[k], [grads(s)[k].astype(np.float64) for s in range(4)],
                             rates, b1=kwargs.get('beta1', 0.9), wd=wd)
        # the bias corrections use Float32 powers of the betas, as MindSpore holds them
        np.testing.assert_allclose(p.asnumpy(), ref, rtol=2e-6, atol=1e-9, err_msg=n)
    assert opt.global_step.asnumpy().tolist() == [4]


def test_lamb_trust_ratio_is_one_for_a_zero_weight():
    w = ms.Parameter(np.zeros(3), name='w')
    nn.Lamb([w], learning_rate=0.5)((ms.Tensor(np.array([1.0, -2.0, 0.0])),))
    np.testing.assert_allclose(w.asnumpy(), [-0.5, 0.5, 0.0], atol=1e-5)


def test_lazy_adam_is_adam_on_dense_gradients():
    a = [ms.Parameter(v, name=n) for (n, _), v in zip(SHAPES, start())]
    b = [ms.Parameter(v, name=n) for (n, _), v in zip(SHAPES, start())]
    lazy = nn.LazyAdam(a, 0.1, use_nesterov=True, weight_decay=0.1)
    adam = nn.Adam(b, 0.1, use_nesterov=True, weight_decay=0.1)
    for step in range(3):
        lazy(tuple(ms.Tensor(g) for g in grads(step)))
        adam(tuple(ms.Tensor(g) for g in grads(step)))
    for p, q in zip(a, b):
        np.testing.assert_array_equal(p.asnumpy(), q.asnumpy())


def test_ftrl_with_l1_and_l2_matches_its_documented_formula():
    # MindSpore 2.10's CPU kernel drops sign(z) (it takes l1 - z where z < 0); hookgrad follows
    # the formula MindSpore documents, which pulls every weight towards zero
    w0, g = np.array([0.362358, 0.8347, -0.2]), np.array([0.49272, 0.4995, -0.3])
    w = ms.Parameter(w0.copy(), name='w')
    opt = nn.FTRL([w], initial_accum=0.3, learning_rate=0.1, lr_power=-0.7, l1=0.05, l2=0.1)
    opt((ms.Tensor(g),))
    n, lr = 0.3 + g * g, float(np.float32(0.1))      # the rate is held in Float32
    z = g - (n ** 0.7 - 0.3 ** 0.7) / lr * w0
    expected = np.where(np.abs(z) > 0.05, (np.sign(z) * 0.05 - z) / (n ** 0.7 / lr + 0.2), 0)
    np.testing.assert_allclose(w.asnumpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(opt.linear[0].asnumpy(), z, rtol=1e-12)
    np.testing.assert_allclose(opt.moments[0].asnumpy(), n, rtol=1e-12)


def test_ftrl_l1_sets_weights_to_zero():
    w = ms.Parameter(np.array([0.5, -0.5], np.float32), name='w')
    nn.FTRL([w], learning_rate=0.1, l1=10.0)((ms.Tensor(np.array([0.1, 0.1], np.float32)),))
    assert w.asnumpy().tolist() == [0.0, 0.0]


def test_rprop_and_asgd_count_steps_with_a_fixed_rate():
    w = ms.Parameter(np.ones(2, np.float32), name='w')
    opt = nn.Rprop([w], learning_rate=0.1)
    for _ in range(3):
        opt((ms.Tensor(np.ones(2, np.float32)),))
    assert opt.global_step.asnumpy().tolist() == [3]
    np.testing.assert_allclose(opt.step_size[0].asnumpy(), [0.144, 0.144], rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), 1 - (0.1 + 0.12 + 0.144), rtol=1e-6)


W = ms.Parameter(np.ones(2, np.float32), name='w')


@pytest.mark.parametrize('name,kwargs,error,match', [
    ('Adagrad', {'accum': 1}, TypeError, 'nn.Adagrad: accum must be a float, got int'),
    ('Adagrad', {'accum': -0.1}, ValueError, 'nn.Adagrad: accum must be >= 0.0, got -0.1'),
    ('Adagrad', {'update_slots': 1}, TypeError, 'update_slots must be a bool'),
    ('RMSProp', {'decay': 1}, TypeError, 'nn.RMSProp: decay must be a float, got int'),
    ('RMSProp', {'epsilon': 0.0}, ValueError, 'epsilon must be > 0.0, got 0.0'),
    ('RMSProp', {'momentum': -0.1}, ValueError, 'momentum must be >= 0.0'),
    ('RMSProp', {'centered': 1}, TypeError, 'centered must be a bool'),
    ('Adadelta', {'rho': 1.5}, ValueError, r'nn.Adadelta: rho must be in \[0.0, 1.0\], got 1.5'),
    ('Adadelta', {'epsilon': -1.0}, ValueError, 'epsilon must be >= 0.0'),
    ('AdaMax', {'beta1': 1.0}, ValueError, r'nn.AdaMax: beta1 must be in \(0.0, 1.0\), got 1.0'),
    ('AdaMax', {'eps': 0.0}, ValueError, 'eps must be > 0.0'),
    ('AdaMax', {'loss_scale': 0.0}, ValueError, 'loss_scale must be a finite number > 0'),
    ('ASGD', {'lambd': 1}, TypeError, 'nn.ASGD: lambd must be a float, got int'),
    ('ASGD', {'t0': 1}, TypeError, 't0 must be a float, got int'),
    ('Rprop', {'etas': [0.5, 1.2]}, TypeError, 'nn.Rprop: etas must be a tuple, got list'),
    ('Rprop', {'etas': (0.5,)}, ValueError, 'etas must be a tuple of 2 values, got 1'),
    ('Rprop', {'etas': (1.5, 1.2)}, ValueError, r'etaminus \(etas\[0\]\) must be in \(0.0, 1.0\)'),
    ('Rprop', {'etas': (0.5, 1.0)}, ValueError, r'etaplus \(etas\[1\]\) must be > 1.0'),
    ('Rprop', {'step_sizes': (1.0, 0.1)}, ValueError, 'must not be less than the smallest'),
    ('Rprop', {'step_sizes': (1, 2.0)}, TypeError, r'step_sizes\[0\] must be a float, got int'),
    ('FTRL', {'l1': -1.0}, ValueError, 'nn.FTRL: l1 must be >= 0.0'),
    ('FTRL', {'lr_power': 0.5}, ValueError, 'lr_power must be <= 0.0, got 0.5'),
    ('FTRL', {'learning_rate': [0.1, 0.2]}, ValueError, 'FTRL takes no per-step list'),
    ('FTRL', {'learning_rate': nn.WarmUpLR(0.1, 2)}, ValueError, 'dynamic_lr=True'),
    ('FTRL', {'learning_rate': 1}, TypeError, 'learning_rate must be a float, got int'),
    ('FTRL', {'learning_rate': 0.0}, ValueError, 'learning_rate must be > 0.0'),
    ('ProximalAdagrad', {'l2': -1.0}, ValueError, 'nn.ProximalAdagrad: l2 must be >= 0.0'),
    ('ProximalAdagrad', {'use_locking': 0}, TypeError, 'use_locking must be a bool'),
    ('LazyAdam', {'beta1': 1.0}, ValueError, r'nn.LazyAdam: beta1 must be in \(0, 1\)'),
    ('Lamb', {'learning_rate': 0.1, 'beta2': 0.0}, ValueError, r'nn.Lamb: beta2 must be in'),
    ('Lamb', {'learning_rate': 0.1, 'eps': 1}, TypeError, 'nn.Lamb: eps must be a float'),
])
def test_argument_errors(name, kwargs, error, match):
    with pytest.raises(error, match=match):
        getattr(nn, name)([W], **kwargs)


def test_lamb_needs_a_learning_rate_and_ftrl_no_group_rates():
    with pytest.raises(TypeError, match='learning_rate'):
        nn.Lamb([W])
    with pytest.raises(ValueError, match='is_group_lr=True'):
        nn.FTRL([{'params': [W], 'lr': 0.1}])


JITTED = {
    'Adagrad': lambda ps: nn.Adagrad(ps, learning_rate=0.1, weight_decay=0.01),
    'RMSProp': lambda ps: nn.RMSProp(ps, 0.01, momentum=0.9, centered=True),
    'Adadelta': lambda ps: nn.Adadelta(ps),
    'AdaMax': lambda ps: nn.AdaMax(ps, nn.ExponentialDecayLR(0.1, 0.9, 1)),
    'ASGD': lambda ps: nn.ASGD(ps, 0.1, lambd=0.1, t0=2.0),
    'Rprop': lambda ps: nn.Rprop(ps, 0.01),
    'FTRL': lambda ps: nn.FTRL(ps, learning_rate=0.1, l1=0.01),
    'ProximalAdagrad': lambda ps: nn.ProximalAdagrad(ps, learning_rate=0.1, l1=0.01),
    'LazyAdam': lambda ps: nn.LazyAdam(ps, 0.01),
    'Lamb': lambda ps: nn.Lamb(ps, 0.01, weight_decay=0.01),
}


def training(make, compiled):
    ms.set_seed(1)
    net = nn.Dense(3, 2)
    opt = make(net.trainable_params())
    loss_fn = nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def step(x, y):
        loss, gs = grad_fn(x, y)
        opt(gs)
        return loss

    run = ms.jit(step) if compiled else step
    rng = np.random.default_rng(0)
    losses = [run(ms.Tensor(rng.standard_normal((4, 3)).astype(np.float32)),
                  ms.Tensor(rng.standard_normal((4, 2)).astype(np.float32))).asnumpy()
              for _ in range(4)]
    return losses + [p.asnumpy().copy() for p in net.get_parameters()], run


@pytest.mark.parametrize('name', list(JITTED))
def test_a_jitted_training_step_equals_the_eager_one(name):
    eager, _ = training(JITTED[name], False)
    jitted, run = training(JITTED[name], True)
    for a, b in zip(jitted, eager):
        np.testing.assert_array_equal(a, b)
    assert run.traces == 1 and run.replays == 3
    assert not np.array_equal(eager[-2], training(lambda ps: nn.SGD(ps, 0.0), False)[0][-2])
