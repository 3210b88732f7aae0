"""Record MindSpore 2.10's results for Tensor method calls (tests/test_tensor_methods_mindspore.py).

The calls are the expressions of tools/tensor_method_cases.py.

Run with a Python that has MindSpore 2.10 (CPU) installed, from the repository root:
``python tools/tensor_methods_mindspore.py``. It writes tests/tensor_methods_ms210.json: the
inputs, MindSpore's version and Tensor method names, and per case the result (dtype, shape and
values of each Tensor; tuples and lists element by element; Python values as they are) or the
error it raises. A call that raises is run once more in a fresh process (MindSpore may report an
earlier failure again) before its error is recorded.
"""
import json
import os
import subprocess
import sys

import numpy as np

from tensor_method_cases import CASES, RANDOM, arrays

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'tests', 'tensor_methods_ms210.json')


def encode(value, shape_only=False):
    """A result as JSON: Tensors as dtype, shape and values; sequences element-wise."""
    if hasattr(value, 'asnumpy'):
        a = value.asnumpy()
        values = None
        if not shape_only:
            values = a.astype(np.float64).tolist() if a.dtype.kind in 'fiub' else str(a.tolist())
        return {'dtype': str(value.dtype), 'shape': list(a.shape), 'values': values}
    if isinstance(value, (tuple, list)):
        return {'sequence': [encode(v, shape_only) for v in value],
                'kind': type(value).__name__}
    if isinstance(value, np.ndarray):
        return {'ndarray': str(value.dtype), 'shape': list(value.shape),
                'values': value.astype(np.float64).tolist()}
    if type(value).__module__.startswith('mindspore'):     # a dtype
        return {'mstype': str(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {'python': value, 'kind': type(value).__name__}
    return {'python': str(value), 'kind': type(value).__name__}


def evaluate(method, expr):
    import mindspore as ms
    env = {name: ms.Tensor(a) for name, a in arrays().items()}
    env.update(ms=ms, np=np)
    return encode(eval(expr, env), method in RANDOM)  # noqa: S307  (the expressions above)


def main():
    if len(sys.argv) == 3:          # one call in a fresh process
        print(json.dumps(evaluate(sys.argv[1], sys.argv[2])))
        return
    import mindspore as ms
    cases = []
    for method, exprs in CASES.items():
        for expr in exprs:
            try:
                result = evaluate(method, expr)
            except Exception:   # noqa: BLE001  (confirmed in a fresh process below)
                run = subprocess.run([sys.executable, __file__, method, expr],
                                     capture_output=True, text=True)
                if run.returncode == 0:
                    result = json.loads(run.stdout.strip().splitlines()[-1])
                else:
                    lines = [ln for ln in run.stderr.strip().splitlines() if ln.strip()]
                    error = next((ln for ln in reversed(lines) if 'Error' in ln.split(':')[0]),
                                 lines[-1] if lines else 'error')
                    result = {'error': error[:300]}
            cases.append({'method': method, 'expr': expr, 'result': result})
            print(method, expr, 'error' if 'error' in result else 'ok', flush=True)
    data = {
        'mindspore': ms.__version__,
        'methods': sorted(n for n in dir(ms.Tensor) if not n.startswith('_')),
        'arrays': {name: {'dtype': str(a.dtype), 'values': a.tolist()}
                   for name, a in arrays().items()},
        'random': sorted(RANDOM),
        'cases': cases,
    }
    with open(OUT, 'w') as f:
        json.dump(data, f, indent=0, allow_nan=True)


if __name__ == '__main__':
    main()
