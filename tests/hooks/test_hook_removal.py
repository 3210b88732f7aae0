"""Removing hooks during backward: ``handle.remove()`` and ``cell.remove_hooks()`` agree, both
stopping the hooks not yet run in the pass under way."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


class Scale(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = ms.Parameter(ms.Tensor(np.float32(k)), name='k')

    def construct(self, x):
        return x * self.k


class Chain(nn.Cell):
    """first -> second -> third: backward reaches third's hooks first."""

    def __init__(self):
        super().__init__()
        self.first = Scale(2.0)
        self.second = Scale(3.0)
        self.third = Scale(5.0)

    def construct(self, x):
        return self.third(self.second(self.first(x)))


def run_backward(net, x):
    y = net(x)
    y.backward()
    return x.grad


def run_grad(net, x):
    return ms.grad(net)(x)


def run_value_and_grad(net, x):
    return ms.value_and_grad(net)(x)[1]


def hooked(remove):
    """A Chain whose every cell records its backward pre-hook and backward hook; third's
    backward pre-hook calls ``remove(net, handles)`` the first time it runs."""
    net, events, handles = Chain(), [], []
    for name in ('first', 'second', 'third'):
        cell = getattr(net, name)
        handles.append(cell.register_backward_pre_hook(
            lambda c, go, name=name: events.append(('pre', name))))
        handles.append(cell.register_backward_hook(
            lambda c, gi, go, name=name: events.append(('post', name))))

    def remover(c, go):
        events.append('remove')
        remove(net, handles)

    handles.append(net.third.register_backward_pre_hook(remover))
    return net, events


def by_handles(net, handles):
    for h in handles:
        h.remove()


def by_remove_hooks(net, handles):
    net.remove_hooks()


@pytest.mark.parametrize('run', [run_backward, run_grad, run_value_and_grad])
def test_remove_hooks_during_backward_stops_the_rest_of_the_pass_like_handle_remove(run):
    seen = {}
    for remove in (by_handles, by_remove_hooks):
        net, events = hooked(remove)
        x = ms.Tensor(np.array([1.0], np.float32), requires_grad=True)
        g = run(net, x)
        assert g.asnumpy().tolist() == [30.0]          # the gradient itself is untouched
        seen[remove.__name__] = list(events)
        events.clear()
        run(net, ms.Tensor(np.array([1.0], np.float32), requires_grad=True))
        assert events == []                             # and no later pass runs them
    # third's pre-hooks ran from a snapshot taken before the removal; nothing after it
    assert seen['by_handles'] == [('pre', 'third'), 'remove']
    assert seen['by_remove_hooks'] == seen['by_handles']


def test_remove_hooks_without_recurse_during_backward_keeps_sub_cell_hooks():
    net, events = Chain(), []
    net.register_backward_hook(lambda c, gi, go: events.append('net'))
    net.first.register_backward_hook(lambda c, gi, go: events.append('first'))
    net.third.register_backward_pre_hook(lambda c, go: net.remove_hooks(recurse=False))
    ms.grad(net)(ms.Tensor(np.array([1.0], np.float32)))
    assert events == ['first']
    assert [h.cell_path for h in net.hooks()] == ['Chain.first', 'Chain.third']
    assert net.__dict__['_hooks'] is None
