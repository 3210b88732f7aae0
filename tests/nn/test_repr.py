"""The printed form of cells and networks: MindSpore 2.10's text for the same cells (captured
from MindSpore; initializer objects, printed by MindSpore as addresses, are hookgrad's)."""
import pytest

import hookgrad as ms
from hookgrad import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, weight_init='normal')
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flat = nn.Flatten()
        self.seq = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU()])
        self.cl = nn.CellList([nn.ReLU(), nn.Dense(2, 2)])

    def construct(self, x):
        return x


NET = """Net(
  (conv): Conv2d(input_channels=3, output_channels=8, kernel_size=(3, 3), stride=(1, 1), \
pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=normal, \
bias_init=None, format=NCHW)
  (bn): BatchNorm2d(num_features=8, eps=1e-05, momentum=0.9, gamma=Parameter (name=bn.gamma, \
shape=(8,), dtype=Float32, requires_grad=True), beta=Parameter (name=bn.beta, shape=(8,), \
dtype=Float32, requires_grad=True), moving_mean=Parameter (name=bn.moving_mean, shape=(8,), \
dtype=Float32, requires_grad=False), moving_variance=Parameter (name=bn.moving_variance, \
shape=(8,), dtype=Float32, requires_grad=False))
  (relu): ReLU()
  (pool): MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)
  (flat): Flatten()
  (seq): SequentialCell(
    (0): Dense(input_channels=3, output_channels=4, has_bias=True)
    (1): ReLU()
  )
  (cl): CellList(
    (0): ReLU()
    (1): Dense(input_channels=2, output_channels=2, has_bias=True)
  )
)"""


def test_a_network_prints_as_in_mindspore():
    assert repr(Net()) == NET
    assert str(Net()) == NET


def test_training_wrappers_print_as_in_mindspore():
    net = nn.Dense(2, 2)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.SGD(net.trainable_params()))
    assert repr(train) == """TrainOneStepCell(
  (network): WithLossCell(
    (_backbone): Dense(input_channels=2, output_channels=2, has_bias=True)
    (_loss_fn): MSELoss()
  )
  (optimizer): SGD()
  (grad_reducer): Identity()
)"""


@pytest.mark.parametrize('make, text', [
    (lambda: nn.ReLU(), 'ReLU()'),
    (lambda: nn.LeakyReLU(0.05), 'LeakyReLU()'),
    (lambda: nn.GELU(False), 'GELU()'),
    (lambda: nn.Softmax(0), 'Softmax()'),
    (lambda: nn.Dense(3, 4, has_bias=False), 'Dense(input_channels=3, output_channels=4)'),
    (lambda: nn.Flatten(0, 2), 'Flatten()'),
    (lambda: nn.Dropout(keep_prob=0.8), 'Dropout(keep_prob=0.8)'),
    (lambda: nn.Dropout(), 'Dropout(keep_prob=0.5)'),
    (lambda: nn.Dropout(p=0.2), 'Dropout(p=0.2)'),
    (lambda: nn.Dropout2d(0.3), 'Dropout2d(p=0.7)'),
    (lambda: nn.Conv2d(3, 4, (3, 2), stride=2, pad_mode='pad', padding=(1, 1, 2, 2),
                       weight_init='ones'),
     'Conv2d(input_channels=3, output_channels=4, kernel_size=(3, 2), stride=(2, 2), '
     'pad_mode=pad, padding=(1, 1, 2, 2), dilation=(1, 1), group=1, has_bias=False, '
     'weight_init=ones, bias_init=None, format=NCHW)'),
    (lambda: nn.Conv1d(3, 4, 3, pad_mode='pad', padding=1, stride=2, dilation=2,
                       weight_init='zeros'),
     'Conv1d(input_channels=3, output_channels=4, kernel_size=(1, 3), stride=(1, 2), '
     'pad_mode=pad, padding=(0, 0, 1, 1), dilation=(1, 2), group=1, has_bias=False, '
     'weight_init=zeros, bias_init=None, format=NCHW)'),
    (lambda: nn.MaxPool2d(3, 2, pad_mode='same'), 'MaxPool2d(kernel_size=3, stride=2, '
                                                   'pad_mode=SAME)'),
    (lambda: nn.AvgPool2d(), 'AvgPool2d(kernel_size=1, stride=1, pad_mode=VALID)'),
    (lambda: nn.AdaptiveAvgPool2d((2, 3)), 'AdaptiveAvgPool2d()'),
    (lambda: nn.Embedding(5, 3, padding_idx=0),
     'Embedding(vocab_size=5, embedding_size=3, use_one_hot=False, embedding_table=Parameter '
     '(name=embedding_table, shape=(5, 3), dtype=Float32, requires_grad=True), dtype=Float32, '
     'padding_idx=0)'),
    (lambda: nn.Embedding(5, 3, dtype=ms.int32),
     'Embedding(vocab_size=5, embedding_size=3, use_one_hot=False, embedding_table=Parameter '
     '(name=embedding_table, shape=(5, 3), dtype=Float32, requires_grad=True), dtype=Int32, '
     'padding_idx=None)'),
    (lambda: nn.L1Loss('sum'), 'L1Loss()'),
    (lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean'),
     'SoftmaxCrossEntropyWithLogits()'),
    (lambda: nn.CellDict({'a': nn.ReLU()}), 'CellDict(\n  (a): ReLU()\n)'),
    (lambda: nn.Adam(nn.Dense(2, 2).trainable_params()), 'Adam()'),
    (lambda: nn.Momentum(nn.Dense(2, 2).trainable_params(), 0.1, 0.9), 'Momentum()'),
    (lambda: nn.InverseDecayLR(0.1, 0.9, 4), 'InverseDecayLR()'),
    (lambda: nn.Identity(), 'Identity()'),
    (lambda: nn.MAELoss(), 'MAELoss()'),
])
def test_cells_print_as_in_mindspore(make, text):
    assert repr(make()) == text


def test_extra_lines_and_children_are_indented():
    class Multi(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = nn.SequentialCell(nn.ReLU())

        def extend_repr(self):
            return 'first\nsecond'

    assert repr(Multi()) == ("Multi(\n  first\n  second\n  (inner): SequentialCell(\n"
                             "    (0): ReLU()\n  )\n)")

    class Lines(nn.Cell):
        def extend_repr(self):
            return 'a\nb'

    assert repr(Lines()) == 'Lines(\n  a\n  b\n)'
