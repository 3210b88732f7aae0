"""Call every public op of ``hookgrad.ops`` with bad inputs and grade the errors it raises.

Each functional op and each Primitive (constructed with its defaults) is called with a small
set of bad inputs built from its own parameter names (``inspect.signature``):

- ``type:<arg>``: every required argument a float tensor of shape (2, 3), one of them a string;
- ``empty``: every required argument an empty float tensor of shape (0, 3);
- ``mismatch``: required arguments alternate shapes (2, 3) and (4,);
- ``axis``: axis-like arguments (axis, dim, axes, ...) set to 5 for inputs of rank 2;
- ``ctor:<arg>``: a Primitive's constructor argument given a string.

Each raised exception is graded:

- ``a``: the message names the op and one of its arguments;
- ``b``: the message names the op only;
- ``c``: it comes from NumPy or Python internals: the traceback's last frame is outside
  hookgrad, or the message does not name the op.

Usage: ``python tools/probe_ops.py [--json FILE] [--worst N]``.
"""
import argparse
import collections
import inspect
import json
import os
import re
import signal
import sys
import traceback
import warnings

import numpy as np

import hookgrad as ms
import hookgrad.ops as O
from hookgrad.ops.operations._primitive import Primitive

PACKAGE = os.path.dirname(os.path.abspath(ms.__file__))
AXIS_NAMES = {'axis', 'dim', 'axes', 'dims', 'dim0', 'dim1', 'axis1', 'axis2', 'source',
              'destination', 'start_dim', 'end_dim', 'batch_dims'}
# ops that touch process-wide state or wait on something outside the call
SKIP = {'print_', 'Print', 'TensorDump', 'tensordump', 'set_seed'}


def _norm(text):
    return re.sub(r'[^a-z0-9]', '', text.lower())


def public_ops():
    """(name, callable, kind) for the functional ops and Primitives of hookgrad.ops."""
    found = []
    for name in sorted(dir(O)):
        if name.startswith('_') or name in SKIP:
            continue
        value = getattr(O, name)
        if inspect.isclass(value):
            if issubclass(value, Primitive) and value is not Primitive:
                found.append((name, value, 'primitive'))
        elif (inspect.isfunction(value)
              and getattr(value, '__module__', '').startswith('hookgrad.ops')):
            found.append((name, value, 'function'))
    return found


def _params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [p for p in sig.parameters.values()
            if p.name != 'self' and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD,
                                               p.KEYWORD_ONLY)]


def _good(shape=(2, 3)):
    return ms.Tensor(np.random.default_rng(0).random(shape).astype(np.float32) + 0.5)


def _cases(params):
    """(case name, args, kwargs) of bad inputs for a callable with these parameters."""
    required = [p for p in params if p.default is p.empty]
    pos = [p for p in required if p.kind != p.KEYWORD_ONLY]
    kw = [p for p in required if p.kind == p.KEYWORD_ONLY]

    def build(value_of):
        args = [value_of(i, p) for i, p in enumerate(pos)]
        kwargs = {p.name: value_of(len(pos) + i, p) for i, p in enumerate(kw)}
        return args, kwargs

    for target in required:
        yield (f'type:{target.name}',) + build(
            lambda i, p: 'bad' if p is target else _good())
    if required:
        yield ('empty',) + build(lambda i, p: ms.Tensor(np.zeros((0, 3), np.float32)))
    if len(required) > 1:
        yield ('mismatch',) + build(lambda i, p: _good((2, 3) if i % 2 == 0 else (4,)))
    axes = [p for p in params if p.name in AXIS_NAMES]
    if axes:
        args, kwargs = build(lambda i, p: 5 if p.name in AXIS_NAMES else _good())
        for p in axes:
            if p.default is not p.empty:
                kwargs[p.name] = 5
        yield ('axis', args, kwargs)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def grade(exc, names, arg_names):
    """'a', 'b' or 'c' for an exception raised by the op known by ``names``."""
    tb = traceback.extract_tb(exc.__traceback__)
    last = tb[-1].filename if tb else ''
    msg = str(exc)
    norm = _norm(msg)
    names_op = any(_norm(n) and _norm(n) in norm for n in names)
    words = set(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', msg))
    names_arg = any(a in words for a in arg_names)
    inside = os.path.abspath(last).startswith(PACKAGE)
    if not inside or not names_op:
        grade_ = 'c'
    else:
        grade_ = 'a' if names_arg else 'b'
    return grade_, names_op, names_arg, last


def _call(fn, args, kwargs):
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            np.seterr(all='ignore')
            fn(*args, **kwargs)
        return None
    except _Timeout:
        return 'timeout'
    except Exception as exc:    # grading every exception is the point of this tool
        return exc
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def probe():
    signal.signal(signal.SIGALRM, _alarm)
    records = []
    for name, obj, kind in public_ops():
        names = {name}
        if kind == 'primitive':
            ctor = _params(obj.__init__)
            arg_names = {p.name for p in ctor}
            for case, args, kwargs in _cases(ctor):
                if not case.startswith('type:'):
                    continue
                out = _call(obj, args, kwargs)
                records.append(_record(name, kind, 'ctor:' + case[5:], out, names, arg_names))
            try:
                target = obj()
            except Exception:       # needs constructor arguments: probed above only
                continue
            params = _params(type(target).__call__)
            arg_names |= {p.name for p in params}
            fn = target
        else:
            fn = obj
            names.add(obj.__name__)
            params = _params(obj)
            arg_names = {p.name for p in params}
        for case, args, kwargs in _cases(params):
            out = _call(fn, args, kwargs)
            records.append(_record(name, kind, case, out, names, arg_names))
    return records


def _record(name, kind, case, out, names, arg_names):
    rec = {'op': name, 'kind': kind, 'case': case}
    if out is None:
        rec['grade'] = 'accepted'
    elif out == 'timeout':
        rec['grade'] = 'timeout'
    else:
        g, names_op, names_arg, last = grade(out, names, arg_names)
        rec.update(grade=g, names_op=names_op, names_arg=names_arg,
                   error=f'{type(out).__name__}: {str(out)[:300]}', last_frame=last)
    return rec


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--json', metavar='FILE', help='write every record to FILE')
    parser.add_argument('--worst', type=int, default=25, help='offending ops to list')
    opts = parser.parse_args(argv)
    records = probe()
    counts = collections.Counter(r['grade'] for r in records)
    neither = sum(1 for r in records if r['grade'] in 'abc' and r['grade'] != 'accepted'
                  and not r['names_op'] and not r['names_arg'])
    print(f"ops probed: {len({(r['op'], r['kind']) for r in records})}, calls: {len(records)}")
    for key, label in (('a', 'names op and argument'), ('b', 'names op only'),
                       ('c', 'from internals or without the op name'),
                       ('accepted', 'no error'), ('timeout', 'ran over 2 s')):
        print(f"  {key:>8}: {counts.get(key, 0):5d}  {label}")
    print(f"  {'neither':>8}: {neither:5d}  names neither the op nor an argument")
    per_op = collections.Counter(r['op'] for r in records if r['grade'] == 'c')
    if per_op:
        print('worst offenders (grade c):')
        for op, n in per_op.most_common(opts.worst):
            example = next(r for r in records if r['op'] == op and r['grade'] == 'c')
            print(f"  {op:28s} {n:3d}  [{example['case']}] {example['error'][:90]}")
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump({'counts': dict(counts), 'neither': neither, 'records': records}, f,
                      indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
