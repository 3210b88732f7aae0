"""Initializers with structure: ``Identity``, ``Dirac``, ``Orthogonal``, ``Sparse`` and
``VarianceScaling`` (MindSpore 2.10's names and arguments; hookgrad/common/initializer.py holds
the elementwise ones and ``initializer``)."""
import math

import numpy as np

from .. import _random
from ..kernels import philox as _philox
from .initializer import (Initializer, _calculate_fan_in_and_fan_out, _check_real, _normal,
                          _uniform)

__all__ = ['Identity', 'Dirac', 'Orthogonal', 'Sparse', 'VarianceScaling']


def _rank(init, arr, allowed):
    if arr.ndim not in allowed:
        want = ' or '.join(map(str, allowed)) if len(allowed) < 4 else f">= {allowed[0]}"
        raise ValueError(f"{init!r}: the initialized tensor must have {want} dimensions, got "
                         f"shape {arr.shape}")


class Identity(Initializer):
    """A 2-d identity matrix (ones on the main diagonal of a rectangular one)."""

    def _initialize(self, arr):
        _rank(self, arr, (2,))
        arr[...] = np.eye(*arr.shape)


class Dirac(Initializer):
    """The Dirac delta for a convolution weight (out, in, *kernel) of 3 to 5 dimensions: each
    group's output channel i copies input channel i at the kernel's centre, so the convolution
    starts as the identity (as far as channels allow).

    Args:
        groups: the convolution's groups; the output channels must divide by it. Default 1.
    """

    def __init__(self, groups=1):
        super().__init__(groups=groups)
        if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            raise ValueError(f"{self!r}: groups must be a positive int, got {groups!r}")
        self.groups = groups

    def _initialize(self, arr):
        _rank(self, arr, (3, 4, 5))
        out = arr.shape[0]
        if out % self.groups:
            raise ValueError(f"{self!r}: the first dimension ({out}) must be divisible by "
                             f"groups ({self.groups})")
        per_group = out // self.groups
        n = min(per_group, arr.shape[1])
        arr[...] = 0
        centre = tuple(k // 2 for k in arr.shape[2:])
        rows = (np.arange(self.groups)[:, None] * per_group + np.arange(n)).ravel()
        cols = np.tile(np.arange(n), self.groups)
        arr[(rows, cols) + centre] = 1


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``; dimensions after the first are flattened.

    Args:
        gain: the scale. Default 1.0.
    """

    _needs_float = True

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = _check_real(self, 'gain', gain)

    def _initialize(self, arr):
        _rank(self, arr, (2, 3, 4, 5, 6, 7, 8))
        rows = arr.shape[0]
        cols = arr.size // rows
        data = _normal(0.0, 1.0, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q *= np.sign(np.diag(r))          # a uniform draw over orthogonal matrices
        if rows < cols:
            q = q.T
        arr[...] = (q * self.gain).reshape(arr.shape)


class Sparse(Initializer):
    """A 2-d matrix of N(0, sigma**2) samples with ``ceil(sparsity * rows)`` zeros in each
    column, at random rows.

    Args:
        sparsity: the fraction of each column set to zero, in [0, 1].
        sigma: the standard deviation of the other values. Default 0.01.
    """

    _needs_float = True

    def __init__(self, sparsity, sigma=0.01):
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity = _check_real(self, 'sparsity', sparsity, minimum=0.0)
        if self.sparsity > 1:
            raise ValueError(f"{self!r}: sparsity must be <= 1, got {sparsity}")
        self.sigma = _check_real(self, 'sigma', sigma, minimum=0.0)

    def _initialize(self, arr):
        _rank(self, arr, (2,))
        rows, cols = arr.shape
        data = _normal(0.0, self.sigma, arr.shape)
        zeros = int(math.ceil(self.sparsity * rows))
        for col in range(cols):         # MindSpore's draws: a permutation per column
            data[np.random.permutation(rows)[:zeros], col] = 0.0
        arr[...] = data


class VarianceScaling(Initializer):
    """Samples scaled to the weight's fan: variance ``scale / n``, where n is fan_in, fan_out or
    their mean.

    Args:
        scale: the scale, > 0. Default 1.0.
        mode: 'fan_in' (default), 'fan_out' or 'fan_avg'.
        distribution: 'truncated_normal' (default; within two standard deviations, rescaled to
            keep the variance), 'untruncated_normal' or 'uniform'.

    MindSpore 2.10 documents 'truncated_normal' as the default but draws uniform samples for
    it; hookgrad draws what the documentation describes.
    """

    _needs_float = True

    def __init__(self, scale=1.0, mode='fan_in', distribution='truncated_normal'):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        self.scale = _check_real(self, 'scale', scale)
        if self.scale <= 0:
            raise ValueError(f"{self!r}: scale must be > 0, got {scale}")
        if mode not in ('fan_in', 'fan_out', 'fan_avg'):
            raise ValueError(f"{self!r}: mode must be 'fan_in', 'fan_out' or 'fan_avg', got "
                             f"{mode!r}")
        if distribution not in ('uniform', 'truncated_normal', 'untruncated_normal'):
            raise ValueError(f"{self!r}: distribution must be 'uniform', 'truncated_normal' or "
                             f"'untruncated_normal', got {distribution!r}")
        self.mode = mode
        self.distribution = distribution

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        n = {'fan_in': fan_in, 'fan_out': fan_out, 'fan_avg': (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution == 'uniform':
            limit = float(np.sqrt(3.0 * scale))
            arr[...] = _uniform(limit, arr.shape)
        elif self.distribution == 'untruncated_normal':
            arr[...] = _normal(0.0, float(np.sqrt(scale)), arr.shape)
        else:
            # N(0, 1) restricted to [-2, 2] has standard deviation 0.8796...: rescale to keep
            # the variance at scale / n
            z = _philox.truncated_normal(_random.initializer_seed(), arr.shape, -2.0, 2.0, 0.0,
                                         1.0)
            arr[...] = z * (math.sqrt(scale) / 0.87962566103423978)
