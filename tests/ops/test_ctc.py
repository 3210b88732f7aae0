"""The CTC loss op (hookgrad/ops/ctc.py) against a reference that sums every alignment of a
small problem, and its gradient through log_softmax against finite differences (float64)."""
import itertools

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops.ctc import ctc_loss
from hookgrad.testing import check_grad
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

TARGETS = np.array([[1, 2], [1, 1], [2, 0]])
INPUT_LENGTHS = np.array([4, 3, 4])
TARGET_LENGTHS = np.array([2, 2, 1])


def _log_softmax(x):
    z = x - x.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def _collapse(path, blank):
    merged = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
    return [c for c in merged if c != blank]


def _brute_force(logits, reduction, blank=0):
    """``-log`` of the summed probability of every path that collapses to the target."""
    lp = _log_softmax(logits.astype(np.float64))
    n_class = lp.shape[2]
    losses = []
    for n in range(lp.shape[1]):
        target = list(TARGETS[n, :TARGET_LENGTHS[n]])
        frames = INPUT_LENGTHS[n]
        total = sum(np.exp(sum(lp[t, n, c] for t, c in enumerate(path)))
                    for path in itertools.product(range(n_class), repeat=frames)
                    if _collapse(path, blank) == target)
        losses.append(-np.log(total))
    losses = np.array(losses)
    if reduction == 'none':
        return losses
    if reduction == 'sum':
        return losses.sum()
    return (losses / np.maximum(TARGET_LENGTHS, 1)).mean()


def _row(reduction):
    def fn(x):
        return ctc_loss(ops.log_softmax(x, -1), ms.Tensor(TARGETS), ms.Tensor(INPUT_LENGTHS),
                        ms.Tensor(TARGET_LENGTHS), 0, reduction)[0]
    return Case('CTCLossOp', fn, ref=lambda x: _brute_force(x, reduction),
                name=f"ctc_loss-{reduction}", shapes=(((4, 3, 3),),), grad=False,
                rtol=1e-10, atol=1e-10)


# first-order gradients only (test_gradient_through_log_softmax_matches_finite_differences)
CASES = [_row(r) for r in ('none', 'mean', 'sum')]
globals().update(row_tests(CASES))


@pytest.mark.parametrize('reduction', ['none', 'mean', 'sum'])
def test_gradient_through_log_softmax_matches_finite_differences(reduction):
    logits = np.random.default_rng(3).standard_normal((4, 3, 3))
    grads = check_grad(_row(reduction).fn, logits)
    # MindSpore's convention: each frame's gradient with respect to log_probs sums to 0
    lp = ms.Tensor(_log_softmax(logits))
    lp.requires_grad = True
    ctc_loss(lp, ms.Tensor(TARGETS), INPUT_LENGTHS, TARGET_LENGTHS,
             reduction=reduction)[0].sum().backward()
    np.testing.assert_allclose(lp.grad.asnumpy().sum(-1), 0.0, atol=1e-12)
    assert np.abs(grads[0]).max() > 1e-3


def test_second_order_gradients_are_refused():
    x = ms.Tensor(np.random.default_rng(0).standard_normal((4, 3, 3)))
    x.requires_grad = True

    def loss(z):
        return ctc_loss(ops.log_softmax(z, -1), ms.Tensor(TARGETS), INPUT_LENGTHS,
                        TARGET_LENGTHS, reduction='sum')[0]
    first = ms.grad(loss)
    with pytest.raises(NotImplementedError, match="second order through ctc_loss"):
        ms.grad(lambda z: first(z).sum())(x)
