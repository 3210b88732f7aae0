"""An out-of-range index of gather raises what MindSpore's Gather kernel raises: a RuntimeError
(also an IndexError) led by MindSpore's sentence, naming the first bad index."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops


def _x():
    return ms.Tensor(np.arange(6).reshape(2, 3).astype(np.float32))


@pytest.mark.parametrize('call,message', [
    (lambda: ops.Gather()(_x(), ms.Tensor(np.array([0, 2], np.int32)), 0),
     "For 'Gather', the 'input_indices' should be in the range [0, 2), but got 2"),
    # a negative index is counted once from the end before the check, as MindSpore reports it
    (lambda: ops.gather(_x(), ms.Tensor(np.array([0, -3], np.int32)), 0),
     "For 'Gather', the 'input_indices' should be in the range [0, 2), but got -1"),
    (lambda: _x().gather(ms.Tensor(np.array([5])), 1),
     "For 'Gather', the 'input_indices' should be in the range [0, 3), but got 5"),
    (lambda: ops.gather(_x(), ms.Tensor(np.array([[0], [3]], np.int32)), 1, batch_dims=1),
     "For 'Gather', the 'input_indices' should be in the range [0, 3), but got 3"),
])
def test_an_index_out_of_range_is_mindspores_runtime_error(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value).startswith(message)
    assert isinstance(info.value, IndexError)


def test_a_negative_index_in_range_counts_from_the_end():
    out = ops.gather(_x(), ms.Tensor(np.array([-1], np.int32)), 0)
    assert out.asnumpy().tolist() == [[3.0, 4.0, 5.0]]


def test_vmap_of_gather_reports_the_bad_index():
    x = ms.Tensor(np.arange(12).reshape(2, 2, 3).astype(np.float32))
    indices = ms.Tensor(np.array([[0, 2], [2, 0]]).astype(np.int32))
    with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the range"):
        ops.vmap(lambda a, i: ops.Gather()(a, i, 0), in_axes=(0, 0))(x, indices)
