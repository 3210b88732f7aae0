"""The operation nodes of a dataset pipeline: batch, shuffle, map, repeat, take, skip, project,
rename. Each wraps one child dataset and transforms its rows lazily, epoch by epoch."""
import itertools
import numbers

import numpy as np

from .. import _random
from .engine import (Dataset, _int_at_least, check_workers, column_indices, column_list)

_UNIFORM_BLOCK = 1024      # uniforms drawn at a time by the shuffle buffer


class BatchDataset(Dataset):
    """Rows stacked ``batch_size`` at a time (see ``Dataset.batch``)."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None):
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral):
            raise TypeError(f"Dataset.batch: batch_size must be an int >= 1, got {batch_size!r}")
        if batch_size < 1:
            raise ValueError(f"Dataset.batch: batch_size must be an int >= 1, got {batch_size}")
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"Dataset.batch: drop_remainder must be a bool, got "
                            f"{drop_remainder!r}")
        check_workers(num_parallel_workers, 'Dataset.batch')
        super().__init__((child,))
        self.batch_size = int(batch_size)
        self.drop_remainder = drop_remainder

    def get_batch_size(self):
        return self.batch_size

    def _count(self):
        n = self.children[0].get_dataset_size()
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _rows(self):
        child = self.children[0]
        fast = child._gather_batches(self.batch_size, self.drop_remainder)
        if fast is not None:
            yield from fast
            return
        names = child.get_col_names()
        rows = []
        for row in child._rows():
            rows.append(row)
            if len(rows) == self.batch_size:
                yield _stack(rows, names)
                rows = []
        if rows and not self.drop_remainder:
            yield _stack(rows, names)


def _stack(rows, names):
    """One row of batched arrays: one ``np.stack`` per column."""
    out = []
    for name, column in zip(names, zip(*rows)):
        try:
            out.append(np.stack(column))
        except ValueError:
            shapes = sorted({a.shape for a in column}, key=str)
            raise ValueError(f"Dataset.batch: column '{name}' has rows of different shapes "
                             f"{shapes[:3]} in one batch; rows must have equal shapes to be "
                             f"batched") from None
    return tuple(out)


class ShuffleDataset(Dataset):
    """Rows shuffled through a buffer (see ``Dataset.shuffle``)."""

    def __init__(self, child, buffer_size):
        self.buffer_size = _int_at_least(buffer_size, 2, 'Dataset.shuffle', 'buffer_size')
        super().__init__((child,))

    def _count(self):
        return self.children[0].get_dataset_size()

    def _rows(self):
        rng = _random.generator()
        rows = self.children[0]._rows()
        buf = list(itertools.islice(rows, self.buffer_size))
        u, pos = (), 0
        for row in rows:
            if pos == len(u):
                u, pos = rng.random(_UNIFORM_BLOCK), 0
            j = int(u[pos] * len(buf))
            pos += 1
            yield buf[j]
            buf[j] = row
        for j in rng.permutation(len(buf)):
            yield buf[j]


class MapDataset(Dataset):
    """Rows with operations applied to some columns (see ``Dataset.map``)."""

    def __init__(self, child, operations, input_columns=None, output_columns=None,
                 num_parallel_workers=None, python_multiprocessing=False):
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not ops or not all(callable(op) for op in ops):
            raise TypeError(f"Dataset.map: operations must be a callable or a non-empty list of "
                            f"callables, got {operations!r}")
        check_workers(num_parallel_workers, 'Dataset.map')
        if not isinstance(python_multiprocessing, bool):
            raise TypeError(f"Dataset.map: python_multiprocessing must be a bool, got "
                            f"{python_multiprocessing!r}")
        names = child.get_col_names()
        ins = list(names) if input_columns is None else \
            column_list(input_columns, 'Dataset.map', 'input_columns')
        in_idx = column_indices(ins, names, 'Dataset.map')
        outs = ins if output_columns is None else \
            column_list(output_columns, 'Dataset.map', 'output_columns')
        first = min(in_idx)
        taken = set(in_idx)
        self._before = [i for i in range(first) if i not in taken]
        self._after = [i for i in range(first + 1, len(names)) if i not in taken]
        new_names = [names[i] for i in self._before] + outs + [names[i] for i in self._after]
        if len(set(new_names)) != len(new_names):
            raise ValueError(f"Dataset.map: output_columns {outs} clash with the columns kept "
                             f"from the input: the result would be {new_names}")
        super().__init__((child,))
        self.operations = ops
        self._in_idx = in_idx
        self._outs = outs
        self._names = new_names

    def get_col_names(self):
        return list(self._names)

    def _count(self):
        return self.children[0].get_dataset_size()

    def _rows(self):
        ops, in_idx, before, after = self.operations, self._in_idx, self._before, self._after
        n_out = len(self._outs)
        for row in self.children[0]._rows():
            args = tuple(row[i] for i in in_idx)
            for op in ops:
                out = op(*args)
                args = out if isinstance(out, tuple) else (out,)
            if len(args) != n_out:
                raise ValueError(f"Dataset.map: the operations returned {len(args)} column"
                                 f"{'s' if len(args) != 1 else ''}, but output_columns names "
                                 f"{n_out}: {self._outs}")
            yield (tuple(row[i] for i in before) + tuple(np.asarray(a) for a in args)
                   + tuple(row[i] for i in after))


class RepeatDataset(Dataset):
    """The child read ``count`` times per epoch (see ``Dataset.repeat``)."""

    def __init__(self, child, count=None):
        self.count = _int_at_least(count, 1, 'Dataset.repeat', 'count', infinite=True)
        super().__init__((child,))

    def _count(self):
        if self.count == -1:
            raise RuntimeError("Dataset.repeat: a dataset repeated without end has no size; "
                               "give repeat a count")
        return self.count * self.children[0].get_dataset_size()

    def _rows(self):
        done = 0
        while self.count == -1 or done < self.count:
            empty = True
            for row in self.children[0]._rows():
                empty = False
                yield row
            done += 1
            if empty:
                return


class TakeDataset(Dataset):
    """The first ``count`` rows (see ``Dataset.take``)."""

    def __init__(self, child, count=-1):
        self.count = _int_at_least(count, 1, 'Dataset.take', 'count', infinite=True)
        super().__init__((child,))

    def _count(self):
        n = self.children[0].get_dataset_size()
        return n if self.count == -1 else min(n, self.count)

    def _rows(self):
        rows = self.children[0]._rows()
        return rows if self.count == -1 else itertools.islice(rows, self.count)


class SkipDataset(Dataset):
    """Rows after the first ``count`` (see ``Dataset.skip``)."""

    def __init__(self, child, count):
        self.count = _int_at_least(count, 0, 'Dataset.skip', 'count')
        super().__init__((child,))

    def _count(self):
        return max(self.children[0].get_dataset_size() - self.count, 0)

    def _rows(self):
        return itertools.islice(self.children[0]._rows(), self.count, None)


class ProjectDataset(Dataset):
    """Only some columns, in a chosen order (see ``Dataset.project``)."""

    def __init__(self, child, columns):
        self._names = column_list(columns, 'Dataset.project', 'columns')
        self._pick = column_indices(self._names, child.get_col_names(), 'Dataset.project')
        super().__init__((child,))

    def get_col_names(self):
        return list(self._names)

    def _count(self):
        return self.children[0].get_dataset_size()

    def _rows(self):
        pick = self._pick
        for row in self.children[0]._rows():
            yield tuple(row[i] for i in pick)


class RenameDataset(Dataset):
    """Columns renamed (see ``Dataset.rename``)."""

    def __init__(self, child, input_columns, output_columns):
        ins = column_list(input_columns, 'Dataset.rename', 'input_columns')
        outs = column_list(output_columns, 'Dataset.rename', 'output_columns')
        if len(ins) != len(outs):
            raise ValueError(f"Dataset.rename: input_columns {ins} and output_columns {outs} "
                             f"differ in length")
        names = list(child.get_col_names())
        for i, new in zip(column_indices(ins, names, 'Dataset.rename'), outs):
            names[i] = new
        if len(set(names)) != len(names):
            raise ValueError(f"Dataset.rename: the result would repeat a column name: {names}")
        self._names = names
        super().__init__((child,))

    def get_col_names(self):
        return list(self._names)

    def _count(self):
        return self.children[0].get_dataset_size()

    def _rows(self):
        return self.children[0]._rows()
