"""``hookgrad.nn``: Cells, Parameters and layers."""
from .parameter import Parameter
from .cell import Cell
from .container import SequentialCell, CellList, CellDict
