"""``mindspore.profiler.mstx``: markers and ranges a script adds to the profiler's trace.

``mstx.mark(message)`` records an instant and ``range_start(message)`` / ``range_end(id)`` a
span, in every running ``Profiler`` made with ``mstx=True`` (or ``_ExperimentalConfig(mstx=
True)``) whose ``mstx_domain_include`` / ``mstx_domain_exclude`` admit the domain; they appear
in ``trace_view.json`` beside the ops (category ``mstx``). As in MindSpore, an invalid argument
logs a warning and records nothing, and ``range_start`` returns 0 when nothing records it.
``stream`` (a ``runtime.Stream``) is accepted: markers are taken on the host.
"""
import itertools
import threading
import time

from .._frames import warn
from ..runtime.streams import Stream

__all__ = ['Mstx', 'mstx']

_recording = []             # the Profilers now recording
_ids = itertools.count(1)
_lock = threading.Lock()


def _admits(profiler, domain):
    if not profiler.mstx:
        return False
    include, exclude = profiler.mstx_domain_include, profiler.mstx_domain_exclude
    if include:
        return domain in include
    return not exclude or domain not in exclude


def _valid(func, message, stream, domain):
    if not message or not isinstance(message, str):
        warn(f"Invalid message for mstx.{func} func. Please input valid message string.")
        return False
    if not isinstance(domain, str) or domain == "":
        warn(f"Invalid domain name for mstx.{func} func. Please input str and can not be empty.")
        return False
    if stream and not isinstance(stream, Stream):
        warn(f"Invalid stream for mstx.{func} func. Expected mindspore.runtime.Stream but got "
             f"{type(stream)}.")
        return False
    return True


class Mstx:
    """Markers (``mark``) and ranges (``range_start`` / ``range_end``) in profiler traces."""

    @staticmethod
    def mark(message: str, stream=None, domain: str = "default") -> None:
        """Record an instant named ``message`` in ``domain``."""
        if not _valid('mark', message, stream, domain):
            return
        now = time.perf_counter()
        for profiler in list(_recording):
            if _admits(profiler, domain):
                profiler._marks.append(('mark', message, domain, now, 0.0))

    @staticmethod
    def range_start(message: str, stream=None, domain: str = "default") -> int:
        """Start a span named ``message``; returns its id for ``range_end`` (0: not recorded)."""
        if not _valid('range_start', message, stream, domain):
            return 0
        profilers = [p for p in list(_recording) if _admits(p, domain)]
        if not profilers:
            return 0
        with _lock:
            range_id = next(_ids)
        now = time.perf_counter()
        for profiler in profilers:
            profiler._open_ranges[(range_id, domain)] = (message, now)
        return range_id

    @staticmethod
    def range_end(range_id: int, domain: str = "default") -> None:
        """End the span ``range_id`` of ``domain`` (from ``range_start``)."""
        if range_id == 0:
            return
        if isinstance(range_id, bool) or not isinstance(range_id, int) or range_id < 0:
            warn("Invalid range_id for mstx.range_end func. Please input return value from "
                 "mstx.range_start.")
            return
        if not isinstance(domain, str) or domain == "":
            warn("Invalid domain name for mstx.range_end func. Please input str and can not be "
                 "empty.")
            return
        now = time.perf_counter()
        for profiler in list(_recording):
            opened = profiler._open_ranges.pop((range_id, domain), None)
            if opened is not None:
                message, start = opened
                profiler._marks.append(('range', message, domain, start, now - start))


mstx = Mstx
