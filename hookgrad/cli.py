"""The ``hookgrad`` command.

``hookgrad run script.py [args...]`` runs a MindSpore script unchanged: ``import mindspore`` and
every ``mindspore.X`` resolve to hookgrad (hookgrad.compat.alias_mindspore) for that run only,
then the script runs as ``__main__`` with ``sys.argv`` set to the script and its arguments.
``hookgrad run -m package.module [args...]`` runs a module the same way.
``hookgrad run -n N script.py`` (N > 1) starts N processes with the installed MPI's
``mpiexec``, each running the script as above; ``mindspore.communication.init()`` in the script
then joins them into one world. When a rank fails or is killed, every rank ends and the
command says which rank, with a non-zero exit status.

A target that cannot run is one line on stderr, with Python's exit status for it: a script that
cannot be opened 2, a directory without ``__main__.py`` or a module that does not exist 1; a
command line without a target (or with ``-n`` below 1) 2.
"""
import argparse
import os
import re
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile

from ._frames import add_note
from .compat import alias_mindspore
from .compat.names import NotAvailableImport, in_mindspore


def main(argv=None):
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog='hookgrad', description="hookgrad: run MindSpore code on hookgrad")
    commands = parser.add_subparsers(dest='command', required=True)
    run = commands.add_parser('run', help="run a MindSpore script (or -m module) unchanged")
    run.add_argument('-n', dest='processes', type=int, default=1, metavar='N',
                     help="start N processes with MPI's mpiexec (default 1: this process)")
    run.add_argument('-m', dest='module', help="run a module, as python -m does")
    run.add_argument('target', nargs='?', help="the script")
    run.add_argument('args', nargs=argparse.REMAINDER, help="its arguments")
    argv = list(sys.argv[1:] if argv is None else argv)
    module_args = _split_module_args(argv)
    args = parser.parse_args(argv)
    if module_args is not None:
        args.target, args.args = None, module_args
    if args.module is None and args.target is None:
        return _fail("give a script, or -m and a module (hookgrad run [-n N] script.py "
                     "[args...], or hookgrad run [-n N] -m module [args...])", 2)
    if args.processes < 1:
        return _fail(f"-n must be at least 1, got {args.processes}", 2)
    problem = _unrunnable(args.target, args.module)
    if problem is not None:
        return _fail(*problem)
    if args.processes > 1:
        return launch(args.processes, args.target, args.args, module=args.module)
    return run_mindspore(args.target, args.args, module=args.module)


def _split_module_args(argv):
    """As ``python -m``, every word after ``run [-n N] -m MODULE`` is the module's own: those
    words are cut off ``argv`` (in place) and returned; None when no ``-m`` comes first."""
    i = 1 if argv[:1] == ['run'] else len(argv)
    while i < len(argv):
        word = argv[i]
        if word == '-m' and i + 1 < len(argv):
            rest = argv[i + 2:]
            del argv[i + 2:]
            return rest
        if word.startswith('-m') and len(word) > 2:
            rest = argv[i + 1:]
            del argv[i + 1:]
            return rest
        if word == '-n':
            i += 2
        elif word.startswith('-n'):
            i += 1
        else:
            return None
    return None


def run_mindspore(path, args=(), module=None):
    """Run script ``path`` (or ``module``) with ``mindspore`` resolving to hookgrad."""
    alias_mindspore()
    _note_pid()
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
    except SystemExit as e:
        _end_job_on_exit(e)
        raise
    return 0


def _fail(message, status):
    """Say on one line of stderr why ``hookgrad run`` cannot run; returns the exit status."""
    print(f"hookgrad run: {message}", file=sys.stderr)
    return status


def _unrunnable(path, module):
    """``(message, exit status)`` when the target cannot run, as Python says it for
    ``python script.py`` and ``python -m module``; None when it can be started."""
    if module is not None:
        import importlib.util
        alias_mindspore()               # ``-m mindspore.X`` names one of hookgrad's modules
        try:
            spec = importlib.util.find_spec(module)
            if spec is not None and spec.submodule_search_locations is not None and \
                    importlib.util.find_spec(module + '.__main__') is None:
                return (f"No module named {module}.__main__; '{module}' is a package and cannot "
                        f"be directly executed", 1)
        except ModuleNotFoundError:         # a parent package is missing
            spec = None
        return None if spec is not None else (f"No module named {module}", 1)
    if os.path.isdir(path):
        if any(os.path.isfile(os.path.join(path, name))
               for name in ('__main__.py', '__main__.pyc')):
            return None
        return f"can't find '__main__' module in {path!r}", 1
    try:
        with open(path, 'rb'):
            pass
    except OSError as e:
        return f"can't open file {path!r}: [Errno {e.errno}] {e.strerror}", 2
    return None


# --------------------------------------------------------------------------------- launch
INSTALL_HINT = "pip install 'hookgrad[distributed]'"


def find_mpiexec():
    """``mpiexec`` beside this interpreter (where the MPI wheel installs it), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), 'mpiexec')
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    return shutil.which('mpiexec') or shutil.which('mpirun')


def launch(n, path, args=(), module=None):
    """Run ``path`` (or ``module``) on ``n`` processes under ``mpiexec``, each through
    ``hookgrad run``; returns the job's exit status, non-zero when any rank failed (a line on
    stderr then names the rank when it can)."""
    import importlib.util
    from .communication.faults import LAUNCH_DIR_VAR
    mpiexec = find_mpiexec()
    missing = [what for what, ok in (('mpi4py', importlib.util.find_spec('mpi4py')),
                                     ('mpiexec', mpiexec)) if not ok]
    if missing:
        print(f"hookgrad run -n {n}: {' and '.join(missing)} not found; running on several "
              f"processes needs mpi4py and an MPI library: {INSTALL_HINT}", file=sys.stderr)
        return 2
    target = ['-m', module] if module is not None else [path]
    command = [mpiexec, '-n', str(n), sys.executable, '-m', 'hookgrad', 'run'] + target + \
        list(args)
    with tempfile.TemporaryDirectory(prefix='hookgrad-run-') as folder:
        env = dict(os.environ, **{LAUNCH_DIR_VAR: folder})
        proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True, bufsize=1)
        launcher_lines = []
        try:
            for line in proc.stdout:        # mpiexec reports a killed rank on stdout
                sys.stdout.write(line)
                sys.stdout.flush()
                if line.startswith('=') or 'EXIT STRING' in line:
                    launcher_lines.append(line)
            code = proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGINT)
            code = proc.wait()
        if code != 0:
            print(_failure_line(n, code, folder, ''.join(launcher_lines)), file=sys.stderr)
    return code


def _failure_line(n, code, folder, report):
    """One line naming the failed rank: from its own note, else from mpiexec's report."""
    notes = sorted(f for f in os.listdir(folder) if f.startswith('failed-'))
    if notes:
        rank = notes[0][len('failed-'):]
        with open(os.path.join(folder, notes[0])) as f:
            why = f.read().strip()
        return (f"hookgrad run: rank {rank} of {n} failed ({why}); every rank was ended "
                f"(exit status {code})")
    pid = re.search(r'PID (\d+)', report)
    sig = re.search(r'signal (\d+)', report)
    rank = None
    if pid and os.path.exists(os.path.join(folder, f'pid-{pid.group(1)}')):
        with open(os.path.join(folder, f'pid-{pid.group(1)}')) as f:
            rank = f.read().strip()
    who = f"rank {rank} of {n}" if rank is not None else "a rank"
    who += f" (pid {pid.group(1)})" if pid else ""
    if sig:
        number = int(sig.group(1))
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return (f"hookgrad run: {who} was killed by signal {number} ({name}); mpiexec ended "
                f"the other ranks (exit status {code})")
    return f"hookgrad run: {who} exited with status {code}; mpiexec ended the other ranks"


def _note_pid():
    """Under ``hookgrad run -n N``: record this process's rank by pid for the launcher."""
    from .communication.faults import LAUNCH_DIR_VAR, rank_from_environment
    folder, rank = os.environ.get(LAUNCH_DIR_VAR), rank_from_environment()
    if folder and rank is not None:
        try:
            with open(os.path.join(folder, f'pid-{os.getpid()}'), 'w') as f:
                f.write(str(rank))
        except OSError:
            pass


def _end_job_on_exit(exit_):
    """A non-zero ``sys.exit`` on one rank of several ends the whole job (its peers would
    otherwise wait for it in their next collective)."""
    if exit_.code in (None, 0):
        return
    from .communication import _world
    from .communication.faults import fail
    world = _world.world()
    if world is not None and world.size > 1:
        fail(world, f"exited with status {exit_.code!r}", f"exit status {exit_.code!r}")


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
            add_note(error, f"{module}.{name} is not available in hookgrad")
