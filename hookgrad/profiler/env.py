"""``EnvProfiler``: profile a whole run as the ``MS_PROFILER_OPTIONS`` environment variable
says, without changing the script (MindSpore's).

``MS_PROFILER_OPTIONS`` is a JSON object of ``profile``'s options plus ``start`` (true to
profile) and ``output_path``; ``schedule`` and ``on_trace_ready`` are not taken. When it says
``"start": true``, importing hookgrad starts a ``profile`` whose trace is written under
``output_path`` (``./data``) when the process exits, or earlier by ``EnvProfiler().analyse()``.
An option naming an unknown enum value warns and takes the default, as in MindSpore.
"""
import atexit
import json
import os

from .._frames import warn

__all__ = ['EnvProfiler']

_ENUM_OPTIONS = {'profiler_level': 'ProfilerLevel', 'aic_metrics': 'AicoreMetrics'}
_LIST_OPTIONS = {'activities': 'ProfilerActivity', 'host_sys': 'HostSystem'}
_OTHER_OPTIONS = ('with_stack', 'profile_memory', 'data_process', 'parallel_strategy',
                  'start_profile', 'hbm_ddr', 'pcie', 'sync_enable', 'record_shapes', 'mstx',
                  'l2_cache', 'data_simplification', 'mstx_domain_include',
                  'mstx_domain_exclude', 'sys_io', 'sys_interconnection', 'export_type')


def _enum(kind, value, default):
    from . import __dict__ as names
    try:
        return names[kind](value)
    except ValueError:
        warn(f"The value '{value}' of parameter '{kind}' is invalid, use default value "
             f"'{default}' instead.")
        return default


class EnvProfiler:
    """The profiler ``MS_PROFILER_OPTIONS`` starts (``EnvProfiler.profiler``, None if none)."""

    NOT_SUPPORTED_PARAMS = ["schedule", "on_trace_ready"]
    profiler = None

    @classmethod
    def init_profiler(cls):
        """Start profiling when ``MS_PROFILER_OPTIONS`` says ``"start": true`` (called when
        hookgrad is imported); a variable that is not JSON logs a warning."""
        text = os.getenv("MS_PROFILER_OPTIONS")
        if not text:
            return
        try:
            options = json.loads(text)
        except json.JSONDecodeError:
            options = {}
        if not isinstance(options, dict) or not options:
            warn("Failed to load MS_PROFILER_OPTIONS, json decode error.")
            return
        if not options.get("start", False):
            return
        from . import profile, tensorboard_trace_handler, _ExperimentalConfig
        params = cls._params(options)
        config = _ExperimentalConfig(**{k: params.pop(k) for k in list(params)
                                        if k in _ExperimentalConfig.__init__.__code__.co_varnames})
        cls.profiler = profile(on_trace_ready=tensorboard_trace_handler(
            options.get("output_path")), experimental_config=config, **params)
        cls.profiler.start()
        atexit.register(cls().analyse)

    @classmethod
    def _params(cls, options):
        from . import __dict__ as names
        params = {}
        for key, kind in _ENUM_OPTIONS.items():
            if key in options:
                default = next(iter(names[kind]))
                params[key] = _enum(kind, options[key], default)
        for key, kind in _LIST_OPTIONS.items():
            if isinstance(options.get(key), list):
                values = (_enum(kind, value, None) for value in options[key])
                params[key] = list(dict.fromkeys(v for v in values if v is not None))
        for key in _OTHER_OPTIONS:
            if key in options:
                params[key] = options[key]
        return params

    def analyse(self):
        """Stop the profiler and write its trace (nothing when none was started)."""
        if EnvProfiler.profiler is None:
            return
        EnvProfiler.profiler.stop()
        EnvProfiler.profiler = None
