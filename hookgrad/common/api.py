"""``mindspore.common.api``: where MindSpore code imports ``jit`` and its companions from."""
from ..jit import jit, ms_function, jit_class, JitConfig, mutable, constexpr

__all__ = ['jit', 'ms_function', 'jit_class', 'JitConfig', 'mutable', 'constexpr']
