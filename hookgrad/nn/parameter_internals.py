"""MindSpore's Parameter members for caching, communication fusion and pipeline stages
(``cache_enable``, ``comm_fusion``, ``key``, ``add_pipeline_stage``...), kept in the
Parameter's ``param_info`` with MindSpore 2.10's defaults and checks.

They configure MindSpore's embedding cache and its distributed and graph-mode training; a
hookgrad Parameter keeps the settings (so code that sets and reads them works) and its
single-process eager training reads none of them.
"""
from .._tensor.internals import ParamInfo, _get, _set

__all__ = ['ParameterInternals']


def _check_non_negative_int(value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The input value must be int, but got '{type(value).__name__}'")
    if value < 0:
        raise ValueError(f"The input value must be int and must >= 0, but got '{value}' with "
                         f"type 'int'.")


class ParameterInternals:
    """Parameter's MindSpore settings for caching, fusion and pipelines."""

    __slots__ = ()

    @property
    def param_info(self):
        """The Parameter's ``ParamInfo`` (made on first use; ``name`` and ``requires_grad``
        read the Parameter's own)."""
        info = _get(self, 'param_info', None)
        if info is None:
            info = ParamInfo()
            info.obj = self
            _set(self, 'param_info', info)
        return info

    @param_info.setter
    def param_info(self, info):
        self.set_param_info(info)
        info.obj = self

    def _copy_param_info(self, clone):
        """Give ``clone`` a copy of these settings (``clone()`` keeps them, as MindSpore's
        does; pipeline stages are not copied)."""
        info = _get(self, 'param_info', None)
        if info is not None:
            copy = clone.param_info
            for name in ('cache_enable', 'comm_fusion', 'key',
                         'parallel_optimizer_comm_recompute'):
                setattr(copy, name, getattr(info, name))
            copy.cache_shape = list(info.cache_shape)

    @property
    def inited_param(self):
        """None: a hookgrad Parameter holds its values from creation, so no initialised
        copy is ever recorded."""
        return None

    @property
    def cache_enable(self):
        """Whether the embedding cache is on for this Parameter (default False)."""
        return self.param_info.cache_enable

    @cache_enable.setter
    def cache_enable(self, value=True):
        if not isinstance(value, bool):
            raise TypeError("The argument `cache_enable` must be bool type.")
        self.param_info.cache_enable = value

    @property
    def cache_shape(self):
        """The embedding cache's shape (default ``[]``)."""
        return self.param_info.cache_shape

    @cache_shape.setter
    def cache_shape(self, value):
        if not isinstance(value, (tuple, list)):
            raise TypeError("The argument `cache_shape` must be tuple or list type.")
        self.param_info.cache_shape = value

    @property
    def comm_fusion(self):
        """The fusion group of the communication ops for this Parameter (default 1)."""
        return self.param_info.comm_fusion

    @comm_fusion.setter
    def comm_fusion(self, value):
        _check_non_negative_int(value)
        self.param_info.comm_fusion = value

    @property
    def key(self):
        """The parameter-server key (default -1)."""
        return self.param_info.key

    @key.setter
    def key(self, value=-1):
        if not isinstance(value, int):
            raise TypeError("The argument `key` must be int type.")
        self.param_info.key = value

    @property
    def parallel_optimizer_comm_recompute(self):
        """Whether the parallel optimizer's AllGather is recomputed (default False)."""
        return self.param_info.parallel_optimizer_comm_recompute

    @parallel_optimizer_comm_recompute.setter
    def parallel_optimizer_comm_recompute(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"The input value must be a bool, but got "
                            f"{type(value).__name__}.")
        self.param_info.parallel_optimizer_comm_recompute = value

    @property
    def _pipeline_stage_list(self):
        """The pipeline stages ``add_pipeline_stage`` added (MindSpore's private list)."""
        stages = _get(self, 'pipeline_stages', None)
        if stages is None:
            stages = []
            _set(self, 'pipeline_stages', stages)
        return stages

    def add_pipeline_stage(self, stage):
        """Add a pipeline stage this Parameter belongs to; returns None.

        Raises:
            TypeError: when ``stage`` is not an int >= 0.
        """
        if not isinstance(stage, int) or isinstance(stage, bool) or stage < 0:
            raise TypeError("`stage` must be a positive number of int type")
        self._pipeline_stage_list.append(stage)
