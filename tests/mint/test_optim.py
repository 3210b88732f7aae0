"""``mindspore.mint.optim``: called with the gradients as MindSpore's mint optimizers are, each
step as MindSpore 2.10's source computes it (mindspore/mint/optim/{sgd,adam,adamw}.py; its CPU
build has no kernels for them, so the reference is that algorithm in NumPy)."""
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint
from hookgrad.kernels import backend
from tests.mint.test_functions import DEVICES

W0 = np.array([1.0, -2.0, 3.0], np.float32)
B0 = np.array([[0.5, -0.25]], np.float32)
GRADS = [(np.array([0.5, -1.0, 2.0], np.float32), np.array([[0.1, 0.3]], np.float32)),
         (np.array([-0.2, 0.4, 1.0], np.float32), np.array([[-0.5, 0.2]], np.float32)),
         (np.array([0.3, 0.3, -0.6], np.float32), np.array([[0.0, -0.1]], np.float32))]


def sgd_reference(w, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0,
                  nesterov=False, maximize=False):
    w, buf = w.astype(np.float64), None
    for step, g in enumerate(grads):
        g = -g if maximize else g
        g = g + weight_decay * w
        if momentum:
            buf = g if step == 0 else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        w = w - lr * g
    return w


def adam_reference(w, grads, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                   amsgrad=False, maximize=False, decoupled=False):
    w = w.astype(np.float64)
    m = v = vmax = np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        g = -g if maximize else g
        if decoupled:
            w = w * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * w
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        vmax = np.maximum(vmax, v) if amsgrad else v
        denom = np.sqrt(vmax) / np.sqrt(1 - betas[1] ** t) + eps
        w = w - lr / (1 - betas[0] ** t) * m / denom
    return w


def run(make, groups=False, device='CPU'):
    with backend.default_device(DEVICES[device]):
        w = ms.Parameter(ms.Tensor(W0), 'w')
        b = ms.Parameter(ms.Tensor(B0), 'b')
        opt = make([{'params': [w]}, {'params': [b], 'lr': 0.05}] if groups else [w, b])
        for gw, gb in GRADS:
            assert opt((ms.Tensor(gw), ms.Tensor(gb))) is True
    return w.asnumpy(), b.asnumpy()


SGD_CASES = [dict(lr=0.1), dict(lr=0.1, momentum=0.9), dict(lr=0.1, momentum=0.9, nesterov=True),
             dict(lr=0.05, momentum=0.5, dampening=0.3, weight_decay=0.01),
             dict(lr=0.1, maximize=True, weight_decay=0.1)]


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('kwargs', SGD_CASES, ids=str)
def test_sgd_steps_as_mindspore(kwargs, device):
    w, b = run(lambda params: mint.optim.SGD(params, **kwargs), device=device)
    np.testing.assert_allclose(w, sgd_reference(W0, [g[0] for g in GRADS], **kwargs), rtol=1e-6)
    np.testing.assert_allclose(b, sgd_reference(B0, [g[1] for g in GRADS], **kwargs), rtol=1e-6)


ADAM_CASES = [dict(), dict(lr=0.1, betas=(0.8, 0.9)), dict(lr=0.1, weight_decay=0.1),
              dict(lr=0.1, amsgrad=True), dict(lr=0.1, maximize=True, eps=1e-3)]


@pytest.mark.parametrize('device', DEVICES)
@pytest.mark.parametrize('kwargs', ADAM_CASES, ids=str)
@pytest.mark.parametrize('cls', ['Adam', 'AdamW'])
def test_adam_and_adamw_step_as_mindspore(cls, kwargs, device):
    w, b = run(lambda params: getattr(mint.optim, cls)(params, **kwargs), device=device)
    if cls == 'AdamW':
        kwargs = dict(kwargs, decoupled=True, weight_decay=kwargs.get('weight_decay', 1e-2))
    np.testing.assert_allclose(w, adam_reference(W0, [g[0] for g in GRADS], **kwargs),
                               rtol=1e-5)
    np.testing.assert_allclose(b, adam_reference(B0, [g[1] for g in GRADS], **kwargs),
                               rtol=1e-5)


def test_parameter_groups_take_their_own_options():
    w, b = run(lambda params: mint.optim.SGD(params, lr=0.1, momentum=0.9), groups=True)
    np.testing.assert_allclose(w, sgd_reference(W0, [g[0] for g in GRADS], 0.1, 0.9), rtol=1e-6)
    np.testing.assert_allclose(b, sgd_reference(B0, [g[1] for g in GRADS], 0.05, 0.9),
                               rtol=1e-6)


def test_a_training_step_with_value_and_grad():
    net = mint.nn.Linear(3, 1)
    opt = mint.optim.AdamW(net.trainable_params(), lr=0.1)
    x = ms.Tensor(np.eye(3, dtype=np.float32))
    y = ms.Tensor(np.array([[1.0], [2.0], [3.0]], np.float32))
    step = ms.value_and_grad(lambda: mint.nn.functional.mse_loss(net(x), y), None,
                             opt.parameters)
    losses = []
    for _ in range(30):
        loss, grads = step()
        opt(grads)
        losses.append(float(loss.asnumpy()))
    assert losses[-1] < losses[0] / 10


def test_defaults_and_fused_adamw():
    opt = mint.optim.AdamW([ms.Parameter(ms.Tensor(W0), 'w')])
    assert opt.param_groups[0]['lr'] == 1e-3 and opt.param_groups[0]['weight_decay'] == 1e-2
    assert mint.optim.Adam([ms.Parameter(ms.Tensor(W0), 'w')]).param_groups[0][
        'weight_decay'] == 0.0
    assert mint.optim.FusedAdamW is mint.optim.AdamW


@pytest.mark.parametrize('make,match', [
    (lambda p: mint.optim.SGD(p, lr=-0.1), 'Invalid learning rate: -0.1'),
    (lambda p: mint.optim.SGD(p, lr=0.1, nesterov=True),
     "For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal "
     "to 0.0, but got 'momentum' 0, 'dampening' 0"),
    (lambda p: mint.optim.SGD(p, lr=0.1, momentum=-1), 'Invalid momentum value: -1'),
    (lambda p: mint.optim.Adam(p, weight_decay=-1.0), 'Invalid weight_decay value: -1.0'),
    (lambda p: mint.optim.Adam(p, betas=(1.0, 0.9)), 'Invalid beta parameter at index 0'),
    (lambda p: mint.optim.AdamW(p, eps=-1.0), 'Invalid epsilon value: -1.0'),
])
def test_bad_options_are_refused_with_mindspores_messages(make, match):
    with pytest.raises(ValueError, match=re.escape(match)):
        make([ms.Parameter(ms.Tensor(W0), 'w')])


def test_an_empty_parameter_list_is_refused():
    with pytest.raises(ValueError, match="For 'Optimizer', the argument params must not be "
                                         "empty."):
        mint.optim.Adam([], lr=0.1)


def test_wrong_number_of_gradients():
    opt = mint.optim.SGD([ms.Parameter(ms.Tensor(W0), 'w')], lr=0.1)
    with pytest.raises(ValueError, match='got 2 gradients for 1 parameters'):
        opt((ms.Tensor(W0), ms.Tensor(W0)))


def test_state_is_registered_under_mindspores_names():
    w = ms.Parameter(ms.Tensor(W0), 'w')
    assert [n for n, _ in mint.optim.Adam([w]).parameters_and_names()] == \
        ['exp_avg.w', 'exp_avg_sq.w', 'state_step']
    assert [n for n, _ in mint.optim.SGD([w], lr=0.1).parameters_and_names()] == \
        ['momentum_buf.w', 'step_t']


def test_a_jitted_training_step_replays_the_update():
    net = mint.nn.Linear(3, 1)
    opt = mint.optim.SGD(net.trainable_params(), lr=0.1, momentum=0.9)
    x = ms.Tensor(np.eye(3, dtype=np.float32))
    y = ms.Tensor(np.array([[1.0], [2.0], [3.0]], np.float32))
    grad_fn = ms.value_and_grad(lambda: mint.nn.functional.mse_loss(net(x), y), None,
                                opt.parameters)

    @ms.jit
    def step():
        loss, grads = grad_fn()
        opt(grads)
        return loss

    losses = [float(step().asnumpy()) for _ in range(20)]
    assert losses[-1] < losses[0] / 10 and int(opt.step_t.asnumpy()) == 20
