"""The optimizer Primitives of ``_optimizer_more.py`` against MindSpore 2.10's recorded CPU
results (outputs and the Parameters updated in place), the ones its CPU lacks against NumPy,
and their constructor checks."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.ops import operations as P
from tests.ops.optimizer_primitives_more_inputs import CALLS, call

with open(os.path.join(os.path.dirname(__file__),
                       'optimizer_primitives_more_mindspore_values.json')) as f:
    RECORDED = json.load(f)

# MindSpore 2.10's CPU ApplyCenteredRMSProp returns a stale buffer as its output (the
# Parameters it writes hold the update); hookgrad returns the updated var
OUTPUT_NOT_COMPARED = {'ApplyCenteredRMSProp'}


def T(value, dtype='float32'):
    return ms.Tensor(np.array(value, dtype=np.dtype(dtype)))


def test_recorded_calls_are_in_the_table():
    assert set(RECORDED) <= set(CALLS)
    assert len(RECORDED) >= 14


@pytest.mark.parametrize('name', sorted(RECORDED))
def test_matches_mindspore(name):
    outs, params = call(name, ms, P)
    want = RECORDED[name]
    assert len(params) == len(want['parameters'])
    for got, values in zip(params, want['parameters']):
        np.testing.assert_allclose(got.asnumpy(), values, rtol=2e-6, atol=1e-7)
    if name in OUTPUT_NOT_COMPARED:
        np.testing.assert_array_equal(outs[0].asnumpy(), params[0].asnumpy())
        return
    assert len(outs) == len(want['outputs'])
    for got, values in zip(outs, want['outputs']):
        np.testing.assert_allclose(got.asnumpy(), values, rtol=2e-6, atol=1e-7)


# ---------------------------------------------------------------- lacking on MindSpore's CPU
@pytest.mark.parametrize('nesterov', [False, True])
def test_keras_momentum(nesterov):
    var0, acc0 = np.array([0.5, -1.0], np.float32), np.array([0.05, -0.1], np.float32)
    g = np.array([0.3, -0.2], np.float32)
    var, acc = ms.Parameter(T(var0)), ms.Parameter(T(acc0))
    P.ApplyKerasMomentum(use_nesterov=nesterov)(var, acc, 0.01, T(g), 0.9)
    new_acc = acc0 * 0.9 - g * 0.01
    step = new_acc * 0.9 - g * 0.01 if nesterov else new_acc
    np.testing.assert_allclose(acc.asnumpy(), new_acc, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), var0 + step, rtol=1e-6)


def test_sparse_proximal_adagrad_updates_only_the_rows():
    var0 = np.array([[0.5, -1.0], [2.0, 0.25], [1.0, -0.5]], np.float32)
    acc0 = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], np.float32)
    g = np.array([[0.3, -0.2], [-0.5, 0.1]], np.float32)
    var, acc = ms.Parameter(T(var0)), ms.Parameter(T(acc0))
    P.SparseApplyProximalAdagrad()(var, acc, 0.1, 0.05, 0.2, T(g), T([2, 0], 'int32'))
    want_acc, want_var = acc0.copy(), var0.copy()
    for row, grow in ((2, g[0]), (0, g[1])):
        want_acc[row] += grow ** 2
        rate = 0.1 / np.sqrt(want_acc[row])         # the per-element rate, as in MindSpore's
        prox = var0[row] - rate * grow              # dense kernel (recorded above)
        want_var[row] = (np.sign(prox) * np.maximum(np.abs(prox) - rate * 0.05, 0)
                         / (1 + rate * 0.2))
    np.testing.assert_allclose(acc.asnumpy(), want_acc, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), want_var, rtol=1e-6)


# --------------------------------------------------------------------------- checks
@pytest.mark.parametrize('make, error, message', [
    (lambda: P.ApplyKerasMomentum(use_nesterov=1), TypeError, 'use_nesterov must be a bool'),
    (lambda: P.ApplyCenteredRMSProp(use_locking=None), TypeError, 'use_locking must be a bool'),
    (lambda: P.ApplyAdamWithAmsgrad(beta1='a'), TypeError, 'beta1 must be a float'),
    (lambda: P.SparseApplyAdagrad(lr=None), TypeError, 'lr must be a float'),
    (lambda: P.SparseApplyAdagradV2(0.1, 1e-6, update_slots=0), TypeError,
     'update_slots must be a bool'),
    (lambda: P.SparseApplyFtrl(0.1, -1.0, 0.0, -0.5), ValueError, 'l1 and l2 >= 0'),
    (lambda: P.SparseApplyFtrl(0.1, 0.0, 0.0, 0.5), ValueError, 'lr_power <= 0'),
    (lambda: P.SparseApplyRMSProp(1.5, 0.5, 1e-6), ValueError, r'rho must be in \[0, 1\]'),
    (lambda: P.SparseApplyRMSProp(0.9, 0.5, 'a'), TypeError, 'epsilon must be a float'),
])
def test_constructor_checks(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_call_checks():
    with pytest.raises(TypeError, match='var must be a Parameter'):
        P.ApplyAdaMax()(np.zeros(2), T([0., 0.]), T([0., 0.]), 0.9, 0.01, 0.9, 0.99, 1e-8,
                        T([0., 0.]))
    var, acc = ms.Parameter(T(np.ones((3, 2)))), ms.Parameter(T(np.ones((3, 2))))
    with pytest.raises(ValueError, match="indices must be 1-D with grad's first dimension"):
        P.SparseApplyAdagrad(0.1)(var, acc, T(np.ones((2, 2))), T([0, 1, 2], 'int32'))


# MindSpore 2.10 CPU values for these inputs (repeated row 2 sums its gradients)
ADAM_GRAD = np.float32([[0.1, 0.2], [0.3, -0.4], [1.0, 2.0]])
ADAM_ROWS = np.int32([2, 0, 2])
ADAM_M = [[0.48, 0.40999997], [0.45, 0.45], [0.56, 0.6700001]]
ADAM_V = [[0.24984, 0.24991], [0.24975, 0.24975], [0.25096, 0.25458995]]


@pytest.mark.parametrize('nesterov,var', [
    (False, [[0.99696326, 0.9974065], [0.99715257, 0.99715257], [0.996465, 0.995801]]),
    (True, [[0.99707717, 0.99791884], [1.0, 1.0], [0.9961242, 0.99484205]]),
])
def test_fused_sparse_adam(nesterov, var):
    slots = [ms.Parameter(ms.Tensor(np.full((3, 2), x, np.float32)), name=n)
             for x, n in ((1.0, 'var'), (0.5, 'm'), (0.25, 'v'))]
    out = P.FusedSparseAdam(use_nesterov=nesterov)(*slots, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8,
                                                   ms.Tensor(ADAM_GRAD), ms.Tensor(ADAM_ROWS))
    assert all(o is p for o, p in zip(out, slots))
    for p, want in zip(slots, (var, ADAM_M, ADAM_V)):
        np.testing.assert_allclose(p.asnumpy(), np.float32(want), rtol=1e-6)


@pytest.mark.parametrize('args,error,message', [
    (dict(m=np.ones((3, 1), np.float32)), ValueError, r"var, m, v must have one shape"),
    (dict(indices=np.float32([0, 1, 2])), TypeError, r"indices must be an integer Tensor"),
    (dict(indices=np.int32(0)), ValueError, r"indices must be 1-D, got shape \(\)"),
    (dict(grad=np.ones((3, 3), np.float32)), ValueError,
     r"grad must have shape \(3,\) \+ var\.shape\[1:\] \(2,\), got \(3, 3\)"),
    (dict(grad=[np.ones((3, 2), np.float32)]), TypeError, r"grad must be a Tensor, got list"),
])
def test_fused_sparse_adam_checks(args, error, message):
    given = dict(var=np.ones((3, 2), np.float32), m=np.ones((3, 2), np.float32),
                 v=np.ones((3, 2), np.float32), grad=ADAM_GRAD, indices=ADAM_ROWS)
    given.update(args)
    t = {k: ([ms.Tensor(a) for a in x] if isinstance(x, list) else ms.Tensor(x))
         for k, x in given.items()}
    with pytest.raises(error, match=r"ops\.FusedSparseAdam: " + message):
        P.FusedSparseAdam()(t['var'], t['m'], t['v'], 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8,
                            t['grad'], t['indices'])


@pytest.mark.parametrize('nesterov,var', [
    (False, [[0.99696326, 0.9974065], [1.0, 1.0], [0.996465, 0.995801]]),
    (True, [[0.99707717, 0.99791884], [1.0, 1.0], [0.9961242, 0.99484205]]),
])
def test_fused_sparse_lazy_adam_touches_only_the_rows(nesterov, var):
    slots = [ms.Parameter(ms.Tensor(np.full((3, 2), x, np.float32)), name=n)
             for x, n in ((1.0, 'var'), (0.5, 'm'), (0.25, 'v'))]
    P.FusedSparseLazyAdam(use_nesterov=nesterov)(*slots, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8,
                                                 ms.Tensor(ADAM_GRAD), ms.Tensor(ADAM_ROWS))
    lazy_m = [ADAM_M[0], [0.5, 0.5], ADAM_M[2]]
    lazy_v = [ADAM_V[0], [0.25, 0.25], ADAM_V[2]]
    for p, want in zip(slots, (var, lazy_m, lazy_v)):
        np.testing.assert_allclose(p.asnumpy(), np.float32(want), rtol=1e-6)


def test_fused_sparse_ftrl():
    slots = [ms.Parameter(ms.Tensor(np.full((3, 2), x, np.float32)), name=n)
             for x, n in ((0.5, 'var'), (0.2, 'accum'), (0.3, 'linear'))]
    out = P.FusedSparseFtrl(lr=0.05, l1=0.01, l2=0.02, lr_power=-0.5)(
        *slots, ms.Tensor(ADAM_GRAD), ms.Tensor(ADAM_ROWS))
    assert all(o is p for o, p in zip(out, slots))
    want = ([[0.02803146, 0.13437411], [0.5, 0.5], [0.2518931, 0.34418884]],
            [[0.29000002, 0.36], [0.2, 0.2], [1.4100001, 5.04]],
            [[-0.3130293, -1.6278644], [0.3, 0.3], [-6.002206, -15.477808]])
    for p, w in zip(slots, want):
        np.testing.assert_allclose(p.asnumpy(), np.float32(w), rtol=1e-6)
    with pytest.raises(TypeError, match=r"ops\.FusedSparseFtrl: indices must be an integer"):
        P.FusedSparseFtrl(lr=0.05, l1=0.01, l2=0.02, lr_power=-0.5)(
            *slots, ms.Tensor(ADAM_GRAD), ms.Tensor(np.float32([0, 1, 2])))
    with pytest.raises(ValueError, match=r"ops\.FusedSparseFtrl: var, accum, linear must have "
                                         r"one shape"):
        P.FusedSparseFtrl(lr=0.05, l1=0.01, l2=0.02, lr_power=-0.5)(
            slots[0], slots[1], ms.Tensor(np.ones((3, 1), np.float32)), ms.Tensor(ADAM_GRAD),
            ms.Tensor(ADAM_ROWS))
