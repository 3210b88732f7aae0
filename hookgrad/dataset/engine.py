"""The Dataset base class (MindSpore's ``mindspore.dataset.Dataset``) and its iterators.

A dataset is a node in a pipeline: a source (``NumpySlicesDataset``, ``GeneratorDataset``) or an
operation on another dataset (``batch``, ``shuffle``, ``map``, ``repeat``...). Every node yields,
for one epoch, rows: tuples of NumPy arrays, one per column. Iterators turn rows into Tensors (or
leave them as arrays) and count epochs. Sources are read in the calling thread; ``map`` and
``batch`` may run their operations on worker threads or processes, keeping row order.
"""
import abc
import functools
import inspect
import numbers


from .. import _dtype
from .._tensor import Tensor
from ..kernels import backend as _backend
from .row_state import _run, row_generator  # noqa: F401  (row_generator: this module's name)
from .methods import DatasetMethods

__all__ = ['Dataset', 'TupleIterator', 'DictIterator', 'row_generator']

def check_workers(value, who):
    """Validate ``num_parallel_workers`` (None or an int >= 1)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Integral)
                              or value < 1):
        raise ValueError(f"{who}: num_parallel_workers must be None or an int >= 1, got {value!r}")


def column_list(columns, who, arg):
    """``columns`` (a str or a list/tuple of str) as a list of unique names."""
    names = [columns] if isinstance(columns, str) else columns
    if not isinstance(names, (list, tuple)) or not names or \
            not all(isinstance(n, str) for n in names):
        raise TypeError(f"{who}: {arg} must be a str or a non-empty list of str, got {columns!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{who}: {arg} repeats a name: {list(names)}")
    return list(names)


def column_indices(names, available, who):
    """Positions of ``names`` among the ``available`` column names."""
    out = []
    for n in names:
        if n not in available:
            raise ValueError(f"{who}: unknown column '{n}'; the columns are {list(available)}")
        out.append(available.index(n))
    return out


def _int_at_least(value, minimum, who, arg, infinite=False):
    if infinite and (value is None or value == -1) and not isinstance(value, bool):
        return -1
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        extra = " (or -1 for all)" if infinite else ""
        raise ValueError(f"{who}: {arg} must be an int >= {minimum}{extra}, got {value!r}")
    return int(value)


class Dataset(DatasetMethods, abc.ABC):
    """Base class of datasets: a node that yields rows of NumPy arrays, one epoch at a time.

    Subclasses define ``_rows()`` (a generator over one epoch's rows), ``get_col_names()`` and
    ``_count()`` (rows per epoch). ``filter``, ``concat``, ``padded_batch``, ``save``... come
    from ``DatasetMethods`` (methods.py). Each ``for`` loop over a dataset is one epoch; random
    operations draw new values every epoch from the global generator (``ms.set_seed``).
    """

    def __init__(self, children=()):
        self.children = tuple(children)
        self._size = None

    def __init_subclass__(cls, **kwargs):
        # each dataset keeps the arguments it was made with, for serialize/deserialize
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get('__init__')
        if init is not None:
            cls.__init__ = _recording(init)

    # ----------------------------------------------------------------- provided by nodes
    @abc.abstractmethod
    def _rows(self):
        """A generator over one epoch's rows (tuples of arrays)."""

    @abc.abstractmethod
    def _count(self):
        """The number of rows in one epoch."""

    def _gather_batches(self, batch_size, drop_remainder):
        """Batches gathered straight from the source (a fast path), or None."""
        return None

    def get_col_names(self):
        """The column names, in row order."""
        return self.children[0].get_col_names()

    # ----------------------------------------------------------------- information
    def get_dataset_size(self):
        """The number of rows (batches, after ``batch``) in one epoch.

        A source that cannot say its length (a generator function, an iterable) is read
        through once to count it; the count is kept.
        """
        if self._size is None:
            self._size = self._count()
        return self._size

    def get_batch_size(self):
        """The batch size of the last ``batch`` in the pipeline, 1 if there is none."""
        return self.children[0].get_batch_size() if self.children else 1

    def num_classes(self):
        """The number of classes of a labelled source (``ImageFolderDataset``), else None."""
        return self.children[0].num_classes() if self.children else None

    def output_shapes(self):
        """The shape of each column of the first row, as lists: ``[[32, 4], [32]]``."""
        return [list(a.shape) for a in self._first_row('output_shapes')]

    def output_types(self):
        """The NumPy dtype of each column of the first row."""
        return [a.dtype for a in self._first_row('output_types')]

    def _first_row(self, who):
        for row in self._rows():
            return row
        raise RuntimeError(f"Dataset.{who}: the dataset yields no rows")

    # ----------------------------------------------------------------- operations
    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Stack every ``batch_size`` consecutive rows into one row of arrays.

        Args:
            batch_size: rows per batch, an int >= 1.
            drop_remainder: drop a last batch smaller than ``batch_size``. Default False.
            num_parallel_workers: workers running ``per_batch_map`` (None: the
                ``config.get_num_parallel_workers()`` default).
            **kwargs: ``per_batch_map``, a callable ``f(col_list, ..., batch_info) -> tuple of
                lists`` applied to the ``input_columns`` of each batch (a list of row arrays per
                column) before stacking, its results named ``output_columns``;
                ``python_multiprocessing`` and ``max_rowsize`` are accepted.

        Returns:
            Dataset whose rows are batches; each column gains a leading dimension.

        Raises:
            TypeError, ValueError: for a ``batch_size`` that is not an int >= 1, a non-bool
                ``drop_remainder`` or an unknown keyword. Iterating raises ValueError when the
                rows of one batch differ in shape.

        >>> import numpy as np, hookgrad as ms
        >>> ds = ms.dataset.NumpySlicesDataset(np.arange(5), shuffle=False).batch(2)
        >>> [b.tolist() for (b,) in ds.create_tuple_iterator(output_numpy=True)]
        [[0, 1], [2, 3], [4]]
        """
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def shuffle(self, buffer_size):
        """Shuffle rows through a buffer of ``buffer_size`` rows, in a new order each epoch.

        The buffer starts with the first ``buffer_size`` rows; each output row is drawn at random
        from the buffer and replaced by the next input row. A buffer at least as large as the
        dataset shuffles it globally.

        Args:
            buffer_size: an int >= 2.

        Raises:
            ValueError: for a ``buffer_size`` that is not an int >= 2.
        """
        return ShuffleDataset(self, buffer_size)

    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None,
            **kwargs):
        """Apply ``operations`` in order to some columns of every row.

        The first operation is called with the ``input_columns`` arrays as positional
        arguments; each later one with the previous one's outputs (a tuple return is several
        columns). The final outputs are named ``output_columns`` and take the place of the input
        columns in the row. With several workers, rows are processed concurrently and come out
        in their input order; random operations drawing from ``row_generator()`` give the same
        values with any number of workers.

        Args:
            operations: a callable or a non-empty list of callables.
            input_columns: a column name or list of names. Default None: all columns.
            output_columns: names of the final outputs. Default None: ``input_columns``;
                required when the number of outputs differs.
            num_parallel_workers: threads (or processes) running the operations. Default None:
                ``config.get_num_parallel_workers()``.
            **kwargs: ``python_multiprocessing`` (bool): run the operations in forked worker
                processes instead of threads; ``max_rowsize`` is accepted; ``cache``, a
                ``DatasetCache``, keeps the first epoch's results in memory for later epochs;
                ``callbacks``, a ``DSCallback`` or list of them, called as rows pass (see
                ``DSCallback``). ``offload`` is a MindSpore device feature and raises.

        Raises:
            TypeError: for operations that are not callable or an unknown keyword.
            ValueError: for unknown or repeated column names. Iterating raises ValueError when
                an operation returns a different number of columns than ``output_columns``.
        """
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers,
                          **kwargs)

    def repeat(self, count=None):
        """Read the dataset ``count`` times per epoch (None or -1: without end).

        Raises:
            ValueError: for a ``count`` that is not None, -1 or an int >= 1.
        """
        return RepeatDataset(self, count)

    def take(self, count=-1):
        """The first ``count`` rows of each epoch (-1: all).

        Raises:
            ValueError: for a ``count`` that is not -1 or an int >= 1.
        """
        return TakeDataset(self, count)

    def skip(self, count):
        """Each epoch without its first ``count`` rows.

        Raises:
            ValueError: for a ``count`` that is not an int >= 0.
        """
        return SkipDataset(self, count)

    def project(self, columns):
        """Keep only ``columns`` (a name or list of names), in that order.

        Raises:
            ValueError: for unknown or repeated column names.
        """
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Rename the columns ``input_columns`` to ``output_columns``.

        Raises:
            ValueError: for unknown names, lists of different lengths or duplicate results.
        """
        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets):
        """This dataset's rows joined column-wise with those of ``datasets`` (a Dataset or a
        tuple of them); the result ends with the shortest. See ``hookgrad.dataset.zip``.

        Raises:
            TypeError: for something other than a Dataset or a tuple of Datasets.
            ValueError: for a column name found in two of the datasets.
        """
        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        if not isinstance(datasets, tuple):
            raise TypeError(f"Dataset.zip: datasets must be a Dataset or a tuple of Datasets, "
                            f"got {type(datasets).__name__}")
        return ZipDataset((self,) + datasets)

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Hold rows back until ``sync_update(condition_name)`` releases them.

        Each epoch ``num_batch`` batches pass freely; each ``sync_update`` lets ``num_batch``
        more pass and calls ``callback(data)``, so training can feed results (a loss) back into
        the pipeline. A ``batch`` after this node counts in its batches.

        Raises:
            TypeError, ValueError: for a non-str ``condition_name``, a ``num_batch`` that is not
                an int > 0 or a callback that is not callable.
            RuntimeError: when ``condition_name`` is already used in the pipeline.
        """
        return SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Release ``num_batch`` batches (None: the ``sync_wait``'s own) held back by the
        ``sync_wait`` named ``condition_name`` and call its callback with ``data``.

        Raises:
            TypeError: for a non-str ``condition_name``.
            RuntimeError: for a ``num_batch`` that is not a positive int or an unknown
                condition name (every wait of the pipeline is then disabled, as in MindSpore).
        """
        waits = find_nodes(self, SyncWaitDataset)
        if (not isinstance(num_batch, int) and num_batch is not None) or \
                isinstance(num_batch, bool) or (isinstance(num_batch, int) and num_batch <= 0):
            for node in waits:
                node.disable()
            raise RuntimeError(f"Dataset.sync_update: num_batch can only be a positive integer "
                               f"or None, got {num_batch!r}")
        if not isinstance(condition_name, str):
            raise TypeError(f"Dataset.sync_update: condition_name must be a str, got "
                            f"{condition_name!r}")
        named = [node for node in waits if node.condition_name == condition_name]
        if not named:
            for node in waits:
                node.disable()
            raise RuntimeError(f"Dataset.sync_update: condition name {condition_name!r} not "
                               f"found; the pipeline's are "
                               f"{[node.condition_name for node in waits]}")
        named[0].release(None if num_batch is None else num_batch * self.get_batch_size(),
                         data)

    def to_json(self, filename=""):
        """The pipeline as MindSpore's JSON description (a dict), also written to ``filename``
        when one is given. See ``hookgrad.dataset.serialize``."""
        from .serializer import serialize
        return serialize(self, filename)

    def split(self, sizes, randomize=True):
        """Split the rows into consecutive datasets of the given sizes.

        Args:
            sizes: a list of ints >= 1 adding up to ``get_dataset_size()``, or of floats in
                (0, 1] adding up to 1 (fractions; rounding differences go to the first split).
            randomize: assign rows to the splits at random (drawn once, at this call). A
                pipeline or a source without random access only splits with False.

        Returns:
            tuple of Datasets.

        Raises:
            TypeError, ValueError: for sizes of the wrong kind or total, or randomize=True where
                rows cannot be picked at random.
        """
        if not isinstance(randomize, bool):
            raise TypeError(f"Dataset.split: randomize must be a bool, got {randomize!r}")
        counts = split_sizes(sizes, self.get_dataset_size())
        if randomize:
            raise ValueError("Dataset.split: randomize=True needs a random-access source "
                             "dataset (NumpySlicesDataset, or GeneratorDataset over an object "
                             "with __getitem__ and __len__); pass randomize=False")
        out, start = [], 0
        for n in counts:
            out.append(self.skip(start).take(n) if start else self.take(n))
            start += n
        return tuple(out)

    # ----------------------------------------------------------------- iteration
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=True):
        """An iterator over rows as lists of Tensors (or arrays), for ``num_epochs`` epochs.

        Each pass of a ``for`` loop over the iterator reads one epoch.

        Args:
            columns: the column names to output, in order. Default None: all.
            num_epochs: how many epochs may be read (-1: without limit).
            output_numpy: output NumPy arrays instead of Tensors.
            do_copy: copy each array into its Tensor (False shares the memory on the CPU).
            Tensors are created on the default device (``set_device``): one upload per
            column of a row (a batch) on a GPU.

        Raises:
            ValueError: for unknown columns or a bad ``num_epochs``; iterating past
                ``num_epochs`` epochs raises RuntimeError.
        """
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        """As ``create_tuple_iterator``, with rows as ``{column name: value}`` dicts."""
        return DictIterator(self, None, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator())


def _recording(init):
    """``init`` storing its arguments (defaults filled in) as ``self._init_call``, once."""
    signature = inspect.signature(init)

    @functools.wraps(init)
    def recorded(self, *args, **kwargs):
        if '_init_call' not in self.__dict__:
            try:
                bound = signature.bind(self, *args, **kwargs)
            except TypeError:
                bound = None            # the call itself reports the error
            if bound is not None:
                bound.apply_defaults()
                call = {}
                for name, value in list(bound.arguments.items())[1:]:
                    kind = signature.parameters[name].kind
                    if kind is inspect.Parameter.VAR_KEYWORD:
                        call.update(value)
                    elif kind is not inspect.Parameter.VAR_POSITIONAL:
                        call[name] = value
                self.__dict__['_init_call'] = call
        init(self, *args, **kwargs)
    return recorded


def split_sizes(sizes, n, who='Dataset.split'):
    """Row counts of each split of ``n`` rows (see ``Dataset.split``)."""
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError(f"{who}: sizes must be a non-empty list of ints or floats, got {sizes!r}")
    if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in sizes):
        if any(s < 1 for s in sizes):
            raise ValueError(f"{who}: every size must be >= 1, got {list(sizes)}")
        if sum(sizes) != n:
            raise ValueError(f"{who}: sizes {list(sizes)} add up to {sum(sizes)}, but the "
                             f"dataset has {n} rows")
        return [int(s) for s in sizes]
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError(f"{who}: fractions must lie in (0, 1] and add up to 1, got "
                             f"{list(sizes)}")
        counts = [int(round(s * n)) for s in sizes]
        diff = n - sum(counts)
        for i, c in enumerate(counts):
            if c + diff >= 1:
                counts[i] += diff
                break
        if any(c < 1 for c in counts):
            raise ValueError(f"{who}: fractions {list(sizes)} of {n} rows leave an empty split "
                             f"({counts})")
        return counts
    raise TypeError(f"{who}: sizes must be all ints or all floats, got {list(sizes)}")


class TupleIterator:
    """Iterates a dataset's rows as lists of Tensors (or arrays), epoch by epoch."""

    __slots__ = ('_dataset', '_names', '_pick', '_num_epochs', '_output_numpy', '_do_copy',
                 '_epoch', '_rows')

    def __init__(self, dataset, columns, num_epochs, output_numpy, do_copy):
        names = dataset.get_col_names()
        if columns is None:
            self._pick = None
            self._names = list(names)
        else:
            self._names = column_list(columns, 'create_tuple_iterator', 'columns')
            self._pick = column_indices(self._names, names, 'create_tuple_iterator')
        self._num_epochs = _int_at_least(num_epochs, 1, type(self).__name__, 'num_epochs',
                                         infinite=True)
        for arg, value in (('output_numpy', output_numpy), ('do_copy', do_copy)):
            if not isinstance(value, bool):
                raise TypeError(f"{type(self).__name__}: {arg} must be a bool, got {value!r}")
        self._dataset = dataset
        self._output_numpy = output_numpy
        self._do_copy = do_copy
        self._epoch = 0
        self._rows = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._rows is None:
            skip = self._dataset.get_init_step() if self._epoch == 0 else 0
            if skip:                    # set_init_step: start at that global step
                skipped, skip = divmod(skip, self._dataset.get_dataset_size() or 1)
                self._epoch += skipped
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                raise RuntimeError(f"{type(self).__name__}: all num_epochs={self._num_epochs} "
                                   f"epochs of this iterator have been read")
            self._rows = self._dataset._rows()
            _run.iterator = self        # pipeline callbacks start a new run per iterator
            for _ in range(skip):
                next(self._rows, None)
        try:
            row = next(self._rows)
        except StopIteration:
            self._rows = None
            self._epoch += 1
            raise
        if self._pick is not None:
            row = [row[i] for i in self._pick]
        if not self._output_numpy:
            row = [_to_tensor(a, name, self._do_copy) for a, name in zip(row, self._names)]
        return self._pack(row)

    def _pack(self, row):
        return list(row)


class DictIterator(TupleIterator):
    """Iterates a dataset's rows as ``{column name: Tensor (or array)}`` dicts."""

    __slots__ = ()

    def _pack(self, row):
        return dict(zip(self._names, row))


def _to_tensor(arr, name, do_copy):
    if arr.dtype.kind in 'USO':
        return arr                  # strings and bytes stay NumPy arrays, as in MindSpore
    try:
        _dtype.from_numpy(arr.dtype)
    except TypeError:
        raise TypeError(f"dataset iterator: column '{name}' has dtype {arr.dtype}, which a "
                        f"Tensor cannot hold; iterate with output_numpy=True") from None
    if do_copy:
        return Tensor(arr)          # on the default device
    return Tensor._wrap(_backend.on_default(arr))     # shares memory on the CPU; a GPU uploads


from .pipeline import (BatchDataset, MapDataset, ProjectDataset, RenameDataset,  # noqa: E402
                       RepeatDataset, ShuffleDataset, SkipDataset, TakeDataset)
from .combine import SyncWaitDataset, ZipDataset, find_nodes  # noqa: E402
