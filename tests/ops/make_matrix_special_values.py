"""Records MindSpore 2.10's results of the matrix and special functions listed in
matrix_special_inputs.py into matrix_special_mindspore_values.json (read by
test_matrix_special_values.py). Run with MindSpore 2.10 installed:
``python tests/ops/make_matrix_special_values.py``."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matrix_special_inputs import CALLS, call  # noqa: E402


def main():
    import mindspore as ms          # here: the test collection imports this file without it
    import mindspore.ops as ops
    values = {}
    for name in CALLS:
        try:
            out = call(name, ms, ops, 'mindspore')
        except Exception as e:      # noqa: BLE001  (recorded: a call MindSpore's CPU lacks)
            print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
            continue
        outs = out if isinstance(out, (tuple, list)) else (out,)
        values[name] = {'outputs': [np.asarray(o.asnumpy()).tolist() for o in outs],
                        'dtypes': [str(o.dtype) for o in outs]}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'matrix_special_mindspore_values.json')
    with open(path, 'w') as f:
        json.dump(values, f, indent=0)


if __name__ == '__main__':
    main()
