"""Initializers and random ops on the GPU follow ``ms.set_seed``.

The contract: values are drawn on the host by hookgrad's one seeded generator and uploaded, so
the same seed gives the same values run after run, and the GPU's values equal the CPU's exactly;
the tensors are created on the GPU (the default device), and making them reads nothing back.
"""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.common import initializer as init
from hookgrad.ops import operations as P

from .common import GPU, Reads, assert_on_gpu, assert_reads, both, host, on

INITIALIZERS = {
    'Normal': (init.Normal(0.5, 1.0), (6, 4)),
    'Uniform': (init.Uniform(0.3), (6, 4)),
    'TruncatedNormal': (init.TruncatedNormal(0.2), (6, 4)),
    'XavierUniform': (init.XavierUniform(), (6, 4, 3, 3)),
    'XavierNormal': (init.XavierNormal(2.0), (6, 4)),
    'HeUniform': (init.HeUniform(), (6, 4, 3, 3)),
    'HeNormal': (init.HeNormal(mode='fan_out'), (6, 4)),
    'Orthogonal': (init.Orthogonal(), (6, 4)),
    'Sparse': (init.Sparse(0.5), (6, 4)),
    'VarianceScaling': (init.VarianceScaling(2.0, 'fan_avg', 'untruncated_normal'), (6, 4)),
    'Identity': (init.Identity(), (4, 4)),
    'Dirac': (init.Dirac(), (4, 2, 3, 3)),
    'Constant': (init.Constant(0.25), (3,)),
    'One': ('ones', (2, 3)),
    'Zero': ('zeros', (2, 3)),
    'normal-by-name': ('normal', (5,)),
}


def created(make):
    """``make()``'s tensors, made twice from the same seed, and the reads of the first time."""
    ms.set_seed(11)
    with Reads() as r:
        first = make()
    ms.set_seed(11)
    again = make()
    first = first if isinstance(first, (list, tuple)) else [first]
    again = again if isinstance(again, (list, tuple)) else [again]
    return first, [host(t) for t in again], r


def check_seeded(make, reads=0):
    """The GPU's tensors: on the GPU, equal to the CPU's exactly, repeating with the seed."""
    (cpu, _, _), (gpu, again, r) = both(lambda: created(make))
    assert_on_gpu(*gpu)
    assert len(gpu) == len(cpu)
    for g, c, a in zip(gpu, cpu, again):
        assert g.dtype == c.dtype and g.shape == c.shape
        np.testing.assert_array_equal(g.asnumpy(), c.asnumpy())
        np.testing.assert_array_equal(g.asnumpy(), a)
    assert_reads(r, reads)
    return gpu


@pytest.mark.parametrize('name', sorted(INITIALIZERS))
def test_initializers_make_the_cpus_values_on_the_gpu(name):
    rule, shape = INITIALIZERS[name]
    (t,) = check_seeded(lambda: init.initializer(rule, shape, ms.float32))
    if name in ('Normal', 'XavierUniform', 'HeUniform'):
        assert np.unique(t.asnumpy()).size == t.size        # random, not a constant


def test_an_initializer_fills_a_device_array_in_place():
    def run():
        t = ms.ops.zeros((8, 3), ms.float32)
        data = t._data
        init.HeNormal()(data)
        assert t._data is data
        return t
    (t,) = check_seeded(run)
    assert t.asnumpy().std() > 0
    with pytest.raises(TypeError, match="expected a NumPy array to fill, got list"):
        init.Normal()([1.0, 2.0])


def test_parameters_of_layers_are_initialized_on_the_gpu_as_on_the_cpu():
    def layers():
        cells = [nn.Dense(4, 3), nn.Conv2d(2, 3, 3, has_bias=True), nn.Embedding(5, 3,
                                                                                 padding_idx=1),
                 nn.LSTM(3, 4), nn.MultiheadAttention(4, 2), nn.BatchNorm2d(3),
                 nn.Dense(4, 3, weight_init='xavier_normal', bias_init='normal')]
        return [p for c in cells for p in c.get_parameters()]
    params = check_seeded(layers)
    assert len(params) > 15
    assert all(isinstance(p, ms.Parameter) for p in params)
    with on(GPU):
        assert_on_gpu(ms.Tensor(shape=(2, 3), dtype=ms.float32, init='he_uniform'),
                      ms.Parameter(init.initializer('normal', (3,)), name='w'),
                      nn.Dense(2, 2).weight.clone(init='normal'))


def twice(primitive, *args):
    return [primitive(*args), primitive(*args)]


RANDOM_OPS = {
    'rand': lambda: ops.rand(3, 4),
    'randn': lambda: ops.randn(3, 4, dtype=ms.float64),
    'randint': lambda: ops.randint(0, 10, (3, 4)),
    'rand_like': lambda: ops.rand_like(ops.ones((2, 5))),
    'randn_like': lambda: ops.randn_like(ops.ones((2, 5), ms.float16)),
    'randint_like': lambda: ops.randint_like(ops.ones((2, 5), ms.int32), 2, 9),
    'uniform': lambda: ops.uniform((3, 4), ms.Tensor(-1.0), ms.Tensor(2.0)),
    'normal': lambda: ops.normal((3, 4), ms.Tensor(1.0), ms.Tensor(0.5)),
    'multinomial': lambda: ops.multinomial(ms.Tensor(np.ones((2, 6), np.float32)), 4),
    'multinomial-no-replacement': lambda: ops.multinomial(
        ms.Tensor(np.arange(1.0, 7.0, dtype=np.float32)), 3, replacement=False),
    'dropout': lambda: ops.dropout(ops.ones((4, 5)), p=0.4),
    'dropout2d': lambda: ops.dropout2d(ops.ones((2, 3, 2, 2)), p=0.5),
    'nn.Dropout': lambda: nn.Dropout(p=0.5).set_train()(ops.ones((4, 5))),
    'seeded rand': lambda: [ops.rand(2, 2, seed=5), ops.rand(2, 2, seed=5)],
    'UniformReal': lambda: twice(P.UniformReal(seed=2), (2, 3)),
    'StandardNormal': lambda: twice(P.StandardNormal(seed=3, seed2=1), (2, 3)),
    'Dropout': lambda: P.Dropout(keep_prob=0.6)(ops.ones((3, 4))),
    'choice_with_mask': lambda: ops.choice_with_mask(
        ms.Tensor(np.array([[True, False, True], [True, True, False]])), count=4),
    'RandomChoiceWithMask': lambda: P.RandomChoiceWithMask(count=3, seed=1)(
        ms.Tensor(np.array([True, False, True, True]))),
}


@pytest.mark.parametrize('name', sorted(RANDOM_OPS))
def test_random_ops_draw_the_cpus_values_on_the_gpu(name):
    tensors = check_seeded(RANDOM_OPS[name])
    if name == 'seeded rand':           # an explicit seed: the same draw on every call
        np.testing.assert_array_equal(tensors[0].asnumpy(), tensors[1].asnumpy())
    if name in ('UniformReal', 'StandardNormal'):   # a Primitive continues its own sequence
        assert not np.array_equal(tensors[0].asnumpy(), tensors[1].asnumpy())


def test_uniform_integers_read_their_bounds_on_the_host():
    """An integer uniform draw is made on the host from its bounds: device bounds are read."""
    check_seeded(lambda: ops.uniform((3, 4), ms.Tensor(2, ms.int32), ms.Tensor(9, ms.int32),
                                     dtype=ms.int32), reads=2)
    check_seeded(lambda: P.UniformInt(seed=4)((3, 4), ms.Tensor(1, ms.int32),
                                               ms.Tensor(5, ms.int32)), reads=2)


def test_dropout_gradients_on_the_gpu_equal_the_cpus():
    def run():
        x = ms.Tensor(np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5))
        drop = nn.Dropout(p=0.3).set_train()
        with Reads() as r:
            grad = ms.grad(lambda x: (drop(x) * x).sum())(x)
        return grad, r
    (cpu, _), (gpu, reads) = both(run)
    assert_on_gpu(gpu)
    np.testing.assert_array_equal(gpu.asnumpy(), cpu.asnumpy())
    assert (gpu.asnumpy() == 0).any() and (gpu.asnumpy() != 0).any()
    assert_reads(reads, 0)
