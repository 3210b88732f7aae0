"""MindSpore's training tools that hookgrad does not provide, under their names and
signatures: constructing one raises ``NotImplementedError`` saying why and what to use.

- ``SummaryCollector``, ``SummaryRecord``, ``SummaryLandscape`` write MindSpore's summary files
  for MindInsight. hookgrad records statistics with ``hookgrad.debug.StatsRecorder`` and
  writes them for TensorBoard with ``StatsRecorder.to_tensorboard``.
- ``FlopsUtilizationCollector`` reads the FLOPs that MindSpore's graph compiler counts on
  Ascend; ``TrainFaultTolerance`` is MindSpore's cluster fault recovery (MindIO).
"""

from .callback_base import Callback

__all__ = ['SummaryCollector', 'SummaryRecord', 'SummaryLandscape',
           'FlopsUtilizationCollector', 'TrainFaultTolerance']

_SUMMARY = ("MindSpore's summary files (for MindInsight) are not available in hookgrad; record "
            "statistics with hookgrad.debug.StatsRecorder and write them for TensorBoard with "
            "StatsRecorder.to_tensorboard(logdir)")


class SummaryCollector(Callback):
    """Not available: see the module docstring (``StatsRecorder.to_tensorboard`` instead)."""

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        raise NotImplementedError(f"SummaryCollector: {_SUMMARY}")


class SummaryLandscape:
    """Not available: see the module docstring (``StatsRecorder.to_tensorboard`` instead)."""

    def __init__(self, summary_dir):
        raise NotImplementedError(f"SummaryLandscape: {_SUMMARY}")


class SummaryRecord:
    """Not available: see the module docstring (``StatsRecorder.to_tensorboard`` instead)."""

    def __init__(self, log_dir, file_prefix='events', file_suffix='_MS', num_process=32,
                 network=None, max_file_size=None, raise_exception=False, export_options=None):
        raise NotImplementedError(f"SummaryRecord: {_SUMMARY}")


class FlopsUtilizationCollector(Callback):
    """Not available: the FLOPs come from MindSpore's graph compiler on Ascend."""

    def __init__(self, data_size, computility=1, full_flops=True, enable_ma_collector=False):
        raise NotImplementedError(
            "FlopsUtilizationCollector is not available in hookgrad: it reads the FLOPs that "
            "MindSpore's graph compiler counts on Ascend devices; time steps with TimeMonitor")


class TrainFaultTolerance(Callback):
    """Not available: MindSpore's cluster fault recovery (MindIO)."""

    def __init__(self, ckpt_save_path=None, **kwargs):
        raise NotImplementedError(
            "TrainFaultTolerance is not available in hookgrad: it is MindSpore's distributed "
            "fault recovery (MindIO on Ascend clusters); on one device use BackupAndRestore or "
            "ModelCheckpoint")
