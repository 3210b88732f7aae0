"""How a Dataset method case is run and its rows encoded, shared by
tests/dataset/test_dataset_methods.py (on hookgrad) and tools/record_dataset_methods.py (on
MindSpore, which writes the values the test compares with). NumPy only."""
import numpy as np


def encode(value):
    """A row value as JSON: dtype, shape and values (byte strings decoded)."""
    value = np.asarray(value)
    data = value.tolist()
    if value.dtype.kind == 'S':
        data = np.char.decode(value, 'utf-8').tolist() if value.ndim else value.item().decode()
    return {'dtype': str(value.dtype), 'shape': list(value.shape), 'value': data}


def run(expr, env, message=str):
    """Build the dataset ``expr`` in ``env`` and read it: its column names, size and rows, or
    the error raised and the stage (build, names, size, iterate) that raised it."""
    stage = 'build'
    try:
        d = eval(expr, env)
        stage = 'names'
        names = d.get_col_names()
        stage = 'size'
        size = d.get_dataset_size()
        stage = 'iterate'
        rows = [[encode(v) for v in row]
                for row in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    except Exception as e:          # noqa: BLE001  (the error is part of the result)
        return {'error': type(e).__name__, 'stage': stage, 'message': message(e)}
    return {'names': names, 'size': size, 'rows': rows}
