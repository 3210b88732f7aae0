"""The calls of the Primitive checks against MindSpore 2.10's recorded values: one table shared
by the recording script (run with MindSpore) and the test (run with hookgrad). Each call is
text evaluated with ``P`` (``ops.operations``), ``ms`` (the framework), ``np`` and ``T``
(a Tensor from a nested list and a dtype name)."""
import numpy as np

_X42 = "T([[1., 2.], [3., 4.], [5., 6.], [7., 8.]])"
_IDS = "T([0, 0, 2, 2], 'int32')"
_M33 = "T([[2., 0., 0.], [1., 3., 0.], [-1., 2., 4.]])"

CALLS = {
    'SegmentSum': f"P.SegmentSum()({_X42}, {_IDS})",
    'SegmentMax': f"P.SegmentMax()({_X42}, {_IDS})",
    'SegmentMin': f"P.SegmentMin()({_X42}, {_IDS})",
    'SegmentProd': f"P.SegmentProd()({_X42}, {_IDS})",
    'SegmentMean': f"P.SegmentMean()({_X42}, {_IDS})",
    'SegmentSum_1d': "P.SegmentSum()(T([1, 2, 3, 4, 5], 'int32'), T([0, 1, 1, 3, 3], 'int64'))",
    'UniqueWithPad': "P.UniqueWithPad()(T([1, 1, 5, 5, 4, 4, 3, 3, 2, 2], 'int32'), "
                     "T(-1, 'int32'))",
    'Histogram': "P.Histogram(bins=4, min=0., max=3.)(T([1., 2., 1., 0.5, 2.9, 3.5]))",
    'LpNorm': "P.LpNorm(axis=[0, 1], p=2)(T([[3., 4.], [6., 8.]]))",
    'LpNorm_p1': "P.LpNorm(axis=1, p=1, keep_dims=True)(T([[3., -4.], [6., 8.]]))",
    'LpNorm_eps': "P.LpNorm(axis=1, p=2, epsilon=0.5)(T([[0., 0.], [0.1, 0.], [3., 4.]]))",
    'NuclearNorm': f"P.NuclearNorm(dim=[0, 1])({_M33})",
    'MultiMarginLoss': "P.MultiMarginLoss(p=1, margin=1.0, reduction='mean')("
                       "T([[0.3, 0.7, 0.2], [0.1, 0.5, 0.9]]), T([1, 2], 'int64'), "
                       "T([1., 2., 0.5]))",
    'MultiMarginLoss_none': "P.MultiMarginLoss(p=2, margin=0.5, reduction='none')("
                            "T([[0.3, 0.7, 0.2], [0.1, 0.5, 0.9]]), T([0, 2], 'int64'))",
    'Bincount': "P.Bincount()(T([0, 1, 1, 3], 'int32'), T(5, 'int32'), T([1., 2., 3., 4.]))",
    'Im2Col': "P.Im2Col(ksizes=2, strides=1, dilations=1, pads=0)("
              "T(np.arange(18.).reshape(1, 2, 3, 3)))",
    'Im2Col_pad': "P.Im2Col(ksizes=[2, 2], strides=2, dilations=1, pads=1)("
                  "T(np.arange(9.).reshape(1, 1, 3, 3)))",
    'InplaceUpdateV2': "P.InplaceUpdateV2()(T([[1., 2.], [3., 4.], [5., 6.]]), "
                       "T([0, 2], 'int32'), T([[9., 9.], [8., 8.]]))",
    'ScatterAddWithAxis': "P.ScatterAddWithAxis(axis=1)(T([[1., 2., 3.], [4., 5., 6.]]), "
                          "T([[0, 0], [2, 1]], 'int32'), T([[1., 10.], [100., 1000.]]))",
    'InplaceIndexAdd': "P.InplaceIndexAdd(axis=0)(ms.Parameter(T([[1., 2.], [3., 4.], "
                       "[5., 6.]])), T([0, 2], 'int32'), T([[0.5, 0.5], [1., 1.]]))",
    'ResizeLinear1D': "P.ResizeLinear1D()(T(np.arange(6.).reshape(1, 2, 3)), T([5], 'int64'))",
    'ResizeLinear1D_half': "P.ResizeLinear1D('half_pixel')(T(np.arange(6.).reshape(1, 2, 3)), "
                           "T([5], 'int64'))",
    'FillV2': "P.FillV2()(T([2, 3], 'int32'), T(1.5))",
    'MatrixTriangularSolve': f"P.MatrixTriangularSolve()({_M33}, T([[1., 2.], [3., 4.], "
                             f"[5., 6.]]))",
    'MatrixTriangularSolve_adj': f"P.MatrixTriangularSolve(lower=True, adjoint=True)({_M33}, "
                                 f"T([[1.], [3.], [5.]]))",
    'MaskedScatter': "P.MaskedScatter()(T([1., 2., 3., 4.]), T([True, False, True, False], "
                     "'bool'), T([10., 20., 30., 40.]))",
    'IndexPut': "P.IndexPut(accumulate=0)(T([[1., 2., 3.], [4., 5., 6.]]), T([7., 8.]), "
                "[T([0, 1], 'int32'), T([1, 2], 'int32')])",
    'IndexPut_acc': "P.IndexPut(accumulate=1)(T([[1., 2., 3.], [4., 5., 6.]]), T([7.]), "
                    "[T([0, 0], 'int32'), T([1, 1], 'int32')])",
    'FillDiagonal': "P.FillDiagonal(fill_value=9.)(T(np.zeros((5, 3))))",
    'FillDiagonal_wrap': "P.FillDiagonal(fill_value=-1., wrap=True)(T(np.zeros((7, 3))))",
    'NthElement': "P.NthElement()(T([[3., 1., 2.], [5., 9., 7.]]), 1)",
    'NthElement_rev': "P.NthElement(reverse=True)(T([[3., 1., 2.], [5., 9., 7.]]), 0)",
}


def call(name, ms, P):
    """Run the call ``name`` with the framework ``ms`` and its ``ops.operations`` ``P``."""
    def T(value, dtype='float32'):
        return ms.Tensor(np.array(value, dtype=np.dtype(dtype)))
    return eval(CALLS[name], {'P': P, 'ms': ms, 'np': np, 'T': T})  # noqa: S307
