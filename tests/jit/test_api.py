"""MindSpore's graph-mode API: jit's forms, GRAPH_MODE, set_inputs, and the helpers."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.dataset import NumpySlicesDataset


def T(seed, shape=(4, 3)):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_the_forms_of_jit():
    def f(x):
        return x * 2

    for compiled in (ms.jit(f), ms.jit()(f), ms.jit(capture_mode='bytecode', jit_level='O1')(f),
                     ms.jit(f, mode='PSJit', input_signature=None, jit_config=ms.JitConfig()),
                     ms.ms_function(f), ms.common.api.jit(f)):
        np.testing.assert_array_equal(compiled(T(0)).asnumpy(), T(0).asnumpy() * 2)
        compiled(T(1))
        assert compiled.replays == 1 and compiled.__name__ == 'f'


def test_a_jitted_method_and_construct():
    class Net(nn.Cell):
        def __init__(self, k):
            super().__init__()
            self.fc = nn.Dense(3, 2)
            self.k = k

        @ms.jit
        def construct(self, x):
            return self.fc(x) * self.k

    ms.set_seed(0)
    a, b = Net(1.0), Net(3.0)
    for i in range(2):
        for net in (a, b):
            np.testing.assert_array_equal(net(T(i)).asnumpy(),
                                          (net.fc(T(i)) * net.k).asnumpy())
    assert Net.construct.traces == 2 and Net.construct.replays == 2


def test_jit_of_a_cell_and_a_tutorial_training_step():
    ms.set_seed(0)
    model = nn.SequentialCell([nn.Dense(3, 8), nn.ReLU(), nn.Dense(8, 4)])
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 0.1)

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    labels = ms.Tensor(np.array([0, 1, 2, 3], np.int32))
    losses = [train_step(T(0), labels).item() for _ in range(20)]
    assert losses[-1] < losses[0] * 0.8 and train_step.replays == 19
    compiled = ms.jit(model)
    np.testing.assert_array_equal(compiled(T(5)).asnumpy(), model(T(5)).asnumpy())


def test_model_train_in_graph_mode_equals_pynative():
    def run():
        ms.set_seed(1)
        net = nn.SequentialCell([nn.Dense(4, 16), nn.BatchNorm1d(16), nn.ReLU(),
                                 nn.Dropout(p=0.2), nn.Dense(16, 3)])
        rng = np.random.default_rng(0)
        ds = NumpySlicesDataset({'x': rng.standard_normal((64, 4)).astype(np.float32),
                                 'y': rng.integers(0, 3, 64).astype(np.int32)},
                                shuffle=False).batch(16)
        model = ms.Model(net, nn.CrossEntropyLoss(), nn.Adam(net.trainable_params(), 0.01),
                         metrics={'acc': nn.Accuracy()})
        history = ms.History()
        model.train(3, ds, callbacks=[history])
        return history.history['net_output'], model.eval(ds), list(net.get_parameters())

    eager = run()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        graph = run()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert graph[0] == eager[0] and graph[1] == eager[1]
    for a, b in zip(graph[2], eager[2]):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_graph_mode_runs_top_level_cell_calls_as_programs(graph_mode):
    inner = nn.Dense(3, 3)
    net = nn.SequentialCell([inner, nn.ReLU()])
    for i in range(3):
        net(T(i))
    assert net.__dict__['_graph'].replays == 2 and '_graph' not in inner.__dict__
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net(T(4))
    assert net.__dict__['_graph'].replays == 2


def test_set_inputs_checks_every_graph_mode_call(graph_mode):
    net = nn.Dense(3, 2)
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32))
    assert net.get_inputs()[0].shape == (0, 3)
    for n in (2, 5, 2):
        assert net(T(0, (n, 3))).shape == (n, 2)
    assert net.__dict__['_graph'].traces == 2 and net.__dict__['_graph'].replays == 1
    with pytest.raises(ValueError, match=r"Cell 'Dense' \(set_inputs\): input 0 of shape \(2, 4\) "
                                         r"and dtype Float32 does not fit the declared shape "
                                         r"\(-1, 3\) and dtype Float32"):
        net(T(0, (2, 4)))


def test_set_inputs_of_any_rank(graph_mode):
    # MindSpore 2.10: Tensor(shape=None, dtype=...) declares an input of any rank (its shape
    # reads (-2,)); a call of another dtype is a TypeError, a shape off a fixed one a ValueError
    class Flat(nn.Cell):
        def construct(self, x):
            return ms.mint.flatten(x) * 2

    net = Flat()
    net.set_inputs(ms.Tensor(shape=None, dtype=ms.float32))
    assert net(T(0, (2, 3))).shape == (6,) and net(T(0, (2, 3, 4))).shape == (24,)
    with pytest.raises(TypeError, match=r"Cell 'Flat' \(set_inputs\): input 0 of shape \(2, 3\) "
                                        r"and dtype Int32 does not fit the declared shape \(-2,\) "
                                        r"and dtype Float32"):
        net(ms.Tensor(np.ones((2, 3), np.int32)))
    net.set_inputs(ms.Tensor(dtype=ms.float32))     # no shape at all: any rank as well
    assert net(T(0, (5,))).shape == (5,)
    fixed = Flat()
    fixed.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(TypeError, match=r"dtype Int32 does not fit the declared shape \(-1, 3\)"):
        fixed(ms.Tensor(np.ones((2, 3), np.int32)))


def test_set_inputs_takes_constant_arguments_too(graph_mode):
    # MindSpore 2.10 accepts any value besides the Tensors: constant arguments, not checked
    class Scaled(nn.Cell):
        def construct(self, x, begin, factor):
            return x[begin[0]:] * factor

    net = Scaled()
    net.set_inputs(ms.Tensor(shape=[None], dtype=ms.float32), (1,), 2.0)
    assert net(T(0, (4,)), (1,), 2.0).shape == (3,)
    with pytest.raises(ValueError, match=r"Cell 'Scaled' \(set_inputs\): input 0 of shape "
                                         r"\(2, 2\)"):
        net(T(0, (2, 2)), (1,), 2.0)


def test_set_inputs_declares_tensors_inside_tuples(graph_mode):
    class Pairs(nn.Cell):
        def construct(self, xs, y):
            return xs[0][0] + xs[1] + y

    net = Pairs()
    # MindSpore 2.10 accepts nested tuples of Tensors in set_inputs
    net.set_inputs(((ms.Tensor(shape=[None], dtype=ms.float32),),
                    ms.Tensor(shape=[None], dtype=ms.float32)),
                   ms.Tensor(shape=[None], dtype=ms.float32))
    out = net(((T(1, (2,)),), T(2, (2,))), T(3, (2,)))
    np.testing.assert_array_equal(out.asnumpy(), T(1, (2,)).asnumpy() + T(2, (2,)).asnumpy() +
                                  T(3, (2,)).asnumpy())
    with pytest.raises(ValueError, match="input 1 of shape \\(2, 2\\)"):
        net(((T(1, (2,)),), T(2, (2, 2))), T(3, (2,)))


def test_jit_input_signature():
    f = ms.jit(lambda x: x + 1, input_signature=(ms.Tensor(shape=[2, None], dtype=ms.float32),))
    assert f(T(0, (2, 7))).shape == (2, 7)
    with pytest.raises(ValueError, match=r"input 0 of shape \(3, 7\) and dtype Float32 does not "
                                         r"fit the declared shape \(2, -1\)"):
        f(T(0, (3, 7)))
    with pytest.raises(TypeError, match="input_signature must hold Tensors, got int"):
        ms.jit(lambda x: x, input_signature=(3,))


def test_tensor_from_a_shape():
    t = ms.Tensor(shape=(2, 3), dtype=ms.float32, init='ones')
    assert t.asnumpy().tolist() == [[1.0] * 3] * 2
    assert ms.Tensor(shape=(2,), dtype=ms.int32).asnumpy().tolist() == [0, 0]
    with pytest.raises(TypeError, match="needs a dtype"):
        ms.Tensor(shape=(2,))
    with pytest.raises(TypeError, match="input_data is required"):
        ms.Tensor(shape=None)
    with pytest.raises(ValueError, match="init needs a shape, got shape=None"):
        ms.Tensor(dtype=ms.float32, init='ones')
    with pytest.raises(ValueError, match="init needs a shape without None dimensions"):
        ms.Tensor(shape=(None, 2), dtype=ms.float32, init='ones')
    with pytest.raises(TypeError, match="give either input_data or shape"):
        ms.Tensor([1.0], shape=(1,))


def test_jit_class_jit_config_mutable_constexpr():
    @ms.jit_class
    class Scale:
        def __init__(self, k):
            self.k = k

    s = Scale(3.0)
    f = ms.jit(lambda x: x * s.k)
    np.testing.assert_array_equal(f(T(0)).asnumpy(), T(0).asnumpy() * 3)
    with pytest.raises(TypeError, match="jit_class: expected a class, got int"):
        ms.jit_class(3)
    config = ms.JitConfig(jit_level='O1', exc_mode='auto')
    assert config.options['jit_level'] == 'O1'
    net = nn.Dense(2, 2)
    net.set_jit_config(config)
    assert net.jit_config is config
    with pytest.raises(TypeError, match="JitConfig: jit_level must be a str, got int"):
        ms.JitConfig(jit_level=1)
    values = (T(0), T(1))
    assert ms.mutable(values) is values and ms.mutable(2) == 2
    with pytest.raises(TypeError, match="dynamic_len must be a bool"):
        ms.mutable([T(0)], dynamic_len=1)

    @ms.constexpr
    def half(n):
        return n // 2
    assert half(7) == 3 and ms.constexpr()(abs)(-2) == 2


def test_depend_partial_and_the_multitype_helpers():
    x = T(0)
    assert ops.depend(x, T(1)) is x
    add3 = ops.partial(ops.add, 3.0)
    np.testing.assert_array_equal(add3(x).asnumpy(), x.asnumpy() + 3)
    with pytest.raises(TypeError, match="func must be callable, got int"):
        ops.partial(3)

    scale = ops.MultitypeFuncGraph('scale')

    @scale.register("Number", "Tensor")
    def _(k, t):
        return t * k

    @scale.register("Tensor", "Tensor")
    def _(k, t):
        return t * k * 10

    assert scale(2, ms.Tensor([1.0])).asnumpy().tolist() == [2.0]
    assert scale(ms.Tensor([2.0]), ms.Tensor([1.0])).asnumpy().tolist() == [20.0]
    with pytest.raises(ValueError, match=r"MultitypeFuncGraph 'scale': no overload for arguments "
                                         r"\(str, int\); registered: Number, Tensor; Tensor, "
                                         r"Tensor"):
        scale('a', 1)
    with pytest.raises(ValueError, match="unknown type 'Vector'"):
        scale.register('Vector')
    typed = ops.MultitypeFuncGraph('typed')
    typed.register(ms.float32)(lambda t: 'f32')
    assert typed(ms.Tensor([1.0])) == 'f32'

    hyper = ops.HyperMap()
    assert hyper(lambda a, b: a + b, (1, (2, 3)), (10, (20, 30))) == (11, (22, 33))
    assert ops.HyperMap(lambda a, k: a * k)((1, 2), 3) == (3, 6)
    assert ops.Map()(len, ((1, 2), (3,))) == (2, 1)
    with pytest.raises(ValueError, match=r"HyperMap: sequences of different lengths \[2, 1\]"):
        hyper(lambda a, b: a, (1, 2), (3,))


def test_a_mindspore_style_optimizer_under_jit():
    _momentum = ops.MultitypeFuncGraph('momentum')

    @_momentum.register("Number", "Number", "Tensor", "Tensor", "Tensor")
    def _(lr, mu, param, moment, grad):
        ops.assign(moment, moment * mu + grad)
        ops.assign(param, param - lr * moment)
        return param

    class Momentum(nn.Cell):
        def __init__(self, params):
            super().__init__(auto_prefix=False)
            self.params = ms.ParameterTuple(params)
            self.moments = self.params.clone(prefix='moment', init='zeros')
            self.hyper_map = ops.HyperMap()

        def construct(self, grads):
            return self.hyper_map(ops.partial(_momentum, 0.1, 0.9), self.params,
                                  self.moments, grads)

    def train(compiled):
        ms.set_seed(0)
        net = nn.Dense(3, 2)
        opt = Momentum(net.trainable_params())
        grad_fn = ms.value_and_grad(lambda x: ops.sum(net(x) ** 2), None, opt.params)

        def step(x):
            loss, grads = grad_fn(x)
            opt(grads)
            return loss
        step = ms.jit(step) if compiled else step
        return [step(T(i)).asnumpy() for i in range(4)] + [net.weight.asnumpy().copy()]

    for a, b in zip(train(True), train(False)):
        np.testing.assert_array_equal(a, b)
