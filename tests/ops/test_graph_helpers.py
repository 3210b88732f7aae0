"""MindSpore's graph-mode helpers (ops.scalar_add, ops.tuple_getitem, ops.typeof, ...): the
expected values are what MindSpore 2.10 gives on CPU (PyNative, or graph mode where PyNative
has no evaluator)."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import composite as C, functional as F


def test_scalar_arithmetic_matches_mindspore():
    assert ops.scalar_add(3, 4) == 7 and isinstance(ops.scalar_add(3, 4), int)
    assert ops.scalar_add(3, 4.5) == 7.5
    assert ops.scalar_add(True, 4) == 5
    assert ops.scalar_sub(3, 4) == -1
    assert ops.scalar_mul(3, 4) == 12
    assert ops.scalar_div(3, 4) == 0.75
    assert ops.scalar_div(4, 2) == 2.0 and isinstance(ops.scalar_div(4, 2), float)
    assert ops.scalar_floordiv(7, 2) == 3 and ops.scalar_floordiv(-7, 2) == -4
    assert ops.scalar_floordiv(7.5, 2) == 3.0
    assert ops.scalar_mod(7, 3) == 1 and ops.scalar_mod(-7, 3) == 2
    assert ops.scalar_mod(7.5, 2) == 1.5 and ops.scalar_mod(-7.5, 2) == 0.5
    assert ops.scalar_pow(2, 3) == 8 and ops.scalar_pow(2, -1) == 0.5
    assert ops.scalar_pow(2, 0.5) == pytest.approx(1.4142135623730951)
    assert ops.scalar_log(8) == pytest.approx(2.0794415416798357)
    assert ops.scalar_uadd(-2) == -2 and ops.scalar_usub(2.5) == -2.5
    assert ops.scalar_max(2, 3.5) == 3.5 and ops.scalar_max(2, 3) == 3
    assert ops.scalar_min(2, 3.5) == 2


def test_scalar_comparisons():
    assert ops.scalar_eq(2, 2.0) is True
    assert ops.scalar_ne(2, 3) is True
    assert ops.scalar_lt(2, 3) is True and ops.scalar_le(3, 3) is True
    assert ops.scalar_gt(2, 3) is False and ops.scalar_ge(3, 3) is True


def test_scalar_ops_take_tensors():
    out = ops.scalar_add(ms.Tensor(np.array([1., 2.], np.float32)), 4)
    np.testing.assert_array_equal(out.asnumpy(), [5., 6.])
    assert ops.scalar_max(ms.Tensor(1.), 2) == 2


def test_scalar_errors():
    with pytest.raises(ValueError, match="The divisor could not be zero"):
        ops.scalar_div(4, 0)
    with pytest.raises(ValueError, match="The divisor could not be zero"):
        ops.scalar_floordiv(7.0, 0.0)
    with pytest.raises(ValueError, match="Cannot perform modulo operation on zero"):
        ops.scalar_mod(7, 0)
    with pytest.raises(ValueError, match="math domain error"):
        ops.scalar_log(0)
    with pytest.raises(TypeError, match="can only concatenate str"):
        ops.scalar_add('a', 1)


def test_bool_and_string_helpers():
    assert ops.bool_and(True, False) is False
    assert ops.bool_or(True, False) is True
    assert ops.bool_eq(True, False) is False
    out = ops.bool_not(True)
    assert isinstance(out, ms.Tensor) and out.dtype == ms.bool_ and out.shape == ()
    assert bool(out.asnumpy()) is False
    assert ops.string_concat('a', 'b') == 'ab'
    assert ops.string_eq('a', 'b') is False
    with pytest.raises(TypeError, match="bool_and: the inputs must be bool, got int"):
        ops.bool_and(1, True)
    with pytest.raises(TypeError, match="string_concat: the inputs must be str, got int"):
        ops.string_concat('a', 1)


def test_tuple_and_list_helpers():
    assert ops.tuple_getitem((1, 2, 3), 1) == 2 and ops.tuple_getitem((1, 2, 3), -1) == 3
    assert ops.tuple_setitem((1, 2, 3), 1, 9) == (1, 9, 3)
    assert ops.tuple_setitem((1, 2, 3), -1, 0) == (1, 2, 0)
    assert ops.tuple_equal((1, 2), (1, 2)) is True and ops.tuple_equal((1, 2), (1, 3)) is False
    assert ops.list_equal([1, 2], (1, 2)) is True
    assert ops.tuple_div((4, 6), (2, 3)) == (2, 2)
    assert ops.tuple_reversed((1, 2, 3)) == (3, 2, 1)
    assert ops.list_getitem([1, 2, 3], -1) == 3
    data = [1, 2, 3]
    assert ops.list_setitem(data, 0, 9) == [9, 2, 3] and data == [1, 2, 3]
    assert ops.list_len([1, 2, 3]) == 3
    assert ops.make_tuple(1, 2) == (1, 2) and ops.make_list(1, 2) == [1, 2]
    assert ops.make_slice(1, 5, 2) == slice(1, 5, 2)
    assert ops.make_slice(None, 5, None) == slice(None, 5, None)


def test_tuple_errors():
    with pytest.raises(IndexError, match=r"range\[-3, 3\), but got 5"):
        ops.tuple_getitem((1, 2, 3), 5)
    with pytest.raises(RuntimeError, match="should be divisible.*dividend is 5, the divisor "
                                           "is 2"):
        ops.tuple_div((5, 6), (2, 3))
    with pytest.raises(RuntimeError, match="the size of divisor tuple is 1, the size of "
                                           "dividend tuple is 2"):
        ops.tuple_div((5, 6), (2,))
    with pytest.raises(RuntimeError, match="The divisor value should not be 0!"):
        ops.tuple_div((5, 6), (0, 3))
    with pytest.raises(TypeError, match="tuple_setitem: the input must be a tuple, got list"):
        ops.tuple_setitem([1], 0, 1)


def test_dict_helpers():
    assert ops.make_dict(('a', 'b'), (1, 2)) == {'a': 1, 'b': 2}
    assert ops.dict_getitem({'a': 1}, 'a') == 1
    data = {'a': 1}
    assert ops.dict_setitem(data, 'a', 9) == {'a': 9} and data == {'a': 1}
    assert ops.in_dict('a', {'a': 1}) is True and ops.not_in_dict('a', {'a': 1}) is False
    with pytest.raises(ValueError, match=r"The key b does not exist in the dict:\{'a': 1\}"):
        ops.dict_getitem({'a': 1}, 'b')
    with pytest.raises(ValueError, match="make_dict: 2 keys but 1 values"):
        ops.make_dict(('a', 'b'), (1,))


def test_identity_helpers():
    x = ms.Tensor(1.)
    assert ops.is_(None, None) is True and ops.is_(x, x) is True
    assert ops.is_not(None, None) is False


def test_augassign_helpers():
    assert C.augassign_add(1, 2) == 3
    np.testing.assert_array_equal(C.augassign_add(ms.Tensor([1., 2.]), 2).asnumpy(), [3., 4.])
    assert C.augassign_add((1,), (2,)) == (1, 2) and C.augassign_add([1], [2]) == [1, 2]
    assert C.augassign_add('a', 'b') == 'ab'
    assert C.augassign_sub(1, 2) == -1 and C.augassign_mul(3, 2) == 6
    assert C.augassign_mul((1, 2), 2) == (1, 2, 1, 2)
    assert C.augassign_div(3, 2) == 1.5
    assert C.augassign_floordiv(7, 2) == 3 and C.augassign_mod(7, 2) == 1
    assert C.augassign_mod(7.5, 2) == 1.5
    np.testing.assert_array_equal(C.augassign_floordiv(ms.Tensor([7.]), 2).asnumpy(), [3.])
    with pytest.raises(ValueError, match="division by zero"):
        C.augassign_div(3, 0)
    with pytest.raises(TypeError, match="unsupported operand"):
        C.augassign_sub('a', 'b')


def test_iteration_helpers_match_graph_mode():
    assert C.zip_operation((1, 2), (3, 4)) == ((1, 3), (2, 4))
    assert C.zip_operation([1, 2], (3, 4, 5)) == ((1, 3), (2, 4))
    assert C.tail((1, 2, 3)) == (2, 3) and C.tail(()) == ()
    assert C.ms_next((1, 2, 3)) == (1, (2, 3))
    assert C.ms_next([1, 2, 3]) == (1, [2, 3])
    assert C.ms_hasnext((1, 2, 3)) is True and C.ms_hasnext(()) is False
    assert C.iter_converter([1, 2, 3]) == [1, 2, 3]
    assert C.iter_converter({'a': 1}) == ('a',)
    with pytest.raises(ValueError, match="cannot get item by index from an empty sequence"):
        C.ms_next(())


def test_hyper_add():
    assert C.hyper_add((1, 2), (3, 4)) == (4, 6)
    assert C.hyper_add(((1, 2), 3), ((3, 4), 5)) == ((4, 6), 8)
    assert C.hyper_add([1, 2], [3, 4]) == (4, 6)
    assert C.hyper_add((1, 2), (3,)) == (4,)
    t = ms.Tensor([1., 2.])
    np.testing.assert_array_equal(C.hyper_add(t, t).asnumpy(), [2., 4.])
    with pytest.raises(ValueError, match="hyper_add: adds numbers, Tensors and sequences"):
        C.hyper_add('a', 'b')


def test_switch_and_switch_layer():
    assert ops.switch(True, 1, 2) == 1 and ops.switch(False, 1, 2) == 2
    assert ops.switch(ms.Tensor(False), 1, 2) == 2
    assert ops.switch_layer(ms.Tensor(1, ms.int32), (ops.add, ops.mul)) is ops.mul
    with pytest.raises(IndexError, match=r"switch_layer index should be in range\[-2, 2\)"):
        ops.switch_layer(2, (ops.add, ops.mul))
    with pytest.raises(TypeError, match="branches must be a tuple of functions"):
        ops.switch_layer(0, (1, 2))


def test_dataflow_primitives_raise_why():
    t = ms.Tensor([1., 2.])
    with pytest.raises(NotImplementedError, match="geswitch is a dataflow-graph primitive"):
        ops.geswitch(t, ms.Tensor(True))
    with pytest.raises(NotImplementedError, match="merge is a dataflow-graph primitive"):
        ops.merge((t, t))


def test_exported_where_mindspore_has_them():
    assert F.scalar_add is ops.scalar_add and F.tuple_getitem is ops.tuple_getitem
    assert C.augassign_add is ops.augassign_add and C.tail is ops.tail
    assert math.isclose(F.scalar_log(2.0), 0.6931471805599453)
