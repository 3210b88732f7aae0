"""Recurrent cells: RNNCell, LSTMCell, GRUCell (MindSpore 2.10 signatures, parameter names and
initialisation), and the one-step functions that nn.RNN, nn.LSTM and nn.GRU share with them.

A step takes the input's gate pre-activations ``gi = x @ w_ih.T + b_ih`` already computed, so the
stacked layers compute them for every time step with one matrix product and each step does one
more, ``h @ w_hh.T + b_hh``, for all gates at once.
"""
import math
import numbers

import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...common.initializer import Uniform, initializer
from ..cell import Cell
from ..parameter import Parameter

__all__ = ['RNNCell', 'LSTMCell', 'GRUCell']


def rnn_tanh_step(gi, h, w_hh, b_hh):
    """``tanh(gi + h @ w_hh.T + b_hh)``."""
    return ops.tanh(gi + ops.dense(h, w_hh, b_hh))


def rnn_relu_step(gi, h, w_hh, b_hh):
    """``relu(gi + h @ w_hh.T + b_hh)``."""
    return ops.relu(gi + ops.dense(h, w_hh, b_hh))


def lstm_step(gi, state, w_hh, b_hh):
    """One LSTM step; gates in MindSpore's order (input, forget, cell, output).

    Returns:
        ``(h, c)``.
    """
    h, c = state
    gates = gi + ops.dense(h, w_hh, b_hh)
    i, f, g, o = ops.split(gates, gates.shape[-1] // 4, axis=-1)
    c = ops.sigmoid(f) * c + ops.sigmoid(i) * ops.tanh(g)
    return ops.sigmoid(o) * ops.tanh(c), c


def gru_step(gi, h, w_hh, b_hh):
    """One GRU step; gates in MindSpore's order (reset, update, new); the reset gate scales
    ``h @ w_hn.T + b_hn``, as MindSpore (and cuDNN) compute it."""
    gh = ops.dense(h, w_hh, b_hh)
    size = gh.shape[-1] // 3
    i_r, i_z, i_n = ops.split(gi, size, axis=-1)
    h_r, h_z, h_n = ops.split(gh, size, axis=-1)
    r = ops.sigmoid(i_r + h_r)
    z = ops.sigmoid(i_z + h_z)
    n = ops.tanh(i_n + r * h_n)
    return n + z * (h - n)


STEPS = {'RNN_TANH': rnn_tanh_step, 'RNN_RELU': rnn_relu_step, 'LSTM': lstm_step,
         'GRU': gru_step}
GATES = {'RNN_TANH': 1, 'RNN_RELU': 1, 'LSTM': 4, 'GRU': 3}


def positive_int(value, cell, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"nn.{cell}: {arg} must be a positive int, got {value!r}")
    if value <= 0:
        raise ValueError(f"nn.{cell}: {arg} must be a positive int, got {value}")
    return int(value)


def check_bool(value, cell, arg):
    if not isinstance(value, bool):
        raise TypeError(f"nn.{cell}: {arg} must be a bool, got {type(value).__name__}")
    return value


def check_float_tensor(x, cell, arg):
    """``x`` must be a Tensor of a floating dtype (float16, float32 or float64)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.{cell}: {arg} must be a Tensor, got {type(x).__name__}")
    if not x.dtype.is_floating:
        raise TypeError(f"nn.{cell}: {arg} must have a floating dtype (float16, float32 or "
                        f"float64), got {x.dtype}")
    return x


def as_dtype(w, dtype):
    """``w`` cast to ``dtype`` (the input's) when it differs, as MindSpore casts the weights."""
    return w if w is None or w.dtype == dtype else ops.cast(w, dtype)


class _RNNCellBase(Cell):
    """What the cells share: ``weight_ih`` (gates * hidden_size, input_size), ``weight_hh``
    (gates * hidden_size, hidden_size) and, with ``has_bias``, ``bias_ih`` and ``bias_hh``, all
    drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""

    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=_dtype.float32):
        super().__init__()
        name = type(self).__name__
        check_bool(has_bias, name, 'has_bias')
        self.hidden_size = positive_int(hidden_size, name, 'hidden_size')
        self.input_size = positive_int(input_size, name, 'input_size')
        self.has_bias = has_bias
        init = Uniform(1 / math.sqrt(self.hidden_size))
        rows = num_chunks * self.hidden_size
        # MindSpore first fills the four arrays from numpy.random.randn, then draws them again
        # with the initializer: the first draws move NumPy's global generator, and so the seeds
        # of every later initializer
        for shape in ((rows, self.input_size), (rows, self.hidden_size)) + \
                ((rows,), (rows,)) * has_bias:
            np.random.randn(*shape)
        self.weight_ih = Parameter(initializer(init, (rows, self.input_size), dtype),
                                   name='weight_ih')
        self.weight_hh = Parameter(initializer(init, (rows, self.hidden_size), dtype),
                                   name='weight_hh')
        if has_bias:
            self.bias_ih = Parameter(initializer(init, (rows,), dtype), name='bias_ih')
            self.bias_hh = Parameter(initializer(init, (rows,), dtype), name='bias_hh')
        else:
            self.bias_ih = None
            self.bias_hh = None

    def _check(self, x, hs):
        """``x`` of shape (batch, input_size) and each state of shape (batch, hidden_size), all
        of one floating dtype."""
        name = type(self).__name__
        check_float_tensor(x, name, 'x')
        if x.ndim != 2 or x.shape[1] != self.input_size:
            raise ValueError(f"nn.{name}: x must have shape (batch_size, {self.input_size}), "
                             f"got {x.shape}")
        for arg, h in hs:
            check_float_tensor(h, name, arg)
            if h.shape != (x.shape[0], self.hidden_size):
                raise ValueError(f"nn.{name}: {arg} must have shape ({x.shape[0]}, "
                                 f"{self.hidden_size}), got {h.shape}")
            if h.dtype != x.dtype:
                raise TypeError(f"nn.{name}: {arg} must have the dtype of x ({x.dtype}), got "
                                f"{h.dtype}")

    def _gi(self, x):
        return ops.dense(x, as_dtype(self.weight_ih, x.dtype), as_dtype(self.bias_ih, x.dtype))

    def _hh(self, x):
        return as_dtype(self.weight_hh, x.dtype), as_dtype(self.bias_hh, x.dtype)


class RNNCell(_RNNCellBase):
    """An Elman RNN cell: ``h' = tanh(x @ W_ih.T + b_ih + h @ W_hh.T + b_hh)`` (or relu).

    Args:
        input_size: the number of input features, a positive int.
        hidden_size: the number of hidden features, a positive int.
        has_bias: whether the cell has ``bias_ih`` and ``bias_hh``. Default True.
        nonlinearity: 'tanh' or 'relu'. Default 'tanh'.
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        x: Tensor of shape (batch_size, input_size).
        hx: Tensor of shape (batch_size, hidden_size), of x's dtype.

    Outputs:
        Tensor of shape (batch_size, hidden_size).

    Raises:
        TypeError: for a non-int size, a non-bool has_bias, a non-str nonlinearity, or inputs
            that are not floating Tensors of one dtype.
        ValueError: for a size below 1, an unknown nonlinearity, or inputs of the wrong shape.

    >>> import hookgrad as ms
    >>> cell = ms.nn.RNNCell(3, 4)
    >>> cell(ms.ops.ones((2, 3)), ms.ops.zeros((2, 4))).shape
    (2, 4)
    """

    _non_linearity = ['tanh', 'relu']

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity='tanh',
                 dtype=_dtype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        if not isinstance(nonlinearity, str):
            raise TypeError(f"nn.RNNCell: nonlinearity must be a str, got "
                            f"{type(nonlinearity).__name__}")
        if nonlinearity not in self._non_linearity:
            raise ValueError(f"nn.RNNCell: nonlinearity must be 'tanh' or 'relu', got "
                             f"{nonlinearity!r}")
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        self._check(x, [('hx', hx)])
        step = rnn_tanh_step if self.nonlinearity == 'tanh' else rnn_relu_step
        return step(self._gi(x), hx, *self._hh(x))


class LSTMCell(_RNNCellBase):
    """A long short-term memory cell, gates in the order (input, forget, cell, output):
    ``c' = f * c + i * g``, ``h' = o * tanh(c')``.

    Args:
        input_size: the number of input features, a positive int.
        hidden_size: the number of hidden features, a positive int.
        has_bias: whether the cell has ``bias_ih`` and ``bias_hh``. Default True.
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        x: Tensor of shape (batch_size, input_size).
        hx: a tuple ``(h, c)`` of two Tensors of shape (batch_size, hidden_size).

    Outputs:
        The tuple ``(h', c')``, each of shape (batch_size, hidden_size).

    Raises:
        ValueError: for the arguments of MindSpore's old LSTMCell (before 1.6: more than four
            arguments, ``batch_size``, ``dropout`` or ``bidirectional``), which was a layer: use
            ``nn.LSTM``; for sizes below 1 or inputs of the wrong shape.
        TypeError: as ``RNNCell``, and for an ``hx`` that is not a tuple of two Tensors.
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=_dtype.float32,
                 *old_args, **old_kwargs):
        if old_args or {'batch_size', 'dropout', 'bidirectional'} & set(old_kwargs):
            raise ValueError("nn.LSTMCell: the arguments of the LSTMCell of MindSpore before 1.6 "
                             "(a single LSTM layer) are detected; use nn.LSTM for a layer")
        if old_kwargs:
            raise TypeError(f"nn.LSTMCell: unexpected arguments {sorted(old_kwargs)}")
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)

    def construct(self, x, hx):
        if not isinstance(hx, tuple):
            raise TypeError(f"nn.LSTMCell: hx must be a tuple (h, c), got {type(hx).__name__}")
        if len(hx) != 2:
            raise TypeError(f"nn.LSTMCell: hx must be a tuple of 2 Tensors (h, c), got "
                            f"{len(hx)} items")
        self._check(x, [('hx[0]', hx[0]), ('hx[1]', hx[1])])
        return lstm_step(self._gi(x), hx, *self._hh(x))


class GRUCell(_RNNCellBase):
    """A gated recurrent unit cell, gates in the order (reset, update, new):
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``, ``h' = (1 - z) * n + z * h``.

    Args:
        input_size: the number of input features, a positive int.
        hidden_size: the number of hidden features, a positive int.
        has_bias: whether the cell has ``bias_ih`` and ``bias_hh``. Default True.
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        x: Tensor of shape (batch_size, input_size).
        hx: Tensor of shape (batch_size, hidden_size), of x's dtype.

    Outputs:
        Tensor of shape (batch_size, hidden_size).

    Raises:
        TypeError, ValueError: as ``RNNCell``.
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=_dtype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x, hx):
        self._check(x, [('hx', hx)])
        return gru_step(self._gi(x), hx, *self._hh(x))
