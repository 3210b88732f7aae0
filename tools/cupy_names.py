"""Record the names CuPy 14 has, for hookgrad's CUDA stand-in (hookgrad/kernels/fake_cuda.py).

The stand-in runs hookgrad's device path on NumPy in CI, where there is no GPU; it must not
accept what CuPy would refuse, so it offers only the names recorded here: the module-level
names of ``cupy`` and of the submodules hookgrad uses, the attributes of ``cupy.ndarray`` and of its
``flags``, the methods of CuPy's ufuncs and the names of ``cupyx``.

CuPy imports without a GPU, so this runs on any machine, in a scratch virtual environment:

    python3 -m venv /tmp/cupy && /tmp/cupy/bin/pip install 'cupy-cuda12x>=14,<15'
    /tmp/cupy/bin/python tools/cupy_names.py      # from the repository root

It writes hookgrad/kernels/cupy_names.json.
"""
import json
import os
import types

import cupy
import cupyx

SUBMODULES = ('linalg', 'random', 'fft', 'lib.stride_tricks')
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'hookgrad', 'kernels',
                   'cupy_names.json')


def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith('_'))


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
        'cupyx': public(cupyx),
    }
    with open(OUT, 'w') as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write('\n')
    print(f"CuPy {cupy.__version__}: {sum(map(len, modules.values()))} module names, "
          f"{len(record['ndarray'])} ndarray attributes -> {os.path.normpath(OUT)}")


if __name__ == '__main__':
    main()
