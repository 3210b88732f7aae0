"""More methods of ``Dataset`` (MindSpore's ``mindspore.dataset.Dataset``), kept out of
engine.py: ``filter``, ``concat`` / ``+``, ``padded_batch``, ``bucket_batch_by_length``,
``flat_map``, ``apply``, ``save`` and the pipeline queries (``get_repeat_count``,
``is_shuffled``, ``get_init_step``...). ``Dataset`` inherits them from ``DatasetMethods``.

MindSpore's device-queue and C++-tree methods (``device_que``, ``parse``, ``create_ir_tree``...)
raise NotImplementedError saying why: hookgrad's pipeline has no device data queue and no
compiled tree, its Python nodes are read directly.
"""
__all__ = ['DatasetMethods']


def _nodes():
    from . import filtering
    return filtering


def _no_ir_tree(name):
    raise NotImplementedError(
        f"Dataset.{name}: hookgrad's dataset pipeline has no C++ IR tree to build or parse; its "
        f"Python nodes yield rows directly when iterated (see Dataset.to_json for MindSpore's "
        f"JSON description of the pipeline)")


class _FixedBatchSize:
    """``get_batch_size`` of a dataset given ``copy_batch_size(value)``."""

    def __init__(self, value):
        self.value = value

    def __call__(self):
        return self.value


class DatasetMethods:
    """The methods ``Dataset`` adds beyond engine.py (see this module's docstring)."""

    # ----------------------------------------------------------------- row operations
    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which ``predicate(*columns)`` is true.

        Args:
            predicate: a callable called with the ``input_columns`` arrays of each row; its
                result is taken as a bool.
            input_columns: a column name or list of names. Default None: every column.
            num_parallel_workers: None or an int >= 1 (checked; rows are tested in order in
                the reading thread).

        ``get_dataset_size()`` reads the rows once to count those kept, as MindSpore does.

        Raises:
            TypeError: for a predicate that is not callable. ValueError: for bad
                ``num_parallel_workers``. Reading raises RuntimeError for an unknown input column
                or when the predicate raises.
        """
        return _nodes().FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def concat(self, datasets):
        """This dataset's rows followed by those of ``datasets`` (a Dataset or a list of them),
        in order; the same as ``self + datasets``. Every dataset must have the same columns.

        Raises:
            TypeError: for something other than a Dataset or a list of Datasets.
            ValueError: when a dataset has no rows. RuntimeError (from ``get_col_names`` and
                reading): when the column names or their order differ.
        """
        from .engine import Dataset
        types = [list, Dataset]
        if isinstance(datasets, Dataset):
            return _nodes().ConcatDataset([self, datasets])
        if not isinstance(datasets, list):
            raise _nodes().type_error('datasets', datasets, types)
        for k, d in enumerate(datasets):
            if not isinstance(d, Dataset):
                raise _nodes().type_error(f'dataset[{k}]', d, [Dataset])
        return _nodes().ConcatDataset([self] + datasets)

    def __add__(self, datasets):
        return self.concat(datasets)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        """Batch ``batch_size`` rows, padding columns to one shape first.

        Args:
            batch_size: an int >= 1, or a callable taking a ``BatchInfo`` and returning the
                size of each next batch.
            drop_remainder: drop a last, smaller batch. Default False.
            num_parallel_workers: None or an int >= 1 (checked).
            pad_info: ``{column: (shape, value)}``: pad the column to ``shape`` (a list; None
                dims, or a None shape: the largest in the batch; a smaller dim cuts the rows)
                with ``value`` (None: 0, '' for strings). ``{}``: every column to the largest
                shape in the batch with 0. None: no padding (rows must agree in shape).

        Raises:
            TypeError, ValueError: for arguments MindSpore rejects (with its messages).
            Reading raises RuntimeError for a ``pad_info`` column the dataset lacks or rows
            that cannot be batched.
        """
        return _nodes().PaddedBatchDataset(self, batch_size, drop_remainder,
                                           num_parallel_workers, pad_info)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        """Sort rows into buckets by length; pad and batch a bucket when it is full.

        A row's length is ``element_length_function(*columns)`` (default: the first dim of
        the only column, 0 for a scalar). Bucket ``i`` holds lengths in
        ``[bucket_boundaries[i-1], bucket_boundaries[i])`` and is emitted every
        ``bucket_batch_sizes[i]`` rows; what is left is emitted at the end of the epoch, bucket
        by bucket (unless ``drop_remainder``). Columns are padded as by ``padded_batch`` (None
        ``pad_info``: every column); with ``pad_to_bucket_boundary`` None dims of ``pad_info``
        shapes become the bucket's boundary minus one (the last bucket then raises).

        Raises:
            TypeError, ValueError: for arguments MindSpore rejects (with its messages).
            RuntimeError: for an unknown column, or, when reading, a negative length.
        """
        return _nodes().BucketBatchByLengthDataset(
            self, column_names, bucket_boundaries, bucket_batch_sizes, element_length_function,
            pad_info, pad_to_bucket_boundary, drop_remainder)

    def flat_map(self, func):
        """``func(*row)`` (a Dataset) for each row of one epoch, concatenated.

        The rows are read now, as in MindSpore, and the datasets joined with ``+``.

        Raises:
            TypeError: when ``func`` is not callable or does not return Datasets.
        """
        from .engine import Dataset
        if not callable(func):
            raise TypeError("func must be a function.")
        dataset = None
        for row in self.create_tuple_iterator(num_epochs=1, output_numpy=True):
            part = func(*row)
            if not isinstance(part, Dataset):
                raise TypeError("flat_map must return a Dataset object.")
            dataset = part if dataset is None else dataset + part
        if dataset is None:
            raise TypeError("flat_map must return a Dataset object.")
        return dataset

    def apply(self, apply_func):
        """``apply_func(self)``, which must return a Dataset.

        Raises:
            TypeError: when ``apply_func`` is not callable or returns something else.
        """
        from .engine import Dataset
        if not callable(apply_func):
            raise TypeError("apply_func must be a function.")
        dataset = apply_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return dataset

    def save(self, file_name, num_files=1, file_type='mindrecord'):
        """Write one epoch's rows to MindRecord files (hookgrad's format, read back by
        ``MindDataset``); see ``hookgrad.dataset.saving``."""
        from .saving import save
        save(self, file_name, num_files, file_type)

    # ----------------------------------------------------------------- pipeline queries
    def reset(self):
        """Nothing to reset: every iterator (and ``for`` loop) starts its epochs from the first
        row, as MindSpore's ``Dataset.reset`` leaves it. Returns None."""
        return None

    def get_class_indexing(self):
        """``{class name: label}`` of a labelled source, ``{}`` when there is none."""
        return self.children[0].get_class_indexing() if self.children else {}

    def get_repeat_count(self):
        """The count of the outermost ``repeat`` (-1: without end); 1 without one."""
        from .pipeline import RepeatDataset
        node = self
        while True:
            if isinstance(node, RepeatDataset):
                return node.count
            if not node.children:
                return 1
            node = node.children[0]

    def is_shuffled(self):
        """Whether the dataset or one of its inputs reads rows in a random order."""
        from .pipeline import ShuffleDataset
        from .samplers import DistributedSampler, SequentialSampler, SubsetSampler
        if isinstance(self, ShuffleDataset):
            return True
        sampler = self.__dict__.get('_sampler')
        if sampler is not None:
            if isinstance(sampler, DistributedSampler):
                if sampler.shuffle:
                    return True
            elif type(sampler) not in (SequentialSampler, SubsetSampler):
                return True
        return any(child.is_shuffled() for child in self.children)

    def is_sharded(self):
        """Whether the dataset or one of its inputs reads one shard (``num_shards``)."""
        from .samplers import DistributedSampler
        if isinstance(self.__dict__.get('_sampler'), DistributedSampler):
            return True
        return any(child.is_sharded() for child in self.children)

    def set_init_step(self, init_step):
        """Start iterators at global step ``init_step``: the first ``init_step`` rows (whole
        epochs count against ``num_epochs``) are read and dropped."""
        self.__dict__['_global_step'] = init_step

    def get_init_step(self):
        """The step given to ``set_init_step`` here or on the only input; 0 by default."""
        step = self.__dict__.get('_global_step')
        if step is not None:
            return step
        if len(self.children) == 1:
            return self.children[0].get_init_step()
        return 0

    def copy_batch_size(self, value):
        """Make ``get_batch_size()`` return ``value``."""
        self.__dict__['get_batch_size'] = _FixedBatchSize(value)

    @property
    def input_indexs(self):
        """The column order given to the network in sink mode: the value set here, else the
        first non-empty one of the inputs, else ``()``."""
        own = self.__dict__.get('_input_indexs', ())
        if own != ():
            return own
        for child in self.children:
            if child.input_indexs != ():
                return child.input_indexs
        return own

    @input_indexs.setter
    def input_indexs(self, value):
        self.__dict__['_input_indexs'] = value

    # ----------------------------------------------------------------- sync_wait helpers
    def get_sync_notifiers(self):
        """``{condition name: release function}`` of the ``sync_wait`` nodes of the pipeline
        (along first inputs, as MindSpore looks)."""
        from .combine import SyncWaitDataset
        below = self.children[0].get_sync_notifiers() if self.children else {}
        if isinstance(self, SyncWaitDataset):
            return {**below, self.condition_name: self.release}
        return below

    def disable_sync(self):
        """Let every row of the pipeline's ``sync_wait`` nodes pass from now on."""
        from .combine import SyncWaitDataset, find_nodes
        for node in find_nodes(self, SyncWaitDataset):
            node.disable()
        return {}

    def is_sync(self):
        """Whether the pipeline holds a ``sync_wait`` node."""
        from .combine import SyncWaitDataset, find_nodes
        return bool(find_nodes(self, SyncWaitDataset))

    # ----------------------------------------------------------------- MindSpore internals
    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        """MindSpore's transfer to a device data queue, which hookgrad does not have.

        Raises:
            TypeError: for arguments of the wrong type. NotImplementedError otherwise.
        """
        for name, value, kind in (('send_epoch_end', send_epoch_end, bool),
                                  ('create_data_info_queue', create_data_info_queue, bool),
                                  ('queue_name', queue_name, str)):
            if not isinstance(value, kind):
                raise _nodes().type_error(name, value, [kind])
        raise NotImplementedError(
            "Dataset.device_que: hookgrad has no device data queue (no dataset sink); iterate "
            "the dataset (create_tuple_iterator) and feed each batch to the network instead")

    def send(self, tensor=None, dst=0, group=None):
        """Send a row (or ``tensor``) to other ranks; see ``hookgrad.dataset.transfer``."""
        from .transfer import send
        return send(self, tensor, dst, group)

    def recv(self, src=0, group=None):
        """Receive what ``send`` sent from ``src``; see ``hookgrad.dataset.transfer``."""
        from .transfer import recv
        return recv(self, src, group)

    def parse(self, children=None):
        """MindSpore's C++ node of this dataset; hookgrad has none (NotImplementedError)."""
        _no_ir_tree('parse')

    def pre_parse(self, getter_mode):
        """Part of MindSpore's tree building; hookgrad has none (NotImplementedError)."""
        _no_ir_tree('pre_parse')

    def post_parse(self, ir_node):
        """Part of MindSpore's tree building; hookgrad has none (NotImplementedError)."""
        _no_ir_tree('post_parse')

    def parse_tree(self, getter_mode=False):
        """MindSpore's C++ IR tree; hookgrad has none (NotImplementedError)."""
        _no_ir_tree('parse_tree')

    def create_ir_tree(self, getter_mode=False):
        """MindSpore's C++ IR tree; hookgrad has none (NotImplementedError)."""
        _no_ir_tree('create_ir_tree')

    def iterator_bootstrap(self):
        """Part of MindSpore's tree building; hookgrad has none (NotImplementedError)."""
        _no_ir_tree('iterator_bootstrap')

    def pre_process(self, dataset):
        """Part of MindSpore's tree building; hookgrad has none (NotImplementedError)."""
        _no_ir_tree('pre_process')

