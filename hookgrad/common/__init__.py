"""``hookgrad.common``: MindSpore's ``mindspore.common`` names (initializers)."""
from . import initializer, api
from .initializer import (Initializer, Zero, One, Constant, Normal, Uniform, TruncatedNormal,
                          XavierUniform, XavierNormal, HeUniform, HeNormal)
