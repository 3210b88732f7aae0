"""MindSpore 2.10's ``mindspore.mint`` names and signatures, and which of them hookgrad has.

Under an interpreter with MindSpore (``/tmp/msvenv/bin/python tools/mint_names.py --dump F``)
it writes ``{module: {name: {signature, parameters, defaults} or null}}`` for mint and its
submodules as JSON. Under hookgrad's (``python tools/mint_names.py --names F [--list]``) it
reads that file and reports, per module, how many names resolve in hookgrad (``mindspore.X``
is ``hookgrad.X``) and, with ``--list``, the ones that do not.
"""
import argparse
import importlib
import inspect
import json
import sys

MODULES = ['mindspore.mint', 'mindspore.mint.nn', 'mindspore.mint.nn.functional',
           'mindspore.mint.optim', 'mindspore.mint.special', 'mindspore.mint.linalg',
           'mindspore.mint.distributed']


def _signature(obj):
    """``{'signature': text, 'parameters': [names], 'defaults': {name: repr}}``, or None where
    Python cannot say."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return {'signature': str(sig), 'parameters': list(sig.parameters),
            'defaults': {n: repr(p.default) for n, p in sig.parameters.items()
                         if p.default is not p.empty}}


def dump():
    """{module: {name: signature}} of MindSpore's mint (run under MindSpore)."""
    result = {}
    for path in MODULES:
        module = importlib.import_module(path)
        names = {}
        for name in sorted(dir(module)):
            obj = getattr(module, name)
            if name.startswith('_') or inspect.ismodule(obj):
                continue
            names[name] = _signature(obj)
        result[path] = names
    return result


def resolve(names):
    """{module: (present, missing)} for hookgrad (run under hookgrad)."""
    import hookgrad
    report = {}
    for path, members in names.items():
        module_path = 'hookgrad' + path[len('mindspore'):]
        try:
            module = importlib.import_module(module_path)
        except ImportError:
            report[path] = ([], sorted(members))
            continue
        present = [n for n in sorted(members) if _has(module, n)]
        report[path] = (present, [n for n in sorted(members) if n not in present])
    del hookgrad
    return report


def _has(module, name):
    try:
        getattr(module, name)
    except AttributeError:
        return False
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--dump', help='write MindSpore\'s mint names to this JSON file')
    parser.add_argument('--names', help='read the names written by --dump')
    parser.add_argument('--list', action='store_true', help='list the names hookgrad lacks')
    args = parser.parse_args(argv)
    if args.dump:
        with open(args.dump, 'w') as f:
            json.dump(dump(), f, indent=1, sort_keys=True)
        return 0
    if not args.names:
        parser.error('give --dump F (under MindSpore) or --names F (under hookgrad)')
    with open(args.names) as f:
        names = json.load(f)
    total_present = total = 0
    for path, (present, missing) in resolve(names).items():
        total_present += len(present)
        total += len(present) + len(missing)
        print(f'{path}: {len(present)}/{len(present) + len(missing)}')
        if args.list and missing:
            print('  missing: ' + ' '.join(missing))
    print(f'all: {total_present}/{total}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
