"""benchmarks/gpu.py keeps working: its smoke run trains every workload on the CUDA stand-in
(tiny sizes, hookgrad only) and reports a time and a peak device memory for each."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_smoke_run_reports_every_workload():
    env = dict(os.environ, HOOKGRAD_FAKE_GPU='1', PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, 'gpu.py', '--smoke', '--rounds', '1', '--steps', '1',
                          '--warmup', '1', '--only', 'mlp,mlp-jit,lenet,resnet32'],
                         cwd=os.path.join(ROOT, 'benchmarks'), env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = {line.split()[0]: line.split() for line in out.stdout.splitlines()[2:]}
    assert sorted(rows) == ['lenet', 'mlp', 'mlp-jit', 'resnet32']
    for name, cells in rows.items():
        assert float(cells[1]) > 0, name                      # hookgrad ms per step
        assert cells[2] == '-'                                # no PyTorch in a smoke run
    assert float(rows['resnet32'][4]) > 10                    # MiB: the network's memory
