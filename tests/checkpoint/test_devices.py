"""Checkpoints are device-free: saved from GPU parameters, loaded into CPU ones and back."""
import numpy as np

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import backend


def test_save_from_the_gpu_and_load_on_either_device(tmp_path):
    path = str(tmp_path / 'net.ckpt')
    ms.set_seed(0)
    with backend.default_device(backend.gpu()):
        gpu_net = nn.Dense(3, 2)
    assert gpu_net.weight.device == 'GPU:0'
    ms.save_checkpoint(gpu_net, path)
    want = {p.name: p.asnumpy() for p in gpu_net.get_parameters()}
    cpu_net = nn.Dense(3, 2, weight_init='zeros')
    ms.load_param_into_net(cpu_net, ms.load_checkpoint(path))
    for p in cpu_net.get_parameters():
        assert p.device == 'CPU'
        np.testing.assert_array_equal(p.asnumpy(), want[p.name])
    with backend.default_device(backend.gpu()):
        again = nn.Dense(3, 2, weight_init='zeros')
        ms.load_param_into_net(again, ms.load_checkpoint(path))
    for p in again.get_parameters():
        assert p.device == 'GPU:0'
        np.testing.assert_array_equal(p.asnumpy(), want[p.name])
