"""Records MindSpore 2.10's results of the optimizer Primitive calls of
optimizer_primitives_more_inputs.py (outputs and the updated Parameters) into
optimizer_primitives_more_mindspore_values.json (read by test_optimizer_primitives_more.py).
Run with MindSpore 2.10 installed: ``python tests/ops/make_optimizer_primitives_more_values.py``.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from optimizer_primitives_more_inputs import CALLS, call  # noqa: E402


def main():
    import mindspore as ms          # here: the test collection imports this file without it
    from mindspore.ops import operations as P
    values = {}
    for name in CALLS:
        try:
            outs, params = call(name, ms, P)
            values[name] = {'outputs': [np.asarray(o.asnumpy()).tolist() for o in outs],
                            'parameters': [np.asarray(p.asnumpy()).tolist() for p in params]}
        except Exception as e:      # noqa: BLE001  (not recorded: a call MindSpore's CPU lacks)
            lines = [line for line in str(e).splitlines() if line.strip()]
            print(f"{name}: {type(e).__name__}: {lines[0][:200] if lines else ''}")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'optimizer_primitives_more_mindspore_values.json')
    with open(path, 'w') as f:
        json.dump(values, f, indent=0)


if __name__ == '__main__':
    main()
