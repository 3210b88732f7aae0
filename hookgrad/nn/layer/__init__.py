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
from .conv_transpose import *  # noqa: F401,F403
from .pooling_adaptive import *  # noqa: F401,F403
from .shape_layers import *  # noqa: F401,F403
from .linear import *  # noqa: F401,F403
from .image import *  # noqa: F401,F403
from .resize import *  # noqa: F401,F403
from .unpool import *  # noqa: F401,F403
from .wrappers import *  # noqa: F401,F403
from .ext_layers import *  # noqa: F401,F403
from .rnn_cells import *  # noqa: F401,F403
from .rnns import *  # noqa: F401,F403
from .attention import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .sync_batchnorm import *  # noqa: F401,F403
from .special_math import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403
from .container import SequentialCell, CellList, CellDict  # noqa: F401  (defined in nn)
from . import (activation, smooth_activation, piecewise_activation, basic, normalization,
               embedding, conv, pooling, math, padding, conv_transpose, pooling_adaptive,
               shape_layers, linear, image, resize, unpool, wrappers, ext_layers, rnn_cells, rnns,
               attention, transformer, sync_batchnorm, special_math, sparse)

__all__ = [name for module in (activation, smooth_activation, piecewise_activation, basic,
                               normalization, embedding, conv, pooling, math, padding,
                               conv_transpose, pooling_adaptive, shape_layers, linear, image,
                               resize, unpool, wrappers, ext_layers, rnn_cells, rnns, attention,
                               transformer, sync_batchnorm, special_math, sparse)
           for name in module.__all__]


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.layer')
