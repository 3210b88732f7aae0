"""``hookgrad.common``: MindSpore's ``mindspore.common`` (Tensor, Parameter, dtypes, seeds,
initializers, ``jit``). Its names are the same objects as the top-level ones (``ms.Tensor``)."""
from . import initializer, api, dtype, seed
from .initializer import (Initializer, Zero, One, Constant, Normal, Uniform, TruncatedNormal,
                          XavierUniform, XavierNormal, HeUniform, HeNormal)
from .seed import set_seed, get_seed
from ..compat.names import reporter as _reporter

__getattr__ = _reporter('mindspore.common')


def _export():
    """The top-level names MindSpore's ``common`` also holds (called once hookgrad is built)."""
    import hookgrad
    from ..compat.names import reexport
    from . import tensor, parameter  # noqa: F401  (mindspore.common.tensor / .parameter)
    return reexport(globals(), hookgrad, 'mindspore.common')
