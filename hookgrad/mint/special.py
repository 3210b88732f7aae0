"""``mindspore.mint.special``: special functions under PyTorch's names."""
from ..ops import erfc, exp2, expm1, log1p, sinc
from ..compat.names import reporter as _reporter
from .nn.functional import log_softmax
from .elementwise import round as _round

__all__ = ['erfc', 'exp2', 'expm1', 'log1p', 'log_softmax', 'round', 'sinc']


def round(input):
    """``input`` rounded half to even."""
    return _round(input)


__getattr__ = _reporter('mindspore.mint.special')
