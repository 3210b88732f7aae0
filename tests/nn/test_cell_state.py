"""Cell buffers, state_dict / load_state_dict and their hooks, get_sub_cell / get_buffer,
extra state: keys, order, types and messages as MindSpore 2.10 gives them (the expected values
below were printed by MindSpore 2.10 for the same networks)."""
from collections import OrderedDict

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
        self.register_buffer('rb', ms.tensor([1, 2, 3]))
        self.register_buffer('np_', ms.tensor([4.0]), persistent=False)

    def construct(self, x):
        return x * self.w


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.register_buffer('top', ms.tensor([9.0]))
        self.b = Inner()
        self.d = nn.Dense(2, 2)

    def construct(self, x):
        return self.d(self.b(x))


class WithExtra(Inner):
    def __init__(self):
        super().__init__()
        self.seen = []

    def get_extra_state(self):
        return {'k': 1}

    def set_extra_state(self, state):
        self.seen.append(state)


# ----------------------------------------------------------------- buffers
def test_buffers_are_attributes_and_not_parameters():
    net = Outer()
    assert net.b.rb.tolist() == [1, 2, 3] and net.b.rb.dtype == ms.int64
    assert [p.name for p in net.get_parameters()] == ['b.w', 'd.weight', 'd.bias']
    # MindSpore 2.10: [('top', ...), ('b.rb', ...), ('b.np_', ...)]
    assert [n for n, _ in net.named_buffers()] == ['top', 'b.rb', 'b.np_']
    assert [n for n, _ in net.named_buffers(prefix='p', recurse=False)] == ['p.top']
    assert [b.tolist() for b in net.buffers()] == [[9.0], [1, 2, 3], [4.0]]
    shared = ms.tensor([0.0])
    net.register_buffer('s1', shared)
    net.b.register_buffer('s2', shared)
    assert [n for n, _ in net.named_buffers()].count('b.s2') == 0
    assert 'b.s2' in [n for n, _ in net.named_buffers(remove_duplicate=False)]


def test_buffer_assignment_follows_mindspore():
    net = Inner()
    with pytest.raises(TypeError, match=r"Buffer 'rb' already exists in network, can not "
                                        r"assign this type: .*Tensor.* as a buffer"):
        net.rb = ms.tensor([5, 6, 7])
    net.register_buffer('rb', ms.tensor([0]))           # register_buffer replaces
    assert net.rb.tolist() == [0]
    net.rb = None
    assert net.rb is None and list(net.state_dict()) == ['w']
    assert [n for n, _ in net.named_buffers()] == ['np_']
    net.np_ = ms.Parameter(ms.tensor([1.0]), name='np_')   # becomes a parameter
    assert [n for n, _ in net.named_buffers()] == [] and 'np_' in net.state_dict()
    del net.rb
    assert 'rb' not in net.__dict__.get('_buffers') and not hasattr(net, 'rb')


def test_register_buffer_errors():
    net = Inner()
    with pytest.raises(TypeError, match="buffer name should be a string.But got this type: "
                                        "<class 'int'>"):
        net.register_buffer(1, ms.tensor(1))
    with pytest.raises(KeyError, match=r'buffer name can.*t contain "\."'):
        net.register_buffer('a.b', ms.tensor(1))
    with pytest.raises(KeyError, match=r'buffer name can.*t be empty string'):
        net.register_buffer('', ms.tensor(1))
    with pytest.raises(KeyError, match="attribute 'w' already exists"):
        net.register_buffer('w', ms.tensor(1))
    with pytest.raises(TypeError, match=r"cannot assign '<class 'numpy.ndarray'>' object to "
                                        r"buffer 'q' \(mindspore Tensor or None required\)"):
        net.register_buffer('q', np.ones(2))

    class Early(nn.Cell):
        def __init__(self):
            self.register_buffer('x', ms.tensor(1))

    with pytest.raises(AttributeError, match=r"cannot assign buffer before Cell.__init__\(\)"):
        Early()


def test_get_sub_cell_and_get_buffer():
    net = Outer()
    assert net.get_sub_cell('') is net and net.get_sub_cell('b') is net.b
    assert net.get_buffer('b.rb') is net.b.rb and net.get_buffer('top') is net.top
    with pytest.raises(AttributeError, match="`w` is not an nn.Cell"):
        net.get_sub_cell('b.w')
    with pytest.raises(AttributeError, match="Outer has no attribute `x`"):
        net.get_sub_cell('x')
    with pytest.raises(AttributeError, match="`w` is not a buffer"):
        net.get_buffer('b.w')
    with pytest.raises(AttributeError, match="Inner has no attribute `zz`"):
        net.get_buffer('b.zz')


# ----------------------------------------------------------------- state_dict
def test_state_dict_keys_order_and_values():
    net = Outer()
    sd = net.state_dict()
    # MindSpore 2.10: ['top', 'b.w', 'b.rb', 'd.weight', 'd.bias'], metadata for '', 'b', 'd'
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ['top', 'b.w', 'b.rb', 'd.weight', 'd.bias']
    assert list(sd._metadata) == ['', 'b', 'd']
    assert sd['b.w'] is net.b.w and sd['b.rb'] is net.b.rb      # references, not copies
    assert net.state_dict(keep_vars=True)['top'] is net.top
    assert list(net.state_dict(prefix='m.')) == ['m.top', 'm.b.w', 'm.b.rb', 'm.d.weight',
                                                 'm.d.bias']
    dest = {}
    assert net.state_dict(destination=dest) is dest and list(dest)[0] == 'top'


def test_state_dict_argument_errors():
    net = Inner()
    with pytest.raises(TypeError, match="The type of prefix must be string, but got "
                                        "<class 'int'>"):
        net.state_dict(prefix=3)
    with pytest.raises(TypeError, match="The type of keep_vars must be bool, but got "
                                        "<class 'int'>"):
        net.state_dict(keep_vars=1)
    with pytest.raises(TypeError, match="The type of destination must be OrderedDict, but got "
                                        "<class 'list'>"):
        net.state_dict(destination=[])


def test_extra_state_round_trip():
    net = WithExtra()
    sd = net.state_dict()
    assert list(sd) == ['w', 'rb', '_extra_state'] and sd['_extra_state'] == {'k': 1}
    net.load_state_dict(sd)
    assert net.seen == [{'k': 1}]
    keys = net.load_state_dict({'w': ms.tensor([3.0, 4.0]), 'rb': ms.tensor([7, 8, 9])},
                               strict=False)
    assert keys.missing_keys == ['_extra_state'] and keys.unexpected_keys == []
    with pytest.raises(RuntimeError, match=r'Error\(s\) in loading state_dict for Inner:\n\t'
                                           r'Unexpected key\(s\) in state_dict: '
                                           r'"_extra_state"\. '):
        Inner().load_state_dict({'w': ms.tensor([3.0, 4.0]), 'rb': ms.tensor([7, 8, 9]),
                                 '_extra_state': 1})
    with pytest.raises(RuntimeError, match="should never be called"):
        Inner().get_extra_state()


# ----------------------------------------------------------------- load_state_dict
def test_load_state_dict_copies_in_place_and_casts():
    net = Inner()
    w, rb = net.w, net.rb
    keys = net.load_state_dict({'w': ms.tensor([3, 4]), 'rb': ms.tensor([7.0, 8.0, 9.0])})
    assert repr(keys) == '<All keys matched successfully>'
    assert net.w is w and net.rb is rb                      # the same objects, new values
    assert net.w.dtype == ms.float32 and net.w.tolist() == [3.0, 4.0]
    assert net.rb.dtype == ms.int64 and net.rb.tolist() == [7, 8, 9]


def test_load_state_dict_reports_keys_as_mindspore():
    net = Outer()
    sd = net.state_dict()
    net.b.rb = None
    keys = net.load_state_dict(sd, strict=False)
    # MindSpore 2.10: _IncompatibleKeys(missing_keys=[], unexpected_keys=['b.rb'])
    assert repr(keys) == "_IncompatibleKeys(missing_keys=[], unexpected_keys=['b.rb'])"
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict({'x': ms.tensor(1)})
    assert str(info.value) == ('Error(s) in loading state_dict for Outer:\n\t'
                               'Missing key(s) in state_dict: "top", "b.w", "d.weight", '
                               '"d.bias". \n\tUnexpected key(s) in state_dict: "x". ')
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like, got "
                                        "<class 'int'>"):
        net.load_state_dict(3)


def test_load_state_dict_bad_values_list_every_problem():
    net = Inner()
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict({'w': ms.tensor([3.0, 4.0, 5.0]), 'rb': 3})
    assert str(info.value) == (
        'Error(s) in loading state_dict for Inner:\n\t'
        'size mismatch for w: copying a param with shape (3,) from checkpoint, the shape in '
        'current model is (2,).\n\tWhile copying the parameter named "rb", expected Tensor or '
        "Tensor-like object from checkpoint but received <class 'int'>")
    assert net.w.tolist() == [1.0, 2.0]


# ----------------------------------------------------------------- hooks
def test_state_dict_hooks_run_in_order_and_are_removable():
    net = Inner()
    log = []
    pre = net.register_state_dict_pre_hook(lambda c, p, k: log.append(('pre', p, k)))
    post = net.register_state_dict_post_hook(
        lambda c, d, p, m: log.append(('post', list(d), p, m)))
    net.state_dict(prefix='x.')
    assert log == [('pre', 'x.', False), ('post', ['x.w', 'x.rb'], 'x.', {})]
    bad = net.register_state_dict_post_hook(lambda c, d, p, m: 1)
    with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
        net.state_dict()
    for h in (pre, post, bad):
        h.remove()
        h.remove()
    log.clear()
    net.state_dict()
    assert log == []
    with pytest.raises(TypeError, match="register_state_dict_pre_hook: Expected a callable"):
        net.register_state_dict_pre_hook(3)
    net.register_state_dict_pre_hook(lambda c: None)      # accepted, failing when called
    with pytest.raises(TypeError, match=r"state_dict pre-hook '.*<lambda>\(c\)' cannot be called "
                                        r"with 3 positional arguments"):
        net.state_dict()


def test_load_state_dict_hooks():
    net = Outer()
    log = []
    net.b.register_load_state_dict_pre_hook(
        lambda c, sd, p, meta, strict, miss, unexp, errs: log.append(('pre b', p, list(sd))))
    net.register_load_state_dict_post_hook(lambda c, keys: log.append(('post Outer', keys)))
    net.b.register_load_state_dict_post_hook(lambda c, keys: log.append(('post b',)))
    net.load_state_dict(net.state_dict())
    assert [e[0] for e in log] == ['pre b', 'post b', 'post Outer']
    assert log[0][1:] == ('b.', ['b.w', 'b.rb'])
    assert repr(log[2][1]) == '<All keys matched successfully>'

    def clear_missing(cell, keys):
        keys.missing_keys.clear()

    net.register_load_state_dict_post_hook(clear_missing)
    sd = net.state_dict()
    del sd['top']
    net.load_state_dict(sd)                 # the hook cleared the missing key: no error
    net.register_load_state_dict_post_hook(lambda c, keys: 0)
    with pytest.raises(RuntimeError, match="are not expected to return new values"):
        net.load_state_dict(net.state_dict())
