"""``hookgrad.nn``: Cells, Parameters and layers."""
from .parameter import Parameter, ParameterTuple
from .cell import Cell
from .container import SequentialCell, CellList, CellDict
from .layers import *  # noqa: F401,F403  (ReLU, Dense, Dropout... : the layers)
from .plugin import attach, PluginHandle
