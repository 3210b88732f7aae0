"""ops.unique_with_pad: MindSpore 2.10's values and dtypes (CPU), and its errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


@pytest.mark.parametrize('values,dtype,pad,want,inverse,inverse_dtype', [
    ([0, 2, 1, 2, 4], np.int32, -1, [0, 2, 1, 4, -1], [0, 1, 2, 1, 3], ms.int32),
    ([0, 2, 1, 2, 4], np.int64, 9, [0, 2, 1, 4, 9], [0, 1, 2, 1, 3], ms.int64),
    ([2.0, 1.0, 2.0, 3.0, 1.0, 1.0], np.float32, 0.0, [2.0, 1.0, 3.0, 0.0, 0.0, 0.0],
     [0, 1, 0, 2, 1, 1], ms.int32),
    ([5, 6, 7], np.int32, 0, [5, 6, 7], [0, 1, 2], ms.int32),
])
def test_values_in_order_of_appearance_padded(values, dtype, pad, want, inverse,
                                               inverse_dtype):
    x = ms.Tensor(np.array(values, dtype))
    out, idx = ops.unique_with_pad(x, pad)
    assert out.dtype == x.dtype and out.tolist() == want
    assert idx.dtype == inverse_dtype and idx.tolist() == inverse
    method_out, method_idx = x.unique_with_pad(pad)
    assert method_out.tolist() == want and method_idx.tolist() == inverse


def test_rejects_a_tensor_not_1d():
    with pytest.raises(ValueError, match=r"ops\.unique_with_pad: x must be 1-d, got shape "
                                         r"\(2, 2\)"):
        ops.unique_with_pad(ms.Tensor(np.ones((2, 2), np.int32)), 0)
