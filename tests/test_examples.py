"""The MindSpore scripts in examples/ run unchanged through ``hookgrad run``."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(f for f in os.listdir(os.path.join(ROOT, 'examples')) if f.endswith('.py'))
EXPECTED = {
    'quick_start.py': 'reloaded test accuracy 1.000',
    'lenet_model.py': 'accuracy: 1.000',
    'hooks_and_gradients.py': 'gradient of the weight: [[10.0, 20.0, 30.0], [10.0, 20.0, 30.0]]',
    'jit_custom_optimizer.py': '[7. 8. 9.]',
    'mnist_files_quick_start.py': 'final test accuracy 1.000',
}


def test_every_example_has_an_expected_line():
    assert set(EXAMPLES) == set(EXPECTED)


@pytest.mark.parametrize('script', EXAMPLES)
def test_example_runs_unchanged(script, tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    out = subprocess.run([sys.executable, '-m', 'hookgrad', 'run',
                          os.path.join(ROOT, 'examples', script)],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert EXPECTED[script] in out.stdout.splitlines(), out.stdout
