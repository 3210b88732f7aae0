"""profile: op and cell tables that count every call once, and a Chrome trace."""
import json
import sys
import threading

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.debug import profile


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(64, 64)
        self.act = nn.ReLU()

    def construct(self, x):
        return self.act(self.fc(x))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.one = Block()
        self.two = Block()

    def construct(self, x):
        return self.two(self.one(x))


def step(net, x):
    ms.grad(lambda x: ops.sum(net(x)), None, net.trainable_params())(x)


def data():
    return ms.Tensor(np.random.default_rng(0).standard_normal((32, 64)).astype(np.float32))


def test_every_op_is_counted_once_per_phase_by_op_and_by_cell():
    ms.set_seed(0)
    net, x = Net(), data()
    with profile() as prof:
        for _ in range(3):
            step(net, x)
    table = prof.by_op()
    # per step: Dense and ReLU in each block, then one ReduceSum
    want = {'Dense': 6, 'ReLU': 6, 'ReduceSum': 3}
    assert {r.name: r.calls['forward'] for r in table.rows} == want
    assert {r.name: r.calls['backward'] for r in table.rows} == want
    assert sum(r.total for r in table.rows) == pytest.approx(prof.total_seconds)
    cells = prof.by_cell()
    assert [r.name for r in cells.rows] == ['Net', 'Net.one', 'Net.one.act', 'Net.one.fc',
                                           'Net.two', 'Net.two.act', 'Net.two.fc', '(no cell)']
    assert cells['Net.one.fc'].calls == {'forward': 3, 'backward': 3}
    assert cells['Net'].calls['forward'] == 12 and cells['(no cell)'].calls['forward'] == 3
    inner = cells['Net.one.fc'].total + cells['Net.one.act'].total
    assert cells['Net.one'].total == pytest.approx(inner)
    assert cells['Net'].total + cells['(no cell)'].total == pytest.approx(prof.total_seconds)


def test_the_larger_op_takes_more_time():
    a = ms.Tensor(np.ones((400, 400), np.float32))
    b = ms.Tensor(np.ones(4, np.float32))
    with profile() as prof:
        for _ in range(5):
            ops.matmul(a, a)
            ops.add(b, b)
    rows = prof.by_op().rows
    assert [r.name for r in rows] == ['MatMul', 'Add']
    assert rows[0].seconds['forward'] > 10 * rows[1].seconds['forward']


def test_ops_inside_a_recorded_backward_rule_are_in_the_trace_not_twice_in_the_table(tmp_path):
    x = ms.Tensor(np.array([0.3, 0.7]))
    with profile() as prof:
        ms.grad(ms.grad(lambda x: ops.sum(ops.sin(x))))(x)
    table = prof.by_op()
    assert table['Sin'].calls['backward'] == 1          # the rule recorded cos(x) ...
    assert 'Cos' in [r.name for r in table.rows]        # ... whose backward then ran
    nested = [e for e in prof.events if e[5]]
    assert nested and all(e[0] == 'backward' for e in nested)
    counted = sum(r.calls['forward'] + r.calls['backward'] for r in table.rows)
    assert counted == len(prof.events) - len(nested)


def test_chrome_trace(tmp_path):
    net, x = Net(), data()
    with profile() as prof:
        step(net, x)
    path = tmp_path / 'trace.json'
    prof.export_chrome_trace(path)
    events = json.loads(path.read_text())['traceEvents']
    assert len(events) == len(prof.events) == 2 * 5
    assert {e['ph'] for e in events} == {'X'} and {e['cat'] for e in events} == {'forward',
                                                                               'backward'}
    first = events[0]
    assert (first['name'], first['args']['cell'], first['ts']) == ('Dense', 'Net.one.fc', 0.0)
    assert all(e['dur'] >= 0 and e['ts'] >= 0 for e in events)
    assert all(a['ts'] <= b['ts'] for a, b in zip(events, events[1:]) if a['cat'] == b['cat'])


def test_tables_print_with_and_without_rich(monkeypatch, capsys):
    with profile() as prof:
        ops.exp(ms.Tensor([1.0]))
    text = str(prof.by_op())
    assert 'Exp' in text and 'Total' in text and 'Fwd calls' in text
    prof.by_cell().print()
    assert '(no cell)' in capsys.readouterr().out
    monkeypatch.setitem(sys.modules, 'rich', None)
    plain = str(prof)
    assert plain.splitlines()[0].split() == ['Op', 'Fwd', 'calls', 'Fwd', 'ms', 'Bwd', 'calls',
                                             'Bwd', 'ms', 'Total', 'ms', '%']
    assert plain.splitlines()[2].split()[:2] == ['Exp', '1']
    with pytest.raises(KeyError, match="profile: no row 'Log'; the rows are \\['Exp'\\]"):
        prof.by_op()['Log']


def test_trace_limit_and_other_threads():
    with profile(trace_limit=2) as prof:
        for _ in range(5):
            ops.exp(ms.Tensor([1.0]))
        t = threading.Thread(target=lambda: ops.sin(ms.Tensor([1.0])))
        t.start()
        t.join()
    assert len(prof.events) == 2 and prof.by_op()['Exp'].calls['forward'] == 5
    assert [r.name for r in prof.by_op().rows] == ['Exp']
    assert 'calls=5' in repr(prof) and 'observing=False' in repr(prof)
    with pytest.raises(ValueError, match='trace_limit must be a non-negative int, got -1'):
        profile(trace_limit=-1)
