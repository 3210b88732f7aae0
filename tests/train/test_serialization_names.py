"""mindspore.train.serialization's constants, dtype tables and helpers: values as MindSpore
2.10 has them."""
import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.train import serialization as S


def test_constants_have_mindspore_values():
    assert (S.ENCRYPT_BLOCK_SIZE, S.INT_64_MAX, S.PARAMETER_SPLIT_SIZE, S.PROTO_LIMIT_SIZE,
            S.SLICE_SIZE, S.TOTAL_SAVE) == (65536, 9223372036854775807, 1073741824, 2097152,
                                            524288, 1048576)


def test_dtype_tables():
    assert S.tensor_to_np_type('Float32') is np.float32
    assert S.tensor_to_np_type('Bool') is np.bool_ and S.tensor_to_np_type('str') == 'U'
    assert S.tensor_to_np_type('Complex64') is None
    # MindSpore 2.10 returns its NumPy bfloat16 type; hookgrad's is ml_dtypes' (its arrays')
    assert S.tensor_to_np_type('BFloat16') is ml_dtypes.bfloat16
    assert ms.Tensor(np.zeros(2, S.tensor_to_np_type('BFloat16'))).dtype == ms.bfloat16
    assert S.tensor_to_ms_type['Int8'] == ms.int8 and S.tensor_to_ms_type['Bool'] == ms.bool_
    assert repr(S.tensor_to_ms_type['str']) == 'mindspore.string_'
    assert repr(S.tensor_to_ms_type['Int4']) == 'mindspore.int4'
    assert repr(S.tensor_to_ms_type['BFloat16']) == 'mindspore.bfloat16'
    assert len(S.tensor_to_ms_type) == 15
    assert S.np_type_convert == {'int32': np.int32, 'float32': np.float32,
                                 'float16': np.float16, 'float64': np.float64}
    assert {k: repr(v) for k, v in S.mindir_to_tensor_type.items()} == {
        1: 'mindspore.float32', 2: 'mindspore.uint8', 3: 'mindspore.int8', 4: 'mindspore.uint16',
        5: 'mindspore.int16', 6: 'mindspore.int32', 7: 'mindspore.int64',
        10: 'mindspore.float16', 11: 'mindspore.float64', 12: 'mindspore.uint32',
        13: 'mindspore.uint64'}
    assert list(S.safetensors_to_mstype) == ['Int4']


def test_check_input_data():
    t = ms.Tensor([1.])
    assert S.check_input_data(t, [t, (t,)], {'a': t}, data_class=ms.Tensor) is None
    assert S.check_input_data(None, data_class=(ms.Tensor, None)) is None
    with pytest.raises(TypeError, match=r"must be in the Union\(Tensor, tuple\[Tensor\], "
                                        r"list\[Tensor\], dict\[Tensor\]\), but got type int"):
        S.check_input_data(1, data_class=ms.Tensor)
    with pytest.raises(TypeError, match="but got type None"):
        S.check_input_data(None, data_class=ms.Tensor)
    with pytest.raises(ValueError, match="The input data can not be empty"):
        S.check_input_data(ms.Tensor(np.zeros((0,), np.float32)), data_class=ms.Tensor)


def test_check_input_dataset():
    assert S.check_input_dataset([1], [2], dataset_type=list) is True
    assert S.check_input_dataset([1], (2,), dataset_type=list) is False
    assert S.check_input_dataset(dataset_type=list) is False


def test_reexports():
    assert S.merge_sliced_parameter is ms.merge_sliced_parameter
    assert S.new_merge_sliced_parameter is S.merge_sliced_parameter
    assert ms.train.merge_sliced_parameter is S.merge_sliced_parameter
    assert S.get_rank is ms.communication.get_rank
    assert S.get_group_size is ms.communication.get_group_size
    assert S.Cast is ms.ops.Cast and S.Generator is ms.Generator
    assert S.cpu_cast(ms.Tensor([1.5]), ms.int32).dtype == ms.int32


def test_merge_sliced_parameter_joins_along_axis_0():
    a = ms.Parameter(ms.Tensor(np.array([[1., 2.]], np.float32)), 'w')
    b = ms.Parameter(ms.Tensor(np.array([[3., 4.], [5., 6.]], np.float32)), 'w')
    merged = S.merge_sliced_parameter([a, b])
    assert merged.name == 'w' and merged.shape == (3, 2)
    np.testing.assert_array_equal(merged.asnumpy(), [[1., 2.], [3., 4.], [5., 6.]])
    with pytest.raises(NotImplementedError, match="strategy"):
        S.merge_sliced_parameter([a, b], {'w': None})


def test_strategy_readers_say_why():
    with pytest.raises(NotImplementedError, match="build_searched_strategy reads the parallel "
                                                  "strategy"):
        S.build_searched_strategy('strategy.ckpt')
    with pytest.raises(NotImplementedError, match="restore_group_info_list reads the parallel"):
        ms.train.restore_group_info_list('group_info.pb')
    assert S.new_build_searched_strategy is S.build_searched_strategy


@pytest.mark.parametrize('setting, printed', [
    ('3', True), ('(1,5)', True), ('(4,)', False), ('(,3)', True), ('', False), ('x', False)])
def test_vlog_print_follows_vlog_v(monkeypatch, capsys, setting, printed):
    monkeypatch.setenv('VLOG_v', setting)
    S.vlog_print('3', 'ME', '/x/mindspore/train/a.py', 12, 'hello')
    out = capsys.readouterr().out
    assert bool(out) is printed
    if printed:
        assert out.startswith('[V3] ME(') and out.rstrip().endswith(
            '[mindspore/train/a.py:12] hello')
