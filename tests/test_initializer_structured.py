"""Identity, Dirac, Orthogonal, Sparse and VarianceScaling initializers."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.common.initializer import (Dirac, Identity, Orthogonal, Sparse, VarianceScaling,
                                         initializer)


def values(init, shape, dtype=ms.float64):
    return initializer(init, shape, dtype).asnumpy()


def test_identity_is_the_rectangular_eye():
    np.testing.assert_array_equal(values(Identity(), (2, 3)), np.eye(2, 3))
    np.testing.assert_array_equal(values('identity', (3, 3), ms.float32), np.eye(3))


def test_dirac_makes_a_convolution_the_identity():
    w = values(Dirac(), (3, 3, 3, 3), ms.float32)
    x = np.random.default_rng(0).standard_normal((1, 3, 5, 5)).astype(np.float32)
    y = ms.ops.conv2d(ms.Tensor(x), ms.Tensor(w), pad_mode='pad', padding=1).asnumpy()
    np.testing.assert_allclose(y, x, atol=1e-6)
    w = values(Dirac(groups=2), (4, 2, 3))               # two groups of two output channels
    expected = np.zeros((4, 2, 3))
    expected[[0, 1, 2, 3], [0, 1, 0, 1], 1] = 1
    np.testing.assert_array_equal(w, expected)


@pytest.mark.parametrize('shape', [(3, 5), (5, 3), (4, 2, 3)])
def test_orthogonal_rows_or_columns_are_orthonormal(shape):
    """Within float32 rounding: MindSpore draws the matrix and takes its QR in float32."""
    ms.set_seed(0)
    q = values(Orthogonal(gain=2.0), shape).reshape(shape[0], -1) / 2.0
    small = q @ q.T if q.shape[0] <= q.shape[1] else q.T @ q
    np.testing.assert_allclose(small, np.eye(min(q.shape)), atol=1e-6)


def test_sparse_zeros_the_same_number_in_every_column():
    ms.set_seed(0)
    w = values(Sparse(sparsity=0.5, sigma=1.0), (5, 40))
    assert ((w == 0).sum(axis=0) == 3).all()                 # ceil(0.5 * 5)
    assert abs(w[w != 0].std() - 1.0) < 0.2


@pytest.mark.parametrize('distribution', ['uniform', 'truncated_normal', 'untruncated_normal'])
@pytest.mark.parametrize('mode, n', [('fan_in', 50), ('fan_out', 200), ('fan_avg', 125)])
def test_variance_scaling_keeps_the_variance(distribution, mode, n):
    ms.set_seed(0)
    w = values(VarianceScaling(scale=2.0, mode=mode, distribution=distribution), (200, 50))
    np.testing.assert_allclose(w.var(), 2.0 / n, rtol=0.05)
    if distribution == 'truncated_normal':
        assert np.abs(w).max() <= 2 * np.sqrt(2.0 / n) / 0.87962566103423978 + 1e-12


def test_bad_arguments_and_shapes():
    with pytest.raises(ValueError, match=r"Identity\(\): the initialized tensor must have 2 "
                                         r"dimensions, got shape \(2, 2, 2\)"):
        initializer(Identity(), (2, 2, 2))
    with pytest.raises(ValueError, match=r"the first dimension \(3\) must be divisible by "
                                         r"groups \(2\)"):
        initializer(Dirac(groups=2), (3, 3, 3))
    with pytest.raises(ValueError, match="must have 3 or 4 or 5 dimensions"):
        initializer(Dirac(), (3, 3))
    with pytest.raises(ValueError, match="scale must be > 0, got -1"):
        VarianceScaling(scale=-1)
    with pytest.raises(ValueError, match="mode must be 'fan_in', 'fan_out' or 'fan_avg'"):
        VarianceScaling(mode='avg')
    with pytest.raises(ValueError, match="sparsity must be <= 1, got 2"):
        Sparse(sparsity=2)
    # float values cast toward zero, as MindSpore 2.10 does: |entries| < 1 become 0
    assert initializer(Orthogonal(), (2, 2), ms.int32).asnumpy().tolist() == [[0, 0], [0, 0]]
