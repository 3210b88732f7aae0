"""``mindspore.nn.layer.container``: where MindSpore code imports the containers from."""
from ..container import SequentialCell, CellList, CellDict

__all__ = ['SequentialCell', 'CellList', 'CellDict']
