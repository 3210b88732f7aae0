"""MindSpore's runtime and compiler members of Tensor, Parameter and Cell: the defaults and
checks are the ones MindSpore 2.10 shows on CPU."""
import gc
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


def _t():
    return ms.Tensor(np.array([1., 2.], np.float32))


def test_tensor_defaults_match_mindspore():
    x = _t()
    assert (x.init_flag, x.init_finished, x.is_meta, x.virtual_flag, x.const_arg) == \
        (False, True, False, False, False)
    assert x.param_info is None and x.parent_tensor_ is None and x.index_of_parent_ is None
    assert x.symbolic_shape is None and x.init is None and ms.Tensor.delta_seed == 0
    assert x.data_sync() is None and x.data_sync(True) is None and x.wait_pipeline() is None
    assert x.offload_file_path() == ''
    assert x.get_bytes() == b'\x00\x00\x80?\x00\x00\x00@'
    assert ms.Tensor([1, 2], ms.int32).get_bytes() == b'\x01\x00\x00\x00\x02\x00\x00\x00'


def test_tensor_flags_are_set():
    x = _t()
    assert x.set_const_arg() is x and x.const_arg is True
    assert ms.Tensor([1.], const_arg=True).const_arg is True
    assert x.set_init_flag(True) is None and x.init_flag is True
    x.virtual_flag = True
    assert x.virtual_flag is True
    with pytest.raises(TypeError, match="For 'set_const_arg', the type of 'const_arg' should "
                                        "be 'bool', but got type 'int'"):
        x.set_const_arg(1)
    with pytest.raises(AttributeError):
        x.is_meta = True
    with pytest.raises(AttributeError):
        x.init_finished = False


def test_tensor_param_info():
    x = _t()
    info = ms.Parameter(_t(), name='w').param_info
    x.set_param_info(info)
    assert x.param_info is info
    with pytest.raises(TypeError, match="param_info must be a ParamInfo, got int"):
        x.set_param_info(3)


def test_tensor_offload_writes_the_values_and_keeps_them(tmp_path):
    path = str(tmp_path / 'x.bin')
    x = _t()
    assert x.offload(path) is True
    assert x.offload_file_path() == path
    assert open(path, 'rb').read() == x.get_bytes()
    np.testing.assert_array_equal(x.asnumpy(), [1., 2.])
    del x
    gc.collect()
    assert not os.path.exists(path)
    with pytest.raises(TypeError, match="file_path must be a str"):
        _t().offload(1)


def test_tensor_members_hookgrad_cannot_honour_say_why():
    x = _t()
    with pytest.raises(RuntimeError, match="pin_memory needs an Ascend device"):
        x.pin_memory()
    with pytest.raises(NotImplementedError, match="call remove\\(\\) on the handle"):
        ms.Tensor.remove_hook(1)


def test_parameter_defaults_match_mindspore():
    p = ms.Parameter(_t(), name='w')
    assert (p.cache_enable, p.cache_shape, p.comm_fusion, p.key, p.inited_param,
            p.parallel_optimizer_comm_recompute) == (False, [], 1, -1, None, False)
    assert (p.init_flag, p.init_finished, p.is_meta, p.virtual_flag, p.const_arg) == \
        (False, True, False, False, False)
    assert p.param_info.name == 'w' and p.param_info.requires_grad is True
    assert p.param_info is p.param_info


def test_parameter_settings_and_checks():
    p = ms.Parameter(_t(), name='w')
    p.comm_fusion = 3
    p.cache_enable = True
    p.cache_shape = [1, 2]
    p.key = 2
    p.parallel_optimizer_comm_recompute = True
    assert (p.comm_fusion, p.cache_enable, p.cache_shape, p.key,
            p.parallel_optimizer_comm_recompute) == (3, True, [1, 2], 2, True)
    assert p.add_pipeline_stage(1) is None and p._pipeline_stage_list == [1]
    with pytest.raises(ValueError, match="must be int and must >= 0, but got '-1'"):
        p.comm_fusion = -1
    with pytest.raises(TypeError, match="The input value must be int, but got 'float'"):
        p.comm_fusion = 1.0
    with pytest.raises(TypeError, match="The input value must be a bool, but got int"):
        p.parallel_optimizer_comm_recompute = 1
    with pytest.raises(TypeError, match="`cache_enable` must be bool type"):
        p.cache_enable = 1
    with pytest.raises(TypeError, match="`key` must be int type"):
        p.key = 'a'
    with pytest.raises(TypeError, match="`stage` must be a positive number of int type"):
        p.add_pipeline_stage(-1)


def test_parameter_clone_keeps_the_settings_but_not_the_stages():
    p = ms.Parameter(_t(), name='w')
    p.comm_fusion = 3
    p.cache_enable = True
    p.add_pipeline_stage(2)
    c = p.clone()
    assert (c.comm_fusion, c.cache_enable, c.name, c._pipeline_stage_list) == (3, True, 'w', [])
    assert c.param_info is not p.param_info


def test_cell_defaults_match_mindspore():
    c = nn.Dense(2, 3)
    assert c.compile_cache == set() and c.phase_cache == {} and c.exist_objs == set()
    assert c.compile_phase is None and c.compiled is False and c.phase == 'train'
    assert c.parameter_layout_dict == {} and c.parallel_parameter_name_list == ()
    assert c.parallel_parameter_merge_net_dict == {} and c.jit_config_dict == {}
    assert abs(c.create_time / 1e9 - __import__('time').time()) < 60
    assert len(nn.Cell.global_cells) == 0 and repr(nn.Cell.T_destination) == '~T_destination'
    assert nn.Cell.IGNORE_LIST[:3] == ['_scope', '_cell_init_args', '_auto_prefix']
    assert c.remove_redundant_parameters() is None and c.offload() is None


def test_cell_instance_count_follows_live_cells():
    gc.collect()
    before = nn.Cell.total_instance_count
    cells = [nn.Dense(2, 3), nn.ReLU()]
    assert nn.Cell.total_instance_count == before + 2
    later = nn.Dense(2, 3)
    assert later.create_time >= cells[0].create_time
    del cells
    gc.collect()
    assert nn.Cell.total_instance_count == before + 1


def test_cell_settings_and_checks():
    c = nn.SequentialCell([nn.Dense(2, 3)])
    c.set_train(False)
    assert c.phase == 'predict'
    c.phase = 'export'
    assert c.phase == 'export'
    c.compile_phase = 'p1'
    assert c[0].compile_phase == 'p1'
    c.set_jit_config(ms.JitConfig(jit_level='O1'))
    assert c.jit_config_dict['jit_level'] == 'O1'
    with pytest.raises(TypeError, match="the property 'phase' must be string type"):
        c.phase = 1
    with pytest.raises(TypeError, match="'compile_phase' must be string type"):
        c.compile_phase = 1
    with pytest.raises(TypeError, match="'parameter_layout_dict' must be dict type"):
        c.parameter_layout_dict = []
    with pytest.raises(TypeError, match="'parallel_parameter_name_list' must be list type"):
        c.parallel_parameter_name_list = ()
    with pytest.raises(ValueError, match="backward_prefetch must be 'Auto' or an int > 0"):
        c.offload(0)
    with pytest.raises(NotImplementedError, match="builds no graph"):
        c.get_func_graph_proto()


def test_cell_to_empty_gives_new_storage_of_the_same_shape():
    c = nn.Dense(2, 3)
    weight = c.weight
    old = weight._data
    assert c.to_empty() is c
    assert c.weight is weight and weight.shape == (3, 2) and weight.dtype == ms.float32
    assert weight._data is not old
    assert c.to_empty(device='CPU') is c
    with pytest.raises(TypeError, match="device must be a str"):
        c.to_empty(device=1)
