"""Primitives over existing functional ops (Segment*, norms, losses, scatter and resize
forms...) against MindSpore 2.10's recorded CPU results (values, shapes and dtypes), and
their constructor checks. The Primitives MindSpore 2.10 does not run on CPU are checked
against NumPy."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import operations as P
from tests.ops.primitives_more_inputs import CALLS, call

with open(os.path.join(os.path.dirname(__file__), 'primitives_more_mindspore_values.json')) as f:
    RECORDED = json.load(f)


def T(value, dtype='float32'):
    return ms.Tensor(np.array(value, dtype=np.dtype(dtype)))


def test_every_call_was_recorded():
    assert sorted(RECORDED) == sorted(CALLS)


@pytest.mark.parametrize('name', sorted(RECORDED))
def test_matches_mindspore(name):
    out = call(name, ms, P)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    want = RECORDED[name]
    assert len(outs) == len(want['outputs'])
    for got, values, dtype in zip(outs, want['outputs'], want['dtypes']):
        expected = np.asarray(values)
        np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5, atol=1e-6)
        assert got.shape == expected.shape
        assert str(got.dtype) == dtype


def test_primitives_are_exported_as_mindspore_has_them():
    assert P.SegmentSum is ops.SegmentSum
    assert P.LpNorm is ops.LpNorm
    from hookgrad.ops.operations import array_ops, math_ops, nn_ops
    assert array_ops.SegmentMean is P.SegmentMean
    assert math_ops.LpNorm is P.LpNorm
    assert nn_ops.MultiMarginLoss is P.MultiMarginLoss


# ------------------------------------------------------- MindSpore 2.10 lacks these on CPU
def test_euclidean_norm():
    x = np.array([[3., 4.], [6., 8.]], np.float32)
    out = P.EuclideanNorm(keep_dims=True)(T(x), T([1], 'int32'))
    np.testing.assert_allclose(out.asnumpy(), [[5.], [10.]], rtol=1e-6)
    out = P.EuclideanNorm()(T(x), T([0, 1], 'int64'))
    np.testing.assert_allclose(out.asnumpy(), np.sqrt((x ** 2).sum()), rtol=1e-6)


def test_triplet_margin_loss():
    a = np.array([[1., 2.], [0., 1.]], np.float32)
    pos = np.array([[1.5, 2.], [1., 1.]], np.float32)
    neg = np.array([[0., 0.], [0., 1.2]], np.float32)
    d = lambda u, v: np.sqrt((np.abs(u - v + 1e-6) ** 2).sum(-1))   # noqa: E731
    want = np.maximum(d(a, pos) - d(a, neg) + 1.0, 0)
    out = P.TripletMarginLoss(reduction='none')(T(a), T(pos), T(neg), T(1.0))
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5)
    out = P.TripletMarginLoss()(T(a), T(pos), T(neg), T(1.0))
    np.testing.assert_allclose(out.asnumpy(), want.mean(), rtol=1e-5)


def test_quantile():
    x = np.array([[1., 4., 2., 3.], [8., 5., 7., 6.]], np.float32)
    out = P.Quantile(dim=1)(T(x), T([0.25, 0.5]))
    np.testing.assert_allclose(out.asnumpy(), np.quantile(x, [0.25, 0.5], axis=1))
    y = np.array([[1., np.nan], [3., 5.]], np.float32)
    out = P.Quantile(dim=0, keep_dims=True, ignore_nan=True)(T(y), T(0.5))
    np.testing.assert_allclose(out.asnumpy(), np.nanquantile(y, 0.5, axis=0, keepdims=True))


# ------------------------------------------------------------------ constructor and inputs
@pytest.mark.parametrize('make, error, message', [
    (lambda: P.Histogram(bins=0), ValueError, 'bins must be int and must > 0'),
    (lambda: P.Histogram(min=2., max=1.), ValueError, 'min must be <= max'),
    (lambda: P.LpNorm(axis=1.5), TypeError, 'axis must be an int, tuple or list'),
    (lambda: P.LpNorm(axis=0, keep_dims=1), TypeError, 'keep_dims must be a bool'),
    (lambda: P.NuclearNorm(dim=[0]), ValueError, 'dim must hold 2 axes'),
    (lambda: P.MultiMarginLoss(p=3), ValueError, 'p must be 1 or 2'),
    (lambda: P.MultiMarginLoss(reduction='avg'), ValueError, "reduction must be one of"),
    (lambda: P.TripletMarginLoss(swap=1), TypeError, 'swap must be a bool'),
    (lambda: P.Quantile(dim=0.5), TypeError, 'dim must be an int'),
    (lambda: P.NthElement(reverse='no'), TypeError, 'reverse must be a bool'),
])
def test_constructor_checks(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_call_checks():
    with pytest.raises(ValueError, match='sorted in ascending order'):
        P.SegmentSum()(T([1., 2., 3.]), T([1, 0, 0], 'int32'))
    with pytest.raises(ValueError, match=r'n must be in \[0, 2\)'):
        P.NthElement()(T([1., 2.]), 2)
    with pytest.raises(ValueError, match='must be 2-D'):
        P.NuclearNorm()(T(np.ones((2, 2, 3))))


def test_inplace_index_add_writes_the_parameter():
    var = ms.Parameter(T([[1., 2.], [3., 4.], [5., 6.]]))
    out = P.InplaceIndexAdd(axis=0)(var, T([0, 2], 'int32'), T([[0.5, 0.5], [1., 1.]]))
    np.testing.assert_allclose(var.asnumpy(), [[1.5, 2.5], [3., 4.], [6., 7.]])
    np.testing.assert_allclose(out.asnumpy(), var.asnumpy())


def test_batch_to_space_forms():
    x = np.arange(8.).reshape(4, 1, 1, 2).astype(np.float32)
    # (4, 1, 1, 2) with a 2 x 2 block: batch b goes to row b // 2, column offset b % 2
    full = np.array([[[[0., 2., 1., 3.], [4., 6., 5., 7.]]]], np.float32)
    out = P.BatchToSpace(block_size=2, crops=[[0, 0], [0, 1]])(T(x))
    np.testing.assert_array_equal(out.asnumpy(), full[..., :3])
    out = P.BatchToSpaceNDV2()(T(x), T([2, 2], 'int64'), T([[0, 1], [1, 0]], 'int64'))
    np.testing.assert_array_equal(out.asnumpy(), full[:, :, :1, 1:])


def test_log_softmax_ext_and_lerp_scalar():
    x = np.array([[1., 2., 3.], [1., 1., 5.]], np.float32)
    want = x - np.log(np.exp(x).sum(0, keepdims=True))
    np.testing.assert_allclose(P.LogSoftmaxExt()(T(x), 0).asnumpy(), want, rtol=1e-5)
    out = P.LogSoftmaxExt()(T(x), dtype=ms.float64)
    assert out.dtype == ms.float64
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(out.asnumpy(), x64 - np.log(np.exp(x64).sum(-1, keepdims=True)),
                               rtol=1e-12)
    out = P.LerpScalar()(T([1., 2.]), T([3., 6.]), 0.25)
    np.testing.assert_allclose(out.asnumpy(), [1.5, 3.])


def test_random_categorical_draws_the_certain_class():
    logits = T([[-1e9, 0., -1e9], [0., -1e9, -1e9]])
    out = P.RandomCategorical(ms.int32)(logits, 5, 3)
    assert out.dtype == ms.int32 and out.shape == (2, 5)
    np.testing.assert_array_equal(out.asnumpy(), [[1] * 5, [0] * 5])


@pytest.mark.parametrize('make, error, message', [
    (lambda: P.ScatterAddWithAxis(axis='a'), TypeError, 'axis must be an int'),
    (lambda: P.InplaceIndexAdd(axis=0.5), TypeError, 'axis must be an int'),
    (lambda: P.FillDiagonal(fill_value='a'), TypeError, 'fill_value must be a float'),
    (lambda: P.FillDiagonal(1., wrap=1), TypeError, 'wrap must be a bool'),
    (lambda: P.Im2Col(ksizes=0), ValueError, r'ksizes\[0\] must be int and must > 0'),
    (lambda: P.Im2Col(ksizes=[2, 2, 2]), ValueError, 'ksizes must hold 1 or 2 values'),
    (lambda: P.Im2Col(ksizes=2, pads=-1), ValueError, r'pads\[0\] must be int and must > -1'),
    (lambda: P.ResizeLinear1D('bad'), ValueError, 'coordinate_transformation_mode must be'),
    (lambda: P.MatrixTriangularSolve(lower=1), TypeError, 'lower must be a bool'),
    (lambda: P.BatchToSpace(1, [[0, 0], [0, 0]]), ValueError, 'block_size must be >= 2'),
    (lambda: P.BatchToSpace(2, [[0, 0]]), ValueError, 'crops must be 2 pairs'),
    (lambda: P.RandomCategorical(ms.float32), TypeError, 'dtype must be Int16, Int32 or Int64'),
])
def test_constructor_checks_of_writes_and_blocks(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_fill_v2_takes_a_one_element_value():
    out = P.FillV2()((2, 2), T([7], 'int32'))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [[7, 7], [7, 7]])
    with pytest.raises(ValueError, match='value must be a Tensor of one element'):
        P.FillV2()((2, 2), T([1., 2.]))


def test_resize_linear_1d_rounds_float16_once_as_mindspore():
    # bit patterns printed by MindSpore 2.10 (CPU): Float16 is resized in Float32, then rounded
    x = T(np.linspace(-3, 7, 11).reshape(1, 1, 11), 'float16')
    size = T([7], 'int64')
    bits = {'align_corners': [-15872, -17067, 13653, 16384, 17237, 17749, 18176],
            'half_pixel': [-16018, -17262, 14043, 16384, 17189, 17701, 18103]}
    for mode, expected in bits.items():
        out = P.ResizeLinear1D(mode)(x, size).asnumpy()
        assert out.dtype == np.float16, out.dtype
        assert out.ravel().view(np.int16).tolist() == expected, (mode, out)
    out = P.ResizeLinear1D()(T([[[4, 5, 6]]], 'float16'), T([6], 'int64')).asnumpy()
    assert out.ravel()[2] == np.float16(4.8), out      # 4.8 rounded once, not 4.797
