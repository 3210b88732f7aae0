"""Layers: activations and the basic layers (Dense, Flatten, Dropout, Dropout2d)."""
from .activation import (ReLU, ReLU6, LeakyReLU, Sigmoid, Tanh, GELU, SiLU, Softmax, LogSoftmax,
                         get_activation)
from .basic import Dense, Flatten, Dropout, Dropout2d
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .embedding import Embedding
from .conv import Conv2d, Conv1d
from .pooling import MaxPool2d, AvgPool2d, AdaptiveAvgPool2d

__all__ = ['ReLU', 'ReLU6', 'LeakyReLU', 'Sigmoid', 'Tanh', 'GELU', 'SiLU', 'Softmax',
           'LogSoftmax', 'get_activation', 'Dense', 'Flatten', 'Dropout', 'Dropout2d',
           'BatchNorm1d', 'BatchNorm2d', 'LayerNorm', 'Embedding',
           'Conv2d', 'Conv1d', 'MaxPool2d', 'AvgPool2d', 'AdaptiveAvgPool2d']


from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.layer')
