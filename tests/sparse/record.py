"""Records MindSpore 2.10's results of the sparse-tensor cases of cases.py into
mindspore_values.json (read by test_recorded.py). Run with MindSpore 2.10 installed (its CPU
sparse kernels need the ``decorator`` package for AKG): ``python tests/sparse/record.py``."""
import importlib.util
import json
import os

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mindspore_values.json')


def describe(out, ms):
    """A result as JSON: tensors by dtype, shape and values; sparse tensors by their fields and
    printed form."""
    if isinstance(out, str):
        return {'kind': 'text', 'text': out}
    if isinstance(out, tuple):
        return {'kind': 'tuple', 'items': [describe(o, ms) for o in out]}
    if isinstance(out, ms.COOTensor):
        return {'kind': 'coo', 'shape': list(out.shape), 'repr': repr(out),
                'indices': describe(out.indices, ms), 'values': describe(out.values, ms)}
    if isinstance(out, ms.CSRTensor):
        return {'kind': 'csr', 'shape': list(out.shape), 'repr': repr(out),
                'indptr': describe(out.indptr, ms), 'indices': describe(out.indices, ms),
                'values': describe(out.values, ms)}
    a = out.asnumpy()
    return {'kind': 'tensor', 'dtype': str(out.dtype), 'shape': list(a.shape),
            'values': a.tolist()}


def _cases():
    """cases.py beside this file, loaded by its path (another module named cases may be loaded)."""
    spec = importlib.util.spec_from_file_location(
        'sparse_cases', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cases.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


def main():
    import mindspore as ms          # here: the test collection imports this file without it
    cases = _cases()
    values = {}
    for name, case in cases.items():
        try:
            values[name] = describe(case(ms), ms)
        except Exception as e:      # noqa: BLE001  (recorded: the error MindSpore raises)
            values[name] = {'kind': 'error', 'type': type(e).__name__,
                            'message': str(e).splitlines()[0] if str(e) else ''}
    with open(PATH, 'w') as f:
        json.dump(values, f, indent=0, sort_keys=True)


if __name__ == '__main__':
    main()
