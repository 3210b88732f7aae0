"""Layers: activations and the basic layers (Dense, Flatten, Dropout, Dropout2d)."""
from .activation import (ReLU, ReLU6, LeakyReLU, Sigmoid, Tanh, GELU, SiLU, Softmax, LogSoftmax,
                         get_activation)
from .basic import Dense, Flatten, Dropout, Dropout2d

__all__ = ['ReLU', 'ReLU6', 'LeakyReLU', 'Sigmoid', 'Tanh', 'GELU', 'SiLU', 'Softmax',
           'LogSoftmax', 'get_activation', 'Dense', 'Flatten', 'Dropout', 'Dropout2d']
