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
import layer_cases  # noqa: E402


def _listed(a):
    """``a`` as nested lists; float32 values in their shortest exact decimal form, NaN as
    null."""
    if a.dtype.kind != 'f':
        return a.tolist()
    if a.dtype == np.float32:
        flat = [None if np.isnan(v) else float(str(v)) for v in a.reshape(-1)]
    else:
        flat = [None if np.isnan(v) else float(v) for v in a.reshape(-1)]
    return np.array(flat, object).reshape(a.shape).tolist() if a.ndim else flat[0]


def encode(value):
    """A JSON form of a mint result: tensors as {dtype, shape, values}, tuples as lists."""
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if hasattr(value, 'asnumpy'):
        a = value.asnumpy()
        return {'dtype': str(value.dtype), 'shape': list(a.shape), 'values': _listed(a)}
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


def run_layer(ms, make, inputs, train):
    """A layer's output and its parameters afterwards (batch norm moves its statistics)."""
    layer = make(ms.mint.nn)
    params = sorted(layer.parameters_and_names(), key=lambda item: item[0])
    for name, p in params:
        p.set_data(ms.Tensor(layer_cases.parameter_values(name, p.shape), p.dtype))
    layer.set_train(train)
    out = layer(*(ms.Tensor(x) for x in inputs))
    return [out, [p for _, p in params]]


def layer_reference(ms, make, inputs, name):
    """A layer's case computed by its reference, in ``run_layer``'s form."""
    shapes = sorted((n, p.shape) for n, p in make(ms.mint.nn).parameters_and_names())
    values = {n: layer_cases.parameter_values(n, s) for n, s in shapes}
    result = layer_cases.REFERENCES[name](ms, ms.Tensor, values, inputs)
    output, moved = result if isinstance(result, tuple) else (result, {})
    params = [moved.get(n, ms.Tensor(values[n])) for n, _ in shapes]
    return [output, params]


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
    for name, (make, inputs, train) in layer_cases.LAYERS.items():
        key = f'mint.nn.{name}'
        try:
            out[key] = {'source': 'mint', 'value': settled(ms, lambda: run_layer(ms, make, inputs,
                                                                                 train))}
        except Exception as e:          # noqa: BLE001
            out[key] = {'source': None, 'error': str(e).splitlines()[0][:200]}
            if name in layer_cases.REFERENCES:
                try:
                    out[key] = {'source': 'reference', 'value': settled(
                        ms, lambda: layer_reference(ms, make, inputs, name))}
                except Exception as e2:     # noqa: BLE001
                    out[key]['error'] += ' / reference: ' + str(e2).splitlines()[0][:200]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mindspore_values.json')
    with open(path, 'w') as f:        # one line per case
        f.write('{\n' + ',\n'.join(f'{json.dumps(k)}: {json.dumps(out[k])}' for k in sorted(out))
                + '\n}\n')
    missing = sorted(k for k, v in out.items() if v['source'] is None)
    print(f"{len(out)} cases, {len(missing)} without values: {missing}")


if __name__ == '__main__':
    main()
