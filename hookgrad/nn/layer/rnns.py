"""Stacked recurrent layers: RNN, LSTM, GRU (MindSpore 2.10 signatures, parameter names,
initialisation, layouts and ``seq_length`` handling).

Each layer and direction computes the input's gate pre-activations for all time steps with one
matrix product, then loops over time in Python with one ``h @ W_hh.T`` per step for the whole
batch. Everything is composed of differentiable ops, so gradients, hooks and op observers work
through the layers unchanged. As in MindSpore, each layer holds the recurrence as a sub-cell
``rnn`` without parameters (``_DynamicLSTMCPUGPU``...), called once per layer and direction, so
it prints, and takes cell hooks, where MindSpore's does.
"""
import math

import numpy as np

from ..._frames import warn
from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ..cell import Cell
from ..parameter import Parameter, ParameterTuple
from .basic import Dropout
from .rnn_cells import GATES, STEPS, as_dtype, check_bool, check_float_tensor, positive_int

__all__ = ['RNN', 'LSTM', 'GRU']


class _DynamicRNN(Cell):
    """One layer in one direction of a recurrence over a time-major sequence: the parameter-less
    sub-cell ``rnn`` of RNN, LSTM and GRU, as in MindSpore (its cell hooks see every layer and
    direction run). ``construct(x, h_0, mask, w_ih, w_hh, b_ih, b_hh, reverse)`` returns the
    outputs (seq_len, batch, hidden_size) and the last state; ``mask`` (per step, which
    sequences still run) is None without ``seq_length``."""
    mode = None

    def construct(self, x, h_0, mask, w_ih, w_hh, b_ih, b_hh, reverse=False):
        is_lstm = self.mode == 'LSTM'
        step = STEPS[self.mode]
        state = h_0
        gis = ops.unbind(ops.dense(x, w_ih, b_ih), 0)
        times = range(len(gis) - 1, -1, -1) if reverse else range(len(gis))
        outputs = [None] * len(gis)
        zeros = None
        for t in times:
            new = step(gis[t], state, w_hh, b_hh)
            if mask is None:
                state = new
                outputs[t] = new[0] if is_lstm else new
                continue
            live = mask[t]
            if is_lstm:
                state = (ops.where(live, new[0], state[0]), ops.where(live, new[1], state[1]))
                new = new[0]
            else:
                state = ops.where(live, new, state)
            if zeros is None:
                zeros = ops.zeros_like(new)
            outputs[t] = ops.where(live, new, zeros)
        return ops.stack(outputs), state


class _DynamicRNNTanh(_DynamicRNN):
    mode = 'RNN_TANH'


class _DynamicRNNRelu(_DynamicRNN):
    mode = 'RNN_RELU'


class _DynamicLSTMCPUGPU(_DynamicRNN):
    mode = 'LSTM'


class _DynamicGRUCPUGPU(_DynamicRNN):
    mode = 'GRU'


_DYNAMIC = {c.mode: c for c in (_DynamicRNNTanh, _DynamicRNNRelu, _DynamicLSTMCPUGPU,
                                  _DynamicGRUCPUGPU)}


class _RNNBase(Cell):
    """The stacked layers of one recurrence ``mode`` ('RNN_TANH', 'RNN_RELU', 'LSTM', 'GRU').

    Parameters are registered as MindSpore registers them: all ``weight_ih_l{k}[_reverse]``,
    then all ``weight_hh_*``, ``bias_ih_*`` and ``bias_hh_*``, each from
    U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)).
    """

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True,
                 batch_first=False, dropout=0., bidirectional=False, dtype=_dtype.float32):
        super().__init__()
        name = type(self).__name__
        hidden_size = positive_int(hidden_size, name, 'hidden_size')
        input_size = positive_int(input_size, name, 'input_size')
        num_layers = positive_int(num_layers, name, 'num_layers')
        if not isinstance(dropout, float):
            raise TypeError(f"nn.{name}: dropout must be a float, got {type(dropout).__name__}")
        check_bool(has_bias, name, 'has_bias')
        check_bool(batch_first, name, 'batch_first')
        check_bool(bidirectional, name, 'bidirectional')
        if not 0 <= dropout < 1:
            raise ValueError(f"nn.{name}: dropout must be in [0, 1), the probability of zeroing "
                             f"an element, got {dropout}")
        if dropout > 0 and num_layers == 1:
            warn(f"nn.{name}: dropout applies between stacked layers, so it does "
                 f"nothing with num_layers=1 (got dropout={dropout})")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.has_bias = has_bias
        self.batch_first = batch_first
        self.dropout = dropout
        self.bidirectional = bidirectional
        self.is_lstm = mode == 'LSTM'
        self.rnn = _DYNAMIC[mode]()
        self.dropout_op = Dropout(p=float(dropout))
        gate_size = GATES[mode] * hidden_size
        stdv = 1 / math.sqrt(hidden_size)
        lists = {'w_ih_list': [], 'w_hh_list': [], 'b_ih_list': [], 'b_hh_list': []}
        for layer in range(num_layers):
            for direction in range(self.num_directions):
                fan_in = input_size if layer == 0 else hidden_size * self.num_directions
                suffix = f"_l{layer}" + ('_reverse' if direction else '')
                shapes = [('w_ih_list', 'weight_ih', (gate_size, fan_in)),
                          ('w_hh_list', 'weight_hh', (gate_size, hidden_size))]
                if has_bias:
                    shapes += [('b_ih_list', 'bias_ih', (gate_size,)),
                               ('b_hh_list', 'bias_hh', (gate_size,))]
                for key, prefix, shape in shapes:     # from numpy.random, as MindSpore's
                    values = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
                    lists[key].append(Parameter(Tensor(values, dtype=dtype),
                                                name=prefix + suffix))
        for key, params in lists.items():
            setattr(self, key, ParameterTuple(params))

    @property
    def num_directions(self):
        return 2 if self.bidirectional else 1

    def construct(self, x, hx=None, seq_length=None):
        name = type(self).__name__
        check_float_tensor(x, name, 'x')
        if x.ndim != 3 or x.shape[2] != self.input_size:
            layout = 'batch_size, seq_len' if self.batch_first else 'seq_len, batch_size'
            raise ValueError(f"nn.{name}: x must have shape ({layout}, {self.input_size}), got "
                             f"{x.shape}")
        batch = x.shape[0] if self.batch_first else x.shape[1]
        state_shape = (self.num_layers * self.num_directions, batch, self.hidden_size)
        hs, cs = self._initial_state(hx, x, state_shape)
        mask = self._mask(seq_length, batch, x.shape[1] if self.batch_first else x.shape[0])
        if self.batch_first:
            x = ops.swapaxes(x, 0, 1)
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(self.num_directions):
                k = layer * self.num_directions + direction
                state = (hs[k], cs[k]) if self.is_lstm else hs[k]
                out, state = self._run(x, state, k, mask, reverse=direction == 1)
                outputs.append(out)
                h_n.append(state[0] if self.is_lstm else state)
                if self.is_lstm:
                    c_n.append(state[1])
            x = outputs[0] if len(outputs) == 1 else ops.concat(outputs, axis=2)
            if self.dropout != 0 and layer < self.num_layers - 1:
                x = self.dropout_op(x)
        if self.batch_first:
            x = ops.swapaxes(x, 0, 1)
        if self.is_lstm:
            return x, (ops.stack(h_n), ops.stack(c_n))
        return x, ops.stack(h_n)

    def _run(self, x, state, k, mask, reverse):
        """Layer and direction ``k`` over the time-major ``x``, through the ``rnn`` sub-cell.
        The reverse direction reads each sequence backwards from its own last element: steps
        past a sequence's length leave its state unchanged and output zeros, as MindSpore's
        reverse_sequence around a masked pass does."""
        dtype = x.dtype
        b_ih = as_dtype(self.b_ih_list[k], dtype) if self.has_bias else None
        b_hh = as_dtype(self.b_hh_list[k], dtype) if self.has_bias else None
        return self.rnn(x, state, mask, as_dtype(self.w_ih_list[k], dtype),
                        as_dtype(self.w_hh_list[k], dtype), b_ih, b_hh, reverse)

    def _initial_state(self, hx, x, shape):
        """The per-layer initial states ``(hs, cs)`` (``cs`` None but for LSTM), zeros when
        ``hx`` is None."""
        name = type(self).__name__
        if hx is None:
            zeros = ops.unbind(ops.zeros(shape, x.dtype), 0)
            return zeros, (zeros if self.is_lstm else None)
        if self.is_lstm:
            if not isinstance(hx, tuple):
                raise TypeError(f"nn.{name}: hx must be a tuple (h_0, c_0), got "
                                f"{type(hx).__name__}")
            if len(hx) != 2:
                raise TypeError(f"nn.{name}: hx must be a tuple of 2 Tensors (h_0, c_0), got "
                                f"{len(hx)} items")
            states = [('hx[0]', hx[0]), ('hx[1]', hx[1])]
        else:
            states = [('hx', hx)]
        for arg, h in states:
            check_float_tensor(h, name, arg)
            if h.dtype != x.dtype:
                raise TypeError(f"nn.{name}: {arg} must have the dtype of x ({x.dtype}), got "
                                f"{h.dtype}")
            if h.shape != shape:
                raise ValueError(f"nn.{name}: {arg} must have shape (num_directions * "
                                 f"num_layers, batch_size, hidden_size) = {shape}, got "
                                 f"{h.shape}")
        hs = ops.unbind(states[0][1], 0)
        return hs, (ops.unbind(states[1][1], 0) if self.is_lstm else None)

    def _mask(self, seq_length, batch, steps):
        """Per time step, a (batch, 1) bool Tensor: which sequences are still running."""
        if seq_length is None:
            return None
        name = type(self).__name__
        if not isinstance(seq_length, Tensor):
            raise TypeError(f"nn.{name}: seq_length must be a Tensor, got "
                            f"{type(seq_length).__name__}")
        if seq_length.dtype not in (_dtype.int32, _dtype.int64):
            raise TypeError(f"nn.{name}: seq_length must be int32 or int64, got "
                            f"{seq_length.dtype}")
        if seq_length.shape != (batch,):
            raise ValueError(f"nn.{name}: seq_length must have shape (batch_size,) = "
                             f"({batch},), got {seq_length.shape}")
        lengths = seq_length.asnumpy().reshape(batch, 1)
        return [Tensor(lengths > t) for t in range(steps)]


class RNN(_RNNBase):
    """Stacked Elman RNN layers: ``h_t = act(x_t @ W_ih.T + b_ih + h_{t-1} @ W_hh.T + b_hh)``.

    Args:
        input_size: the number of input features, a positive int.
        hidden_size: the number of hidden features, a positive int.
        num_layers: the number of stacked layers. Default 1.
        has_bias: whether the layers have ``bias_ih_l*`` and ``bias_hh_l*``. Default True.
        batch_first: inputs and outputs are (batch, seq, feature) rather than (seq, batch,
            feature). Default False.
        dropout: a float in [0, 1): dropout on the outputs of every layer but the last, in
            training. Default 0.0.
        bidirectional: add a reverse direction (``*_reverse`` parameters). Default False.
        dtype: the parameters' dtype. Default ``ms.float32``.
        nonlinearity: keyword only, 'tanh' or 'relu'. Default 'tanh'.

    Inputs:
        x: Tensor of shape (seq_len, batch_size, input_size), or (batch_size, seq_len,
            input_size) with ``batch_first``.
        hx: Tensor of shape (num_directions * num_layers, batch_size, hidden_size), of x's
            dtype. Default None: zeros.
        seq_length: int32 or int64 Tensor of shape (batch_size,), each sequence's real length:
            steps past it leave the state unchanged and output zeros. Default None.

    Outputs:
        ``(output, hx_n)``: output of shape (seq_len, batch_size, num_directions *
        hidden_size) (batch first with ``batch_first``); hx_n of hx's shape.

    Raises:
        TypeError: for non-int sizes, non-bool flags, a non-float dropout, or inputs of the
            wrong type or dtype.
        ValueError: for sizes below 1, a dropout outside [0, 1), an unknown nonlinearity, or
            inputs of the wrong shape.

    >>> import hookgrad as ms
    >>> net = ms.nn.RNN(10, 16, 2, batch_first=True)
    >>> output, hn = net(ms.ops.ones((3, 5, 10)))
    >>> output.shape, hn.shape
    ((3, 5, 16), (2, 3, 16))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
                 dropout=0., bidirectional=False, dtype=_dtype.float32, *, nonlinearity='tanh'):
        if nonlinearity not in ('tanh', 'relu'):
            raise ValueError(f"nn.RNN: nonlinearity must be 'tanh' or 'relu', got "
                             f"{nonlinearity!r}")
        super().__init__('RNN_TANH' if nonlinearity == 'tanh' else 'RNN_RELU', input_size,
                         hidden_size, num_layers, has_bias, batch_first, dropout, bidirectional,
                         dtype)


class LSTM(_RNNBase):
    """Stacked LSTM layers, gates in the order (input, forget, cell, output).

    Args:
        input_size, hidden_size, num_layers, has_bias, batch_first, dropout, bidirectional,
        dtype: as ``nn.RNN``.

    Inputs:
        x: as ``nn.RNN``.
        hx: a tuple ``(h_0, c_0)`` of Tensors of shape (num_directions * num_layers,
            batch_size, hidden_size). Default None: zeros.
        seq_length: as ``nn.RNN``.

    Outputs:
        ``(output, (h_n, c_n))``, shaped as ``nn.RNN``'s output and hx.

    Raises:
        TypeError, ValueError: as ``nn.RNN``; TypeError for an ``hx`` that is not a tuple of
            two Tensors.

    >>> import hookgrad as ms
    >>> net = ms.nn.LSTM(10, 16, 2, bidirectional=True)
    >>> output, (hn, cn) = net(ms.ops.ones((5, 3, 10)))
    >>> output.shape, hn.shape, cn.shape
    ((5, 3, 32), (4, 3, 16), (4, 3, 16))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
                 dropout=0., bidirectional=False, dtype=_dtype.float32):
        super().__init__('LSTM', input_size, hidden_size, num_layers, has_bias, batch_first,
                         dropout, bidirectional, dtype)


class GRU(_RNNBase):
    """Stacked GRU layers, gates in the order (reset, update, new).

    Args, Inputs, Outputs, Raises: as ``nn.RNN`` (without ``nonlinearity``).

    >>> import hookgrad as ms
    >>> net = ms.nn.GRU(10, 16, batch_first=True)
    >>> output, hn = net(ms.ops.ones((3, 5, 10)))
    >>> output.shape, hn.shape
    ((3, 5, 16), (1, 3, 16))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
                 dropout=0., bidirectional=False, dtype=_dtype.float32):
        super().__init__('GRU', input_size, hidden_size, num_layers, has_bias, batch_first,
                         dropout, bidirectional, dtype)
