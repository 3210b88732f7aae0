"""Pipeline nodes over several datasets or driven from outside: ``ZipDataset`` (rows of several
datasets side by side; ``mindspore.dataset.zip``) and ``SyncWaitDataset`` (rows held back until
``Dataset.sync_update`` releases them)."""
import threading

from .._frames import warn
from . import config
from .engine import Dataset

__all__ = ['zip', 'ZipDataset', 'SyncWaitDataset', 'find_nodes']

_builtin_zip = zip


def zip(datasets):  # noqa: A001  (MindSpore's name)
    """Zip a tuple of datasets: each row joins the rows of all of them, columns in order.

    The result ends with the shortest dataset. Same as ``datasets[0].zip(datasets[1:])``.

    Args:
        datasets: a tuple of at least two Datasets whose column names do not clash.

    Raises:
        TypeError: when ``datasets`` is not a tuple of Datasets.
        ValueError: for fewer than two datasets or a column name found in two of them.

    >>> import hookgrad as ms
    >>> a = ms.dataset.NumpySlicesDataset({'a': [1, 2, 3]}, shuffle=False)
    >>> b = ms.dataset.NumpySlicesDataset({'b': [10, 20]}, shuffle=False)
    >>> [(int(x), int(y)) for x, y in ms.dataset.zip((a, b)).create_tuple_iterator(
    ...     output_numpy=True)]
    [(1, 10), (2, 20)]
    """
    if not isinstance(datasets, tuple):
        raise TypeError(f"zip: datasets must be a tuple of Datasets, got "
                        f"{type(datasets).__name__}")
    if len(datasets) <= 1:
        raise ValueError("zip: can't zip empty or just one dataset; give at least two")
    return ZipDataset(datasets)


class ZipDataset(Dataset):
    """Rows of several datasets joined column-wise (see ``zip``)."""

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"zip: every element must be a Dataset, got "
                                f"{type(d).__name__}")
        names = [n for d in datasets for n in d.get_col_names()]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"zip: the datasets share the column names {repeated}; rename "
                             f"them first")
        super().__init__(datasets)
        self._names = names

    def get_col_names(self):
        return list(self._names)

    def get_batch_size(self):
        return 1

    def _count(self):
        return min(d.get_dataset_size() for d in self.children)

    def _rows(self):
        for parts in _builtin_zip(*(d._rows() for d in self.children)):
            yield tuple(a for part in parts for a in part)


def find_nodes(dataset, kind):
    """Every node of type ``kind`` in the pipeline ending at ``dataset``, outermost first."""
    found, stack = [], [dataset]
    while stack:
        node = stack.pop()
        if isinstance(node, kind):
            found.append(node)
        stack.extend(reversed(node.children))
    return found


class SyncWaitDataset(Dataset):
    """Rows held back until ``sync_update`` (see ``Dataset.sync_wait``).

    Each epoch lets ``num_batch`` batches (rows, before a ``batch``) pass; every
    ``sync_update`` lets ``num_batch`` more pass and calls ``callback(data)``. hookgrad reads
    rows in the consumer's thread, so a row that must wait waits for another thread's
    ``sync_update`` for ``config.get_callback_timeout()`` seconds; then, as in MindSpore, it
    warns and lets every later row through. Maps and batches after this node read no rows
    ahead.
    """

    def __init__(self, child, condition_name, num_batch=1, callback=None):
        if not isinstance(condition_name, str):
            raise TypeError(f"Dataset.sync_wait: condition_name must be a str, got "
                            f"{condition_name!r}")
        if isinstance(num_batch, bool) or not isinstance(num_batch, int) or num_batch <= 0:
            raise ValueError(f"Dataset.sync_wait: num_batch must be an int > 0, got "
                             f"{num_batch!r}")
        if callback is not None and not callable(callback):
            raise TypeError(f"Dataset.sync_wait: callback must be callable, got {callback!r}")
        if any(n.condition_name == condition_name for n in find_nodes(child, SyncWaitDataset)):
            raise RuntimeError(f"Dataset.sync_wait: condition name {condition_name!r} is "
                               f"already in use.")
        super().__init__((child,))
        self.condition_name = condition_name
        self.num_batch = num_batch
        self.callback = callback
        self.rows_per_batch = 1        # set by a batch after this node
        self._cv = threading.Condition()
        self._row_count = 0
        self._disabled = False

    def _count(self):
        return self.children[0].get_dataset_size()

    def release(self, num_rows=None, data=None):
        """Let ``num_rows`` more rows pass (None: ``num_batch`` batches); call the callback."""
        with self._cv:
            self._row_count -= self.num_batch * self.rows_per_batch if num_rows is None \
                else num_rows
            if self.callback is not None:
                self.callback(data)
            self._cv.notify_all()

    def disable(self):
        """Let every row pass from now on."""
        with self._cv:
            self._disabled = True
            self._cv.notify_all()

    def _block(self):
        with self._cv:
            timeout = config.get_callback_timeout()
            if not self._cv.wait_for(lambda: self._row_count < 0 or self._disabled,
                                     timeout=timeout):
                warn(f"Dataset.sync_wait: timed out after {timeout} s waiting for "
                     f"sync_update(condition_name={self.condition_name!r}); call it after "
                     f"each batch read from the iterator. Every later row now passes.")
                self._disabled = True
            self._row_count += 1

    def _rows(self):
        with self._cv:
            self._row_count = -self.num_batch * self.rows_per_batch
            self._cv.notify_all()
        for row in self.children[0]._rows():
            self._block()
            yield row
