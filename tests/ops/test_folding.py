"""fold, unfold and col2im: MindSpore 2.10's values, gradients and errors; gradients of every order
against finite differences (Fold and Unfold are each other's backward)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests


def _fold_ref(cols, size, kernel, dilation=(1, 1), padding=(0, 0), stride=(1, 1)):
    """fold by its definition: every block value added at its place."""
    n, c = cols.shape[:2]
    kh, kw = kernel
    h, w = size
    bh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    bw = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    blocks = cols.reshape(n, c, kh, kw, bh, bw)
    out = np.zeros((n, c, h + 2 * padding[0], w + 2 * padding[1]), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            for p in range(bh):
                for q in range(bw):
                    out[:, :, p * stride[0] + i * dilation[0], q * stride[1] + j * dilation[1]] \
                        += blocks[:, :, i, j, p, q]
    return out[:, :, padding[0]:padding[0] + h, padding[1]:padding[1] + w]


def _unfold_ref(x, kernel, dilation=(1, 1), padding=(0, 0), stride=(1, 1)):
    """unfold by its definition: each block's values, kernel position inside the channel."""
    n, c, h, w = x.shape
    kh, kw = kernel
    padded = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    bh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    bw = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, c, kh, kw, bh, bw), x.dtype)
    for i in range(kh):
        for j in range(kw):
            for p in range(bh):
                for q in range(bw):
                    out[:, :, i, j, p, q] = padded[:, :, p * stride[0] + i * dilation[0],
                                                   q * stride[1] + j * dilation[1]]
    return out.reshape(n, c * kh * kw, bh * bw)


def size(h, w):
    return ms.Tensor(np.array([h, w], np.int32))


CASES = [
    Case(('Fold', 'Unfold'), lambda x: ops.fold(x, size(3, 4), 2),
         ref=lambda a: _fold_ref(a.reshape(a.shape[0], -1, 4, a.shape[2]), (3, 4), (2, 2)),
         shapes=[((2, 4, 6),), ((1, 8, 6),)], rtol=1e-12, name='fold'),
    Case(('Fold', 'Unfold'), lambda x: ops.fold(x, size(3, 5), (2, 3), 1, 1, 2),
         ref=lambda a: _fold_ref(a.reshape(1, -1, 6, a.shape[2]), (3, 5), (2, 3), (1, 1),
                                 (1, 1), (2, 2)),
         shapes=[((1, 6, 6),)], rtol=1e-12, name='fold_padded'),
    Case(('Fold', 'Unfold'), lambda x: ops.col2im(x, size(5, 5), 2, 2, 0, 1),
         ref=lambda a: _fold_ref(a, (5, 5), (2, 2), (2, 2)), shapes=[((1, 2, 4, 9),)],
         rtol=1e-12, name='col2im_dilated'),
    Case(('Unfold', 'Fold'), lambda x: ops.unfold(x, 2),
         ref=lambda a: _unfold_ref(a, (2, 2)), shapes=[((2, 1, 3, 4),), ((1, 2, 3, 3),)],
         rtol=1e-12, name='unfold'),
    Case(('Unfold', 'Fold'), lambda x: ops.unfold(x, (2, 3), (1, 2), (1, 0), 2),
         ref=lambda a: _unfold_ref(a, (2, 3), (1, 2), (1, 0), (2, 2)), shapes=[((1, 2, 4, 6),)],
         rtol=1e-12, name='unfold_dilated_padded'),
]

globals().update(row_tests(CASES))


# MindSpore 2.10's results (CPU) and its gradients of (out * W).sum()
def test_fold_values_and_gradient():
    x = ms.Tensor(np.arange(48, dtype=np.float32).reshape(2, 4, 6))
    got = ops.fold(x, size(3, 4), 2)
    assert got.dtype == ms.float32 and got.shape == (2, 1, 3, 4)
    assert got.tolist() == [[[[0, 7, 9, 8], [15, 44, 48, 31], [15, 37, 39, 23]]],
                            [[[24, 55, 57, 32], [63, 140, 144, 79], [39, 85, 87, 47]]]]
    assert x.fold(size(4, 6), 2, 1, 0, 2).tolist()[0] == \
        [[[0, 6, 1, 7, 2, 8], [12, 18, 13, 19, 14, 20], [3, 9, 4, 10, 5, 11],
          [15, 21, 16, 22, 17, 23]]]
    assert ops.fold(x, size(4, 5), 2, 2, 0, 1).tolist()[0] == \
        [[[0, 1, 8, 7, 8], [3, 4, 14, 10, 11], [12, 13, 32, 19, 20], [15, 16, 38, 22, 23]]]
    w = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 1, 3, 4) * 0.5 - 3)
    g = ms.grad(lambda a: (ops.fold(a, size(3, 4), 2) * w).sum())(x)
    assert g.tolist()[0] == [[-3.0, -2.5, -2.0, -1.0, -0.5, 0.0],
                             [-2.5, -2.0, -1.5, -0.5, 0.0, 0.5],
                             [-1.0, -0.5, 0.0, 1.0, 1.5, 2.0],
                             [-0.5, 0.0, 0.5, 1.5, 2.0, 2.5]]
    ones = ops.fold(ms.Tensor(np.ones((1, 4, 6))), size(3, 4), 2)
    assert ones.dtype == ms.float64 and ones.tolist() == [[[[1, 2, 2, 1], [2, 4, 4, 2],
                                                            [1, 2, 2, 1]]]]


def test_col2im_values_and_gradient():
    x = ms.Tensor(np.arange(48, dtype=np.float32).reshape(2, 1, 4, 6))
    want = [[[[18, 13, 19, 14, 20], [9, 4, 10, 5, 11], [21, 16, 22, 17, 23]]],
            [[[42, 37, 43, 38, 44], [33, 28, 34, 29, 35], [45, 40, 46, 41, 47]]]]
    assert ops.col2im(x, size(3, 5), 2, 1, 1, 2).tolist() == want
    assert ops.col2im(x, size(3, 5), [2, 2], (1, 1), (1, 1), (2, 2)).tolist() == want
    assert x.col2im(size(3, 5), 2, 1, 1, 2).tolist() == want
    assert ops.fold(x.reshape(2, 4, 6), size(3, 5), 2, 1, 1, 2).tolist() == want
    w = ms.Tensor(np.arange(30, dtype=np.float32).reshape(2, 1, 3, 5) * 0.5 - 3)
    g = ms.grad(lambda a: (ops.col2im(a, size(3, 5), 2, 1, 1, 2) * w).sum())(x)
    assert g.tolist()[0] == [[[0, 0, 0, 0, 0, 1], [0, 0, 0, -0.5, 0.5, 1.5],
                              [0, -2.5, -1.5, 0, 2.5, 3.5], [-3, -2, -1, 2, 3, 4]]]


X3 = ms.Tensor(np.ones((2, 4, 6), np.float32))
ERRORS = [
    (lambda: ops.fold(X3, (3, 4), 2), TypeError,
     r"ops\.fold: output_size must be a Tensor, got tuple"),
    (lambda: ops.fold(X3, size(3, 5), 2), ValueError,
     r"ops\.fold: input of shape \(2, 1, 4, 6\) holds 6 blocks, the output size \[3, 5\] has "
     r"2 x 4"),
    (lambda: ops.fold(ms.Tensor(np.ones((4, 6), np.float32)), size(3, 4), 2), ValueError,
     r"ops\.fold: input must be 3-d \(N, C \* kh \* kw, L\), got shape \(4, 6\)"),
    (lambda: ops.fold(ms.Tensor(np.ones((2, 5, 6), np.float32)), size(3, 4), 2), ValueError,
     r"ops\.fold: input of shape \(2, 5, 6\) does not hold kernels of size \(2, 2\)"),
    (lambda: ops.fold(ms.Tensor(np.ones((1, 4, 6), np.int32)), size(3, 4), 2), TypeError,
     r"ops\.fold: input must be a Float16, BFloat16, Float32 or Float64 tensor, got Int32"),
    (lambda: ops.fold(X3, size(3, 4), 0), ValueError, r"ops\.fold: kernel_size must be >= 1"),
    (lambda: ops.fold(X3, size(3, 4), 2, stride=(1, 1, 1)), TypeError,
     r"ops\.fold: stride must be an int or a pair of ints, got \(1, 1, 1\)"),
    (lambda: ops.unfold(X3, 2), ValueError,
     r"ops\.unfold: input must be 4-d \(N, C, H, W\), got shape \(2, 4, 6\)"),
    (lambda: ops.unfold(ms.Tensor(np.ones((1, 1, 3, 3), np.int32)), 2), TypeError,
     r"ops\.unfold: input must be a Float16, BFloat16, Float32 or Float64 tensor, got Int32"),
    (lambda: ops.unfold(ms.Tensor(np.ones((1, 1, 3, 3), np.float32)), 4), ValueError,
     r"ops\.unfold: no block of size \(4, 4\) \(dilation \(1, 1\)\) fits the image of shape "
     r"\(1, 1, 3, 3\) padded by \(0, 0\)"),
    (lambda: ops.unfold(X3.reshape(2, 2, 2, 6), 2, stride=0), ValueError,
     r"ops\.unfold: stride must be >= 1"),
    (lambda: ops.col2im(X3, size(3, 4), 2, 1, 0, 1), ValueError,
     r"ops\.col2im: input_x must be 4-d \(N, C, kh \* kw, L\), got shape \(2, 4, 6\)"),
    (lambda: ops.col2im(ms.Tensor(np.ones((2, 1, 4, 6), np.float32)), size(3, 5), 3, 1, 1, 2),
     ValueError, r"ops\.col2im: input of shape \(2, 1, 4, 6\) does not hold kernels of size "
                 r"\(3, 3\)"),
    (lambda: ops.col2im(ms.Tensor(np.ones((2, 1, 4, 6), np.float32)), size(3, 5),
                        ms.Tensor([2, 2]), 1, 1, 2), TypeError,
     r"ops\.col2im: kernel_size must be an int, tuple or list, got Tensor"),
]


@pytest.mark.parametrize('call,exc,match', ERRORS)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
