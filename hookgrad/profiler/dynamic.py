"""``DynamicProfilerMonitor``: profile the steps a JSON file names, changed while training runs
(MindSpore's dynamic profiler).

The monitor writes ``cfg_path/profiler_config.json`` with MindSpore's defaults when it is
missing (``start_step`` and ``stop_step`` -1: nothing profiled). Each ``step()`` (or, as a
``Model.train`` callback, each step end) re-reads the file when it has changed, at most every
``poll_interval`` seconds, as MindSpore's polling process does. When the file names a new
``start_step``..``stop_step`` range (steps counted from 1) that the training has reached, a
``profile`` starts with the file's options and records ``stop_step - start_step + 1`` steps,
then writes its trace under ``prof_path`` (or ``output_path``) in
``rank{rank}_start{start}_stop{stop}`` (hookgrad writes analysed files directly, so ``analyse``
and ``analyse_mode`` change nothing). MindSpore's shared memory and dynolog daemon mode
(``MSMONITOR_USE_DAEMON``) are not used: the file is read in the training process.
"""
import json
import os
import time

from .._frames import warn
from ..train.callback_base import Callback

__all__ = ['DynamicProfilerMonitor']

DEFAULT_CONFIG = {
    "start_step": -1, "stop_step": -1, "aic_metrics": "AiCoreNone", "profiler_level": "Level0",
    "analyse_mode": -1, "activities": ["CPU", "NPU"], "export_type": ["text"],
    "profile_memory": False, "mstx": False, "parallel_strategy": False, "with_stack": False,
    "data_simplification": True, "l2_cache": False, "analyse": False, "record_shapes": False,
    "prof_path": "./", "mstx_domain_include": [], "mstx_domain_exclude": [], "host_sys": [],
    "sys_io": False, "sys_interconnection": False}

_PROFILE_OPTIONS = ('with_stack', 'profile_memory', 'parallel_strategy', 'record_shapes')
_EXPERIMENTAL_OPTIONS = ('mstx', 'data_simplification', 'l2_cache', 'mstx_domain_include',
                         'mstx_domain_exclude', 'sys_io', 'sys_interconnection')


def _rank():
    from ..communication import _world
    world = _world.world()
    return 0 if world is None else world.rank


class DynamicProfilerMonitor(Callback):
    """Start and stop profiling at the steps ``cfg_path/profiler_config.json`` names (see the
    module docstring).

    Raises:
        TypeError: ``cfg_path`` is not a str (MindSpore's message).
    """

    def __init__(self, cfg_path=None, output_path="./dyn_profile_data", poll_interval=2,
                 **kwargs):
        if not isinstance(cfg_path, str):
            raise TypeError("If you set 'MSMONITOR_USE_DAEMON' to not 1, The cfg_path must be a "
                            "string.")
        if not isinstance(output_path, str):
            warn(f"The output_path must be a string, but got type {type(output_path)}, it will "
                 f"be set to './dyn_profile_data'.")
            output_path = "./dyn_profile_data"
        if isinstance(poll_interval, bool) or not isinstance(poll_interval, int):
            warn("Poll interval must be an integer, reset to 2.")
            poll_interval = 2
        if poll_interval < 1:
            warn("Poll interval must be greater than 1, reset to 2.")
            poll_interval = 2
        self._cfg_json_path = os.path.realpath(os.path.join(cfg_path, "profiler_config.json"))
        self._output_path = output_path
        self._poll_interval = poll_interval
        self._kwargs = kwargs
        self._rank_id = _rank()
        if self._rank_id == 0 and not os.path.exists(self._cfg_json_path):
            os.makedirs(cfg_path, exist_ok=True)
            with open(self._cfg_json_path, 'w') as f:
                json.dump(DEFAULT_CONFIG, f, indent=4)
        self._config = {}
        self._read_at = None
        self._mtime = None
        self._profiler = None
        self._start_step = self._stop_step = -1
        self._step_num = 0
        self._collection_step_num = 0

    # ----------------------------------------------------------------- the file
    def _read_config(self):
        """The file's settings, re-read when changed and ``poll_interval`` has passed."""
        now = time.monotonic()
        if self._read_at is not None and now - self._read_at < self._poll_interval:
            return self._config
        self._read_at = now
        try:
            mtime = os.path.getmtime(self._cfg_json_path)
        except OSError:
            warn("Dynamic profiler cfg json not exists")
            return self._config
        if mtime != self._mtime:
            self._mtime = mtime
            try:
                with open(self._cfg_json_path) as f:
                    self._config = dict(DEFAULT_CONFIG, **json.load(f), is_valid=True)
            except (json.JSONDecodeError, TypeError) as e:
                warn(f"Dynamic profiler process load json failed: {e}")
                self._config = {'is_valid': False}
        return self._config

    # ----------------------------------------------------------------- the steps
    def step(self):
        """End a training step: start, advance or finish the profiling the file asks for."""
        self._step_num += 1
        config = self._read_config()
        if not config:
            return
        if not config.get('is_valid'):
            warn("Dynamic profiler config is not valid, please check the json or dyno config.")
            return
        self._setup(config)
        if self._profiler is not None:
            self._profiler.step()
            self._collection_step_num -= 1
            if self._collection_step_num == -1:
                self._profiler = None

    def _setup(self, config):
        start, stop = config['start_step'], config['stop_step']
        if not isinstance(start, int) or not isinstance(stop, int) or start < 0 or stop < 0:
            return
        if self._step_num < start:
            return
        if self._step_num > stop != self._stop_step:
            warn(f"stop_step must be greater than step_num, but get start_step = {start}, "
                 f"stop_step = {stop}, step_num = {self._step_num}")
            return
        if (start, stop) == (self._start_step, self._stop_step):
            return
        self._start_step, self._stop_step = start, stop
        if not 0 <= start <= stop:
            self._profiler = None
            warn(f"Rank {self._rank_id} Dynamic profiler start at step {start} and stop at step "
                 f"{stop} must be greater than or equal to 0, and stop step should not be less "
                 f"than start step")
            return
        output = config['prof_path'] if config['prof_path'] != "./" else self._output_path
        folder = os.path.join(output, f"rank{self._rank_id}_start{start}_stop{stop}")
        self._profiler = self._make_profiler(config, folder, stop - start + 1)
        self._collection_step_num = stop - start + 1

    @staticmethod
    def _make_profiler(config, folder, steps):
        from . import (profile, schedule, tensorboard_trace_handler, _ExperimentalConfig,
                       ProfilerLevel)
        levels = {-1: 'LevelNone', 0: 'Level0', 1: 'Level1', 2: 'Level2'}
        level = levels.get(config['profiler_level'], config['profiler_level'])
        try:
            level = ProfilerLevel(level)
        except ValueError:
            warn(f"The value '{level}' of parameter 'ProfilerLevel' is invalid, use default "
                 f"value 'Level0' instead.")
            level = ProfilerLevel.Level0
        experimental = _ExperimentalConfig(profiler_level=level, **{
            name: config[name] for name in _EXPERIMENTAL_OPTIONS})
        return profile(start_profile=True,
                       schedule=schedule(wait=0, warmup=0, active=steps, repeat=1, skip_first=1),
                       on_trace_ready=tensorboard_trace_handler(dir_name=folder),
                       experimental_config=experimental,
                       **{name: config[name] for name in _PROFILE_OPTIONS})

    # ----------------------------------------------------------------- as a callback
    def on_train_step_end(self, run_context):
        """``Model.train``'s step end: ``step()``."""
        self.step()

    def on_train_end(self, run_context):
        """Stop a profiling still running when training ends (its trace is written)."""
        if self._profiler is not None:
            self._profiler.stop()
            self._profiler = None
