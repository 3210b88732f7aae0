"""Record the names CuPy 14 has, for hookgrad's CUDA stand-in (hookgrad/kernels/fake_cuda.py).

The stand-in runs hookgrad's device path on NumPy in CI, where there is no GPU; it must not
accept what CuPy would refuse, so it offers only the names recorded here: the module-level names
of ``cupy`` and of the submodules hookgrad uses, the attributes of ``cupy.ndarray`` and of its
``flags``, the methods of CuPy's ufuncs and the names of ``cupyx``; ``cupy.cuda``'s names and
the members of its memory, device, stream, event and graph classes, and cuBLAS's compute types
(``cupy._core._routines_linalg``); the parameters of CuPy's functions, of ``ndarray``'s methods
and of the ufunc methods, and which ufuncs each method supports (CuPy documents these, the first
ones by their signatures).

CuPy imports without a GPU, so this runs on any machine, in a scratch virtual environment:

    python3 -m venv /tmp/cupy && /tmp/cupy/bin/pip install 'cupy-cuda12x>=14,<15'
    /tmp/cupy/bin/python tools/cupy_names.py      # from the repository root

It writes hookgrad/kernels/cupy_names.json.
"""
import inspect
import json
import os
import re
import types

import cupy
import cupyx

SUBMODULES = ('linalg', 'random', 'fft', 'lib.stride_tricks')
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'hookgrad', 'kernels',
                   'cupy_names.json')


CUDA_CLASSES = ('MemoryPool', 'MemoryPointer', 'MemoryHook', 'Device', 'Stream', 'Event', 'Graph')


def public_constants(module, prefix):
    """``{name: value}`` of the int constants of ``module`` whose names start with ``prefix``."""
    return {n: getattr(module, n) for n in dir(module)
            if n.startswith(prefix) and isinstance(getattr(module, n), int)}


def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith('_'))


def parameters(fn):
    """The parameter names ``fn`` takes (``'*'`` where it takes any), from its signature or
    from the first line of its docstring (CuPy's compiled methods); None when neither says."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        first = (fn.__doc__ or '').split('\n', 1)[0]
        match = re.match(r'[\w.]+\((.*)\)', first)
        if match is None:
            return None
        names = []
        for part in match.group(1).split(','):
            part = part.strip().split('=')[0].strip()
            if part in ('self', '/', '*', ''):
                continue
            names.append('*' if part.startswith('*') else part)
        return names
    return ['*' if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) else p.name
            for p in sig.parameters.values()]


def main():
    modules = {}
    for name in ('',) + SUBMODULES:
        obj = cupy
        for part in filter(None, name.split('.')):
            obj = getattr(obj, part)
        modules[name] = [n for n in public(obj)
                         if not isinstance(getattr(obj, n, None), types.ModuleType)
                         or n in {s.split('.')[0] for s in SUBMODULES}]
    record = {
        'version': cupy.__version__,
        'modules': modules,
        'ndarray': public(cupy.ndarray) + ['__array_priority__', '__dlpack__'],
        'ufunc': public(cupy.add),
        'flags': public(cupy._core.flags.Flags),
        'signatures': {
            name: parameters(getattr(cupy, name)) for name in modules['']
            if callable(getattr(cupy, name)) and not isinstance(getattr(cupy, name), type)
            and not isinstance(getattr(cupy, name), cupy.ufunc)
            and parameters(getattr(cupy, name)) is not None},
        'ndarray_signatures': {
            name: parameters(getattr(cupy.ndarray, name)) for name in public(cupy.ndarray)
            if callable(getattr(cupy.ndarray, name, None))
            and parameters(getattr(cupy.ndarray, name)) is not None},
        'ufunc_signatures': {name: parameters(getattr(cupy.ufunc, name))
                             for name in ('__call__', 'reduce', 'accumulate', 'reduceat', 'at',
                                          'outer')},
        # the ufuncs each method supports, as CuPy documents them (github.com/cupy/cupy #7082)
        'ufunc_methods': {'at': ['add', 'maximum', 'minimum', 'bitwise_and', 'bitwise_or',
                                 'bitwise_xor'],
                          'reduce': ['add', 'multiply'], 'accumulate': ['add'],
                          'reduceat': ['add']},
        'cupyx': public(cupyx),
        # the runtime: cupy.cuda's names and the members of the classes the stand-in emulates
        'cuda': dict({'': public(cupy.cuda), 'runtime': public(cupy.cuda.runtime)},
                     **{name: public(getattr(cupy.cuda, name)) for name in CUDA_CLASSES}),
        'compute_types': public_constants(cupy._core._routines_linalg, 'COMPUTE_TYPE_'),
    }
    with open(OUT, 'w') as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write('\n')
    print(f"CuPy {cupy.__version__}: {sum(map(len, modules.values()))} module names, "
          f"{len(record['ndarray'])} ndarray attributes -> {os.path.normpath(OUT)}")


if __name__ == '__main__':
    main()
