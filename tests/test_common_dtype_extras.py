"""mindspore.common's Int, QuantDtype, _null, enable_dynamic, ms_memory_recycle,
flops_collection, MindIO settings and DeviceCtx, against MindSpore 2.10's recorded behaviour."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.common import dtype as mstype, file_system


def test_int_is_the_class_of_signed_integer_types():
    assert mstype.Int(8) is ms.int8 and mstype.Int(64) is ms.int64
    assert repr(mstype.Int()) == 'mindspore.int'
    assert isinstance(ms.int32, ms.Int) and isinstance(mstype.Int(), ms.Int)
    assert not isinstance(ms.uint8, ms.Int) and not isinstance(ms.float32, ms.Int)
    assert not isinstance(3, ms.Int)
    with pytest.raises(RuntimeError, match="For Int type only support number of 8bits, 16bits, "
                                           "32bits and 64bits, but got 3bits"):
        mstype.Int(3)
    assert ms.dtype.Int is ms.Int is ms.common.Int


def test_quant_dtype_values():
    assert [q.name for q in ms.QuantDtype][:3] == ['INT1', 'INT2', 'INT3']
    assert len(ms.QuantDtype) == 32
    assert ms.QuantDtype.INT8.value() == 7 and ms.QuantDtype.UINT16.value() == 115  # MS docs
    assert str(ms.QuantDtype.INT4) == 'INT4'
    assert ms.QuantDtype(103) is ms.QuantDtype.UINT4


def test_null_type():
    null = mstype._null
    assert repr(null) == 'mindspore.Null' and str(null) == 'Null'
    assert isinstance(null, ms._NullType) and isinstance(null, mstype.Type)
    assert null == null and null != ms.type_none and null != ms.int32
    assert ms._null is null is ms.common._null
    with pytest.raises(TypeError, match="cannot be a hookgrad tensor's dtype"):
        ms.Tensor([1], dtype=null)


class _Placeholder(ms.Tensor):
    """A tensor reporting a dynamic shape (what MindSpore's Tensor(shape=[None, 3]) reports)."""

    def __init__(self, shape):
        super().__init__(np.zeros(1, np.float32))
        self._dynamic = tuple(shape)

    @property
    def shape(self):
        return self._dynamic


def test_enable_dynamic_marks_the_arguments():
    x = _Placeholder((-1, 3))

    def fn(x, y):
        return x + y
    assert ms.enable_dynamic(x=x)(fn) is fn
    assert fn.__enable_dynamic__ == {0: ('x', x)}

    def fn2(a, b):
        return a
    whole = [_Placeholder((-2,)), ms.Tensor(np.ones(2, np.float32))]
    ms.enable_dynamic(b=whole)(fn2)
    assert fn2.__enable_dynamic__ == {1: ('b', whole)}
    assert fn(ms.Tensor([1.0]), ms.Tensor([2.0])).asnumpy().tolist() == [3.0]


def test_enable_dynamic_bad_input():
    def fn(x, y):
        return x
    with pytest.raises(ValueError, match="the input cannot be empty!"):
        ms.enable_dynamic()
    with pytest.raises(TypeError, match="only supports Tensor or a tuple/list of Tensor, but the "
                                        "argument : x is type of:<class 'int'>."):
        ms.enable_dynamic(x=1)
    with pytest.raises(TypeError, match="the shape of argument 'x' at least have one None."):
        ms.enable_dynamic(x=ms.Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(TypeError, match=r"The argument 'x' has invalid shape '\(-1, 0\)'"):
        ms.enable_dynamic(x=_Placeholder((-1, 0)))
    marks = ms.enable_dynamic(x=_Placeholder((-1,)))
    with pytest.raises(ValueError, match="can only be used for function or method"):
        marks(ms.nn.Dense(2, 2))
    with pytest.raises(ValueError, match="'q' is not in list"):
        ms.enable_dynamic(q=_Placeholder((-1,)))(fn)
    with pytest.raises(ValueError, match="the number of arguments 3 exceeds the number of "
                                         "function arguments 2."):
        ms.enable_dynamic(x=_Placeholder((-1,)), y=_Placeholder((-1,)),
                          z=_Placeholder((-1,)))(fn)


def test_memory_recycle_and_flops():
    assert ms.ms_memory_recycle() is None
    assert ms.memory_reserved() == ms.memory_allocated()
    with pytest.raises(NotImplementedError, match="flops_collection: .*'train' graph"):
        ms.flops_collection()


def test_mindio():
    saved = dict(file_system.mindio_server_info)
    try:
        ms.set_mindio_server_info(8)
        assert file_system.mindio_server_info == {"memfs.data_block_pool_capacity_in_gb": "8"}
        with pytest.raises(ValueError, match="must be int and must > 0, but got '0' with type "
                                             "'int'."):
            ms.set_mindio_server_info(0)
        with pytest.raises(TypeError, match="The 'data_block_pool_capacity_in_gb' must be int, "
                                            "but got 'str'"):
            ms.set_mindio_server_info('a')
    finally:
        file_system.mindio_server_info.clear()
        file_system.mindio_server_info.update(saved)
    assert ms.mindio_preload('net.ckpt') is False      # MindSpore without MindIO
    with pytest.raises(TypeError, match="For 'mindio_preload', the type of 'ckpt_file_name' "
                                        "should be 'str', but got type 'int'."):
        ms.mindio_preload(1)


def test_device_ctx():
    before = ms.get_context('device_target')
    with ms.DeviceCtx('CPU') as ctx:
        assert ctx.name == 'CPU' and ms.get_context('device_target') == 'CPU'
        assert ms.Tensor([1.0]).asnumpy().tolist() == [1.0]
    assert ms.get_context('device_target') == before
    with pytest.raises(ValueError, match=r"the name must be one of \['CPU', 'GPU', 'Ascend', "
                                         r"'meta'\], but got TPU."):
        with ms.DeviceCtx('TPU'):
            pass
    with pytest.raises(ValueError, match="device_id must be greater than or equal to 0"):
        with ms.DeviceCtx('CPU', -1):
            pass
    with pytest.raises(ValueError, match="hookgrad has no Ascend device"):
        with ms.DeviceCtx('Ascend'):
            pass
    with pytest.raises(ValueError, match="no 'meta' device"):
        with ms.DeviceCtx('meta'):
            pass
    assert ms.get_context('device_target') == before


def test_device_ctx_gpu_block_puts_new_tensors_there():
    from hookgrad.kernels import backend
    gpu = backend.gpu()         # the CUDA stand-in under the test suite
    with ms.DeviceCtx('GPU'):
        assert ms.get_context('device_target') == 'GPU'
        inside = ms.Tensor([1.0, 2.0])
        assert backend.device_of(inside._data) is gpu
    outside = ms.Tensor([1.0])
    assert backend.device_of(outside._data) is backend.CPU
    assert ms.get_context('device_target') == 'CPU'
