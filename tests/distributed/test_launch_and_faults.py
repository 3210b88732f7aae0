"""``hookgrad run -n N`` and fault handling: a failing or killed rank ends the whole job
quickly, with a non-zero status and a line naming the rank."""
import time

import pytest

from hookgrad import cli
from tests.distributed.mpirun import PYTHON, needs_mpi, run_command, run_ranks

STEPS = '''
    import os, signal, sys, time
    import numpy as np
    import mindspore as ms
    from mindspore import ops
    from mindspore.communication import init, get_rank, get_group_size
    init('nccl')
    rank = get_rank()
    os.write(1, f"rank {rank} of {get_group_size()}\\n".encode())
    allreduce = ops.AllReduce()
    for step in range(3):
        if rank == 1 and step == 1:
            mode = sys.argv[1] if len(sys.argv) > 1 else ''
            if mode == 'raise':
                raise ValueError('boom on step 1')
            if mode == 'kill':
                os.kill(os.getpid(), signal.SIGKILL)
            if mode == 'exit':
                sys.exit(4)
        y = allreduce(ms.Tensor(np.ones(3, np.float32)))     # rank 0 waits here for rank 1
    os.write(1, f"rank {rank} sum {y.asnumpy().tolist()}\\n".encode())
'''


def hookgrad_run(tmp_path, *args, n=2, timeout=60):
    script = tmp_path / 'train.py'
    script.write_text(__import__('textwrap').dedent(STEPS))
    start = time.monotonic()
    code, out, err = run_command([PYTHON, '-m', 'hookgrad', 'run', '-n', str(n), str(script),
                                  *args], timeout=timeout)
    return code, out, err, time.monotonic() - start


@needs_mpi
def test_run_two_processes(tmp_path):
    code, out, err, _ = hookgrad_run(tmp_path)
    assert code == 0, err
    assert 'rank 0 of 2' in out and 'rank 1 of 2' in out
    assert 'rank 0 sum [2.0, 2.0, 2.0]' in out and 'rank 1 sum [2.0, 2.0, 2.0]' in out
    assert err.count("hookgrad: init('nccl') runs on MPI (") == 1


def test_run_one_process_runs_here(tmp_path):
    code, out, err, _ = hookgrad_run(tmp_path, n=1)
    assert code == 0, err
    assert 'rank 0 of 1' in out and 'rank 0 sum [1.0, 1.0, 1.0]' in out
    assert "runs in a single process (rank 0 of 1)" in err


def test_run_without_mpi_says_what_to_install(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(cli, 'find_mpiexec', lambda: None)
    (tmp_path / 'train.py').write_text('print("trained")\n')
    assert cli.main(['run', '-n', '2', str(tmp_path / 'train.py')]) == 2
    err = capsys.readouterr().err
    assert "hookgrad run -n 2: mpiexec not found" in err
    assert "pip install 'hookgrad[distributed]'" in err


def test_run_rejects_zero_processes(capsys):
    assert cli.main(['run', '-n', '0', 'x.py']) == 2
    assert capsys.readouterr().err == "hookgrad run: -n must be at least 1, got 0\n"


@needs_mpi
def test_exception_on_one_rank_ends_every_rank_with_its_error(tmp_path):
    code, out, err, seconds = hookgrad_run(tmp_path, 'raise', timeout=30)
    assert code != 0
    assert seconds < 15
    assert 'rank 1 of 2: Traceback (most recent call last):' in err
    assert 'ValueError: boom on step 1' in err
    assert "hookgrad run: rank 1 of 2 failed (ValueError: boom on step 1); every rank was " \
           "ended" in err
    assert 'sum' not in out                     # rank 0 never finished its steps


@needs_mpi
def test_exception_under_plain_mpiexec_ends_the_job():
    script = 'import hookgrad.compat\nhookgrad.compat.alias_mindspore()\n' + \
        __import__('textwrap').dedent(STEPS).replace("sys.argv[1] if len(sys.argv) > 1 else ''",
                                                     "'raise'")
    start = time.monotonic()
    code, out, err = run_ranks(script, n=2, timeout=30)
    assert code != 0 and time.monotonic() - start < 15
    assert 'rank 1 of 2: Traceback' in err and 'ValueError: boom on step 1' in err


@needs_mpi
def test_killed_rank_ends_the_job_with_a_clear_message(tmp_path):
    code, out, err, seconds = hookgrad_run(tmp_path, 'kill', timeout=30)
    assert code != 0
    assert seconds < 15
    assert "hookgrad run: rank 1 of 2 (pid " in err
    assert "was killed by signal 9 (SIGKILL); mpiexec ended the other ranks" in err
    assert 'sum' not in out


@needs_mpi
def test_nonzero_exit_on_one_rank_ends_the_job(tmp_path):
    code, out, err, seconds = hookgrad_run(tmp_path, 'exit', timeout=30)
    assert code != 0 and seconds < 15
    assert "rank 1 of 2: exited with status 4" in err
    assert "hookgrad run: rank 1 of 2 failed (exit status 4)" in err
