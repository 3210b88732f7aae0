"""ops.flash_attention_score, prompt_flash_attention, incre_flash_attention and
fused_infer_attention_score against a float64 NumPy reference of MindSpore's documented formula
(MindSpore runs them on Ascend only, so no values can be recorded from it), their masks and
sparse modes, grouped-query attention, dropout, gradients and argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.gradcheck import check_grad

RNG = np.random.default_rng(7)
CAUSAL = np.triu(np.ones((2048, 2048), np.uint8), 1)     # the compressed mask of modes 2-4


def T(a, dtype=None):
    a = np.asarray(a)
    return ms.Tensor(a) if dtype is None else ms.Tensor(a.astype(dtype))


def normal(*shape):
    return RNG.standard_normal(shape)


# ---------------------------------------------------------------- the reference

def reference(q, k, v, scale=1.0, pse=None, masked=None):
    """softmax(scale * q k^T + pse, masked out) v per head, q (B, N1, S1, D), k and v
    (B, N2, S2, D); query head h reads key/value head h // (N1 // N2); a row all masked out
    gives zeros."""
    b, n1, s1, d = q.shape
    n2, s2 = k.shape[1], k.shape[2]
    out = np.zeros((b, n1, s1, d))
    masked = np.zeros((1, 1, s1, s2), bool) if masked is None else np.asarray(masked, bool)
    masked = np.broadcast_to(masked, (b, n1, s1, s2))
    for bi in range(b):
        for h in range(n1):
            kv = h // (n1 // n2)
            s = scale * q[bi, h] @ k[bi, kv].T
            if pse is not None:
                s = s + np.broadcast_to(pse, (b, n1, s1, s2))[bi, h]
            for i in range(s1):
                keep = ~masked[bi, h, i]
                if keep.any():
                    e = np.exp(s[i][keep] - s[i][keep].max())
                    out[bi, h, i] = (e / e.sum()) @ v[bi, kv][keep]
    return out


def rule(mode, s1, s2, pre=2147483647, nxt=2147483647):
    """(S1, S2) True where the sparse mode masks query i from key j, as documented."""
    m = np.zeros((s1, s2), bool)
    for i in range(s1):
        for j in range(s2):
            if mode == 0:
                m[i, j] = j - i > nxt or i - j > pre
            elif mode == 2:
                m[i, j] = j > i
            elif mode == 3:
                m[i, j] = j > i + s2 - s1
            elif mode == 4:           # the band counted from the bottom-right corner
                m[i, j] = j - i - (s2 - s1) > nxt or i - j + (s2 - s1) > pre
    return m


def to_layout(x, layout):
    """(B, N, S, D) into ``layout``."""
    b, n, s, d = x.shape
    if layout == 'BNSD':
        return x
    if layout == 'BSND':
        return x.transpose(0, 2, 1, 3)
    if layout == 'BSH':
        return x.transpose(0, 2, 1, 3).reshape(b, s, n * d)
    return x.transpose(2, 0, 1, 3).reshape(s, b, n * d)       # SBH


def fas(q, k, v, n1, layout='BNSD', **kw):
    out = ops.flash_attention_score(T(to_layout(q, layout)), T(to_layout(k, layout)),
                                    T(to_layout(v, layout)), n1, input_layout=layout, **kw)
    return out.asnumpy()


# ---------------------------------------------------------------- flash_attention_score

@pytest.mark.parametrize('layout', ['BSH', 'BNSD', 'SBH', 'BSND'])
def test_every_layout_matches_the_reference_with_gqa_and_pse(layout):
    q, k, v = normal(2, 4, 3, 8), normal(2, 2, 5, 8), normal(2, 2, 5, 8)
    pse = normal(1, 4, 3, 5)
    out = fas(q, k, v, 4, layout, real_shift=T(pse), scalar_value=0.35)
    assert out.shape == to_layout(q, layout).shape
    np.testing.assert_allclose(out, to_layout(reference(q, k, v, 0.35, pse), layout),
                               rtol=1e-12, atol=1e-12)


def test_gqa_query_head_reads_key_head_h_over_group():
    # key head 1 is all zeros: query heads 2 and 3 attend uniformly to value head 1
    q = normal(1, 4, 2, 4)
    k = np.stack([normal(3, 4), np.zeros((3, 4))])[None]
    v = normal(1, 2, 3, 4)
    out = fas(q, k, v, 4)
    np.testing.assert_allclose(out[0, 2:], np.broadcast_to(v[0, 1].mean(0), (2, 2, 4)),
                               atol=1e-12)
    assert not np.allclose(out[0, 0], v[0, 0].mean(0))


@pytest.mark.parametrize('shape', [(3, 5), (2, 1, 3, 5), (2, 4, 3, 5)])
@pytest.mark.parametrize('dtype', [np.bool_, np.uint8])
@pytest.mark.parametrize('mode', [0, 1])
def test_user_mask_true_masks_out(shape, dtype, mode):
    q, k, v = normal(2, 4, 3, 8), normal(2, 4, 5, 8), normal(2, 4, 5, 8)
    mask = RNG.random(shape) < 0.4
    mask[..., 0, :] = True                          # a row all masked out gives zeros
    out = fas(q, k, v, 4, attn_mask=T(mask, dtype), sparse_mode=mode)
    m4 = mask.reshape((1, 1) + shape) if len(shape) == 2 else mask
    np.testing.assert_allclose(out, reference(q, k, v, masked=m4), atol=1e-12)
    assert not np.isnan(out).any() and (out[:, :, 0] == 0).all()


def test_mode_0_with_a_mask_keeps_the_band_only_mode_1_ignores_it():
    q, k, v = normal(1, 2, 4, 8), normal(1, 2, 6, 8), normal(1, 2, 6, 8)
    none = T(np.zeros((4, 6), bool))
    out = fas(q, k, v, 2, attn_mask=none, pre_tokens=1, next_tokens=0)
    band = rule(0, 4, 6, 1, 0)
    np.testing.assert_array_equal(band[:2], [[0, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1]])
    np.testing.assert_allclose(out, reference(q, k, v, masked=band), atol=1e-12)
    out = fas(q, k, v, 2, attn_mask=none, pre_tokens=1, next_tokens=0, sparse_mode=1)
    np.testing.assert_allclose(out, reference(q, k, v), atol=1e-12)
    # without a mask, mode 0 ignores the band
    np.testing.assert_allclose(fas(q, k, v, 2, pre_tokens=1, next_tokens=0),
                               reference(q, k, v), atol=1e-12)


@pytest.mark.parametrize('mode,pattern', [
    (2, [[0, 1, 1, 1, 1], [0, 0, 1, 1, 1], [0, 0, 0, 1, 1]]),
    (3, [[0, 0, 0, 1, 1], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]]),
    (4, [[1, 0, 0, 1, 1], [1, 1, 0, 0, 1], [1, 1, 1, 0, 0]]),   # pre 1, next 0 from bottom-right
])
def test_compressed_sparse_modes_mask_their_pattern(mode, pattern):
    # v = identity: the output rows are the attention weights themselves
    q, k, v = normal(1, 1, 3, 5), normal(1, 1, 5, 5), np.eye(5)[None, None]
    np.testing.assert_array_equal(rule(mode, 3, 5, 1, 0), pattern)
    out = fas(q, k, v, 1, attn_mask=T(CAUSAL), sparse_mode=mode, pre_tokens=1, next_tokens=0)
    np.testing.assert_array_equal(out[0, 0] == 0, np.array(pattern, bool))
    np.testing.assert_allclose(out, reference(q, k, v, masked=np.array(pattern, bool)),
                               atol=1e-12)


def test_right_down_causal_with_more_queries_than_keys_gives_zero_rows():
    q, k, v = normal(1, 2, 5, 4), normal(1, 2, 3, 4), normal(1, 2, 3, 4)
    out = fas(q, k, v, 2, attn_mask=T(CAUSAL, np.bool_), sparse_mode=3)
    np.testing.assert_array_equal(out[:, :, :2], 0)
    np.testing.assert_allclose(out, reference(q, k, v, masked=rule(3, 5, 3)), atol=1e-12)


def test_compressed_mask_is_required_and_checked():
    q = T(normal(1, 2, 4, 8))
    with pytest.raises(RuntimeError, match="sparse_mode 2 requires 'attn_mask'"):
        ops.flash_attention_score(q, q, q, 2, input_layout='BNSD', sparse_mode=2)
    with pytest.raises(RuntimeError, match=r"compressed \(2048, 2048\) mask, but got shape"):
        ops.flash_attention_score(q, q, q, 2, attn_mask=T(np.zeros((4, 4), bool)),
                                  input_layout='BNSD', sparse_mode=3)
    with pytest.raises(ValueError, match="1 strictly above the diagonal"):
        ops.flash_attention_score(q, q, q, 2, attn_mask=T(CAUSAL.T.copy()),
                                  input_layout='BNSD', sparse_mode=4)


def test_empty_band_is_refused():
    q = T(normal(1, 1, 4, 8))
    mask = T(np.zeros((4, 4), bool))
    with pytest.raises(ValueError, match="pre_tokens -1 and next_tokens -1 leave an empty band"):
        ops.flash_attention_score(q, q, q, 1, attn_mask=mask, pre_tokens=-1, next_tokens=-1,
                                  input_layout='BNSD')
    with pytest.raises(ValueError, match="empty band"):
        ops.flash_attention_score(q, q, q, 1, attn_mask=mask, pre_tokens=-2, next_tokens=1,
                                  input_layout='BNSD')


def test_tnd_packs_sequences_that_attend_on_their_own():
    qlen, kvlen = [2, 3], [3, 4]
    q, k, v = normal(5, 4, 8), normal(7, 2, 8), normal(7, 2, 8)
    for mode, mask in ((0, None), (3, T(CAUSAL))):
        out = ops.flash_attention_score(T(q), T(k), T(v), 4, attn_mask=mask, sparse_mode=mode,
                                        actual_seq_qlen=[2, 5], actual_seq_kvlen=(3, 7),
                                        input_layout='TND', scalar_value=0.5).asnumpy()
        qa = ka = 0
        for n1, n2 in zip(qlen, kvlen):
            part = [x[a:a + n].transpose(1, 0, 2)[None] for x, a, n in
                    ((q, qa, n1), (k, ka, n2), (v, ka, n2))]
            want = reference(*part, 0.5, masked=rule(mode, n1, n2) if mode else None)
            np.testing.assert_allclose(out[qa:qa + n1], want[0].transpose(1, 0, 2), atol=1e-12)
            qa, ka = qa + n1, ka + n2
    with pytest.raises(ValueError, match="'actual_seq_qlen' and 'actual_seq_kvlen' are "
                                         "required with input_layout 'TND'"):
        ops.flash_attention_score(T(q), T(k), T(v), 4, input_layout='TND')
    with pytest.raises(ValueError, match=r"must be non-decreasing and end at 5 \(the T axis\)"):
        ops.flash_attention_score(T(q), T(k), T(v), 4, input_layout='TND',
                                  actual_seq_qlen=[3, 2], actual_seq_kvlen=[3, 7])
    with pytest.raises(ValueError, match="are for input_layout 'TND' only"):
        ops.flash_attention_score(T(q[None]), T(k[None]), T(v[None]), 4, input_layout='BSND',
                                  actual_seq_qlen=[5], actual_seq_kvlen=[7])


def test_gradients_match_finite_differences():
    q, k, v = normal(1, 3, 4 * 2), normal(1, 5, 2 * 2), normal(1, 5, 2 * 2)
    pse = normal(1, 4, 3, 5) * 0.3
    mask = T(np.array([[0, 0, 1, 1, 0], [1, 0, 0, 0, 0], [1, 1, 1, 1, 1]], bool))

    def f(q, k, v, pse):
        return ops.flash_attention_score(q, k, v, 4, real_shift=pse, attn_mask=mask,
                                         scalar_value=0.7)
    check_grad(f, q, k, v, pse)


def test_dropout_is_repeatable_keeps_keep_prob_and_carries_gradients():
    # v = identity: the output rows are the dropped-out attention weights
    q, k = normal(4, 4, 64, 16), normal(4, 4, 16, 16)
    v = np.broadcast_to(np.eye(16), (4, 4, 16, 16)).copy()
    ms.set_seed(3)
    a = fas(q, k, v, 4, keep_prob=0.75)
    ms.set_seed(3)
    b = fas(q, k, v, 4, keep_prob=0.75)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, fas(q, k, v, 4, keep_prob=0.75))
    kept = a != 0
    assert abs(kept.mean() - 0.75) < 0.015
    weights = reference(q, k, v)
    np.testing.assert_allclose(a[kept], weights[kept] / 0.75, rtol=1e-12)
    small = normal(1, 2, 3, 4), normal(1, 2, 4, 4), normal(1, 2, 4, 4)

    def f(q, k, v):
        ms.set_seed(5)                   # the same mask at every evaluation
        return ops.flash_attention_score(q, k, v, 2, keep_prob=0.6, input_layout='BNSD')
    check_grad(f, *small)


def test_float32_and_float16_inputs():
    q, k, v = normal(1, 2, 3, 16), normal(1, 2, 4, 16), normal(1, 2, 4, 16)
    want = reference(q, k, v, 0.25)
    for dtype, tol in ((np.float32, 1e-5), (np.float16, 3e-3)):
        out = ops.flash_attention_score(T(q, dtype), T(k, dtype), T(v, dtype), 2,
                                        scalar_value=0.25, input_layout='BNSD')
        assert out.dtype == ms.Tensor(np.zeros(1, dtype)).dtype
        np.testing.assert_allclose(out.asnumpy().astype(np.float64), want, atol=tol)


def test_argument_errors():
    q = T(normal(1, 3, 8))
    f = ops.flash_attention_score
    with pytest.raises(TypeError, match="'query' must be a Tensor, but got ndarray"):
        f(np.zeros((1, 3, 8)), q, q, 2)
    with pytest.raises(TypeError, match="'key' must be a floating-point Tensor"):
        f(q, T(np.zeros((1, 3, 8), np.int32)), q, 2)
    with pytest.raises(TypeError, match="must have the same dtype"):
        f(q, T(normal(1, 3, 8), np.float32), T(normal(1, 3, 8), np.float32), 2)
    with pytest.raises(TypeError, match="'head_num' must be an int, but got float"):
        f(q, q, q, 2.0)
    with pytest.raises(RuntimeError, match="'head_num' must be at least 1, but got 0"):
        f(q, q, q, 0)
    with pytest.raises(RuntimeError, match="hidden size 8 of 'query' is not divisible by the "
                                           "head number 3"):
        f(q, q, q, 3)
    with pytest.raises(RuntimeError, match=r"'head_num' \(4\) is not divisible by the head "
                                           r"number of 'key' and 'value' \(3\)"):
        f(q, T(normal(1, 3, 6)), T(normal(1, 3, 6)), 4)
    with pytest.raises(RuntimeError, match="'key' and 'value' must have the same shape"):
        f(q, q, T(normal(1, 4, 8)), 2)
    with pytest.raises(RuntimeError, match="the D-axis of 'query', 'key' and 'value'"):
        f(T(normal(1, 2, 3, 8)), T(normal(1, 2, 3, 4)), T(normal(1, 2, 3, 4)), 2,
          input_layout='BNSD')
    with pytest.raises(ValueError, match="'input_layout' must be one of BSH, BNSD, SBH, BSND, "
                                         "TND, but got 'NSD'"):
        f(q, q, q, 2, input_layout='NSD')
    with pytest.raises(TypeError, match="'input_layout' must be a str"):
        f(q, q, q, 2, input_layout=1)
    with pytest.raises(ValueError, match=r"'keep_prob' must be in \(0, 1\], but got 0.0"):
        f(q, q, q, 2, keep_prob=0.0)
    with pytest.raises(TypeError, match="'scalar_value' must be a float, but got str"):
        f(q, q, q, 2, scalar_value='1')
    with pytest.raises(RuntimeError, match=r"sparse_mode is invalid: it must be in \[0, 4\], "
                                           r"but got 9"):
        f(q, q, q, 2, sparse_mode=9)
    with pytest.raises(TypeError, match="the dtype of 'attn_mask' must be one of bool, uint8, "
                                        "but got Float64"):
        f(q, q, q, 2, attn_mask=T(np.zeros((3, 3))))
    with pytest.raises(RuntimeError, match=r"the shape of 'attn_mask' must be \(S1, S2\)"):
        f(q, q, q, 2, attn_mask=T(np.zeros((3, 4), bool)))
    with pytest.raises(TypeError, match="'real_shift' must have the dtype of 'query'"):
        f(q, q, q, 2, real_shift=T(np.zeros((1, 2, 3, 3)), np.float32))
    with pytest.raises(RuntimeError, match=r"the shape of 'real_shift' must be"):
        f(q, q, q, 2, real_shift=T(np.zeros((1, 3, 3, 3))))


@pytest.mark.parametrize('kw,name', [
    ({'drop_mask': T(np.zeros((1, 2, 3, 1), np.uint8))}, 'drop_mask'),
    ({'padding_mask': T(np.zeros((1, 2, 3, 3)))}, 'padding_mask'),
    ({'prefix': [1]}, 'prefix'),
])
def test_unsupported_arguments_raise(kw, name):
    q = T(normal(1, 3, 8))
    with pytest.raises(NotImplementedError, match=f"'{name}' is not supported: "):
        ops.flash_attention_score(q, q, q, 2, **kw)


@pytest.mark.parametrize('mode', [5, 6, 7, 8])
def test_unsupported_sparse_modes_raise(mode):
    q = T(normal(1, 3, 8))
    with pytest.raises(NotImplementedError, match=f"sparse_mode {mode} is not supported"):
        ops.flash_attention_score(q, q, q, 2, sparse_mode=mode)


def test_real_shift_in_tnd_is_refused():
    q = T(normal(3, 2, 8))
    with pytest.raises(NotImplementedError, match="'real_shift' is not supported: in the 'TND' "
                                                  "layout it is the compressed ALiBi form"):
        ops.flash_attention_score(q, q, q, 2, real_shift=T(normal(1, 2, 3, 3)),
                                  input_layout='TND', actual_seq_qlen=[3],
                                  actual_seq_kvlen=[3])


# ---------------------------------------------------------------- prompt_flash_attention

@pytest.mark.parametrize('layout', ['BSH', 'BNSD'])
def test_prompt_matches_the_reference_with_gqa(layout):
    q, k, v = normal(2, 4, 3, 8), normal(2, 2, 5, 8), normal(2, 2, 5, 8)
    pse = normal(2, 4, 6, 7)                  # longer than S1 and S2: the leading part is used
    out = ops.prompt_flash_attention(T(to_layout(q, layout)), T(to_layout(k, layout)),
                                     T(to_layout(v, layout)), pse_shift=T(pse), num_heads=4,
                                     num_key_value_heads=2, scale_value=0.4,
                                     input_layout=layout)
    want = reference(q, k, v, 0.4, pse[:, :, :3, :5])
    np.testing.assert_allclose(out.asnumpy(), to_layout(want, layout), atol=1e-12)


def test_prompt_mask_next_tokens_0_is_causal_and_lengths_cut():
    q, k, v = normal(2, 2, 4, 8), normal(2, 2, 4, 8), normal(2, 2, 4, 8)
    # the default next_tokens=0 with a mask keeps j <= i
    out = ops.prompt_flash_attention(T(q), T(k), T(v), T(np.zeros((2, 4, 4), np.int8)),
                                     num_heads=2, input_layout='BNSD')
    np.testing.assert_allclose(out.asnumpy(), reference(q, k, v, masked=rule(2, 4, 4)),
                               atol=1e-12)
    # query rows past actual_seq_lengths give zeros; keys past actual_seq_lengths_kv are out
    out = ops.prompt_flash_attention(T(q), T(k), T(v), None, [3, 4], [2, 4], num_heads=2,
                                     input_layout='BNSD').asnumpy()
    masked = np.zeros((2, 1, 4, 4), bool)
    masked[0, :, 3:] = True
    masked[0, :, :, 2:] = True
    np.testing.assert_allclose(out, reference(q, k, v, masked=masked), atol=1e-12)
    assert (out[0, :, 3] == 0).all()
    # right-down causal counts from each batch's valid corner
    out = ops.prompt_flash_attention(T(q), T(k), T(v), T(CAUSAL[None]), None, [2, 4],
                                     num_heads=2, input_layout='BNSD', sparse_mode=3).asnumpy()
    masked = np.zeros((2, 1, 4, 4), bool)
    masked[0, :, :, 2:] = True
    masked[0, 0, :2, :2], masked[0, 0, 2, 1] = True, True   # j > i + 2 - 4 within 2 keys
    masked[1, 0] = rule(3, 4, 4)
    np.testing.assert_allclose(out, reference(q, k, v, masked=masked), atol=1e-12)


def test_prompt_errors_and_unsupported_arguments():
    q = T(normal(1, 3, 8))
    f = ops.prompt_flash_attention
    with pytest.raises(ValueError, match="'input_layout' must be one of BSH, BNSD, but got "
                                         "'SBH'"):
        f(q, q, q, num_heads=2, input_layout='SBH')
    with pytest.raises(RuntimeError, match=r"'num_key_value_heads' \(1\) must equal the head "
                                           r"number of 'key' \(2\)"):
        f(T(normal(1, 2, 3, 8)), T(normal(1, 2, 3, 8)), T(normal(1, 2, 3, 8)), num_heads=2,
          num_key_value_heads=1, input_layout='BNSD')
    with pytest.raises(ValueError, match="with sparse_mode 4 pre_tokens and next_tokens must be "
                                         "non-negative"):
        f(q, q, q, T(CAUSAL), num_heads=2, sparse_mode=4, pre_tokens=-1, next_tokens=2)
    with pytest.raises(ValueError, match=r"every element of 'actual_seq_lengths' must be in "
                                         r"\[0, 3\]"):
        f(q, q, q, None, [4], num_heads=2)
    with pytest.raises(ValueError, match=r"'inner_precise' must be one of \(0, 1\), but got 2"):
        f(q, q, q, num_heads=2, inner_precise=2)
    for name in ('deq_scale1', 'quant_scale1', 'deq_scale2', 'quant_scale2', 'quant_offset2'):
        with pytest.raises(NotImplementedError, match=f"'{name}' is not supported: quantised"):
            f(q, q, q, num_heads=2, **{name: T(np.ones(1, np.float32))})


# ---------------------------------------------------------------- incre_flash_attention

@pytest.mark.parametrize('layout', ['BSH', 'BNSD'])
def test_incre_matches_the_reference(layout):
    q, k, v = normal(2, 4, 1, 8), normal(2, 1, 6, 8), normal(2, 1, 6, 8)
    mask = np.array([[0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0]], bool)
    pse = normal(1, 4, 1, 6)
    out = ops.incre_flash_attention(T(to_layout(q, layout)), [T(to_layout(k, layout))],
                                    [T(to_layout(v, layout))], T(mask[:, None], np.uint8),
                                    [5, 6], T(pse), num_heads=4, num_key_value_heads=1,
                                    input_layout=layout, scale_value=0.3)
    masked = mask[:, None, None].copy()
    masked[0, ..., 5:] = True
    want = reference(q, k, v, 0.3, pse, masked)
    np.testing.assert_allclose(out.asnumpy(), to_layout(want, layout), atol=1e-12)


def test_incre_kv_padding_size_takes_the_keys_before_the_padding():
    q, k, v = normal(2, 2, 1, 8), normal(2, 2, 6, 8), normal(2, 2, 6, 8)
    out = ops.incre_flash_attention(T(q), T(k), T(v), None, [3, 6], num_heads=2,
                                    input_layout='BNSD', kv_padding_size=T(np.array([1])))
    masked = np.ones((2, 1, 1, 6), bool)
    masked[0, ..., 2:5] = False                      # [6 - 1 - 3, 6 - 1)
    # batch 1: the start 6 - 1 - 6 < 0, so that batch gives zeros
    np.testing.assert_allclose(out.asnumpy(), reference(q, k, v, masked=masked), atol=1e-12)
    assert (out.asnumpy()[1] == 0).all()


def test_incre_errors_and_unsupported_arguments():
    q, kv = T(normal(1, 1, 8)), T(normal(1, 4, 8))
    f = ops.incre_flash_attention
    with pytest.raises(ValueError, match="the sequence length of 'query' must be 1, but got 4"):
        f(kv, kv, kv, num_heads=2)
    with pytest.raises(RuntimeError, match=r"the shape of 'attn_mask' must be \(B, S\), "
                                           r"\(B, 1, S\) or \(B, 1, 1, S\)"):
        f(q, kv, kv, T(np.zeros((1, 2, 4), bool)), num_heads=2)
    with pytest.raises(ValueError, match="the size of 'actual_seq_lengths' must be 1 or the "
                                         "batch size 1, but got 2"):
        f(q, kv, kv, None, [1, 2], num_heads=2)
    with pytest.raises(NotImplementedError, match="'key' as a list of 2 Tensors"):
        f(q, [kv, kv], [kv, kv], num_heads=2)
    for name, why in (('antiquant_scale', 'int8 key/value caches'),
                      ('antiquant_offset', 'int8 key/value caches'),
                      ('block_table', 'a paged key/value cache'),
                      ('dequant_scale1', 'quantised'), ('quant_offset2', 'quantised')):
        with pytest.raises(NotImplementedError, match=f"'{name}' is not supported: {why}"):
            f(q, kv, kv, num_heads=2, **{name: T(np.ones(1, np.float32))})


# ---------------------------------------------------------------- fused_infer_attention_score

def lse_reference(q, k, scale, masked):
    s = scale * np.einsum('bhid,bhjd->bhij', q, np.repeat(k, q.shape[1] // k.shape[1], 1))
    s = np.where(masked, -np.inf, s)
    with np.errstate(divide='ignore'):
        return np.log(np.exp(s).sum(-1, keepdims=True))


def test_fused_infer_picks_prompt_or_incre_and_returns_lse():
    q, k, v = normal(2, 4, 3, 8), normal(2, 2, 5, 8), normal(2, 2, 5, 8)
    mask = np.zeros((3, 5), bool)
    mask[1] = True
    out, lse = ops.fused_infer_attention_score(
        T(q), T(k), T(v), atten_mask=T(mask), num_heads=4, num_key_value_heads=2, scale=0.5,
        input_layout='BNSD', softmax_lse_flag=True, next_tokens=1)
    masked = mask | rule(0, 3, 5, 2147483647, 1)
    np.testing.assert_allclose(out.asnumpy(), reference(q, k, v, 0.5, masked=masked),
                               atol=1e-12)
    assert lse.dtype == ms.float32 and lse.shape == (2, 4, 3, 1)
    np.testing.assert_allclose(lse.asnumpy(), lse_reference(q, k, 0.5, masked), rtol=1e-6)
    assert np.isneginf(lse.asnumpy()[:, :, 1]).all()
    # BNSD in, BSND out
    out, lse = ops.fused_infer_attention_score(T(q), T(k), T(v), num_heads=4,
                                               num_key_value_heads=2, input_layout='BNSD_BSND')
    np.testing.assert_allclose(out.asnumpy(), reference(q, k, v).transpose(0, 2, 1, 3),
                               atol=1e-12)
    assert lse.shape == (1,) and lse.dtype == ms.float32 and lse.asnumpy()[0] == 0
    # S = 1: the incremental form; actual_seq_lengths_kv are the cache lengths
    q1 = q[:, :, :1]
    out, _ = ops.fused_infer_attention_score(T(to_layout(q1, 'BSND')), T(to_layout(k, 'BSND')),
                                             T(to_layout(v, 'BSND')), num_heads=4,
                                             num_key_value_heads=2, input_layout='BSND',
                                             actual_seq_lengths_kv=[2, 5])
    masked = np.zeros((2, 1, 1, 5), bool)
    masked[0, ..., 2:] = True
    np.testing.assert_allclose(out.asnumpy(), to_layout(reference(q1, k, v, masked=masked),
                                                        'BSND'), atol=1e-12)


def test_fused_infer_gradients_match_finite_differences():
    q, k, v = normal(1, 3, 4), normal(1, 4, 4), normal(1, 4, 4)

    def f(q, k, v):
        return ops.fused_infer_attention_score(q, k, v, num_heads=2, sparse_mode=3,
                                               atten_mask=T(CAUSAL))[0]
    check_grad(f, q, k, v)


@pytest.mark.parametrize('name', ['dequant_scale1', 'quant_scale2', 'antiquant_scale',
                                  'key_antiquant_scale', 'value_antiquant_offset',
                                  'block_table', 'query_padding_size', 'kv_padding_size',
                                  'key_shared_prefix', 'actual_shared_prefix_len'])
def test_fused_infer_unsupported_arguments_raise(name):
    q = T(normal(1, 3, 8))
    with pytest.raises(NotImplementedError, match=f"'{name}' is not supported: "):
        ops.fused_infer_attention_score(q, q, q, num_heads=2, **{name: T(np.ones(1))})


def test_fused_infer_argument_errors():
    q = T(normal(1, 3, 8))
    f = ops.fused_infer_attention_score
    with pytest.raises(TypeError, match="'softmax_lse_flag' must be a bool, but got int"):
        f(q, q, q, num_heads=2, softmax_lse_flag=1)
    with pytest.raises(ValueError, match="'input_layout' must be one of BSH, BNSD, BSND, "
                                         "BNSD_BSND, but got 'TND'"):
        f(q, q, q, num_heads=2, input_layout='TND')
    with pytest.raises(TypeError, match="the dtype of 'atten_mask' must be one of bool, int8, "
                                        "uint8, but got Float32"):
        f(q, q, q, num_heads=2, atten_mask=T(np.zeros((3, 3), np.float32)))
    with pytest.raises(RuntimeError, match=r"num_heads / num_key_value_heads must not be greater "
                                           r"than 64, but got 65"):
        f(T(normal(1, 65, 2, 1)), T(normal(1, 1, 2, 1)), T(normal(1, 1, 2, 1)), num_heads=65,
          num_key_value_heads=1, input_layout='BNSD')


def test_the_functions_record_ordinary_ops():
    # composed from hookgrad's ops: a backward through them reaches every input
    q = ms.Parameter(T(normal(1, 3, 8)), name='q')
    grads = ms.grad(lambda q: ops.flash_attention_score(q, q, q, 2).sum())(q)
    assert grads.shape == (1, 3, 8) and np.abs(grads.asnumpy()).sum() > 0


def test_compressed_alibi_real_shift_is_refused():
    q = T(normal(1, 1, 1030, 16))
    with pytest.raises(NotImplementedError, match="'real_shift' is not supported: its compressed "
                                                  "ALiBi form"):
        ops.flash_attention_score(q, q, q, 1, real_shift=T(np.zeros((1, 1, 1024, 1030))),
                                  input_layout='BNSD')


def test_the_gpu_computes_what_the_cpu_does():
    # the GPU is CuPy's, or the CUDA stand-in the test run sets up
    from hookgrad.kernels import backend
    q, k, v = normal(2, 5, 4 * 8), normal(2, 6, 2 * 8), normal(2, 6, 2 * 8)
    mask = RNG.random((2, 1, 5, 6)) < 0.3

    def run():
        qt, kt, vt = T(q, np.float32), T(k, np.float32), T(v, np.float32)
        ms.set_seed(11)
        out = ops.flash_attention_score(qt, kt, vt, 4, attn_mask=T(mask), keep_prob=0.8,
                                        scalar_value=0.3)
        lse = ops.fused_infer_attention_score(qt, kt, vt, num_heads=4, num_key_value_heads=2,
                                              atten_mask=T(mask[:, 0]), next_tokens=0,
                                              softmax_lse_flag=True)[1]
        grads = ms.grad(lambda a, b, c: ops.flash_attention_score(
            a, b, c, 4, attn_mask=T(mask), scalar_value=0.3).sum(), (0, 1, 2))(qt, kt, vt)
        assert all(backend.device_of(x._data) is backend.default() for x in (out, lse) + grads)
        return [x.asnumpy() for x in (out, lse) + tuple(grads)]

    cpu = run()
    with backend.default_device(backend.gpu()):
        gpu = run()
    assert backend.gpu() is not backend.CPU
    for a, b in zip(cpu, gpu):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)
