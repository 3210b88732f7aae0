"""The HTML report of a recorded run: the run file, the page, the command, a real browser."""
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import (StatsRecorder, load_run, nan_guard, render_report, save_run,
                            summary)
from hookgrad.debug.__main__ import main as report_command


class Net(nn.Cell):
    """fc1 -> relu -> fc2 -> dead (a ReLU behind a -1e3 bias: always zero) -> fc3."""
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 8, bias_init=-1e3)
        self.dead = nn.ReLU()
        self.fc3 = nn.Dense(8, 2)

    def construct(self, x):
        return self.fc3(self.dead(self.fc2(self.relu(self.fc1(x)))))


@pytest.fixture(scope='module')
def run_file(tmp_path_factory):
    """Five SGD steps with a recorder and a recording nan_guard; step 1's input holds a NaN."""
    ms.set_seed(0)
    net = Net()
    x = np.random.default_rng(0).standard_normal((6, 4)).astype(np.float32)
    s = summary(net, ms.Tensor(x), verbose=False)
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, opt.parameters)
    with StatsRecorder(net) as rec, nan_guard(net, action='record') as guard:
        for i in range(5):
            xi = x.copy()
            if i == 1:
                xi[0, 0] = np.nan
            _, grads = grad_fn(ms.Tensor(xi))
            if i != 1:
                opt(grads)
            rec.step()
    path = tmp_path_factory.mktemp('run') / 'run.json'
    save_run(path, rec, s, guard.reports, title='planted faults')
    return path, rec.history, s, guard.reports


def test_run_file_round_trip(run_file):
    path, history, s, reports = run_file
    run = load_run(path)
    assert run['title'] == 'planted faults'
    np.testing.assert_array_equal(run['history'].steps, history.steps)
    np.testing.assert_array_equal(run['history'].cell_data, history.cell_data)
    assert [r['path'] for r in run['summary']['rows']] == [r.path for r in s.rows]
    assert run['summary']['total_params'] == s.total_params == 4 * 8 + 8 + 8 * 8 + 8 + 8 * 2 + 2
    assert len(reports) >= 1 and run['anomalies'][0]['step'] == reports[0].step
    first = run['anomalies'][0]
    # the NaN came in with the data: reported where it entered, fc1's product, which spreads
    # it over the 8 outputs of that row
    assert (first['op'], first['cell'], first['input_index'], first['nan_count']) == \
        ('Dense', 'fc1', 0, 8) == (reports[0].op, reports[0].cell, 0, reports[0].nan_count)
    assert not list(path.parent.glob('.run-*'))            # the temporary file is gone


def test_page_shows_anomalies_findings_plots_and_summary(run_file, tmp_path):
    path = run_file[0]
    out = render_report(path, tmp_path / 'report.html')
    page = open(out, encoding='utf-8').read()
    assert '<title>planted faults</title>' in page
    anomalies = page[page.index('Anomalies (nan_guard)'):page.index('<h2>Findings')]
    assert anomalies.count('<tr>') == 1 + len(run_file[3])  # header + one row per report
    findings = page[page.index('<h2>Findings'):page.index('<h2>Statistics')]
    rows = re.findall(r'<tr><td class="">(\w+)</td><td class="">([^<]*)</td>'
                      r'<td class="">(\w+)</td><td class="num">(\d+)</td>', findings)
    assert ('dead', 'dead', 'output', '2') in rows          # the planted dead ReLU, named
    images = re.findall(r'<img [^>]*src="([^"]+)"', page)
    assert len(images) == 2 and all(src.startswith('data:image/png;base64,') for src in images)
    assert not re.search(r'(src|href)="(https?:)?//', page)  # self-contained
    assert '<h2>Summary</h2>' in page and f"{run_file[2].total_params:,}" in page


def test_page_from_a_statistics_file_or_a_recorder(run_file, tmp_path):
    history = run_file[1]
    history.to_json(tmp_path / 'stats.json')
    page = open(render_report(tmp_path / 'stats.json', tmp_path / 'a.html'), encoding='utf-8').read()
    assert 'No NaN or Inf was recorded.' in page and '<h2>Summary</h2>' not in page
    page = open(render_report(history, tmp_path / 'b.html', title='direct'),
                encoding='utf-8').read()
    assert '<title>direct</title>' in page


def test_without_matplotlib_the_page_says_how_to_get_plots(run_file, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, 'matplotlib', None)
    page = open(render_report(run_file[0], tmp_path / 'r.html'), encoding='utf-8').read()
    assert '<img ' not in page and "pip install matplotlib" in page.replace('&#x27;', "'")


def test_command_renders_and_reports_bad_files(run_file, tmp_path, capsys):
    out = tmp_path / 'cmd.html'
    assert report_command([str(run_file[0]), '-o', str(out), '--title', 'T']) == str(out)
    assert '<title>T</title>' in out.read_text()
    bad = tmp_path / 'bad.json'
    bad.write_text(json.dumps({'format': 'something else'}))
    with pytest.raises(SystemExit) as e:
        report_command([str(bad)])
    assert e.value.code == 2
    assert "is neither a run written by save_run nor statistics written by to_json" in \
        capsys.readouterr().err


def test_bad_arguments(tmp_path):
    with pytest.raises(TypeError, match="stats must be a StatsRecorder or StatsHistory, got int"):
        save_run(tmp_path / 'r.json', 3)
    (tmp_path / 'x.json').write_text('{not json')
    with pytest.raises(ValueError, match="is not JSON"):
        load_run(tmp_path / 'x.json')


def _browser():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium on this machine (.ci/run installs Debian's chromium)")


BROWSER_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update',
                 '--disable-sync', '--hide-scrollbars']


def test_a_real_browser_renders_the_page_and_decodes_every_plot(run_file, tmp_path):
    browser = _browser()
    page = render_report(run_file[0], tmp_path / 'report.html')
    url = 'file://' + os.path.abspath(page)
    common = [browser, *BROWSER_FLAGS, f'--user-data-dir={tmp_path / "profile"}']
    dom = subprocess.run([*common, '--dump-dom', url], capture_output=True, text=True,
                         timeout=120).stdout
    assert 'data-images-decoded="2/2"' in dom       # set by the page once both PNGs decoded
    assert '<h1>planted faults</h1>' in dom
    shot = tmp_path / 'shot.png'
    subprocess.run([*common, '--window-size=1000,1400', f'--screenshot={shot}', url],
                   capture_output=True, timeout=120)
    import matplotlib.image
    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[:2] == (1400, 1000)
    assert pixels[..., :3].std() > 0.05            # not a blank page


def test_source_lines_are_shown_short(monkeypatch, tmp_path):
    from hookgrad.debug import report
    inside = os.path.join(report._PACKAGE_ROOT, 'hookgrad', 'nn', 'loss.py')
    assert report._short(f"{inside}:171") == os.path.join('hookgrad', 'nn', 'loss.py') + ':171'
    monkeypatch.chdir(tmp_path)
    assert report._short(f"{tmp_path / 'train.py'}:9") == 'train.py:9'
    assert report._short('/elsewhere/x.py:3') == '/elsewhere/x.py:3'
    assert report._short(None) == '' and report._short('<stdin>') == '<stdin>'
