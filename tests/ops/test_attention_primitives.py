"""The fused attention Primitives of ``mindspore.ops.operations.nn_ops`` (and
``ops.auto_generate``), over the functional forms (tests/ops/test_attention_functions.py checks
those against the documented formula)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops.operations import nn_ops

B, S, N, N_KV, D = 2, 5, 4, 2, 8


def _qkv(rng, s_q=S):
    q = ms.Tensor(rng.standard_normal((B, s_q, N * D)))
    k = ms.Tensor(rng.standard_normal((B, S, N_KV * D)))
    v = ms.Tensor(rng.standard_normal((B, S, N_KV * D)))
    return q, k, v


def test_flash_attention_score_returns_the_softmax_statistics_and_the_output():
    q, k, v = _qkv(np.random.default_rng(0))
    scale = 1 / np.sqrt(D)
    mask = ms.Tensor(np.triu(np.ones((B, 1, S, S), bool), 1))
    prim = nn_ops.FlashAttentionScore(head_num=N, scale_value=scale, input_layout='BSH')
    softmax_max, softmax_sum, softmax_out, out = prim(q, k, v, attn_mask=mask)
    want = ops.flash_attention_score(q, k, v, N, attn_mask=mask, scalar_value=scale)
    np.testing.assert_array_equal(out.asnumpy(), want.asnumpy())
    assert softmax_max.shape == softmax_sum.shape == (B, N, S, 8)
    assert softmax_max.dtype == softmax_sum.dtype == ms.float32 and softmax_out.shape == ()
    # the statistics of the masked, scaled scores (query head h reads key head h // 2)
    qn = q.asnumpy().reshape(B, S, N, D).transpose(0, 2, 1, 3)
    kn = np.repeat(k.asnumpy().reshape(B, S, N_KV, D).transpose(0, 2, 1, 3), N // N_KV, 1)
    scores = np.where(mask.asnumpy(), -np.inf, qn @ kn.transpose(0, 1, 3, 2) * scale)
    top = scores.max(-1)
    total = np.exp(scores - top[..., None]).sum(-1)
    for j in (0, 7):
        np.testing.assert_allclose(softmax_max.asnumpy()[..., j], top, rtol=1e-6)
        np.testing.assert_allclose(softmax_sum.asnumpy()[..., j], total, rtol=1e-6)


def test_inference_primitives_are_the_functional_forms():
    q, k, v = _qkv(np.random.default_rng(1))
    prompt = nn_ops.PromptFlashAttention(num_heads=N, num_key_value_heads=N_KV, scale_value=0.5)
    np.testing.assert_array_equal(
        prompt(q, k, v).asnumpy(),
        ops.prompt_flash_attention(q, k, v, num_heads=N, num_key_value_heads=N_KV,
                                   scale_value=0.5).asnumpy())
    q1 = ms.Tensor(np.random.default_rng(2).standard_normal((B, 1, N * D)))
    incre = ms.ops.auto_generate.IncreFlashAttention(num_heads=N, num_key_value_heads=N_KV)
    np.testing.assert_array_equal(
        incre(q1, [k], [v]).asnumpy(),
        ops.incre_flash_attention(q1, [k], [v], num_heads=N, num_key_value_heads=N_KV).asnumpy())


def test_statistics_of_the_packed_layout_are_refused_by_name():
    q = ms.Tensor(np.ones((4, N, D)))
    prim = nn_ops.FlashAttentionScore(head_num=N, input_layout='TND')
    with pytest.raises(NotImplementedError, match="softmax_max and softmax_sum in the 'TND' "
                                                  "layout are not available"):
        prim(q, q, q, actual_seq_qlen=[4], actual_seq_kvlen=[4])
