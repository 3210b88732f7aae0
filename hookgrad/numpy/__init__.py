"""MindSpore's ``mindspore.numpy``: NumPy's functional API over hookgrad Tensors.

``import hookgrad.numpy as mnp`` (or ``mindspore.numpy`` under ``hookgrad run``). Functions
follow MindSpore 2.10's signatures, defaults and dtype rules (Python ints are Int32, floats
Float32) and are differentiable wherever the math is; see docs/numpy.md.
"""
from ..compat.names import reporter as _reporter
from . import (creation, dtypes, grids, histograms, linalg, logic, manipulation, math,
               numeric, padding, random, reductions, selection)
from .creation import *  # noqa: F401,F403
from .dtypes import *  # noqa: F401,F403
from .grids import *  # noqa: F401,F403
from .histograms import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .logic import *  # noqa: F401,F403
from .manipulation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .numeric import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .random import *  # noqa: F401,F403
from .reductions import *  # noqa: F401,F403
from .selection import *  # noqa: F401,F403

__all__ = sorted({name for module in (creation, dtypes, grids, histograms, linalg, logic,
                                      manipulation, math, numeric, padding, random, reductions,
                                      selection)
                  for name in module.__all__})
__getattr__ = _reporter('mindspore.numpy')
