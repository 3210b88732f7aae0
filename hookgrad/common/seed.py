"""MindSpore's ``mindspore.common.seed``: the global random seed."""
from .._random import set_seed, get_seed

__all__ = ['set_seed', 'get_seed']
