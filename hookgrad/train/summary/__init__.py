"""``mindspore.train.summary``: ``SummaryRecord``, which writes MindSpore's summary files (for
MindInsight); the file format is described in ``_format.py``."""
from .summary_record import SummaryRecord

__all__ = ['SummaryRecord']
