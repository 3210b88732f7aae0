"""The one timer every benchmark uses (per-call wall times after a warm-up), the neighbour load
that the training-step benchmarks can run beside themselves (``--load``), and the environment
their child processes import hookgrad with."""
import contextlib
import os
import subprocess
import sys
import time


def checkout_env():
    """The environment a benchmark's child process needs to import hookgrad from this checkout."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return {'PYTHONPATH': src + os.pathsep + os.environ.get('PYTHONPATH', '')}


def samples(fn, repeats, warmup=3):
    """Seconds taken by each of ``repeats`` calls of ``fn``, after ``warmup`` untimed calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


@contextlib.contextmanager
def neighbour_load(on=True):
    """Keep one core busy in a separate process (a busy loop) while the block runs.

    It stands for another job on the machine: a two-thread matrix product then waits for the
    thread that shares a core with it. ``on=False`` runs the block without it.
    """
    if not on:
        yield None
        return
    proc = subprocess.Popen([sys.executable, '-c', 'while True: pass'])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()
