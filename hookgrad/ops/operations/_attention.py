"""MindSpore's fused attention Primitives (``mindspore.ops.operations.nn_ops``, where model code
such as MindFormers imports them): the constructor takes the attributes, the call the tensors,
over the functional forms of ``hookgrad/ops/attention.py``."""
from .. import attention as _attention
from ..broadcasting import broadcast_to
from ..creation import zeros
from ._primitive import Primitive

__all__ = ['FlashAttentionScore', 'PromptFlashAttention', 'IncreFlashAttention']


class FlashAttentionScore(Primitive):
    """``FlashAttentionScore(head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
    next_tokens=2147483647, inner_precise=0, input_layout='BSH', sparse_mode=0)(query, key,
    value, real_shift=None, drop_mask=None, padding_mask=None, attn_mask=None, prefix=None,
    actual_seq_qlen=None, actual_seq_kvlen=None)``: ``(softmax_max, softmax_sum, softmax_out,
    attention_out)`` as MindSpore documents them: the softmax's row maximum and sum of
    exponentials (float32, (B, N1, S1, 8): the value repeated 8 times), an empty
    ``softmax_out``, and the attention output shaped as ``query``."""

    def __init__(self, head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
                 next_tokens=2147483647, inner_precise=0, input_layout='BSH', sparse_mode=0):
        super().__init__(head_num=head_num, keep_prob=keep_prob, scale_value=scale_value,
                         pre_tokens=pre_tokens, next_tokens=next_tokens,
                         inner_precise=inner_precise, input_layout=input_layout,
                         sparse_mode=sparse_mode)

    def construct(self, query, key, value, real_shift=None, drop_mask=None, padding_mask=None,
                  attn_mask=None, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None):
        out, top, total = _attention._flash(
            query, key, value, self.head_num, real_shift, drop_mask, padding_mask, attn_mask,
            prefix, actual_seq_qlen, actual_seq_kvlen, self.keep_prob, self.scale_value,
            self.pre_tokens, self.next_tokens, self.inner_precise, self.input_layout,
            self.sparse_mode, stats=True)
        shape = top.shape[:-1] + (8,)
        return (broadcast_to(top, shape), broadcast_to(total, shape),
                zeros((), query.dtype), out)


class PromptFlashAttention(Primitive):
    """``PromptFlashAttention(num_heads=1, scale_value=1.0, pre_tokens=2147483647,
    next_tokens=0, input_layout='BSH', num_key_value_heads=0, sparse_mode=0,
    inner_precise=1)(query, key, value, attn_mask=None, ...)``: ``ops.prompt_flash_attention``."""

    def __init__(self, num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=0,
                 input_layout='BSH', num_key_value_heads=0, sparse_mode=0, inner_precise=1):
        super().__init__(num_heads=num_heads, scale_value=scale_value, pre_tokens=pre_tokens,
                         next_tokens=next_tokens, input_layout=input_layout,
                         num_key_value_heads=num_key_value_heads, sparse_mode=sparse_mode,
                         inner_precise=inner_precise)

    def construct(self, query, key, value, attn_mask=None, actual_seq_lengths=None,
                  actual_seq_lengths_kv=None, pse_shift=None, deq_scale1=None,
                  quant_scale1=None, deq_scale2=None, quant_scale2=None, quant_offset2=None):
        return _attention.prompt_flash_attention(
            query, key, value, attn_mask, actual_seq_lengths, actual_seq_lengths_kv, pse_shift,
            deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2,
            num_heads=self.num_heads, scale_value=self.scale_value,
            pre_tokens=self.pre_tokens, next_tokens=self.next_tokens,
            input_layout=self.input_layout, num_key_value_heads=self.num_key_value_heads,
            sparse_mode=self.sparse_mode, inner_precise=self.inner_precise)


class IncreFlashAttention(Primitive):
    """``IncreFlashAttention(num_heads=1, input_layout='BSH', scale_value=1.0,
    num_key_value_heads=0, block_size=0, inner_precise=1)(query, key, value, attn_mask=None,
    ...)``: ``ops.incre_flash_attention``."""

    def __init__(self, num_heads=1, input_layout='BSH', scale_value=1.0, num_key_value_heads=0,
                 block_size=0, inner_precise=1):
        super().__init__(num_heads=num_heads, input_layout=input_layout,
                         scale_value=scale_value, num_key_value_heads=num_key_value_heads,
                         block_size=block_size, inner_precise=inner_precise)

    def construct(self, query, key, value, attn_mask=None, actual_seq_lengths=None,
                  pse_shift=None, dequant_scale1=None, quant_scale1=None, dequant_scale2=None,
                  quant_scale2=None, quant_offset2=None, antiquant_scale=None,
                  antiquant_offset=None, block_table=None, kv_padding_size=None):
        return _attention.incre_flash_attention(
            query, key, value, attn_mask, actual_seq_lengths, pse_shift, dequant_scale1,
            quant_scale1, dequant_scale2, quant_scale2, quant_offset2, antiquant_scale,
            antiquant_offset, block_table, num_heads=self.num_heads,
            input_layout=self.input_layout, scale_value=self.scale_value,
            num_key_value_heads=self.num_key_value_heads, block_size=self.block_size,
            inner_precise=self.inner_precise, kv_padding_size=kv_padding_size)
