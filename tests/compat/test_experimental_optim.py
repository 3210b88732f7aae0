"""``mindspore.experimental.optim``: the PyTorch-style optimizers and their schedulers give
MindSpore 2.10's values (experimental_optim_ms210.json, written by
tools/experimental_optim_values.py from the cases of experimental_optim_cases.py)."""
import json
import os

import numpy as np
import pytest

from hookgrad.compat import alias_mindspore, unalias_mindspore
from tests.compat import experimental_optim_cases as cases

with open(os.path.join(os.path.dirname(__file__), 'experimental_optim_ms210.json')) as _f:
    MS210 = json.load(_f)


@pytest.fixture(scope='module')
def ms():
    module = alias_mindspore()
    yield module
    unalias_mindspore()


@pytest.fixture(scope='module')
def ran(ms):
    from mindspore.experimental import optim
    return {'optimizers': cases.run_optimizers(ms, optim),
            'schedulers': cases.run_schedulers(ms, optim)}


@pytest.mark.parametrize('case', list(cases.OPTIMIZERS) + ['SGD_groups'])
def test_optimizer_steps_match_mindspore(ran, case):
    got, want = ran['optimizers'][case], MS210[f'optimizers/{case}']
    for g, w in zip(got, want):     # per-step scalars may round an ulp apart in float32
        np.testing.assert_allclose(g, w, rtol=5e-6, atol=1e-7)


@pytest.mark.parametrize('case', [k.split('/', 1)[1] for k in MS210
                                  if k.startswith('schedulers/') and not k.endswith('errors')])
def test_scheduler_rates_match_mindspore(ran, case):
    np.testing.assert_allclose(ran['schedulers'][case], MS210[f'schedulers/{case}'],
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize('case', list(cases.ERRORS))
def test_scheduler_errors_match_mindspore(ran, case):
    assert ran['schedulers']['errors'][case] == MS210['schedulers/errors'][case]


def test_optimizer_groups_state_and_errors(ms):
    from mindspore.experimental import optim
    w, b = cases._params(ms)
    opt = optim.Adam([{'params': [w], 'lr': 0.5}, {'params': [b]}], lr=0.1)
    assert [len(g['params']) for g in opt.param_groups] == [1, 1]
    assert opt.group_start_id == [0, 1, 2]
    assert [float(lr.asnumpy()) for lr in opt.lrs] == [0.5, np.float32(0.1)]
    names = set(opt.parameters_dict())
    assert {'exp_avg.w', 'exp_avg_sq.b', 'state_step'} <= names
    assert repr(opt).startswith('Adam (\nParameter Group 0\n    amsgrad: False\n')
    with pytest.raises(ValueError, match="For 'Optimizer', the argument params must not be empty."):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match='Optimizer parameters need to be organized in ordered '
                                        'collections'):
        optim.SGD([{'params': {w}}], lr=0.1)
    with pytest.raises(ValueError, match='some parameters appear in more than one parameter '
                                         'group.'):
        optim.SGD([{'params': [w]}, {'params': [w]}], lr=0.1)
    with pytest.raises(ValueError, match='Invalid learning rate: -1'):
        optim.Adam([w], lr=-1)
    with pytest.raises(ValueError, match="For 'SGD', if 'nesterov' is true, 'momentum' must be "
                                         "> 0.0"):
        optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="expected 2 gradients, one per parameter, got 1"):
        opt((ms.Tensor(np.zeros((2, 2), np.float32)),))


def test_training_with_a_scheduler(ms):
    """The loop of MindSpore's docs: value_and_grad over optimizer.parameters, a step, and a
    scheduler each epoch; the loss falls and the rate follows StepLR."""
    from mindspore.experimental import optim
    ms.set_seed(1)
    net = ms.nn.Dense(3, 1)
    opt = optim.SGD(net.trainable_params(), lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    x = ms.Tensor(np.random.RandomState(0).randn(16, 3).astype(np.float32))
    y = x.sum(axis=1, keepdims=True)
    grad_fn = ms.value_and_grad(lambda: ((net(x) - y) ** 2).mean(), None, opt.parameters)
    losses = []
    for _ in range(4):
        loss, grads = grad_fn()
        opt(grads)
        scheduler.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] / 2
    assert [float(lr.asnumpy()) for lr in scheduler.get_last_lr()] == [np.float32(0.025)]


@pytest.mark.parametrize('case', list(cases.OPTIMIZERS))
def test_optimizers_step_on_the_device_without_host_reads(ms, case):
    """On the GPU (CuPy, or the CUDA stand-in) the update stays on the device and gives the
    CPU's values; a step reads nothing back from the device."""
    from mindspore.experimental import optim
    from hookgrad.kernels import backend, fake_cuda
    gpu = backend.gpu()
    with backend.default_device(gpu):
        w, b = cases._params(ms)
        opt = getattr(optim, case.split('_')[0])([w, b], **cases.OPTIMIZERS[case])
        grads = [(ms.Tensor(np.array(gw, np.float32)), ms.Tensor(np.array(gb, np.float32)))
                 for gw, gb in cases.GRADS]
        fake_cuda.host_reads.clear()
        for step in grads:
            opt(step)
        assert dict(fake_cuda.host_reads) == {}
        assert w.device == gpu.name
    want = MS210[f'optimizers/{case}']
    np.testing.assert_allclose(w.asnumpy(), want[0], rtol=5e-6, atol=1e-7)
    np.testing.assert_allclose(b.asnumpy(), want[1], rtol=5e-6, atol=1e-7)


def test_a_jitted_step_with_a_scheduler_equals_the_eager_one(ms):
    """In graph mode the step is one effect of the program, replayed with the rate the
    scheduler set since the trace."""
    from mindspore.experimental import optim

    def run(jit):
        ms.set_seed(1)
        net = ms.nn.Dense(3, 1)
        opt = optim.Adam(net.trainable_params(), lr=0.05)
        scheduler = optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
        x = ms.Tensor(np.random.RandomState(0).randn(16, 3).astype(np.float32))
        y = x.sum(axis=1, keepdims=True)
        grad_fn = ms.value_and_grad(lambda x, y: ((net(x) - y) ** 2).mean(), None,
                                    opt.parameters)

        def step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss
        step = ms.jit(step) if jit else step
        losses = []
        for _ in range(5):
            losses.append(step(x, y).item())
            scheduler.step()
        return losses, net.weight.asnumpy()

    (eager, w_eager), (graph, w_graph) = run(False), run(True)
    assert eager == graph and eager[-1] < eager[0]
    np.testing.assert_array_equal(w_eager, w_graph)
