"""Float16 safety of normalization and loss ops: statistics and reductions accumulate in
float32, results and gradients come back in float16, against float64 references and
PyTorch's values (torch 2.x on the CPU, computed once and written here; its float16
gradients are less accurate than these, so they bound the error rather than match)."""
import numpy as np

import hookgrad as ms
from hookgrad import nn, ops, Tensor

K = np.arange(16).reshape(2, 8)
LN_X = (1e4 + 8 * ((K * 5) % 7) - 16).astype(np.float16)          # exact float16 values
LN_G = np.sin(np.arange(16)).reshape(2, 8).astype(np.float16)
# torch.nn.functional.layer_norm(x, (8,)) in float16, and x.grad for the cotangent LN_G
TORCH_LN_Y = [[-1.2392578125, 1.12109375, 0.1771240234375, -0.767578125, 1.59375, 0.6494140625,
               -0.295166015625, -1.2392578125],
              [0.8818359375, -0.1259765625, -1.1337890625, 1.3857421875, 0.3779296875,
               -0.6298828125, -1.6376953125, 0.8818359375]]
TORCH_LN_GX = [[-0.021453857421875, 0.057159423828125, 0.049560546875, -0.0073394775390625,
                -0.0313720703125, -0.054901123046875, -0.0263671875, 0.017333984375],
               [0.061676025390625, 0.01507568359375, -0.055389404296875, -0.058502197265625,
                -0.03955078125, 0.01045989990234375, 0.036163330078125, 0.040313720703125]]
BN_X = (1e4 + 8 * ((np.arange(12).reshape(4, 3) * 5) % 7)).astype(np.float16)
BN_G = np.cos(np.arange(12)).reshape(4, 3).astype(np.float16)
# PyTorch's float16 CPU batch_norm(training=True) is off here (column 0, x = 1e4 + [0, 8, 16,
# 24], gives [-1.789, -0.8945, 0, 0.8945] for the exact [-1.342, -0.447, 0.447, 1.342]): only
# the float64 reference is used


def value_and_input_grad(fn, x, g):
    y = None

    def run(x):
        nonlocal y
        y = fn(x)
        return (y * Tensor(g)).sum()

    gx = ms.grad(run)(Tensor(x))
    return y, gx


def reference(fn, x, g):
    """The same op on the float16 values widened to float64 (its float64 gradient is
    checked against finite differences in tests/ops)."""
    y, gx = value_and_input_grad(fn, x.astype(np.float64), g.astype(np.float64))
    return y.asnumpy(), gx.asnumpy()


def check(fn, x, g, torch_y, torch_gx):
    y, gx = value_and_input_grad(fn, x, g)
    assert y.dtype == ms.float16 and gx.dtype == ms.float16
    ref_y, ref_gx = reference(fn, x, g)
    np.testing.assert_allclose(y.asnumpy(), ref_y, rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(gx.asnumpy(), ref_gx, rtol=1e-2, atol=2e-4)
    if torch_y is None:
        return
    np.testing.assert_allclose(y.asnumpy(), np.array(torch_y, np.float16), rtol=2e-3, atol=2e-3)
    # PyTorch's float16 CPU gradients are further from float64 than these
    err = np.abs(gx.asnumpy() - ref_gx).max()
    assert err <= np.abs(np.array(torch_gx) - ref_gx).max() + 1e-6
    np.testing.assert_allclose(gx.asnumpy(), np.array(torch_gx, np.float16), atol=5e-3)


def test_layer_norm_near_1e4():
    check(lambda x: ops.layer_norm(x, (8,)), LN_X, LN_G, TORCH_LN_Y, TORCH_LN_GX)


def test_layer_norm_cell_with_float32_parameters():
    ln = nn.LayerNorm((8,))
    check(ln, LN_X, LN_G, TORCH_LN_Y, TORCH_LN_GX)
    w = ms.grad(lambda x: (ln(x) * Tensor(LN_G)).sum(), None, ln.trainable_params())(
        Tensor(LN_X))
    assert [t.dtype for t in w] == [ms.float32, ms.float32] and np.isfinite(w[0].asnumpy()).all()


def test_batch_norm_training_near_1e4():
    def bn(x):
        mean = ms.Parameter(Tensor(np.zeros(3, x.asnumpy().dtype)), name='m')
        var = ms.Parameter(Tensor(np.ones(3, x.asnumpy().dtype)), name='v')
        w = Tensor(np.ones(3, np.float32))
        b = Tensor(np.zeros(3, np.float32))
        y = ops.batch_norm(x, mean, var, w, b, training=True)
        assert np.isfinite(mean.asnumpy()).all() and mean.dtype == x.dtype
        return y
    check(bn, BN_X, BN_G, None, None)
    y, _ = value_and_input_grad(bn, BN_X, BN_G)
    np.testing.assert_allclose(y.asnumpy()[:, 0], [-1.3416, -0.4472, 0.4472, 1.3416], atol=1e-3)


def test_batch_norm_predict_float16():
    x = Tensor(BN_X)
    mean, var = Tensor(np.full(3, 1e4, np.float16)), Tensor(np.full(3, 400.0, np.float16))
    y = ops.batch_norm(x, mean, var, Tensor(np.ones(3, np.float16)),
                       Tensor(np.zeros(3, np.float16)))
    ref = (BN_X.astype(np.float64) - 1e4) / np.sqrt(400.0 + 1e-5)
    assert y.dtype == ms.float16
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=2e-3, atol=1e-3)


LOGITS = np.array([1e4, -1e4, 2e4, -3e4, 5e3, -1e4, 1e4, 3e4], np.float16)
TARGETS = np.array([0, 1, 0, 1, 1, 0, 0, 1], np.float16)


def test_bce_with_logits_at_1e4():
    loss_fn = lambda x: ops.binary_cross_entropy_with_logits(x, Tensor(TARGETS))  # noqa: E731
    loss = loss_fn(Tensor(LOGITS))
    # torch: binary_cross_entropy_with_logits in float16 gives 10000. and x.grad
    assert loss.dtype == ms.float16 and float(loss.asnumpy()) == 10000.0
    gx = ms.grad(loss_fn)(Tensor(LOGITS))
    np.testing.assert_array_equal(gx.asnumpy(), np.array(
        [0.125, -0.125, 0.125, -0.125, 0.0, 0.0, 0.125, 0.0], np.float16))
    x64 = LOGITS.astype(np.float64)
    ref = np.mean((1 - TARGETS) * x64 + np.logaddexp(0, -x64))
    assert abs(float(loss.asnumpy()) - ref) <= 8                # one float16 step at 1e4


def test_cross_entropy_mean_of_large_losses():
    logits = np.array([[1e4, -1e4, 0], [-2e4, 3e4, 1e4]], np.float16)
    labels = Tensor(np.array([1, 0], np.int32))
    loss = ops.cross_entropy(Tensor(logits), labels)
    # per sample 2e4 and 5e4: their float16 sum overflows, the float32 one does not
    assert loss.dtype == ms.float16 and float(loss.asnumpy()) == 35008.0
    gx = ms.grad(lambda x: ops.cross_entropy(x, labels))(Tensor(logits))
    assert gx.dtype == ms.float16
    np.testing.assert_array_equal(gx.asnumpy(), np.array([[0.5, -0.5, 0], [-0.5, 0.5, 0]],
                                                         np.float16))
    # a sum past float16's range is inf, as in PyTorch
    with np.errstate(over='raise'):
        assert np.isinf(ops.cross_entropy(Tensor(logits), labels, reduction='sum').asnumpy())


def test_float32_paths_are_unchanged():
    """Float32 keeps its own algorithm, bit for bit (a NumPy copy of it here)."""
    x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
    rows = x - x.sum(axis=1, keepdims=True) / 8
    rstd = (1 / np.sqrt(np.einsum('rm,rm->r', rows, rows) / 8 + 1e-5))[:, None]
    np.testing.assert_array_equal(ops.layer_norm(Tensor(x), (8,)).asnumpy(), rows * rstd)
    t = np.full((2, 8), 0.3, np.float32)
    loss = (1 - t) * x + (np.maximum(-x, 0) + np.log1p(np.exp(-np.abs(x))))
    got = ops.binary_cross_entropy_with_logits(Tensor(x), Tensor(t))
    assert got.dtype == ms.float32
    np.testing.assert_array_equal(got.asnumpy(), np.asarray(loss.sum() / 16, np.float32))


def test_instance_and_group_norm_near_1e4_stay_finite_and_accurate():
    x64 = (1e4 + np.random.default_rng(0).standard_normal((4, 6, 5, 5)) * 10)
    x64 = x64.astype(np.float16).astype(np.float64)
    for make in (lambda: nn.InstanceNorm2d(6), lambda: nn.GroupNorm(3, 6)):
        half, full = make(), make()
        half.to_float(ms.float16)
        half.set_train(True)
        full.set_train(True)
        y16 = half(ms.Tensor(x64.astype(np.float16)))
        y64 = full(ms.Tensor(x64))
        assert y16.dtype == ms.float16
        np.testing.assert_allclose(y16.asnumpy().astype(np.float64), y64.asnumpy(), atol=5e-3)
        if isinstance(half, nn.InstanceNorm2d):     # running statistics kept in float32
            np.testing.assert_allclose(half.moving_mean.asnumpy(), full.moving_mean.asnumpy(),
                                       rtol=1e-6)
            assert np.isfinite(half.moving_variance.asnumpy()).all()
