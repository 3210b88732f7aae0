"""Vector and matrix norms, cdist, cosine_similarity, clip_by_norm, clip_by_global_norm and
L2Normalize: NumPy values, MindSpore's results, gradients and errors."""
import math

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from hookgrad.testing.gradcheck import check_grad
from tests.ops.rows import row_tests

INF = math.inf


def away_from_zero(rng, shape):
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.3, 2.0, size=shape)


def distinct_magnitudes(rng, shape):
    """|x| at least 0.1 apart: max/min |x| have no ties, even under finite differences."""
    n = int(np.prod(shape))
    return rng.choice([-1.0, 1.0], size=shape) * (rng.permutation(n).reshape(shape) * 0.2 + 0.3)


def _vnorm(a, p, axis=None, keep=False):
    """The p-norm of ``a`` over ``axis`` in NumPy, for every p vector_norm takes."""
    v = np.abs(a)
    if p == INF:
        return v.max(axis, keepdims=keep)
    if p == -INF:
        return v.min(axis, keepdims=keep)
    if p == 0:
        return (v != 0).sum(axis, keepdims=keep).astype(a.dtype)
    return (v ** p).sum(axis, keepdims=keep) ** (1 / p)


def _vector(p, axis=None, keep=False, shapes=((3, 4),), domain=away_from_zero, **kw):
    return Case('VectorNorm', lambda x: ops.vector_norm(x, p, axis, keep),
                ref=lambda a: _vnorm(a, p, axis, keep),
                shapes=[(s,) for s in shapes], domains=(domain,), rtol=1e-12,
                name=f"vector_norm-p={p}-axis={axis}-keep={keep}", **kw)


VECTOR = [
    _vector(2, shapes=[(5,), (3, 4), (2, 3, 2)]),
    _vector(2, 1), _vector(2, (0, 1), True), _vector(1, 0), _vector(3, -1), _vector(0.5, 1),
    _vector(INF, 1, domain=distinct_magnitudes), _vector(-INF, 0, domain=distinct_magnitudes),
    _vector(INF, domain=distinct_magnitudes), _vector(0, 1, grad=False),
    _vector(2, shapes=[()]),
]


def _matrix(ord, shapes=((3, 4),), domain=away_from_zero, **kw):
    return Case(kw.pop('op', 'VectorNorm'), lambda x: ops.matrix_norm(x, ord),
                ref=lambda a: np.linalg.norm(a, ord, axis=(-2, -1)),
                shapes=[(s,) for s in shapes], domains=(domain,), rtol=1e-12,
                name=f"matrix_norm-{ord}", **kw)


MATRIX = [
    _matrix('fro', [(3, 4), (2, 3, 2)]),
    _matrix(1, [(3, 4), (2, 3, 2)], domain=distinct_magnitudes, op=('VectorNorm', 'ReduceMax')),
    _matrix(-1, domain=distinct_magnitudes, op=('VectorNorm', 'ReduceMin')),
    _matrix(INF, domain=distinct_magnitudes, op=('VectorNorm', 'ReduceMax')),
    _matrix(-INF, domain=distinct_magnitudes, op=('VectorNorm', 'ReduceMin')),
    # first-order gradients only (test_spectral_norm_gradients_match_finite_differences)
    _matrix('nuc', [(3, 4), (2, 3, 2)], op=('SingularValues', 'ReduceSum'), grad=False),
    _matrix(2, op=('SingularValues', 'ReduceMax'), grad=False),
    _matrix(-2, [(4, 3)], op=('SingularValues', 'ReduceMin'), grad=False),
    Case('VectorNorm', lambda x: ops.matrix_norm(x, 'fro', (0, 2), True),
         ref=lambda a: np.linalg.norm(a, 'fro', axis=(0, 2), keepdims=True),
         shapes=[((2, 3, 4),)], rtol=1e-12, name='matrix_norm-axes-keep'),
    Case(('SingularValues', 'ReduceSum'), lambda x: ops.matrix_norm(x, 'nuc', (0, 2), True),
         ref=lambda a: np.linalg.norm(a, 'nuc', axis=(0, 2), keepdims=True),
         shapes=[((2, 3, 4),)], rtol=1e-12, name='matrix_norm-nuc-axes-keep', grad=False),
    Case(('VectorNorm', 'ReduceMax'), lambda x: ops.matrix_norm(x, 1, (2, 0), True),
         ref=lambda a: np.linalg.norm(a, 1, axis=(2, 0), keepdims=True), shapes=[((2, 3, 4),)],
         domains=(distinct_magnitudes,), rtol=1e-12, name='matrix_norm-1-axes-keep'),
]
NORM = [
    Case('VectorNorm', ops.norm, ref=lambda a: np.linalg.norm(a.reshape(-1)),
         shapes=[((5,),), ((2, 3, 4),)], rtol=1e-12, name='norm'),
    Case('VectorNorm', lambda x: ops.norm(x, 1), ref=lambda a: np.linalg.norm(a, 1),
         shapes=[((5,),)], domains=(away_from_zero,), rtol=1e-12, name='norm-vector-1'),
    Case(('VectorNorm', 'ReduceMax'), lambda x: ops.norm(x, INF),
         ref=lambda a: np.linalg.norm(a, INF), shapes=[((3, 4),)],
         domains=(distinct_magnitudes,), rtol=1e-12, name='norm-matrix-inf'),
    Case('VectorNorm', lambda x: ops.norm(x, dim=1, keepdim=True),
         ref=lambda a: np.linalg.norm(a, axis=1, keepdims=True), shapes=[((3, 4),)],
         rtol=1e-12, name='norm-dim'),
    Case('VectorNorm', lambda x: ops.norm(x, dim=(1, 2)),
         ref=lambda a: np.linalg.norm(a, axis=(1, 2)), shapes=[((2, 3, 4),)], rtol=1e-12,
         name='norm-dims'),
]


def _cdist_ref(p):
    def ref(a, b):
        d = np.abs(a[..., :, None, :] - b[..., None, :, :])
        if p == 0:
            return (d != 0).sum(-1).astype(a.dtype)
        if p == INF:
            return d.max(-1)
        return (d ** p).sum(-1) ** (1 / p)
    return ref


def _cos_ref(dim, eps=1e-8):
    def ref(a, b):
        na = np.sqrt((a * a).sum(dim))
        nb = np.sqrt((b * b).sum(dim))
        return (a * b).sum(dim) / np.maximum(na * nb, eps)
    return ref


DISTANCES = [
    Case(('Sub', 'VectorNorm'), ops.cdist, ref=_cdist_ref(2), rtol=1e-12,
         shapes=[((3, 4), (2, 4)), ((2, 3, 4), (2, 5, 4))], name='cdist'),
    Case(('Sub', 'VectorNorm'), lambda a, b: ops.cdist(a, b, 1.0), ref=_cdist_ref(1),
         rtol=1e-12, shapes=[((3, 4), (2, 4))], name='cdist-1'),
    Case(('Sub', 'VectorNorm'), lambda a, b: ops.cdist(a, b, 3.0), ref=_cdist_ref(3),
         rtol=1e-12, shapes=[((3, 4), (2, 4))], name='cdist-3'),
    Case(('Sub', 'VectorNorm'), lambda a, b: ops.cdist(a, b, INF), ref=_cdist_ref(INF),
         rtol=1e-12, shapes=[((3, 4), (2, 4))], name='cdist-inf'),
    Case(('Sub', 'VectorNorm'), lambda a, b: ops.cdist(a, b, 0.0), ref=_cdist_ref(0),
         rtol=1e-12, shapes=[((3, 4), (2, 4))], name='cdist-0', grad=False),
    Case(('VectorNorm', 'Div'), ops.cosine_similarity, ref=_cos_ref(1), rtol=1e-12,
         shapes=[((3, 4), (3, 4)), ((1, 4), (3, 4))], name='cosine_similarity'),
    Case(('VectorNorm', 'Div'), lambda a, b: ops.cosine_similarity(a, b, 0), ref=_cos_ref(0),
         rtol=1e-12, shapes=[((3, 4, 2), (3, 4, 2))], name='cosine_similarity-dim0'),
]


def _clip_ref(max_norm, p=2.0):
    def ref(*arrays):
        total = np.linalg.norm(np.concatenate([a.ravel() for a in arrays]), p)
        coef = min(max_norm / (total + 1e-6), 1.0)
        out = tuple(a * coef for a in arrays)
        return out[0] if len(out) == 1 else out
    return ref


def _global_ref(clip):
    def ref(*arrays):
        total = np.linalg.norm(np.concatenate([a.ravel() for a in arrays]))
        return tuple(a * clip / max(total, clip) for a in arrays)
    return ref


CLIPS = [
    Case(('VectorNorm', 'Minimum', 'Mul'), lambda x: ops.clip_by_norm(x, 1.0),
         ref=_clip_ref(1.0), shapes=[((3, 4),)], rtol=1e-12, name='clip_by_norm'),
    Case(('VectorNorm', 'Minimum', 'Mul'), lambda x: ops.clip_by_norm(x, 100.0),
         ref=_clip_ref(100.0), shapes=[((3, 4),)], rtol=1e-12, name='clip_by_norm-unclipped'),
    Case(('VectorNorm', 'Stack', 'Mul'), lambda a, b: ops.clip_by_norm((a, b), 1.0, 1.0),
         ref=_clip_ref(1.0, 1.0), shapes=[((3,), (2, 2))], domains=(away_from_zero,) * 2,
         rtol=1e-12, name='clip_by_norm-tuple'),
    Case(('VectorNorm', 'Maximum', 'Mul'), lambda a, b: ops.clip_by_global_norm((a, b), 1.0),
         ref=_global_ref(1.0), shapes=[((3,), (2, 2))], rtol=1e-12,
         name='clip_by_global_norm'),
    Case(('ReduceSum', 'Rsqrt', 'Mul'), lambda x: ops.L2Normalize(axis=1)(x),
         ref=lambda a: a / np.sqrt(np.maximum((a * a).sum(1, keepdims=True), 1e-4)),
         shapes=[((3, 4),)], rtol=1e-12, name='L2Normalize'),
    Case(('ReduceSum', 'Rsqrt', 'Mul'), lambda x: ops.L2Normalize()(x),
         ref=lambda a: a / np.sqrt(np.maximum((a * a).sum(0, keepdims=True), 1e-4)),
         shapes=[((3, 4),), ((5,),)], rtol=1e-12, name='L2Normalize-default'),
]
CASES = VECTOR + MATRIX + NORM + DISTANCES + CLIPS


globals().update(row_tests(CASES))


def test_mindspore_values():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_allclose(ops.norm(x).item(), 7.416198253631592, rtol=1e-6)
    np.testing.assert_allclose(ops.norm(x, 'nuc').item(), 8.348469734191895, rtol=1e-6)
    np.testing.assert_allclose(ops.norm(x, 2).item(), 7.3484697341918945, rtol=1e-6)
    assert ops.norm(x, INF).item() == 12.0 and ops.matrix_norm(x, 1).item() == 7.0
    assert ops.matrix_norm(x, -1).item() == 3.0 and ops.vector_norm(x, 0).item() == 5.0
    assert ops.norm(ms.Tensor([1, 2])).dtype == ms.float32
    np.testing.assert_allclose(ops.cdist(x, x, 3.0).asnumpy()[0, 1], 4.3267487, rtol=1e-6)
    a = ms.Tensor([[1e-5, 0.0], [1.0, 2.0]])
    b = ms.Tensor([[1e-5, 0.0], [2.0, 1.0]])
    np.testing.assert_allclose(ops.cosine_similarity(a, b).asnumpy(), [0.01, 0.8], rtol=1e-5)
    y = ops.clip_by_norm(ms.Tensor([[3.0, 4.0], [0.0, 0.0]]), 1.0)
    np.testing.assert_allclose(y.asnumpy(), [[0.5999999, 0.7999998], [0, 0]], rtol=1e-6)
    y = ops.clip_by_global_norm((ms.Tensor([[3.0, 4.0], [0.0, 0.0]]),) * 2, 1.0)
    np.testing.assert_allclose(y[0].asnumpy(), [[0.42426407, 0.56568545], [0, 0]], rtol=1e-6)
    y = ops.L2Normalize()(ms.Tensor([[3.0, 4.0], [0.0, 0.0]]))
    assert y.tolist() == [[1.0, 1.0], [0.0, 0.0]]


def test_norm_gradient_is_zero_where_the_norm_is_zero():
    x = ms.Tensor(np.zeros((2, 3)), requires_grad=True)
    y = ms.Tensor(np.ones((2, 3)), requires_grad=True)
    ops.sum(ops.cdist(x, x)).backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), 0)
    ops.vector_norm(ops.sub(y, y), 3).backward()
    assert np.isfinite(y.grad.asnumpy()).all()


@pytest.mark.parametrize('ord,axis,shape', [('nuc', (-2, -1), (3, 4)), ('nuc', (0, 2), (2, 3, 4)),
                                             (2, (-2, -1), (3, 4)), (-2, (-2, -1), (4, 3))])
def test_spectral_norm_gradients_match_finite_differences(ord, axis, shape):
    a = np.random.default_rng(0).standard_normal(shape)
    check_grad(lambda x: ops.matrix_norm(x, ord, axis), a, rtol=1e-5, atol=1e-7)


def test_singular_value_norms_refuse_second_order():
    x = ms.Tensor(np.array([[2.0, 1.0], [0.5, 3.0]]), requires_grad=True)
    g = ms.grad(lambda t: ops.matrix_norm(t, 'nuc'))
    with pytest.raises(NotImplementedError, match="second order through singular values"):
        ms.grad(lambda t: ops.sum(g(t)))(x)


ERRORS = [
    (lambda: ops.matrix_norm(ms.Tensor(np.ones((2, 2))), 3), ValueError,
     r"ops\.matrix_norm: ord must be one of 'fro', 'nuc'"),
    (lambda: ops.matrix_norm(ms.Tensor(np.ones(2))), ValueError,
     r"ops\.matrix_norm: A must have rank >= 2, got shape \(2,\)"),
    (lambda: ops.matrix_norm(ms.Tensor(np.ones((2, 2))), 'fro', (1, -1)), ValueError,
     r"ops\.matrix_norm: axis \(1, -1\) names one axis twice"),
    (lambda: ops.norm(ms.Tensor(np.ones((2, 2))), 3), ValueError,
     r"ops\.norm: ord must be one of 2, -2, 1, -1, inf, -inf, 'fro', 'nuc' for matrices, got 3"),
    (lambda: ops.norm(ms.Tensor(np.ones(2)), 'fro'), ValueError,
     r"ops\.norm: ord 'fro' is a matrix norm"),
    (lambda: ops.norm(ms.Tensor(np.ones((2, 2, 2))), 2), ValueError,
     r"ops\.norm: with ord and no dim, A must be 1-d or 2-d"),
    (lambda: ops.vector_norm(ms.Tensor(np.ones(2)), 'a'), TypeError,
     r"ops\.vector_norm: ord must be a number, got 'a'"),
    (lambda: ops.vector_norm(ms.Tensor(np.ones(2)), dtype=ms.int32), TypeError,
     r"ops\.vector_norm: dtype must be a floating type, got Int32"),
    (lambda: ops.vector_norm(ms.Tensor(np.ones((2, 2))), 2, (0, 0)), ValueError,
     r"ops\.vector_norm: axis \(0, 0\) names an axis more than once"),
    (lambda: ops.cdist(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 2.0, 3.0]])), ValueError,
     r"ops\.cdist: x1 and x2 must be \(B, P, M\) and \(B, R, M\)"),
    (lambda: ops.cdist(ms.Tensor([[1.0]]), ms.Tensor([[1.0]]), -1.0), ValueError,
     r"ops\.cdist: p must be non-negative, got -1\.0"),
    (lambda: ops.cdist(ms.Tensor([[1]]), ms.Tensor([[1]])), TypeError,
     r"ops\.cdist: inputs must be floating tensors, got Int64"),
    (lambda: ops.cosine_similarity(ms.Tensor([[1]]), ms.Tensor([[1]])), TypeError,
     r"ops\.cosine_similarity: inputs must be floating tensors, got Int64"),
    (lambda: ops.cosine_similarity(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((3, 2)))),
     ValueError, r"ops\.cosine_similarity: shapes \(2, 3\) and \(3, 2\) cannot be broadcast"),
    (lambda: ops.clip_by_norm([1.0], 1.0), TypeError,
     r"ops\.clip_by_norm: x must be a Tensor or a non-empty tuple or list of Tensors"),
    (lambda: ops.clip_by_norm(ms.Tensor([np.inf]), 1.0, error_if_nonfinite=True), RuntimeError,
     r"ops\.clip_by_norm: the total norm of order 2\.0 is inf, not finite"),
    (lambda: ops.clip_by_global_norm((ms.Tensor([1.0]),), 1.0, ms.Tensor(10.0)), ValueError,
     r"ops\.clip_by_global_norm: use_norm must be None"),
    (lambda: ops.clip_by_global_norm(ms.Tensor([1.0]), 1.0), TypeError,
     r"ops\.clip_by_global_norm: x must be a tuple or list of Tensors"),
    (lambda: ops.L2Normalize()(ms.Tensor([1, 2])), TypeError,
     r"ops\.L2Normalize: x must be a floating tensor, got Int64"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
