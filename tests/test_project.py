"""The README's promises: its commands, its example, and the demo they run."""
import pathlib
import re
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def readme_commands():
    text = (ROOT / 'README.md').read_text()
    return re.findall(r"```bash\n(.*?)\n```", text, re.S)


def test_readme_starts_with_the_demo_and_test_commands():
    demo, tests = readme_commands()[:2]
    assert 'hookgrad.demo' in demo
    assert 'pytest' in tests


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / '.ci' / 'run').read_text().splitlines()
    assert readme_commands()[1] in ci


def test_readme_example_runs_and_prints_what_it_says():
    text = (ROOT / 'README.md').read_text()
    code = re.search(r"```python\n(.*?)\n```", text, re.S).group(1)
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.splitlines()[0] == '[2. 4. 6. 8.]'
    assert 'gradient here: (Tensor(shape=[], dtype=Float32, value= 2),)' in out


def test_demo_trains_and_reports_what_the_hooks_saw(capsys):
    from hookgrad import demo
    final_loss = demo.main(steps=150)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ['step', 'loss', '|grad|', 'hidden', '|grad|', 'pre-tanh', 'clipped']
    first_loss = float(lines[1].split()[1])
    assert final_loss < 0.5 * first_loss
    clipped = re.search(r"gradient clipped by HookBackward in (\d+) of 151 steps", out)
    assert clipped and 0 < int(clipped.group(1)) < 151
    assert np.isfinite(final_loss)
