"""Parameter and ParameterTuple: construction, set_data, clone, gradients, pickling, seed 003."""
import copy
import pickle

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _random, nn, ops
from hookgrad.common.initializer import initializer, Normal


@pytest.fixture(autouse=True)
def keep_global_generator():
    saved = _random._seed, _random._generator
    yield
    _random._seed, _random._generator = saved


def P(values, name=None, requires_grad=True):
    return ms.Parameter(ms.Tensor(np.asarray(values, np.float32)), name=name,
                        requires_grad=requires_grad)


# ----------------------------------------------------------------- seed 003
SEED_B = np.array([-1.2192779, -0.36789745, 0.0946381], np.float32)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.random.randn(5, 3), ms.float32), name='w')
        self.b = ms.Parameter(ms.Tensor(np.random.randn(3,), ms.float32), name='b')

    def construct(self, x):
        return ops.matmul(x, self.w) + self.b


def printed(capsys, *objs):
    print(*objs)
    return capsys.readouterr().out.rstrip('\n')


def test_seed_003_trainable_params(capsys):
    net = Network()
    assert printed(capsys, net.trainable_params()) == (
        "[Parameter (name=w, shape=(5, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=b, shape=(3,), dtype=Float32, requires_grad=True)]")


def test_seed_003_modifying_parameter_values(capsys):
    net = Network()
    net.b.set_data(ms.Tensor(SEED_B))
    assert printed(capsys, net.b.asnumpy()).split() == "[-1.2192779 -0.36789745 0.0946381 ]".split()
    net.b[0] = 1.
    assert printed(capsys, net.b.asnumpy()).split() == "[ 1. -0.36789745 0.0946381 ]".split()
    net.b.set_data(ms.Tensor([3, 4, 5]))
    assert printed(capsys, net.b.asnumpy()) == "[3. 4. 5.]"
    assert net.b.dtype == ms.float32


def test_seed_003_parameter_tuple(capsys):
    x = ms.Parameter(default_input=ms.Tensor(np.arange(2 * 3).reshape((2, 3))), name="x")
    y = ms.Parameter(default_input=initializer('ones', [1, 2, 3], ms.float32), name='y')
    z = ms.Parameter(default_input=2.0, name='z')
    params = ms.ParameterTuple((x, y, z))
    params_copy = params.clone("params_copy")
    assert printed(capsys, params) == (
        "(Parameter (name=x, shape=(2, 3), dtype=Int64, requires_grad=True), "
        "Parameter (name=y, shape=(1, 2, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=z, shape=(), dtype=Float32, requires_grad=True))")
    assert printed(capsys, params_copy) == (
        "(Parameter (name=params_copy.x, shape=(2, 3), dtype=Int64, requires_grad=True), "
        "Parameter (name=params_copy.y, shape=(1, 2, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=params_copy.z, shape=(), dtype=Float32, requires_grad=True))")


# ----------------------------------------------------------------- construction
@pytest.mark.parametrize('default_input, dtype, shape', [
    (2.0, ms.float32, ()),
    (3, ms.int64, ()),
    (np.bool_(True), ms.bool_, ()),
    ([1.0, 2.0], ms.float32, (2,)),
    (np.zeros((2, 3), np.float64), ms.float64, (2, 3)),
    (np.float16(1.5), ms.float16, ()),
    (ms.Tensor([1, 2], ms.int32), ms.int32, (2,)),
])
def test_construction_from_each_kind_of_input(default_input, dtype, shape):
    p = ms.Parameter(default_input)
    assert type(p) is ms.Parameter and isinstance(p, ms.Tensor)
    assert p.dtype == dtype and p.shape == shape
    assert p.name is None and p.requires_grad is True and p.is_leaf and p.grad is None


def test_a_python_bool_is_refused_as_mindspore_refuses_it():
    with pytest.raises(ValueError, match="Parameter data can not be `bool`"):
        ms.Parameter(True)


def test_parameter_owns_a_copy_of_its_input():
    arr = np.ones(3, np.float32)
    t = ms.Tensor(arr)
    p, q = ms.Parameter(arr), ms.Parameter(t)
    p[0] = 5.0
    q[1] = 7.0
    np.testing.assert_array_equal(arr, [1, 1, 1])
    np.testing.assert_array_equal(t.asnumpy(), [1, 1, 1])


def test_a_broadcast_view_becomes_writeable_storage():
    p = ms.Parameter(np.broadcast_to(np.float32(1), (2, 2)))
    p[0, 0] = 3.0
    np.testing.assert_array_equal(p.asnumpy(), [[3, 1], [1, 1]])


@pytest.mark.parametrize('bad, shown', [(None, 'NoneType'), (Normal(), 'Normal'),
                                        (1 + 2j, 'complex'), ({'a': 1}, 'dict')])
def test_unsupported_default_input(bad, shown):
    with pytest.raises(TypeError, match=f"Parameter: default_input must be a Tensor, NumPy array, "
                                        f"number or list, got {shown}"):
        ms.Parameter(bad)


def test_name_must_be_a_str_or_none():
    with pytest.raises(ValueError, match="Parameter: name must be a str or None, got int"):
        ms.Parameter(1.0, name=3)
    p = ms.Parameter(1.0, name='a')
    p.name = 'b'
    assert p.name == 'b'
    p.name = None
    assert p.name is None
    with pytest.raises(ValueError, match="Parameter: name must be a str or None, got list"):
        p.name = ['c']
    assert p.name is None


def test_requires_grad_is_settable():
    p = ms.Parameter(1.0, requires_grad=False)
    assert p.requires_grad is False
    assert repr(p) == "Parameter (name=None, shape=(), dtype=Float32, requires_grad=False)"
    p.requires_grad = True
    assert p.requires_grad is True


def test_repr():
    w = ms.Parameter(ms.Tensor(np.zeros((5, 3)), ms.float32), name='w')
    assert repr(w) == "Parameter (name=w, shape=(5, 3), dtype=Float32, requires_grad=True)"
    assert str(w) == repr(w)


# ----------------------------------------------------------------- data, value, item assignment
def test_data_is_a_tensor_over_the_parameters_memory():
    # MindSpore 2.10: a Tensor (not the Parameter) that writes through to it
    p = P([1.0, 2.0], 'p')
    d = p.data
    assert type(d) is ms.Tensor and d is not p and not d.requires_grad
    assert repr(d) == "Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])"
    d[0] = 5.0
    assert p.asnumpy().tolist() == [5.0, 2.0]


def test_value_is_a_snapshot():
    p = P([1.0, 2.0], 'p')
    v = p.value()
    assert type(v) is ms.Tensor and not v.requires_grad
    p[0] = 9.0
    np.testing.assert_array_equal(v.asnumpy(), [1.0, 2.0])


def test_item_assignment_writes_in_place():
    p = P([[1.0, 2.0], [3.0, 4.0]], 'p')
    p[0] = 0.5
    p[1, 1] = ms.Tensor(7.0)
    p[:, 0] += 1
    assert type(p) is ms.Parameter and p.is_leaf and p.requires_grad
    np.testing.assert_array_equal(p.asnumpy(), [[1.5, 0.5], [4.0, 7.0]])


def test_item_assignment_with_a_wrong_shape():
    p = P([1.0, 2.0, 3.0], 'p')
    with pytest.raises(ValueError, match=r"ops.setitem: cannot assign a value of shape \(2,\)"):
        p[:] = ms.Tensor([1.0, 2.0])
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 2.0, 3.0])


# ----------------------------------------------------------------- set_data
def test_set_data_casts_and_returns_self():
    p = P([0.0, 0.0, 0.0], 'b')
    assert p.set_data(ms.Tensor([3, 4, 5])) is p
    assert p.dtype == ms.float32
    np.testing.assert_array_equal(p.asnumpy(), [3.0, 4.0, 5.0])
    p.set_data(np.array([1.5, 2.5, 3.5], np.float64))
    assert p.dtype == ms.float32
    np.testing.assert_array_equal(p.asnumpy(), [1.5, 2.5, 3.5])


def test_set_data_with_numbers_on_0d_parameters():
    p = ms.Parameter(2.0, name='z')
    p.set_data(3)
    assert p.item() == 3.0 and p.dtype == ms.float32
    n = ms.Parameter(0, name='step')
    n.set_data(np.int32(4))
    assert n.item() == 4 and n.dtype == ms.int64
    n.set_data(True)
    assert n.item() == 1


def test_set_data_copies_its_input():
    src = np.array([1.0, 2.0], np.float32)
    p = P([0.0, 0.0], 'p')
    p.set_data(src)
    src[0] = 10.0
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 2.0])


def test_set_data_leaves_recorded_graphs_valid():
    p = P([2.0, 3.0], 'p')
    y = (p * p).sum()
    p.set_data(ms.Tensor([100.0, 100.0]))
    y.backward()
    np.testing.assert_array_equal(p.grad.asnumpy(), [4.0, 6.0])


@pytest.mark.parametrize('data, shape', [
    (ms.Tensor([1.0, 2.0]), (2,)),
    (np.zeros((3, 1), np.float32), (3, 1)),
    (1.0, ()),
])
def test_set_data_takes_the_shape_of_the_data_as_mindspore_does(data, shape):
    # MindSpore 2.10: Parameter((3,)).set_data(Tensor of shape (4,)) has shape (4,)
    p = P([1.0, 2.0, 3.0], 'fc.bias')
    assert p.set_data(data) is p and p.shape == shape and p.sliced is False
    np.testing.assert_array_equal(p.asnumpy(), np.broadcast_to(np.asarray(data), shape))
    assert p.set_data(ms.Tensor([4.0]), slice_shape=True).sliced is True
    with pytest.raises(TypeError, match="slice_shape must be a bool, got 1"):
        p.set_data(ms.Tensor([4.0]), slice_shape=1)


def test_set_data_will_not_narrow_the_kind_of_values():
    n = ms.Parameter(np.array([1, 2]), name='counts')
    with pytest.raises(TypeError, match=r"Parameter 'counts'.set_data: cannot store float32 "
                                        r"values in a Int64 parameter"):
        n.set_data(ms.Tensor([1.5, 2.5]))
    flag = ms.Parameter(np.array([True, False]), name='mask')
    with pytest.raises(TypeError, match="cannot store int64 values in a Bool parameter"):
        flag.set_data(np.array([1, 0]))
    np.testing.assert_array_equal(n.asnumpy(), [1, 2])
    np.testing.assert_array_equal(flag.asnumpy(), [True, False])


@pytest.mark.parametrize('data, shown', [([1.0, 2.0], 'list'), ('ab', 'str'), (None, 'NoneType')])
def test_set_data_with_an_unsupported_type(data, shown):
    p = P([1.0, 2.0], 'w')
    with pytest.raises(TypeError, match=f"Parameter 'w'.set_data: data must be a Tensor, NumPy "
                                        f"array or number, got {shown}"):
        p.set_data(data)


def test_set_data_rejects_complex_and_string_arrays():
    p = P([1.0, 2.0], 'w')
    with pytest.raises(TypeError, match="cannot store complex128 values in a Float32 parameter"):
        p.set_data(np.array([1j, 2j]))
    with pytest.raises(TypeError, match="cannot store <U1 values"):
        p.set_data(np.array(['a', 'b']))


# ----------------------------------------------------------------- clone
def test_clone_copies_values_name_and_requires_grad():
    p = P([1.0, 2.0], 'w', requires_grad=False)
    c = p.clone()
    assert type(c) is ms.Parameter and c is not p
    assert c.name == 'w' and c.requires_grad is False and c.dtype == ms.float32
    c[0] = 10.0
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(c.asnumpy(), [10.0, 2.0])


def test_clone_with_an_initializer():
    p = ms.Parameter(ms.Tensor(np.full((4, 3), 5.0), ms.float64), name='w')
    z = p.clone('zeros')
    assert z.dtype == ms.float64 and z.shape == (4, 3) and z.name == 'w'
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((4, 3)))
    ms.set_seed(3)
    a = p.clone(Normal(sigma=1.0))
    ms.set_seed(3)
    b = p.clone('normal')
    assert np.abs(a.asnumpy()).max() > 0.5 > np.abs(b.asnumpy()).max()
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy() * 100)
    np.testing.assert_array_equal(p.clone(1.5).asnumpy(), np.full((4, 3), 1.5))
    np.testing.assert_array_equal(p.asnumpy(), np.full((4, 3), 5.0))


def test_clone_with_a_bad_initializer():
    n = ms.Parameter(np.arange(3), name='n')
    assert n.clone('normal').asnumpy().tolist() == [0, 0, 0]    # small draws cast to 0
    with pytest.raises(ValueError, match="unknown initializer name 'nope'"):
        n.clone('nope')
    with pytest.raises(ValueError, match=r"the Tensor has shape \(2,\), but shape \(3,\)"):
        n.clone(ms.Tensor([1, 2]))


# ----------------------------------------------------------------- gradients
def test_backward_fills_and_accumulates_grad():
    w = P([1.0, 2.0, 3.0], 'w')
    x = ms.Tensor([4.0, 5.0, 6.0])
    (w * x).sum().backward()
    np.testing.assert_array_equal(w.grad.asnumpy(), [4.0, 5.0, 6.0])
    (w * w).sum().backward()
    np.testing.assert_array_equal(w.grad.asnumpy(), [6.0, 9.0, 12.0])


def test_frozen_parameters_get_no_grad():
    w = P([1.0, 2.0], 'w')
    frozen = P([3.0, 4.0], 'frozen', requires_grad=False)
    (w * frozen).sum().backward()
    np.testing.assert_array_equal(w.grad.asnumpy(), [3.0, 4.0])
    assert frozen.grad is None


def test_grad_with_respect_to_a_parameter_tuple():
    w, b = P([2.0, 3.0], 'w'), P([1.0], 'b')
    weights = ms.ParameterTuple([w, b])
    fn = lambda x: (x * w + b).sum()
    gw, gb = ms.grad(fn, grad_position=None, weights=weights)(ms.Tensor([5.0, 7.0]))
    np.testing.assert_array_equal(gw.asnumpy(), [5.0, 7.0])
    np.testing.assert_array_equal(gb.asnumpy(), [2.0])


# ----------------------------------------------------------------- pickling and copying
@pytest.mark.parametrize('param', [
    P([[1.0, 2.0]], 'layer.w'),
    P([0.5], None, requires_grad=False),
    ms.Parameter(np.arange(3), name='step'),
    ms.Parameter(2.0, name='z'),
])
def test_pickle_round_trip(param):
    back = pickle.loads(pickle.dumps(param))
    assert type(back) is ms.Parameter
    assert (back.name, back.requires_grad, back.dtype, back.shape) == \
        (param.name, param.requires_grad, param.dtype, param.shape)
    np.testing.assert_array_equal(back.asnumpy(), param.asnumpy())
    assert repr(back) == repr(param)


def test_deepcopy_is_independent():
    p = P([1.0, 2.0], 'w')
    c = copy.deepcopy(p)
    c[0] = 0.0
    assert c.name == 'w' and p.asnumpy()[0] == 1.0


# ----------------------------------------------------------------- ParameterTuple
def test_parameter_tuple_is_a_tuple_of_parameters():
    a, b = P([1.0], 'a'), P([2.0], 'b')
    pt = ms.ParameterTuple([a, b])
    assert isinstance(pt, tuple) and type(pt) is ms.ParameterTuple and nn.ParameterTuple is \
        ms.ParameterTuple
    assert pt == (a, b) and pt[1] is b and len(pt) == 2
    assert repr(pt) == repr((a, b))
    assert ms.ParameterTuple() == () and ms.ParameterTuple(p for p in [a]) == (a,)


def test_the_same_parameter_may_appear_twice():
    a = P([1.0], 'a')
    pt = ms.ParameterTuple([a, a])
    c = pt.clone('m')
    assert c[0] is c[1] and c[0] is not a and c[0].name == 'm.a'


@pytest.mark.parametrize('item, shown', [(ms.Tensor([1.0]), 'Tensor'), (1.0, 'float'),
                                         (None, 'NoneType')])
def test_parameter_tuple_holds_parameters_only(item, shown):
    with pytest.raises(TypeError, match=f"ParameterTuple: item 1 must be a Parameter, got {shown}"):
        ms.ParameterTuple([P([1.0], 'a'), item])


def test_parameter_tuple_names_must_be_unique():
    with pytest.raises(ValueError, match="ParameterTuple: item 2: its name 'w' already exists "
                                         "in the tuple. Please set a unique name"):
        ms.ParameterTuple([P([1.0], 'w'), P([1.0], 'b'), P([2.0], 'w')])
    assert len(ms.ParameterTuple([P([1.0]), P([2.0])])) == 2     # unnamed ones do not clash


def test_parameter_tuple_clone():
    w = P([1.0, 2.0], 'w')
    n = ms.Parameter(np.array([3]), name='n', requires_grad=False)
    pt = ms.ParameterTuple([w, n])
    c = pt.clone('moments', init='zeros')
    assert type(c) is ms.ParameterTuple
    assert [p.name for p in c] == ['moments.w', 'moments.n']
    assert [p.requires_grad for p in c] == [True, False]
    assert [p.dtype for p in c] == [ms.float32, ms.int64]
    np.testing.assert_array_equal(c[0].asnumpy(), [0.0, 0.0])
    assert [p.name for p in pt] == ['w', 'n']
    np.testing.assert_array_equal(w.asnumpy(), [1.0, 2.0])


@pytest.mark.parametrize('prefix, error, message', [
    (3, TypeError, "ParameterTuple.clone: prefix must be a str, got int"),
    ('', ValueError, "ParameterTuple.clone: prefix must not be empty"),
])
def test_parameter_tuple_clone_bad_prefix(prefix, error, message):
    with pytest.raises(error, match=message):
        ms.ParameterTuple([P([1.0], 'a')]).clone(prefix)


def test_parameter_tuple_clone_needs_names():
    with pytest.raises(ValueError, match="ParameterTuple.clone: item 1 has no name to prefix "
                                         "with 'copy'"):
        ms.ParameterTuple([P([1.0], 'a'), P([2.0])]).clone('copy')


def test_parameter_tuple_pickles():
    pt = ms.ParameterTuple([P([1.0], 'a'), ms.Parameter(np.arange(2), name='b')])
    back = pickle.loads(pickle.dumps(pt))
    assert type(back) is ms.ParameterTuple and repr(back) == repr(pt)
    np.testing.assert_array_equal(back[1].asnumpy(), [0, 1])


def test_a_hook_on_a_parameter_that_requires_no_grad_is_an_error():
    p = ms.Parameter(np.ones(2, np.float32), name='frozen', requires_grad=False)
    with pytest.raises(RuntimeError, match=r"The tensor requires grad is false, which can not "
                                           r"register tensor hook \(Parameter 'frozen' has "
                                           r"requires_grad=False\)"):
        p.register_hook(lambda g: g)
    p.requires_grad = True
    assert p.register_hook(lambda g: g) is not None
