"""sort, argsort, topk, median, quantile, cummax/cummin, searchsorted, bucketize, bincount,
histc, count_nonzero and the running/summary statistics (cumprod, logcumsumexp, logsumexp,
diff, std_mean, var_mean): NumPy values, MindSpore's results, gradients, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def distinct(rng, shape):
    """Values at least 0.2 apart: orders have no ties, even under finite differences."""
    n = int(np.prod(shape))
    return (rng.permutation(n).reshape(shape) - n / 2) * 0.3 + rng.uniform(-0.05, 0.05, shape)


def nonzero(rng, shape):
    return rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)


def with_zeros(rng, shape):
    """Some exact zeros, one or two per slice: cumprod's gradient past a zero."""
    a = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    a.reshape(-1)[::3] = 0.0
    return a


def _sort_ref(axis, descending):
    def ref(a):
        order = np.argsort(-a if descending else a, axis, kind='stable')
        return np.take_along_axis(a, order, axis), order
    return ref


def _topk_ref(k, axis, largest):
    def ref(a):
        values, order = _sort_ref(axis, largest)(a)
        keep = [slice(None)] * a.ndim
        keep[axis] = slice(0, k)
        return values[tuple(keep)], order[tuple(keep)]
    return ref


def _median_ref(axis, keep):
    def ref(a):
        k = (a.shape[axis] - 1) // 2
        value = np.take(np.sort(a, axis), [k], axis)
        index = np.argmax(a == value, axis=axis)
        values = value if keep else np.squeeze(value, axis)
        return values, np.expand_dims(index, axis) if keep else index
    return ref


def _running_ref(accumulate, axis):
    def ref(a):
        running = accumulate(a, axis)
        shape = [1] * a.ndim
        shape[axis] = a.shape[axis]
        position = np.arange(a.shape[axis]).reshape(shape)
        return running, np.maximum.accumulate(np.where(a == running, position, 0), axis)
    return ref


ORDER = [
    Case(('ArgSort', 'GatherElements'), ops.sort, ref=_sort_ref(-1, False),
         shapes=[((5,),), ((3, 4),)], domains=(distinct,), rtol=0, atol=0, name='sort'),
    Case(('ArgSort', 'GatherElements'), lambda x: ops.sort(x, 0, True), ref=_sort_ref(0, True),
         shapes=[((3, 4),), ((2, 3, 2),)], domains=(distinct,), rtol=0, atol=0,
         name='sort-descending'),
    Case('ArgSort', ops.argsort, ref=lambda a: np.argsort(a, -1), shapes=[((3, 4),)],
         domains=(distinct,), grad=False, name='argsort'),
    Case('ArgSort', lambda x: ops.argsort(x, 0, True), ref=lambda a: np.argsort(-a, 0),
         shapes=[((3, 4),)], domains=(distinct,), grad=False, name='argsort-descending'),
    Case(('ArgSort', 'GatherElements'), ops.msort, ref=lambda a: np.sort(a, 0),
         shapes=[((3, 4),)], domains=(distinct,), rtol=0, atol=0, name='msort'),
    Case(('ArgSort', 'GetItem', 'GatherElements'), lambda x: ops.topk(x, 2),
         ref=_topk_ref(2, -1, True), shapes=[((5,),), ((3, 4),)], domains=(distinct,), rtol=0,
         atol=0, name='topk'),
    Case(('ArgSort', 'GetItem', 'GatherElements'), lambda x: ops.topk(x, 3, 0, False),
         ref=_topk_ref(3, 0, False), shapes=[((4, 3),)], domains=(distinct,), rtol=0, atol=0,
         name='topk-smallest'),
    Case(('MedianIndex', 'GatherElements'), ops.median, ref=_median_ref(-1, False),
         shapes=[((5,),), ((3, 4),)], domains=(distinct,), rtol=0, atol=0, name='median'),
    Case(('MedianIndex', 'GatherElements'), lambda x: ops.median(x, 0, True),
         ref=_median_ref(0, True), shapes=[((3, 4),)], domains=(distinct,), rtol=0, atol=0,
         name='median-keep'),
    Case(('ArgSort', 'GatherElements', 'Take'), lambda x: ops.quantile(x, 0.3),
         ref=lambda a: np.quantile(a, 0.3), shapes=[((3, 4),)], domains=(distinct,),
         rtol=1e-12, name='quantile'),
    Case(('ArgSort', 'GatherElements', 'Take'),
         lambda x: ops.quantile(x, ms.Tensor([0.25, 0.9]), 1, True),
         ref=lambda a: np.quantile(a, [0.25, 0.9], 1, keepdims=True), shapes=[((3, 4),)],
         domains=(distinct,), rtol=1e-12, name='quantile-vector'),
    Case(('ArgSort', 'GatherElements', 'Take'), lambda x: ops.quantile(x, 0.5, None, True),
         ref=lambda a: np.quantile(a, 0.5, keepdims=True), shapes=[((3, 4),)],
         domains=(distinct,), rtol=1e-12, name='quantile-keep'),
    Case(('RunningExtreme', 'GatherElements'), lambda x: ops.cummax(x, 1),
         ref=_running_ref(np.maximum.accumulate, 1), shapes=[((3, 4),)], domains=(distinct,),
         rtol=0, atol=0, name='cummax'),
    Case(('RunningExtreme', 'GatherElements'), lambda x: ops.cummin(x, 0),
         ref=_running_ref(np.minimum.accumulate, 0), shapes=[((4, 3),), ((6,),)],
         domains=(distinct,), rtol=0, atol=0, name='cummin'),
]
COUNTING = [
    Case('InsertionIndex', lambda s, v: ops.searchsorted(ops.sort(s)[0], v),
         ref=lambda s, v: np.searchsorted(np.sort(s), v), shapes=[((6,), (3, 2))],
         grad=False, name='searchsorted'),
    Case('InsertionIndex', lambda s, v: ops.searchsorted(ops.sort(s)[0], v, right=True),
         ref=lambda s, v: np.stack([np.searchsorted(r, w, 'right') for r, w in
                                    zip(np.sort(s), v)]),
         shapes=[((3, 5), (3, 2))], grad=False, name='searchsorted-batched'),
    Case('InsertionIndex', lambda x: ops.bucketize(x, [-1.0, 0.0, 0.5]),
         ref=lambda a: np.searchsorted([-1.0, 0.0, 0.5], a), shapes=[((3, 4),)], grad=False,
         name='bucketize'),
    Case('BinCount', lambda x: ops.cast(ops.bincount(ops.cast(ops.abs(x) * 3, ms.int64)),
                                        x.dtype),
         ref=lambda a: np.bincount((np.abs(a.astype(np.float32)) * 3).astype(np.int64)
                                   ).astype(a.dtype),
         shapes=[((12,),)], grad=False, name='bincount'),
    Case('BinCount', lambda x, w: ops.bincount(ops.cast(ops.abs(x) * 3, ms.int64), w, 12),
         ref=lambda a, w: np.bincount((np.abs(a.astype(np.float32)) * 3).astype(np.int64), w,
                                      12),
         shapes=[((8,), (8,))], grad=False, name='bincount-weights'),
    Case('Histogram', lambda x: ops.histc(x, 5, -1.0, 1.0),
         ref=lambda a: np.histogram(a[(a >= -1) & (a <= 1)], 5, (-1, 1))[0].astype(a.dtype),
         shapes=[((4, 5),)], grad=False, name='histc'),
    Case('CountNonZero', lambda x: ops.count_nonzero(ops.round(x)),
         ref=lambda a: np.count_nonzero(np.round(a)), shapes=[((3, 4),)], grad=False,
         name='count_nonzero'),
    Case('CountNonZero', lambda x: ops.count_nonzero(ops.round(x), 1, True),
         ref=lambda a: np.count_nonzero(np.round(a), 1, keepdims=True), shapes=[((3, 4),)],
         grad=False, name='count_nonzero-axis'),
]


def _exclusive(accumulate, identity, axis, reverse):
    def ref(a):
        b = np.flip(a, axis) if reverse else a
        y = accumulate(b, axis)
        head = np.full(np.take(y, [0], axis).shape, identity, a.dtype)
        y = np.concatenate([head, np.delete(y, -1, axis)], axis)
        return np.flip(y, axis) if reverse else y
    return ref


RUNNING = [
    Case('CumProd', lambda x: ops.cumprod(x, 1), ref=lambda a: np.cumprod(a, 1),
         shapes=[((3, 4),), ((2, 5),)], domains=(nonzero,), rtol=1e-12, name='cumprod'),
    Case('CumProd', lambda x: ops.cumprod(x, -1), ref=lambda a: np.cumprod(a, -1),
         shapes=[((2, 6),), ((7,),)], domains=(with_zeros,), rtol=1e-12, name='cumprod-zeros'),
    Case('LogCumSumExp', lambda x: ops.logcumsumexp(x, 1),
         ref=lambda a: np.logaddexp.accumulate(a, 1), shapes=[((3, 4),), ((2, 3, 2),)],
         rtol=1e-12, name='logcumsumexp'),
    Case(('CumSum', 'Concat', 'Flip'), lambda x: ops.CumSum(True, True)(x, 1),
         ref=_exclusive(np.cumsum, 0, 1, True), shapes=[((3, 4),)], rtol=1e-12,
         name='CumSum-exclusive-reverse'),
    Case(('CumProd', 'Concat'), lambda x: ops.CumProd(True)(x, 0),
         ref=_exclusive(np.cumprod, 1, 0, False), shapes=[((3, 4),)], domains=(nonzero,),
         rtol=1e-12, name='CumProd-exclusive'),
    Case(('LogCumSumExp', 'Flip'), lambda x: ops.CumulativeLogsumexp(reverse=True)(x, 1),
         ref=lambda a: np.flip(np.logaddexp.accumulate(np.flip(a, 1), 1), 1),
         shapes=[((3, 4),)], rtol=1e-12, name='CumulativeLogsumexp-reverse'),
    Case(('ReduceSum', 'Exp', 'Log'), lambda x: ops.logsumexp(x, 1),
         ref=lambda a: np.log(np.exp(a).sum(1)), shapes=[((3, 4),)], rtol=1e-12,
         name='logsumexp'),
    Case(('ReduceSum', 'Exp', 'Log'), lambda x: ops.logsumexp(x, (0, 2), True),
         ref=lambda a: np.log(np.exp(a).sum((0, 2), keepdims=True)), shapes=[((2, 3, 2),)],
         rtol=1e-12, name='logsumexp-keep'),
    Case('Sub', ops.diff, ref=np.diff, shapes=[((5,),), ((3, 4),)], rtol=1e-12, name='diff'),
    Case('Sub', lambda x: ops.diff(x, 2, 0), ref=lambda a: np.diff(a, 2, 0),
         shapes=[((4, 3),)], rtol=1e-12, name='diff-twice'),
    Case(('Concat', 'Sub'), lambda x, p: ops.diff(x, prepend=p),
         ref=lambda a, p: np.diff(a, prepend=p), shapes=[((3, 4), (3, 1))], rtol=1e-12,
         name='diff-prepend'),
    Case(('Std', 'ReduceMean'), lambda x: ops.std_mean(x, 1, 1, True),
         ref=lambda a: (a.std(1, ddof=1, keepdims=True), a.mean(1, keepdims=True)),
         shapes=[((3, 4),)], rtol=1e-12, name='std_mean'),
    Case(('Var', 'ReduceMean'), ops.var_mean, ref=lambda a: (a.var(), a.mean()),
         shapes=[((3, 4),)], rtol=1e-12, name='var_mean'),
    Case(('Std', 'ReduceMean'), lambda x: ops.ReduceStd(axis=0)(x),
         ref=lambda a: (a.std(0, ddof=1), a.mean(0)), shapes=[((3, 4),)], rtol=1e-12,
         name='ReduceStd'),
]
CASES = ORDER + COUNTING + RUNNING


globals().update(row_tests(CASES))


def test_mindspore_values():
    x = ms.Tensor([[1.0, 3.0, 2.0], [4.0, 0.0, 6.0]])
    values, index = ops.topk(x, 2)
    assert values.tolist() == [[3, 2], [6, 4]] and index.tolist() == [[1, 2], [2, 0]]
    assert index.dtype == ms.int32
    values, index = ops.sort(ms.Tensor([2.0, 1.0, 2.0, 1.0]), descending=True)
    assert index.tolist() == [0, 2, 1, 3] and index.dtype == ms.int32
    assert ops.argsort(x).dtype == ms.int32
    values, index = ops.median(ms.Tensor([[1, 3, 2], [4, 0, 6]]), 1, True)
    assert values.tolist() == [[2], [4]] and index.tolist() == [[2], [0]]
    assert ops.median(ms.Tensor([1.0, 2.0, 2.0, 2.0]))[1].item() == 1
    values, index = ops.cummax(ms.Tensor([1.0, 1.0, 0.0, 1.0]), 0)
    assert index.tolist() == [0, 1, 1, 3] and index.dtype == ms.int64
    values, index = ops.cummin(ms.Tensor([3.0, 1.0, 1.0, 2.0]), 0)
    assert values.tolist() == [3, 1, 1, 1] and index.tolist() == [0, 1, 2, 2]
    assert index.dtype == ms.int32
    y = ops.searchsorted(ms.Tensor([1.0, 3.0, 5.0]), ms.Tensor([0.0, 3.0, 6.0]), out_int32=True)
    assert y.dtype == ms.int32 and y.tolist() == [0, 1, 3]
    assert ops.searchsorted(ms.Tensor([1.0, 3.0, 5.0]), ms.Tensor([3.0]), side='right').tolist() \
        == [2]
    assert ops.bincount(ms.Tensor([0, 1, 1, 3])).tolist() == [1.0, 2.0, 0.0, 1.0]
    assert ops.bincount(ms.Tensor([0, 1]), minlength=4).dtype == ms.float32
    assert ops.histc(ms.Tensor([1.0, 2.0, 1.0]), 4, 0.0, 3.0).tolist() == [0, 2, 1, 0]
    assert ops.histc(ms.Tensor([1.0, 2.0, 1.0, 5.0]), 3).tolist() == [3, 0, 1]
    assert ops.count_nonzero(ms.Tensor([[1, 3, 2], [4, 0, 6]])).dtype == ms.int32
    y = ops.cumprod(ms.Tensor([1, 2], ms.int32), 0)
    assert y.dtype == ms.int64 and y.tolist() == [1, 2]
    np.testing.assert_allclose(ops.logcumsumexp(x, 1).asnumpy()[0],
                               [1.0, 3.126928, 3.4076059], rtol=1e-6)
    assert ops.diff(ms.Tensor([True, False, True])).tolist() == [True, True]
    assert ops.Bucketize([1.0, 3.0])(x).dtype == ms.int32
    values, index = ops.Median(global_median=True)(x)
    assert values.item() == 2.0 and index.item() == 2


def test_cumprod_gradient_with_two_zeros_in_a_slice():
    x = ms.Tensor([2.0, 0.0, 3.0, 0.0, 5.0], ms.float64, requires_grad=True)
    ops.sum(ops.cumprod(x, 0)).backward()
    # y = [2, 0, 0, 0, 0]: d/dx0 = 1, d/dx1 = 2 + 2*3, the rest 0
    np.testing.assert_array_equal(x.grad.asnumpy(), [1.0, 8.0, 0.0, 0.0, 0.0])


def test_logcumsumexp_is_exact_far_below_the_maximum():
    y = ops.logcumsumexp(ms.Tensor([-1000.0, 0.0], ms.float64), 0)
    np.testing.assert_allclose(y.asnumpy(), [-1000.0, 0.0])
    with np.errstate(divide='ignore'):      # log(0), as NumPy reports it
        assert ops.logsumexp(ms.Tensor([-np.inf, -np.inf]), 0).item() == -np.inf


ERRORS = [
    (lambda: ops.topk(ms.Tensor([1.0, 2.0]), 3), ValueError,
     r"ops\.topk: k must be an int in \[0, 2\], got 3"),
    (lambda: ops.sort(ms.Tensor([1.0]), 1.5), TypeError, r"ops\.sort: axis must be an int"),
    (lambda: ops.sort(ms.Tensor([1.0]), 2), ValueError,
     r"ops\.sort: axis 2 is out of range for a tensor of rank 1"),
    (lambda: ops.median(ms.Tensor(np.zeros((2, 0)))), ValueError,
     r"ops\.median: cannot take the median of an empty axis"),
    (lambda: ops.quantile(ms.Tensor([1, 2]), 0.5), TypeError,
     r"ops\.quantile: input must be a floating tensor, got Int64"),
    (lambda: ops.quantile(ms.Tensor([1.0, 2.0]), 1.5), ValueError,
     r"ops\.quantile: q must be in \[0, 1\], got \[1\.5\]"),
    (lambda: ops.searchsorted(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((3, 1)))),
     ValueError, r"ops\.searchsorted: sorted_sequence of shape \(2, 3\) and values of shape"),
    (lambda: ops.searchsorted(ms.Tensor([1.0]), ms.Tensor([1.0]), side='middle'), ValueError,
     r"ops\.searchsorted: side must be 'left' or 'right'"),
    (lambda: ops.bucketize(ms.Tensor([1.0]), ms.Tensor([1.0])), TypeError,
     r"ops\.bucketize: boundaries must be a list of numbers"),
    (lambda: ops.bincount(ms.Tensor([-1, 1])), ValueError,
     r"ops\.bincount: input must be non-negative"),
    (lambda: ops.bincount(ms.Tensor([1.0])), TypeError,
     r"ops\.bincount: input must be an integer tensor, got Float32"),
    (lambda: ops.bincount(ms.Tensor([1]), ms.Tensor([1.0, 2.0])), ValueError,
     r"ops\.bincount: weights of shape \(2,\) must have the shape of input \(1,\)"),
    (lambda: ops.histc(ms.Tensor([1.0]), 0), ValueError,
     r"ops\.histc: bins must be a positive int, got 0"),
    (lambda: ops.histc(ms.Tensor([1.0]), 4, 2.0, 1.0), ValueError,
     r"ops\.histc: min 2\.0 must not exceed max 1\.0"),
    (lambda: ops.logcumsumexp(ms.Tensor([1, 2]), 0), TypeError,
     r"ops\.logcumsumexp: input must be a floating tensor, got Int64"),
    (lambda: ops.diff(ms.Tensor([1.0, 2.0]), -1), ValueError,
     r"ops\.diff: n must be a non-negative int, got -1"),
    (lambda: ops.diff(ms.Tensor(1.0)), ValueError, r"ops\.diff: x must have rank >= 1"),
    (lambda: ops.cumprod(ms.Tensor([1.0]), None), TypeError,
     r"ops\.cumprod: axis must be an int, got None"),
    (lambda: ops.Median(ignore_nan=True), ValueError,
     r"ops\.Median: ignore_nan=True is not supported"),
    (lambda: ops.SearchSorted(ms.float32), TypeError,
     r"ops\.SearchSorted: dtype must be Int32 or Int64, got Float32"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
