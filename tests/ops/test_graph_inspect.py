"""ops.typeof, hastype, shape helpers, eps, is_nonzero, cond, kernel and signature: the
expected values are what MindSpore 2.10 gives on CPU."""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import composite as C, functional as F


def test_typeof_as_graph_mode_types():
    assert ops.typeof(ms.Tensor([1.])) == ms.TensorType(ms.float32)
    assert repr(ops.typeof(ms.Tensor([1.]))) == 'mindspore.tensor[float32]'
    assert ops.typeof(ms.Tensor([1], ms.int32)) == ms.TensorType(ms.int32)
    assert ops.typeof(1) == ms.int64 and ops.typeof(1.0) == ms.float32
    assert ops.typeof(True) == ms.bool_
    assert repr(ops.typeof('a')) == 'mindspore.string_'
    assert repr(ops.typeof((1, 2.0))) == 'mindspore.tuple_'
    assert repr(ops.typeof([1])) == 'mindspore.list_'
    assert repr(ops.typeof(None)) == 'mindspore.type_none'
    assert repr(ops.typeof(ops.add)) == 'mindspore.function'
    assert repr(ops.typeof(ms.float32)) == 'mindspore.type_type'
    with pytest.raises(TypeError, match="typeof: hookgrad has no MindSpore type for a dict"):
        ops.typeof({'a': 1})


@pytest.mark.parametrize('value, type_name, expected', [
    ((1, 2), 'tuple_', True), (1.0, 'float32', True), (1.0, 'float64', False),
    (True, 'number', True), (1, 'number', True), (1, 'int_', True), (1.0, 'float_', True),
    ((1, 2.0), 'float32', False), ([1], 'list_', True), (True, 'bool_', True),
    (1, 'float32', False), (1, 'int32', False), (1, 'int64', True)])
def test_hastype_of_python_values(value, type_name, expected):
    assert ops.hastype(value, getattr(ms, type_name)) is expected


def test_hastype_of_tensors():
    t = ms.Tensor([1.])
    assert ops.hastype(t, ms.TensorType(ms.float32)) is True
    assert ops.hastype(t, ms.tensor_type) is True
    assert ops.hastype(t, ms.float32) is False
    assert ops.hastype((t,), ms.tensor_type) is False
    with pytest.raises(TypeError, match="Invalid model type: None"):
        ops.hastype(None, ms.type_none)
    with pytest.raises(TypeError, match="type_ must be a MindSpore type"):
        ops.hastype(1, int)


def test_shape_helpers():
    t = ms.Tensor(np.zeros((2, 3), np.float32))
    assert ops.isconstant(t) is True and ops.isconstant(1) is True
    assert ops.shape_(t) == (2, 3) and ops.shape_(ms.Tensor(1.0)) == ()
    d = ops.dyn_shape(t)
    assert d.dtype == ms.int64 and d.asnumpy().tolist() == [2, 3]
    assert ops.dyn_shape(ms.Tensor(1.0)).shape == (0,)
    assert ops.shape_mul((2, 3, 4)) == 24 and ops.shape_mul(()) == 1
    assert ops.reduced_shape((2, 3, 4), (1,)) == (2, 1, 4)
    assert ops.reduced_shape((2, 3, 4), (-1,)) == (2, 3, 1)
    assert ops.reduced_shape((2, 3, 4), ()) == (1, 1, 1)
    with pytest.raises(TypeError, match="shape_mul: shape must be a tuple of ints"):
        ops.shape_mul((2.0,))
    with pytest.raises(TypeError, match="shape_: the input must be a Tensor, got tuple"):
        ops.shape_((2,))


def test_tensor_range_and_slice():
    r = ops.tensor_range(0, 5, 1)
    assert r.dtype == ms.int64 and r.asnumpy().tolist() == [0, 1, 2, 3, 4]
    assert ops.tensor_range(5, 0, -2).asnumpy().tolist() == [5, 3, 1]
    f = ops.tensor_range(0.0, 1.0, 0.25)
    assert f.dtype == ms.float32 and f.asnumpy().tolist() == [0.0, 0.25, 0.5, 0.75]
    x = ms.Tensor(np.arange(12).reshape(3, 4))
    assert ops.tensor_slice(x, (1, 1), (2, 2)).asnumpy().tolist() == [[5, 6], [9, 10]]
    assert ops.tensor_slice(x, (1, 1), (-1, 2)).asnumpy().tolist() == [[5, 6], [9, 10]]
    with pytest.raises(ValueError, match="step must not be 0"):
        ops.tensor_range(5, 0, 0)
    with pytest.raises(TypeError, match="all be ints or all floats"):
        ops.tensor_range(0, 5, 1.5)


@pytest.mark.parametrize('x, y, expected', [
    ((2, 3), (3,), ((), (0,))), ((2, 1, 3), (4, 3), ((1,), (0,))),
    ((1,), (2, 3), ((0, 1), ())), ((2, 3), (2, 3), ((), ())), ((1, 3), (1, 3), ((), ())),
    ((1, 1), (2, 1), ((0, 1), (1,))), ((), (2, 3), ((0, 1), ()))])
def test_broadcast_gradient_args(x, y, expected):
    assert ops.broadcast_gradient_args(x, y) == expected


def test_broadcast_gradient_args_rejects_incompatible_shapes():
    with pytest.raises(RuntimeError, match="Not compatible shape input"):
        ops.broadcast_gradient_args((2, 3), (4, 3))


def test_array_to_scalar_and_unavailable_primitives():
    assert ops.array_to_scalar(ms.Tensor(3.0)) == 3.0
    assert ops.array_to_scalar(ms.Tensor([[7]])) == 7
    with pytest.raises(ValueError, match="must hold one value"):
        ops.array_to_scalar(ms.Tensor([1., 2.]))
    with pytest.raises(NotImplementedError, match="use ops.reduce_sum"):
        ops.array_reduce(ops.scalar_add, ms.Tensor([1., 2.]), (0,))
    with pytest.raises(NotImplementedError, match="use ops.scalar_to_tensor"):
        ops.scalar_to_array(2)
    for name in ('environ_create',):
        with pytest.raises(NotImplementedError, match="gradient environment"):
            getattr(F, name)()
    with pytest.raises(NotImplementedError, match="env_get is part of the graph compiler"):
        C.env_get(None, ms.Tensor(1.))


def test_deepcopy_and_eps():
    t = ms.Tensor(np.array([1., 2.], np.float32))
    c = ops.deepcopy(t)
    assert c is not t and c.asnumpy().tolist() == [1., 2.]
    with pytest.raises(TypeError, match="deepcopy: the input must be a Tensor, got list"):
        ops.deepcopy([1])
    assert ops.eps(t).asnumpy().tolist() == [np.float32(1.1920929e-07)] * 2
    e16 = ops.eps(ms.Tensor(np.array([1.], np.float16)))
    assert e16.dtype == ms.float16 and e16.asnumpy()[0] == np.float16(9.7656e-04)
    assert ops.eps(ms.Tensor(np.array([1.], np.float64))).asnumpy()[0] == 2.220446049250313e-16
    with pytest.raises(TypeError, match=r"must be a type of .*but got Tensor\[Int32\]"):
        ops.eps(ms.Tensor(np.array([1], np.int32)))


def test_stop_gradient_in_place_cuts_the_history():
    def net(x):
        y = x * 2
        assert ops.stop_gradient_(y) is None
        return y * 3 + x

    g = ms.grad(net)(ms.Tensor([1., 2.]))
    assert g.asnumpy().tolist() == [1., 1.]
    with pytest.raises(TypeError, match="stop_gradient_: the input must be a Tensor"):
        ops.stop_gradient_(1.0)


def test_mixed_precision_cast_casts_float_tensors_only():
    f, i = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor([1], ms.int32)
    assert ops.mixed_precision_cast(ms.float16, f).dtype == ms.float16
    out = ops.mixed_precision_cast(ms.float16, (f, [i, 2.0], {'k': f}))
    assert out[0].dtype == ms.float16 and out[1][0] is i and out[1][1] == 2.0
    assert out[2]['k'].dtype == ms.float16 and isinstance(out[1], list)
    with pytest.raises(TypeError, match="dst_type must be a float dtype"):
        ops.mixed_precision_cast(ms.int32, f)


def test_is_nonzero_and_bool_conditions():
    assert ops.is_nonzero(ms.Tensor([1.])) is True and ops.is_nonzero(ms.Tensor([0.])) is False
    assert ops.is_nonzero(ms.Tensor(True)) is True and ops.is_nonzero(ms.Tensor([[3]])) is True
    with pytest.raises(ValueError, match="the numel of input must be 1, but got 2"):
        ops.is_nonzero(ms.Tensor([1., 2.]))
    with pytest.raises(TypeError, match="For is_nonzero, the input must be a Tensor"):
        ops.is_nonzero(3)
    assert ops.is_tensor_bool_cond(ms.Tensor(True)) is True
    assert ops.is_tensor_bool_cond(ms.Tensor(1)) is True
    with pytest.raises(ValueError, match=r"shape is \(\) or \(1,\)"):
        ops.is_tensor_bool_cond(ms.Tensor([1., 2.]))
    with pytest.raises(TypeError, match="should be a tensor"):
        ops.is_tensor_bool_cond(True)
    assert ops.is_sequence_shape_unknown((1, 2)) is False
    assert ops.is_sequence_value_unknown((1, 2)) is False
    with pytest.raises(TypeError, match="should be variable length sequence"):
        ops.is_dynamic_sequence_element_unknown((1, 2))


@pytest.mark.parametrize('p, expected', [
    (None, 14.933), (2, 14.933), (1, 21.0), (float('inf'), 21.0), ('fro', 15.0)])
def test_cond_matches_mindspore(p, expected):
    a = ms.Tensor(np.array([[1., 2.], [3., 4.]], np.float32))
    assert float(ops.cond(a, p).asnumpy()) == pytest.approx(expected, rel=1e-4)


def test_cond_of_docs_example_and_batches():
    x = ms.Tensor(np.array([[1., 0., -1.], [0., 1., 0.], [1., 0., 1.]], np.float32))
    assert float(ops.cond(x).asnumpy()) == pytest.approx(1.4142, rel=1e-4)
    assert float(ops.cond(x, 'fro').asnumpy()) == pytest.approx(3.1622777, rel=1e-6)
    batch = ms.Tensor(np.stack([np.eye(2), 2 * np.eye(2)]).astype(np.float64))
    out = ops.cond(batch)
    assert out.dtype == ms.float32 and out.asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="cond: A must be a square matrix"):
        ops.cond(ms.Tensor([1., 2.]))


def _hybrid_add(a, b):
    c = output_tensor(a.shape, a.dtype)  # noqa: F821  (a Hybrid DSL name)
    for i0 in serial(a.shape[0]):  # noqa: F821
        c[i0] = sqrt(a[i0] * a[i0]) + b[i0]  # noqa: F821
    return c


def test_kernel_runs_hybrid_dsl_as_python():
    run = ops.kernel(_hybrid_add)
    out = run(np.array([1., -2.]), np.array([3., 4.]))
    np.testing.assert_array_equal(out, [4., 6.])
    assert _hybrid_add.ms_kernel_flag is True and _hybrid_add.compile_attrs == '{}'
    assert 'output_tensor' not in globals()     # the module's globals are left alone
    assert ops.operations.kernel is ops.kernel
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        out = ops.ms_kernel(_hybrid_add)(np.array([1.]), np.array([1.]))
    assert out.tolist() == [2.] and 'deprecated' in str(caught[0].message)
    with pytest.raises(TypeError, match="'compile_attrs' of @kernel must be a dict"):
        ops.kernel(_hybrid_add, compile_attrs=[1])


def test_registration_decorators_keep_the_function():
    def f(x):
        return x + 1
    g = ops.op_info_register({'op_name': 'Add1'})(f)
    assert g(1) == 2 and g.op_info == '{"op_name": "Add1"}'
    h = ops.custom_info_register('{"op_name": "A"}')(f)
    assert h(2) == 3 and h.reg_info == ('{"op_name": "A"}',)
    with pytest.raises(ValueError, match="needs an 'op_name'"):
        ops.op_info_register({'x': 1})
    with pytest.raises(TypeError, match="op_info must be a str or dict, got int"):
        ops.op_info_register(1)


def test_signature_module():
    sig = ops.signature
    assert [int(v) for v in sig.sig_rw] == [0, 1, 2, 3]
    assert sig.sig_kind.KIND_EMPTY_DEFAULT_VALUE == 4 and sig.sig_dtype.T9 == 9
    assert sig.sig_dtype.T_EMPTY_DEFAULT_VALUE == 10
    s = sig.make_sig('x', sig.sig_rw.RW_WRITE, dtype=sig.sig_dtype.T)
    assert (s.name, s.rw, s.kind, s.dtype) == ('x', sig.sig_rw.RW_WRITE,
                                               sig.sig_kind.KIND_POSITIONAL_KEYWORD,
                                               sig.sig_dtype.T)
    with pytest.raises(TypeError, match="name must be a str"):
        sig.make_sig(1)
    with pytest.raises(TypeError, match="rw must be a sig_rw"):
        sig.make_sig('a', rw=3)
