"""Window functions and the window Primitives: MindSpore 2.10's results (CPU) recorded as
literals, the NumPy windows, and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def I(value, dtype=np.int32):
    return ms.Tensor(np.array(value, dtype))


# call, MindSpore 2.10's dtype and values
MINDSPORE = [
    ('bartlett', lambda: ops.bartlett_window(I(5)), ms.float32, [0.0, 0.4, 0.8, 0.8, 0.4]),
    ('bartlett-sym', lambda: ops.bartlett_window(I(5), False), ms.float32,
     [0.0, 0.5, 1.0, 0.5, 0.0]),
    ('bartlett-1', lambda: ops.bartlett_window(I(1)), ms.float32, [1.0]),
    ('bartlett-0', lambda: ops.bartlett_window(I(0)), ms.float32, []),
    ('bartlett-2', lambda: ops.bartlett_window(I(2), False), ms.float32, [0.0, 0.0]),
    ('bartlett-16', lambda: ops.bartlett_window(I(6), False, dtype=ms.float16), ms.float16,
     [0.0, 0.39990234375, 0.7998046875, 0.7998046875, 0.39990234375, 0.0]),
    ('blackman', lambda: ops.blackman_window(I(5)), ms.float32,
     [0.0, 0.20077013969421387, 0.8492298722267151, 0.8492298722267151, 0.20077013969421387]),
    ('blackman-64', lambda: ops.blackman_window(I(4), dtype=ms.float64), ms.float64,
     [0.0, 0.33999999999999997, 1.0, 0.3400000000000001]),
    ('hamming', lambda: ops.hamming_window(5), ms.float32,
     [0.08000001311302185, 0.39785221219062805, 0.9121478199958801, 0.9121478199958801,
      0.39785221219062805]),
    ('hamming-64', lambda: ops.hamming_window(4, dtype=ms.float64), ms.float64,
     [0.08000001311302185, 0.5400000214576721, 1.0000000298023224, 0.5400000214576722]),
    ('hamming-ab', lambda: ops.hamming_window(5, True, 0.5, 0.4), ms.float32,
     [0.09999999403953552, 0.37639319896698, 0.8236067891120911, 0.8236067891120911,
      0.37639319896698]),
    ('hamming-1', lambda: ops.hamming_window(1), ms.float64, [1.0]),
    ('hann', lambda: ops.hann_window(5), ms.float64,
     [0.0, 0.3454915028125263, 0.9045084971874737, 0.9045084971874737, 0.3454915028125264]),
    ('hann-sym', lambda: ops.hann_window(5, False), ms.float64,
     [0.0, 0.49999999999999994, 1.0, 0.5000000000000001, 0.0]),
    ('kaiser', lambda: ops.kaiser_window(5), ms.float64,
     [5.2773441320097665e-05, 0.10171968770956323, 0.7929398341014605, 0.7929398341014605,
      0.10171968770956323]),
    ('kaiser-beta', lambda: ops.kaiser_window(5, False, 3.0), ms.float64,
     [0.2048847564012536, 0.7269255302876366, 1.0, 0.7269255302876366, 0.2048847564012536]),
    ('BartlettWindow', lambda: ops.BartlettWindow()(I(5, np.int64)), ms.float32,
     [0.0, 0.4, 0.8, 0.8, 0.4]),
    ('BlackmanWindow', lambda: ops.BlackmanWindow(False, ms.float64)(I(5)), ms.float64,
     [0.0, 0.33999999999999997, 1.0, 0.3400000000000001, 0.0]),
    ('HammingWindow', lambda: ops.HammingWindow()(I([5])), ms.float32,
     [0.08000001311302185, 0.39785221219062805, 0.9121478199958801, 0.9121478199958801,
      0.39785221219062805]),
    ('HammingWindow-64', lambda: ops.HammingWindow(False, 0.5, 0.4, ms.float64)(
        I([5], np.int64)), ms.float64,
     [0.09999999403953552, 0.5, 0.9000000059604645, 0.5000000000000001, 0.09999999403953552]),
    ('HammingWindow-1', lambda: ops.HammingWindow()(I([1])), ms.float32, [1.0]),
]


@pytest.mark.parametrize('call, dtype, want', [pytest.param(c, d, w, id=n)
                                               for n, c, d, w in MINDSPORE])
def test_mindspore_values(call, dtype, want):
    got = call()
    assert got.dtype == dtype
    np.testing.assert_allclose(got.asnumpy(), np.array(want, got.asnumpy().dtype), rtol=1e-15,
                               atol=0)


def test_the_numpy_windows():
    for n in (2, 7, 12):
        np.testing.assert_allclose(ops.bartlett_window(n, False, dtype=ms.float64).asnumpy(),
                                   np.bartlett(n), atol=1e-15)
        np.testing.assert_allclose(ops.blackman_window(n, False, dtype=ms.float64).asnumpy(),
                                   np.blackman(n), atol=1e-15)
        np.testing.assert_allclose(ops.hann_window(n, False).asnumpy(), np.hanning(n),
                                   atol=1e-15)
        np.testing.assert_allclose(ops.kaiser_window(n, False, 5.0).asnumpy(),
                                   np.kaiser(n, 5.0), rtol=1e-14)
        np.testing.assert_allclose(ops.hamming_window(n, False, 0.5, 0.5,
                                                      dtype=ms.float64).asnumpy(),
                                   np.hanning(n), atol=1e-15)
    assert ops.hann_window(5, dtype=ms.float16).dtype == ms.float16


@pytest.mark.parametrize('call, error, match', [
    (lambda: ops.hann_window(5.0), TypeError, r'ops.hann_window: window_length must be a '
                                              r'non-negative int, got float'),
    (lambda: ops.kaiser_window(-1), ValueError, r'ops.kaiser_window: window_length must be a '
                                                r'non-negative int, got -1'),
    (lambda: ops.hann_window(5, 1), TypeError, r'ops.hann_window: periodic must be a bool'),
    (lambda: ops.hamming_window(5, alpha=1), TypeError, r'ops.hamming_window: alpha must be a '
                                                        r'float, got 1'),
    (lambda: ops.kaiser_window(5, beta='a'), TypeError, r'ops.kaiser_window: beta must be'),
    (lambda: ops.bartlett_window(I(5), dtype=ms.int32), TypeError,
     r'ops.bartlett_window: dtype must be Float16, Float32 or Float64, got Int32'),
    (lambda: ops.blackman_window(I(5.0, np.float32)), TypeError,
     r'ops.blackman_window: window_length must be an int or an integer Tensor'),
    (lambda: ops.BartlettWindow(dtype=ms.int32), TypeError,
     r'ops.BartlettWindow: dtype must be Float16, Float32 or Float64'),
    (lambda: ops.BartlettWindow(periodic=1), TypeError,
     r'ops.BartlettWindow: periodic must be a bool'),
    (lambda: ops.BartlettWindow()(I([5])), ValueError,
     r'ops.BartlettWindow: window_length must have shape \(\), got \(1,\)'),
    (lambda: ops.HammingWindow()(I(5)), ValueError,
     r'ops.HammingWindow: window_length must have shape \(1,\)'),
    (lambda: ops.BartlettWindow()(I(-1)), ValueError,
     r'ops.BartlettWindow: window_length must be >= 0'),
    (lambda: ops.BlackmanWindow()(I(5.0, np.float32)), TypeError,
     r'ops.BlackmanWindow: window_length must be an Int32 or Int64 Tensor'),
    (lambda: ops.HammingWindow(alpha=1), TypeError, r'ops.HammingWindow: alpha must be a float'),
])
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
