"""``Schema`` (MindSpore's ``mindspore.dataset.Schema``): the columns a file source should
produce, by name, type and shape; read from or written as MindSpore's schema JSON."""
import json
import os

import numpy as np

from .. import _dtype

__all__ = ['Schema']

_TYPE_NAMES = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32',
               'uint64', 'float16', 'float32', 'float64', 'string', 'bytes')


def type_name(de_type):
    """MindSpore's schema name of a type: a hookgrad dtype, NumPy type or one of the names."""
    if isinstance(de_type, str):
        if de_type not in _TYPE_NAMES:
            raise TypeError("Unknown column type.")
        return de_type
    if de_type is _dtype.string or de_type is str:
        return 'string'
    try:
        return np.dtype(_dtype.to_numpy(de_type)).name
    except TypeError:
        raise TypeError(f"Argument de_type with value {de_type} is not a data type of a "
                        f"column: give a hookgrad or NumPy dtype or one of "
                        f"{list(_TYPE_NAMES)}.") from None


class Schema:
    """The columns of a dataset: ``add_column(name, de_type, shape)`` in order, or a schema
    JSON file (``{"columns": {name: {"type": ..., "rank": ..., "shape": [...]}}}``, or a list
    of ``{"name": ...}`` entries).

    Args:
        schema_file: path of a schema JSON file to load. Default None: an empty schema.
    """

    def __init__(self, schema_file=None):
        self.columns = []
        self.num_rows = None
        if schema_file is not None:
            if not isinstance(schema_file, str):
                raise TypeError(f"Argument schema_file with value {schema_file} is not of "
                                f"type [<class 'str'>], but got {type(schema_file)}.")
            if not os.path.isfile(schema_file):
                raise ValueError(f"The file {schema_file} does not exist or permission denied!")
            with open(schema_file) as f:
                try:
                    self.from_json(json.load(f))
                except json.JSONDecodeError:
                    raise RuntimeError(f"Schema file {schema_file} failed to load.") from None

    def add_column(self, name, de_type, shape=None):
        """Add a column ``name`` of type ``de_type`` and fixed ``shape`` (None: any shape)."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"Argument name with value {name!r} is not of type "
                            f"[<class 'str'>], or is empty.")
        column = {'name': name, 'type': type_name(de_type)}
        if shape is not None:
            if not isinstance(shape, (list, tuple)) or \
                    not all(isinstance(n, int) and not isinstance(n, bool) for n in shape):
                raise TypeError(f"Argument shape with value {shape} is not a list of int.")
            column['rank'] = len(shape)
            column['shape'] = list(shape)
        self.columns.append(column)

    def parse_columns(self, columns):
        """Replace the columns with those of ``columns``: a list of dicts with ``name`` or a
        dict ``{name: {type, rank, shape}}``."""
        if isinstance(columns, dict):           # by name, as MindSpore's JSON reader sorts
            columns = [dict(spec, name=name) for name, spec in sorted(columns.items())]
        if not isinstance(columns, list):
            raise TypeError("columns must be a dict or a list, got "
                            f"{type(columns).__name__}.")
        self.columns = []
        for spec in columns:
            if 'name' not in spec or 'type' not in spec:
                raise RuntimeError(f"Column's name and type are missing: {spec}.")
            self.add_column(spec['name'], spec['type'], spec.get('shape'))

    def from_json(self, json_obj):
        """Load the columns (and ``numRows``) from a parsed schema JSON object."""
        if 'columns' not in json_obj:
            raise RuntimeError("Columns are missing.")
        self.num_rows = json_obj.get('numRows')
        self.parse_columns(json_obj['columns'])

    def to_json(self):
        """The schema as MindSpore's JSON text."""
        out = {'columns': [{'name': c['name'], 'rank': c.get('rank', 1),   # as MindSpore's
                            **({'shape': c['shape']} if 'shape' in c else {}), 'type': c['type']}
                           for c in self.columns]}
        if self.num_rows is not None:
            out['numRows'] = self.num_rows
        return json.dumps(out, indent=2)

    @staticmethod
    def get_num_rows(schema):
        """``numRows`` of ``schema`` (a Schema or a schema file path), or None."""
        return (schema if isinstance(schema, Schema) else Schema(schema)).num_rows

    def __str__(self):
        return self.to_json()
