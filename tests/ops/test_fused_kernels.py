"""Batch norm on a device computes each pass in a few fused kernels (kernels/fused.py,
ops/normalization_device.py), with the CPU's values: output, gradients of the input, weight
and bias, and the running statistics."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import backend, fused

GPU = backend.gpu()
FORWARD = ['subtract_mean', 'batch_norm_statistics', 'scale_shift', 'batch_norm_running']
BACKWARD = ['batch_norm_grad_statistics', 'batch_norm_input_grad']


def _step(device, shape, dtype):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 2 + 1).astype(dtype)
    gy = rng.standard_normal(shape).astype(dtype)
    ms.set_seed(0)
    with backend.default_device(device):
        layer = nn.BatchNorm2d if len(shape) == 4 else nn.BatchNorm1d
        bn = layer(shape[1], gamma_init='normal', beta_init='normal', momentum=0.8,
                   dtype=ms.float64 if dtype == np.float64 else ms.float32).set_train()
        xt = ms.Tensor(x)
        _, (gx, gw) = ms.value_and_grad(
            lambda a: (bn(a) * ms.Tensor(gy)).sum(), 0, bn.trainable_params())(xt)
        y = bn(xt)
    return [t.asnumpy() for t in (y, gx, *gw, bn.moving_mean, bn.moving_variance)]


@pytest.mark.parametrize('shape', [(4, 3, 5, 5), (6, 5)])
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_batch_norm_on_a_device_uses_the_fused_kernels(monkeypatch, shape, dtype):
    calls = []
    real = fused.kernel
    monkeypatch.setattr(fused, 'kernel', lambda xp, k: calls.append(k) or real(xp, k))
    cpu = _step(backend.CPU, shape, dtype)
    assert calls == []
    gpu = _step(GPU, shape, dtype)
    # two forwards (one recorded, one not) and one backward
    assert calls == FORWARD + BACKWARD + FORWARD
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for k, (got, want) in enumerate(zip(gpu, cpu)):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol / 10, err_msg=f"output {k}")
