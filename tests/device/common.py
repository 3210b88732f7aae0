"""What the device tests share: the GPU (the CUDA stand-in in CI), running one function on the
CPU and on the GPU (in full float32: no TF32 convolutions), and counting host reads."""
import contextlib

import numpy as np

import hookgrad as ms
from hookgrad.kernels import backend, fake_cuda

GPU = backend.gpu()
STAND_IN = GPU.xp is fake_cuda.xp       # host reads are counted on the stand-in only
DEVICES = (backend.CPU, GPU)


@contextlib.contextmanager
def on(device, seed=0):
    """New tensors on ``device``, the global generator seeded with ``seed``, convolutions in
    full float32 (TF32, their default on a GPU, rounds operands to 10-bit mantissas)."""
    precision = ms.device_context.gpu.op_precision
    precision.conv_allow_tf32(False)
    try:
        with backend.default_device(device):
            ms.set_seed(seed)
            yield device
    finally:
        precision.conv_allow_tf32(True)


def both(fn, seed=0):
    """``{device name: fn()}`` run on the CPU and on the GPU with the same seed."""
    out = {}
    for device in DEVICES:
        with on(device, seed):
            out[device.name] = fn()
    return out['CPU'], out[GPU.name]


class Reads:
    """Counts the host reads of a block: ``with Reads() as r: ...; r.total`` (blocks nest)."""

    def __enter__(self):
        self._before = fake_cuda.host_reads.copy()
        self.counts = {}
        return self

    def __exit__(self, *exc):
        self.counts = dict(fake_cuda.host_reads - self._before)
        return False

    @property
    def total(self):
        return sum(self.counts.values())


def assert_reads(reads, want):
    """``reads`` (a ``Reads`` or a count) is ``want`` where reads are counted (the stand-in)."""
    if STAND_IN:
        total = reads if isinstance(reads, int) else reads.total
        assert total == want, f"host reads {getattr(reads, 'counts', reads)}, expected {want}"


def assert_on_gpu(*tensors):
    """Every tensor lives on the GPU, its array of the GPU's type."""
    for t in tensors:
        assert t.device == GPU.name, t.device
        assert type(t._data) is GPU.array_type


def host(values):
    """Tensors (possibly nested in lists and tuples) as NumPy arrays."""
    if isinstance(values, (list, tuple)):
        return type(values)(host(v) for v in values)
    return values.asnumpy() if isinstance(values, ms.Tensor) else values


def assert_close(got, want, rtol=1e-5, atol=1e-6):
    """Two nested structures of arrays (or Tensors) equal within float32 tolerance."""
    got, want = host(got), host(want)
    if want is None:
        assert got is None
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_close(g, w, rtol, atol)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
