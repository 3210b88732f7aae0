"""List MindSpore 2.10's public names that hookgrad lacks.

MindSpore's names are read in an interpreter that has MindSpore (a scratch venv:
``python -m venv /tmp/ms && /tmp/ms/bin/pip install mindspore==2.10.0 "numpy<2"``); hookgrad's in
this one, under the names a MindSpore script uses (``mindspore.X`` is ``hookgrad.X``).

Run: python tools/missing_names.py --mindspore-python /tmp/ms/bin/python [--list] [--json F]
(``--names F`` reads a list written before by ``--dump F`` instead of running MindSpore.)
"""
import argparse
import importlib
import inspect
import json
import subprocess
import sys

MODULES = ['mindspore', 'mindspore.ops', 'mindspore.nn', 'mindspore.dataset', 'mindspore.train',
           'mindspore.amp', 'mindspore.communication', 'mindspore.context', 'mindspore.common',
           'mindspore.common.dtype', 'mindspore.common.initializer', 'mindspore.ops.operations',
           'mindspore.ops.functional', 'mindspore.ops.composite', 'mindspore.numpy',
           'mindspore.train.callback', 'mindspore.train.serialization', 'mindspore.nn.optim',
           'mindspore.nn.loss', 'mindspore.nn.metrics', 'mindspore.nn.wrap', 'mindspore.nn.layer',
           'mindspore.common.tensor', 'mindspore.common.parameter', 'mindspore.dataset.transforms',
           'mindspore.dataset.vision', 'mindspore.dataset.text', 'mindspore.runtime',
           'mindspore.hal', 'mindspore.device_context', 'mindspore.profiler']
# deeper modules real code imports from: their names are kept for hookgrad's modules of the same
# path (hookgrad/compat/mindspore_names.json), but not counted (their parents hold them all)
SUBMODULES = ['mindspore.ops.operations.nn_ops', 'mindspore.ops.operations.math_ops',
              'mindspore.ops.operations.array_ops', 'mindspore.ops.operations.other_ops',
              'mindspore.ops.operations.random_ops', 'mindspore.ops.operations.image_ops',
              'mindspore.ops.operations.comm_ops', 'mindspore.device_context.cpu',
              'mindspore.device_context.cpu.op_tuning', 'mindspore.device_context.gpu',
              'mindspore.device_context.gpu.op_precision',
              'mindspore.device_context.gpu.op_tuning', 'mindspore.device_context.ascend',
              'mindspore.ops.function.math_func', 'mindspore.ops.function.array_func',
              'mindspore.ops.function.nn_func', 'mindspore.ops.auto_generate']
CLASSES = {'Tensor': 'mindspore.Tensor', 'Cell': 'mindspore.nn.Cell',
           'Parameter': 'mindspore.Parameter'}


_NOISE = {'absolute_import', 'names'}


def _own(obj, path, name):
    """Whether ``obj`` (``path.name``) is MindSpore's own: a submodule of ``path``, or something
    defined in MindSpore (not a helper it imports from elsewhere)."""
    if inspect.ismodule(obj):
        return obj.__name__ == f'{path}.{name}'
    owner = getattr(obj, '__module__', None)
    return not isinstance(owner, str) or owner.startswith('mindspore')


def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith('_'))


def dump():
    """MindSpore's public names: {area: [names]} (run under MindSpore)."""
    import mindspore
    names = {}
    for path in MODULES + SUBMODULES:
        try:
            module = importlib.import_module(path)
        except Exception as e:                      # noqa: BLE001  (a module MindSpore lacks)
            names[path] = {'error': repr(e)}
            continue
        listed = getattr(module, '__all__', None)
        candidates = sorted(set(listed)) if listed else public(module)
        names[path] = [n for n in candidates if hasattr(module, n) and n not in _NOISE and
                       _own(getattr(module, n), path, n)]
    for name, path in CLASSES.items():
        owner, _, attr = path.rpartition('.')
        cls = getattr(importlib.import_module(owner), attr)
        names[name] = public(cls)
    names['_version'] = mindspore.__version__
    return names


def _hookgrad(path):
    """The hookgrad module a MindSpore module path names."""
    return importlib.import_module('hookgrad' + path[len('mindspore'):])


def resolve(path, name):
    """Whether ``path.name`` (a MindSpore path) resolves in hookgrad."""
    try:
        getattr(_hookgrad(path), name)
        return True
    except Exception:                               # noqa: BLE001  (missing: any failure)
        return False


def has_member(cls_path, name):
    owner, _, attr = cls_path.rpartition('.')
    try:
        return hasattr(getattr(_hookgrad(owner), attr), name)
    except Exception:                               # noqa: BLE001
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--mindspore-python', help="an interpreter that has MindSpore")
    parser.add_argument('--names', help="read MindSpore's names from this JSON file")
    parser.add_argument('--dump', help="(under MindSpore) write its names to this JSON file")
    parser.add_argument('--list', action='store_true', help="print every missing name")
    parser.add_argument('--json', help="write the missing names to this JSON file")
    args = parser.parse_args()
    if args.dump:
        with open(args.dump, 'w') as f:
            json.dump(dump(), f, indent=1)
        return
    if args.names:
        with open(args.names) as f:
            names = json.load(f)
    else:
        python = args.mindspore_python or sys.executable
        out = subprocess.run([python, __file__, '--dump', '/dev/stdout'], capture_output=True,
                             text=True, check=True)
        names = json.loads(out.stdout)
    total = have = 0
    missing = {}
    print(f"MindSpore {names.pop('_version')}: public names hookgrad lacks, by area")
    print(f"{'area':<32}{'names':>7}{'missing':>9}")
    for area, items in names.items():
        if area in SUBMODULES or area.startswith('_'):
            continue
        if isinstance(items, dict):
            print(f"{area:<32}{'(not importable under MindSpore)':>16}")
            continue
        if area in CLASSES:
            lacking = [n for n in items if not has_member(CLASSES[area], n)]
        else:
            lacking = [n for n in items if not resolve(area, n)]
        missing[area] = lacking
        total += len(items)
        have += len(items) - len(lacking)
        print(f"{area:<32}{len(items):>7}{len(lacking):>9}")
    print(f"{'all':<32}{total:>7}{total - have:>9}   ({have / total:.0%} present)")
    if args.list:
        for area, lacking in missing.items():
            if lacking:
                print(f"\n{area}: {', '.join(lacking)}")
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(missing, f, indent=1)


if __name__ == '__main__':
    main()
