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


def readme_demo_output():
    """The demo output the README shows: ``{layer: (mean, std, zeros, first, last)}`` and the
    test accuracy."""
    text = (ROOT / 'README.md').read_text()
    block = re.search(r"```text\n(trained .*?)\n```", text, re.S).group(1)
    accuracy = float(re.search(r"test accuracy ([\d.]+)%", block).group(1)) / 100
    rows = {}
    for line in block.splitlines():
        m = re.match(r"(\w+)\s+(-?[\d.]+)\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+) -> ([\d.]+)$", line)
        if m:
            rows[m.group(1)] = tuple(float(v) for v in m.groups()[1:])
    return rows, accuracy


def test_demo_reaches_its_accuracy_and_reports_what_the_hooks_saw(tmp_path, capsys):
    """The README's main job as the README runs it, and the figures the README shows."""
    from hookgrad import demo
    result = demo.main(['--out', str(tmp_path), '--quiet'])
    out = capsys.readouterr().out
    assert result['test_accuracy'] >= 0.97, result['history']
    assert result['reloaded_accuracy'] == result['test_accuracy']
    losses = [h['loss'] for h in result['history']]
    assert losses[-1] < 0.5 * losses[0]
    # every watched layer was seen by its forward and its backward hook at every training step
    steps = len(result['stats']['fc2']['grad_norm'])
    assert steps > 0 and steps % 12 == 0
    for name, s in result['stats'].items():
        assert len(s['std']) == len(s['grad_norm']) == steps, name
        assert np.isfinite(s['grad_norm']).all() and min(s['grad_norm']) > 0, name
    relu_zeros = np.mean(result['stats']['relu1']['zeros'])
    assert 0 < relu_zeros < 1
    assert 'what the hooks saw' in out and 'relu2' in out
    assert (tmp_path / 'hooks.png').read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    assert (tmp_path / 'digits_cnn.ckpt').stat().st_size > 0
    # the README shows this run's figures: the same layers, and values that another CPU's
    # rounding can move only a little
    shown, shown_accuracy = readme_demo_output()
    printed = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert list(shown) == list(result['stats'])
    assert abs(shown_accuracy - result['test_accuracy']) <= 0.01
    for name, values in shown.items():
        row = re.match(r"\w+\s+(-?[\d.]+)\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+) -> ([\d.]+)$",
                       printed[name])
        assert row, printed[name]
        got = [float(v) for v in row.groups()]
        np.testing.assert_allclose(got, values, rtol=0.1, atol=0.01, err_msg=name)
