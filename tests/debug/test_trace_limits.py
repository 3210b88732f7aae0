"""debug.trace across many steps: captures kept after the block, bounded memory, one warning;
the README's trace snippet."""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import trace


def mlp():
    ms.set_seed(0)
    return nn.SequentialCell(nn.Dense(64, 64), nn.ReLU(), nn.Dense(64, 1))


def step(net, seed):
    x = ms.Tensor(np.random.default_rng(seed).standard_normal((32, 64)).astype(np.float32))
    net(x).sum().backward()


def test_memory_stays_bounded_over_many_steps_and_the_latest_calls_are_kept():
    net = mlp()
    # one step captures 98,816 bytes: x and the hidden layer's 32x64 float32 arrays (8,192
    # bytes) and the 32x1 outputs (128 bytes), in and out of 4 cells, forward and backward
    with pytest.warns(ResourceWarning, match=r"trace: over max_records=None calls or "
                                             r"max_bytes=400000 bytes of captures; dropping "
                                             r"the oldest calls \(the first: Cell '0'\)"):
        with trace(net, max_records=None, max_bytes=400_000) as t:
            for i in range(300):
                step(net, i)
    budget = t._budget
    assert budget.nbytes == 4 * 98_816          # the last four whole steps
    assert len(budget.held) == 4 * 4 and budget.dropped == 300 * 4 - 16
    calls = t['0'].calls
    assert len(calls) == 4
    x = np.random.default_rng(299).standard_normal((32, 64)).astype(np.float32)
    np.testing.assert_array_equal(calls[-1].inputs[0].asnumpy(), x)    # the last step's
    assert len(t._tensor_handles) == 0      # released on exit, and pruned while running


def test_max_records_counts_calls_and_warns_once():
    net = mlp()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        with trace(net, names=['0', '2'], max_records=6) as t:
            for i in range(20):
                step(net, i)
    assert [str(w.message).split(';')[0] for w in caught] == [
        'trace: over max_records=6 calls or max_bytes=1073741824 bytes of captures']
    assert len(t['0'].calls) == 3 and len(t['2'].calls) == 3
    assert t['2'].calls[-1].grad_outputs is not None
    with pytest.raises(ValueError, match='trace: max_records must be a positive int or None, '
                                         'got 0'):
        trace(net, max_records=0)
    with pytest.raises(ValueError, match="trace: max_bytes must be a positive int or None, "
                                         "got 1.5"):
        trace(net, max_bytes=1.5)


def test_readme_snippet_reads_captures_after_the_block():
    ms.set_seed(0)
    net = ms.vision.resnet18(num_classes=10, cifar=True)
    x = ms.ops.ones((1, 3, 16, 16))
    # README.md, "Finding what is wrong with a network":
    with trace(net) as t:                # read (and patch) any cell's inputs, outputs, gradients
        net(x).sum().backward()
    g = t['layer2.0.conv1'].grad_outputs
    assert isinstance(g, tuple) and g[0].shape == (1, 128, 8, 8)
    assert np.isfinite(g[0].asnumpy()).all() and np.abs(g[0].asnumpy()).sum() > 0
    assert net.hooks() == [] and all(c.hooks() == [] for c in net.cells())
