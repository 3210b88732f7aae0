"""The ``hookgrad`` command.

``hookgrad run script.py [args...]`` runs a MindSpore script unchanged: ``import mindspore`` and
every ``mindspore.X`` resolve to hookgrad (hookgrad.compat.alias_mindspore) for that run only,
then the script runs as ``__main__`` with ``sys.argv`` set to the script and its arguments.
``hookgrad run -m package.module [args...]`` runs a module the same way.
"""
import argparse
import runpy
import sys

from .compat import alias_mindspore
from .compat.names import NotAvailableImport, in_mindspore


def main(argv=None):
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog='hookgrad', description="hookgrad: run MindSpore code on hookgrad")
    commands = parser.add_subparsers(dest='command', required=True)
    run = commands.add_parser('run', help="run a MindSpore script (or -m module) unchanged")
    run.add_argument('-m', dest='module', help="run a module, as python -m does")
    run.add_argument('target', nargs='?', help="the script")
    run.add_argument('args', nargs=argparse.REMAINDER, help="its arguments")
    args = parser.parse_args(argv)
    if args.module is None and args.target is None:
        parser.error("run: give a script, or -m and a module")
    return run_mindspore(args.target, args.args, module=args.module)


def run_mindspore(path, args=(), module=None):
    """Run script ``path`` (or ``module``) with ``mindspore`` resolving to hookgrad."""
    alias_mindspore()
    if module is not None:
        sys.argv = [module] + ([path] if path else []) + list(args)
    else:
        sys.argv = [path] + list(args)
    try:
        if module is not None:
            runpy.run_module(module, run_name='__main__', alter_sys=True)
        else:
            runpy.run_path(path, run_name='__main__')
    except ImportError as e:
        _explain(e)
        raise
    return 0


def _explain(error):
    """Say, on an ImportError from ``from mindspore... import X``, that hookgrad lacks X."""
    if isinstance(error, NotAvailableImport):
        return
    text = str(error)
    if text.startswith("cannot import name '") and ' from ' in text:
        name = text.split("'")[1]
        module = text.split("'")[3] if text.count("'") >= 4 else ''
        module = 'mindspore' + module[len('hookgrad'):] if module.startswith('hookgrad') else \
            module
        if module.startswith('mindspore') and in_mindspore(module, name):
            error.add_note(f"{module}.{name} is not available in hookgrad")
