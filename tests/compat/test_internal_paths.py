"""The internal module paths and private names MindSpore code and MindSpore's own tests import,
the graph-mode Primitives model code calls, ``RowTensor`` and ``Symbol``. Expected values were
computed with MindSpore 2.10."""
import numpy as np
import pytest

import hookgrad
from hookgrad.compat import alias_mindspore, unalias_mindspore


@pytest.fixture
def mindspore():
    ms = alias_mindspore()
    yield ms
    unalias_mindspore()


def test_internal_paths_give_hookgrads_objects(mindspore):
    from mindspore.ops.composite.base import GradOperation, HyperMap, add_flags
    from mindspore.ops.function.grad.grad_func import grad, jvp, stop_gradient
    from mindspore.ops.primitive import (Primitive, PrimitiveWithInfer, constexpr,
                                         prim_attr_register)
    from mindspore.ops import constexpr as ops_constexpr, InsertGradientOf, FloatStatus
    from mindspore.train.model import ParallelMode
    from mindspore.nn.optim.optimizer import opt_init_args_register  # noqa: F401
    from mindspore.nn.grad import Jvp, Vjp
    from mindspore.ops._grad_experimental.grad_base import bprop_getters  # noqa: F401
    from mindspore._extends import cell_attr_register  # noqa: F401
    from mindspore.common.api import _cell_graph_executor  # noqa: F401
    from mindspore.common.parameter import _Buffer, _is_parameter_generated  # noqa: F401
    from mindspore._c_expression import CreationType
    ops = hookgrad.ops
    assert GradOperation is ops.GradOperation and HyperMap is ops.HyperMap
    assert add_flags is ops.add_flags is ops.composite.add_flags
    assert grad is ops.grad and jvp is ops.jvp and stop_gradient is ops.stop_gradient
    assert Primitive is ops.Primitive and PrimitiveWithInfer is ops.PrimitiveWithInfer
    assert constexpr is ops_constexpr is hookgrad.constexpr
    assert prim_attr_register is ops.prim_attr_register
    assert InsertGradientOf is ops.operations.InsertGradientOf and FloatStatus is ops.FloatStatus
    assert ParallelMode is hookgrad.ParallelMode
    assert Jvp is hookgrad.nn.Jvp and Vjp is hookgrad.nn.Vjp
    assert mindspore.nn.GraphCell is hookgrad.train.graph_cell.GraphCell
    assert [(m.name, int(m)) for m in CreationType] == [
        ('DEFAULT', 0), ('NO_GRAD_MODE', 1), ('MULTI_OUTPUT', 2), ('CUSTOM_BPROP', 3)]


def test_add_flags_merges_into_func_graph_flags():
    from hookgrad.ops import add_flags

    def f():
        pass
    assert add_flags(f, predit=True)._func_graph_flags == {'predit': True}
    assert add_flags(f, a=True, b=False)._func_graph_flags == {'predit': True, 'a': True,
                                                               'b': False}
    assert add_flags(a=True)(f) is f


def test_make_range_and_tuple_len(mindspore):
    from mindspore.ops.functional import make_range, tuple_len
    assert repr(make_range) == 'Prim[make_range]' and repr(tuple_len) == 'Prim[sequence_len]'
    assert make_range(5) == (0, 1, 2, 3, 4) and make_range(1, 5) == (1, 2, 3, 4)
    assert make_range(1, 10, 3) == (1, 4, 7) and make_range(5, 1, -2) == (5, 3)
    assert make_range(0) == () and make_range(1, 5, -1) == ()
    assert tuple_len((1, 2, 3)) == 3 and tuple_len([1, 2]) == 2
    with pytest.raises(RuntimeError, match="For 'range', the argument 'step' could not be 0."):
        make_range(1, 2, 0)
    with pytest.raises(TypeError, match="For 'make_range', the 0th input should be a int"):
        make_range(1.5)
    with pytest.raises(RuntimeError, match="the input size should within \\[1, 3\\] but got0"):
        make_range()


def test_partial_and_float_status(mindspore):
    ops, Tensor = mindspore.ops, mindspore.Tensor
    assert ops.Partial()(lambda x, y: x + y, Tensor(1))(Tensor(2)).item() == 3
    with pytest.raises(AttributeError, match="'int' object has no attribute '__call__'"):
        ops.Partial()(1, 2)
    status = ops.FloatStatus()
    x = Tensor(np.array([np.nan, 1, -np.inf]), mindspore.float32)
    out = status(x)
    assert out.shape == (1,) and out.dtype == mindspore.float32 and out.item() == 1.0
    assert status(Tensor([1.0, 2.0])).item() == 0.0
    with pytest.raises(TypeError, match=r"For primitive\[FloatStatus\], the input argument\[x\] "
                                        r"must be a type of \{Tensor\[Float16\]"):
        status(Tensor([1, 2]))


def test_insert_gradient_of_changes_the_gradient(mindspore):
    ops, Tensor = mindspore.ops, mindspore.Tensor

    def triple(dx):
        return dx * 3
    clip = ops.InsertGradientOf(triple)
    gx, gy = ops.GradOperation(get_all=True)(lambda x, y: clip(x) * y)(Tensor([1.0]),
                                                                       Tensor([5.0]))
    assert (gx.asnumpy().tolist(), gy.asnumpy().tolist()) == ([15.0], [1.0])   # MindSpore's
    assert clip(Tensor([2.0])).asnumpy().tolist() == [2.0]

    @mindspore.jit
    def jitted(x, y):
        return mindspore.grad(lambda a, b: clip(a) * b, grad_position=(0, 1))(x, y)
    for _ in range(2):          # the trace, then a replay
        gx, gy = jitted(Tensor([1.0]), Tensor([5.0]))
        assert (gx.asnumpy().tolist(), gy.asnumpy().tolist()) == ([15.0], [1.0])


def test_python_primitive_with_registered_bprop(mindspore):
    from mindspore.ops.primitive import PrimitiveWithInfer, prim_attr_register
    from mindspore.ops._grad_experimental.grad_base import bprop_getters, get_bprop_fn

    class Scale(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self, factor=2.0):
            self.init_prim_io_names(inputs=['x'], outputs=['y'])

        def construct(self, x):
            return x * self.factor

    scale = Scale()
    assert scale.factor == 2.0 and scale.attrs['output_names'] == ['y']
    x = mindspore.Tensor([1.0, 2.0])
    assert mindspore.grad(lambda t: scale(t).sum())(x).asnumpy().tolist() == [2.0, 2.0]

    @bprop_getters.register(Scale)
    def get_bprop(prim):
        def bprop(x, out, dout):
            return (dout * 10,)
        return bprop
    try:
        assert get_bprop_fn(scale) is not None
        assert mindspore.grad(lambda t: scale(t).sum())(x).asnumpy().tolist() == [10.0, 10.0]
    finally:
        bprop_getters.pop(id(Scale)), bprop_getters.pop('Scale')


def test_private_names_of_mindsporess_tests(mindspore):
    from mindspore._extends import cell_attr_register
    from mindspore.common.parameter import _Buffer, _is_parameter_generated
    from mindspore.common.api import _cell_graph_executor
    from mindspore.nn.optim.optimizer import opt_init_args_register

    class C(mindspore.nn.Cell):
        @cell_attr_register
        def __init__(self, a, b=2):
            super().__init__()
            self.a = a

    class D(mindspore.nn.Cell):
        @cell_attr_register(attrs=['a'])
        def __init__(self, a):
            super().__init__()
            self.a = a
    assert C(1).cell_init_args == 'Cdict_values([1])'        # MindSpore's strings
    assert C(1, b=3).cell_init_args == 'Cdict_values([1, 3])'
    assert D(5).cell_init_args == 'D[5]'

    buffer = _Buffer(mindspore.Tensor([1.0, 2.0]))
    assert (buffer._is_buffer, buffer.persistent) == (True, True)
    assert isinstance(buffer, _Buffer) and not isinstance(mindspore.Tensor([1.0]), _Buffer)
    assert _Buffer(mindspore.Tensor([1.0]), persistent=False).persistent is False
    with pytest.raises(ValueError, match='For create Buffer, input data should not be None'):
        _Buffer(None)
    with pytest.raises(TypeError, match='For create Buffer, type of input data should be Tensor'):
        _Buffer([1.0])
    assert _is_parameter_generated('Parameter#1') and not _is_parameter_generated('w')
    assert not _is_parameter_generated(None)

    net = mindspore.nn.Dense(2, 1)
    x = mindspore.Tensor(np.ones((1, 2), np.float32))
    phase, ok = _cell_graph_executor.compile(net, x)
    assert ok and _cell_graph_executor.has_compiled(phase)
    np.testing.assert_allclose(_cell_graph_executor.run(net, phase=phase.split('.')[0]).asnumpy(),
                               net(x).asnumpy())

    class Opt:
        @opt_init_args_register
        def __init__(self, params, learning_rate=0.1, momentum=0.9):
            pass
    opt = Opt(['p'], mindspore.Tensor([0.5]))
    assert opt.init_params == {'params': ['p']} and opt.init_learning_rate == [0.5]
    assert opt.init_args == {'momentum': 0.9}


def test_row_tensor(mindspore):
    Tensor = mindspore.Tensor
    rows = mindspore.RowTensor(Tensor([0, 2]), Tensor([[1., 2.], [3., 4.]]), (3, 2))
    assert rows.dense_shape == (3, 2) and rows.indices.asnumpy().tolist() == [0, 2]
    assert mindspore.RowTensor(row_tensor=rows).values.asnumpy().tolist() == [[1., 2.], [3., 4.]]
    assert rows.to_dense().asnumpy().tolist() == [[1., 2.], [0., 0.], [3., 4.]]
    with pytest.raises(TypeError, match='RowTensor: shape must be a tuple of ints'):
        mindspore.RowTensor(Tensor([0]), Tensor([[1., 2.]]), [3, 2])
    with pytest.raises(TypeError, match='RowTensor: indices and values must be Tensors'):
        mindspore.RowTensor([0], Tensor([[1., 2.]]), (3, 2))
    with pytest.raises(ValueError, match='do not fit the dense shape'):
        mindspore.RowTensor(Tensor([0]), Tensor([[1., 2., 3.]]), (3, 2))


def test_symbol(mindspore):
    from mindspore import Symbol
    assert str(Symbol(divisor=8, remainder=1)) == "{'divisor': 8, 'remainder': 1}"
    assert Symbol(min=10, divisor=2, remainder=1).to_dict() == {'min': 10, 'divisor': 2,
                                                                 'remainder': 1}
    s = Symbol(max=32, divisor=8, remainder=1)
    assert [s.admits(n) for n in (1, 9, 17, 16, 25, 33)] == [False, True, True, False, True,
                                                             False]
    with pytest.raises(ValueError, match="For 'Symbol', the 'min' value should be positive, "
                                         "but got 0"):
        Symbol(min=0)
    with pytest.raises(ValueError, match=r"the 'remainder' value should be in the range "
                                         r"'\[0, 2\)', but got 2"):
        Symbol(divisor=2, remainder=2)
    with pytest.raises(TypeError, match="For 'Symbol', the argument 'max' must be int, but got "
                                        "<class 'float'>"):
        Symbol(max=1.0)


def test_nn_graph_cell_runs_an_exported_network(mindspore, tmp_path):
    from mindspore import nn
    mindspore.set_seed(3)
    net = nn.Dense(3, 2)
    x = mindspore.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    path = str(tmp_path / 'dense')
    mindspore.export(net, x, file_name=path, file_format='HOOKGRAD')
    graph = nn.GraphCell(mindspore.load(path + '.hookgrad'))
    np.testing.assert_allclose(graph(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)


def test_ops_function_modules(mindspore):
    """``mindspore.ops.function.math_func``/``array_func``/``nn_func`` hold the functional ops;
    a name MindSpore has there and hookgrad lacks says so."""
    from mindspore.ops.function.math_func import approximate_equal
    from mindspore.ops.function import array_func, nn_func, math_func
    ops = hookgrad.ops
    assert approximate_equal is ops.approximate_equal and math_func.addmv is ops.addmv
    assert array_func.gather is ops.gather and nn_func.dropout is ops.dropout
    assert 'approximate_equal' in math_func.__all__ and 'dropout' not in math_func.__all__
    with pytest.raises(AttributeError, match="math_func.rotated_iou is not available in hookgrad"):
        math_func.rotated_iou
    with pytest.raises(ImportError, match="nn_func.speed_fusion_attention is not available"):
        from mindspore.ops.function.nn_func import speed_fusion_attention  # noqa: F401


def test_ops_auto_generate_and_array_func_primitives(mindspore):
    """``mindspore.ops.auto_generate`` holds the ops (and ``contiguous``/``copy``);
    ``array_func.arg_max_with_value_`` is a default ArgMaxWithValue: Int64 index, as MindSpore."""
    from mindspore.ops.auto_generate import contiguous, copy, Cast, add
    assert mindspore.ops.auto_generate.greater is hookgrad.ops.greater   # an attribute of ops
    from mindspore.ops.function.array_func import arg_max_with_value_, arg_min_with_value_
    ops = hookgrad.ops
    assert Cast is ops.Cast and add is ops.add
    x = hookgrad.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = ops.transpose(x, (1, 0))
    c = contiguous(y)
    assert c.is_contiguous() and c.tolist() == y.tolist()
    d = copy(x)
    assert d is not x and d.tolist() == x.tolist()
    d[0, 0] = 50.0
    assert x[0, 0].item() == 0.0                        # a copy: x unchanged
    g = hookgrad.grad(lambda t: (contiguous(ops.transpose(t, (1, 0))) * 2).sum())(x)
    assert g.tolist() == [[2.0] * 3] * 2
    for f in (contiguous, copy):
        with pytest.raises(TypeError, match="input must be a Tensor, got int"):
            f(1)
    with pytest.raises(AttributeError, match="auto_generate.ring_attention_update is not avail"):
        mindspore.ops.auto_generate.ring_attention_update
    v = hookgrad.Tensor(np.array([0.0, 0.4, 0.6, 0.7, 0.1]), hookgrad.float32)
    index, value = arg_max_with_value_(v)
    assert (index.item(), index.dtype, round(value.item(), 6)) == (3, hookgrad.int64, 0.7)
    index, value = arg_min_with_value_(v)
    assert (index.item(), index.dtype, value.item()) == (0, hookgrad.int64, 0.0)
