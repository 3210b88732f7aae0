"""debug.summary: every column against hand-computed numbers, reuse, kwargs, ResNet-18, text."""
import io
import math
import re
import sys

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import summary, Summary


class Small(nn.Cell):
    """conv -> bn -> relu -> pool -> flatten -> fc -> relu (the same ReLU again) -> * scale."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, stride=2, pad_mode='pad', padding=1, has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(16, 3)
        self.unused = nn.Dense(3, 3)

    def construct(self, x, scale=None):
        y = self.relu(self.bn(self.conv(x)))
        y = self.relu(self.fc(self.flatten(self.pool(y))))
        return y if scale is None else y * scale


def small_summary(**kw):
    ms.set_seed(0)
    x = ms.Tensor(np.random.default_rng(0).random((2, 2, 8, 8), dtype=np.float32))
    return summary(Small(), x, verbose=False, **kw)


def test_every_column_of_a_small_network():
    s = small_summary(scale=ms.Tensor(np.full(3, 2.0, np.float32)))
    assert [r.path for r in s.rows] == ['', 'conv', 'bn', 'relu', 'pool', 'flatten', 'fc',
                                        'unused']
    got = {r.path: (r.type, r.depth, r.calls, r.input_shapes, r.output_shapes, r.params,
                    r.trainable_params, r.macs, r.memory) for r in s.rows}
    conv_out = 2 * 4 * 4 * 4        # (8 + 2 - 3) // 2 + 1 = 4
    fc_out = 2 * 3
    assert got['conv'] == ('Conv2d', 1, 1, ((2, 2, 8, 8),), (2, 4, 4, 4), 4 * 2 * 9 + 4,
                           4 * 2 * 9 + 4, conv_out * 2 * 9, conv_out * 4)
    assert got['bn'] == ('BatchNorm2d', 1, 1, ((2, 4, 4, 4),), (2, 4, 4, 4), 16, 8,
                         2 * conv_out, conv_out * 4)
    assert got['relu'] == ('ReLU', 1, 2, ((2, 4, 4, 4),), (2, 4, 4, 4), 0, 0, 0,
                           (conv_out + fc_out) * 4)
    assert got['pool'] == ('MaxPool2d', 1, 1, ((2, 4, 4, 4),), (2, 4, 2, 2), 0, 0,
                           2 * 4 * 2 * 2 * 4, 2 * 4 * 2 * 2 * 4)
    assert got['flatten'] == ('Flatten', 1, 1, ((2, 4, 2, 2),), (2, 16), 0, 0, 0, 2 * 16 * 4)
    assert got['fc'] == ('Dense', 1, 1, ((2, 16),), (2, 3), 16 * 3 + 3, 16 * 3 + 3,
                         fc_out * 16, fc_out * 4)
    assert got['unused'] == ('Dense', 1, 0, None, None, 12, 12, None, 0)
    macs = conv_out * 18 + 2 * conv_out + 2 * 4 * 2 * 2 * 4 + fc_out * 16
    assert got[''] == ('Small', 0, 1, ((2, 2, 8, 8),), (2, 3), 0, 0, macs, fc_out * 4)
    assert s[''].kwarg_shapes == {'scale': (3,)}
    assert s.total_params == 76 + 16 + 51 + 12 and s.trainable_params == 76 + 8 + 51 + 12
    assert s.total_macs == macs
    # distinct buffers: conv, bn, relu, pool, fc, relu, * scale; the narrow convolution's
    # output is stored batch-last, as the pool's then is, so flatten's rows are a strided view
    assert s.activation_bytes == (3 * conv_out + 2 * 4 * 2 * 2 + 3 * fc_out) * 4
    assert s.param_bytes == s.total_params * 4


def test_shapes_of_nested_and_keyword_inputs_and_outputs():
    class Pair(nn.Cell):
        def construct(self, xs, k=2, **extra):
            return xs[0] * k, {'b': xs[1], 'n': None}

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pair = Pair()

        def construct(self, a, b, mask=None):
            return self.pair([a, b], k=3, mask=mask)

    a, b = ms.ops.ones((2, 3)), ms.ops.ones((4,))
    s = summary(Outer(), a, b=b, mask=ms.ops.ones((5,)), verbose=False)
    root, pair = s[''], s['pair']
    assert root.input_shapes == ((2, 3),) and root.kwarg_shapes == {'b': (4,), 'mask': (5,)}
    assert pair.input_shapes == ([(2, 3), (4,)],)
    assert pair.kwarg_shapes == {'k': '3', 'mask': (5,)}
    assert pair.output_shapes == ((2, 3), {'b': (4,), 'n': 'None'})
    assert pair.macs is None and root.macs is None and s.total_macs == 0
    assert pair.inputs_text() == '[[2, 3], [4]], k=3, mask=[5]'
    assert root.inputs_text() == '[2, 3], b=[4], mask=[5]'
    assert 'pair' in str(s) and '[[2, 3], [4]], k=3, mask=[5]' in str(s)


def test_reused_cell_is_one_row_with_its_calls_summed():
    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 4)

        def construct(self, x):
            return self.fc(self.fc(x))

    s = summary(Twice(), ms.ops.ones((3, 4)), verbose=False)
    fc = s['fc']
    assert fc.calls == 2 and fc.macs == 2 * 3 * 4 * 4 and fc.memory == 2 * 3 * 4 * 4
    assert s[''].macs == s.total_macs == 2 * 3 * 4 * 4
    assert fc.params == 20 and s.total_params == 20


def test_conv1d_groups_dilation_stride_norms_and_pools():
    class Mixed(nn.Cell):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv1d(4, 6, 3, stride=2, dilation=2, group=2, pad_mode='valid')
            self.ln = nn.LayerNorm((4,))
            self.c2 = nn.Conv2d(3, 6, (3, 2), stride=(1, 2), dilation=(2, 1), group=3,
                                pad_mode='same')
            self.avg = nn.AvgPool2d(3, 2)
            self.ada = nn.AdaptiveAvgPool2d((2, 3))

        def construct(self, x1, x2):
            y1 = self.ln(self.c1(x1))
            y2 = self.c2(x2)
            return y1, self.avg(y2), self.ada(y2)

    x1, x2 = ms.ops.ones((1, 4, 11)), ms.ops.ones((2, 3, 7, 9))
    s = summary(Mixed(), x1, x2, verbose=False)
    length = (11 - 2 * (3 - 1) - 1) // 2 + 1
    assert s['c1'].output_shapes == (1, 6, length)
    assert s['c1'].macs == 6 * length * (4 // 2) * 3
    assert s['ln'].macs == 2 * 6 * length
    h, w = 7, math.ceil(9 / 2)
    assert s['c2'].output_shapes == (2, 6, h, w)
    assert s['c2'].macs == 2 * 6 * h * w * 1 * 3 * 2
    ah, aw = (h - 3) // 2 + 1, (w - 3) // 2 + 1
    assert s['avg'].macs == 2 * 6 * ah * aw * 9

    def windows(n, out):
        return sum(math.ceil((i + 1) * n / out) - math.floor(i * n / out) for i in range(out))
    assert s['ada'].macs == 2 * 6 * windows(h, 2) * windows(w, 3)
    assert s.total_macs == sum(s[p].macs for p in ('c1', 'ln', 'c2', 'avg', 'ada'))


def resnet18_macs(size=224, classes=1000):
    """ResNet-18's MACs from its layer shapes under summary's rules (convolutions, BatchNorm
    2 per element, pools, fc), written out independently of the network object."""
    s = size // 2                                   # stem: 7x7 stride 2
    macs = s * s * 64 * 3 * 49 + 2 * s * s * 64
    s //= 2                                         # 3x3 stride-2 max pool
    macs += s * s * 64 * 9
    c_in = 64
    for stage, width in enumerate((64, 128, 256, 512)):
        for block in range(2):
            stride = 2 if stage and not block else 1
            s_out = s // stride
            macs += s_out * s_out * width * (c_in * 9 + width * 9 + 4)   # 2 convs, 2 BNs
            if stride != 1 or c_in != width:
                macs += s_out * s_out * width * (c_in + 2)               # 1x1 conv and BN
            s, c_in = s_out, width
    return macs + s * s * 512 + 512 * classes       # global average pool and fc


def test_resnet18_parameters_and_macs():
    ms.set_seed(0)
    net = ms.vision.resnet18()
    x = ms.ops.zeros((1, 3, 224, 224))
    s = summary(net, x, verbose=False)
    assert s.trainable_params == 11_689_512
    bn_channels = 64 + 4 * 64 + 5 * 128 + 5 * 256 + 5 * 512
    assert s.total_params == 11_689_512 + 2 * bn_channels
    assert s.total_macs == resnet18_macs()
    assert abs(s.total_macs - 1.814e9) / 1.814e9 < 0.01
    assert s['layer1.0.relu'].calls == 2 and s['layer4.1.conv2'].output_shapes == (1, 512, 7, 7)
    assert s['layer2'].macs == sum(r.macs for r in s.rows if r.path.startswith('layer2.')
                                   and r.path.count('.') == 1)
    assert sum(r.params for r in s.rows) == s.total_params


def test_train_state_and_buffers_are_restored_and_hooks_removed():
    class Probe(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm1d(3)
            self.seen = []

        def construct(self, x):
            self.seen.append(self.training)
            return self.bn(x)

    net = Probe()
    net.set_train(True)
    net.bn.set_train(False)
    mean = net.bn.moving_mean.asnumpy().copy()
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    summary(net, x, verbose=False)
    summary(net, x, set_train=True, verbose=False)
    assert net.seen == [False, True]
    assert net.training and not net.bn.training and net.bn.phase == 'predict'
    np.testing.assert_array_equal(net.bn.moving_mean.asnumpy(), mean)
    assert net.hooks() == []


def test_hooks_removed_and_state_restored_when_the_forward_raises():
    class Broken(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 2)

        def construct(self, x):
            return self.fc(self.fc(x)[:, :1])

    net = Broken()
    net.set_train(True)
    with pytest.raises(ValueError, match="nn.Dense 'Broken.fc'"):
        summary(net, ms.ops.ones((1, 2)), verbose=False)
    assert net.hooks() == [] and net.training and net.fc.training
    with pytest.raises(TypeError, match='summary: net must be a Cell, got int'):
        summary(3)


def test_rich_table_and_printing(capsys):
    pytest.importorskip('rich')
    s = small_summary()
    text = str(s)
    assert '┃ Layer' in text and '(root)' in text and 'Total MACs: ' in text
    assert '16 / 32' not in text and '8 / 16' in text          # bn: trainable / all
    s.print()
    out = capsys.readouterr().out
    assert 'MaxPool2d' in out and f"Total params: {s.total_params:,}" in out
    summary(Small(), ms.ops.ones((2, 2, 8, 8)))
    assert 'Conv2d' in capsys.readouterr().out


def test_plain_text_without_rich(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, 'rich', None)
    s = small_summary()
    assert isinstance(s, Summary)
    lines = str(s).splitlines()
    assert lines[0].split() == ['Layer', 'Type', 'Input', 'shape', 'Output', 'shape', 'Params',
                                'MACs', 'Memory', 'Calls']
    assert set(lines[1]) == {'-', ' '} and '┃' not in str(s)
    conv = next(line for line in lines if line.startswith('conv'))
    assert conv.split() == ['conv', 'Conv2d', '[2,', '2,', '8,', '8]', '[2,', '4,', '4,', '4]',
                            '76', '2,304', '512', 'B', '1']
    unused = next(line for line in lines if line.startswith('unused'))
    assert unused.split() == ['unused', 'Dense', '-', '-', '12', '-', '-', '0']
    total = next(line for line in lines if line.startswith('Total '))
    assert total.split()[:4] == ['Total', '147', '/', '155']
    width = len(lines[1])
    assert all(len(line) <= width for line in lines[:len(s.rows) + 4])
    s.print()
    assert capsys.readouterr().out.strip() == str(s).strip()


def test_row_lookup_error():
    s = summary(nn.ReLU(), ms.ops.ones((2,)), verbose=False)
    with pytest.raises(KeyError, match="summary: no cell named 'fc'"):
        s['fc']
    assert repr(s.rows[0]).startswith("Row('', ReLU, calls=1")


def test_repr_is_one_line_so_a_repl_shows_the_table_once(capsys):
    s = summary(Small(), ms.ops.ones((2, 2, 8, 8)))
    printed = capsys.readouterr().out
    assert printed.count('MaxPool2d') == 1
    assert repr(s) == (f"<Summary of {len(s.rows)} cells: {s.total_params:,} parameters, "
                       f"{s.total_macs:,} MACs; print() it or call .print() for the table>")
    assert 'MaxPool2d' in str(s)


def test_a_narrow_terminal_wraps_text_and_never_breaks_a_number():
    rich = pytest.importorskip('rich.console')
    from hookgrad.debug.tables import _rich
    ms.set_seed(0)
    net = ms.vision.resnet18(num_classes=10, cifar=True)
    s = summary(net, ms.ops.ones((1, 3, 8, 8)), verbose=False)
    buf = io.StringIO()
    rich.Console(file=buf, width=80, color_system=None).print(s._rich_table(_rich(), 80))
    lines = buf.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    text = buf.getvalue()
    for r in s.rows:                  # every count appears whole in its cell
        numbers = [f"{r.params:,}", f"{r.trainable_params:,}"]
        numbers += [] if r.macs is None else [f"{r.macs:,}"]
        for number in numbers:
            assert re.search(rf"(?<![\d,]){re.escape(number)}(?![\d,])", text), (r.path, number)
