"""Transformer layers: TransformerEncoderLayer, TransformerDecoderLayer, TransformerEncoder,
TransformerDecoder, Transformer (MindSpore 2.10 signatures, parameter names, initialisation and
post- or pre-norm residual blocks).

Each layer's attention (``self_attn``, and ``multihead_attn`` in a decoder layer) has
MultiheadAttention's hook points, so hooks reach the heads' queries, keys, values, scores,
attention weights and outputs of every layer by path: ``layers.1.self_attn.attn_weights_point``
in an encoder, ``decoder.layers.0.multihead_attn.k_point`` in a Transformer
(docs/attention.md)."""
import copy
import math
import numbers

from ... import _dtype
from ... import ops
from ...common.initializer import HeUniform, Uniform, initializer
from ..cell import Cell
from ..container import CellList
from .attention import MultiheadAttention
from .basic import Dense, Dropout
from .normalization import LayerNorm
from .rnn_cells import check_bool, positive_int

__all__ = ['TransformerEncoderLayer', 'TransformerDecoderLayer', 'TransformerEncoder',
           'TransformerDecoder', 'Transformer']


def _activation(activation):
    """MindSpore 2.10's rule: 'relu' or 'gelu', or the functions ``ops.relu`` and ``ops.gelu``
    themselves. A Cell is callable, so MindSpore 2.10 rejects ``nn.ReLU()`` and ``nn.GELU()``
    too, whatever its docstring says; so does this."""
    if isinstance(activation, str):
        if activation == 'relu':
            return ops.relu
        if activation == 'gelu':
            return ops.gelu
        raise ValueError(f"The activation must be relu/gelu, but get {activation}")
    if not callable(activation):
        raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, "
                         f"but get {activation}.")
    if activation is not ops.relu and activation is not ops.gelu:
        raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, "
                         f"but get {activation}.")
    return activation


def _dense(fan_in, fan_out, dtype):
    """MindSpore's feed-forward Dense: HeUniform(sqrt(5)) weight, U(1/sqrt(fan_in)) bias."""
    return Dense(fan_in, fan_out, weight_init=HeUniform(math.sqrt(5)),
                 bias_init=Uniform(1 / math.sqrt(fan_in)), dtype=dtype)


def _check_padding_mask(mask, arg):
    if mask is not None and mask.dtype != _dtype.bool_ and not mask.dtype.is_floating:
        raise AssertionError(f"only bool and floating types of {arg} are supported, got "
                             f"{mask.dtype}")


class _Layer(Cell):
    """What the encoder and decoder layers share: the arguments, self-attention, the
    feed-forward block (dense1, activation, dropout, dense2) and their dropouts."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                 batch_first, norm_first, dtype, norms, cross):
        super().__init__()
        name = type(self).__name__
        positive_int(d_model, name, 'd_model')
        positive_int(nhead, name, 'nhead')
        positive_int(dim_feedforward, name, 'dim_feedforward')
        check_bool(batch_first, name, 'batch_first')
        check_bool(norm_first, name, 'norm_first')
        if isinstance(layer_norm_eps, bool) or not isinstance(layer_norm_eps, numbers.Real) \
                or layer_norm_eps <= 0:
            raise ValueError(f"nn.{name}: layer_norm_eps must be a positive number, got "
                             f"{layer_norm_eps!r}")
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dtype)
        if cross:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                     batch_first=batch_first, dtype=dtype)
        self.dense1 = _dense(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _dense(dim_feedforward, d_model, dtype)
        for i in range(1, norms + 1):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for i in range(1, norms + 1):
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _activation(activation)
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.norm_first = norm_first
        self.dtype = dtype

    def _config(self):
        """The arguments to build another layer like this one."""
        return (self.d_model, self.nhead, self.dim_feedforward, self.dropout_num,
                self.activation1, self.layernorm_eps, self.batch_first, self.norm_first)

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x, dropout):
        return dropout(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerEncoderLayer(_Layer):
    """One encoder layer: self-attention and a feed-forward block, each with a residual
    connection and a LayerNorm (after it, or before it with ``norm_first``).

    Args:
        d_model: the number of features, a positive int.
        nhead: the number of attention heads (d_model must divide by it).
        dim_feedforward: the hidden size of the feed-forward block. Default 2048.
        dropout: the dropout probability everywhere, in training. Default 0.1.
        activation: 'relu', 'gelu', ``ops.relu`` or ``ops.gelu``. Default 'relu'.
        layer_norm_eps: the LayerNorms' epsilon. Default 1e-5.
        batch_first: inputs and output are (batch, seq, feature). Default False.
        norm_first: LayerNorm before each block rather than after the residual sum.
            Default False.
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        src: (S, N, E) ((N, S, E) with batch_first) or (S, E).
        src_mask: (S, S) or (N * nhead, S, S), bool or float. Default None.
        src_key_padding_mask: (N, S) or (S,), bool or float. Default None.

    Outputs:
        Tensor of src's shape.

    Hook points: ``self_attn.q_point``, ``k_point``, ``v_point``, ``attn_scores_point``,
    ``attn_weights_point``, ``head_output_point`` (see ``MultiheadAttention``).

    Raises:
        ValueError: for an activation other than those, or sizes below 1.
        AssertionError: for a src_key_padding_mask neither bool nor floating (as MindSpore).

    >>> import hookgrad as ms
    >>> layer = ms.nn.TransformerEncoderLayer(8, 2, 16)
    >>> layer(ms.ops.ones((5, 3, 8))).shape
    (5, 3, 8)
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu',
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=_dtype.float32):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, dtype, norms=2, cross=False)

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_padding_mask(src_key_padding_mask, 'key_padding_mask')
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x, self.dropout2))


class TransformerDecoderLayer(_Layer):
    """One decoder layer: self-attention, attention over the encoder's output (``memory``) and
    a feed-forward block, each with a residual connection and a LayerNorm.

    Args:
        d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
        norm_first, dtype: as ``TransformerEncoderLayer``.

    Inputs:
        tgt: (T, N, E) ((N, T, E) with batch_first) or (T, E).
        memory: (S, N, E) likewise.
        tgt_mask: (T, T) or (N * nhead, T, T); memory_mask: (T, S) or (N * nhead, T, S).
        tgt_key_padding_mask: (N, T); memory_key_padding_mask: (N, S). All default None.

    Outputs:
        Tensor of tgt's shape.

    Hook points: those of ``MultiheadAttention`` under ``self_attn`` (self-attention) and
    ``multihead_attn`` (attention over memory: its keys and values have memory's length).

    Raises:
        ValueError: as ``TransformerEncoderLayer``.
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu',
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=_dtype.float32):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, dtype, norms=3, cross=True)

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x, self.dropout3))

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout2(x)


def _stack(layer, kind, num_layers, owner):
    """``num_layers`` copies of a fresh layer configured as ``layer`` (as MindSpore: the copies
    start equal to each other, not to ``layer``)."""
    if not isinstance(layer, kind):
        raise TypeError(f"nn.{owner}: expected a {kind.__name__}, got {type(layer).__name__}")
    num_layers = positive_int(num_layers, owner, 'num_layers')
    fresh = kind(*layer._config(), dtype=layer.dtype)
    return CellList([copy.deepcopy(fresh) for _ in range(num_layers)]), num_layers


class TransformerEncoder(Cell):
    """A stack of ``num_layers`` encoder layers, then ``norm`` when given.

    Args:
        encoder_layer: a ``TransformerEncoderLayer`` giving the layers' configuration.
        num_layers: the number of layers, a positive int.
        norm: a Cell applied to the output (a LayerNorm), or None. Default None.

    Inputs:
        src, src_mask, src_key_padding_mask: as ``TransformerEncoderLayer``.

    Outputs:
        Tensor of src's shape.
    """

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers, self.num_layers = _stack(encoder_layer, TransformerEncoderLayer, num_layers,
                                              'TransformerEncoder')
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_padding_mask(src_key_padding_mask, 'key_padding_mask')
        x = src
        for layer in self.layers:
            x = layer(x, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return x if self.norm is None else self.norm(x)


class TransformerDecoder(Cell):
    """A stack of ``num_layers`` decoder layers, then ``norm`` when given.

    Args:
        decoder_layer: a ``TransformerDecoderLayer`` giving the layers' configuration.
        num_layers: the number of layers, a positive int.
        norm: a Cell applied to the output (a LayerNorm), or None. Default None.

    Inputs:
        tgt, memory and the masks: as ``TransformerDecoderLayer``.

    Outputs:
        Tensor of tgt's shape.
    """

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers, self.num_layers = _stack(decoder_layer, TransformerDecoderLayer, num_layers,
                                              'TransformerDecoder')
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                      tgt_key_padding_mask=tgt_key_padding_mask,
                      memory_key_padding_mask=memory_key_padding_mask)
        return x if self.norm is None else self.norm(x)


class Transformer(Cell):
    """An encoder-decoder transformer: ``decoder(tgt, encoder(src))``, each stack closed by a
    LayerNorm; every parameter with more than one dimension starts XavierUniform.

    Args:
        d_model: the number of features. Default 512.
        nhead: the number of attention heads. Default 8.
        num_encoder_layers, num_decoder_layers: the stack depths. Default 6 each.
        dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, dtype:
            as ``TransformerEncoderLayer``.
        custom_encoder, custom_decoder: Cells used instead of the built stacks. Default None.

    Inputs:
        src: (S, N, E) ((N, S, E) with batch_first) or (S, E); tgt: (T, N, E) likewise.
        src_mask, tgt_mask, memory_mask, src_key_padding_mask, tgt_key_padding_mask,
        memory_key_padding_mask: as the layers'. All default None.

    Outputs:
        Tensor of tgt's shape.

    Raises:
        ValueError: when src or tgt does not have d_model features.

    >>> import hookgrad as ms
    >>> net = ms.nn.Transformer(8, 2, 1, 1, 16)
    >>> net(ms.ops.ones((5, 3, 8)), ms.ops.ones((4, 3, 8))).shape
    (4, 3, 8)
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation='relu', custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=_dtype.float32):
        super().__init__()
        config = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                  batch_first, norm_first)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(*config, dtype=dtype), num_encoder_layers,
                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(*config, dtype=dtype), num_decoder_layers,
                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer('xavier_uniform', p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        if src.ndim == 3 and tgt.ndim == 3:
            axis = 0 if self.batch_first else 1
            if src.shape[axis] != tgt.shape[axis]:
                raise ValueError(f"nn.Transformer: src and tgt must have the same batch size, "
                                 f"got shapes {src.shape} and {tgt.shape}")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError(f"nn.Transformer: src and tgt must have d_model={self.d_model} "
                             f"features, got shapes {src.shape} and {tgt.shape}")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
