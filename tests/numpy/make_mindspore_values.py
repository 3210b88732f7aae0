"""Write mindspore_values.json: MindSpore's results for every call in calls.py.

Run with a Python that has MindSpore 2.10 (CPU) installed, from the repository root:
``python tests/numpy/make_mindspore_values.py``. A call MindSpore rejects is run once more
in a fresh process (MindSpore may report an earlier failure again) and recorded as the error
it raises.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from calls import CALLS, arrays  # noqa: E402


def encode(value):
    """A result as JSON: Tensors as dtype, shape and values; sequences element-wise."""
    import numpy as np
    if hasattr(value, 'asnumpy'):
        a = value.asnumpy()
        return {'dtype': str(value.dtype), 'shape': list(a.shape),
                'values': a.astype(np.float64).tolist() if a.dtype.kind in 'fiub' else None}
    if isinstance(value, (tuple, list)):
        return {'sequence': [encode(v) for v in value]}
    if isinstance(value, (bool, int, float, str)):
        return {'python': value}
    return {'python': str(value)}


def evaluate(expr):
    import mindspore as ms
    import mindspore.numpy as mnp
    env = {name: ms.Tensor(a) for name, a in arrays().items()}
    env['mnp'] = mnp
    return encode(eval(expr, env))  # noqa: S307  (expressions of calls.py)


def main():
    if len(sys.argv) == 2:          # one call in a fresh process
        print(json.dumps(evaluate(sys.argv[1])))
        return
    out = {}
    for name, expr in CALLS:
        try:
            out[name] = evaluate(expr)
        except Exception:   # noqa: BLE001  (confirmed in a fresh process below)
            run = subprocess.run([sys.executable, __file__, expr], capture_output=True,
                                 text=True)
            if run.returncode == 0:
                out[name] = json.loads(run.stdout.strip().splitlines()[-1])
            else:
                last = [ln for ln in run.stderr.strip().splitlines() if ln.strip()][-1]
                out[name] = {'error': last[:300]}
        print(name, 'error' if 'error' in out[name] else 'ok', flush=True)
    with open(os.path.join(HERE, 'mindspore_values.json'), 'w') as f:
        json.dump(out, f, indent=0, sort_keys=True, allow_nan=True)


if __name__ == '__main__':
    main()
