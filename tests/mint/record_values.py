"""Record MindSpore 2.10's values of every case of ``cases.py`` into ``mindspore_values.json``.

Run from /tmp under MindSpore: ``/tmp/msvenv/bin/python /work/main/tests/mint/record_values.py``.
A case whose mint kernel MindSpore has only on Ascend is computed by its ``reference``, else by
the same call on ``mindspore.ops`` (most mint names are ops names with the same positional
arguments); one that has neither is recorded as missing and its test is skipped, saying so.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402


def encode(value):
    """A JSON form of a mint result: tensors as {dtype, shape, values}, tuples as lists."""
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if hasattr(value, 'asnumpy'):
        a = value.asnumpy()
        return {'dtype': str(value.dtype), 'shape': list(a.shape),
                'values': np.where(np.isnan(a), None, a).tolist() if a.dtype.kind == 'f'
                else a.tolist()}
    if isinstance(value, (bool, int, float)):
        return {'scalar': value}
    raise TypeError(f"cannot record {type(value).__name__}")


def settled(ms, attempt):
    """``attempt()`` encoded once MindSpore has finished it: kernels launch asynchronously, so
    without the synchronisation a failure surfaces in a later case."""
    try:
        value = encode(attempt())
        ms.runtime.synchronize()
        return value
    except Exception:
        try:
            ms.runtime.synchronize()
        except Exception:       # noqa: BLE001  (the failure already raised)
            pass
        raise


def fallback(ms, T, call, reference, error):
    """The case's value from its reference, else from the same call on ``mindspore.ops``."""
    attempts = [('reference', lambda: reference(ms, T))] if reference else []
    attempts.append(('ops', lambda: call(ms.ops, T)))
    for source, attempt in attempts:
        try:
            return {'source': source, 'value': settled(ms, attempt)}
        except Exception:           # noqa: BLE001
            continue
    return {'source': None, 'error': str(error).splitlines()[0][:200]}


def main():
    import mindspore as ms
    T = ms.Tensor
    out = {}
    for area, table in cases.AREAS.items():
        mod = cases.module(ms, area)
        for name, (call, reference) in table.items():
            key = f'{area}.{name}'
            try:
                out[key] = {'source': 'mint', 'value': settled(ms, lambda: call(mod, T))}
            except Exception as e:      # noqa: BLE001  (Ascend-only kernels raise RuntimeError)
                out[key] = fallback(ms, T, call, reference, e)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mindspore_values.json')
    with open(path, 'w') as f:        # one line per case
        f.write('{\n' + ',\n'.join(f'{json.dumps(k)}: {json.dumps(out[k])}' for k in sorted(out))
                + '\n}\n')
    missing = sorted(k for k, v in out.items() if v['source'] is None)
    print(f"{len(out)} cases, {len(missing)} without values: {missing}")


if __name__ == '__main__':
    main()
