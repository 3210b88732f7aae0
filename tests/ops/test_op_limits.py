"""Op arguments checked before NumPy sees them: result sizes, errors that name the op and the
argument, and NumPy's floating-point warnings reported at the caller's line."""
import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

HUGE = (10 ** 6, 10 ** 6)
X = ms.Tensor([1.0, 2.0])
ONE = ms.Tensor(np.ones(10 ** 6, np.float32))


@pytest.mark.parametrize('name,fn', [
    ('zeros', lambda: ops.zeros(HUGE)),
    ('ones', lambda: ops.ones(HUGE)),
    ('full', lambda: ops.full(HUGE, 1.0)),
    ('fill', lambda: ops.fill(ms.float32, HUGE, 1)),
    ('rand', lambda: ops.rand(*HUGE)),
    ('randn', lambda: ops.randn(*HUGE)),
    ('randint', lambda: ops.randint(0, 5, HUGE)),
    ('eye', lambda: ops.eye(10 ** 6)),
    ('arange', lambda: ops.arange(0, 1e13)),
    ('tile', lambda: ops.tile(X, HUGE)),
    ('repeat_interleave', lambda: ops.repeat_interleave(X, 10 ** 12)),
    ('outer', lambda: ops.outer(ONE, ONE)),
    ('kron', lambda: ops.kron(ops.ones((1000, 1000)), ops.ones((1000, 1000)))),
])
def test_results_larger_than_memory_are_refused_before_allocating(name, fn):
    with pytest.raises(MemoryError, match=rf"ops\.{name}: a result of shape \(.*\) needs \d+ "
                                          rf"bytes .* more than this machine's memory"):
        fn()


@pytest.mark.parametrize('name,fn', [
    ('broadcast_to', lambda: ops.broadcast_to(X, (10 ** 7, 10 ** 7, 2))),
    ('expand', lambda: ops.expand(X, (10 ** 7, 10 ** 7, 2))),
    ('meshgrid', lambda: ops.meshgrid(ops.ones(10 ** 7), ops.ones(10 ** 7))),
])
def test_views_too_large_to_reduce_are_refused(name, fn):
    with pytest.raises(ValueError, match=rf"ops\.{name}: a view of shape \(.*\) has \d+ "
                                         rf"elements \(\d+ bytes if made an array\)"):
        fn()


def test_ordinary_sizes_pass_the_check():
    assert ops.broadcast_to(X, (3, 2)).shape == (3, 2)
    assert ops.zeros((0, 5)).shape == (0, 5)
    assert ops.tile(X, (2, 2)).shape == (2, 4)


@pytest.mark.parametrize('fn,kind,message', [
    (lambda: ops.gather('a', ms.Tensor([0]), 0), TypeError,
     r"ops\.gather: input_params must be a Tensor, got str"),
    (lambda: ops.Gather()('a', ms.Tensor([0]), 0), TypeError,
     r"ops\.Gather: input_params must be a Tensor, got str"),
    (lambda: ops.add(X, 'a'), TypeError,
     r"ops\.add: other: expected a Tensor or a Python number, got str"),
    (lambda: X * 'a', TypeError,
     r"ops\.mul: other: expected a Tensor or a Python number, got str"),
    (lambda: ops.lerp('a', X, 0.5), TypeError, r"ops\.lerp: input must be a Tensor, got str"),
    (lambda: ops.add([['a']], 1), TypeError, r"ops\.add: input cannot be made a Tensor"),
    (lambda: ops.cast(X, 'bad'), TypeError, r"ops\.cast: dtype is not a dtype hookgrad knows"),
    (lambda: ops.addcmul(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(4)), X, 1.0), ValueError,
     r"ops\.addcmul: shapes \(4,\) and \(2,\) cannot be broadcast together \(in ops\.mul\)"),
    (lambda: ops.floor_divide(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(4))), ValueError,
     r"ops\.floor_divide: shapes \(2, 3\) and \(4,\) cannot be broadcast together"),
    (lambda: ops.broadcast_to(X, 'bad'), TypeError,
     r"ops\.broadcast_to: shape must be a tuple of ints, got 'bad'"),
    (lambda: ops.batch_norm(ms.Tensor(np.ones((0, 3), np.float32)), ops.zeros(3), ops.ones(3),
                            ops.ones(3), ops.zeros(3), training=True), ValueError,
     r"ops\.batch_norm: input_x has no values to take batch statistics from \(shape \(0, 3\)\)"),
])
def test_errors_name_the_op_and_the_argument(fn, kind, message):
    with pytest.raises(kind, match=message):
        fn()


@pytest.mark.parametrize('name,fn', [
    ('log', lambda: ops.log(ms.Tensor([-1.0, 1.0]))),
    ('sqrt', lambda: ops.sqrt(ms.Tensor([-1.0]))),
    ('div', lambda: ms.Tensor([1.0]) / ms.Tensor([0.0])),
    ('log', lambda: ms.Tensor([-2.0]).log()),
    ('acos', lambda: ops.acos(ms.Tensor([2.0]))),
])
def test_floating_point_warnings_point_at_the_callers_line(name, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        fn()
    assert caught, 'no warning'
    for w in caught:
        assert w.category is RuntimeWarning
        assert str(w.message).startswith(f"ops.{name}: ")
        assert w.filename == __file__


def test_floating_point_warnings_respect_the_callers_errstate():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        with np.errstate(all='ignore'):
            y = ops.log(ms.Tensor([-1.0, 0.0]))
    assert not caught
    assert np.isnan(y.asnumpy()[0]) and y.asnumpy()[1] == -np.inf
    with np.errstate(divide='raise'), pytest.raises(FloatingPointError):
        ops.log(ms.Tensor([0.0]))
    with warnings.catch_warnings():
        warnings.simplefilter('error')      # the happy path warns nothing
        ops.log(ms.Tensor([1.0]))


def _probe_module():
    path = pathlib.Path(__file__).resolve().parents[2] / 'tools' / 'probe_ops.py'
    spec = importlib.util.spec_from_file_location('probe_ops', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_probe_grades_errors():
    probe = _probe_module()
    try:
        ops.gather('a', ms.Tensor([0]), 0)
    except TypeError as e:
        assert probe.grade(e, {'gather'}, {'input_params'})[0] == 'a'
    try:
        np.reshape(np.zeros(3), (2,))
    except ValueError as e:
        assert probe.grade(e, {'reshape'}, {'shape'})[0] == 'c'
    names = {name for name, _, _ in probe.public_ops()}
    assert {'gather', 'Gather', 'reshape', 'ReduceSum'} <= names


def test_number_and_dtype_arguments_given_tensors_name_the_op_and_argument():
    import hookgrad as ms
    from hookgrad import ops
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match=r"ops\.LinSpace: start must be a number or a "
                                        r"one-element Tensor, got a Tensor of shape \(2, 2\)"):
        ops.LinSpace()(x, 1.0, 5)
    with pytest.raises(TypeError, match=r"ops\.CumSum: axis must be a number or a one-element "
                                        r"Tensor"):
        ops.CumSum()(x, x)
    with pytest.raises(TypeError, match=r"ops\.fill: type is not a dtype hookgrad knows: "
                                        r"expected a dtype such as ms\.float32, got a Tensor"):
        ops.fill(x, (2,), 1)
    with pytest.raises(TypeError, match="expected a dtype such as ms.float32, got a list"):
        ms.Tensor([1], dtype=[1])
    np.testing.assert_allclose(ops.LinSpace()(ms.Tensor(0.0), ms.Tensor(1.0), 3).asnumpy(),
                               [0.0, 0.5, 1.0])



def test_a_devices_ops_warn_nothing_as_cupys():
    """CuPy's arrays have no floating-point error state: what warns on the CPU is silent on a
    device, with the same values."""
    x = ms.Tensor([-1.0, 0.0, 4.0]).move_to('GPU')
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        ys = [ops.log(x), ops.sqrt(x), x / x, ops.reciprocal(x), ops.acos(x), x ** -1.0]
    for y in ys:
        assert y.device == 'GPU:0'
    np.testing.assert_array_equal(ys[0].asnumpy(), [np.nan, -np.inf, np.log(np.float32(4.0))])
    np.testing.assert_array_equal(ys[2].asnumpy(), [1.0, np.nan, 1.0])
