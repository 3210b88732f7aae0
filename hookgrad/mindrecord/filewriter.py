"""``FileWriter``: rows of a schema written to hookgrad MindRecord shard files."""
import numbers
import os

from . import shard
from .exceptions import (MRMAddSchemaError, MRMDefineIndexError, ParamTypeError,
                         ParamValueError)

__all__ = ['FileWriter']


class FileWriter:
    """Write rows (dicts of schema fields) to ``shard_num`` shard files, read back by
    ``hookgrad.dataset.MindDataset``.

    The files are hookgrad's own format (one safetensors file per shard, see docs/data.md),
    not MindSpore's binary one. Rows are kept in memory until ``commit`` writes the files; with
    several shards, the rows are cut into ``shard_num`` consecutive runs (the last one takes the
    remainder), as MindSpore does.

    Args:
        file_name: the path of the file; with ``shard_num > 1`` the shards are ``file_name``
            followed by ``0``, ``1``... .
        shard_num: the number of shard files, an int in [1, 1000].
        overwrite: replace existing files. Default False: ``write_raw_data`` raises when a
            shard file exists.

    Raises:
        ParamValueError: for a non-str ``file_name``, a missing folder or a bad ``shard_num``.

    >>> import os, tempfile
    >>> from hookgrad.mindrecord import FileWriter
    >>> from hookgrad.dataset import MindDataset
    >>> path = os.path.join(tempfile.mkdtemp(), 'd.mindrecord')
    >>> w = FileWriter(path)
    >>> w.add_schema({'label': {'type': 'int32'}, 'name': {'type': 'string'}}, 'toy')
    >>> w.write_raw_data([{'label': 1, 'name': 'a'}, {'label': 2, 'name': 'b'}])
    >>> w.commit()
    >>> [int(r['label']) for r in MindDataset(path, shuffle=False)
    ...     .create_dict_iterator(output_numpy=True)]
    [1, 2]
    """

    def __init__(self, file_name, shard_num=1, overwrite=False):
        if not isinstance(file_name, str):
            raise ParamValueError(f"Invalid parameter value. File path: {file_name} is not "
                                  f"string.")
        if isinstance(shard_num, bool) or not isinstance(shard_num, numbers.Integral):
            raise ParamValueError("Invalid parameter value. Parameter shard_num's type is not "
                                  "int.")
        if not 1 <= shard_num <= 1000:
            raise ParamValueError(f"Invalid parameter value. Parameter shard_num's value: "
                                  f"{shard_num} should between 1 and 1000.")
        if not isinstance(overwrite, bool):
            raise ParamValueError(f"Invalid parameter value. Parameter overwrite's type is not "
                                  f"bool, got {overwrite!r}.")
        folder = os.path.dirname(os.path.abspath(file_name))
        if not os.path.isdir(folder):
            raise ParamValueError(f"Invalid parameter value. The folder {folder} of file_name "
                                  f"does not exist.")
        self._paths = [file_name] if shard_num == 1 else \
            [f"{file_name}{i}" for i in range(shard_num)]
        self._overwrite = overwrite
        self._schema = None
        self._desc = None
        self._index = []
        self._rows = []
        self._checked_files = False
        self._committed = False

    def add_schema(self, content, desc=None):
        """Set the schema: ``{field: {'type': T, 'shape': [...]}}``, T one of int32, int64,
        float32, float64, string, bytes; ``shape`` (numeric fields only, at most one -1) makes
        the field an array. Returns None.

        Raises:
            MRMInvalidSchemaError: for a malformed schema. MRMAddSchemaError: for a second one.
        """
        if self._schema is not None:
            raise MRMAddSchemaError("Failed to add schema: a FileWriter takes one schema.")
        shard.check_schema(content)
        if desc is not None and not isinstance(desc, str):
            raise ParamTypeError(f"Invalid parameter type. 'desc' expect str type, got "
                                 f"{type(desc).__name__}.")
        self._schema = {k: dict(v) for k, v in content.items()}
        self._desc = desc

    def add_index(self, index_fields):
        """Record ``index_fields`` (scalar fields of the schema) in the files' metadata.

        Raises:
            ParamTypeError: for a non-list. RuntimeError: for a name not in the schema or before
            ``add_schema``. MRMDefineIndexError: for an array or bytes field.
        """
        if not isinstance(index_fields, list) or not index_fields:
            raise ParamTypeError("Invalid parameter type. 'index_fields' expect a non-empty "
                                 "list.")
        schema = self._need_schema('add_index')
        for name in index_fields:
            if name not in schema:
                raise RuntimeError(f"FileWriter.add_index: 'index_fields': {name} can not found "
                                   f"in schema: {schema}")
            if 'shape' in schema[name] or schema[name]['type'] == 'bytes':
                raise MRMDefineIndexError(f"Failed to define index field. Detail: Failed to "
                                          f"set field {name} since it's not primitive type.")
        self._index = list(dict.fromkeys(self._index + index_fields))

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Check and keep rows: a list of dicts holding every schema field (other keys are
        ignored, as in MindSpore). Returns None.

        Raises:
            ParamTypeError: when ``raw_data`` is not a list of dicts. RuntimeError: without a
            schema, after ``commit``, when a shard file exists and ``overwrite`` is False, or
            for a row with a missing field or a value of the wrong type or shape.
        """
        if not isinstance(raw_data, list):
            raise ParamTypeError("Invalid parameter type. 'raw_data' expect list type.")
        if not isinstance(parallel_writer, bool):
            raise ParamTypeError("Invalid parameter type. 'parallel_writer' expect bool type.")
        schema = self._need_schema('write_raw_data')
        self._check_files()
        checked = []
        for k, row in enumerate(raw_data, start=len(self._rows)):
            if not isinstance(row, dict):
                raise ParamTypeError(f"Invalid parameter type. 'raw_data' expect a list of "
                                     f"dict, got {type(row).__name__} at row {k}.")
            missing = [name for name in schema if name not in row]
            if missing:
                raise RuntimeError(f"FileWriter.write_raw_data: row {k} lacks the fields "
                                   f"{missing} of the schema")
            checked.append({name: shard.check_value(name, field, row[name], k)
                            for name, field in schema.items()})
        self._rows.extend(checked)

    def commit(self):
        """Write the shard files. Returns None.

        Raises:
            RuntimeError: without a schema, when called twice, or when a file exists and
            ``overwrite`` is False.
        """
        schema = self._need_schema('commit')
        self._check_files()
        n, shards = len(self._rows), len(self._paths)
        per = n // shards
        starts = [i * per for i in range(shards)] + [n]
        names = [os.path.basename(p) for p in self._paths]
        for i, path in enumerate(self._paths):
            shard.write_shard(path, schema, self._desc, self._index,
                              self._rows[starts[i]:starts[i + 1]], i, names)
        self._rows = []
        self._committed = True

    def set_header_size(self, header_size):
        """Accepted for MindSpore compatibility (an int); hookgrad's files have no pages."""
        if isinstance(header_size, bool) or not isinstance(header_size, numbers.Integral):
            raise ParamTypeError("Invalid parameter type. 'header_size' expect int type.")

    def set_page_size(self, page_size):
        """Accepted for MindSpore compatibility (an int); hookgrad's files have no pages."""
        if isinstance(page_size, bool) or not isinstance(page_size, numbers.Integral):
            raise ParamTypeError("Invalid parameter type. 'page_size' expect int type.")

    def _need_schema(self, who):
        if self._committed:
            raise RuntimeError(f"FileWriter.{who}: the files are already committed; make a new "
                               f"FileWriter to write more")
        if self._schema is None:
            raise RuntimeError(f"FileWriter.{who}: schema is not found, please use "
                               f"'add_schema' to add a schema for new mindrecord files.")
        return self._schema

    def _check_files(self):
        if self._checked_files:
            return
        existing = [p for p in self._paths if os.path.exists(p)]
        if existing and not self._overwrite:
            raise RuntimeError(f"FileWriter: invalid file, mindrecord files already exist: "
                               f"{existing}; pass overwrite=True to replace them")
        for p in existing:
            os.remove(p)
        self._checked_files = True
