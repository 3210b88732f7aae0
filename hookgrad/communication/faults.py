"""Ending the whole job when one process fails, so that no peer hangs in a collective.

With more than one process, ``install_fault_handler`` (called by ``init``) replaces
``sys.excepthook`` and ``threading.excepthook``: an uncaught exception on any rank prints
``rank R of N: <traceback>`` to stderr and aborts the MPI job (``World.abort``), which ends
every peer at once, even one blocked in an allreduce. A rank killed by a signal is noticed by
the MPI launcher (MPICH's hydra ends the other ranks and exits with the signal number);
``hookgrad run -n N`` then names the rank.

Under ``hookgrad run -n N`` (``LAUNCH_DIR_VAR`` set) a failing rank also leaves a one-line
note in the launcher's directory so that the launcher can say which rank failed and why.
"""
import os
import sys
import threading
import traceback

__all__ = ['install_fault_handler', 'fail', 'LAUNCH_DIR_VAR', 'rank_from_environment']

LAUNCH_DIR_VAR = 'HOOKGRAD_LAUNCH_DIR'
_installed = []


def rank_from_environment():
    """This process's world rank as its MPI launcher set it (None when not launched so)."""
    for var in ('PMI_RANK', 'OMPI_COMM_WORLD_RANK', 'PMIX_RANK'):
        value = os.environ.get(var)
        if value and value.isdigit():
            return int(value)
    return None


def _leave_note(rank, line):
    folder = os.environ.get(LAUNCH_DIR_VAR)
    if not folder:
        return
    try:
        with open(os.path.join(folder, f'failed-{rank}'), 'w') as f:
            f.write(line)
    except OSError:
        pass


def fail(world, text, summary):
    """Print ``rank R of N: text`` to stderr, leave the launcher a note, abort the job."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    try:
        sys.stderr.write(f"rank {world.rank} of {world.size}: {text}")
        if not text.endswith('\n'):
            sys.stderr.write('\n')
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    _leave_note(world.rank, summary)
    world.abort(1)


def _summary(kind, value):
    return ''.join(traceback.format_exception_only(kind, value)).strip().splitlines()[-1]


def install_fault_handler(world):
    """Make an uncaught exception on this rank (main thread or any other) end the job."""
    if _installed and _installed[0] is world:
        return
    _installed[:] = [world]

    def excepthook(kind, value, tb):
        fail(world, ''.join(traceback.format_exception(kind, value, tb)), _summary(kind, value))

    def thread_excepthook(args):
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else '?'
        text = ''.join(traceback.format_exception(args.exc_type, args.exc_value,
                                                  args.exc_traceback))
        fail(world, f"in thread {name}: {text}", _summary(args.exc_type, args.exc_value))

    sys.excepthook = excepthook
    threading.excepthook = thread_excepthook
