"""hookgrad: a deep-learning framework in which nothing in a network is hidden.

Its public names follow MindSpore 2.x (PyNative and graph mode), so ``import hookgrad as ms`` runs
MindSpore code; ``hookgrad run script.py`` runs a script that imports ``mindspore`` unchanged.
"""
from .kernels.blas import blas_info      # first: it must run before NumPy loads
from .kernels import malloc as _malloc  # noqa: F401  (malloc's thresholds, set at import)
from ._dtype import (DType, float16, float32, float64, int8, int16, int32, int64, uint8, bool_,
                     half, single, double, int_, float_)
from ._tensor import Tensor
from . import ops                 # which binds Tensor's operators and methods to the ops
from . import context
from .context import (set_context, get_context, PYNATIVE_MODE, GRAPH_MODE, ParallelMode,
                      set_auto_parallel_context, get_auto_parallel_context,
                      reset_auto_parallel_context, set_ps_context, get_ps_context,
                      reset_ps_context, STRICT, COMPATIBLE, LAX)
from .autograd.grad_mode import no_grad, enable_grad, is_grad_enabled, _no_grad  # noqa: F401
from .autograd.functional import grad, value_and_grad, vjp
from .jit import jit, ms_function, jit_class, JitConfig, mutable, constexpr
from . import _dtype as dtype
from . import nn
from .hooks.handle import RemovableHandle
from .nn.parameter import Parameter, ParameterTuple
from ._random import set_seed, get_seed
from . import common
from .checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from . import vision
from . import explain
from . import debug
from . import dataset, train
from .train import *  # noqa: F401,F403  (Model, callbacks, metrics: at the top level too)

__version__ = '0.1.0'

from .autograd.transforms import *  # noqa: E402,F401,F403  (jvp, vmap, ...)
from ._toplevel import *  # noqa: E402,F401,F403  (tensor, export, load, ...)
from . import numpy  # noqa: E402  (mindspore.numpy)
from . import amp  # noqa: E402  (mindspore.amp)
from . import runtime, hal, device_context  # noqa: E402  (devices: memory, streams, TF32)
from . import mint  # noqa: E402  (mindspore.mint)
from . import log, version, boost, experimental, _checkparam, _c_expression  # noqa: E402,F401
from . import profiler  # noqa: E402,F401  (mindspore.profiler)
from .profiler import Profiler  # noqa: E402,F401  (mindspore.Profiler)
from .runtime import (Stream, Event, StreamCtx, current_stream, default_stream,  # noqa: E402,F401
                      set_cur_stream, communication_stream)  # (MindSpore's top-level streams)
from .common._grad_function import _Function  # noqa: E402,F401  (PyTorch-style custom autograd)
from .common.tensor import swap_tensors  # noqa: E402,F401
from ._toplevel_extras import *  # noqa: E402,F401,F403  (runtime settings, ...)

common._export()            # mindspore.common holds the top-level names too
from .compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore')
