"""Which of MindSpore 2.10's Tensor method signatures hookgrad refuses: a count, and the list.

MindSpore 2.10's Tensor methods accept several signatures each (the NumPy-style one and a
PyTorch-style one: ``sum(axis, dtype, keepdims)`` and ``sum(dim, keepdim, *, dtype)``); their
docstrings list them. This script reads them under MindSpore, calls every signature with
arguments chosen by parameter name (keywords by name, so that a spelling is what is tested), and
records what MindSpore returns; then it makes the same calls on hookgrad and counts the calls
MindSpore answers and hookgrad refuses or answers differently.

    /tmp/ms/bin/python tools/tensor_overloads.py --record /tmp/overloads.json   # MindSpore 2.10
    .venv/bin/python tools/tensor_overloads.py --check /tmp/overloads.json [--list]
"""
import argparse
import json
import re
import sys

import numpy as np

# argument values by parameter name; 'X' is the tensor the method is called on (2 x 3 float32)
VALUES = {
    'dim': 0, 'axis': 0, 'dim0': 0, 'dim1': 1, 'start_dim': 0, 'end_dim': -1, 'dims': (1, 0),
    'axes': (1, 0), 'keepdim': True, 'keepdims': True, 'keep_dims': True, 'correction': 1,
    'ddof': 1, 'unbiased': True, 'rounding_mode': 'floor', 'alpha': 2, 'beta': 1,
    'other': 'Y', 'input': 'Y', 'src': 'Y', 'exponent': 'Y', 'y': 'Y', 'tensor': 'Y',
    'index': 'I', 'indices': 'I', 'k': 1, 'largest': True, 'sorted': True, 'descending': True,
    'stable': True, 'p': 2, 'shape': (3, 2), 'size': (3, 2), 'sizes': (3, 2), 'diagonal': 0,
    'offset': 0, 'min': -1.0, 'max': 1.0, 'value': 0.5, 'decimals': 1, 'split_size_or_sections':
    1, 'chunks': 2, 'repeats': 2, 'reps': (1, 2), 'multiples': (1, 2), 'q': 0.5, 'start': 0,
    'end': 1, 'length': 1, 'step': 1, 'weight': 0.5, 'lambd': 0.5, 'threshold': 0.5,
    'dtype': 'float32', 'memory_format': None, 'non_blocking': False, 'copy': False,
    'out': None, 'approximate': 'none', 'nan': 0.0, 'posinf': 1.0, 'neginf': -1.0,
    'interpolation': 'linear', 'return_inverse': False, 'return_counts': False,
    'num_samples': 1, 'replacement': True, 'generator': None, 'pad': (1, 1), 'mode': 'constant',
    'exclusive': False, 'reverse': False, 'initial': None, 'where': True, 'atol': 1e-8,
    'rtol': 1e-5, 'equal_nan': False, 'n': 1, 'prepend': None, 'append': None, 'bins': 2,
}
SKIP = {'item', 'itemset', 'asnumpy', 'numpy', 'tolist', 'register_hook', 'remove_hook',
        'data_sync', 'set_dtype', 'init_data', 'assign_value', 'assign_value_cpp', 'to_coo',
        'to_csr', 'storage', 'untyped_storage', 'data_ptr', 'pin_memory', 'offload',
        'move_to', 'from_numpy', 'from_dlpack', 'to_dlpack', 'contiguous', 'set_const_arg'}
_SIG = re.compile(r"^(?:\.\. method:: Tensor\.)?(\w+)\((.*?)\)\s*->")


def signatures(name, doc):
    """The parameter lists of ``name``'s signatures in its docstring (each a list of
    ``(name, kind)``, kind 'pos', 'kw' (after ``*``) or 'var' (``*args``))."""
    out = []
    for line in (doc or '').splitlines():
        m = _SIG.match(line.strip())
        if not m or m.group(1) != name:
            continue
        params, kind = [], 'pos'
        for part in filter(None, (p.strip() for p in m.group(2).split(','))):
            if part == '*':
                kind = 'kw'
                continue
            bare = part.split('=')[0].strip()
            if bare.startswith('*'):
                params.append((bare.lstrip('*'), 'var'))
                kind = 'kw'
                continue
            params.append((bare, kind))
        if params not in out:
            out.append(params)
    return out


def calls(params):
    """The source of the call of one signature: required-looking parameters by position where
    they come first, every known one by keyword after them; None when a name is unknown."""
    args = []
    for name, kind in params:
        if name == 'self':
            continue
        if name not in VALUES:
            return None
        value = VALUES[name]
        text = {'Y': 'Y', 'I': 'I'}.get(value, repr(value)) if isinstance(value, str) else \
            repr(value)
        if name == 'dtype':
            text = 'ms.float32'
        if kind == 'var':
            args.append(', '.join(map(repr, value)) if isinstance(value, tuple) else text)
        else:
            args.append(f"{name}={text}")
    return ', '.join(args)


def environment(ms):
    x = np.array([[0.5, -1.25, 2.0], [3.5, 0.25, -0.75]], np.float32)
    return {'ms': ms, 'np': np, 'X': ms.Tensor(x), 'Y': ms.Tensor(x[::-1].copy()),
            'I': ms.Tensor(np.array([[0, 1, 0], [1, 0, 1]], np.int64))}


def result(value):
    if hasattr(value, 'asnumpy'):
        a = value.asnumpy()
        return {'shape': list(a.shape), 'dtype': str(a.dtype),
                'values': np.nan_to_num(a.astype(np.float64)).round(5).tolist()
                if a.dtype.kind in 'biuf' else None}
    if isinstance(value, (tuple, list)):
        return [result(v) for v in value]
    return repr(value) if not isinstance(value, (int, float, bool, str)) else value


def record(path):
    import mindspore as ms
    rows = []
    for name in sorted(n for n in dir(ms.Tensor) if not n.startswith('_') and n not in SKIP):
        member = getattr(ms.Tensor, name, None)
        if not callable(member):
            continue
        for params in signatures(name, member.__doc__):
            source = calls(params)
            if source is None:
                continue
            expr = f"X.{name}({source})"
            try:                    # fresh inputs: in-place methods change theirs
                rows.append({'method': name, 'expr': expr,
                             'result': result(eval(expr, environment(ms)))})
            except Exception as e:          # noqa: BLE001  (MindSpore refuses the call)
                rows.append({'method': name, 'expr': expr, 'error': type(e).__name__})
    with open(path, 'w') as f:
        json.dump(rows, f, indent=1)
    print(f"{len(rows)} calls recorded, {sum('error' not in r for r in rows)} answered")


def check(path, show):
    import hookgrad as ms
    with open(path) as f:
        rows = json.load(f)
    answered = [r for r in rows if 'error' not in r]
    refused, differ = [], []
    for r in answered:
        try:
            got = result(eval(r['expr'], environment(ms)))
        except Exception as e:              # noqa: BLE001
            refused.append((r['expr'], f"{type(e).__name__}: {str(e)[:100]}"))
            continue
        if got != r['result']:
            differ.append((r['expr'], f"{got} != MindSpore's {r['result']}"[:160]))
    print(f"MindSpore 2.10 answers {len(answered)} of {len(rows)} signature calls; hookgrad "
          f"refuses {len(refused)} and answers {len(differ)} differently")
    if show:
        for expr, why in refused:
            print(f"refused  {expr}  -- {why}")
        for expr, why in differ:
            print(f"differs  {expr}  -- {why}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--record', help="(under MindSpore) write its answers to this file")
    parser.add_argument('--check', help="compare hookgrad with the answers in this file")
    parser.add_argument('--list', action='store_true', help="print each refused call")
    args = parser.parse_args()
    if args.record:
        record(args.record)
    elif args.check:
        check(args.check, args.list)
    else:
        parser.error("give --record or --check")


if __name__ == '__main__':
    sys.exit(main())
