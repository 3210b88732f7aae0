"""The compiled F(2x2, 3x3) transforms (``winograd_fused``) against NumPy's.

Both form every value by the same additions in the same order, so the forward, the input
gradient and the weight gradient must agree bit for bit, in pieces and for the whole batch,
whatever the padding. Without Numba (the ``hookgrad[fast]`` extra) the comparisons skip and
the other Winograd tests cover the NumPy transforms alone.
"""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

from hookgrad.kernels import winograd
from hookgrad.kernels import winograd_fused

needs_numba = pytest.mark.skipif(importlib.util.find_spec('numba') is None,
                                 reason='Numba (the hookgrad[fast] extra) is not installed')


class Counting:
    """The compiled kernels, counting the calls of each."""

    def __init__(self, kernels):
        self.calls = {}
        for name in ('input_column', 'fold_column', 'write_tiles', 'output_tiles',
                     'gradient_column'):
            setattr(self, name, self._counted(name, getattr(kernels, name)))

    def _counted(self, name, fn):
        def call(*args):
            self.calls[name] = self.calls.get(name, 0) + 1
            return fn(*args)
        return call


def compiled(monkeypatch):
    """The compiled kernels, turned on for the test whatever HOOKGRAD_FUSED says."""
    monkeypatch.setattr(winograd_fused, 'FUSED', True)
    monkeypatch.setattr(winograd_fused, '_kernels', None)
    kernels = winograd_fused.kernels()
    assert kernels is not None
    return kernels


def passes(source, w, gy, h, wd):
    """(forward, input-gradient kernels' convolution, weight gradient) of Winograd F(2x2, 3x3)
    on source (an array or a ``Padded``)."""
    u, order = winograd.flipped_kernel(w, 2)
    gyp = winograd.Padded(gy, 1, 1, source.shape[1], source.shape[2])
    return (winograd.convolve(source, winograd.kernel_transform(w, 2), h, wd, 2),
            winograd.convolve(gyp, u, h, wd, 2, order),
            winograd.filter_grad(gy, source, 2))


@needs_numba
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('pieces', [True, False], ids=['pieces', 'whole'])
@pytest.mark.parametrize('n, h, wd, top, left', [(5, 7, 9, 1, 1), (4, 6, 6, 2, 0),
                                                 (3, 5, 8, -1, 3)],
                         ids=['odd', 'uneven', 'cropped'])
def test_compiled_transforms_give_numpys_bits(monkeypatch, dtype, pieces, n, h, wd, top,
                                              left):
    rng = np.random.default_rng(3)
    c, o = 6, 5
    th, tw = winograd.tiles(h, wd, 2)
    a = rng.standard_normal((n, h, wd, c)).astype(dtype)
    w = rng.standard_normal((o, c, 3, 3)).astype(dtype)
    gy = rng.standard_normal((n, h, wd, o)).astype(dtype)
    monkeypatch.setattr(winograd, '_cores', lambda: 1 if pieces else n + 1)
    monkeypatch.setattr(winograd, 'PIECE_ELEMENTS', 2 * th * tw * c)
    assert winograd.runs_in_pieces(n, th, tw, c, 2) == pieces
    results, counted = {}, Counting(compiled(monkeypatch))
    for fused in (True, False):
        monkeypatch.setattr(winograd_fused, 'FUSED', fused)
        monkeypatch.setattr(winograd_fused, '_kernels', counted if fused else None)
        source = winograd.Padded(a, top, left, 2 * th + 2, 2 * tw + 2)
        results[fused] = passes(source if pieces else source.array(), w, gy, h, wd)
    for got, want in zip(results[True], results[False]):
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, want)
    ran = set(counted.calls)
    assert ran == ({'input_column', 'fold_column', 'write_tiles', 'gradient_column'} if pieces
                   else {'input_column', 'output_tiles', 'gradient_column'})


@needs_numba
def test_compiled_transforms_give_the_direct_convolution(monkeypatch):
    """The compiled path alone against a convolution summed window by window (float64)."""
    compiled(monkeypatch)
    rng = np.random.default_rng(4)
    n, h, wd, c, o = 3, 6, 7, 4, 5
    th, tw = winograd.tiles(h, wd, 2)
    xh = np.zeros((n, 2 * th + 2, 2 * tw + 2, c))
    xh[:, :h + 2, :wd + 2] = rng.standard_normal((n, h + 2, wd + 2, c))
    w = rng.standard_normal((o, c, 3, 3))
    windows = np.lib.stride_tricks.sliding_window_view(xh[:, :h + 2, :wd + 2], (3, 3), (1, 2))
    np.testing.assert_allclose(winograd.convolve(xh, winograd.kernel_transform(w, 2), h, wd, 2),
                               np.einsum('nhwcab,ocab->nhwo', windows, w), atol=1e-12)
    gy = rng.standard_normal((n, h, wd, o))
    np.testing.assert_allclose(winograd.filter_grad(gy, xh, 2),
                               np.einsum('nhwo,nhwcab->ocab', gy, windows), atol=1e-11)


def test_no_kernels_when_turned_off(monkeypatch):
    monkeypatch.setattr(winograd_fused, 'FUSED', False)
    assert winograd_fused.kernels() is None


def test_no_kernels_without_numba_and_numpys_transforms_run(monkeypatch):
    monkeypatch.setitem(sys.modules, 'numba', None)         # import numba raises ImportError
    monkeypatch.setattr(winograd_fused, '_kernels', None)
    monkeypatch.setattr(winograd_fused, 'FUSED', True)
    assert winograd_fused.kernels() is None
    rng = np.random.default_rng(5)
    xh, w = rng.standard_normal((2, 6, 6, 3)), rng.standard_normal((4, 3, 3, 3))
    windows = np.lib.stride_tricks.sliding_window_view(xh, (3, 3), (1, 2))
    np.testing.assert_allclose(winograd.convolve(xh, winograd.kernel_transform(w, 2), 4, 4, 2),
                               np.einsum('nhwcab,ocab->nhwo', windows, w), atol=1e-12)


@needs_numba
def test_no_kernels_when_numbas_jit_is_disabled(monkeypatch):
    """Under NUMBA_DISABLE_JIT the kernels would run as Python loops: NumPy's run instead."""
    import numba
    monkeypatch.setattr(numba.config, 'DISABLE_JIT', True)
    monkeypatch.setattr(winograd_fused, '_kernels', None)
    monkeypatch.setattr(winograd_fused, 'FUSED', True)
    assert winograd_fused.kernels() is None


@pytest.mark.parametrize('value, fused', [('0', False), ('off', False), ('1', True)])
def test_environment_variable_turns_them_off(value, fused):
    code = 'from hookgrad.kernels import winograd_fused as f; print(f.FUSED)'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=dict(os.environ, HOOKGRAD_FUSED=value), check=True)
    assert out.stdout.strip() == str(fused)
