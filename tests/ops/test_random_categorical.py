"""ops.random_categorical: draws follow softmax(logits) per row; a nonzero seed repeats its
draws; MindSpore 2.10's dtypes and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

PROBABILITIES = np.array([[0.1, 0.9, 0.0], [0.5, 0.25, 0.25]])
LOGITS = ms.Tensor(np.log(np.maximum(PROBABILITIES, 1e-30)).astype(np.float32))


def test_draw_frequencies_follow_the_softmax_of_each_row():
    draws = ops.random_categorical(LOGITS, 40000, seed=7).asnumpy()
    assert draws.shape == (2, 40000)
    for row, want in zip(draws, PROBABILITIES):
        frequencies = np.bincount(row, minlength=3) / row.size
        np.testing.assert_allclose(frequencies, want, atol=0.01)
    assert not (draws[0] == 2).any()


def test_a_nonzero_seed_repeats_and_seed_zero_draws_afresh():
    first = LOGITS.random_categorical(50, 3).tolist()
    assert LOGITS.random_categorical(50, 3).tolist() == first
    ms.set_seed(1)
    a = LOGITS.random_categorical(50).tolist()
    b = LOGITS.random_categorical(50).tolist()
    assert a != b


@pytest.mark.parametrize('dtype', [ms.int16, ms.int32, ms.int64])
def test_dtype(dtype):
    assert LOGITS.random_categorical(4, 0, dtype).dtype == dtype
    assert ops.random_categorical(LOGITS, 4).dtype == ms.int64


@pytest.mark.parametrize('call,exc,match', [
    (lambda: ops.random_categorical(LOGITS[0], 2), ValueError,
     r"ops\.random_categorical: logits must be 2-d \(batch, classes\), got shape \(3,\)"),
    (lambda: ops.random_categorical(ms.Tensor([[1, 2]]), 2), TypeError,
     r"ops\.random_categorical: logits must be a Float16, Float32 or Float64 tensor, got Int64"),
    (lambda: ops.random_categorical(LOGITS, 2.0), TypeError,
     r"ops\.random_categorical: num_sample must be an int, got 2\.0"),
    (lambda: ops.random_categorical(LOGITS, 0), ValueError,
     r"ops\.random_categorical: num_sample must be positive, got 0"),
    (lambda: ops.random_categorical(LOGITS, 2, seed=1.5), TypeError,
     r"ops\.random_categorical: seed must be an int, got 1\.5"),
    (lambda: ops.random_categorical(LOGITS, 2, dtype=ms.float32), TypeError,
     r"ops\.random_categorical: dtype must be Int16, Int32 or Int64, got Float32"),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
