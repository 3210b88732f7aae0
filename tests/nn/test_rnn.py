"""RNN, LSTM, GRU and their cells: values against MindSpore 2.10 (parameters and inputs from the
``det`` formula), parameter names and shapes, seq_length, gradients against float64 finite
differences, hooks through an LSTM, and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad


def det(shape, k=0, dtype=np.float32):
    """sin(0.37 i + k) * 1.5 over the elements, in C order: the values fed to MindSpore."""
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + k) * 1.5).reshape(shape).astype(dtype)


def fill(net, dtype=np.float32):
    """Parameter i (in ``parameters_and_names`` order) set to ``det(shape, 10 + i) * 0.4``."""
    for i, (_, p) in enumerate(net.parameters_and_names()):
        p.set_data(ms.Tensor(det(p.shape, 10 + i, dtype) * 0.4))
    return net


def summary(t):
    """Shape, sum, sum of squares and a position-weighted sum (weights ``det(shape, 99)``)."""
    a = t.asnumpy().astype(np.float64)
    return a.shape, a.sum(), (a * a).sum(), (a * det(a.shape, 99, np.float64)).sum()


def check_summaries(outs, want):
    assert len(outs) == len(want)
    for t, (shape, *values) in zip(outs, want):
        got = summary(t)
        assert got[0] == shape
        np.testing.assert_allclose(got[1:], values, rtol=1e-5, atol=2e-5)


# (cell, kwargs, x shape, with hx, seq_length) and the summaries of (output, h_n[, c_n]):
# MindSpore 2.10's outputs for these inputs and parameters
CASES = [
    (('RNN', dict(input_size=3, hidden_size=4), (4, 2, 3), False, None),
     [((4, 2, 4), 5.070417, 20.120754, 5.028292), ((1, 2, 4), 1.092803, 4.011593, 2.134336)]),
    (('RNN', dict(input_size=3, hidden_size=4, num_layers=2, nonlinearity='relu'), (4, 2, 3), True,
      None),
     [((4, 2, 4), 14.643826, 23.223234, -2.370963), ((2, 2, 4), 6.999725, 9.60779, 0.676248)]),
    (('RNN', dict(input_size=3, hidden_size=4, bidirectional=True), (4, 3, 3), False, [4, 2, 1]),
     [((4, 3, 8), -4.935018, 37.920678, -3.309509), ((2, 3, 4), 0.173718, 15.572944, -4.519303)]),
    (('LSTM', dict(input_size=3, hidden_size=4), (4, 2, 3), False, None),
     [((4, 2, 4), -3.636685, 1.786194, -1.055043), ((1, 2, 4), -1.041813, 0.599778, -0.208083),
      ((1, 2, 4), -2.690469, 3.300188, -0.953523)]),
    (('LSTM', dict(input_size=3, hidden_size=4, num_layers=2, bidirectional=True,
                   batch_first=True), (2, 4, 3), True, None),
     [((2, 4, 8), -5.058224, 1.279123, 0.271415), ((4, 2, 4), -3.07222, 1.496638, -0.234369),
      ((4, 2, 4), -7.465733, 6.721827, -1.044811)]),
    (('LSTM', dict(input_size=3, hidden_size=4, bidirectional=True), (5, 3, 3), True, [5, 3, 2]),
     [((5, 3, 8), -8.943537, 6.476863, -0.884216), ((2, 3, 4), -2.465775, 1.337293, 1.496838),
      ((2, 3, 4), -4.169702, 2.92348, 2.754979)]),
    (('LSTM', dict(input_size=3, hidden_size=4, has_bias=False, num_layers=2), (3, 2, 3), False,
      [3, 1]),
     [((3, 2, 4), 0.103539, 0.052586, -0.022247), ((2, 2, 4), -0.580738, 0.412227, 0.72543),
      ((2, 2, 4), -1.061032, 1.259995, 1.599197)]),
    (('GRU', dict(input_size=3, hidden_size=4), (4, 2, 3), True, None),
     [((4, 2, 4), -1.067173, 7.099831, -1.719866), ((1, 2, 4), -0.273019, 1.999164, -1.504849)]),
    (('GRU', dict(input_size=3, hidden_size=4, num_layers=2, bidirectional=True, batch_first=True),
      (3, 4, 3), False, [4, 2, 3]),
     [((3, 4, 8), -16.420422, 9.877426, -0.012542), ((4, 3, 4), -4.011628, 7.659913, 0.541227)]),
    (('GRU', dict(input_size=3, hidden_size=4, has_bias=False), (4, 2, 3), False, None),
     [((4, 2, 4), 0.41256, 7.548363, -0.680426), ((1, 2, 4), 0.565431, 2.165578, -0.412926)]),
]

# (cell, kwargs) and the summaries of the outputs on x = det((2, 3), 1), h = det((2, 4), 2) / 2,
# c = det((2, 4), 3) / 2: MindSpore 2.10's outputs
CELL_CASES = [
    (('RNNCell', dict(input_size=3, hidden_size=4)),
     [((2, 4), -0.709508, 5.881969, 1.574816)]),
    (('RNNCell', dict(input_size=3, hidden_size=4, nonlinearity='relu', has_bias=False)),
     [((2, 4), 4.962541, 8.985755, -0.031189)]),
    (('LSTMCell', dict(input_size=3, hidden_size=4)),
     [((2, 4), -0.928281, 0.871869, -0.636245), ((2, 4), -2.39871, 3.057353, -2.080592)]),
    (('GRUCell', dict(input_size=3, hidden_size=4)),
     [((2, 4), 0.580609, 2.629363, -3.359712)]),
]


def run_case(cell, kw, shape, with_hx, lengths, dtype=np.float32):
    net = fill(getattr(nn, cell)(**kw, dtype=ms.float64 if dtype == np.float64 else ms.float32),
               dtype)
    x = ms.Tensor(det(shape, 1, dtype))
    d = 2 if kw.get('bidirectional') else 1
    batch = shape[0] if kw.get('batch_first') else shape[1]
    hshape = (d * kw.get('num_layers', 1), batch, kw['hidden_size'])
    hx = None
    if with_hx:
        hx = ms.Tensor(det(hshape, 2, dtype) * 0.5)
        if cell == 'LSTM':
            hx = (hx, ms.Tensor(det(hshape, 3, dtype) * 0.5))
    seq_length = None if lengths is None else ms.Tensor(np.array(lengths, np.int32))
    return net, net(x, hx, seq_length)


@pytest.mark.parametrize('case,want', CASES, ids=[c[0][0] for c in CASES])
def test_layers_match_mindspore(case, want):
    _, (out, h) = run_case(*case)
    check_summaries([out] + list(h if isinstance(h, tuple) else (h,)), want)


@pytest.mark.parametrize('case,want', CELL_CASES, ids=[c[0][0] for c in CELL_CASES])
def test_cells_match_mindspore(case, want):
    cell, kw = case
    net = fill(getattr(nn, cell)(**kw))
    h = ms.Tensor(det((2, 4), 2) * 0.5)
    hx = (h, ms.Tensor(det((2, 4), 3) * 0.5)) if cell == 'LSTMCell' else h
    out = net(ms.Tensor(det((2, 3), 1)), hx)
    check_summaries(out if isinstance(out, tuple) else (out,), want)


def test_parameter_names_shapes_and_bounds_match_mindspore():
    net = nn.LSTM(3, 4, 2, bidirectional=True)
    names = [(n, p.shape) for n, p in net.parameters_and_names()]
    want = []
    for kind, shapes in (('weight_ih', [(16, 3), (16, 3), (16, 8), (16, 8)]),
                         ('weight_hh', [(16, 4)] * 4), ('bias_ih', [(16,)] * 4),
                         ('bias_hh', [(16,)] * 4)):
        for (layer, suffix), shape in zip([(0, ''), (0, '_reverse'), (1, ''), (1, '_reverse')],
                                          shapes):
            want.append((f"{kind}_l{layer}{suffix}", shape))
    assert names == want
    assert all(np.abs(p.asnumpy()).max() <= 0.5 for p in net.get_parameters())   # 1/sqrt(4)
    assert [p.shape for p in nn.GRU(2, 5, has_bias=False).get_parameters()] == [(15, 2), (15, 5)]
    assert nn.RNN(2, 5, dtype=ms.float64).parameters_dict()['weight_ih_l0'].dtype == ms.float64

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(2, 3)
            self.cell = nn.LSTMCell(2, 3)
    assert [n for n, _ in Net().parameters_and_names()] == [
        'rnn.weight_ih_l0', 'rnn.weight_hh_l0', 'rnn.bias_ih_l0', 'rnn.bias_hh_l0',
        'cell.weight_ih', 'cell.weight_hh', 'cell.bias_ih', 'cell.bias_hh']
    assert [p.shape for p in nn.GRUCell(2, 3).get_parameters()] == [(9, 2), (9, 3), (9,), (9,)]
    # MindSpore 2.10 prints these, and lists the cells '', 'rnn', 'dropout_op'
    assert repr(nn.LSTM(3, 4)) == ("LSTM(\n  (rnn): _DynamicLSTMCPUGPU()\n"
                                   "  (dropout_op): Dropout(p=0.0)\n)")
    assert repr(nn.GRU(3, 4)).startswith("GRU(\n  (rnn): _DynamicGRUCPUGPU()\n")
    assert repr(nn.RNN(3, 4)).startswith("RNN(\n  (rnn): _DynamicRNNTanh()\n")
    assert [n for n, _ in nn.LSTM(3, 4, 2, bidirectional=True).cells_and_names()] == \
        ['', 'rnn', 'dropout_op']


def test_seq_length_freezes_state_and_zeroes_padding():
    """Past its length a sequence outputs zeros, its last state is the state at its length,
    and the reverse direction starts at its own last element."""
    rng = np.random.default_rng(0)
    net = nn.GRU(3, 4, bidirectional=True, batch_first=True, dtype=ms.float64)
    x = rng.standard_normal((2, 5, 3))
    out, h = net(ms.Tensor(x), seq_length=ms.Tensor(np.array([5, 3], np.int64)))
    short_out, short_h = net(ms.Tensor(x[1:, :3]))
    np.testing.assert_allclose(out.asnumpy()[1, :3], short_out.asnumpy()[0], rtol=1e-12)
    np.testing.assert_allclose(h.asnumpy()[:, 1], short_h.asnumpy()[:, 0], rtol=1e-12)
    assert not out.asnumpy()[1, 3:].any()
    full_out, _ = net(ms.Tensor(x[:1]))
    np.testing.assert_allclose(out.asnumpy()[0], full_out.asnumpy()[0], rtol=1e-12)


def test_dropout_between_layers_only_in_training():
    ms.set_seed(1)
    net = nn.LSTM(3, 4, 2, dropout=0.5)
    x = ms.Tensor(det((4, 2, 3), 1))
    a = net(x)[0].asnumpy()
    np.testing.assert_array_equal(a, net(x)[0].asnumpy())
    net.set_train()
    assert not np.allclose(net(x)[0].asnumpy(), a)
    with pytest.warns(UserWarning, match="nn.GRU: dropout applies between stacked layers"):
        nn.GRU(3, 4, dropout=0.5)


def flat_outputs(net, x, *args):
    out, h = net(x, *args)
    return (out,) + (h if isinstance(h, tuple) else (h,))


def check_net_grad(net, x, *args, n_params=3, eps=1e-6):
    """Finite-difference checks (float64) of the gradients of all outputs of ``net`` with
    respect to x and its first ``n_params`` parameters (perturbed in place)."""
    check_grad(lambda t: flat_outputs(net, t, *args), x)
    params = net.trainable_params()[:n_params]
    xt = ms.Tensor(x)
    rng = np.random.default_rng(3)
    cts = [rng.standard_normal(o.shape) for o in flat_outputs(net, xt, *args)]

    def loss(t):
        return sum((o * ms.Tensor(c)).sum() for o, c in zip(flat_outputs(net, t, *args), cts))

    got = ms.grad(loss, grad_position=None, weights=params)(xt)
    for p, g in zip(params, got):
        flat = p._data.reshape(-1)
        want = np.zeros(flat.size)
        for j in range(flat.size):
            orig = flat[j]
            flat[j] = orig + eps
            up = float(loss(xt).asnumpy())
            flat[j] = orig - eps
            down = float(loss(xt).asnumpy())
            flat[j] = orig
            want[j] = (up - down) / (2 * eps)
        np.testing.assert_allclose(g.asnumpy().reshape(-1), want, rtol=1e-5, atol=1e-6,
                                   err_msg=f"gradient of {p.name}")


@pytest.mark.parametrize('cell,kw,shape,lengths', [
    ('RNN', dict(num_layers=2, nonlinearity='tanh'), (3, 2, 2), None),
    ('LSTM', dict(bidirectional=True, batch_first=True), (2, 3, 2), [3, 2]),
    ('GRU', dict(num_layers=2, bidirectional=True), (3, 2, 2), None),
    ('GRU', dict(), (3, 2, 2), [2, 3]),
], ids=['rnn-2layers', 'lstm-bi-seq', 'gru-bi-2layers', 'gru-seq'])
def test_layer_gradients_match_finite_differences(cell, kw, shape, lengths):
    net = fill(getattr(nn, cell)(2, 3, **kw, dtype=ms.float64), np.float64)
    x = det(shape, 1, np.float64)
    args = (None, ms.Tensor(np.array(lengths, np.int32))) if lengths else ()
    check_net_grad(net, x, *args)


@pytest.mark.parametrize('cell', ['RNNCell', 'LSTMCell', 'GRUCell'])
def test_cell_gradients_match_finite_differences(cell):
    net = fill(getattr(nn, cell)(2, 3, dtype=ms.float64), np.float64)
    h = det((2, 3), 2, np.float64) * 0.5
    c = det((2, 3), 3, np.float64) * 0.5
    x = det((2, 2), 1, np.float64)
    if cell == 'LSTMCell':
        check_grad(lambda t, a, b: net(t, (a, b)), x, h, c)
    else:
        check_grad(lambda t, a: net(t, a), x, h)


def test_hidden_state_gradient_reaches_hx():
    net = fill(nn.LSTM(2, 3, 2, dtype=ms.float64), np.float64)
    x = det((3, 2, 2), 1, np.float64)
    check_grad(lambda t, h, c: flat_outputs(net, t, (h, c)), x,
               det((2, 2, 3), 2, np.float64), det((2, 2, 3), 3, np.float64))


def test_forward_hook_on_lstm_and_tensor_hook_on_its_output():
    net = fill(nn.LSTM(2, 3, dtype=ms.float64), np.float64)
    events = []

    def forward_hook(cell, inputs, output):
        events.append(('forward', type(cell).__name__, len(inputs), output[0].shape))

    handle = net.register_forward_hook(forward_hook)
    x = ms.Tensor(det((4, 2, 2), 1, np.float64))
    x.requires_grad = True
    out, (h, c) = net(x)

    def double(g):
        events.append(('tensor', g.shape))
        return g * 2

    out.register_hook(double)
    out.sum().backward()
    assert events == [('forward', 'LSTM', 1, (4, 2, 3)), ('tensor', (4, 2, 3))]
    doubled = x.grad.asnumpy().copy()
    x.grad = None
    handle.remove()
    out, _ = net(x)
    out.sum().backward()
    np.testing.assert_allclose(doubled, 2 * x.grad.asnumpy(), rtol=1e-12)
    assert len(events) == 2



def test_op_observer_sees_the_steps_inside_a_gru():
    """The observer sees every op the layer runs, attributed to it: one Dense for the input
    gates of all steps, then one per step for the hidden gates."""
    from hookgrad.autograd.observer import OpObserver

    class Record(OpObserver):
        def __init__(self):
            super().__init__()
            self.calls = []

        def on_forward(self, call):
            self.calls.append((call.op.__name__, call.cell_path))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(2, 3)

        def construct(self, x):
            return self.gru(x)

    with Record() as rec:
        Net()(ms.Tensor(det((4, 1, 2), 1)))
    assert {path for _, path in rec.calls} == {'Net.gru', 'Net.gru.rnn'}   # the recurrence
    names = [name for name, _ in rec.calls]
    assert names.count('Dense') == 1 + 4
    assert names.count('Sigmoid') == 2 * 4 and names.count('Tanh') == 4


@pytest.mark.parametrize('make,error,match', [
    (lambda: nn.LSTM(3, 0), ValueError, r"nn.LSTM: hidden_size must be a positive int, got 0"),
    (lambda: nn.GRU(3.0, 4), TypeError, r"nn.GRU: input_size must be a positive int, got 3.0"),
    (lambda: nn.RNN(3, 4, num_layers=0), ValueError, r"nn.RNN: num_layers must be a positive"),
    (lambda: nn.LSTM(3, 4, dropout=1), TypeError, r"nn.LSTM: dropout must be a float, got int"),
    (lambda: nn.LSTM(3, 4, dropout=1.0), ValueError, r"nn.LSTM: dropout must be in \[0, 1\)"),
    (lambda: nn.LSTM(3, 4, has_bias=1), TypeError, r"nn.LSTM: has_bias must be a bool, got int"),
    (lambda: nn.GRU(3, 4, bidirectional='yes'), TypeError, r"nn.GRU: bidirectional must be"),
    (lambda: nn.RNN(3, 4, nonlinearity='sigmoid'), ValueError,
     r"nn.RNN: nonlinearity must be 'tanh' or 'relu', got 'sigmoid'"),
    (lambda: nn.RNNCell(3, 4, nonlinearity='sigmoid'), ValueError,
     r"nn.RNNCell: nonlinearity must be 'tanh' or 'relu'"),
    (lambda: nn.RNNCell(3, 4, nonlinearity=1), TypeError, r"nn.RNNCell: nonlinearity must be a"),
    (lambda: nn.LSTMCell(3, 4, True, ms.float32, 5), ValueError,
     r"nn.LSTMCell: the arguments of the LSTMCell of MindSpore before 1.6"),
    (lambda: nn.LSTMCell(3, 4, batch_size=2), ValueError, r"use nn.LSTM for a layer"),
])
def test_bad_arguments(make, error, match):
    with pytest.raises(error, match=match):
        make()


X = ms.Tensor(np.ones((2, 3, 3), np.float32))


@pytest.mark.parametrize('call,error,match', [
    (lambda: nn.GRU(3, 4)(X, seq_length=ms.Tensor(np.array([1, 2], np.int32))), ValueError,
     r"nn.GRU: seq_length must have shape \(batch_size,\) = \(3,\), got \(2,\)"),
    (lambda: nn.GRU(3, 4)(X, seq_length=ms.Tensor([1.0, 2.0, 2.0])), TypeError,
     r"nn.GRU: seq_length must be int32 or int64, got Float32"),
    (lambda: nn.LSTM(3, 4)(X, ops.ones((1, 3, 4))), TypeError,
     r"nn.LSTM: hx must be a tuple \(h_0, c_0\), got Tensor"),
    (lambda: nn.LSTM(3, 4)(X, (ops.ones((1, 3, 4)),)), TypeError,
     r"nn.LSTM: hx must be a tuple of 2 Tensors"),
    (lambda: nn.RNN(3, 4)(X, ops.ones((1, 3, 4), ms.float16)), TypeError,
     r"nn.RNN: hx must have the dtype of x \(Float32\), got Float16"),
    (lambda: nn.RNN(3, 4)(X, ops.ones((2, 3, 4))), ValueError,
     r"nn.RNN: hx must have shape .* = \(1, 3, 4\), got \(2, 3, 4\)"),
    (lambda: nn.RNN(2, 4)(X), ValueError,
     r"nn.RNN: x must have shape \(seq_len, batch_size, 2\), got \(2, 3, 3\)"),
    (lambda: nn.RNN(3, 4)(ms.Tensor(np.ones((2, 3, 3), np.int32))), TypeError,
     r"nn.RNN: x must have a floating dtype"),
    (lambda: nn.RNN(3, 4)(np.ones((2, 3, 3))), TypeError, r"nn.RNN: x must be a Tensor"),
    (lambda: nn.RNNCell(3, 4)(ms.Tensor(np.ones((2, 3), np.int32)), ops.ones((2, 4))),
     TypeError, r"nn.RNNCell: x must have a floating dtype"),
    (lambda: nn.GRUCell(3, 4)(ops.ones((2, 3)), ops.ones((3, 4))), ValueError,
     r"nn.GRUCell: hx must have shape \(2, 4\), got \(3, 4\)"),
    (lambda: nn.LSTMCell(3, 4)(ops.ones((2, 3)), ops.ones((2, 4))), TypeError,
     r"nn.LSTMCell: hx must be a tuple \(h, c\)"),
])
def test_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_hooks_on_the_rnn_sub_cell_see_every_layer_and_direction():
    net = nn.LSTM(2, 3, num_layers=2, bidirectional=True)
    seen = []
    net.rnn.register_forward_hook(lambda cell, inputs, output: seen.append(
        (inputs[0].shape, inputs[7], output[0].shape)))
    net(ms.Tensor(np.ones((4, 1, 2), np.float32)))
    assert seen == [((4, 1, 2), False, (4, 1, 3)), ((4, 1, 2), True, (4, 1, 3)),
                    ((4, 1, 6), False, (4, 1, 3)), ((4, 1, 6), True, (4, 1, 3))]
