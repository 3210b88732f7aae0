"""TF32 math on the GPU (``device_context.gpu.op_precision``): on for convolutions and off for
matrix products by default, as in MindSpore and PyTorch. The CUDA stand-in rounds float32
product operands to TF32's 10-bit mantissa as cuBLAS does."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import backend, fake_cuda, gpu_runtime
from hookgrad.kernels.fake_cuda_runtime import tf32

GPU = backend.gpu()
precision = ms.device_context.gpu.op_precision
pytestmark = pytest.mark.skipif(GPU.xp is not fake_cuda.xp,
                                reason="exact TF32 values are the stand-in's rounding")


@pytest.fixture(autouse=True)
def defaults():
    yield
    precision.conv_allow_tf32(True)
    precision.matmul_allow_tf32(False)


def _inputs():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    a = rng.standard_normal((5, 16)).astype(np.float32)
    b = rng.standard_normal((16, 6)).astype(np.float32)
    return x, w, a, b


def _run(device):
    x, w, a, b = _inputs()
    with backend.default_device(device):
        conv = ops.conv2d(ms.Tensor(x), ms.Tensor(w), padding=1, pad_mode='pad')
        product = ops.matmul(ms.Tensor(a), ms.Tensor(b))
    return conv.asnumpy(), product.asnumpy()


def test_defaults_tf32_convolutions_and_exact_products():
    conv_cpu, product_cpu = _run(backend.CPU)
    conv, product = _run(GPU)
    np.testing.assert_allclose(product, product_cpu, rtol=1e-6, atol=1e-6)
    difference = np.abs(conv - conv_cpu).max()
    assert 1e-5 < difference < 1e-2 * np.abs(conv_cpu).max()
    assert gpu_runtime.tf32_allowed('conv') and not gpu_runtime.tf32_allowed('matmul')


def test_the_switches():
    conv_cpu, product_cpu = _run(backend.CPU)
    precision.conv_allow_tf32(False)
    precision.matmul_allow_tf32(True)
    conv, product = _run(GPU)
    np.testing.assert_allclose(conv, conv_cpu, rtol=1e-5, atol=1e-5)
    assert 1e-5 < np.abs(product - product_cpu).max() < 1e-2 * np.abs(product_cpu).max()
    _, _, a, b = _inputs()
    want = tf32(a) @ tf32(b)        # TF32 is on for products: both operands rounded
    assert not np.array_equal(tf32(a), a)
    np.testing.assert_allclose(product, want, rtol=1e-6, atol=1e-6)


def test_full_float32_restores_the_settings():
    precision.matmul_allow_tf32(True)
    with gpu_runtime.full_float32():
        assert not gpu_runtime.tf32_allowed('conv') and not gpu_runtime.tf32_allowed('matmul')
    assert gpu_runtime.tf32_allowed('conv') and gpu_runtime.tf32_allowed('matmul')


def test_the_settings_take_bools_only():
    with pytest.raises(TypeError, match="The parameter 'value' must be <class 'bool'>, but got "
                                        "<class 'int'>"):
        precision.matmul_allow_tf32(1)
    with pytest.raises(TypeError, match="must be <class 'bool'>, but got <class 'str'>"):
        precision.conv_allow_tf32('yes')
