"""MindSpore's summary Primitives: ``ScalarSummary``, ``ImageSummary``, ``TensorSummary`` and
``HistogramSummary``.

``ops.ScalarSummary()(name, value)`` returns None and hands ``(name, value)`` to the summary
cache; the next ``SummaryRecord.record`` (hookgrad/train/summary) in ``'train'`` mode takes
everything cached since, checks it (a name that is not a non-empty str, a value that is not a
Tensor or not of the plugin's shape raise there, as MindSpore raises) and writes it under the
tag ``name`` with the Primitive's plugin. As in MindSpore, a call is not checked until then.
Under ``ms.jit`` (and GRAPH_MODE) the hand-over is an effect step of the program, so each
replay caches the value of that call.
"""
from ...autograd.function import effect
from ._primitive import Primitive

__all__ = ['ScalarSummary', 'ImageSummary', 'TensorSummary', 'HistogramSummary']

# [(Primitive name, name, value)] in call order, taken by SummaryRecord.record
SUMMARY_TENSOR_CACHE = []
open_records = 0        # SummaryRecords open now (hookgrad/train/summary keeps this count)


def _cache(op_name, name, value):
    """Cache a call's value without its graph (a loss cached every step must not keep every
    step's graph alive). While no SummaryRecord is open, only the last value of each
    (Primitive, name) is kept: a training loop with summary Primitives and no SummaryRecord
    (in MindSpore, a cache that grows every step) holds a few values, not all."""
    if getattr(value, '_node', None) is not None:
        value = value.detach()
    if not open_records:
        SUMMARY_TENSOR_CACHE[:] = [c for c in SUMMARY_TENSOR_CACHE
                                   if c[0] != op_name or c[1] != name]
    SUMMARY_TENSOR_CACHE.append((op_name, name, value))


def take_cache():
    """The cached ``(Primitive name, name, value)`` calls, emptying the cache."""
    items = list(SUMMARY_TENSOR_CACHE)
    SUMMARY_TENSOR_CACHE.clear()
    return items


class _Summary(Primitive):
    def __init__(self):
        super().__init__()
        self.add_prim_attr('side_effect_io', True)
        self.add_prim_attr('channel_name', self._channel)
        self.add_prim_attr('dyn_input_sizes', [-1, 1])

    def __call__(self, *args):
        name, value = args[0], args[1]
        effect(_cache, self.name, name, value)


class ScalarSummary(_Summary):
    """``ScalarSummary()(name, value)``: records the scalar Tensor ``value`` under ``name`` at
    the next ``SummaryRecord.record``; returns None."""
    _channel = 'ms_scalar_summary'


class ImageSummary(_Summary):
    """``ImageSummary()(name, value)``: records the NCHW image Tensor ``value`` under ``name``
    at the next ``SummaryRecord.record``; returns None."""
    _channel = 'ms_image_summary'


class TensorSummary(_Summary):
    """``TensorSummary()(name, value)``: records the Tensor ``value`` under ``name`` at the
    next ``SummaryRecord.record``; returns None."""
    _channel = 'ms_tensor_summary'


class HistogramSummary(_Summary):
    """``HistogramSummary()(name, value)``: records the histogram of Tensor ``value`` under
    ``name`` at the next ``SummaryRecord.record``; returns None."""
    _channel = 'ms_histogram_summary'
