"""``mindspore.profiler``: MindSpore's Profiler over hookgrad's op observer.

``Profiler(output_path=...)`` times every op and backward rule between ``start()`` and
``stop()`` (or inside ``step()``'s recording windows when a ``schedule`` is given), and
``analyse()`` writes MindSpore's CPU output into a folder of ``output_path``:
``ASCEND_PROFILER_OUTPUT/trace_view.json`` (a Chrome trace: open it in ``chrome://tracing`` or
https://ui.perfetto.dev) and, in ``FRAMEWORK``, ``cpu_op_type_info_0.csv`` (per op type) and
``cpu_op_detail_info_0.csv`` (per op and cell). ``on_trace_ready`` (such as
``tensorboard_trace_handler(dir)``) is called when a window closes. Times are those
``hookgrad.debug.profile`` measures: on a GPU, the time to launch the kernels.

``mstx.mark`` / ``range_start`` / ``range_end`` add a script's own markers to the trace of a
Profiler made with ``mstx=True`` (mstx.py). ``DynamicProfilerMonitor`` starts and stops a
Profiler at the steps a JSON file names, read while training runs (dynamic.py);
``EnvProfiler`` profiles a whole run as the ``MS_PROFILER_OPTIONS`` environment variable says
(env.py).

The options that choose Ascend hardware counters (``aic_metrics``, ``l2_cache``, ``hbm_ddr``,
``pcie``, ``sys_io``...) are accepted and collect nothing, as on MindSpore's CPU backend.
"""
import enum
import json
import os
import socket
import time

from ..compat.names import reporter as _reporter
from ..debug.profile import profile as _OpProfile
from .writer import write_analysis
from . import mstx as _mstx_module
from .mstx import mstx
from .experimental import _ExperimentalConfig

__all__ = ['Profiler', 'profile', 'schedule', 'tensorboard_trace_handler', 'ProfilerLevel',
           'ProfilerActivity', 'ExportType', 'AicoreMetrics', 'HostSystem', 'ProfilerAction',
           'mstx', '_ExperimentalConfig', 'DynamicProfilerMonitor', 'EnvProfiler']


class ProfilerLevel(enum.Enum):
    LevelNone = 'LevelNone'
    Level0 = 'Level0'
    Level1 = 'Level1'
    Level2 = 'Level2'


class ProfilerActivity(enum.Enum):
    NPU = 'NPU'
    GPU = 'GPU'
    CPU = 'CPU'


class ExportType(enum.Enum):
    Db = 'db'
    Text = 'text'


class AicoreMetrics(enum.Enum):
    AiCoreNone = 'AiCoreNone'
    ArithmeticUtilization = 'ArithmeticUtilization'
    PipeUtilization = 'PipeUtilization'
    Memory = 'Memory'
    MemoryL0 = 'MemoryL0'
    ResourceConflictRatio = 'ResourceConflictRatio'
    MemoryUB = 'MemoryUB'
    L2Cache = 'L2Cache'
    MemoryAccess = 'MemoryAccess'


class HostSystem(enum.Enum):
    CPU = 'cpu'
    MEM = 'mem'
    DISK = 'disk'
    NETWORK = 'network'
    OSRT = 'osrt'


class ProfilerAction(enum.Enum):
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


class schedule:     # noqa: N801  (MindSpore's name)
    """Which steps ``Profiler.step()`` records: ``skip_first`` steps, then ``repeat`` cycles
    (0: as long as training runs) of ``wait`` idle steps, ``warmup`` steps and ``active``
    recorded ones, the last of which saves (``on_trace_ready``).

    Raises:
        ValueError: negative counts, or ``active`` < 1.
    """

    def __init__(self, *, wait, active, warmup=0, repeat=0, skip_first=0):
        for name, value in (('wait', wait), ('active', active), ('warmup', warmup),
                            ('repeat', repeat), ('skip_first', skip_first)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"schedule: {name} must be an int >= 0, got {value!r}")
        if active < 1:
            raise ValueError(f"schedule: active must be at least 1, got {active}")
        self.wait, self.active, self.warmup = wait, active, warmup
        self.repeat, self.skip_first = repeat, skip_first

    def __call__(self, step):
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if self.repeat and step >= cycle * self.repeat:
            return ProfilerAction.NONE
        at = step % cycle
        if at < self.wait:
            return ProfilerAction.NONE
        if at < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD_AND_SAVE if at == cycle - 1 else ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True,
                              async_mode=False):
    """An ``on_trace_ready`` that writes each recorded window's analysis under ``dir_name``
    (default ``./data``), in a folder named after ``worker_name`` (default: host and pid)."""
    directory = dir_name or './data'

    def handler(prof):
        if analyse_flag:
            prof._write(directory, worker_name)
    return handler


_PARAMETERS = {
    'output_path': (str, './data'), 'profiler_level': (ProfilerLevel, ProfilerLevel.Level0),
    'activities': (list, None), 'aic_metrics': (AicoreMetrics, AicoreMetrics.AiCoreNone),
    'with_stack': (bool, False), 'profile_memory': (bool, False), 'data_process': (bool, False),
    'parallel_strategy': (bool, False), 'start_profile': (bool, True), 'l2_cache': (bool, False),
    'hbm_ddr': (bool, False), 'pcie': (bool, False), 'sys_io': (bool, False),
    'sys_interconnection': (bool, False), 'host_sys': (list, None),
    'sync_enable': (bool, True), 'data_simplification': (bool, True),
    'record_shapes': (bool, False), 'export_type': (list, None), 'mstx': (bool, False),
    'mstx_domain_include': (list, None), 'mstx_domain_exclude': (list, None),
    'schedule': (schedule, None), 'on_trace_ready': (object, None)}


class Profiler:
    """Time every op and backward rule and write MindSpore's profiler files (see the module
    docstring). Keyword arguments are MindSpore's.

    Raises:
        TypeError: an unknown keyword argument, or one of the wrong type.
    """

    def __init__(self, **kwargs):
        unknown = sorted(set(kwargs) - set(_PARAMETERS))
        if unknown:
            raise TypeError(f"Profiler: unexpected keyword arguments {unknown}")
        for name, (kind, default) in _PARAMETERS.items():
            value = kwargs.get(name, default)
            if value is not None and kind is not object and not isinstance(value, kind):
                raise TypeError(f"Profiler: {name} must be a {kind.__name__}, got "
                                f"{type(value).__name__}")
            setattr(self, name, value)
        if self.on_trace_ready is not None and not callable(self.on_trace_ready):
            raise TypeError("Profiler: on_trace_ready must be callable")
        self._metadata = {}
        self._marks = []            # mstx: (kind, message, domain, start, seconds)
        self._open_ranges = {}      # mstx: (range id, domain) -> (message, start)
        self._observer = None
        self._events = _OpProfile()
        self._step = 0
        self._window_steps = 0      # steps ended while recording, for per-step frequencies
        self._started = False
        if self.start_profile:
            self.start()

    # ----------------------------------------------------------------- recording
    def _recording(self):
        return self.schedule is None or self.schedule(self._step) in (
            ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)

    def _observe(self, on):
        if on and not self._events.observing:
            self._events.enable()
            _mstx_module._recording.append(self)
        elif not on and self._events.observing:
            self._events.disable()
            _mstx_module._recording.remove(self)

    def start(self):
        """Start recording (within the schedule's windows when there is a schedule)."""
        self._started = True
        self._observe(self._recording())

    def stop(self):
        """Stop recording; without a schedule, ``on_trace_ready`` then gets the recording."""
        self._observe(False)
        if self._started and self.schedule is None and self.on_trace_ready is not None:
            self.on_trace_ready(self)
        self._started = False

    def step(self):
        """End a training step: with a schedule, the end of a recording window calls
        ``on_trace_ready`` and starts a fresh recording."""
        if not self._started:
            return
        saving = self.schedule is not None and \
            self.schedule(self._step) == ProfilerAction.RECORD_AND_SAVE
        if self._events.observing:
            self._window_steps += 1
        self._step += 1
        if saving:
            self._observe(False)
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
            self._events, self._window_steps = _OpProfile(), 0
            self._marks, self._open_ranges = [], {}
        self._observe(self._recording())

    def __enter__(self):
        if not self._started:
            self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # ----------------------------------------------------------------- results
    def analyse(self, offline_path=None, pretty=False, step_list=None, mode='sync'):
        """Write the recording's files under ``output_path`` (see the module docstring);
        returns the folder written."""
        return self._write(self.output_path, None, pretty)

    def _write(self, directory, worker_name=None, pretty=False):
        stamp = time.strftime('%Y%m%d%H%M%S') + f"{int(time.time() * 1000) % 1000:03d}"
        name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        folder = os.path.join(directory, f"{name}_{stamp}_ascend_ms")
        write_analysis(self._events, folder, pretty, self._metadata, max(self._window_steps, 1),
                       self._marks)
        return folder

    def add_metadata(self, key, value):
        """Keep ``key: value`` (strings) in the output's ``profiler_metadata.json``."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("Profiler.add_metadata: key and value must be str")
        self._metadata[key] = value

    def add_metadata_json(self, key, value):
        """Keep ``key`` and ``value`` (a JSON string) in ``profiler_metadata.json``."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("Profiler.add_metadata_json: key and value must be str")
        self._metadata[key] = json.loads(value)

    def op_analyse(self, op_name, device_id=None):
        """Not available: MindSpore reads the Ascend kernel details of ``op_name``; hookgrad
        has no Ascend device (``analyse()`` writes every op's times)."""
        raise RuntimeError("Profiler.op_analyse reads Ascend kernel details, which hookgrad "
                           "has none of; analyse() writes every op's times")

    @classmethod
    def offline_analyse(cls, path, pretty=False, step_list=None, data_simplification=True):
        """Not available: hookgrad writes the analysed files directly (``analyse()``), so
        there is no raw data to parse afterwards."""
        raise RuntimeError("Profiler.offline_analyse parses MindSpore's raw profiling data; "
                           "hookgrad writes the analysed files directly with analyse()")


class profile(Profiler):    # noqa: N801  (MindSpore's name)
    """MindSpore's PyTorch-style profiler: ``Profiler`` with PyTorch's argument names."""

    def __init__(self, activities=None, with_stack=False, profile_memory=False,
                 data_process=False, parallel_strategy=False, start_profile=True,
                 hbm_ddr=False, pcie=False, sync_enable=True, record_shapes=False,
                 schedule=None, on_trace_ready=None, experimental_config=None):
        super().__init__(activities=activities, with_stack=with_stack,
                         profile_memory=profile_memory, data_process=data_process,
                         parallel_strategy=parallel_strategy,
                         hbm_ddr=hbm_ddr, pcie=pcie, sync_enable=sync_enable,
                         record_shapes=record_shapes, schedule=schedule,
                         on_trace_ready=on_trace_ready, start_profile=False)
        if experimental_config is not None:
            if not isinstance(experimental_config, _ExperimentalConfig):
                raise TypeError(f"profile: experimental_config must be an _ExperimentalConfig, "
                                f"got {type(experimental_config).__name__}")
            for name, value in experimental_config._options().items():
                if value is not None:
                    setattr(self, name, value)
        self.experimental_config = experimental_config
        self.start_profile = start_profile
        if start_profile:       # after the options, so that mstx markers are recorded
            self.start()


from .dynamic import DynamicProfilerMonitor  # noqa: E402
from .env import EnvProfiler  # noqa: E402

EnvProfiler.init_profiler()     # as MindSpore: profiling a run that MS_PROFILER_OPTIONS asks for

__getattr__ = _reporter('mindspore.profiler')
