"""Optimizers on the GPU update each segment of parameters with one fused kernel
(kernels/fused.py): the same values as the CPU's whole-array NumPy steps, state included, and
a parameter replaced between steps (``set_data``) is taken up."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import backend, fused

GPU = backend.gpu()

OPTIMIZERS = {
    'momentum': lambda ps: nn.Momentum(ps, 0.1, 0.9),
    'momentum_nesterov': lambda ps: nn.Momentum(ps, 0.1, 0.9, use_nesterov=True),
    'momentum_decay_scale': lambda ps: nn.Momentum(ps, 0.1, 0.9, weight_decay=0.01,
                                                   loss_scale=2.0),
    'adam': lambda ps: nn.Adam(ps, 0.01),
    'adam_nesterov': lambda ps: nn.Adam(ps, 0.01, use_nesterov=True),
    'adam_weight_decay': lambda ps: nn.AdamWeightDecay(ps, 0.01, weight_decay=0.1),
    'adam_amsgrad': lambda ps: nn.Adam(ps, 0.01, use_amsgrad=True),       # not fused
    'sgd': lambda ps: nn.SGD(ps, 0.1, momentum=0.9, nesterov=True),      # not fused
}
FUSED = {'momentum', 'momentum_nesterov', 'momentum_decay_scale', 'adam', 'adam_nesterov',
         'adam_weight_decay'}


def _run(name, device, launches):
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(s).astype(np.float32) for s in ((3, 4), (4,), (2, 2, 2))]
    grads = [[rng.standard_normal(v.shape).astype(np.float32) for v in values]
             for _ in range(3)]
    with backend.default_device(device):
        params = [ms.Parameter(v, name=f'w{i}' if i != 1 else 'beta') for i, v in
                  enumerate(values)]
        opt = OPTIMIZERS[name](params)
        for step, gs in enumerate(grads):
            if step == 2:                          # replaced between steps
                params[0].set_data(ms.Tensor(np.full((3, 4), 0.5, np.float32)))
            opt(tuple(ms.Tensor(g) for g in gs))
    state = {p.name: p.asnumpy() for p in opt.get_parameters() if p.name not in
             {q.name for q in params}}
    return [p.asnumpy() for p in params], state, len(opt._segments)


@pytest.mark.parametrize('name', sorted(OPTIMIZERS))
def test_the_gpu_step_equals_the_cpu_step(name, monkeypatch):
    calls = []
    real = fused.kernel
    monkeypatch.setattr(fused, 'kernel', lambda xp, k: calls.append(k) or real(xp, k))
    cpu_params, cpu_state, _ = _run(name, backend.CPU, calls)
    assert calls == []                                  # the CPU keeps its blocked steps
    params, state, segments = _run(name, GPU, calls)
    # one launch per step and segment (a decayed and an undecayed one with weight decay)
    assert segments == (2 if 'decay' in name else 1)
    assert len(calls) == (3 * segments if name in FUSED else 0)
    for got, want in zip(params, cpu_params):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert state.keys() == cpu_state.keys()
    for key in state:
        np.testing.assert_allclose(state[key], cpu_state[key], rtol=1e-6, atol=1e-7,
                                   err_msg=key)


def test_a_subclass_with_its_own_rule_is_not_fused(monkeypatch):
    class Halved(nn.Momentum):
        def _rule(self, block, g, t, lr, u):
            super()._rule(block, g, t, lr / 2, u)

    calls = []
    real = fused.kernel
    monkeypatch.setattr(fused, 'kernel', lambda xp, k: calls.append(k) or real(xp, k))
    with backend.default_device(GPU):
        w = ms.Parameter(np.ones(3, np.float32), name='w')
        Halved([w], 0.2, 0.0)((ms.Tensor(np.ones(3, np.float32)),))
    assert calls == []
    np.testing.assert_allclose(w.asnumpy(), [0.9, 0.9, 0.9], rtol=1e-6)


def test_parameters_become_views_of_one_flat_array_and_stay_usable():
    with backend.default_device(GPU):
        net = nn.Dense(3, 2)
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        grads = tuple(ms.ops.ones_like(p) for p in net.trainable_params())
        opt(grads)
        flat = opt._segments[0].flat
        assert flat is not None and flat.shape == (8,)
        assert np.array_equal(flat.get(), np.concatenate([p.asnumpy().ravel()
                                                          for p in net.trainable_params()]))
        y = net(ms.Tensor(np.ones((1, 3), np.float32)))
    assert y.shape == (1, 2) and net.weight.device == 'GPU:0'
