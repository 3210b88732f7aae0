"""MindSpore's fused attention functions: ``flash_attention_score`` (training),
``prompt_flash_attention`` and ``incre_flash_attention`` (inference) and
``fused_infer_attention_score`` (either inference form, chosen by the query's length).

MindSpore runs them as fused Ascend kernels; here each is composed from hookgrad's ops
(``matmul``, ``softmax``, ``where``, ``dropout``...) in one function, ``attend``, so gradients,
hooks and the op observer see ordinary ops. The contract is MindSpore 2.10's documented formula
``Dropout(Softmax(Mask(scale * Q K^T + pse, mask)), keep_prob) V`` over query heads
(B, N1, S1, D) and key/value heads (B, N2, S2, D), query head h reading key/value head
``h // (N1 // N2)``; a True (nonzero) mask element masks that pair out, and ``sparse_mode``
adds its causal or band pattern as the Ascend kernels count it (docs/attention.md). A query
row with every key masked out gives zeros, not NaN.
"""
import numbers

import numpy as np

from .._dtype import float32 as _float32
from .._tensor import Tensor
from ._base import exact_constants
from .activation import softmax
from .arithmetic import add, cast, mul, sub
from .creation import tensor_on, zeros
from .indexing import getitem, where
from .inspection import is_floating_point
from .linalg import matmul
from .random import dropout
from .reduction import amax, sum as _sum
from .shaping import concat, reshape, transpose
from .unary import exp, log
from .attention_args import (_band, _cumulative, _int, _lengths, _layout, _mask_array, _of,
                             _precise, _refuse, _sparse_mode)

__all__ = ['flash_attention_score', 'prompt_flash_attention', 'incre_flash_attention',
           'fused_infer_attention_score']

_COMPRESSED = 2048
_compressed_mask = []          # the expected compressed causal mask, made on first use


# ---------------------------------------------------------------- the attention itself

def _lowest(x):
    """The most negative finite value of ``x``'s dtype: what a masked score becomes."""
    name = str(x._data.dtype)
    if name == 'bfloat16':
        return -3.3895313892515355e38
    return float(np.finfo(x._data.dtype).min)


@exact_constants
def attend(q, k, v, scale, pse=None, masked=None, keep_prob=1.0, lse=False, stats=False):
    """softmax(scale * q k^T + pse, masked out) [dropout] v, q (B, N1, S1, D), k and v
    (B, N2, S2, D) with N1 a multiple of N2; ``pse`` broadcasts to (B, N1, S1, S2), ``masked``
    is a NumPy bool array that does (True: masked out). With ``lse`` also returns the
    log-sum-exp of the masked scores, (B, N1, S1, 1) float32 (-inf for a row all masked); with
    ``stats`` the softmax's row maximum and sum of exponentials instead, (B, N1, S1, 1) float32
    each (the outputs FlashAttentionScore keeps for its backward)."""
    b, n1, s1, d = q.shape
    n2, s2 = k.shape[1], k.shape[2]
    g = n1 // n2
    # query heads n2*g .. n2*g+g-1 share key/value head n2: fold the group into the rows
    scores = matmul(reshape(q, (b, n2, g * s1, d)), transpose(k, (0, 1, 3, 2)))
    scores = mul(reshape(scores, (b, n1, s1, s2)), float(scale))
    if pse is not None:
        scores = add(scores, pse)
    keep = None
    if masked is not None:
        keep = tensor_on(np.logical_not(masked), scores)
        scores = where(keep, scores, _lowest(scores))
    probs = softmax(scores, -1)
    if keep is not None:
        probs = where(keep, probs, 0.0)
    if keep_prob < 1.0:
        probs = dropout(probs, p=1.0 - keep_prob)
    out = matmul(reshape(probs, (b, n2, g * s1, s2)), v)
    out = reshape(out, (b, n1, s1, d))
    if not (lse or stats):
        return out
    top = amax(scores, -1, keepdims=True)
    e = exp(sub(scores, top))
    if keep is not None:
        e = where(keep, e, 0.0)
    total = _sum(e, -1, keepdim=True)
    if stats:
        return out, cast(top, _float32), cast(total, _float32)
    empty = tensor_on(total.asnumpy() == 0, total)
    value = where(empty, float('-inf'), add(log(where(empty, 1.0, total)), top))
    return out, cast(value, _float32)


def _pattern(q_len, kv_start, kv_end, s1, s2, mode, pre, nxt, banded):
    """(B, 1, S1, S2) bool, True where ``sparse_mode`` and the per-batch valid lengths mask a
    pair out: query rows from ``q_len`` on, keys outside ``[kv_start, kv_end)``; positions in
    the modes' rules count from the valid region's corners."""
    i = np.arange(s1)[None, :, None]
    j = np.arange(s2)[None, None, :] - kv_start[:, None, None]
    n1 = q_len[:, None, None].astype(np.int64)
    n2 = (kv_end - kv_start)[:, None, None].astype(np.int64)
    out = (i >= n1) | (j < 0) | (j >= n2)
    if mode == 2:
        out |= j > i
    elif mode == 3:
        out |= j > i + (n2 - n1)
    elif mode == 4:
        out |= (j - i > nxt + (n2 - n1)) | (i - j > pre + (n1 - n2))
    elif banded:
        out |= (j - i > nxt) | (i - j > pre)
    return out[:, None]


# ---------------------------------------------------------------- argument checks

def _qkv(query, key, value, fn):
    for x, name in ((query, 'query'), (key, 'key'), (value, 'value')):
        _of(Tensor, x, name, fn)
        if not is_floating_point(x):
            raise TypeError(f"For '{fn}', '{name}' must be a floating-point Tensor, but got "
                            f"{x.dtype}.")
    if not query.dtype == key.dtype == value.dtype:
        raise TypeError(f"For '{fn}', 'query', 'key' and 'value' must have the same dtype, "
                        f"but got {query.dtype}, {key.dtype} and {value.dtype}.")
    if key.shape != value.shape:
        raise RuntimeError(f"For '{fn}', 'key' and 'value' must have the same shape, but got "
                           f"{key.shape} and {value.shape}.")


def _heads_first(x, layout, name, fn, heads=None, d=None, what='head_num'):
    """``x`` in ``layout`` as (B, N, S, D) ('TND' stays (T, N, D)): a hidden axis split into
    ``heads`` heads (which a head axis must have: ``what`` names them) or heads of size ``d``."""
    want = 3 if layout in ('BSH', 'SBH', 'TND') else 4
    if x.ndim != want:
        raise RuntimeError(f"For '{fn}', '{name}' must be {want}-D in input_layout "
                           f"'{layout}', but got shape {x.shape}.")
    if layout in ('BSH', 'SBH'):
        h = x.shape[2]
        if heads is None:
            if h % d:
                raise RuntimeError(f"For '{fn}', the hidden size {h} of '{name}' is not a "
                                   f"multiple of the head size {d}.")
            heads = h // d
        elif h % heads:
            raise RuntimeError(f"For '{fn}', the hidden size {h} of '{name}' is not "
                               f"divisible by the head number {heads}.")
        x = reshape(x, x.shape[:2] + (heads, h // heads))
        return transpose(x, (0, 2, 1, 3) if layout == 'BSH' else (1, 2, 0, 3))
    x = transpose(x, (0, 2, 1, 3)) if layout == 'BSND' else x
    if heads is not None and x.shape[1] != heads:
        raise RuntimeError(f"For '{fn}', '{what}' ({heads}) must equal the head number of "
                           f"'{name}' ({x.shape[1]}).")
    return x


def _heads_back(out, layout):
    """(B, N, S, D) back into ``layout``."""
    if layout == 'BNSD':
        return out
    b, n, s, d = out.shape
    if layout == 'SBH':
        return reshape(transpose(out, (2, 0, 1, 3)), (s, b, n * d))
    out = transpose(out, (0, 2, 1, 3))
    return out if layout == 'BSND' else reshape(out, (b, s, n * d))


def _groups(q, k, fn, what='head_num'):
    """Check (B, N1, S1, D) against (B, N2, S2, D) for grouped-query attention."""
    if k.shape[3] != q.shape[3]:
        raise RuntimeError(f"For '{fn}', the D-axis of 'query', 'key' and 'value' must be the "
                           f"same, but got {q.shape[3]} and {k.shape[3]}.")
    if k.shape[0] != q.shape[0]:
        raise RuntimeError(f"For '{fn}', 'query' and 'key' must have the same batch size, "
                           f"but got {q.shape[0]} and {k.shape[0]}.")
    if k.shape[1] == 0 or q.shape[1] % k.shape[1]:
        raise RuntimeError(f"For '{fn}', '{what}' ({q.shape[1]}) is not divisible by the "
                           f"head number of 'key' and 'value' ({k.shape[1]}).")


def _compressed(mask, fn, name, mode):
    """Check the compressed causal mask of ``sparse_mode`` 2-4 (the kernels read it so)."""
    a = mask.reshape(mask.shape[-2:]) if mask.ndim > 2 and set(mask.shape[:-2]) == {1} else mask
    if a.shape != (_COMPRESSED, _COMPRESSED):
        raise RuntimeError(f"For '{fn}', with sparse_mode {mode} '{name}' must be the "
                           f"compressed ({_COMPRESSED}, {_COMPRESSED}) mask, but got shape "
                           f"{mask.shape}.")
    if not _compressed_mask:
        _compressed_mask.append(np.triu(np.ones((_COMPRESSED, _COMPRESSED), bool), 1))
    if not np.array_equal(a, _compressed_mask[0]):
        raise ValueError(f"For '{fn}', with sparse_mode {mode} '{name}' must be 1 strictly "
                         f"above the diagonal and 0 elsewhere (the compressed causal mask).")


def _full_mask(mask, b, n1, s1, s2, fn, name):
    """A user mask of shape (S1, S2), (B|1, S1, S2) or (B|1, N1|1, S1, S2) as 4-D."""
    shape = mask.shape
    if mask.ndim == 2:
        mask = mask[None, None]
    elif mask.ndim == 3:
        mask = mask[:, None]
    ok = (mask.ndim == 4 and mask.shape[0] in (1, b) and mask.shape[1] in (1, n1)
          and mask.shape[2:] == (s1, s2))
    if not ok:
        raise RuntimeError(f"For '{fn}', the shape of '{name}' must be (S1, S2), (B, S1, S2) "
                           f"or (B, N1, S1, S2) with B={b}, N1={n1}, S1={s1}, S2={s2} (B and "
                           f"N1 may be 1), but got {shape}.")
    return mask


def _pse(pse, q, s2, fn, name):
    """A position bias (B|1, N1, S1', S2') with S1' >= S1 and S2' >= S2, cut to (., ., S1, S2)."""
    _of(Tensor, pse, name, fn)
    if pse.dtype != q.dtype:
        raise TypeError(f"For '{fn}', '{name}' must have the dtype of 'query' ({q.dtype}), "
                        f"but got {pse.dtype}.")
    b, n1, s1, _ = q.shape
    ok = pse.ndim == 4 and pse.shape[0] in (1, b) and pse.shape[1] == n1 and \
        pse.shape[2] >= s1 and pse.shape[3] >= s2
    if not ok:
        raise RuntimeError(f"For '{fn}', the shape of '{name}' must be (B, N1, S1, S2) or "
                           f"(1, N1, S1, S2) with B={b}, N1={n1}, S1={s1}, S2={s2}, but got "
                           f"{pse.shape}.")
    if pse.shape[2:] != (s1, s2):
        pse = getitem(pse, (slice(None), slice(None), slice(0, s1), slice(0, s2)))
    return pse


def _masking(fn, q, s2, attn_mask, mode, pre, nxt, q_len=None, kv_start=None, kv_end=None,
             kinds=('bool', 'uint8'), mask_name='attn_mask'):
    """The bool array of pairs masked out (or None: none), from the user mask, ``sparse_mode``,
    ``pre_tokens``/``next_tokens`` and per-batch valid lengths."""
    b, n1, s1, _ = q.shape
    user = None if attn_mask is None else _mask_array(attn_mask, fn, mask_name, kinds)
    if mode in (2, 3, 4):
        if user is None:
            raise RuntimeError(f"For '{fn}', sparse_mode {mode} requires '{mask_name}' (the "
                               f"compressed ({_COMPRESSED}, {_COMPRESSED}) causal mask).")
        _compressed(user, fn, mask_name, mode)
        user = None
    elif user is not None:
        user = _full_mask(user, b, n1, s1, s2, fn, mask_name)
    banded = mode == 0 and user is not None
    if banded or mode == 4:
        _band(pre, nxt, s1, s2, fn)
    lengths = q_len is not None or kv_start is not None or kv_end is not None
    if not lengths and (mode == 1 or (mode == 0 and not banded)):
        return user
    q_len = np.full(b, s1) if q_len is None else q_len
    kv_start = np.zeros(b, np.int64) if kv_start is None else kv_start
    kv_end = np.full(b, s2) if kv_end is None else kv_end
    pattern = _pattern(q_len, kv_start, kv_end, s1, s2, mode, pre, nxt, banded)
    return pattern if user is None else pattern | user


# ---------------------------------------------------------------- training form

@exact_constants
def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None,
                          padding_mask=None, attn_mask=None, prefix=None, actual_seq_qlen=None,
                          actual_seq_kvlen=None, keep_prob=1.0, scalar_value=1.0,
                          pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout='BSH', sparse_mode=0):
    """Attention in training: ``Dropout(Softmax(Mask(scalar_value * Q K^T + real_shift,
    attn_mask)), keep_prob) V`` with ``head_num`` query heads, in ``input_layout`` 'BSH',
    'BNSD', 'SBH', 'BSND' or 'TND' (packed sequences, ``actual_seq_qlen`` and
    ``actual_seq_kvlen`` their cumulative lengths). Dropout draws from the global generator.
    Returns the attention output, shaped as ``query``. Raises TypeError for wrong types,
    ValueError for bad layouts, keep_prob, bands and lengths, RuntimeError for shapes and
    modes that do not fit, NotImplementedError for drop_mask, padding_mask, prefix, sparse_mode
    5-8 and a 'TND' real_shift.
    """
    return _flash(query, key, value, head_num, real_shift, drop_mask, padding_mask, attn_mask,
                  prefix, actual_seq_qlen, actual_seq_kvlen, keep_prob, scalar_value,
                  pre_tokens, next_tokens, inner_precise, input_layout, sparse_mode)


@exact_constants
def _flash(query, key, value, head_num, real_shift, drop_mask, padding_mask, attn_mask, prefix,
           actual_seq_qlen, actual_seq_kvlen, keep_prob, scalar_value, pre_tokens, next_tokens,
           inner_precise, input_layout, sparse_mode, stats=False):
    """``flash_attention_score``; with ``stats``, ``(output, softmax max, softmax sum)``, the
    two (B, N1, S1, 1) float32 (layouts other than 'TND')."""
    fn = 'flash_attention_score'
    _qkv(query, key, value, fn)
    head_num = _int(head_num, 'head_num', fn, 1)
    layout = _layout(input_layout, fn, ('BSH', 'BNSD', 'SBH', 'BSND', 'TND'))
    mode = _sparse_mode(sparse_mode, fn)
    keep_prob = _of(numbers.Real, keep_prob, 'keep_prob', fn)
    if not 0.0 < keep_prob <= 1.0:
        raise ValueError(f"For '{fn}', 'keep_prob' must be in (0, 1], but got {keep_prob}.")
    scale = _of(numbers.Real, scalar_value, 'scalar_value', fn)
    pre = _int(pre_tokens, 'pre_tokens', fn)
    nxt = _int(next_tokens, 'next_tokens', fn)
    _int(inner_precise, 'inner_precise', fn)           # reserved in MindSpore: no effect
    _refuse(fn, "hookgrad draws the dropout mask from its global generator; a bit-packed "
            "mask's bit order is the kernel's own", drop_mask=drop_mask)
    _refuse(fn, "it is reserved and not implemented in MindSpore either",
            padding_mask=padding_mask)
    _refuse(fn, "it takes effect only with sparse_mode 5, which is not supported",
            prefix=prefix)
    if layout == 'TND':
        _refuse(fn, "in the 'TND' layout it is the compressed ALiBi form (1024 rows), whose "
                "expansion is not documented", real_shift=real_shift)
        if stats:
            raise NotImplementedError(
                "FlashAttentionScore: softmax_max and softmax_sum in the 'TND' layout are not "
                "available in hookgrad: MindSpore documents their shape as (T1, N1, D), which "
                "does not say how a row's statistics are laid out; use "
                "ops.flash_attention_score for the attention output")
        return _packed(query, key, value, head_num, attn_mask, actual_seq_qlen,
                       actual_seq_kvlen, keep_prob, scale, pre, nxt, mode, fn)
    if actual_seq_qlen is not None or actual_seq_kvlen is not None:
        raise ValueError(f"For '{fn}', 'actual_seq_qlen' and 'actual_seq_kvlen' are for "
                         f"input_layout 'TND' only, but input_layout is '{layout}'.")
    q = _heads_first(query, layout, 'query', fn, heads=head_num)
    d = q.shape[3]
    k = _heads_first(key, layout, 'key', fn, d=d)
    v = _heads_first(value, layout, 'value', fn, d=d)
    _groups(q, k, fn)
    s2 = k.shape[2]
    if real_shift is not None and real_shift.ndim == 4 and real_shift.shape[2] < q.shape[2]:
        _refuse(fn, "its compressed ALiBi form (1024 rows for a longer S1) is not documented "
                "precisely enough to expand", real_shift=real_shift)
    pse = None if real_shift is None else _pse(real_shift, q, s2, fn, 'real_shift')
    masked = _masking(fn, q, s2, attn_mask, mode, pre, nxt)
    if stats:
        out, top, total = attend(q, k, v, scale, pse, masked, keep_prob, stats=True)
        return _heads_back(out, layout), top, total
    out = attend(q, k, v, scale, pse, masked, keep_prob)
    return _heads_back(out, layout)


def _packed(query, key, value, head_num, attn_mask, qlen, kvlen, keep_prob, scale, pre, nxt,
            mode, fn):
    """The 'TND' layout: each sequence of the pack attends on its own (the masks' corners
    are each sequence's)."""
    if qlen is None or kvlen is None:
        raise ValueError(f"For '{fn}', 'actual_seq_qlen' and 'actual_seq_kvlen' are required "
                         f"with input_layout 'TND'.")
    for x, name, n in ((query, 'query', head_num), (key, 'key', None), (value, 'value', None)):
        _heads_first(x, 'TND', name, fn, heads=n)
    qs = _cumulative(qlen, fn, 'actual_seq_qlen', query.shape[0])
    ks = _cumulative(kvlen, fn, 'actual_seq_kvlen', key.shape[0])
    if qs.size != ks.size:
        raise ValueError(f"For '{fn}', 'actual_seq_qlen' and 'actual_seq_kvlen' must have the "
                         f"same length, but got {qs.size} and {ks.size}.")
    if (ks == 0).any():
        raise ValueError(f"For '{fn}', no sequence of 'actual_seq_kvlen' may be empty.")
    if mode in (0, 1) and attn_mask is not None:
        raise RuntimeError(f"For '{fn}', input_layout 'TND' takes 'attn_mask' only as the "
                           f"compressed causal mask of sparse_mode 2, 3 or 4.")

    def bnsd(x, a, n):
        part = getitem(x, slice(int(a), int(a + n)))
        return reshape(transpose(part, (1, 0, 2)), (1, x.shape[1], int(n), x.shape[2]))

    outs, qa, ka = [], 0, 0
    for n1, n2 in zip(qs, ks):
        if n1:
            q, k, v = bnsd(query, qa, n1), bnsd(key, ka, n2), bnsd(value, ka, n2)
            _groups(q, k, fn)
            masked = _masking(fn, q, int(n2), attn_mask, mode, pre, nxt)
            o = attend(q, k, v, scale, None, masked, keep_prob)
            outs.append(transpose(reshape(o, o.shape[1:]), (1, 0, 2)))
        qa, ka = qa + n1, ka + n2
    if not outs:
        return zeros(query.shape, query.dtype)
    return outs[0] if len(outs) == 1 else concat(outs, 0)


# ---------------------------------------------------------------- inference forms

_QUANT = "quantised attention (int8 inputs or outputs and their scales) is not implemented"
_ANTIQUANT = "int8 key/value caches with their dequantisation scales are not implemented"
_PAGED = "a paged key/value cache (block table) is not implemented; pass key and value whole"


def _kv(x, fn, name):
    """A key or value: a Tensor, or a list/tuple holding one."""
    if isinstance(x, (list, tuple)):
        if len(x) != 1:
            raise NotImplementedError(f"For '{fn}', '{name}' as a list of {len(x)} Tensors (one "
                                      f"per batch) is not supported: pass one Tensor.")
        x = x[0]
    return x


def _split_heads(fn, query, key, value, layout, num_heads, nkv):
    """query, key and value as (B, N, S, D), checking MindSpore's head-number rules."""
    _qkv(query, key, value, fn)
    num_heads = _int(num_heads, 'num_heads', fn, 1)
    nkv = _int(nkv, 'num_key_value_heads', fn, 0)
    q = _heads_first(query, layout, 'query', fn, num_heads, what='num_heads')
    heads, what = (nkv, 'num_key_value_heads') if nkv else (num_heads, 'num_heads')
    k = _heads_first(key, layout, 'key', fn, heads, what=what)
    v = _heads_first(value, layout, 'value', fn, heads, what=what)
    _groups(q, k, fn, 'num_heads')
    if num_heads // heads > 64:
        raise RuntimeError(f"For '{fn}', num_heads / num_key_value_heads must not be greater "
                           f"than 64, but got {num_heads // heads}.")
    return q, k, v


@exact_constants
def _infer(fn, query, key, value, mask, pse, num_heads, nkv, scale, layout, lse=False,
           out_layout=None, qlens=None, kvlens=None, pre=0, nxt=0, mode=0, kv_padding=None,
           incremental=False, kinds=('bool', 'int8', 'uint8'), mask_name='attn_mask'):
    """Inference attention: the query's whole sequence at once (PromptFlashAttention), or
    with ``incremental`` one new position against the key/value cache (IncreFlashAttention)."""
    q, k, v = _split_heads(fn, query, key, value, layout, num_heads, nkv)
    name = 'scale' if fn == 'fused_infer_attention_score' else 'scale_value'
    scale = _of(numbers.Real, scale, name, fn)
    b, _, s1, _ = q.shape
    s2 = k.shape[2]
    if incremental:
        if s1 != 1:
            raise ValueError(f"For '{fn}', the sequence length of 'query' must be 1, but got "
                             f"{s1}.")
        lens = 'actual_seq_lengths' if fn == 'incre_flash_attention' else 'actual_seq_lengths_kv'
        q_len, kv_start, kv_end = _cache(fn, kvlens, kv_padding, b, s2, lens)
        masked = _masking(fn, q, s2, None, 0, 0, 0, q_len, kv_start, kv_end)
        if mask is not None:
            user = _cache_mask(_mask_array(mask, fn, mask_name, kinds), b, s2, fn, mask_name)
            masked = user if masked is None else masked | user
    else:
        pre, nxt = _int(pre, 'pre_tokens', fn), _int(nxt, 'next_tokens', fn)
        mode = _sparse_mode(mode, fn)
        if mode == 4 and (pre < 0 or nxt < 0):
            raise ValueError(f"For '{fn}', with sparse_mode 4 pre_tokens and next_tokens must "
                             f"be non-negative, but got {pre} and {nxt}.")
        q_len = None if qlens is None else _lengths(qlens, fn, 'actual_seq_lengths', b, s1)
        kv_end = None if kvlens is None else _lengths(kvlens, fn, 'actual_seq_lengths_kv', b,
                                                      s2)
        masked = _masking(fn, q, s2, mask, mode, pre, nxt, q_len, None, kv_end, kinds,
                          mask_name)
    pse = None if pse is None else _pse(pse, q, s2, fn, 'pse_shift')
    out = attend(q, k, v, scale, pse, masked, 1.0, lse)
    if lse:
        return _heads_back(out[0], out_layout or layout), out[1]
    return _heads_back(out, out_layout or layout)


def _cache(fn, kvlens, kv_padding, b, s2, name):
    """(query length, first key, end key) per batch of an incremental step: the cache's valid
    keys are its first ``kvlens``, or with ``kv_padding`` the ``kvlens`` keys ending
    ``kv_padding`` before its end (a batch whose range starts or ends before 0 gives zeros)."""
    if kvlens is None:
        return None, None, None
    kv_end = _lengths(kvlens, fn, name, b, s2)
    if kv_padding is None:
        return None, None, kv_end
    pad = _of(Tensor, kv_padding, 'kv_padding_size', fn).asnumpy().reshape(-1)
    if pad.size != 1:
        raise ValueError(f"For '{fn}', 'kv_padding_size' must hold one value, but got "
                         f"{pad.size}.")
    end = s2 - max(int(pad[0]), 0)
    kv_start = end - kv_end
    q_len = np.where((kv_start < 0) | (end < 0), 0, 1)
    return q_len, np.maximum(kv_start, 0), np.full(b, end)


def _cache_mask(user, b, s2, fn, name):
    """An incremental step's mask, (B, S), (B, 1, S) or (B, 1, 1, S), as (B, 1, 1, S)."""
    if user.ndim not in (2, 3, 4) or user.shape[0] not in (1, b) or \
            user.shape[-1] != s2 or any(n != 1 for n in user.shape[1:-1]):
        raise RuntimeError(f"For '{fn}', the shape of '{name}' must be (B, S), (B, 1, S) or "
                           f"(B, 1, 1, S) with B={b}, S={s2}, but got {user.shape}.")
    return user.reshape(user.shape[0], 1, 1, s2)


@exact_constants
def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                           actual_seq_lengths_kv=None, pse_shift=None, deq_scale1=None,
                           quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0,
                           pre_tokens=2147483647, next_tokens=0, input_layout='BSH',
                           num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """Full inference: ``Softmax(Mask(scale_value * Q K^T + pse_shift, attn_mask)) V`` in
    layout 'BSH' or 'BNSD', with ``num_key_value_heads`` key/value heads (0: ``num_heads``)
    and per-batch valid lengths ``actual_seq_lengths`` (query rows past them give zeros) and
    ``actual_seq_lengths_kv`` (keys past them are masked out). The quantisation scales raise
    NotImplementedError."""
    fn = 'prompt_flash_attention'
    _refuse(fn, _QUANT, deq_scale1=deq_scale1, quant_scale1=quant_scale1,
            deq_scale2=deq_scale2, quant_scale2=quant_scale2, quant_offset2=quant_offset2)
    layout = _layout(input_layout, fn, ('BSH', 'BNSD'))
    _precise(inner_precise, fn, (0, 1))
    return _infer(fn, query, key, value, attn_mask, pse_shift, num_heads, num_key_value_heads,
                  scale_value, layout, qlens=actual_seq_lengths, kvlens=actual_seq_lengths_kv,
                  pre=pre_tokens, nxt=next_tokens, mode=sparse_mode,
                  kinds=('bool', 'int8', 'uint8', 'float16'))


@exact_constants
def incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                          pse_shift=None, dequant_scale1=None, quant_scale1=None,
                          dequant_scale2=None, quant_scale2=None, quant_offset2=None,
                          antiquant_scale=None, antiquant_offset=None, block_table=None,
                          num_heads=1, input_layout='BSH', scale_value=1.0,
                          num_key_value_heads=0, block_size=0, inner_precise=1,
                          kv_padding_size=None):
    """Incremental inference: one query position (S=1) against the key/value cache, in layout
    'BSH' or 'BNSD'; ``key`` and ``value`` may be a list holding one Tensor.
    ``actual_seq_lengths`` are the valid cache lengths per batch; with ``kv_padding_size`` the
    valid keys are ``[S - kv_padding_size - length, S - kv_padding_size)``. Quantisation,
    int8 caches and block tables raise NotImplementedError."""
    fn = 'incre_flash_attention'
    _refuse(fn, _QUANT, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1,
            dequant_scale2=dequant_scale2, quant_scale2=quant_scale2,
            quant_offset2=quant_offset2)
    _refuse(fn, _ANTIQUANT, antiquant_scale=antiquant_scale, antiquant_offset=antiquant_offset)
    _refuse(fn, _PAGED, block_table=block_table)
    _int(block_size, 'block_size', fn)                 # the block table's, which is refused
    layout = _layout(input_layout, fn, ('BSH', 'BNSD'))
    _precise(inner_precise, fn, (0, 1))
    return _infer(fn, query, _kv(key, fn, 'key'), _kv(value, fn, 'value'), attn_mask,
                  pse_shift, num_heads, num_key_value_heads, scale_value, layout,
                  kvlens=actual_seq_lengths, kv_padding=kv_padding_size, incremental=True)


@exact_constants
def fused_infer_attention_score(query, key, value, *, pse_shift=None, atten_mask=None,
                                actual_seq_lengths=None, actual_seq_lengths_kv=None,
                                dequant_scale1=None, quant_scale1=None, dequant_scale2=None,
                                quant_scale2=None, quant_offset2=None, antiquant_scale=None,
                                antiquant_offset=None, key_antiquant_scale=None,
                                key_antiquant_offset=None, value_antiquant_scale=None,
                                value_antiquant_offset=None, block_table=None,
                                query_padding_size=None, kv_padding_size=None,
                                key_shared_prefix=None, value_shared_prefix=None,
                                actual_shared_prefix_len=None, num_heads=1, scale=1.0,
                                pre_tokens=2147483647, next_tokens=2147483647,
                                input_layout='BSH', num_key_value_heads=0, sparse_mode=0,
                                inner_precise=1, block_size=0, antiquant_mode=0,
                                key_antiquant_mode=0, value_antiquant_mode=0,
                                softmax_lse_flag=False):
    """Inference attention: ``incre_flash_attention``'s when the query's S is 1 (then
    ``actual_seq_lengths``, ``pre_tokens``, ``next_tokens`` and ``sparse_mode`` do not apply),
    otherwise ``prompt_flash_attention``'s. Layouts 'BSH', 'BNSD', 'BSND' and 'BNSD_BSND'
    (BNSD in, BSND out; S > 1 only). Returns ``(attention_out, softmax_lse)``: the
    log-sum-exp of each row's masked scores, (B, N, S, 1) float32, when ``softmax_lse_flag``,
    else a (1,) float32 zero. Rows with every key masked out give zeros (the row correction
    of ``inner_precise`` 2 and 3 is always on)."""
    fn = 'fused_infer_attention_score'
    _refuse(fn, _QUANT, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1,
            dequant_scale2=dequant_scale2, quant_scale2=quant_scale2,
            quant_offset2=quant_offset2)
    _refuse(fn, _ANTIQUANT, antiquant_scale=antiquant_scale, antiquant_offset=antiquant_offset,
            key_antiquant_scale=key_antiquant_scale, key_antiquant_offset=key_antiquant_offset,
            value_antiquant_scale=value_antiquant_scale,
            value_antiquant_offset=value_antiquant_offset)
    _refuse(fn, _PAGED, block_table=block_table)
    _refuse(fn, "right-aligned (left-padded) sequences are not implemented",
            query_padding_size=query_padding_size, kv_padding_size=kv_padding_size)
    _refuse(fn, "it is reserved and not implemented in MindSpore either",
            key_shared_prefix=key_shared_prefix, value_shared_prefix=value_shared_prefix,
            actual_shared_prefix_len=actual_shared_prefix_len)
    for name, v in (('block_size', block_size), ('antiquant_mode', antiquant_mode),
                    ('key_antiquant_mode', key_antiquant_mode),
                    ('value_antiquant_mode', value_antiquant_mode)):
        _int(v, name, fn)        # modes of the refused int8 caches and block table
    if not isinstance(softmax_lse_flag, bool):
        raise TypeError(f"For '{fn}', 'softmax_lse_flag' must be a bool, but got "
                        f"{type(softmax_lse_flag).__name__}.")
    layout = _layout(input_layout, fn, ('BSH', 'BNSD', 'BSND', 'BNSD_BSND'))
    key, value = _kv(key, fn, 'key'), _kv(value, fn, 'value')
    _of(Tensor, query, 'query', fn)
    in_layout = 'BNSD' if layout == 'BNSD_BSND' else layout
    s1 = query.shape[2 if in_layout == 'BNSD' else 1] if query.ndim >= 3 else None
    incremental = s1 == 1 and layout != 'BNSD_BSND'
    _precise(inner_precise, fn, (0, 1) if incremental else (0, 1, 2, 3))
    out = _infer(fn, query, key, value, atten_mask, pse_shift, num_heads, num_key_value_heads,
                 scale, in_layout, softmax_lse_flag, 'BSND' if layout == 'BNSD_BSND' else None,
                 actual_seq_lengths, actual_seq_lengths_kv, pre_tokens, next_tokens,
                 sparse_mode, None, incremental, mask_name='atten_mask')
    if softmax_lse_flag:
        return out
    return out, zeros((1,), _float32)
