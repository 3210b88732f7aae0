"""Debugging tools built on hooks and op observers."""
from ..autograd.observer import OpObserver, OpCall
from .anomaly import nan_guard, AnomalyReport, AnomalyError, AnomalyWarning
from .profile import profile, ProfileTable, ProfileRow
from .dump import dump, dump_step, compare, Comparison, DumpRow, dump_format
from .summary import summary, Summary
from .trace import trace, Trace, CellTrace
from .stats import StatsRecorder
from .stats_report import StatsHistory, StatsReport, Finding
from .stats_depth import DepthRow
from .stats_export import load_stats
from .report import save_run, load_run, render_report
from .check import check, CheckReport, CheckFinding
