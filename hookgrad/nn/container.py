"""Containers of cells: SequentialCell, CellList, CellDict (sub-cells named '0', '1'... or keys)."""
from collections import OrderedDict

from .cell import Cell


def _check_cell(cell, where):
    if not isinstance(cell, Cell):
        raise TypeError(f"{where}: expected a Cell, got {type(cell).__name__}")
    return cell


class _IndexedCells(Cell):
    """Shared list behaviour: children named by position."""

    def _renumber(self, cells):
        self._cells.clear()
        for i, cell in enumerate(cells):
            self.insert_child_to_cell(str(i), _check_cell(cell, type(self).__name__))

    def _index(self, index):
        n = len(self._cells)
        if not -n <= index < n:
            raise IndexError(f"{type(self).__name__}: index {index} is out of range for {n} cells")
        return index % n

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return type(self)(cells[index])
        if not isinstance(index, int):
            raise TypeError(f"{type(self).__name__} indices must be int or slice, "
                            f"got {type(index).__name__}")
        return cells[self._index(index)]

    def __setitem__(self, index, cell):
        self.insert_child_to_cell(str(self._index(index)), _check_cell(cell, type(self).__name__))

    def __delitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            del cells[index]
        else:
            del cells[self._index(index)]
        self._renumber(cells)

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(list(self._cells.values()))

    def append(self, cell):
        """Add ``cell`` at the end."""
        self.insert_child_to_cell(str(len(self._cells)), _check_cell(cell, type(self).__name__))
        return self

    def extend(self, cells):
        """Add every cell of ``cells`` at the end."""
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index, cell):
        """Insert ``cell`` before position ``index``."""
        cells = list(self._cells.values())
        cells.insert(index, _check_cell(cell, type(self).__name__))
        self._renumber(cells)


class SequentialCell(_IndexedCells):
    """Cells run in order, each taking the previous one's output.

    Args: cells as arguments, one list of cells, or an OrderedDict of name -> cell.

    >>> import hookgrad as ms
    >>> seq = ms.nn.SequentialCell(ms.nn.ReLU(), ms.nn.ReLU())
    >>> seq(ms.Tensor([-1.0, 2.0]))
    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  2.00000000e+00])
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (OrderedDict, dict)):
            for name, cell in args[0].items():
                self.insert_child_to_cell(name, _check_cell(cell, 'SequentialCell'))
            return
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = args[0]
        self._renumber(args)

    def construct(self, x):
        for cell in self._cells.values():
            x = cell(x)
        return x


class CellList(_IndexedCells):
    """A list of cells whose parameters the holding cell registers; it has no construct."""

    def __init__(self, args=None):
        super().__init__()
        if args is not None:
            self.extend(args)

    def construct(self, *inputs):
        raise TypeError("CellList is a container and cannot be called; call its cells")


class CellDict(Cell):
    """An ordered dict of name -> cell whose parameters the holding cell registers."""

    def __init__(self, *args):
        super().__init__()
        if args:
            if len(args) > 1:
                raise TypeError(f"CellDict takes at most one argument, got {len(args)}")
            self.update(args[0])

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        if not isinstance(key, str):
            raise TypeError(f"CellDict keys must be str, got {type(key).__name__}")
        self.insert_child_to_cell(key, _check_cell(cell, 'CellDict'))

    def __delitem__(self, key):
        del self._cells[key]
        object.__delattr__(self, key)

    def __contains__(self, key):
        return key in self._cells

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(list(self._cells))

    def keys(self):
        return list(self._cells.keys())

    def values(self):
        return list(self._cells.values())

    def items(self):
        return list(self._cells.items())

    def update(self, cells):
        """Add the (name, cell) pairs of a dict or an iterable of pairs."""
        items = cells.items() if hasattr(cells, 'items') else cells
        for key, cell in items:
            self[key] = cell

    def pop(self, key):
        cell = self._cells[key]
        del self[key]
        return cell

    def clear(self):
        for key in list(self._cells):
            del self[key]

    def construct(self, *inputs):
        raise TypeError("CellDict is a container and cannot be called; call its cells")
