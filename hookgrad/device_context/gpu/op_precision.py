"""``mindspore.device_context.gpu.op_precision``: TF32 math for float32 products.

TF32 reads float32 operands with a 10-bit mantissa (about 3 decimal digits) and accumulates in
float32, so products run on tensor cores several times faster. The defaults are MindSpore's and
PyTorch's: on for convolutions, off for matrix products (``matmul``, ``Dense``, ``BatchMatMul``)
where the precision loss shows more. The settings apply from the next op; on the CPU they
change nothing (it computes in full float32).
"""
from ...compat.names import reporter as _reporter
from ...kernels import gpu_runtime as _gpu_runtime

__all__ = ['conv_allow_tf32', 'matmul_allow_tf32']


def _check(value):
    if not isinstance(value, bool):
        raise TypeError(f"The parameter 'value' must be {bool}, but got {type(value)}")


def conv_allow_tf32(value):
    """Let convolutions use TF32 (default True).

    Raises:
        TypeError: ``value`` is not a bool.
    """
    _check(value)
    _gpu_runtime.allow_tf32('conv', value)


def matmul_allow_tf32(value):
    """Let matrix products use TF32 (default False).

    Raises:
        TypeError: ``value`` is not a bool.
    """
    _check(value)
    _gpu_runtime.allow_tf32('matmul', value)


__getattr__ = _reporter('mindspore.device_context.gpu.op_precision')
