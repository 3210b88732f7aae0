"""StatsRecorder's exports: JSON and CSV round trips, the plot and TensorBoard event files."""
import csv
import json
import struct
import sys

import numpy as np
import pytest

from hookgrad.debug import load_stats
from hookgrad.debug.stats_report import CELL_KINDS
from tests.debug.test_stats import recorded


def same_tables(a, b):
    assert list(a.steps) == list(b.steps)
    assert a.cells == b.cells and a.params == b.params
    for x, y in ((a.cell_data, b.cell_data), (a.calls, b.calls), (a.param_data, b.param_data)):
        np.testing.assert_array_equal(x, y)


def test_json_round_trip_is_exact_and_strict(tmp_path):
    rec = recorded()
    path = tmp_path / 'stats.json'
    rec.to_json(path)
    doc = json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"non-JSON {c}"))
    assert doc['format'] == 'hookgrad.debug.stats' and doc['every'] == 1
    back = load_stats(path)
    same_tables(rec.history, back)
    assert back.cell_types == ['MLP', 'Dense', 'ReLU', 'Dense'] and back.every == 1
    assert str(back.report()) == str(rec.report())
    assert back['fc1.bias', 'param']['update_ratio'][0] == np.inf


def test_csv_round_trip_long_format(tmp_path):
    rec = recorded()
    path = tmp_path / 'stats.csv'
    rec.to_csv(path)
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    assert rows[0] == ['step', 'cell', 'kind', 'stat', 'value']
    assert ['0', 'fc1', 'output', 'mean', repr(float(rec['fc1', 'output']['mean'][0]))] in rows
    assert {r[2] for r in rows[1:]} == set(CELL_KINDS) | {'calls', 'param'}
    back = load_stats(str(path))
    same_tables(rec.history, back)
    assert str(back.report()) == str(rec.report())


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip('matplotlib')
    rec = recorded()
    out = rec.plot(tmp_path / 'stats.png')
    assert (tmp_path / 'stats.png').read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    assert out == tmp_path / 'stats.png'
    rec.history.plot(tmp_path / 'fc.png', cells='fc*')      # the history alone, filtered
    assert (tmp_path / 'fc.png').stat().st_size > 1000


def read_events(path):
    """Scalars of a TensorBoard event file: TFRecord frames parsed with tensorboardX's protos."""
    from tensorboardX.proto import event_pb2
    out = {}
    raw = open(path, 'rb').read()
    pos = 0
    while pos < len(raw):
        (n,) = struct.unpack('<Q', raw[pos:pos + 8])
        event = event_pb2.Event.FromString(raw[pos + 12:pos + 12 + n])
        pos += 12 + n + 4
        for v in event.summary.value:
            out.setdefault(v.tag, []).append((event.step, v.simple_value))
    return out


def test_tensorboard_event_file_reads_back(tmp_path):
    pytest.importorskip('tensorboardX')
    rec = recorded()
    with pytest.warns(RuntimeWarning, match=r"to_tensorboard: left out 1 NaN or Inf value\(s\)"):
        path = rec.to_tensorboard(tmp_path / 'tb', stats=['norm', 'update_ratio'])
    events = read_events(path)
    s = rec['fc1', 'grad_output']
    assert [st for st, _ in events['grad_output.norm/fc1']] == list(s['step'])
    np.testing.assert_allclose([v for _, v in events['grad_output.norm/fc1']], s['norm'],
                               rtol=1e-6)
    assert 'param.update_ratio/fc2.weight' in events
    assert not any('.mean/' in tag or tag.startswith('calls') for tag in events)


def test_missing_optional_packages_give_clear_errors(tmp_path, monkeypatch):
    rec = recorded(1)
    monkeypatch.setitem(sys.modules, 'matplotlib', None)
    with pytest.raises(ImportError, match=r"needs matplotlib: pip install matplotlib"):
        rec.plot(tmp_path / 'x.png')
    monkeypatch.setitem(sys.modules, 'tensorboardX', None)
    with pytest.raises(ImportError, match=r"needs tensorboardX: pip install tensorboardX"):
        rec.to_tensorboard(tmp_path / 'tb')
