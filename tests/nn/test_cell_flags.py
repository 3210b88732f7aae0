"""Cell flags, scopes, parameter names, Cell.to, and the compiler and parallel settings, checked
against MindSpore 2.10 (expected values and messages are what MindSpore 2.10 gives)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
        self.register_buffer('rb', ms.tensor([1, 2, 3]))
        self.register_buffer('fb', ms.tensor([1.0, 2.0]))
        self.d = nn.Dense(2, 2)

    def construct(self, x):
        return self.d(x * self.w)


def x():
    return ms.tensor(np.ones((1, 2), np.float32))


# ----------------------------------------------------------------- flags
def test_flags():
    net = Net()
    assert net.get_flags() == {}
    assert net.add_flags(a=1) is net and net.get_flags() == {'a': 1} and net.a == 1
    net.add_flags_recursive(b=2)
    assert net.get_flags() == {'a': 1, 'b': 2} and net.d.get_flags() == {'b': 2}
    net.set_boost('less_bn')
    assert net.d.get_flags() == {'b': 2, 'less_bn': True}
    with pytest.raises(ValueError, match="For 'set_boost', the argument 'boost_type' must be "
                                         "'less_bn', but got x."):
        net.set_boost('x')
    net.set_broadcast_flag()
    assert net.d.broadcast_flag is True
    assert nn.Cell(flags={'sink_mode': True}).get_flags() == {'sink_mode': True}


def test_bprop_debug_and_cell_init_args_properties():
    net = Net()
    assert net.bprop_debug is False
    net.bprop_debug = True
    assert net.bprop_debug is True
    with pytest.raises(TypeError, match="For 'Cell', the property 'bprop_debug' must be bool "
                                        "type, but got type <class 'int'>."):
        net.bprop_debug = 1
    assert net.cell_init_args is None
    net.cell_init_args = 'x'
    assert net.cell_init_args == 'x'
    with pytest.raises(TypeError, match="the property 'cell_init_args' must be string type"):
        net.cell_init_args = 3


def test_enable_backward_hook_says_whether_backward_hooks_are_registered():
    net = Net()
    assert net.enable_backward_hook is False
    h = net.register_forward_hook(lambda c, i, o: None)
    assert net.enable_backward_hook is False
    g = net.register_backward_hook(lambda c, gi, go: None)
    assert net.enable_backward_hook is True
    g.remove()
    h.remove()
    assert net.enable_backward_hook is False


# ----------------------------------------------------------------- scopes and names
def test_scopes():
    net = Net()
    assert net.get_scope() is None and net.d.get_scope() is None
    net.generate_scope()
    # MindSpore 2.10 (reserve_class_name_in_scope defaults to True)
    assert net.get_scope() is None and net.d.get_scope() == 'Default/d-Dense'
    other = Net()
    other.recompute()
    other.generate_scope()
    assert (other.get_scope(), other.d.get_scope()) == ('recompute_', 'recompute_Default/d-Dense')


def test_update_parameters_name_and_check_names():
    net = Net()
    net.update_parameters_name('pre.')
    assert [p.name for p in net.get_parameters()] == ['pre.w', 'pre.d.weight', 'pre.d.bias']
    net.update_parameters_name()
    assert [p.name for p in net.get_parameters()] == ['w', 'd.weight', 'd.bias']
    with pytest.raises(ValueError, match=r"The 'a b' is illegal, it must be match regular"):
        net.update_parameters_name('a b')
    with pytest.raises(TypeError, match="update_parameters_name: prefix must be a str, got int"):
        net.update_parameters_name(3)
    net.check_names()
    net.d.bias.name = 'w'
    with pytest.raises(ValueError, match="its name 'w' already exists. Please set a unique name"):
        net.check_names()
    net.check_names_and_refresh_name()
    assert [p.name for p in net.get_parameters()] == ['w', 'd.weight', 'd.bias']


def test_cell_prefix_type_and_broadcast_dict():
    net = Net()
    assert net.d.param_prefix == ''
    net.update_cell_prefix()
    assert (net.param_prefix, net.d.param_prefix) == ('', 'd')      # as MindSpore 2.10
    net.update_cell_type('quant')
    assert net.cell_type == 'quant'
    assert list(net.parameters_broadcast_dict()) == ['w', 'd.weight', 'd.bias']
    assert list(net.parameters_broadcast_dict(recurse=False)) == ['w']
    assert nn.Cell().parameters_broadcast_dict() is None


def test_exist_names():
    net = nn.Cell()
    net.plist = [ms.Parameter(ms.Tensor([1.0]), name='a')]
    assert net.exist_names == {'a'}


# ----------------------------------------------------------------- to
def test_to_casts_floating_parameters_and_buffers():
    net = Net()
    w = net.w
    assert net.to('CPU') is net and net.w.dtype == ms.float32
    net.to(ms.float16)
    # MindSpore 2.10: Float16 Int64 Float16 Float16
    assert (net.w.dtype, net.rb.dtype, net.fb.dtype, net.d.weight.dtype) == \
        (ms.float16, ms.int64, ms.float16, ms.float16)
    assert net.w is w and net.w.tolist() == [1.0, 2.0]
    net.to(device='CPU', dtype=ms.float64)
    assert net.w.dtype == ms.float64
    net.to(ms.tensor([1], ms.float32), False)
    assert net.d.bias.dtype == ms.float32 and net(x()).dtype == ms.float32


def test_to_errors():
    net = Net()
    with pytest.raises(TypeError, match="Cell.to only accepts floating point or complex "
                                        "dtypes, but got desired dtype=Int32"):
        net.to(ms.int32)
    with pytest.raises(ValueError, match="Cell.to: hookgrad computes on the CPU .*; device "
                                         "'GPU' is not available"):
        net.to('GPU')
    with pytest.raises(TypeError, match="got an argument of type int"):
        net.to(3)
    with pytest.raises(TypeError, match=r"keywords \['foo'\]"):
        net.to(foo=1)


# ----------------------------------------------------------------- compiler and parallel
def test_recompute_changes_no_value_and_sets_mindspore_flags():
    net, ref = Net(), Net()
    ref.load_state_dict(net.state_dict())
    assert net.recompute() is None
    # MindSpore 2.10: {'output_recompute': False} on the cell, {} on its sub-cells
    assert net.get_flags() == {'output_recompute': False} and net.d.get_flags() == {}
    assert np.array_equal(net(x()).asnumpy(), ref(x()).asnumpy())
    g1 = ms.grad(lambda a: net(a).sum())(x())
    g2 = ms.grad(lambda a: ref(a).sum())(x())
    assert np.array_equal(g1.asnumpy(), g2.asnumpy())
    with pytest.raises(ValueError, match="For 'recompute', keyword 'bad' is not recognized!"):
        Net().recompute(bad=1)
    with pytest.raises(TypeError, match="The parameter 'mp_comm_recompute' must be "
                                        "<class 'bool'>, but got <class 'int'>"):
        Net().recompute(mp_comm_recompute=1)


def test_parallel_settings_on_one_process():
    net = Net()
    assert net.shard(((1,),)) is None
    assert net.set_data_parallel() is None
    assert net.set_comm_fusion(2) is net
    with pytest.raises(ValueError, match="The input value must be int and must >= 0, but got "
                                         "'-1' with type 'int'."):
        net.set_comm_fusion(-1)
    with pytest.raises(TypeError, match="The input value must be int, but got 'float'"):
        net.set_comm_fusion(1.5)
    assert net.pipeline_stage is None
    net.pipeline_stage = 1
    assert net.pipeline_stage == 1
    with pytest.raises(ValueError, match="For 'Cell', the property 'pipeline_stage' can not be "
                                         "less than 0, but got -1"):
        net.pipeline_stage = -1
    with pytest.raises(TypeError, match="the property 'pipeline_segment' must be int type"):
        net.pipeline_segment = True


def test_compile_and_run_is_the_graph_mode_call():
    net = Net()
    expected = net(x()).asnumpy()
    assert np.array_equal(net.compile_and_run(x()).asnumpy(), expected)
    assert np.array_equal(net.compile_and_run(x()).asnumpy(), expected)      # replayed
    with pytest.raises(RuntimeError, match="compile: hookgrad records a cell's graph-mode "
                                           "program while running its first call"):
        net.compile(x())


def test_run_construct():
    net = Net()
    with pytest.warns(DeprecationWarning, match="'run_construct' function of 'Net' will be "
                                                "removed"):
        out = net.run_construct((x(),), {})
    assert np.array_equal(out.asnumpy(), net(x()).asnumpy())


def test_graph_only_hooks_raise():
    net = Net()
    with pytest.raises(RuntimeError, match="register_parameter_forward_hook: MindSpore applies "
                                           "parameter forward hooks only in its compiled graphs"):
        net.register_parameter_forward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match="register_saved_tensors_hooks: pack and unpack "
                                           "hooks on saved tensors are not available"):
        net.register_saved_tensors_hooks(lambda t: t, lambda t: t)


def test_set_train_records_the_training_flag_as_mindspore():
    # MindSpore 2.10: {} for a new cell, {'training': True} after set_train()
    net = nn.Dense(2, 2)
    assert net.get_flags() == {}
    net.set_train()
    assert net.get_flags() == {'training': True}
    assert net.set_train(False).get_flags() == {'training': False}
