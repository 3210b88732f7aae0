"""``PKSampler``: ``num_val`` rows of every class, for metric-learning batches (P classes x K
rows). It needs the label of every row, so it works with the file sources that have a label
column (``MnistDataset``, ``ImageFolderDataset``, ``Cifar10Dataset``...)."""
import copy

import numpy as np

from .. import _random
from .samplers import Sampler, _count

__all__ = ['PKSampler']


class PKSampler(Sampler):
    """``num_val`` rows drawn for each class, class after class.

    As in MindSpore, the rows of a class are drawn at random with replacement (a class with
    fewer rows than ``num_val`` repeats some, and one with more may too), and the classes come
    in ascending label order, or in a random order with ``shuffle=True``. Every draw comes
    from the global generator, so ``ms.set_seed`` / ``ds.config.set_seed`` repeats an epoch.
    One epoch has ``num_val * classes`` rows, at most ``num_samples``.

    Args:
        num_val: rows per class, an int >= 1.
        num_class: only None (MindSpore does not support choosing the classes either).
        shuffle: visit the classes in a random order each epoch. Default False.
        class_column: the label column. Default 'label'.
        num_samples: at most this many rows per epoch; None or 0 for all.

    Raises:
        TypeError, ValueError: for a ``num_val`` that is not an int >= 1, a non-bool
            ``shuffle``, a non-str ``class_column`` or a bad ``num_samples``.
        NotImplementedError: for a ``num_class`` other than None.
        RuntimeError: when read by a dataset without the label column.

    >>> import hookgrad as ms
    >>> sampler = ms.dataset.PKSampler(2)
    >>> sampler.num_val, sampler.shuffle
    (2, False)
    """

    def __init__(self, num_val, num_class=None, shuffle=False, class_column='label',
                 num_samples=None):
        if num_class is not None:
            raise NotImplementedError("PKSampler: num_class is not supported; every class is "
                                      "sampled")
        if not isinstance(shuffle, bool):
            raise TypeError(f"PKSampler: shuffle must be a bool, got {shuffle!r}")
        if not isinstance(class_column, str):
            raise TypeError(f"PKSampler: class_column must be a str, got {class_column!r}")
        if num_samples == 0 and not isinstance(num_samples, bool):
            num_samples = None
        super().__init__(num_samples)
        self.num_val = _count(num_val, 'PKSampler', 'num_val', allow_none=False)
        self.shuffle = shuffle
        self.class_column = class_column
        self._dataset = None
        self._labels = None

    def _bind(self, dataset):
        """A copy of this sampler reading the labels of ``dataset`` (done by the dataset)."""
        bound = copy.copy(self)
        bound._dataset, bound._labels = dataset, None
        return bound

    def _class_rows(self):
        """``[(label, row indices)]`` in ascending label order, labels read once."""
        if self._labels is None:
            dataset = self._dataset
            if dataset is None:
                raise RuntimeError("PKSampler: this dataset cannot say the label of each row; "
                                   "use PKSampler with a labelled file source such as "
                                   "MnistDataset or ImageFolderDataset")
            if hasattr(dataset, '_class_ids') and self.class_column == 'label':
                labels = np.asarray(dataset._class_ids())
            else:
                names = dataset.get_col_names()
                if self.class_column not in names:
                    raise RuntimeError(f"PKSampler: class_column '{self.class_column}' is not "
                                       f"a column of {type(dataset).__name__} {names}")
                k = names.index(self.class_column)
                labels = np.array([int(dataset._row(i)[k]) for i in range(dataset._n)])
            self._labels = labels
        classes = np.unique(self._labels)
        return [(c, np.flatnonzero(self._labels == c)) for c in classes]

    def _indices(self, n):
        self.dataset_size = n
        groups = self._class_rows()
        rng = _random.generator()
        if self.shuffle:
            groups = [groups[i] for i in rng.permutation(len(groups))]
        limit = self.num_samples if self.num_samples is not None else \
            self.num_val * len(groups)
        out = []
        for _, rows in groups:
            if len(out) >= limit:
                break
            out.extend(rows[rng.integers(0, len(rows), self.num_val)])
        return np.asarray(out[:limit], np.int64)

    def _size(self, n):
        size = self.num_val * len(self._class_rows())
        return size if self.num_samples is None else min(size, self.num_samples)
