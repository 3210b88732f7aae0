"""``FileReader``: the rows of hookgrad MindRecord files as dicts, without a pipeline."""
from . import shard
from .exceptions import ParamTypeError

__all__ = ['FileReader']


class FileReader:
    """Read the rows of hookgrad MindRecord files (written by ``FileWriter``) in order.

    Args:
        file_name: one shard file (standing for all shards of its set) or a list of files.
        num_consumer: accepted for MindSpore compatibility (an int); rows are read in this
            thread.
        columns: the fields to read (a list of names). Default None: all.
        operator: only None (MindSpore's decryption operator).

    Raises:
        ParamTypeError: for arguments of the wrong type. ValueError: for a missing file.
        RuntimeError: for a file that is not a hookgrad MindRecord file (MindSpore's binary
        .mindrecord files included) or an unknown column.
    """

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        if not isinstance(file_name, str) and not (
                isinstance(file_name, list) and file_name and
                all(isinstance(f, str) for f in file_name)):
            raise ParamTypeError("Invalid parameter type. 'file_name' expect str or a list of "
                                 "str.")
        if isinstance(num_consumer, bool) or not isinstance(num_consumer, int):
            raise ParamTypeError("Invalid parameter type. 'num_consumer' expect int type.")
        if operator is not None:
            raise ValueError("FileReader: operator is not supported: hookgrad's MindRecord "
                             "files are not encrypted")
        schema, self._columns, self._n, _ = shard.read_shards(file_name, 'FileReader')
        names = list(schema) if columns is None else columns
        if not isinstance(names, list) or not all(isinstance(c, str) for c in names):
            raise ParamTypeError("Invalid parameter type. 'columns' expect a list of str.")
        unknown = [c for c in names if c not in schema]
        if unknown:
            raise RuntimeError(f"FileReader: columns {unknown} are not in the schema "
                               f"{list(schema)}")
        self._names = names
        self._schema = schema

    def get_next(self):
        """Yield each row as a dict: scalars as Python int/float/str/bytes, arrays as
        ``np.ndarray`` (as MindSpore's FileReader does)."""
        for i in range(self._n):
            row = {}
            for name in self._names:
                value = self._columns[name][i]
                if value.dtype.kind == 'S':
                    row[name] = bytes(value[0])
                elif value.ndim == 0:
                    row[name] = value.item()
                else:
                    row[name] = value
            yield row

    def len(self):
        """The number of rows."""
        return self._n

    def schema(self):
        """The schema the files were written with."""
        return {k: dict(v) for k, v in self._schema.items()}

    def close(self):
        """Release the files' data (kept for MindSpore compatibility)."""
        self._columns = {}
        self._n = 0
