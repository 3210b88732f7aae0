"""topk with ``sorted=False``: with k the whole axis the result is the input itself, as
MindSpore 2.10 returns it (TopK(False)(x, 4) on a (3, 4) input gives x and indices [0, 1, 2, 3]
per row); a smaller k chooses the same elements as sorted=True."""
import numpy as np

import hookgrad as ms
from hookgrad import ops

X = np.array([[0.5488135, 0.71518934, 0.60276335, 0.5448832],
              [0.4236548, 0.6458941, 0.4375872, 0.891773],
              [0.96366274, 0.3834415, 0.79172504, 0.5288949]], np.float32)


def test_k_the_whole_axis_gives_the_input_back():
    values, indices = ops.TopK(False)(ms.Tensor(X), 4)
    assert np.array_equal(values.asnumpy(), X)
    assert indices.asnumpy().tolist() == [[0, 1, 2, 3]] * 3
    assert str(indices.dtype) == 'Int32'
    assert np.array_equal(ms.Tensor(X).top_k(4, False)[0].asnumpy(), X)
    assert np.array_equal(ops.top_k(ms.Tensor(X), 4, False)[0].asnumpy(), X)


def test_a_smaller_k_chooses_the_same_elements_largest_first():
    """MindSpore 2.10 returns them in its kernel's selection order ([[2, 1], [1, 3], [0, 2]]
    here), which is unspecified; the chosen elements are the same."""
    values, indices = ops.topk(ms.Tensor(X), 2, sorted=False)
    assert [sorted(row) for row in indices.asnumpy().tolist()] == [[1, 2], [1, 3], [0, 2]]
    assert indices.asnumpy().tolist() == [[1, 2], [3, 1], [0, 2]]
    assert np.array_equal(values.asnumpy(), np.take_along_axis(X, indices.asnumpy(), -1))


def test_sorted_stays_largest_first():
    values, indices = ops.TopK(True)(ms.Tensor(X), 2)
    assert indices.asnumpy().tolist() == [[1, 2], [3, 1], [0, 2]]


def test_the_gradient_reaches_the_chosen_elements():
    grad = ms.grad(lambda a: ops.TopK(False)(a, 2)[0].sum())(ms.Tensor(X))
    assert grad.asnumpy().tolist() == [[0, 1, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]]
