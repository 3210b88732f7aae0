"""Every Primitive class of this folder in one namespace, and the other objects MindSpore's
``ops.operations`` modules name (``ReduceOp``, ``HookBackward``, ``identity``): what
``hookgrad.ops``, this package (``P``) and its MindSpore modules (``math_ops``...) take their
names from.

``__all__`` holds the names bound to Primitive classes (aliases such as ``TensorAdd`` too):
the ones ``hookgrad.ops`` exposes.
"""
from ..arithmetic import identity  # noqa: F401  (MindSpore lists it in ops.operations)
from ..collective import ReduceOp  # noqa: F401
from ..hook import HookBackward  # noqa: F401
from ._primitive import *  # noqa: F401,F403  (Primitive, ReduceSum, MatMul, Add, Reshape...)
from ._activation import *  # noqa: F401,F403
from ._collective import *  # noqa: F401,F403
from ._collective_more import *  # noqa: F401,F403  (AlltoAll, Send, Receive, BatchISendIRecv...)
from ._control import *  # noqa: F401,F403
from ._creation import *  # noqa: F401,F403
from ._detection import *  # noqa: F401,F403
from ._distributions import *  # noqa: F401,F403
from ._elementwise import *  # noqa: F401,F403
from ._complex import *  # noqa: F401,F403  (Real, Imag, Conj, Complex, ComplexAbs...)
from ._attention import *  # noqa: F401,F403  (FlashAttentionScore, PromptFlashAttention...)
from ._feature_maps import *  # noqa: F401,F403
from ._image import *  # noqa: F401,F403
from ._indexing import *  # noqa: F401,F403
from ._linalg import *  # noqa: F401,F403
from ._matrix import *  # noqa: F401,F403
from ._loss import *  # noqa: F401,F403
from ._normalization import *  # noqa: F401,F403
from ._optimizer import *  # noqa: F401,F403
from ._optimizer_more import *  # noqa: F401,F403
from ._pooling_nd import *  # noqa: F401,F403
from ._random import *  # noqa: F401,F403
from ._reduction import *  # noqa: F401,F403
from ._shape import *  # noqa: F401,F403
from ._sorting import *  # noqa: F401,F403
from ._special import *  # noqa: F401,F403
from ._segment_norm_loss import *  # noqa: F401,F403
from ._scatter_resize_more import *  # noqa: F401,F403
from ._volume_blocks import *  # noqa: F401,F403  (UpsampleNearest3D, SpaceToBatchND...)
from ._color_index_draw import *  # noqa: F401,F403  (RGBToHSV, UnravelIndex, TruncatedNormal...)
from ._sparse import *  # noqa: F401,F403  (SparseToDense, SparseTensorDenseMatmul...)
from ._graph import *  # noqa: F401,F403  (FloatStatus, Partial, InsertGradientOf)
from ._summary import *  # noqa: F401,F403  (ScalarSummary, ImageSummary, TensorSummary...)
from ._more_primitives import *  # noqa: F401,F403  (CTCLoss, PadV3, ListDiff...)
from ._graph import make_range, tuple_len  # noqa: F401
from ._definition import *  # noqa: F401,F403  (PrimitiveWithInfer, prim_attr_register...)
from ._primitive import Primitive

__all__ = sorted(name for name, value in globals().items()
                 if isinstance(value, type) and issubclass(value, Primitive))
