"""Containers of cells: SequentialCell, CellList, CellDict (sub-cells named '0', '1'... or keys).

Parameter names follow MindSpore's containers: a cell added to a list is named
``<prefix><index>.<attribute>``, where the prefix is read off the names of the cells already in
the list. A container whose cells have no parameters yet (an empty one, filled with ``append``)
therefore names new cells ``0.weight``, ``1.weight``... even when it is held by a network, as
MindSpore does, so checkpoint keys match MindSpore's; a network that holds the filled
container later names them by path again (``net.layers.0.weight``).
"""
import weakref
from collections import OrderedDict

from .cell import Cell, _set_prefix


def _check_cell(cell, where):
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{where}', each cell must be subclass of Cell, but got "
                        f"{type(cell).__name__}.")
    if '_params' not in cell.__dict__:
        raise RuntimeError(f"{type(cell).__name__}.__init__ must call super().__init__() before "
                           f"the cell is added to a {where}")
    return cell


def _check_index(index, n, where, inserting=False):
    """``index`` in [-n, n) (or [-n, n] when inserting), as a position in [0, n]."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"For '{where}', the type of 'index' must be int, but got "
                        f"{type(index).__name__}.")
    high, bracket = (n, ']') if inserting else (n - 1, ')')
    if not -n <= index <= high:
        raise IndexError(f"For '{where}', the value of 'index' must be a number in range "
                         f"[{-n}, {n}{bracket}, but got {index}.")
    return index + n if index < 0 else index


def _name_prefix(container):
    """The prefix MindSpore gives new cells of ``container``: read off the name of the first
    parameter of its cells ('' when none has a parameter), so that it survives wrapping."""
    first = second = None
    for key, cell in container._cells.items():
        p = next(cell.get_parameters(), None)
        if p is None:
            continue
        if first is None:
            first = (key, p.name.split('.'))
        else:
            second = (key, p.name.split('.'))
            break
    if first is None:
        return '', 0
    key, parts = first
    prefix, index = '', 0
    for i, part in enumerate(parts):
        if part == key:
            prefix, index = '.'.join(parts[:i]), i
            if second is not None and len(second[1]) > i and second[1][i] == second[0]:
                break
    return prefix, index


def _place(container, key, cell, prefix):
    """Put ``cell`` under ``key`` and name its parameters ``<prefix>.<key>.<attribute>``."""
    container.__dict__['_cells'][key] = cell
    parent = cell._parent
    if parent is None or parent[0]() is container:
        cell.__dict__['_parent'] = (weakref.ref(container), key)
    if container._auto_prefix:
        _set_prefix(cell, f"{prefix}.{key}" if prefix else key)


class _IndexedCells(Cell):
    """What SequentialCell and CellList share: cells keyed by position."""

    def __bool__(self):
        return len(self._cells) != 0

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(list(self._cells.values()))

    def _renumber(self, cells, dynamic):
        """Rebuild the cells after a removal or insertion: cells named by position (``dynamic``
        True) get their new position as key and name."""
        prefix, _ = _name_prefix(self)
        old = self._cells
        self.__dict__['_cells'] = {}
        for i, (key, cell) in enumerate(cells):
            if dynamic[i]:
                _place(self, str(i), cell, prefix)
            else:
                self._cells[key] = cell
        for key, cell in old.items():
            if key not in self._cells and self.__dict__.get(key) is cell:
                del self.__dict__[key]          # the attribute set when the cell was added

    def append(self, cell):
        """Add ``cell`` at the end (named after its position; see the module docstring)."""
        _check_cell(cell, type(self).__name__)
        prefix, _ = _name_prefix(self)
        _place(self, str(len(self)), cell, prefix)
        self._dynamic.append(True)
        return self

    def insert(self, index, cell):
        """Insert ``cell`` before position ``index`` (in [-len, len])."""
        where = type(self).__name__
        i = _check_index(index, len(self), where, inserting=True)
        _check_cell(cell, where)
        items = list(self._cells.items())
        items.insert(i, (str(i), cell))
        self._dynamic.insert(i, True)
        self._renumber(items, self._dynamic)

    def __delitem__(self, index):
        where = type(self).__name__
        keys = list(self._cells)
        if isinstance(index, slice):
            gone = set(range(len(keys))[index])
        elif isinstance(index, int) and not isinstance(index, bool):
            gone = {_check_index(index, len(keys), where)}
        else:
            raise TypeError(f"For '{where}', the type of 'index' must be int or slice, but got "
                            f"{type(index).__name__}.")
        items = [(k, self._cells[k]) for i, k in enumerate(keys) if i not in gone]
        self.__dict__['_dynamic'] = [d for i, d in enumerate(self._dynamic) if i not in gone]
        for i in sorted(gone):
            self._cells.pop(keys[i])
        self._renumber(items, self._dynamic)

    def set_grad(self, requires_grad=True):
        """Set ``requires_grad`` on this container and every cell in it; returns self."""
        super().set_grad(requires_grad)
        for cell in self._cells.values():
            cell.set_grad(requires_grad)
        return self


class SequentialCell(_IndexedCells):
    """Cells run in order, each taking the previous one's output.

    Args:
        *args: the cells, one Cell, one list of cells, or one OrderedDict (or dict) of
            name -> cell.

    Raises:
        TypeError: for an item that is not a Cell.

    >>> import hookgrad as ms
    >>> seq = ms.nn.SequentialCell(ms.nn.ReLU(), ms.nn.ReLU())
    >>> seq(ms.Tensor([-1.0, 2.0]))
    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  2.00000000e+00])
    """

    def __init__(self, *args):
        super().__init__()
        self.__dict__['_dynamic'] = []
        if len(args) == 1 and isinstance(args[0], dict):
            for name, cell in args[0].items():
                self._add_child(name, _check_cell(cell, 'SequentialCell'))
                self._dynamic.append(False)
            return
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = args[0]
        for i, cell in enumerate(args):
            self._add_child(str(i), _check_cell(cell, 'SequentialCell'))
            self._dynamic.append(True)

    def __getitem__(self, index):
        """The cell at ``index``, or a SequentialCell of a slice (keeping the cells' keys, and
        naming their parameters after them, as MindSpore)."""
        items = list(self._cells.items())
        if isinstance(index, slice):
            return SequentialCell(OrderedDict(items[index]))
        return items[_check_index(index, len(items), 'SequentialCell')][1]

    def __setitem__(self, index, cell):
        """Replace the cell at ``index``; it takes the replaced cell's key and name prefix."""
        _check_cell(cell, 'SequentialCell')
        prefix, _ = _name_prefix(self)
        i = _check_index(index, len(self), 'SequentialCell')
        key = list(self._cells)[i]
        _place(self, key, cell, prefix)

    def extend(self, cells):
        """Append every cell of ``cells``."""
        for cell in cells:
            self.append(cell)
        return self

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_IndexedCells):
    """A list of cells whose parameters the holding cell registers; it has no construct.

    Args:
        args: an optional list of cells.
        auto_prefix: name the cells' parameters after their positions (keyword). Default True.

    Raises:
        TypeError: for ``args`` that is not a list, or an item that is not a Cell (or is a
            CellDict).
    """

    maps_one_cell_per_example = True    # ops.vmap gives the i-th cell the i-th example

    def __init__(self, *args, **kwargs):
        unknown = [k for k in kwargs if k != 'auto_prefix']
        if unknown:
            raise TypeError(f"CellList got unexpected keyword arguments {unknown}")
        super().__init__(auto_prefix=kwargs.get('auto_prefix', True))
        self.__dict__['_dynamic'] = []
        if len(args) > 1:
            raise TypeError(f"CellList takes at most one list of cells, got {len(args)} "
                            f"arguments")
        if args:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return CellList(list(self._cells.values())[index])
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"For 'CellList', the type of 'index' must be int or slice, but got "
                            f"{type(index).__name__}.")
        return self._cells[str(_check_index(index, len(self), 'CellList'))]

    def __setitem__(self, index, cell):
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"For 'CellList', the type of 'index' must be int, but got "
                            f"{type(index).__name__}.")
        _check_cell(cell, 'CellList')
        i = _check_index(index, len(self), 'CellList')
        prefix, _ = _name_prefix(self)
        _place(self, str(i), cell, prefix)

    def __iadd__(self, cells):
        return self.extend(cells)

    def extend(self, cells):
        """Append the cells of the list ``cells``.

        Raises:
            TypeError: when ``cells`` is not a list, or holds a non-Cell or a CellDict.
        """
        if not isinstance(cells, list):
            raise TypeError(f"For 'CellList', the new cells wanted to append should be instance "
                            f"of list, but got {type(cells).__name__}.")
        for cell in cells:
            if isinstance(cell, CellDict):
                raise TypeError("For 'CellList', the type of cell can not be CellDict, but got "
                                "CellDict.")
            self.append(cell)
        return self

    def construct(self, *inputs):
        raise NotImplementedError("CellList is a container and cannot be called; call its cells")


class CellDict(Cell):
    """An ordered dict of name -> cell whose parameters the holding cell registers.

    Args:
        args: an optional dict (or iterable of (name, cell) pairs).
    """

    def __init__(self, *args, **kwargs):
        unknown = [k for k in kwargs if k != 'auto_prefix']
        if unknown:
            raise TypeError(f"CellDict got unexpected keyword arguments {unknown}")
        super().__init__(auto_prefix=kwargs.get('auto_prefix', True))
        if args:
            if len(args) > 1:
                raise TypeError(f"CellDict takes at most one argument, got {len(args)}")
            self.update(args[0])

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        """Add or replace the cell under ``key``, with MindSpore's checks.

        Raises:
            TypeError: a key that is not a str; a value that is not a Cell, or a container.
            KeyError: a key naming an attribute of the cell, holding '.', or empty.
        """
        name = type(self).__name__
        if not isinstance(key, str):
            raise TypeError(f"For '{name}', the type of key should be string but got "
                            f"{type(key).__name__}.")
        if key not in self._cells and hasattr(self, key):
            raise KeyError(f"For '{name}', the key can not be same with the attributes of "
                           f"Cell, but got key {key}.")
        if '.' in key:
            raise KeyError(f"For '{name}', key can not contain \".\", but got key {key}")
        if key == '':
            raise KeyError(f"For '{name}', key can not be empty string \"\", but got key {key}")
        if cell is None:
            raise TypeError(f"For '{name}', cell can not be None.")
        if not isinstance(cell, Cell):
            raise TypeError(f"For '{name}', the type of cell should be Cell, but got "
                            f"{type(cell).__name__}.")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For '{name}', the type of cell can not be CellDict, CellList or "
                            f"SequentialCell, but got {type(cell).__name__}.")
        self._add_child(key, cell)

    def __delitem__(self, key):
        del self._cells[key]
        self.__dict__.pop(key, None)

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
        raise NotImplementedError("CellDict is a container and cannot be called; call its cells")

