"""ms.vmap follows MindSpore 2.10's axis rules, results and errors (values produced by MindSpore
2.10 on the same inputs), and composes with the gradient transforms."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


def T(v, dtype=np.float32):
    return ms.Tensor(np.asarray(v, dtype=dtype))


X = T([[1, 2], [3, 4], [5, 6]])         # [b, a]
Y = T([[-3, -2, -1], [3, 2, 1]])        # [a, b]
Z = T([0, 3])                           # [a]


def add3(x, y, z):
    return x + y + z


def total(x):
    return x.sum()


def pair(x, y):
    return x * 2, y.sum()


def test_in_axes_and_out_axes_of_the_mindspore_example():
    want = [[-2., 1., 4.], [8., 9., 10.]]
    np.testing.assert_allclose(ms.vmap(add3, in_axes=(0, 1, None), out_axes=1)(X, Y, Z).asnumpy(),
                               want)
    np.testing.assert_allclose(ms.vmap(add3, in_axes=[0, 1, None], out_axes=1)(X, Y, Z).asnumpy(),
                               want)


def test_mapped_axis_per_argument_and_negative_axes():
    np.testing.assert_allclose(ms.vmap(total)(X).asnumpy(), [3., 7., 11.])
    np.testing.assert_allclose(ms.vmap(total, 1)(X).asnumpy(), [9., 12.])
    np.testing.assert_allclose(ms.vmap(total, -1)(X).asnumpy(), [9., 12.])
    scaled = ms.vmap(lambda x, k: x * k, in_axes=(0, None))(X, 2.0)
    np.testing.assert_allclose(scaled.asnumpy(), X.asnumpy() * 2)


def test_several_outputs_and_their_axes():
    a, b = ms.vmap(pair)(X, X)
    np.testing.assert_allclose(a.asnumpy(), X.asnumpy() * 2)
    np.testing.assert_allclose(b.asnumpy(), [3., 7., 11.])
    a, b = ms.vmap(pair, out_axes=(1, 0))(X, X)
    np.testing.assert_allclose(a.asnumpy(), X.asnumpy().T * 2)
    a, _ = ms.vmap(pair, out_axes=-1)(X, X)
    assert a.shape == (2, 3)
    first, (second, third) = ms.vmap(lambda x: (x, (x * 2, x.sum())), out_axes=(0, (1, 0)))(X)
    assert (first.shape, second.shape, third.shape) == ((3, 2), (2, 3), (3,))
    as_tuple = ms.vmap(lambda x: [x, x * 2])(X)
    assert isinstance(as_tuple, tuple) and as_tuple[1].shape == (3, 2)


def test_outputs_that_do_not_depend_on_the_mapped_arguments():
    np.testing.assert_allclose(ms.vmap(lambda x: T([1., 2.]))(X).asnumpy(),
                               [[1., 2.], [1., 2.], [1., 2.]])
    s, c = ms.vmap(lambda x: (x.sum(), T(5.)), out_axes=(0, None))(X)
    assert c.shape == () and c.item() == 5.
    np.testing.assert_allclose(ms.vmap(lambda x: 3.0)(X).asnumpy(), [3., 3., 3.])
    ints = ms.vmap(lambda x: 2)(X)
    assert ints.dtype == ms.int64 and ints.asnumpy().tolist() == [2, 2, 2]
    flags = ms.vmap(lambda x: x > 2)(X)
    assert flags.dtype == ms.bool_ and flags.asnumpy().tolist() == [[False, False], [True, True],
                                                                    [True, True]]


def test_tuple_arguments_with_nested_or_shared_axes():
    one = T(1.0)
    got = ms.vmap(lambda t, y: t[0] * t[1] + y, in_axes=((0, 1), None))((X, X.T), one)
    np.testing.assert_allclose(got.asnumpy(), [[2., 5.], [10., 17.], [26., 37.]])
    shared = ms.vmap(lambda t, y: t[0] * t[1] + y, in_axes=(0, 0))((X, X), X)
    np.testing.assert_allclose(shared.asnumpy(), [[2., 6.], [12., 20.], [30., 42.]])


def test_nested_vmap_and_gradients():
    cube = T(np.arange(12).reshape(2, 3, 2))
    inner = lambda x: ms.vmap(lambda r: r * r.sum())(x)
    np.testing.assert_allclose(ms.vmap(inner)(cube).asnumpy(),
                               [[[0., 1.], [10., 15.], [36., 45.]],
                                [[78., 91.], [136., 153.], [210., 231.]]])
    square_sum = lambda x: (x * x).sum()
    np.testing.assert_allclose(ms.vmap(ms.grad(square_sum))(X).asnumpy(), X.asnumpy() * 2)
    np.testing.assert_allclose(ms.grad(lambda a: ms.vmap(square_sum)(a).sum())(X).asnumpy(),
                               X.asnumpy() * 2)


class WeightedSum(nn.Cell):
    def __init__(self, w):
        super().__init__()
        self.w = ms.Parameter(T(w), name='w')

    def construct(self, x):
        return (x * self.w).sum()


def test_cells_and_model_ensembling_with_a_cell_list():
    np.testing.assert_allclose(ms.vmap(WeightedSum([1., 2.]))(X).asnumpy(), [5., 11., 17.])
    cells = nn.CellList([WeightedSum([1., 2.]), WeightedSum([0., 1.]), WeightedSum([1., 0.])])
    np.testing.assert_allclose(ms.vmap(cells)(X).asnumpy(), [5., 4., 5.])
    np.testing.assert_allclose(ms.vmap(cells, in_axes=None)(X[0]).asnumpy(), [5., 2., 1.])
    with pytest.raises(ValueError, match="vmap: a CellList of 2 cells needs mapped axes of size 2 \\(one example per cell\\), got 3"):
        ms.vmap(nn.CellList([WeightedSum([1., 2.]), WeightedSum([1., 2.])]))(X)


@pytest.mark.parametrize('call,message', [   # RuntimeError, as MindSpore raises
    (lambda: ms.vmap(pair, out_axes=(0, None))(X, X),
     "vmap: output 1 depends on the mapped arguments, so its out axis cannot be None"),
    (lambda: ms.vmap(lambda x, k: x * k, in_axes=(0, 0))(X, 2.0),
     "vmap: an argument mapped over axis 0 must be a Tensor \\(or a tuple of them\\), got float"),
    (lambda: ms.vmap(total, in_axes=None)(X),
     "vmap: in_axes cannot be None alone unless fn is a CellList"),
    (lambda: ms.vmap(total, in_axes=(None,))(X),
     "vmap: in_axes cannot be all None unless fn is a CellList, got \\(None,\\)"),
    (lambda: ms.vmap(pair, in_axes=(0, 0))(X, Y),
     "vmap: the mapped axes of the arguments must have one size, got 3, 2"),
    (lambda: ms.vmap(add3, in_axes=(0, 1))(X, Y, Z),
     "vmap: in_axes has 2 entries for 3 arguments; it needs one per argument"),
    (lambda: ms.vmap(total, in_axes=2)(X),
     "vmap: the axis 2 in in_axes is out of bounds for an array of dimension 2"),
    (lambda: ms.vmap(total, in_axes=-3)(X),
     "vmap: the axis -3 in in_axes is out of bounds for an array of dimension 2"),
    (lambda: ms.vmap(total, in_axes=1.0)(X),
     "vmap: the axes in in_axes can only be ints or None, got float 1.0"),
    (lambda: ms.vmap(total, in_axes=True)(X),
     "vmap: the axes in in_axes can only be ints or None, got bool True"),
    (lambda: ms.vmap(total, out_axes=1)(X),
     "vmap: the axis 1 in out_axes is out of bounds for an array of dimension 1"),
    (lambda: ms.vmap(pair, out_axes=(0, 0, 0))(X, X),
     "vmap: out_axes has 3 entries for 2 outputs of fn"),
    (lambda: ms.vmap(lambda x: T([1., 2.]), out_axes=None)(X),
     "vmap: out_axes cannot be None alone"),
    (lambda: ms.vmap(lambda x: None)(X),
     "vmap: fn must return Tensors or numbers, output is NoneType"),
    (lambda: ms.vmap(lambda x, y=None: x)(X, y=X),
     "vmap: keyword arguments are not supported, got 'y'"),
    (lambda: ms.vmap(lambda x: x * 2)(T(3.0)),
     "vmap: the axis 0 in in_axes is out of bounds for an array of dimension 0"),
])
def test_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


def test_fn_must_be_callable():
    with pytest.raises(TypeError, match="vmap: fn must be a function or a Cell, got int"):
        ms.vmap(3)


