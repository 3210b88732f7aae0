"""What a cell's backward hooks keep alive: a hooked cell's grad_output is let go once its
backward hooks have run, not held until the whole graph is freed."""
import gc
import weakref

import numpy as np

import hookgrad as ms
from hookgrad import nn


def test_grad_output_is_released_after_the_cell_backward_hooks_ran():
    net = nn.SequentialCell(nn.Dense(4, 4), nn.Dense(4, 4), nn.Dense(4, 4))
    seen = {}

    def remember(index):
        def hook(cell, grad_input, grad_output):
            seen[index] = weakref.ref(grad_output[0])
            if index == 0:          # the first cell runs its hooks last
                gc.collect()
                seen['alive_at_first'] = [seen[i]() is not None for i in (2, 1)]
        return hook
    for i, cell in enumerate(net.cells()):
        cell.register_backward_hook(remember(i))
    x = ms.Tensor(np.ones((2, 4), np.float32), requires_grad=True)
    ms.grad(lambda x: net(x).sum())(x)
    assert sorted(k for k in seen if isinstance(k, int)) == [0, 1, 2]
    assert seen['alive_at_first'] == [False, False]


def test_a_backward_hook_added_after_forward_is_not_called_for_that_call():
    cell = nn.Dense(3, 2)
    got = []
    cell.register_backward_pre_hook(lambda c, g: None)
    x = ms.Tensor(np.ones((1, 3), np.float32), requires_grad=True)

    def f(x):
        y = cell(x)
        cell.register_backward_hook(lambda c, gi, go: got.append(go))
        return y.sum()
    ms.grad(f)(x)
    # the inputs' boundary was not made in forward (no backward hook then): nothing to call
    assert got == []
