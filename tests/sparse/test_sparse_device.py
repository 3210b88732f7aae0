"""Sparse operations on the GPU (the CUDA stand-in in CI) give the CPU's results: the index
structure is read to the host, the values stay on the device."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from tests.device.common import GPU, both

A = np.array([[0., 1.5, 0., -2.], [0., 0., 0., 0.], [3., 0., 0.5, 0.]])
B = np.arange(8.).reshape(4, 2) - 3.


def _coo64(a):
    """The COOTensor of a's non-zero entries with int64 indices (coo_add/coo_concat's kind)."""
    return ms.COOTensor(ms.Tensor(np.argwhere(a).astype(np.int64)), ms.Tensor(a[a != 0]),
                        a.shape)


CALLS = {
    'csr_mm': lambda: ms.Tensor(A).to_csr().mm(ms.Tensor(B)),
    'csr_mv': lambda: ms.Tensor(A).to_csr().mv(ms.Tensor(B[:, :1])),
    'csr_softmax': lambda: ops.csr_softmax(ms.Tensor(A).to_csr(), ms.float64).to_dense(),
    'csr_add': lambda: ops.csr_add(ms.Tensor(A).to_csr(), ms.Tensor(A[::-1].copy()).to_csr(),
                                   ms.Tensor(1.), ms.Tensor(-0.5)).to_dense(),
    'csr_mm_sparse': lambda: ops.csr_mm(ms.Tensor(A).to_csr(),
                                        ms.Tensor(A.T.copy()).to_csr()).to_dense(),
    'coo_add': lambda: ops.coo_add(_coo64(A), _coo64(A[::-1].copy()), ms.Tensor(0.)).to_dense(),
    'coo_concat': lambda: ops.coo_concat((_coo64(A), _coo64(A[:2])), 0).to_dense(),
    'coo_exp': lambda: ops.coo_exp(ms.Tensor(A).to_coo()).to_dense(),
}


@pytest.mark.parametrize('name', sorted(CALLS))
def test_gpu_matches_cpu(name):
    cpu, gpu = both(CALLS[name])
    assert gpu.device == GPU.name and cpu.device == 'CPU'
    np.testing.assert_allclose(gpu.asnumpy(), cpu.asnumpy(), rtol=1e-12, atol=1e-12)
