"""Layers (MindSpore's ``mindspore.nn.layer``): each module lists its cells in ``__all__``."""
from .activation import *  # noqa: F401,F403
from .smooth_activation import *  # noqa: F401,F403
from .piecewise_activation import *  # noqa: F401,F403
from .basic import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .embedding import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from . import (activation, smooth_activation, piecewise_activation, basic, normalization,
               embedding, conv, pooling, math, padding)

__all__ = [name for module in (activation, smooth_activation, piecewise_activation, basic,
                               normalization, embedding, conv, pooling, math, padding)
           for name in module.__all__]


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.layer')
