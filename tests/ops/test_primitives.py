"""MindSpore Primitive-style classes give exactly what the functional ops they wrap give."""
import inspect

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd.engine import run_backward
from hookgrad.kernels import backend
from hookgrad.ops.operations import _primitive as P
from hookgrad.testing.cases import device_named

_rng = np.random.default_rng(0)
X34 = _rng.standard_normal((3, 4))
Y34 = _rng.standard_normal((3, 4))
POS34 = _rng.uniform(0.5, 2.0, (3, 4))
X234 = _rng.standard_normal((2, 3, 4))
X245 = _rng.standard_normal((2, 4, 5))
X43 = _rng.standard_normal((4, 3))
X54 = _rng.standard_normal((5, 4))
IDX = np.array([2, 0, 3])
LABELS = np.array([1, 0, 2, 1])
MASK = X34 > 0
X2334 = _rng.standard_normal((2, 3, 3, 4))


def _seeded(fn, seed=3):
    """``fn`` run right after ``ms.set_seed(seed)``: random primitives then draw fixed masks."""
    def call(*args):
        ms.set_seed(seed)
        return fn(*args)
    return call


def _dropout_pair(x, p, mask_dtype):
    """(output, mask) of functional dropout, the mask read off the output (x has no zeros)."""
    y = ops.dropout(x, p)
    return y, ops.cast(ops.ne(y, 0), mask_dtype)


def _dropout2d_pair(x, p):
    y = ops.dropout2d(x, p)
    return y, ops.ne(y, 0)


# name, primitive factory, call arguments (ndarrays become Tensors), the functional equivalent
PRIMITIVES = [
    ('ReduceSum', lambda: P.ReduceSum(), (X34,), lambda x: ops.reduce_sum(x)),
    ('ReduceSum-axis-keep', lambda: P.ReduceSum(keep_dims=True), (X234, 1),
     lambda x, a: ops.reduce_sum(x, a, True)),
    ('ReduceSum-tuple', lambda: P.ReduceSum(), (X234, (0, 2)),
     lambda x, a: ops.reduce_sum(x, a)),
    ('ReduceMean', lambda: P.ReduceMean(), (X234, -1), lambda x, a: ops.reduce_mean(x, a)),
    ('ReduceMean-keep', lambda: P.ReduceMean(True), (X34,), lambda x: ops.reduce_mean(x, (), True)),
    ('ReduceMax', lambda: P.ReduceMax(), (X34, 0), lambda x, a: ops.reduce_max(x, a)),
    ('ReduceMin', lambda: P.ReduceMin(True), (X34, 1), lambda x, a: ops.reduce_min(x, a, True)),
    ('ReduceProd', lambda: P.ReduceProd(), (POS34, 1), lambda x, a: ops.reduce_prod(x, a)),
    ('MatMul', lambda: P.MatMul(), (X34, X43), ops.matmul),
    ('Dense', lambda: P.Dense(), (X34, X54, X54[:, 0]), ops.dense),
    ('Dense-no-bias', lambda: P.Dense(), (X34, X54), ops.dense),
    ('MatMul-ta', lambda: P.MatMul(transpose_a=True), (X43, X43),
     lambda a, b: ops.matmul(ops.transpose(a, (1, 0)), b)),
    ('MatMul-tb', lambda: P.MatMul(transpose_b=True), (X34, X54),
     lambda a, b: ops.matmul(a, ops.transpose(b, (1, 0)))),
    ('BatchMatMul', lambda: P.BatchMatMul(), (X234, X245), ops.matmul),
    ('BatchMatMul-both', lambda: P.BatchMatMul(True, True),
     (np.swapaxes(X234, 1, 2), np.swapaxes(X245, 1, 2)),
     lambda a, b: ops.matmul(ops.transpose(a, (0, 2, 1)), ops.transpose(b, (0, 2, 1)))),
    ('Add', lambda: P.Add(), (X34, Y34[0]), ops.add),
    ('Add-scalar', lambda: P.Add(), (X34, 2.0), ops.add),
    ('Sub', lambda: P.Sub(), (X34, Y34), ops.sub),
    ('Mul', lambda: P.Mul(), (X34, Y34), ops.mul),
    ('Div', lambda: P.Div(), (X34, POS34), ops.div),
    ('RealDiv', lambda: P.RealDiv(), (X34, POS34), ops.div),
    ('Neg', lambda: P.Neg(), (X34,), ops.neg),
    ('Pow', lambda: P.Pow(), (POS34, Y34), ops.pow),
    ('Pow-scalar', lambda: P.Pow(), (X34, 2.0), ops.pow),
    ('Square', lambda: P.Square(), (X34,), ops.square),
    ('Exp', lambda: P.Exp(), (X34,), ops.exp),
    ('Log', lambda: P.Log(), (POS34,), ops.log),
    ('Sqrt', lambda: P.Sqrt(), (POS34,), ops.sqrt),
    ('Rsqrt', lambda: P.Rsqrt(), (POS34,), ops.rsqrt),
    ('Abs', lambda: P.Abs(), (X34,), ops.abs),
    ('Sin', lambda: P.Sin(), (X34,), ops.sin),
    ('Cos', lambda: P.Cos(), (X34,), ops.cos),
    ('Tanh', lambda: P.Tanh(), (X34,), ops.tanh),
    ('Sigmoid', lambda: P.Sigmoid(), (X34,), ops.sigmoid),
    ('ReLU', lambda: P.ReLU(), (X34,), ops.relu),
    ('GeLU', lambda: P.GeLU(), (X34,), lambda x: ops.gelu(x, approximate='tanh')),
    ('Softmax', lambda: P.Softmax(), (X234,), ops.softmax),
    ('Softmax-axis', lambda: P.Softmax(axis=0), (X34,), lambda x: ops.softmax(x, 0)),
    ('LogSoftmax', lambda: P.LogSoftmax(1), (X234,), lambda x: ops.log_softmax(x, 1)),
    ('Reshape', lambda: P.Reshape(), (X234, (4, -1)), ops.reshape),
    ('Transpose', lambda: P.Transpose(), (X234, (2, 0, 1)), ops.transpose),
    ('ExpandDims', lambda: P.ExpandDims(), (X34, 1), ops.expand_dims),
    ('Squeeze', lambda: P.Squeeze(), (X34.reshape(3, 1, 4, 1),), lambda x: ops.squeeze(x)),
    ('Squeeze-axis', lambda: P.Squeeze(1), (X34.reshape(3, 1, 4, 1),),
     lambda x: ops.squeeze(x, 1)),
    ('Concat', lambda: P.Concat(), ((X34, Y34),), lambda t: ops.concat(t, 0)),
    ('Concat-axis', lambda: P.Concat(axis=1), ([X34, Y34, X34],), lambda t: ops.concat(t, 1)),
    ('Stack', lambda: P.Stack(), ((X34, Y34),), lambda t: ops.stack(t, 0)),
    ('Stack-axis', lambda: P.Stack(-1), ((X34, Y34),), lambda t: ops.stack(t, -1)),
    ('Split', lambda: P.Split(1, 2), (X34,), lambda x: ops.split(x, 2, 1)),
    ('Split-one', lambda: P.Split(), (X34,), lambda x: ops.split(x, 3, 0)),
    ('Tile', lambda: P.Tile(), (X34, (2, 1)), ops.tile),
    ('Flatten', lambda: P.Flatten(), (X234,), ops.flatten),
    ('Gather', lambda: P.Gather(), (X34, IDX, 1), ops.gather),
    ('Gather-batch', lambda: P.Gather(batch_dims=1), (X34, np.array([[0, 1], [3, 3], [2, 0]]), 1),
     lambda x, i, a: ops.gather(x, i, a, 1)),
    ('Cast', lambda: P.Cast(), (X34, ms.float32), ops.cast),
    ('Cast-int', lambda: P.Cast(), (X34, ms.int32), ops.cast),
    ('Fill', lambda: P.Fill(), (ms.float32, (2, 3), 1.5), ops.fill),
    ('OnesLike', lambda: P.OnesLike(), (X34,), ops.ones_like),
    ('ZerosLike', lambda: P.ZerosLike(), (X34,), ops.zeros_like),
    ('Maximum', lambda: P.Maximum(), (X34, Y34), ops.maximum),
    ('Minimum', lambda: P.Minimum(), (X34, Y34[:1]), ops.minimum),
    ('Equal', lambda: P.Equal(), (X34, X34[0]), ops.equal),
    ('NotEqual', lambda: P.NotEqual(), (X34, 0.5), ops.ne),
    ('Greater', lambda: P.Greater(), (X34, Y34), ops.gt),
    ('GreaterEqual', lambda: P.GreaterEqual(), (X34, Y34), ops.ge),
    ('Less', lambda: P.Less(), (X34, Y34), ops.lt),
    ('LessEqual', lambda: P.LessEqual(), (X34, Y34), ops.le),
    ('Select', lambda: P.Select(), (MASK, X34, Y34), ops.where),
    ('Argmax', lambda: P.Argmax(), (X34,), lambda x: ops.cast(ops.argmax(x, -1), ms.int32)),
    ('Argmax-int64', lambda: P.Argmax(axis=0, output_type=ms.int64), (X34,),
     lambda x: ops.argmax(x, 0)),
    ('ArgMaxWithValue', lambda: P.ArgMaxWithValue(), (X34,),
     lambda x: (ops.cast(ops.max(x, 0)[1], ms.int64), ops.max(x, 0)[0])),
    ('ArgMaxWithValue-keep', lambda: P.ArgMaxWithValue(axis=1, keep_dims=True), (X34,),
     lambda x: (ops.cast(ops.max(x, 1, True)[1], ms.int64), ops.max(x, 1, True)[0])),
    ('OneHot', lambda: P.OneHot(), (LABELS, 3, ms.Tensor(1.0), ms.Tensor(0.0)), ops.one_hot),
    ('OneHot-axis', lambda: P.OneHot(axis=0), (LABELS, 3, 2, -1),
     lambda *a: ops.one_hot(*a, axis=0)),
    ('Identity', lambda: P.Identity(), (X34,), ops.identity),
    ('StopGradient', lambda: P.StopGradient(), (X34,), ops.stop_gradient),
    ('Dropout', lambda: _seeded(P.Dropout(keep_prob=0.7)), (X234,),
     _seeded(lambda x: _dropout_pair(x, 0.3, ms.float64))),
    ('Dropout2D', lambda: _seeded(P.Dropout2D()), (X2334,),
     _seeded(lambda x: _dropout2d_pair(x, 0.5))),
    ('Dropout2D-keep', lambda: _seeded(P.Dropout2D(0.25)), (X2334,),
     _seeded(lambda x: _dropout2d_pair(x, 0.75))),
]


def _args(args, requires_grad):
    """ndarrays (also inside tuples/lists) as fresh Tensors; floating ones as grad leaves."""
    leaves = []

    def conv(a):
        if isinstance(a, np.ndarray):
            t = ms.Tensor(a)
            if requires_grad and a.dtype.kind == 'f':
                t.requires_grad_(True)
                leaves.append(t)
            return t
        if isinstance(a, (tuple, list)) and a and isinstance(a[0], np.ndarray):
            return type(a)(conv(v) for v in a)
        return a

    return [conv(a) for a in args], leaves


def _outputs(y):
    return list(y) if isinstance(y, (tuple, list)) else [y]


def _run(fn, args):
    """Outputs and the gradients of their sum against fixed cotangents, per float leaf."""
    call_args, leaves = _args(args, requires_grad=True)
    outs = _outputs(fn(*call_args))
    rng = np.random.default_rng(7)
    cts = [backend.to_device(rng.standard_normal(o.shape).astype(o.asnumpy().dtype),
                             backend.device_of(o._data)) for o in outs]
    live = [(o, c) for o, c in zip(outs, cts) if o.requires_grad]
    grads = []
    if live and leaves:
        grads = run_backward([o for o, _ in live], [c for _, c in live], targets=leaves)
    return outs, grads


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
@pytest.mark.parametrize('make,args,functional', [pytest.param(m, a, f, id=n)
                                                   for n, m, a, f in PRIMITIVES])
def test_primitive_matches_functional_forward_and_backward(make, args, functional, device):
    with backend.default_device(device_named(device)):
        got, got_grads = _run(make(), args)
        want, want_grads = _run(functional, args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, ms.Tensor)
        assert g.shape == w.shape and g.dtype == w.dtype
        assert g.requires_grad == w.requires_grad
        np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())
    assert len(got_grads) == len(want_grads)
    for g, w in zip(got_grads, want_grads):
        assert (g is None) == (w is None)
        if g is not None:
            np.testing.assert_array_equal(backend.to_host(g), backend.to_host(w))


def test_every_primitive_class_has_a_case_and_is_exported():
    classes = {name for name, obj in vars(P).items()
               if inspect.isclass(obj) and issubclass(obj, P.Primitive) and obj.__module__ ==
               P.__name__ and not name.startswith('_')}
    assert classes == set(P.__all__)
    tested = {n.split('-')[0] for n, *_ in PRIMITIVES} | {'Assign', 'Primitive'}
    assert classes == tested
    for name in P.__all__:
        assert getattr(ops, name) is getattr(P, name)


def test_gradients_reach_inputs_through_primitives():
    x = ms.Tensor(X34, requires_grad=True)
    y = P.ReduceSum()(P.Mul()(x, x))
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * X34)


def test_gelu_primitive_is_mindsporess_tanh_form():
    # the values MindSpore's GeLU documentation prints for [1, 2, 3]
    y = P.GeLU()(ms.Tensor([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(y.asnumpy(), [0.841192, 1.9545976, 2.9963627], rtol=1e-6)


def test_split_and_flatten_follow_mindspore():
    pieces = P.Split(axis=0, output_num=3)(ms.Tensor(np.arange(6.0)))
    assert isinstance(pieces, tuple) and [p.tolist() for p in pieces] == [[0, 1], [2, 3], [4, 5]]
    assert P.Flatten()(ms.Tensor([1.0, 2.0])).shape == (2, 1)
    assert P.Flatten()(ms.Tensor(np.zeros((0, 2, 3)))).shape == (0, 6)


def test_argmax_output_types():
    x = ms.Tensor(X34)
    assert P.Argmax()(x).dtype == ms.int32
    assert P.ArgMaxWithValue()(x)[0].dtype == ms.int64      # MindSpore 2.10: Int64
    assert ms.ops.ArgMinWithValue()(x)[0].dtype == ms.int64


def test_assign_primitive():
    v = ms.Tensor(np.zeros(3, np.float32))
    out = P.Assign()(v, ms.Tensor([1.0, 2.0, 3.0]))
    assert out is v
    np.testing.assert_array_equal(v.asnumpy(), [1, 2, 3])


def test_names_and_repr():
    assert P.ReduceSum().name == 'ReduceSum'
    assert repr(P.ReduceSum(True)) == 'Prim[ReduceSum]<keep_dims=True>'
    assert repr(P.Add()) == 'Prim[Add]'
    assert repr(P.MatMul(transpose_b=True)) == \
        'Prim[MatMul]<transpose_a=False, transpose_b=True>'
    assert P.Softmax(axis=1).axis == 1


def test_user_defined_primitive():
    class Twice(P.Primitive):
        def __init__(self, factor=2):
            super().__init__(factor=factor)

        def construct(self, x):
            return ops.mul(x, self.factor)

    p = Twice(3)
    assert p.name == 'Twice' and repr(p) == 'Prim[Twice]<factor=3>'
    np.testing.assert_array_equal(p(ms.Tensor([1.0, 2.0])).asnumpy(), [3, 6])
    with pytest.raises(TypeError, match="Primitive defines no construct"):
        P.Primitive()(ms.Tensor([1.0]))


ERRORS = [
    (lambda: P.ReduceSum(keep_dims=1), TypeError, r"ops\.ReduceSum: keep_dims must be a bool, got 1"),
    (lambda: P.MatMul(transpose_a='yes'), TypeError,
     r"ops\.MatMul: transpose_a must be a bool, got 'yes'"),
    (lambda: P.MatMul(transpose_a=True)(ms.Tensor([1.0, 2.0]), ms.Tensor(X34)), ValueError,
     r"ops\.MatMul: transpose_a needs a tensor of rank >= 2, got shape \(2,\)"),
    (lambda: P.MatMul()(ms.Tensor(X34), ms.Tensor(X34)), ValueError, r"ops\.mm: .*\(3, 4\)"),
    (lambda: P.Split(0, 0), ValueError, r"ops\.Split: output_num must be a positive int, got 0"),
    (lambda: P.Split(0, 2)(ms.Tensor(X34)), ValueError,
     r"ops\.Split: axis 0 of shape \(3, 4\) has size 3, which is not divisible by output_num 2"),
    (lambda: P.Split(2, 2)(ms.Tensor(X34)), ValueError,
     r"ops\.Split: axis 2 is out of range for a tensor of rank 2"),
    (lambda: P.Split()(ms.Tensor(1.0)), ValueError, r"ops\.Split: cannot split a 0-d tensor"),
    (lambda: P.Flatten()(ms.Tensor(1.0)), ValueError,
     r"ops\.Flatten: expected a tensor of rank >= 1, got shape \(\)"),
    (lambda: P.ArgMaxWithValue(keep_dims=None), TypeError,
     r"ops\.ArgMaxWithValue: keep_dims must be a bool, got None"),
    (lambda: P.Add()(ms.Tensor(X34), ms.Tensor(X43)), ValueError,
     r"ops\.add: shapes \(3, 4\) and \(4, 3\) cannot be broadcast"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize('prim', [ops.Argmax, ops.Argmin])
def test_arg_extreme_output_type_is_int32_or_int64(prim):
    # MindSpore 2.10: "dtype should be Int32 or Int64 but got Float32" (a ValueError)
    with pytest.raises(ValueError, match=rf"ops\.{prim.__name__}: output_type must be "
                                         rf"mindspore\.int32 or mindspore\.int64, got "
                                         rf"mindspore\.float32"):
        prim(output_type=ms.float32)
    y = prim(output_type=ms.int64)(ms.Tensor([[1.0, 3.0, 2.0]]))
    assert y.dtype == ms.int64
