"""MultiheadAttention (MindSpore 2.10's signature, parameter names, initialisation and outputs).

The forward is composed of differentiable ops (projections, one batched matmul for the scores
of all heads, softmax, one for the values), so gradients, hooks and op observers work through it.
Its intermediate values (the heads' queries, keys and values, the scores, the attention weights
and the heads' outputs) pass through ``HookPoint`` sub-cells, identities that cell hooks can
read, replace and differentiate (docs/attention.md).
"""
import math
import numbers

import numpy as np

from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...ops._base import exact
from ...common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from ..cell import Cell
from ..parameter import Parameter
from .basic import Dense
from .rnn_cells import check_bool, positive_int

__all__ = ['MultiheadAttention', 'HookPoint']

# the hook points of MultiheadAttention, in the order the forward computes them
POINTS = ('q_point', 'k_point', 'v_point', 'attn_scores_point', 'attn_weights_point',
          'head_output_point')


class HookPoint(Cell):
    """The identity, as a sub-cell: it names an intermediate value of its parent's forward so
    that cell hooks reach it. A forward hook reads the value and may return a replacement (which
    the parent computes on with), backward hooks receive its gradient. It has no parameters, so
    parameter names, checkpoints and initialisation stay those of the parent; without hooks it
    costs one cell call.

    Inputs:
        x: a Tensor.

    Outputs:
        ``x`` itself.

    >>> import hookgrad as ms
    >>> point = ms.nn.HookPoint()
    >>> handle = point.register_forward_hook(lambda cell, inputs, output: output * 0)
    >>> point(ms.Tensor([1.0, 2.0]))
    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  0.00000000e+00])
    """

    def construct(self, x):
        return x


class MultiheadAttention(Cell):
    """Multi-head attention: ``Concat(head_1..head_h) @ W_o.T + b_o`` with
    ``head_i = softmax(Q_i K_i.T / sqrt(head_dim) + mask) V_i`` on projected query, key, value.

    Args:
        embed_dim: the model dimension, a positive int divisible by ``num_heads``.
        num_heads: the number of heads, a positive int.
        dropout: dropout on the attention weights, in training. Default 0.0.
        has_bias: whether the input and output projections have biases. Default True.
        add_bias_kv: append the learned ``bias_k``, ``bias_v`` to the key and value sequences.
            Default False.
        add_zero_attn: append a zero key and value to each head's sequences. Default False.
        kdim, vdim: the key and value feature sizes. Default None: ``embed_dim``. When either
            differs from ``embed_dim`` the projections are ``q_proj_weight``, ``k_proj_weight``
            and ``v_proj_weight``; otherwise one packed ``in_proj_weight`` (3 * embed_dim,
            embed_dim).
        batch_first: inputs and output are (batch, seq, feature). Default False.
        dtype: the parameters' dtype. Default ``ms.float32``.

    Inputs:
        query: (L, N, E) ((N, L, E) with ``batch_first``), or (L, E) unbatched.
        key: (S, N, kdim) (or batch first, or (S, kdim)); value: (S, N, vdim) likewise.
        key_padding_mask: (N, S) ((S,) unbatched), bool (True: ignore that key) or float
            (added to the scores). Default None.
        need_weights: also return the attention weights. Default True.
        attn_mask: (L, S) or (N * num_heads, L, S), bool (True: may not attend) or float
            (added). Default None.
        average_attn_weights: average the returned weights over heads. Default True.

    Outputs:
        ``(attn_output, attn_weights)`` with ``need_weights``, else ``(attn_output,)``:
        attn_output of the query's layout with embed_dim features; attn_weights (N, L, S)
        averaged or (N, num_heads, L, S) per head ((L, S) or (num_heads, L, S) unbatched).

    A bool mask is turned into -inf scores before masks are combined, so a bool
    ``key_padding_mask`` masks keys beside a float ``attn_mask`` too, as documented (MindSpore
    2.10 adds the bool mask as 1.0 in that one combination).

    Hook points: sub-cells (``HookPoint``, identities without parameters) that every call passes
    its intermediate values through, in this order; a forward hook on one reads the value and
    may return a replacement, backward hooks get its gradient (docs/attention.md). The layouts
    are batch-major whatever ``batch_first`` is (N is 1 for an unbatched call); S counts the
    keys attended over: the key sequence, plus one with ``add_bias_kv``, plus one with
    ``add_zero_attn``.

    - ``q_point``: the projected query split into heads, (N, num_heads, L, head_dim), before the
      1/sqrt(head_dim) scaling; head h is features ``h*head_dim:(h+1)*head_dim`` of the
      projection.
    - ``k_point``, ``v_point``: the projected key and value likewise, (N, num_heads, S,
      head_dim), with ``bias_k``/``bias_v`` and the zero key/value appended.
    - ``attn_scores_point``: ``Q K.T / sqrt(head_dim)`` plus the masks (-inf where a key may not
      be attended), (N, num_heads, L, S): the input of the softmax.
    - ``attn_weights_point``: the softmax of the scores, (N, num_heads, L, S), before dropout
      (in training, dropout applies to what this point returns; the returned
      ``attn_weights`` are taken after it).
    - ``head_output_point``: each head's ``weights @ V``, (N, num_heads, L, head_dim).

    ``out_proj`` receives the heads' outputs concatenated, (L, N, embed_dim): columns
    ``h*head_dim:(h+1)*head_dim`` are head h, so column block h of ``out_proj.weight`` is head
    h's share of the output. The printed form leaves the hook points out, as MindSpore prints
    this layer.

    Raises:
        ValueError: for sizes below 1, an embed_dim not divisible by num_heads, inputs or masks
            of the wrong shape, or masks that are not bool or floating.
        TypeError: for arguments of the wrong type.

    >>> import hookgrad as ms
    >>> mha = ms.nn.MultiheadAttention(8, 2)
    >>> x = ms.ops.ones((5, 3, 8))
    >>> out, weights = mha(x, x, x)
    >>> out.shape, weights.shape
    ((5, 3, 8), (3, 5, 5))
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 dtype=_dtype.float32):
        super().__init__()
        name = 'MultiheadAttention'
        self.embed_dim = positive_int(embed_dim, name, 'embed_dim')
        self.num_heads = positive_int(num_heads, name, 'num_heads')
        self.kdim = self.embed_dim if kdim is None else positive_int(kdim, name, 'kdim')
        self.vdim = self.embed_dim if vdim is None else positive_int(vdim, name, 'vdim')
        if isinstance(dropout, bool) or not isinstance(dropout, numbers.Real) \
                or not 0 <= dropout <= 1:
            raise ValueError(f"nn.MultiheadAttention: dropout must be a number in [0, 1], got "
                             f"{dropout!r}")
        for arg, value in (('has_bias', has_bias), ('add_bias_kv', add_bias_kv),
                           ('add_zero_attn', add_zero_attn), ('batch_first', batch_first)):
            check_bool(value, name, arg)
        self.head_dim = self.embed_dim // self.num_heads
        if self.head_dim * self.num_heads != self.embed_dim:
            raise ValueError(f"nn.MultiheadAttention: embed_dim ({self.embed_dim}) must be "
                             f"divisible by num_heads ({self.num_heads})")
        if dtype is None:
            dtype = _dtype.float32
        self.dropout = float(dropout)
        self.batch_first = batch_first
        self.add_zero_attn = add_zero_attn
        self.dtype = dtype
        self._qkv_same_embed_dim = self.kdim == self.embed_dim and self.vdim == self.embed_dim
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * e, e), dtype),
                                            name='in_proj_weight')
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (e, e), dtype),
                                           name='q_proj_weight')
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (e, self.kdim), dtype),
                                           name='k_proj_weight')
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (e, self.vdim), dtype),
                                           name='v_proj_weight')
            self.in_proj_weight = None
        self.in_proj_bias = Parameter(initializer('zeros', (3 * e,), dtype),
                                      name='in_proj_bias') if has_bias else None
        self.out_proj = Dense(e, e, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(1 / math.sqrt(e)), dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, e), dtype), name='bias_k')
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, e), dtype), name='bias_v')
        else:
            self.bias_k = self.bias_v = None
        for point in POINTS:
            setattr(self, point, HookPoint())

    def __repr__(self):
        """MindSpore's printed form: ``out_proj`` only, the hook points left out."""
        children = [f"({name}): " + repr(cell).replace('\n', '\n  ')
                    for name, cell in self._cells.items()
                    if cell is not None and not isinstance(cell, HookPoint)]
        inner = "\n  " + "\n  ".join(children) + "\n" if children else ''
        return f"{type(self).__name__}({inner})"

    __str__ = __repr__

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        for arg, t in (('query', query), ('key', key), ('value', value)):
            if not isinstance(t, Tensor):
                raise TypeError(f"nn.MultiheadAttention: {arg} must be a Tensor, got "
                                f"{type(t).__name__}")
        if query.ndim not in (2, 3):
            raise ValueError(f"nn.MultiheadAttention: query must be 2-D (unbatched) or 3-D, got "
                             f"shape {query.shape}")
        if key.ndim != query.ndim or value.ndim != query.ndim:
            raise ValueError(f"nn.MultiheadAttention: key and value must be {query.ndim}-D like "
                             f"query, got shapes {key.shape} and {value.shape}")
        batched = query.ndim == 3
        if key_padding_mask is not None and key_padding_mask.ndim != query.ndim - 1:
            raise ValueError(f"nn.MultiheadAttention: key_padding_mask must be "
                             f"{query.ndim - 1}-D for a {query.ndim}-D query, got shape "
                             f"{key_padding_mask.shape}")
        self_attention = query is key and key is value
        if not batched:
            query, key, value = (ops.expand_dims(t, 1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = ops.expand_dims(key_padding_mask, 0)
        elif self.batch_first:
            query, key, value = (ops.swapaxes(t, 0, 1) for t in (query, key, value))
        # weights nobody asked for are not averaged (the Transformer layers ask for none)
        out, weights = self._attend(query, key, value, key_padding_mask, attn_mask,
                                    average_attn_weights and need_weights, self_attention)
        if not need_weights:
            return (ops.squeeze(out, 1) if not batched else
                    ops.swapaxes(out, 0, 1) if self.batch_first else out,)
        if not batched:
            out, weights = ops.squeeze(out, 1), ops.squeeze(weights, 0)
        elif self.batch_first:
            out = ops.swapaxes(out, 0, 1)
        return (out, weights) if need_weights else (out,)

    def _project(self, query, key, value, self_attention):
        e = self.embed_dim
        b = self.in_proj_bias
        bq, bk, bv = (None,) * 3 if b is None else (b[:e], b[e:2 * e], b[2 * e:])
        if not self._qkv_same_embed_dim:
            return (ops.dense(query, self.q_proj_weight, bq),
                    ops.dense(key, self.k_proj_weight, bk),
                    ops.dense(value, self.v_proj_weight, bv))
        w = self.in_proj_weight
        if self_attention:
            return ops.split(ops.dense(query, w, b), e, axis=-1)
        return (ops.dense(query, w[:e], bq), ops.dense(key, w[e:2 * e], bk),
                ops.dense(value, w[2 * e:], bv))

    def _attend(self, query, key, value, key_padding_mask, attn_mask, average, self_attention):
        """Attention on time-major batched inputs: (L, N, E) output and (N, [H,] L, S)
        weights."""
        tgt_len, bsz, embed_dim = query.shape
        src_len = key.shape[0]
        heads, hd = self.num_heads, self.head_dim
        if embed_dim != self.embed_dim:
            raise ValueError(f"nn.MultiheadAttention: query must have {self.embed_dim} "
                             f"features, got shape {query.shape}")
        if key.shape[:2] != value.shape[:2] or key.shape[1] != bsz:
            raise ValueError(f"nn.MultiheadAttention: key {key.shape} and value {value.shape} "
                             f"must match each other in sequence length and query "
                             f"{query.shape} in batch size")
        if key.shape[2] != self.kdim or value.shape[2] != self.vdim:
            raise ValueError(f"nn.MultiheadAttention: key and value must have {self.kdim} and "
                             f"{self.vdim} features, got shapes {key.shape} and {value.shape}")
        q, k, v = self._project(query, key, value, self_attention)
        mask = None
        if attn_mask is not None:
            mask = _additive(attn_mask, q.dtype, 'attn_mask')
            if mask.ndim == 2 and mask.shape == (tgt_len, src_len):
                mask = ops.expand_dims(mask, 0)
            elif mask.shape != (bsz * heads, tgt_len, src_len):
                raise ValueError(f"nn.MultiheadAttention: attn_mask must have shape "
                                 f"{(tgt_len, src_len)} or {(bsz * heads, tgt_len, src_len)}, "
                                 f"got {attn_mask.shape}")
        kpm = None
        if key_padding_mask is not None:
            if key_padding_mask.shape != (bsz, src_len):
                raise ValueError(f"nn.MultiheadAttention: key_padding_mask must have shape "
                                 f"{(bsz, src_len)}, got {key_padding_mask.shape}")
            kpm = _additive(key_padding_mask, q.dtype, 'key_padding_mask')
        if self.bias_k is not None:
            k = ops.concat([k, ops.tile(ops.cast(self.bias_k, k.dtype), (1, bsz, 1))])
            v = ops.concat([v, ops.tile(ops.cast(self.bias_v, v.dtype), (1, bsz, 1))])
            mask, kpm = _pad_key(mask), _pad_key(kpm)
        # (seq, N, E) -> (N, H, seq, hd)
        q = self.q_point(ops.transpose(ops.reshape(q, (tgt_len, bsz, heads, hd)), (1, 2, 0, 3)))
        k = ops.transpose(ops.reshape(k, (k.shape[0], bsz, heads, hd)), (1, 2, 0, 3))
        v = ops.transpose(ops.reshape(v, (v.shape[0], bsz, heads, hd)), (1, 2, 0, 3))
        if self.add_zero_attn:
            zeros = ops.zeros((bsz, heads, 1, hd), k.dtype)
            k = ops.concat([k, zeros], axis=2)
            v = ops.concat([v, zeros], axis=2)
            mask, kpm = _pad_key(mask), _pad_key(kpm)
        k, v = self.k_point(k), self.v_point(v)
        src_len = k.shape[2]
        # the scale split between q and k, as MindSpore computes it: sqrt(sqrt(head_dim)) in
        # the tensors' dtype
        scale = exact(np.sqrt(np.sqrt(np.asarray(hd, _dtype.to_numpy(q.dtype)))).item(), q)
        scores = ops.matmul(q / scale, ops.swapaxes(k, -2, -1) / scale)
        if mask is not None:
            scores = scores + (ops.expand_dims(mask, 0) if mask.shape[0] == 1 else
                               ops.reshape(mask, (bsz, heads, tgt_len, src_len)))
        if kpm is not None:
            scores = scores + ops.reshape(kpm, (bsz, 1, 1, src_len))
        weights = self.attn_weights_point(ops.softmax(self.attn_scores_point(scores), -1))
        if self.training and self.dropout > 0:
            weights = ops.dropout(weights, p=self.dropout)
        out = self.head_output_point(ops.matmul(weights, v))
        # out_proj's input: (L, N, E), head h in columns h * hd:(h + 1) * hd
        out = ops.reshape(ops.transpose(out, (2, 0, 1, 3)), (tgt_len, bsz, embed_dim))
        out = self.out_proj(out)
        if average:
            weights = ops.sum(weights, 1) / heads
        return out, weights


def _additive(mask, dtype, arg):
    """A bool (or uint8) mask as 0 / -inf scores of ``dtype``; a float mask as it is."""
    if not isinstance(mask, Tensor):
        raise TypeError(f"nn.MultiheadAttention: {arg} must be a Tensor, got "
                        f"{type(mask).__name__}")
    if mask.dtype in (_dtype.bool_, _dtype.uint8):
        return ops.masked_fill(ops.zeros(mask.shape, dtype), ops.cast(mask, _dtype.bool_),
                               float('-inf'))
    if not mask.dtype.is_floating:
        raise ValueError(f"nn.MultiheadAttention: {arg} must be bool or floating, got "
                         f"{mask.dtype}")
    return ops.cast(mask, dtype) if mask.dtype != dtype else mask


def _pad_key(mask):
    """``mask`` with a zero score appended for one more key (None stays None)."""
    if mask is None:
        return None
    return ops.concat([mask, ops.zeros(mask.shape[:-1] + (1,), mask.dtype)], axis=-1)
