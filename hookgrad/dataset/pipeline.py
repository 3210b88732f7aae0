"""The operation nodes of a dataset pipeline: batch, shuffle, map, repeat, take, skip, project,
rename. Each wraps one child dataset and transforms its rows lazily, epoch by epoch."""
import collections
import functools
import itertools
import numbers

import numpy as np

from .. import _random
from .cache import check_cache
from .callbacks import CallbackRunner, check_callbacks
from .engine import (Dataset, _int_at_least, check_workers, column_indices, column_list)
from .workers import ordered_map, resolve_workers, run_ops

_UNIFORM_BLOCK = 1024      # uniforms drawn at a time by the shuffle buffer


def _kwargs(kwargs, allowed, who):
    """Check the ``**kwargs`` of ``map``/``batch``: known names only; C++-only ones raise."""
    for key, value in kwargs.items():
        if key == 'callbacks' and value is not None and who != 'Dataset.map':
            raise ValueError(f"{who}: callbacks is not supported here; give them to map")
        if key == 'cache':
            check_cache(value, who)
        if key == 'offload' and value:
            raise ValueError(f"{who}: offload=True is not supported: hookgrad runs every "
                             f"operation on the host")
        if key not in allowed + ('cache', 'callbacks', 'offload'):
            raise TypeError(f"{who}: unexpected keyword argument '{key}'")
    multiprocessing = kwargs.get('python_multiprocessing', False)
    if not isinstance(multiprocessing, bool):
        raise TypeError(f"{who}: python_multiprocessing must be a bool, got "
                        f"{multiprocessing!r}")
    return multiprocessing


def _layout(names, input_columns, output_columns, who):
    """``(in_idx, outs, before, after, new_names)``: where outputs replacing inputs go."""
    ins = list(names) if input_columns is None else \
        column_list(input_columns, who, 'input_columns')
    in_idx = column_indices(ins, names, who)
    outs = ins if output_columns is None else column_list(output_columns, who, 'output_columns')
    first, taken = min(in_idx), set(in_idx)
    before = [i for i in range(first) if i not in taken]
    after = [i for i in range(first + 1, len(names)) if i not in taken]
    new_names = [names[i] for i in before] + outs + [names[i] for i in after]
    if len(set(new_names)) != len(new_names):
        raise ValueError(f"{who}: output_columns {outs} clash with the columns kept from the "
                         f"input: the result would be {new_names}")
    return in_idx, outs, before, after, new_names


def _sync_waits(dataset):
    """The ``sync_wait`` nodes of the pipeline ending at ``dataset``."""
    from .combine import SyncWaitDataset, find_nodes
    return find_nodes(dataset, SyncWaitDataset)


class BatchInfo:
    """What ``per_batch_map`` learns about the batch: its number in the epoch and the epoch."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self):
        """The batch's index within the epoch, from 0."""
        return self._batch_num

    def get_epoch_num(self):
        """The epoch's index, from 0."""
        return self._epoch_num


class BatchDataset(Dataset):
    """Rows stacked ``batch_size`` at a time (see ``Dataset.batch``)."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None,
                 **kwargs):
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral):
            raise TypeError(f"Dataset.batch: batch_size must be an int >= 1, got {batch_size!r}")
        if batch_size < 1:
            raise ValueError(f"Dataset.batch: batch_size must be an int >= 1, got {batch_size}")
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"Dataset.batch: drop_remainder must be a bool, got "
                            f"{drop_remainder!r}")
        check_workers(num_parallel_workers, 'Dataset.batch')
        _kwargs(kwargs, ('per_batch_map', 'input_columns', 'output_columns',
                         'python_multiprocessing', 'max_rowsize', 'pad_info'), 'Dataset.batch')
        if kwargs.get('pad_info') is not None:
            raise ValueError("Dataset.batch: pad_info is not supported; pad rows with map "
                             "before batching")
        per_batch_map = kwargs.get('per_batch_map')
        names = child.get_col_names()
        self._layout = None
        if per_batch_map is not None:
            if not callable(per_batch_map):
                raise TypeError(f"Dataset.batch: per_batch_map must be callable, got "
                                f"{per_batch_map!r}")
            self._layout = _layout(names, kwargs.get('input_columns'),
                                   kwargs.get('output_columns'), 'Dataset.batch')
        elif kwargs.get('input_columns') is not None or kwargs.get('output_columns') is not None:
            raise ValueError("Dataset.batch: input_columns and output_columns need per_batch_map")
        super().__init__((child,))
        self.batch_size = int(batch_size)
        self._waits_below = _sync_waits(child)
        for node in self._waits_below:      # sync_wait counts in batches of this size
            node.rows_per_batch = int(batch_size)
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        self._workers = num_parallel_workers
        self._epoch = -1

    def get_col_names(self):
        return self._layout[4] if self._layout else self.children[0].get_col_names()

    def get_batch_size(self):
        return self.batch_size

    def _count(self):
        n = self.children[0].get_dataset_size()
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _groups(self, child):
        rows = []
        for row in child._rows():
            rows.append(row)
            if len(rows) == self.batch_size:
                yield rows
                rows = []
        if rows and not self.drop_remainder:
            yield rows

    def _rows(self):
        child = self.children[0]
        names = child.get_col_names()
        if self.per_batch_map is None:
            fast = child._gather_batches(self.batch_size, self.drop_remainder)
            if fast is not None:
                yield from fast
                return
            for rows in self._groups(child):
                yield _stack(rows, names)
            return
        self._epoch += 1
        items = ((rows, rows, BatchInfo(k, self._epoch))
                 for k, rows in enumerate(self._groups(child)))
        workers = 1 if self._waits_below else resolve_workers(self._workers)
        for rows, out in ordered_map(self._apply_batch_map, items, workers):
            yield _stack(out, self._layout[4])

    def _apply_batch_map(self, rows, info):
        """The batch's rows after ``per_batch_map``, still one tuple per row."""
        in_idx, outs, before, after, _ = self._layout
        out = self.per_batch_map(*[[r[i] for r in rows] for i in in_idx], info)
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != len(outs):
            raise ValueError(f"Dataset.batch: per_batch_map returned {len(out)} column"
                             f"{'s' if len(out) != 1 else ''}, but output_columns names "
                             f"{len(outs)}: {outs}")
        for name, column in zip(outs, out):
            if len(column) != len(rows):
                raise ValueError(f"Dataset.batch: per_batch_map returned {len(column)} rows "
                                 f"for column '{name}' of a batch of {len(rows)}")
        return [tuple(r[i] for i in before) + tuple(np.asarray(c[k]) for c in out)
                + tuple(r[i] for i in after) for k, r in enumerate(rows)]


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
                 num_parallel_workers=None, **kwargs):
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not ops or not all(callable(op) for op in ops):
            raise TypeError(f"Dataset.map: operations must be a callable or a non-empty list of "
                            f"callables, got {operations!r}")
        check_workers(num_parallel_workers, 'Dataset.map')
        self._processes = _kwargs(kwargs, ('python_multiprocessing', 'max_rowsize'),
                                  'Dataset.map')
        self._cache = kwargs.get('cache')
        callbacks = check_callbacks(kwargs.get('callbacks'), 'Dataset.map')
        self._callbacks = CallbackRunner(callbacks) if callbacks else None
        names = child.get_col_names()
        if input_columns is None:       # MindSpore hands the first column alone to the first op
            input_columns = names[:1]
        self._in_idx, self._outs, self._before, self._after, self._names = _layout(
            names, input_columns, output_columns, 'Dataset.map')
        super().__init__((child,))
        self.operations = ops
        self.num_parallel_workers = num_parallel_workers

    def get_col_names(self):
        return list(self._names)

    def _count(self):
        return self.children[0].get_dataset_size()

    def _rows(self):
        if self._cache is not None:         # an epoch's results, kept by the DatasetCache
            return self._cache.rows(self, self._mapped_rows)
        if self._callbacks is not None:
            return self._called_rows(self._callbacks)
        return self._mapped_rows()

    def _called_rows(self, runner):
        """``_mapped_rows`` with the pipeline callbacks called around the epoch and rows."""
        runner.begin_epoch()
        steps = collections.deque()

        def counted(rows):
            for row in rows:
                steps.append(runner.begin_step())
                yield row
        for row in self._mapped_rows(counted):
            runner.end_step(*steps.popleft())
            yield row
        runner.end_epoch()

    def _mapped_rows(self, counted=None):
        ops, in_idx, before, after = self.operations, self._in_idx, self._before, self._after
        n_out = len(self._outs)
        base = int(_random.generator().integers(2 ** 63))      # one draw per epoch
        workers = resolve_workers(self.num_parallel_workers)
        if (self._callbacks is not None and self._callbacks.waits) or _sync_waits(self):
            workers = 1         # rows that wait for training must not be read ahead
        rows = self.children[0]._rows()
        items = ((row, tuple(row[i] for i in in_idx), (base, k))
                 for k, row in enumerate(rows if counted is None else counted(rows)))
        for row, args in ordered_map(functools.partial(run_ops, ops), items, workers,
                                     ops if self._processes and workers > 1 else None):
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
