"""Which cells compute in float16 at each amp level, compared with MindSpore 2.10's choice on
the same network; Cell.to_float and the mixed precision type; what hooks see."""
import functools
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import amp, nn, ops, Parameter, Tensor


def arr(shape, scale):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 1.7 + 0.3) * scale).reshape(shape).astype(np.float32)


class Net(nn.Cell):
    """The network of the MindSpore comparison (the same code ran there)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4, weight_init=Tensor(arr((4, 3), 0.9)),
                            bias_init=Tensor(arr((4,), 0.1)))
        self.act = nn.ReLU()
        self.bn = nn.BatchNorm1d(4)
        self.fc2 = nn.Dense(4, 2, weight_init=Tensor(arr((2, 4), 0.7)),
                            bias_init=Tensor(arr((2,), 0.2)))
        self.mm = ops.MatMul()
        self.w = Parameter(Tensor(arr((2, 2), 1.3)), name='w')

    def construct(self, x):
        h = self.bn(self.act(self.fc1(x)))
        return self.mm(self.fc2(h), self.w)


X = Tensor(arr((5, 3), 2.3))
# MindSpore 2.10, auto_mixed_precision(Net(), level)(X) in train mode: O1, O2 and O3 agree
MS_LOW = [[-0.82177734375, -0.63134765625], [0.1309814453125, 0.9951171875],
          [0.55859375, 0.6396484375], [-0.026641845703125, -0.96923828125],
          [-0.353759765625, -0.59814453125]]
MS_O0 = [[-0.8216015696525574, -0.6309045553207397], [0.13063938915729523, 0.9948405623435974],
         [0.5580700039863586, 0.6390100121498108], [-0.026176415383815765, -0.9696531295776367],
         [-0.3537119925022125, -0.5974370837211609]]
# MindSpore 2.10: cells_and_names() of the converted network with get_mixed_precision_type()
MS_TYPES = {
    'O0': [('', 'NOTSET'), ('fc1', 'NOTSET'), ('act', 'NOTSET'), ('bn', 'NOTSET'),
           ('fc2', 'NOTSET')],
    'O1': [('', 'NOTSET'), ('fc1', 'NOTSET'), ('act', 'NOTSET'), ('bn', 'NOTSET'),
           ('fc2', 'NOTSET')],
    'O2': [('', 'NOTSET'), ('_backbone', 'FP16'), ('_backbone.fc1', 'FP16'),
           ('_backbone.act', 'FP16'), ('_backbone.bn', 'NOTSET'),
           ('_backbone.bn._backbone', 'FP32'), ('_backbone.fc2', 'FP16')],
    'O3': [('', 'NOTSET'), ('_backbone', 'FP16'), ('_backbone.fc1', 'FP16'),
           ('_backbone.act', 'FP16'), ('_backbone.bn', 'FP16'), ('_backbone.fc2', 'FP16')],
}
# MindSpore 2.10's O1 rewrite inserts float16 casts inside fc1, act and fc2 and around the
# self.mm call (read from the rewritten construct sources); bn stays float32
MS_O1_FP16 = ['fc1', 'act', 'fc2', 'mm']


def converted(level):
    net = Net().set_train(True)
    return net, amp.auto_mixed_precision(net, level)


@pytest.mark.parametrize('level', ['O0', 'O1', 'O2', 'O3'])
def test_levels_match_mindspore(level):
    _, net = converted(level)
    types = [(name, c.get_mixed_precision_type().name) for name, c in net.cells_and_names()]
    assert types == MS_TYPES[level]
    out = net(X)
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), np.array(MS_LOW if level != 'O0' else MS_O0,
                                                          np.float32))


def record_dtypes(net):
    seen = {}

    def hook(name, cell, inputs, output):
        seen.setdefault(name, (inputs[0].dtype, output.dtype))

    for name, cell in net.cells_and_names():
        if name:
            cell.register_forward_hook(functools.partial(hook, name))
    return seen


def test_o1_chooses_the_white_list_as_mindspore():
    net, _ = converted('O1')
    seen = record_dtypes(net)
    net(X)
    fp16 = [name for name, (dtype_in, _) in seen.items() if dtype_in == ms.float16]
    assert sorted(fp16 + ['mm']) == sorted(MS_O1_FP16)
    # the white-listed cells hand float32 back (cast after their forward hooks ran)
    assert seen['bn'] == (ms.float32, ms.float32) and seen['act'][1] == ms.float16
    assert type(net.mm).__name__ == '_CastPrimitive' and net.__dict__['_amp_level'] == 'O1'


def test_o2_keeps_batchnorm_float32_and_names():
    net, wrapped = converted('O2')
    seen = record_dtypes(net)
    wrapped(X)
    assert seen['fc1'] == (ms.float16, ms.float16)
    assert seen['bn._backbone'] == (ms.float32, ms.float32)
    assert seen['bn'] == (ms.float16, ms.float16)
    assert net.fc1.weight.dtype == ms.float32                     # parameters keep float32
    assert [p.name for p in wrapped.get_parameters()] == \
        ['w', 'fc1.weight', 'fc1.bias', 'bn.moving_mean', 'bn.moving_variance', 'bn.gamma',
         'bn.beta', 'fc2.weight', 'fc2.bias']


def test_hooks_see_float16_where_the_network_computes_in_float16():
    net, wrapped = converted('O3')
    events = []

    def forward_hook(cell, inputs, output):
        events.append(('forward', inputs[0].dtype, output.dtype))
        output.register_hook(lambda g: events.append(('tensor', g.dtype)))

    net.fc2.register_forward_hook(forward_hook)
    net.fc2.register_backward_hook(
        lambda c, gi, go: events.append(('backward', gi[0].dtype, go[0].dtype)))
    grads = ms.grad(lambda x: wrapped(x).sum(), None, net.trainable_params())(X)
    assert events == [('forward', ms.float16, ms.float16), ('tensor', ms.float16),
                      ('backward', ms.float16, ms.float16)]
    assert all(g.dtype == ms.float32 for g in grads)              # the float32 parameters'


def test_custom_lists():
    net = Net()
    amp.custom_mixed_precision(net, white_list=[nn.BatchNorm1d])
    seen = record_dtypes(net)
    net.set_train(True)(X)
    assert seen['bn'] == (ms.float16, ms.float16) and seen['fc1'][0] == ms.float32
    assert seen['fc2'][0] == ms.float32                           # bn handed float32 back
    with pytest.warns(UserWarning, match="removed from internal black list"):
        wrapped = amp.custom_mixed_precision(Net(), black_list=[nn.Dense])
    assert type(wrapped._backbone.fc1).__name__ == '_OutputTo16'
    assert wrapped._backbone.act.get_mixed_precision_type().name == 'FP16'


def test_lists_are_mindsporess():
    names = [c.__name__ for c in amp.get_white_list()]
    assert names[:10] == ['Conv1d', 'Conv2d', 'Conv3d', 'Conv1dTranspose', 'Conv2dTranspose',
                          'Conv3dTranspose', 'Dense', 'LSTMCell', 'RNNCell', 'GRUCell']
    assert {'MatMul', 'BatchMatMul', 'ReLU', 'PReLU', 'Conv2D', 'Ger'} <= set(names[10:])
    assert [c.__name__ for c in amp.get_black_list()] == \
        ['BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d', 'LayerNorm']
    lst = amp.get_white_list()
    lst.append(nn.Flatten)
    assert nn.Flatten not in amp.get_white_list()                 # a copy


def test_to_float_and_types():
    d = nn.Dense(3, 2)
    assert d.get_mixed_precision_type() == ms.nn.cell_precision.MixedPrecisionType.NOTSET
    assert d.to_float(ms.float16) is d
    assert d(Tensor(np.ones((2, 3), np.float32))).dtype == ms.float16
    assert d.get_flags() == {'fp16': True, 'fp32': False, 'bf16': False}
    assert str(d.get_mixed_precision_type()) == 'MixedPrecisionType.FP16'
    d.to_float(ms.float32)
    assert d(Tensor(np.ones((2, 3), np.float16))).dtype == ms.float32
    d.set_mixed_precision_type(ms.nn.cell_precision.MixedPrecisionType.NOTSET)
    assert d.get_mixed_precision_type().name == 'NOTSET' and d._amp_dtype is None
    d.set_mixed_precision_type(ms.nn.cell_precision.MixedPrecisionType.FP16)   # this cell only
    assert d(Tensor(np.ones((2, 3), np.float32))).dtype == ms.float16
    with pytest.warns(DeprecationWarning, match="'cast_inputs' will be deprecated"):
        assert d.cast_inputs((1,), ms.float16) is None


def test_integer_inputs_are_not_cast():
    class Echo(nn.Cell):
        def construct(self, x, y):
            return x, y
    x, y = Echo().to_float(ms.float16)(Tensor([1, 2]), Tensor([1.0]))
    assert (x.dtype, y.dtype) == (ms.int64 if x.dtype == ms.int64 else ms.int32, ms.float16)


@pytest.mark.parametrize('call, exc, match', [
    (lambda: nn.Dense(2, 2).to_float(ms.float64), ValueError,
     "'dst_type' must be mstype.float32, mstype.float16 or mstype.bfloat16"),
    (lambda: nn.Dense(2, 2).set_mixed_precision_type('fp16'), TypeError,
     "must be a MixedPrecisionType"),
    (lambda: amp.auto_mixed_precision(3, 'O2'), TypeError,
     "For amp_level 'O2', the network type should be Cell."),
    (lambda: amp.auto_mixed_precision(Net(), 'O5'), ValueError, "The amp level O5 is not"),
    (lambda: amp.auto_mixed_precision(Net(), 'O2', ms.float32), ValueError,
     r"The dtype should be one of \(mstype.float16, mstype.bfloat16\), but got Float32."),
    (lambda: amp.auto_mixed_precision(Net(), 'auto'), NotImplementedError,
     "'auto' chooses the dtype of each primitive"),
    (lambda: amp.custom_mixed_precision(Net()), ValueError,
     "one of white_list and black_list must be provided"),
    (lambda: amp.custom_mixed_precision(Net(), white_list=[nn.Dense], black_list=[]),
     ValueError, "cannot be provided at the same time"),
    (lambda: amp.custom_mixed_precision(Net(), white_list=(nn.Dense,)), TypeError,
     "The type of white_list should be list, but got <class 'tuple'>"),
    (lambda: amp.custom_mixed_precision(Net(), white_list=[3]), TypeError,
     "The element in white_list should be a class, but got 3"),
    (lambda: amp.custom_mixed_precision(Net(), black_list=[ops.MatMul]), TypeError,
     "The subclass of element in black_list should be one of 'Cell'"),
])
def test_errors(call, exc, match):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        with pytest.raises(exc, match=match):
            call()
