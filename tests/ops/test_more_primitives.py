"""CountNonZero, CheckNumerics, HistogramFixedWidth, ListDiff, CTCLoss, CTCGreedyDecoder, PadV3
ResizeNearestNeighborV2, MaxPool3DWithArgmax, ResizeArea and EditDistance against the values, dtypes and error messages MindSpore 2.10's CPU
build gives for the same inputs (recorded with MindSpore and written here); gradients against
MindSpore's and finite differences. HistogramFixedWidth has no CPU kernel in MindSpore and its
CountNonZero and Dilation2D Primitives fail on CPU: their expectations are the documented
examples and formulas and ``mindspore.ops.count_nonzero``'s recorded values."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import Tensor
from hookgrad import ops
from hookgrad.ops import operations as P
from hookgrad.testing.gradcheck import check_grad

NAMES = ['CountNonZero', 'CheckNumerics', 'HistogramFixedWidth', 'ListDiff', 'CTCLoss',
         'CTCGreedyDecoder', 'PadV3', 'ResizeNearestNeighborV2', 'MaxPool3DWithArgmax',
         'ResizeArea', 'EditDistance', 'Dilation2D']


def _check(t, dtype, values, tol=0.0):
    assert t.dtype == dtype, f"{t.dtype} != {dtype}"
    np.testing.assert_allclose(t.asnumpy(), np.array(values), rtol=tol, atol=tol)


@pytest.mark.parametrize('name', NAMES)
def test_primitives_reach_ops_and_operations(name):
    cls = getattr(P, name)
    assert getattr(ops, name) is cls
    assert issubclass(cls, ops.Primitive)
    assert name in P.__all__


# ----------------------------------------------------------------------------- CountNonZero
def test_count_nonzero_counts_over_dims():
    x = Tensor([[0, 0, 1], [1, 1, 2], [0, 0, 1]], dtype=ms.int64)
    _check(P.CountNonZero(dims=[1])(x), ms.int32, [1, 3, 1])
    y = Tensor(np.array([[[0, 1, 0], [2, 0, 3]]], np.float32))
    _check(P.CountNonZero()(y), ms.int32, 3)
    _check(P.CountNonZero(dims=[1])(y), ms.int32, [[1, 1, 1]])
    _check(P.CountNonZero()(Tensor(np.array([0, 3], np.uint8))), ms.int32, 1)


def test_count_nonzero_errors():
    with pytest.raises(TypeError, match=r"For 'CountNonZero', the type of 'dims' should be one "
                                        r"of '\['int', 'list', 'tuple'\]', but got type 'str'"):
        P.CountNonZero(dims='a')
    with pytest.raises(TypeError, match=r"the type of 'dims\[1\]' should be 'int', but got "
                                        r"type 'str'"):
        P.CountNonZero(dims=[1, 'b'])
    with pytest.raises(TypeError, match="but got type 'float'"):
        P.CountNonZero(dims=1.5)
    with pytest.raises(RuntimeError, match="dim=0 appears multiple times in the list of dims"):
        P.CountNonZero(dims=[0, 0])(Tensor(np.ones((2, 2), np.float32)))


# ----------------------------------------------------------------------------- CheckNumerics
def test_check_numerics_passes_finite_values_and_refuses_nan_and_inf():
    _check(P.CheckNumerics()(Tensor(np.array([1.0, 2.0], np.float32))), ms.float32, [1, 2])
    _check(P.CheckNumerics()(Tensor(np.array([1.0, 2.0], np.float16))), ms.float16, [1, 2])
    with pytest.raises(RuntimeError, match="Tensor had NaN values"):
        P.CheckNumerics()(Tensor(np.array([1.0, np.nan], np.float32)))
    with pytest.raises(RuntimeError, match="Tensor had Inf values"):
        P.CheckNumerics()(Tensor(np.array([1.0, np.inf], np.float32)))
    with pytest.raises(TypeError, match=r"For primitive\[CheckNumerics\], the input argument\[x\] "
                                        r"must be a type of \{Tensor\[Float16\], Tensor\[Float32\]"
                                        r", Tensor\[Float64\]\}, but got Tensor\[Int32\]"):
        P.CheckNumerics()(Tensor(np.array([1, 2], np.int32)))


# ----------------------------------------------------------------------------- HistogramFixedWidth
def test_histogram_fixed_width_documented_example():
    x = Tensor(np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15], np.float32))
    rng = Tensor(np.array([0.0, 5.0], np.float32))
    _check(P.HistogramFixedWidth(5)(x, rng), ms.int32, [2, 1, 1, 0, 2])
    x = Tensor(np.array([0, 1, 2, 3, 4, 9], np.int32))
    _check(P.HistogramFixedWidth(3)(x, Tensor(np.array([0, 9], np.int32))), ms.int32, [3, 2, 1])


def test_histogram_fixed_width_errors():
    with pytest.raises(ValueError, match="For 'HistogramFixedWidth', the 'nbins' must be int "
                                         "and must >= 1, but got '0' with type 'int'"):
        P.HistogramFixedWidth(0)
    with pytest.raises(ValueError, match=r"the 'dtype' must be str and must be in "
                                         r"'\['int32'\]', but got 'int64'"):
        P.HistogramFixedWidth(5, dtype='int64')
    with pytest.raises(ValueError, match="range"):
        P.HistogramFixedWidth(5)(Tensor(np.ones(3, np.float32)),
                                 Tensor(np.array([5.0, 0.0], np.float32)))


# ----------------------------------------------------------------------------- ListDiff
def test_list_diff_values_and_index_dtypes():
    x = Tensor(np.array([1, 2, 3, 4, 5, 6], np.int32))
    y = Tensor(np.array([1, 3, 5], np.int32))
    out, idx = P.ListDiff()(x, y)
    _check(out, ms.int32, [2, 4, 6])
    _check(idx, ms.int32, [1, 3, 5])
    _, idx = P.ListDiff(out_idx=ms.int64)(x, y)
    _check(idx, ms.int64, [1, 3, 5])
    out, idx = P.ListDiff()(Tensor(np.array([1.5, 2.0, 1.5], np.float32)),
                            Tensor(np.array([2.0], np.float32)))
    _check(out, ms.float32, [1.5, 1.5])
    _check(idx, ms.int32, [0, 2])


def test_list_diff_errors():
    y = Tensor(np.array([1, 3, 5], np.int32))
    with pytest.raises(TypeError, match=r"For 'ListDiff', the 'out_idx' should be in : "
                                        r"\[mindspore.int32, mindspore.int64\], but got Float32"):
        P.ListDiff(out_idx=ms.float32)
    with pytest.raises(ValueError, match="For ListDiff, input x, y should be 1D, but get x dims "
                                         "= 2, y dims = 1"):
        P.ListDiff()(Tensor(np.ones((2, 2), np.int32)), y)
    with pytest.raises(TypeError, match=r"For ListDiff, type of 'x' and 'y' should be same. But "
                                        r"get x\[Int32\], y\[Int64\]"):
        P.ListDiff()(y, Tensor(np.array([1], np.int64)))


# ----------------------------------------------------------------------------- CTC
LOGITS = np.array([[[1.7641, 0.4002, 0.9787], [2.2409, 1.8676, -0.9773]],
                   [[0.9501, -0.1514, -0.1032], [0.4106, 0.144, 1.4543]],
                   [[0.761, 0.1217, 0.4439], [0.3337, 1.4941, -0.2052]],
                   [[0.3131, -0.8541, -2.553], [0.6536, 0.8644, -0.7422]]], np.float32)
LABEL_INDICES = Tensor(np.array([[0, 0], [0, 1], [1, 0]], np.int64))
SEQ = Tensor(np.array([4, 3], np.int32))
CTC = {  # labels_values, flags -> MindSpore's loss and gradient
    'plain': ([0, 1, 1], {}, [1.8907924, 2.3542745],
              [[[-0.1298308, 0.1493701, -0.0195393], [0.5785411, -0.4691437, -0.1093974]],
               [[-0.2003046, 0.1392653, 0.0610392], [0.217123, -0.4172146, 0.2000915]],
               [[0.0683533, -0.0757723, 0.007419], [0.2094417, 0.0745413, -0.2839831]],
               [[0.7309099, -0.7143584, -0.0165516], [0.0, 0.0, 0.0]]]),
    'repeated': ([1, 1, 0], {}, [4.5792584, 2.4090583],
                 [[[0.584249, -0.4737674, -0.1104818], [-0.3696477, 0.3983016, -0.0286539]],
                  [[0.5948284, -0.3904796, -0.2043487], [-0.2647984, 0.1663117, 0.0984868]],
                  [[0.4432782, 0.0438416, -0.4871196], [-0.1281827, 0.6683722, -0.5401894]],
                  [[0.7309099, -0.7431288, 0.0122188], [0.0, 0.0, 0.0]]]),
    'collapsed': ([1, 1, 0], {'preprocess_collapse_repeated': True}, [4.2523651, 2.4090583],
                  [[[0.584249, -0.0383618, -0.5458872], [-0.3696477, 0.3983016, -0.0286539]],
                   [[0.5948284, -0.2434155, -0.3514126], [-0.2647984, 0.1663117, 0.0984868]],
                   [[0.4432782, -0.3740776, -0.0692005], [-0.1281827, 0.6683722, -0.5401894]],
                   [[0.7309099, -0.571692, -0.1592175], [0.0, 0.0, 0.0]]]),
}


@pytest.mark.parametrize('case', sorted(CTC))
@pytest.mark.parametrize('dtype', ['float32', 'float64'])
def test_ctc_loss_matches_mindspore(case, dtype):
    values, flags, loss, grad = CTC[case]
    x = Tensor(LOGITS.astype(dtype))
    got_loss, got_grad = P.CTCLoss(**flags)(x, LABEL_INDICES, Tensor(np.array(values, np.int32)),
                                            SEQ)
    want = ms.float32 if dtype == 'float32' else ms.float64
    _check(got_loss, want, loss, 2e-6)
    _check(got_grad, want, grad, 2e-6)


def test_ctc_loss_gradient_is_mindspore_bprop_and_finite_differences():
    labels = Tensor(np.array([0, 1, 1], np.int32))
    weights = Tensor(np.array([1.0, 2.0], np.float32))
    g = ms.grad(lambda a: (P.CTCLoss()(a, LABEL_INDICES, labels, SEQ)[0] * weights).sum())(
        Tensor(LOGITS))
    expected = np.array(CTC['plain'][3]) * np.array([1.0, 2.0])[None, :, None]
    np.testing.assert_allclose(g.asnumpy(), expected, atol=2e-6)
    check_grad(lambda a: P.CTCLoss()(a, LABEL_INDICES, labels, SEQ)[0],
               LOGITS.astype(np.float64))


def test_ctc_loss_errors():
    labels = Tensor(np.array([0, 1, 1], np.int32))
    with pytest.raises(RuntimeError, match="For 'CTCLoss, the 'max_time'\\(the 1st dimension "
                                           "value of 'probs'\\) must be greater than or equal to "
                                           "'sequence_length', but got 'max_time': 4 and "
                                           "'sequence_length': 5"):
        P.CTCLoss()(Tensor(LOGITS), LABEL_INDICES, labels, Tensor(np.array([5, 3], np.int32)))
    with pytest.raises(RuntimeError, match=r"input time\(sequence length\) must be greater than "
                                           r"output size\(label length\), but got sequence "
                                           r"length: 2 and label length: 3"):
        P.CTCLoss()(Tensor(LOGITS), Tensor(np.array([[0, 0], [0, 1], [0, 2], [1, 0]], np.int64)),
                    Tensor(np.array([0, 1, 0, 1], np.int32)), Tensor(np.array([2, 3], np.int32)))
    with pytest.raises(ValueError, match=r"For primitive\[CTCLoss\], the inputs rank must be "
                                         r"equal to 3, but got 2"):
        P.CTCLoss()(Tensor(LOGITS[0]), LABEL_INDICES, labels, SEQ)
    with pytest.raises(TypeError, match=r"the input argument\[inputs\] must be a type of "
                                        r"\{Tensor\[Float16\], Tensor\[Float32\], "
                                        r"Tensor\[Float64\]\}, but got Tensor\[Int32\]"):
        P.CTCLoss()(Tensor(LOGITS.astype(np.int32)), LABEL_INDICES, labels, SEQ)
    with pytest.raises(TypeError, match="For 'CTCLoss', the type of 'ctc_merge_repeated' should "
                                        "be 'bool', but got type 'int'"):
        P.CTCLoss(ctc_merge_repeated=1)
    with pytest.raises(NotImplementedError, match="ctc_merge_repeated=False"):
        P.CTCLoss(ctc_merge_repeated=False)(Tensor(LOGITS), LABEL_INDICES, labels, SEQ)


DECODER_IN = np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]], [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]],
                       [[0.7, 0.1, 0.1], [0.1, 0.2, 0.9]], [[0.7, 0.1, 0.1], [0.1, 0.8, 0.5]]],
                      np.float32)


@pytest.mark.parametrize('merge, indices, values, shape', [
    (True, [[0, 0], [0, 1], [0, 2], [1, 0]], [0, 1, 0, 0], [2, 3]),
    (False, [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]], [0, 1, 0, 0, 0, 0], [2, 4]),
])
@pytest.mark.parametrize('dtype', ['float32', 'float64'])
def test_ctc_greedy_decoder_matches_mindspore(merge, indices, values, shape, dtype):
    out = P.CTCGreedyDecoder(merge_repeated=merge)(Tensor(DECODER_IN.astype(dtype)),
                                                    Tensor(np.array([4, 2], np.int32)))
    _check(out[0], ms.int64, indices)
    _check(out[1], ms.int64, values)
    _check(out[2], ms.int64, shape)
    _check(out[3], ms.float32 if dtype == 'float32' else ms.float64, [[-2.6], [-1.3]], 1e-6)


def test_ctc_greedy_decoder_on_the_loss_inputs():
    out = P.CTCGreedyDecoder()(Tensor(LOGITS), SEQ)
    _check(out[0], ms.int64, [[0, 0], [1, 0], [1, 1]])
    _check(out[1], ms.int64, [0, 0, 1])
    _check(out[2], ms.int64, [2, 2])
    _check(out[3], ms.float32, [[-3.7883], [-5.1893]], 1e-5)


def test_ctc_greedy_decoder_errors():
    x = Tensor(DECODER_IN)
    with pytest.raises(RuntimeError, match=r"For 'CTCGreedyDecoder', sequence_length\[0\] 5 "
                                           r"should be less than 4"):
        P.CTCGreedyDecoder()(x, Tensor(np.array([5, 2], np.int32)))
    with pytest.raises(ValueError, match="For 'CTCGreedyDecoder', inputs's dim must be 3, but "
                                         "got: 2"):
        P.CTCGreedyDecoder()(Tensor(DECODER_IN[0]), Tensor(np.array([4, 2], np.int32)))
    with pytest.raises(ValueError, match="inputs batch_size must be the same with "
                                         "sequence_length batch_size, but now inputs batch_size: "
                                         "2 and sequence_length batch_size: 3"):
        P.CTCGreedyDecoder()(x, Tensor(np.array([4, 2, 1], np.int32)))
    with pytest.raises(TypeError, match="For 'CTCGreedyDecoder', the type of 'merge_repeated' "
                                        "should be 'bool', but got type 'int'"):
        P.CTCGreedyDecoder(merge_repeated=1)


# ----------------------------------------------------------------------------- PadV3
X3 = np.arange(1, 7, dtype=np.float32).reshape(1, 2, 3)
X4 = X3.reshape(1, 1, 2, 3)


def _pads(*amounts):
    return Tensor(np.array(amounts, np.int64))


@pytest.mark.parametrize('mode, x, pads, value, flags, want', [
    ('constant', X3, (1, 2), 9.0, {}, [[[9, 1, 2, 3, 9, 9], [9, 4, 5, 6, 9, 9]]]),
    ('constant', X3, (1, 0, 0, 1), 0.0, {}, [[[0, 1, 2, 3], [0, 4, 5, 6], [0, 0, 0, 0]]]),
    ('constant', X3, (-1, 1), 0.0, {}, [[[2, 3, 0], [5, 6, 0]]]),
    ('constant', X4, (1, 2, 1, 0), 0.0, {'paddings_contiguous': False},
     [[[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 1, 2, 3, 0], [0, 4, 5, 6, 0]]]]),
    ('reflect', X3, (2, 1), None, {}, [[[3, 2, 1, 2, 3, 2], [6, 5, 4, 5, 6, 5]]]),
    ('circular', X3, (1, 2), None, {}, [[[3, 1, 2, 3, 1, 2], [6, 4, 5, 6, 4, 5]]]),
    ('edge', X4, (1, 2, 1, 0), None, {},
     [[[[1, 1, 2, 3, 3, 3], [1, 1, 2, 3, 3, 3], [4, 4, 5, 6, 6, 6]]]]),
    ('edge', X4, (1, 2, 1, 0), None, {'paddings_contiguous': False},
     [[[[1, 1, 2, 3, 3], [1, 1, 2, 3, 3], [1, 1, 2, 3, 3], [4, 4, 5, 6, 6]]]]),
])
def test_pad_v3_matches_mindspore(mode, x, pads, value, flags, want):
    args = (Tensor(x), _pads(*pads))
    if value is not None:
        args += (Tensor(value, ms.float32),)
    _check(P.PadV3(mode, **flags)(*args), ms.float32, want)


def test_pad_v3_int_input_and_int32_paddings():
    out = P.PadV3()(Tensor(np.array([[1, 2]], np.int32)), _pads(1, 1), Tensor(7, ms.int32))
    _check(out, ms.int32, [[7, 1, 2, 7]])
    out = P.PadV3()(Tensor(X3), Tensor(np.array([1, 1], np.int32)), Tensor(0.0, ms.float32))
    _check(out, ms.float32, [[[0, 1, 2, 3, 0], [0, 4, 5, 6, 0]]])


@pytest.mark.parametrize('mode, x, pads, weights, want', [
    ('reflect', X3, (2, 1), np.arange(12, dtype=np.float32).reshape(1, 2, 6),
     [[[2, 9, 4], [8, 27, 16]]]),
    ('constant', X3, (1, -1), np.arange(6, dtype=np.float32).reshape(1, 2, 3),
     [[[1, 2, 0], [4, 5, 0]]]),
    ('edge', X4, (1, 2, 1, 0), np.arange(18, dtype=np.float32).reshape(1, 1, 3, 6),
     [[[[14, 10, 42], [25, 14, 48]]]]),
])
def test_pad_v3_gradient_matches_mindspore(mode, x, pads, weights, want):
    prim = P.PadV3(mode)
    extra = (Tensor(0.0, ms.float32),) if mode == 'constant' else ()
    g = ms.grad(lambda a: (prim(a, _pads(*pads), *extra) * Tensor(weights)).sum())(Tensor(x))
    _check(g, ms.float32, want)


def test_pad_v3_gradient_against_finite_differences():
    check_grad(lambda a: P.PadV3('reflect')(a, _pads(2, 1, 1, 1)),
               np.random.default_rng(0).normal(size=(1, 2, 3, 4)))


def test_pad_v3_errors():
    x = Tensor(X3)
    zero = Tensor(0.0, ms.float32)
    with pytest.raises(ValueError, match=r"For 'PadV3', the 'mode' must be str and must be in "
                                         r"'\['constant', 'reflect', 'edge', 'circular'\]', but "
                                         r"got 'foo'"):
        P.PadV3('foo')
    with pytest.raises(TypeError, match="For 'PadV3', the 'paddings_contiguous' must be a bool, "
                                        "but got int"):
        P.PadV3(paddings_contiguous=1)
    with pytest.raises(ValueError, match="For 'PadV3' constant mode, paddings length must be "
                                         "divisible by 2"):
        P.PadV3()(x, _pads(1, 2, 3), zero)
    with pytest.raises(ValueError, match=r"For 'PadV3' reflect mode, Padding size must be less "
                                         r"than the corresponding input dimension, but got: "
                                         r"padding \(3,0\) at dimension 2 of input:\[3\]"):
        P.PadV3('reflect')(x, _pads(3, 0))
    with pytest.raises(ValueError, match=r"For primitive\[PadV3\], the input number must be "
                                         r"equal to 3, but got 2"):
        P.PadV3()(x, _pads(1, 1))
    with pytest.raises(ValueError, match=r"the input\[constant_value\] is only valid when the "
                                         r"attribute\[mode\] is `constant`. DO NOT set it in "
                                         r"\[reflect\] mode"):
        P.PadV3('reflect')(x, _pads(1, 1), zero)
    with pytest.raises(ValueError, match="the paddings_length must be less than or equal to 6, "
                                         "but got 8"):
        P.PadV3()(x, _pads(1, 1, 1, 1, 1, 1, 1, 1), zero)
    with pytest.raises(ValueError, match="the input dims when padding's size equal 4 must be "
                                         "equal to 4, but got 3"):
        P.PadV3('edge')(x, _pads(1, 2, 1, 0))
    with pytest.raises(ValueError, match="the input dims for edge, reflect or circular mode must "
                                         "be greater than or equal to 3, but got 2"):
        P.PadV3('edge')(Tensor(X3[0]), _pads(1, 2))
    with pytest.raises(TypeError, match="constant_value"):
        P.PadV3()(x, _pads(1, 1), Tensor(1, ms.int32))


# ----------------------------------------------------------------------------- ResizeNearestNeighborV2
IMAGE = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)


def _size(*hw):
    return Tensor(np.array(hw, np.int32))


@pytest.mark.parametrize('flags, size, want', [
    ({}, (5, 3), [[1, 2, 3], [1, 2, 3], [5, 6, 7], [5, 6, 7], [9, 10, 11]]),
    ({'align_corners': True}, (5, 3), [[1, 3, 4], [5, 7, 8], [5, 7, 8], [9, 11, 12],
                                       [9, 11, 12]]),
    ({'half_pixel_centers': True}, (5, 3), [[1, 3, 4], [1, 3, 4], [5, 7, 8], [9, 11, 12],
                                            [9, 11, 12]]),
    ({'half_pixel_centers': True}, (6, 8),
     [[1, 1, 2, 2, 3, 3, 4, 4], [1, 1, 2, 2, 3, 3, 4, 4], [5, 5, 6, 6, 7, 7, 8, 8],
      [5, 5, 6, 6, 7, 7, 8, 8], [9, 9, 10, 10, 11, 11, 12, 12],
      [9, 9, 10, 10, 11, 11, 12, 12]]),
])
def test_resize_nearest_neighbor_v2_matches_mindspore(flags, size, want):
    out = P.ResizeNearestNeighborV2(**flags)(Tensor(IMAGE), _size(*size))
    _check(out, ms.float32, [[want]])


def test_resize_nearest_neighbor_v2_keeps_integer_dtypes_and_int64_sizes():
    out = P.ResizeNearestNeighborV2()(Tensor(np.arange(4, dtype=np.uint8).reshape(1, 1, 2, 2)),
                                      _size(3, 3))
    _check(out, ms.uint8, [[[[0, 0, 1], [0, 0, 1], [2, 2, 3]]]])
    out = P.ResizeNearestNeighborV2()(Tensor(IMAGE), Tensor(np.array([5, 3], np.int64)))
    assert out.shape == (1, 1, 5, 3)


@pytest.mark.parametrize('flags, size, want', [
    ({}, (5, 3), [[3, 5, 7, 0], [15, 17, 19, 0], [12, 13, 14, 0]]),
    ({'half_pixel_centers': True}, (6, 8), [[18, 26, 34, 42], [82, 90, 98, 106],
                                            [146, 154, 162, 170]]),
])
def test_resize_nearest_neighbor_v2_gradient_matches_mindspore(flags, size, want):
    prim = P.ResizeNearestNeighborV2(**flags)
    w = Tensor(np.arange(size[0] * size[1], dtype=np.float32).reshape(1, 1, *size))
    g = ms.grad(lambda a: (prim(a, _size(*size)) * w).sum())(Tensor(IMAGE))
    _check(g, ms.float32, [[want]])
    check_grad(lambda a: prim(a, _size(*size)), IMAGE.astype(np.float64))


def test_resize_nearest_neighbor_v2_errors():
    with pytest.raises(ValueError, match="the half_pixel_centers must be false when "
                                         "align_corners is true"):
        P.ResizeNearestNeighborV2(True, True)
    with pytest.raises(ValueError, match=r"For primitive\[ResizeNearestNeighborV2\], the image "
                                         r"rank must be equal to 4, but got 3"):
        P.ResizeNearestNeighborV2()(Tensor(IMAGE[0]), _size(5, 3))
    with pytest.raises(ValueError, match="the number of size must be equal to 2, but got 3"):
        P.ResizeNearestNeighborV2()(Tensor(IMAGE), _size(5, 3, 1))


# ----------------------------------------------------------------------------- MaxPool3DWithArgmax
VOLUME = np.arange(1, 33, dtype=np.float32).reshape(1, 1, 2, 4, 4)[..., ::-1].copy()


@pytest.mark.parametrize('args, kwargs, values, argmax', [
    ((2, 2, 0), {}, [[[24, 22], [32, 30]]], [[[20, 22], [28, 30]]]),
    (((1, 2, 2), (1, 1, 2), (0, 1, 1)), {},
     [[[4, 3, 1], [8, 7, 5], [12, 11, 9], [16, 15, 13], [16, 15, 13]],
      [[20, 19, 17], [24, 23, 21], [28, 27, 25], [32, 31, 29], [32, 31, 29]]],
     [[[0, 1, 3], [4, 5, 7], [8, 9, 11], [12, 13, 15], [12, 13, 15]],
      [[16, 17, 19], [20, 21, 23], [24, 25, 27], [28, 29, 31], [28, 29, 31]]]),
    (((1, 3, 3), 1, 0), {'ceil_mode': True, 'argmax_type': ms.int32},
     [[[12, 11], [16, 15]], [[28, 27], [32, 31]]], [[[8, 9], [12, 13]], [[24, 25], [28, 29]]]),
    (((1, 2, 2), (1, 2, 2), 0), {'dilation': (1, 2, 2)}, [[[12]], [[28]]], [[[8]], [[24]]]),
    (((1, 3, 3), (1, 2, 2), 0), {'ceil_mode': True},
     [[[12, 10], [16, 14]], [[28, 26], [32, 30]]], [[[8, 10], [12, 14]], [[24, 26], [28, 30]]]),
])
def test_max_pool3d_with_argmax_matches_mindspore(args, kwargs, values, argmax):
    y, at = P.MaxPool3DWithArgmax(*args, **kwargs)(Tensor(VOLUME))
    _check(y, ms.float32, [[values]])
    _check(at, kwargs.get('argmax_type', ms.int64), [[argmax]])


def test_max_pool3d_with_argmax_dtypes():
    y, at = P.MaxPool3DWithArgmax(2, 2, 0)(Tensor(VOLUME.astype(np.float64)))
    _check(y, ms.float64, [[[[[24, 22], [32, 30]]]]])
    y, at = P.MaxPool3DWithArgmax(2, 2, 0)(Tensor(VOLUME.astype(np.int32)))
    _check(y, ms.int32, [[[[[24, 22], [32, 30]]]]])
    _check(at, ms.int64, [[[[[20, 22], [28, 30]]]]])


def test_max_pool3d_with_argmax_gradient_matches_mindspore():
    prim = P.MaxPool3DWithArgmax((1, 2, 2), (1, 1, 2), (0, 1, 1))
    g = ms.grad(lambda a: (prim(a)[0] * 2).sum())(Tensor(VOLUME))
    plane = [[2, 2, 0, 2], [2, 2, 0, 2], [2, 2, 0, 2], [4, 4, 0, 4]]
    _check(g, ms.float32, [[[plane, plane]]])
    check_grad(lambda a: prim(a)[0], np.random.default_rng(1).normal(size=(1, 2, 2, 4, 4)))


def test_max_pool3d_with_argmax_errors():
    with pytest.raises(ValueError, match=r"For 'MaxPool3DWithArgmax', the 'data_format' must be "
                                         r"str and must be in '\['NCDHW'\]', but got 'NDHWC'"):
        P.MaxPool3DWithArgmax(2, 2, 0, data_format='NDHWC')
    with pytest.raises(TypeError, match=r"the 'argmax_type' should be one of \[mindspore.int32, "
                                        r"mindspore.int64\], but got 'mindspore.float32'"):
        P.MaxPool3DWithArgmax(2, 2, 0, argmax_type=ms.float32)
    with pytest.raises(ValueError, match=r"For primitive\[MaxPool3DWithArgmax\], the input x "
                                         r"rank must be equal to 5, but got 4"):
        P.MaxPool3DWithArgmax(2, 2, 0)(Tensor(VOLUME[0]))


# ----------------------------------------------------------------------------- ResizeArea
NHWC = np.arange(1, 25, dtype=np.float32).reshape(1, 4, 3, 2)
AREA_DOWN = [[[[3.166667, 4.166667], [5.833334, 6.833334]],
              [[10.666667, 11.666667], [13.333334, 14.333334]],
              [[18.166666, 19.166666], [20.833332, 21.833332]]]]


@pytest.mark.parametrize('dtype', ['float32', 'float64', 'float16', 'int32'])
def test_resize_area_matches_mindspore_as_float32(dtype):
    _check(P.ResizeArea()(Tensor(NHWC.astype(dtype)), _size(3, 2)), ms.float32, AREA_DOWN, 1e-6)


def test_resize_area_upsampling_and_aligned_corners():
    up = [[[1.0, 2.0], [2.333333, 3.333333], [3.666667, 4.666666], [5.0, 6.0]],
          [[5.5, 6.5], [6.833334, 7.833334], [8.166667, 9.166666], [9.5, 10.5]],
          [[10.000001, 11.0], [11.333335, 12.333335], [12.666669, 13.666668],
           [14.000002, 15.000003]],
          [[14.499999, 15.5], [15.833333, 16.833332], [17.166664, 18.166666],
           [18.499998, 19.499998]],
          [[18.999998, 19.999998], [20.33333, 21.333332], [21.666664, 22.666666],
           [22.999998, 23.999998]]]
    _check(P.ResizeArea()(Tensor(NHWC), _size(5, 4)), ms.float32, [up], 1e-6)
    aligned = [[[[4, 5], [7, 8]], [[12, 13], [15, 16]], [[20, 21], [23, 24]]]]
    _check(P.ResizeArea(align_corners=True)(Tensor(NHWC), _size(3, 2)), ms.float32, aligned,
           1e-6)


def test_resize_area_errors():
    with pytest.raises(ValueError, match=r"For primitive\[ResizeArea\], the images dimension "
                                         r"must be equal to 4, but got 3"):
        P.ResizeArea()(Tensor(NHWC[0]), _size(3, 2))
    with pytest.raises(ValueError, match="the input1 num must be equal to 2, but got 3"):
        P.ResizeArea()(Tensor(NHWC), _size(3, 2, 1))
    with pytest.raises(ValueError, match="For 'ResizeArea', 'size' should only contain positive "
                                         "number"):
        P.ResizeArea()(Tensor(NHWC), _size(0, 2))
    with pytest.raises(TypeError, match=r"the input argument\[size\] must be a type of "
                                        r"\{Tensor\[Int32\]\}, but got Tensor\[Int64\]"):
        P.ResizeArea()(Tensor(NHWC), Tensor(np.array([3, 2], np.int64)))
    with pytest.raises(TypeError, match="For 'ResizeArea', the type of 'align_corners' should be "
                                        "'bool', but got type 'int'"):
        P.ResizeArea(align_corners=1)


# ----------------------------------------------------------------------------- EditDistance
def _ints(values):
    return Tensor(np.array(values, np.int64))


HYP = (_ints([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [1, 1, 0], [1, 1, 1]]),
       [1, 2, 3, 1, 7, 8], _ints([2, 2, 3]))
TRUTH = (_ints([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 1, 0], [1, 1, 1],
                [1, 1, 2]]), [1, 3, 2, 1, 5, 7, 9, 8], _ints([2, 2, 3]))


def _edit(prim, dtype=np.float32, hyp_shape=None, truth=TRUTH):
    return prim(HYP[0], Tensor(np.array(HYP[1], dtype)), HYP[2] if hyp_shape is None else
                hyp_shape, truth[0], Tensor(np.array(truth[1], dtype)), truth[2])


def test_edit_distance_matches_mindspore():
    _check(_edit(P.EditDistance()), ms.float32, [[0.5, 0.5], [1.0, 0.3333334]], 1e-6)
    _check(_edit(P.EditDistance(), np.int32), ms.float32, [[0.5, 0.5], [1.0, 0.3333334]], 1e-6)
    _check(_edit(P.EditDistance(normalize=False)), ms.float32, [[1, 1], [1, 1]])
    _check(_edit(P.EditDistance(), hyp_shape=_ints([2, 3, 3])), ms.float32,
           [[0.5, 0.5, 0.0], [1.0, 0.3333334, 0.0]], 1e-6)
    short = (_ints([[0, 0, 0], [0, 1, 0], [1, 1, 0]]), [1, 2, 7], _ints([2, 2, 3]))
    _check(_edit(P.EditDistance(), truth=short), ms.float32, [[2, 1], [0, 1]])


def test_edit_distance_errors():
    with pytest.raises(TypeError, match="For 'EditDistance', the type of 'normalize' should be "
                                        "'bool', but got type 'int'"):
        P.EditDistance(normalize=1)
    with pytest.raises(TypeError, match=r"Dtype of hypothesis_values and truth_values must be the "
                                        r"same, but got hypothesis_values: Tensor\[Float32\], "
                                        r"truth_values: Tensor\[Int32\]"):
        P.EditDistance()(HYP[0], Tensor(np.array(HYP[1], np.float32)), HYP[2], TRUTH[0],
                         Tensor(np.array(TRUTH[1], np.int32)), TRUTH[2])
    with pytest.raises(ValueError, match="hypothesis_shape should be equal to hypothesis_indices "
                                         "shape\\[1\\] but got hypothesis_shape: 2 and "
                                         "hypothesis_indices shape\\[1\\]: 3"):
        _edit(P.EditDistance(), hyp_shape=_ints([2, 2]))
    one = Tensor(np.array([[0, 0, 0]], np.int32))
    with pytest.raises(TypeError, match=r"the input argument\[hypothesis_indices\] must be a "
                                        r"type of \{Tensor\[Int64\]\}, but got Tensor\[Int32\]"):
        P.EditDistance()(one, Tensor(np.array([1.0], np.float32)), Tensor(np.ones(3, np.int32)),
                         one, Tensor(np.array([1.0], np.float32)), Tensor(np.ones(3, np.int32)))


# ----------------------------------------------------------------------------- Dilation2D
def _dilation_reference(x, f, stride, dilation, same):
    """The documented formula, element by element; 'same' padding filled with 0."""
    (s0, s1), (d0, d1) = stride, dilation
    kh, kw = f.shape[1:]
    spans = ((kh - 1) * d0 + 1, (kw - 1) * d1 + 1)
    if same:
        outs = [-(-n // s) for n, s in zip(x.shape[2:], stride)]
        totals = [max((o - 1) * s + k - n, 0) for o, s, k, n in
                  zip(outs, stride, spans, x.shape[2:])]
        x = np.pad(x, ((0, 0), (0, 0)) + tuple((t // 2, t - t // 2) for t in totals))
    else:
        outs = [-(-(n - k + 1) // s) for n, s, k in zip(x.shape[2:], stride, spans)]
    y = np.empty(x.shape[:2] + tuple(outs), x.dtype)
    for b, c, h, w in np.ndindex(*y.shape):
        y[b, c, h, w] = max(x[b, c, s0 * h + d0 * m, s1 * w + d1 * n] + f[c, m, n]
                            for m in range(kh) for n in range(kw))
    return y


DIL_X = np.random.default_rng(3).normal(size=(2, 3, 6, 7))
DIL_F = np.random.default_rng(4).normal(size=(3, 2, 3))


@pytest.mark.parametrize('stride, dilation, pad_mode', [
    (1, 1, 'VALID'), ((1, 1, 2, 2), (1, 1, 1, 1), 'SAME'), ((2, 1), (1, 2), 'same'),
    (1, (2, 1), 'valid'), (3, 1, 'SAME')])
def test_dilation2d_follows_the_documented_formula(stride, dilation, pad_mode):
    prim = P.Dilation2D(stride, dilation, pad_mode)
    out = prim(Tensor(DIL_X), Tensor(DIL_F))
    want = _dilation_reference(DIL_X, DIL_F, prim.stride[2:], prim.dilation[2:],
                               pad_mode.upper() == 'SAME')
    _check(out, ms.float64, want, 1e-12)
    check_grad(lambda a, b: prim(a, b), DIL_X, DIL_F)


def test_dilation2d_documented_example_and_integers():
    out = P.Dilation2D((1, 1, 2, 2), (1, 1, 2, 2), 'VALID')(Tensor(np.ones((1, 3, 5, 5),
                                                                           np.float16)),
                                                            Tensor(np.ones((3, 2, 2), np.float16)))
    _check(out, ms.float16, np.full((1, 3, 2, 2), 2.0))
    x = np.array([[[[1, 5, 2, 0], [3, 1, 4, 2], [0, 2, 6, 1], [2, 3, 1, 7]]]], np.int32)
    f = np.array([[[1, 0], [2, 0]]], np.int32)
    _check(P.Dilation2D(1, 1, 'SAME')(Tensor(x), Tensor(f)), ms.int32,
           _dilation_reference(x, f, (1, 1), (1, 1), True))


def test_dilation2d_gradient_goes_to_the_maximum():
    x = Tensor(np.array([[[[1, 5, 2, 0], [3, 1, 4, 2], [0, 2, 6, 1], [2, 3, 1, 7]]]],
                        np.float32))
    f = Tensor(np.array([[[0.5, 0.1], [0.2, 0.0]]], np.float32))
    gx, gf = ms.grad(lambda a, b: P.Dilation2D(1, 1, 'VALID')(a, b).sum(),
                     grad_position=(0, 1))(x, f)
    _check(gx, ms.float32, [[[[0, 2, 0, 0], [1, 0, 1, 0], [0, 0, 3, 0], [0, 1, 0, 1]]]])
    _check(gf, ms.float32, [[[2, 2], [2, 3]]])


def test_dilation2d_errors():
    with pytest.raises(ValueError, match="For 'Dilation2D', NHWC format is not supported at "
                                         "present"):
        P.Dilation2D(1, 1, 'VALID', 'NHWC')
    with pytest.raises(ValueError, match=r"For 'Dilation2D', the 'pad_mode' must be str and must "
                                         r"be in '\['VALID', 'SAME', 'valid', 'same'\]', but got "
                                         r"'foo'"):
        P.Dilation2D(1, 1, 'foo')
    with pytest.raises(ValueError, match="attr 'stride' should be an positive int number or a "
                                         "tuple of two or four positive int numbers"):
        P.Dilation2D((1, 2, 3), 1)
    with pytest.raises(ValueError, match="stride should be in the range of \\[1, 255\\]"):
        P.Dilation2D(256, 1)
