"""Batch norm on a device normalises in one fused kernel and computes its input gradient in
another (kernels/fused.py), with the CPU's values."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import backend, fused

GPU = backend.gpu()


def _step(device):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3, 5, 5)).astype(np.float32) * 2 + 1
    gy = rng.standard_normal((4, 3, 5, 5)).astype(np.float32)
    ms.set_seed(0)
    with backend.default_device(device):
        bn = nn.BatchNorm2d(3, gamma_init='normal', beta_init='normal').set_train()
        xt = ms.Tensor(x)
        _, (gx, gw) = ms.value_and_grad(
            lambda a: (bn(a) * ms.Tensor(gy)).sum(), 0, bn.trainable_params())(xt)
        y = bn(xt)
    return [t.asnumpy() for t in (y, gx, *gw)] + [bn.moving_mean.asnumpy()]


def test_batch_norm_on_a_device_uses_the_fused_kernels(monkeypatch):
    calls = []
    real = fused.kernel
    monkeypatch.setattr(fused, 'kernel', lambda xp, k: calls.append(k) or real(xp, k))
    cpu = _step(backend.CPU)
    assert calls == []
    gpu = _step(GPU)
    assert calls.count('scale_shift') == 2 and calls.count('batch_norm_input_grad') == 1
    for got, want in zip(gpu, cpu):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
