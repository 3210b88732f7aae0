"""nn.LARS: the gradients it hands to the wrapped optimizer, by the formula of MindSpore's
LARSUpdate kernel (MindSpore runs it on Ascend only), and its argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

W0 = np.array([[0.5, 0.8, 0.2], [0.6, 0.4, 0.2]], np.float32)
B0 = np.array([0.1, -0.3, 0.2], np.float32)
GRADS = [(np.array([[0.4, 0.4, 0.5], [0.2, 0.4, 0.3]], np.float32),
          np.array([0.3, 0.1, -0.2], np.float32)),
         (np.array([[-0.1, 0.3, 0.2], [0.5, -0.2, 0.1]], np.float32),
          np.array([-0.1, 0.2, 0.4], np.float32))]


def _params():
    return [ms.Parameter(ms.Tensor(W0.copy()), name='fc.weight'),
            ms.Parameter(ms.Tensor(B0.copy()), name='fc.bias')]


def _lars_grad(w, g, wd, lr=None, eps=1e-5, coef=0.001):
    """LARSUpdate's formula, written out in float64."""
    w, g = w.astype(np.float64), g.astype(np.float64)
    coeff = coef * np.linalg.norm(w) / (np.linalg.norm(g) + wd * np.linalg.norm(w) + eps)
    if lr is not None:
        coeff = min(max(coeff / lr, 0.0), 1.0)
    return coeff * (g + wd * w)


def test_kernel_formula_matches_mindspore_docstring_example():
    # ops.LARSUpdate's documented output for this weight and gradient, weight_decay 0, lr 1
    out = _lars_grad(W0, GRADS[0][0], 0.0)
    np.testing.assert_allclose(out, [[0.0005265, 0.0005265, 0.00065813],
                                     [0.00026325, 0.0005265, 0.00039488]], rtol=1e-4)


@pytest.mark.parametrize('use_clip', [False, True])
def test_momentum_gets_lars_gradients_without_its_decay_and_scale(use_clip):
    ps = _params()
    inner = nn.Momentum(ps, 0.1, 0.9, weight_decay=0.01, loss_scale=2.0)
    opt = nn.LARS(inner, use_clip=use_clip)
    ref = _params()
    plain = nn.Momentum(ref, 0.1, 0.9)          # no decay, no loss scale
    for gw, gb in GRADS:
        w = ref[0].asnumpy()
        lars_w = _lars_grad(w, gw / 2.0, 0.01 / 2.0, 0.1 if use_clip else None)
        assert opt((ms.Tensor(gw), ms.Tensor(gb))) is True
        plain((ms.Tensor(lars_w.astype(np.float32)), ms.Tensor(gb / 2.0)))   # bias: not LARS
        for p, r in zip(ps, ref):
            np.testing.assert_allclose(p.asnumpy(), r.asnumpy(), rtol=1e-6, atol=1e-7)
    assert inner.loss_scale == 1.0 and inner.decay_flags == (False, False)
    assert opt.lars_flag == (True, False)


def test_clip_caps_the_local_rate_at_one():
    ps = _params()
    opt = nn.LARS(nn.SGD(ps, 1e-6), use_clip=True, coefficient=1.0)
    opt((ms.Tensor(GRADS[0][0]), ms.Tensor(GRADS[0][1])))
    np.testing.assert_allclose(ps[0].asnumpy(), W0 - 1e-6 * GRADS[0][0], rtol=1e-6)


def test_filter_and_shared_state():
    ps = _params()
    inner = nn.SGD(ps, ms.Tensor(np.array([0.1, 0.05], np.float32)))
    opt = nn.LARS(inner, lars_filter=lambda p: True)
    assert opt.lars_flag == (True, True)
    assert opt.global_step is inner.global_step and opt.parameters is inner.parameters
    assert opt.learning_rate.name == 'fake_lr' and float(opt.get_lr().asnumpy()) == 0.0
    opt((ms.Tensor(GRADS[0][0]), ms.Tensor(GRADS[0][1])))
    assert int(inner.global_step.asnumpy()[0]) == 1
    expected = B0 - 0.1 * _lars_grad(B0, GRADS[0][1], 0.0)
    np.testing.assert_allclose(ps[1].asnumpy(), expected, rtol=1e-5)


@pytest.mark.parametrize('kwargs, error, message', [
    (dict(optimizer=1), TypeError, "For 'LARS', the type of 'optimizer' should be 'Optimizer'"),
    (dict(epsilon=1), TypeError,
     "For 'LARS', the type of 'epsilon' should be 'float', but got type 'int'"),
    (dict(coefficient=1), TypeError, "the type of 'coefficient' should be 'float'"),
    (dict(use_clip=1), TypeError, "the type of 'use_clip' should be 'bool'"),
])
def test_argument_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        nn.LARS(**{'optimizer': nn.SGD(_params(), 0.1), **kwargs})


def test_clip_with_group_dynamic_rates_raises():
    ps = _params()
    inner = nn.SGD([{'params': ps[:1], 'lr': [0.1, 0.2]}, {'params': ps[1:], 'lr': [0.1, 0.2]}])
    with pytest.raises(ValueError, match="if the argument 'use_clip' is set to True, then the "
                                         "dynamic learning rate and group learning rate"):
        nn.LARS(inner, use_clip=True)
