"""Ops whose index input a compiled call computes read each call's index on replay (values
from MindSpore 2.10 under ms.jit / GRAPH_MODE): gather_elements, tensor_scatter_elements with
negative indices, and FractionalMaxPool2d's argmax indices."""
import numpy as np

import hookgrad as ms
from hookgrad import nn, ops

X = np.arange(12, dtype=np.float32).reshape(3, 4)
INDICES = ([[0, 3], [1, 1], [2, 0]], [[3, 2], [0, -1], [-4, 1]])


def test_gather_and_scatter_elements_replay_with_new_indices():
    @ms.jit
    def gather(x, i):
        return ops.gather_elements(x, 1, i)

    @ms.jit
    def scatter(x, i, u):
        return ops.tensor_scatter_elements(x, i, u, 1)

    got = []
    for idx in INDICES + INDICES:
        i = ms.Tensor(np.array(idx, np.int32))
        got.append((gather(ms.Tensor(X), i).asnumpy().tolist(),
                    scatter(ms.Tensor(X), i, ms.Tensor(-np.ones((3, 2), np.float32)))
                    .asnumpy().tolist()))
    assert gather.replays == 3 and scatter.replays == 3
    assert got[:2] == got[2:]
    assert got[0] == ([[0.0, 3.0], [5.0, 5.0], [10.0, 8.0]],
                      [[-1.0, 1.0, 2.0, -1.0], [4.0, -1.0, 6.0, 7.0], [-1.0, 9.0, -1.0, 11.0]])
    assert got[1] == ([[3.0, 2.0], [4.0, 7.0], [8.0, 9.0]],
                      [[0.0, 1.0, -1.0, -1.0], [-1.0, 5.0, 6.0, -1.0], [-1.0, -1.0, 10.0, 11.0]])


class _Pool(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = nn.FractionalMaxPool2d(
            2, output_size=(2, 3), return_indices=True,
            _random_samples=ms.Tensor(np.array([[[0.3, 0.8]]], np.float32)))

    def construct(self, x):
        return self.pool(x)


def test_fractional_max_pool_indices_follow_the_input_in_graph_mode():
    mode = ms.get_context('mode')
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Pool()
        out = [net(ms.Tensor((k * np.arange(30, dtype=np.float32)).reshape(1, 1, 5, 6)))
               for k in (1, -1)]
    finally:
        ms.set_context(mode=mode)
    (y1, at1), (y2, at2) = out
    assert at1.asnumpy().tolist() == [[[[7, 9, 11], [25, 27, 29]]]]
    assert y1.asnumpy().tolist() == [[[[7.0, 9.0, 11.0], [25.0, 27.0, 29.0]]]]
    assert at2.asnumpy().tolist() == [[[[0, 2, 4], [18, 20, 22]]]]
    assert y2.asnumpy().tolist() == [[[[0.0, -2.0, -4.0], [-18.0, -20.0, -22.0]]]]
