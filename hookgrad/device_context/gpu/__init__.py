"""``mindspore.device_context.gpu``: the GPU backend (CuPy) and its math settings."""
from ...compat.names import reporter as _reporter
from ...kernels import backend as _backend, gpu_runtime as _gpu_runtime
from . import op_precision  # noqa: F401
from .op_precision import conv_allow_tf32, matmul_allow_tf32  # noqa: F401

__all__ = ['device_count', 'is_available', 'op_precision']


def is_available():
    """Whether CuPy finds a GPU (with ``HOOKGRAD_FAKE_GPU=1``, the CUDA stand-in)."""
    try:
        _backend.gpu()
    except RuntimeError:
        return False
    return True


def device_count():
    """How many GPUs this process sees.

    Raises:
        RuntimeError: there is none (MindSpore's error, with the reason).
    """
    try:
        _backend.gpu()
    except RuntimeError as e:
        raise RuntimeError(f"Device_target GPU not exist: {e}") from None
    return _gpu_runtime.gpu_count()


__getattr__ = _reporter('mindspore.device_context.gpu')
