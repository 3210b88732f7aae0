"""MindSpore's training tools that hookgrad does not provide, under their names and
signatures: constructing one raises ``NotImplementedError`` saying why and what to use.

- ``SummaryLandscape`` computes loss landscapes for MindInsight from the checkpoints that
  ``SummaryCollector``'s ``collect_landscape`` saves (hookgrad's ``SummaryCollector`` and
  ``SummaryRecord``, in summary_collector.py and summary/, write the summary files themselves).
- ``FlopsUtilizationCollector`` reads the FLOPs that MindSpore's graph compiler counts on
  Ascend; ``TrainFaultTolerance`` is MindSpore's cluster fault recovery (MindIO).
"""

from .callback_base import Callback

__all__ = ['SummaryLandscape', 'FlopsUtilizationCollector', 'TrainFaultTolerance']


class SummaryLandscape:
    """Not available: MindInsight's loss landscapes (see the module docstring)."""

    def __init__(self, summary_dir):
        raise NotImplementedError(
            "SummaryLandscape is not available in hookgrad: it computes MindInsight's loss "
            "landscapes from the checkpoints SummaryCollector's collect_landscape saves, which "
            "hookgrad does not save; SummaryCollector and SummaryRecord write the summary files "
            "(scalars, tensors, histograms, images)")


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
