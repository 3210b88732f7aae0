"""MindSpore's detection Primitives (box encoding and decoding, IOU, validity, NMS): values
from MindSpore 2.10 recorded as literals, gradients and constructor errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.kernels import backend
from hookgrad.ops import operations as P
from hookgrad.testing import check_grad
from hookgrad.testing.cases import device_named
from tests.ops.rows import error_test

ANCHORS = np.float32([[2, 2, 2, 3], [2, 2, 2, 3], [0, 0, 4, 4]])
TRUTH = np.float32([[1, 2, 1, 4], [1, 2, 1, 4], [1, 1, 5, 6]])
ANCHORS2 = np.float32([[4, 1, 2, 1], [2, 2, 2, 3], [0, 0, 4, 4]])
DELTAS = np.float32([[1, 1, 1, 1], [1, 1, 1, 1], [0.2, -0.1, 0.5, -3.0]])
A = np.float32([[0, 0, 4, 4], [1, 1, 3, 5], [2, 2, 6, 6]])
B = np.float32([[0, 0, 2, 2], [3, 3, 5, 6]])
SCORED = np.float32([[0, 1, 2, 3, 0.8], [0.5, 1.5, 2.5, 3.5, 0.9], [10, 10, 12, 12, 0.7],
                     [0, 1, 2, 3, 0.95]])
SORTED = [[0, 1, 2, 3, 0.95], [0.5, 1.5, 2.5, 3.5, 0.9], [0, 1, 2, 3, 0.8],
          [10, 10, 12, 12, 0.7]]


def T(a):
    return ms.Tensor(np.asarray(a))


# name, primitive factory, inputs, expected outputs: all from MindSpore 2.10 (CPU)
MINDSPORE = [
    ('BoundingBoxEncode', lambda: P.BoundingBoxEncode(), (ANCHORS, TRUTH),
     [[-1.0, 0.25, 0.0, 0.405465], [-1.0, 0.25, 0.0, 0.405465], [0.2, 0.3, 0.0, 0.182322]]),
    ('BoundingBoxEncode-means', lambda: P.BoundingBoxEncode((0.1, 0.0, 0.0, 0.2),
                                                            (0.1, 0.1, 0.2, 0.2)),
     (ANCHORS, TRUTH),
     [[-11.0, 2.5, 0.0, 1.027325], [-11.0, 2.5, 0.0, 1.027325], [1.0, 3.0, 0.0, -0.088392]]),
    ('BoundingBoxDecode', lambda: P.BoundingBoxDecode((768, 1280)), (ANCHORS2, DELTAS),
     [[3.859141, 1.140859, 0.140859, 2.859141], [2.140859, 2.281718, 3.859141, 6.718282],
      [0.0, 1.875532, 6.621804, 1.124468]]),
    ('BoundingBoxDecode-clip', lambda: P.BoundingBoxDecode(
        (3, 3), (0.1, 0.0, 0.0, 0.2), (0.1, 0.1, 0.2, 0.2), 0.5), (ANCHORS2, DELTAS),
     [[3.0, 0.854088, 1.689299, 1.345912], [2.089299, 1.708175, 2.310701, 3.0],
      [0.337072, 0.7742, 3.0, 3.0]]),
    ('IOU', lambda: P.IOU(), (A, B), [[0.36, 0.2, 0.030303], [0.121212, 0.125, 0.48]]),
    ('IOU-iof', lambda: P.IOU('iof'), (A, B), [[1.0, 0.444444, 0.111111],
                                              [0.333333, 0.25, 1.0]]),
    ('CheckValid', lambda: P.CheckValid(),
     (np.float32([[20, 20, 100, 100], [-1, 10, 30, 50], [10, 10, 310, 80], [0, 0, 299, 199]]),
      np.float32([200, 300, 1])), [True, False, False, True]),
    ('CheckValid-ratio', lambda: P.CheckValid(),
     (np.float32([[0, 0, 600, 400], [0, 0, 599, 399], [0, 0, 598, 398]]),
      np.float32([200, 300, 2])), [False, True, True]),
    ('NMSWithMask', lambda: P.NMSWithMask(0.1), (SCORED,),
     (SORTED, [0, 1, 2, 3], [True, False, False, True])),
    ('NMSWithMask-0.5', lambda: P.NMSWithMask(0.5), (SCORED,),
     (SORTED, [0, 1, 2, 3], [True, True, False, True])),
]


@pytest.mark.parametrize('device', ['CPU', 'GPU'])
@pytest.mark.parametrize('make,args,want', [pytest.param(m, a, w, id=n)
                                             for n, m, a, w in MINDSPORE])
def test_primitive_values_match_mindspore(make, args, want, device):
    with backend.default_device(device_named(device)):
        got = make()(*[T(a) for a in args])
    got = list(got) if isinstance(got, tuple) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), np.asarray(w, g.asnumpy().dtype), rtol=1e-5,
                                   atol=1e-6)


def test_output_dtypes_follow_mindspore():
    boxes, idx, mask = P.NMSWithMask()(T(SCORED))
    assert (boxes.dtype, idx.dtype, mask.dtype) == (ms.float32, ms.int32, ms.bool_)
    assert P.CheckValid()(T(A), T(np.float32([10, 10, 1]))).dtype == ms.bool_


def test_decode_inverts_encode():
    rng = np.random.default_rng(0)
    anchors = np.concatenate([rng.uniform(0, 5, (6, 2)), rng.uniform(6, 10, (6, 2))], 1)
    truth = np.concatenate([rng.uniform(0, 5, (6, 2)), rng.uniform(6, 10, (6, 2))], 1)
    means, stds = (0.1, 0.0, -0.1, 0.2), (0.1, 0.1, 0.2, 0.2)
    deltas = P.BoundingBoxEncode(means, stds)(T(anchors), T(truth))
    back = P.BoundingBoxDecode((100, 100), means, stds, 1e-3)(T(anchors), deltas)
    np.testing.assert_allclose(back.asnumpy(), truth, rtol=1e-10)


RNG = np.random.default_rng(7)
GRADS = [
    ('BoundingBoxEncode', lambda a, g: P.BoundingBoxEncode()(a, g),
     (np.array([[0.0, 0.5, 3.0, 4.0], [1.0, 1.0, 2.0, 5.0]]),
      np.array([[0.5, 0.0, 4.0, 3.5], [2.0, 1.5, 4.0, 4.0]]))),
    ('BoundingBoxDecode', lambda d: P.BoundingBoxDecode((50, 50))(T(A.astype(np.float64)), d),
     (RNG.uniform(-0.5, 0.5, (3, 4)),)),
    ('IOU', lambda a, b: P.IOU()(a, b), (np.array([[0.0, 0.0, 4.0, 4.0], [1.0, 1.5, 3.0, 5.0]]),
                                        np.array([[0.5, 0.3, 2.0, 2.2]]))),
]


@pytest.mark.parametrize('fn,arrays', [pytest.param(f, a, id=n) for n, f, a in GRADS])
def test_gradients_match_finite_differences(fn, arrays):
    check_grad(fn, *arrays)


ERRORS = [
    (lambda: P.IOU('x'), KeyError, r"ops\.IOU: mode must be 'iou' or 'iof', got 'x'"),
    (lambda: P.NMSWithMask(1), TypeError,
     r"ops\.NMSWithMask: iou_threshold must be a float, got 1"),
    (lambda: P.BoundingBoxEncode(means=(0.0, 0.0, 0.0)), TypeError,
     r"ops\.BoundingBoxEncode: means must be a tuple of 4 floats, got \(0\.0, 0\.0, 0\.0\)"),
    (lambda: P.BoundingBoxDecode((3, 3), wh_ratio_clip=1), TypeError,
     r"ops\.BoundingBoxDecode: wh_ratio_clip must be a float, got 1"),
    (lambda: P.BoundingBoxDecode(3), ValueError,
     r"ops\.BoundingBoxDecode: max_shape must be a \(height, width\) pair, got 3"),
    (lambda: P.BoundingBoxEncode()(T(A), T(B)), ValueError,
     r"ops\.BoundingBoxEncode: anchor_box and groundtruth_box must have one shape"),
    (lambda: P.NMSWithMask()(T(A)), ValueError,
     r"ops\.NMSWithMask: bboxes must have shape \(N, 5\), got \(3, 4\)"),
    (lambda: P.CheckValid()(T(A), T(np.float32([1, 2]))), ValueError,
     r"ops\.CheckValid: img_metas must be \(height, width, ratio\), got shape \(2,\)"),
]


test_errors_name_the_primitive_and_argument = error_test(ERRORS)


def test_constructor_arguments_and_repr():
    d = P.BoundingBoxDecode((768, 1280))
    assert (d.max_shape, d.means, d.stds, d.wh_ratio_clip) == \
        ((768, 1280), (0.0,) * 4, (1.0,) * 4, 0.016)
    assert repr(P.IOU()) == "Prim[IOU]<mode='iou'>"
