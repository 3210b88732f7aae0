"""bfloat16 tensors: storage, printing and promotion as MindSpore 2.10 gives them, and
arithmetic that accumulates in float32.

The printed forms, promotions and casts below are MindSpore 2.10's own output on the CPU.
"""
import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import Tensor, nn, ops

BF16 = np.dtype(ml_dtypes.bfloat16)


def test_a_tensor_holds_bfloat16_and_hands_it_back():
    t = Tensor([1.0, 2.5, 3.14159, 1e-3], ms.bfloat16)
    assert t.dtype == ms.bfloat16 and str(t.dtype) == 'BFloat16'
    a = t.asnumpy()
    assert a.dtype == BF16
    assert a.astype(np.float32).tolist() == [1.0, 2.5, 3.140625, 0.0009994506835937500]
    assert Tensor([1.3], ms.bfloat16).item() == 1.296875
    assert Tensor([0.3, 0.7, -1.2], ms.bfloat16).tolist() == [0.30078125, 0.69921875, -1.203125]
    assert Tensor(a).dtype == ms.bfloat16
    assert Tensor([1.5, 2.0], ms.float32).bfloat16().dtype == ms.bfloat16
    assert Tensor([1.5], ms.float16).astype('bfloat16').dtype == ms.bfloat16
    assert ms.dtype_to_nptype(ms.bfloat16) is ml_dtypes.bfloat16
    assert ms.pytype_to_dtype(ml_dtypes.bfloat16) == ms.bfloat16


def test_printing_matches_mindspore():
    t = Tensor([1.0, 2.5, 3.14159, 1e-3], ms.bfloat16)
    assert repr(t) == ('Tensor(shape=[4], dtype=BFloat16, value= [          1,         2.5,'
                       '     3.14062, 0.000999451])')
    assert str(t) == '[1.000000 2.500000 3.140625 0.000999]'
    b = Tensor([float('nan'), float('inf'), -float('inf'), -0.5, 1e-8, 123456.0], ms.bfloat16)
    assert repr(b) == ('Tensor(shape=[6], dtype=BFloat16, value= [        nan,         inf,'
                       '        -inf,        -0.5, 1.00117e-08,      123392])')
    assert str(b) == '[nan inf -inf -0.500000 0.000000 123392.000000]'
    m = Tensor(np.arange(12).reshape(3, 4) / 7, ms.bfloat16)
    assert repr(m) == ('Tensor(shape=[3, 4], dtype=BFloat16, value=\n'
                       '[[       0, 0.142578, 0.285156, 0.427734],\n'
                       ' [0.570312, 0.714844, 0.855469,        1],\n'
                       ' [ 1.14062,  1.28906,  1.42969,  1.57031]])')
    assert repr(Tensor(-2.5, ms.bfloat16)) == 'Tensor(shape=[], dtype=BFloat16, value= -2.5)'
    assert str(Tensor(2.0, ms.bfloat16)) == '2.000000'
    long = repr(Tensor(np.arange(30) / 7 - 2, ms.bfloat16))
    assert long.endswith('  1.28906, \n   1.42969,   1.57031,   1.71094,   1.85938,         2,'
                         '   2.14062])')          # 24 values a line, as integers
    assert repr(Tensor(np.arange(3000) / 7, ms.bfloat16)) == (
        'Tensor(shape=[3000], dtype=BFloat16, value= [       0, 0.142578, 0.285156 ...      428,'
        '      428,      428])')


@pytest.mark.parametrize('other,want', [
    (Tensor([1.0], ms.float16), ms.float32), (Tensor([1.0], ms.float32), ms.float32),
    (Tensor([1.0], ms.float64), ms.float64), (Tensor([1], ms.int64), ms.bfloat16),
    (Tensor([True]), ms.bfloat16), (1.5, ms.bfloat16), (2, ms.bfloat16)])
def test_promotion_matches_mindspore(other, want):
    x = Tensor([0.3, 0.7, -1.2], ms.bfloat16)
    assert (x + other).dtype == want
    assert (other + x).dtype == want


def test_casts_match_mindspore():
    assert Tensor([1.7, -1.7, 300.6], ms.bfloat16).astype(ms.int32).tolist() == [1, -1, 300]
    x = Tensor([0.3, 0.7, -1.2], ms.bfloat16)
    assert x.astype(ms.float32).tolist() == [0.30078125, 0.69921875, -1.203125]
    assert ops.cast(x, ms.float16).asnumpy().tolist() == \
        np.array([0.30078125, 0.69921875, -1.203125], np.float16).tolist()


def test_sums_accumulate_in_float32():
    ones = Tensor(np.ones(100000), ms.bfloat16)
    # bfloat16's own additions would stop at 256; 100,000 rounds to 99,840 in bfloat16
    assert ones.sum().dtype == ms.bfloat16 and float(ones.sum()) == 99840.0
    assert float(ones.mean()) == 1.0
    assert float(ops.cumsum(Tensor(np.ones(1000), ms.bfloat16), 0)[-1]) == 1000.0
    bias = Tensor(np.zeros(3), ms.bfloat16)
    x = Tensor(np.ones((1000, 3)), ms.bfloat16)
    grad = ms.grad(lambda b: (x + b).sum())(bias)      # the broadcast gradient's sum
    assert grad.dtype == ms.bfloat16 and grad.tolist() == [1000.0] * 3


def test_products_and_convolutions_round_the_float32_result_once():
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(s).astype(BF16) for s in ((8, 64), (64, 5)))
    got = ops.matmul(Tensor(a), Tensor(b))
    assert got.dtype == ms.bfloat16
    want = (a.astype(np.float32) @ b.astype(np.float32)).astype(BF16)
    assert (got.asnumpy() == want).all()
    x, w = rng.standard_normal((2, 3, 6, 6)).astype(BF16), rng.standard_normal((4, 3, 3, 3))
    w = w.astype(BF16)
    y = ops.conv2d(Tensor(x), Tensor(w))
    want = ops.conv2d(Tensor(x.astype(np.float32)), Tensor(w.astype(np.float32))).asnumpy()
    assert y.dtype == ms.bfloat16
    np.testing.assert_array_equal(y.asnumpy(), want.astype(BF16))


def _net():
    ms.set_seed(1)
    return nn.SequentialCell(nn.Conv2d(1, 4, 3, pad_mode='valid'), nn.BatchNorm2d(4), nn.ReLU(),
                             nn.Flatten(), nn.Dense(4 * 6 * 6, 10))


def _train(net, params, steps=16):
    rng = np.random.default_rng(0)
    x = Tensor(rng.random((16, 1, 8, 8)).astype(np.float32))
    y = Tensor(rng.integers(0, 10, 16).astype(np.int32))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.Momentum(params, 0.05, 0.9)
    step = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    losses = []
    for _ in range(steps):
        loss, grads = step(x, y)
        opt(grads)
        losses.append(float(loss))
    return losses, grads


def _float32_losses():
    net = _net()
    return _train(net, net.trainable_params())[0]


def test_a_network_trains_in_bfloat16_with_bfloat16_parameters():
    net = _net().to_float(ms.bfloat16)
    for p in net.get_parameters():
        p.set_dtype(ms.bfloat16)
    losses, grads = _train(net, net.trainable_params())
    assert all(g.dtype == ms.bfloat16 for g in grads)
    assert all(p.dtype == ms.bfloat16 for p in net.get_parameters())
    reference = _float32_losses()
    assert losses[-1] < 0.85 * losses[0]
    np.testing.assert_allclose(losses, reference, rtol=0.05)


def test_amp_computes_in_bfloat16_with_float32_master_weights():
    net = _net()
    amp_net = ms.amp.auto_mixed_precision(net, 'O3', dtype=ms.bfloat16)
    assert net.get_flags()['bf16'] and str(net.get_mixed_precision_type()) == \
        'MixedPrecisionType.BF16'
    losses, grads = _train(amp_net, net.trainable_params())
    assert all(g.dtype == ms.float32 for g in grads)
    assert losses[-1] < 0.85 * losses[0]
    np.testing.assert_allclose(losses, _float32_losses(), rtol=0.03)


def test_ops_without_bfloat16_kernels_say_so():
    with pytest.raises(TypeError, match='BFloat16'):
        ops.lgamma(Tensor([1.5], ms.bfloat16))
    with pytest.raises(TypeError, match='BFloat16'):
        ops.inverse(Tensor(np.eye(2), ms.bfloat16))


def test_bfloat16_on_the_gpu_stand_in():
    from hookgrad.testing.cases import on_device
    with on_device('GPU'):
        x = Tensor(np.linspace(-1, 1, 6).reshape(2, 3), ms.bfloat16)
        w = Tensor(np.ones((3, 4)), ms.bfloat16)
        y = ops.softmax(ops.matmul(x, w))
        grad = ms.grad(lambda x: ops.matmul(x, w).sum())(x)
    assert y.device == 'GPU:0' and y.dtype == ms.bfloat16
    assert grad.dtype == ms.bfloat16 and grad.tolist() == [[4.0] * 3] * 2


@pytest.mark.parametrize('make', [lambda ps: nn.Adam(ps, 0.1), lambda ps: nn.Momentum(ps, 0.1, 0.9)])
def test_optimizers_update_bfloat16_parameters_alike_on_cpu_and_gpu(make):
    from hookgrad.testing.cases import on_device
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3))
    weights = []
    for device in ('CPU', 'GPU'):
        with on_device(device):
            ms.set_seed(0)
            net = nn.Dense(3, 2)
            for p in net.get_parameters():
                p.set_dtype(ms.bfloat16)
            opt = make(net.trainable_params())
            for _ in range(3):
                opt(ms.grad(lambda x: net(x).sum(), None, opt.parameters)(
                    Tensor(x, ms.bfloat16)))
        assert net.weight.dtype == ms.bfloat16 and net.weight.device.startswith(device)
        weights.append(net.weight.asnumpy())
    np.testing.assert_array_equal(weights[0], weights[1])
