"""FractionalMaxPool2d/3d on the GPU: values and indices equal the CPU's and stay on the GPU;
the window positions come from the samples, read back once per call."""
import numpy as np

import hookgrad as ms
from hookgrad import nn

from .common import Reads, assert_on_gpu, assert_reads, both, host


def _pool2d():
    x = ms.Tensor(np.random.default_rng(3).standard_normal((2, 3, 7, 8)).astype(np.float32))
    samples = ms.Tensor(np.random.default_rng(4).uniform(size=(2, 3, 2)).astype(np.float32))
    net = nn.FractionalMaxPool2d(2, output_size=(3, 4), return_indices=True,
                                 _random_samples=samples)
    with Reads() as reads:
        y, at = net(x)
    return y, at, reads


def test_fractional_max_pool_on_the_gpu_equals_the_cpu():
    (y_cpu, at_cpu, _), (y_gpu, at_gpu, reads) = both(_pool2d)
    assert_on_gpu(y_gpu, at_gpu)
    assert_reads(reads, 1)                  # the samples, to place the windows
    np.testing.assert_array_equal(host(y_gpu), host(y_cpu))
    np.testing.assert_array_equal(host(at_gpu), host(at_cpu))
    assert at_gpu.dtype == ms.int64


def test_fractional_max_pool_3d_draws_its_samples_on_the_gpu():
    def run():
        x = ms.Tensor(np.random.default_rng(5).standard_normal((1, 2, 5, 6, 4)).astype(np.float32))
        return nn.FractionalMaxPool3d(2, output_ratio=0.5, return_indices=True)(x)
    (y_cpu, at_cpu), (y_gpu, at_gpu) = both(run)
    assert_on_gpu(y_gpu, at_gpu)
    np.testing.assert_array_equal(host(at_gpu), host(at_cpu))
    np.testing.assert_array_equal(host(y_gpu), host(y_cpu))
