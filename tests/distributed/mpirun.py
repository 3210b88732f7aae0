"""Run a test script on several MPI processes and collect what they printed.

``run_ranks(script_text, n=2, timeout=60, env=None)`` writes the script to a temporary
directory, runs it under ``mpiexec -n n`` with this interpreter and returns
``(returncode, stdout, stderr)``; a job still running after ``timeout`` seconds is killed
(every process of it) and the test fails with what it had printed. ``needs_mpi`` skips a
test when mpi4py or ``mpiexec`` is missing (install the ``distributed`` extra).
"""
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap

import pytest

__all__ = ['run_ranks', 'run_command', 'find_mpiexec', 'mpi_available', 'needs_mpi',
           'PYTHON']

PYTHON = sys.executable
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def find_mpiexec():
    """``mpiexec`` next to this interpreter (the MPI wheel installs it there), else on PATH."""
    beside = os.path.join(os.path.dirname(PYTHON), 'mpiexec')
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    return shutil.which('mpiexec') or shutil.which('mpirun')


def mpi_available():
    """Whether mpi4py imports here and an ``mpiexec`` exists."""
    return importlib.util.find_spec('mpi4py') is not None and find_mpiexec() is not None


needs_mpi = pytest.mark.skipif(
    not mpi_available(),
    reason="needs mpi4py and mpiexec: pip install 'hookgrad[distributed]'")


def _environment(env):
    merged = dict(os.environ)
    # Two processes share the machine's cores: one BLAS thread each avoids oversubscription.
    merged.setdefault('OMP_NUM_THREADS', '1')
    merged.setdefault('OPENBLAS_NUM_THREADS', '1')
    merged.setdefault('MKL_NUM_THREADS', '1')
    merged['PYTHONPATH'] = os.pathsep.join(
        p for p in (REPO_ROOT, merged.get('PYTHONPATH')) if p)
    merged['PYTHONUNBUFFERED'] = '1'
    # Open MPI refuses to start as root (containers, CI images) unless told it may.
    merged.setdefault('OMPI_ALLOW_RUN_AS_ROOT', '1')
    merged.setdefault('OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1')
    # Variables of an enclosing MPI job would make the children think they are its ranks.
    for var in ('PMI_SIZE', 'PMI_RANK', 'PMI_FD', 'PMI_PORT', 'PMIX_SIZE', 'PMIX_RANK',
                'OMPI_COMM_WORLD_SIZE', 'OMPI_COMM_WORLD_RANK', 'MPI_LOCALNRANKS',
                'HOOKGRAD_WORLD_SIZE'):
        merged.pop(var, None)
    merged.update(env or {})
    return merged


def run_command(argv, timeout=60, env=None, cwd=None):
    """Run ``argv`` in its own process group; return ``(returncode, stdout, stderr)``.

    After ``timeout`` seconds the whole group is killed and the test fails with the output
    so far (a hang is a failure, never a skip)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_environment(env), cwd=cwd or REPO_ROOT,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"{' '.join(argv)} still running after {timeout}s (killed)\n"
                    f"--- stdout ---\n{out}\n--- stderr ---\n{err}")
    return proc.returncode, out, err


def run_ranks(script_text, n=2, timeout=60, env=None):
    """Run ``script_text`` (dedented) on ``n`` MPI processes with this interpreter;
    return ``(returncode, stdout, stderr)`` of the whole job."""
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("needs mpiexec: pip install 'hookgrad[distributed]'")
    with tempfile.TemporaryDirectory(prefix='hookgrad-mpi-') as tmp:
        path = os.path.join(tmp, 'script.py')
        with open(path, 'w') as f:
            f.write(textwrap.dedent(script_text))
        return run_command([mpiexec, '-n', str(n), PYTHON, path], timeout=timeout,
                           env=env, cwd=tmp)
