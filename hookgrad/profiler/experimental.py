"""``_ExperimentalConfig``: the profiler options MindSpore's ``profile`` takes in one object
(levels, Ascend counters, mstx and its domains, export types, host system data)."""

__all__ = ['_ExperimentalConfig']

_FIELDS = ('profiler_level', 'aic_metrics', 'l2_cache', 'mstx', 'data_simplification',
           'export_type', 'mstx_domain_include', 'mstx_domain_exclude', 'sys_io',
           'sys_interconnection', 'host_sys')


class _ExperimentalConfig:
    """The options, readable and settable by name (MindSpore's defaults); ``profile`` applies
    them to its ``Profiler``."""

    def __init__(self, profiler_level=None, aic_metrics=None, l2_cache=False, mstx=False,
                 data_simplification=True, export_type=None, mstx_domain_include=None,
                 mstx_domain_exclude=None, sys_io=False, sys_interconnection=False,
                 host_sys=None):
        from . import ProfilerLevel, AicoreMetrics
        self._profiler_level = ProfilerLevel.Level0 if profiler_level is None else profiler_level
        self._aic_metrics = AicoreMetrics.AiCoreNone if aic_metrics is None else aic_metrics
        self._l2_cache = l2_cache
        self._mstx = mstx
        self._data_simplification = data_simplification
        self._export_type = export_type
        self._mstx_domain_include = mstx_domain_include
        self._mstx_domain_exclude = mstx_domain_exclude
        self._sys_io = sys_io
        self._sys_interconnection = sys_interconnection
        self._host_sys = host_sys

    def _options(self):
        """The options as ``Profiler`` keyword arguments."""
        return {name: getattr(self, name) for name in _FIELDS}


def _field(name):
    def get(self):
        return getattr(self, '_' + name)

    def set_(self, value):
        setattr(self, '_' + name, value)
    return property(get, set_, doc=f"The ``{name}`` option.")


for _name in _FIELDS:
    setattr(_ExperimentalConfig, _name, _field(_name))
