"""MultiheadAttention and the Transformer layers: values against MindSpore 2.10 (parameters and
inputs from the ``det`` formula), parameter names, masks, gradients against float64 finite
differences, and errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.testing import check_grad

from .test_rnn import check_summaries, det, fill

T = ms.Tensor


def mask(value):
    a = np.asarray(value)
    return T(a) if a.dtype == bool else T(a.astype(np.float32))


# (kwargs, 'self' or 'cross', query, key, value shapes, call arguments) and the summaries of
# (attn_output, attn_weights): MindSpore 2.10's outputs
MHA_CASES = [
    ((dict(embed_dim=4, num_heads=2), 'self', (3, 2, 4), None, None, {}),
     [((3, 2, 4), 11.897018, 31.537764, -3.290491), ((2, 3, 3), 6.0, 3.455211, -0.689866)]),
    ((dict(embed_dim=4, num_heads=2, kdim=3, vdim=5, add_bias_kv=True, add_zero_attn=True,
           batch_first=True), 'cross', (2, 3, 4), (2, 4, 3), (2, 4, 5),
      dict(key_padding_mask=[[False, False, True, True], [False, False, False, True]],
           average_attn_weights=False)),
     [((2, 3, 4), -12.630146, 14.276176, 0.166745), ((2, 2, 3, 6), 12.0, 6.578949, -0.843265)]),
    ((dict(embed_dim=6, num_heads=3, has_bias=False), 'cross', (3, 2, 6), (4, 2, 6), (4, 2, 6),
      dict(attn_mask=np.triu(np.ones((3, 4), bool), 2),
           key_padding_mask=[[False, True, False, False], [False, False, False, False]])),
     [((3, 2, 6), -0.830675, 40.100833, 0.018277), ((2, 3, 4), 6.0, 4.921225, -0.643954)]),
    ((dict(embed_dim=4, num_heads=2), 'cross', (3, 2, 4), (3, 2, 4), (3, 2, 4),
      dict(attn_mask=det((4, 3, 3), 7) * 0.5, key_padding_mask=det((2, 3), 8) * 0.3)),
     [((3, 2, 4), 11.593567, 28.302431, -4.290697), ((2, 3, 3), 6.0, 4.276902, -0.027931)]),
    ((dict(embed_dim=4, num_heads=2, add_bias_kv=True), 'cross', (3, 4), (2, 4), (2, 4),
      dict(key_padding_mask=[False, True], attn_mask=[[False, False], [True, False],
                                                      [False, False]])),
     [((3, 4), 0.306755, 12.865727, -2.341574), ((3, 3), 3.0, 2.778548, 0.425363)]),
]


def run_mha(kw, kind, qs, ks, vs, masks, dtype=np.float32):
    net = fill(nn.MultiheadAttention(**kw, dtype=ms.float64 if dtype == np.float64
                                     else ms.float32), dtype)
    q = T(det(qs, 1, dtype))
    k, v = (q, q) if kind == 'self' else (T(det(ks, 2, dtype)), T(det(vs, 3, dtype)))
    args = {a: (b if a == 'average_attn_weights' else mask(b)) for a, b in masks.items()}
    return net(q, k, v, **args)


@pytest.mark.parametrize('case,want', MHA_CASES, ids=[str(i) for i in range(len(MHA_CASES))])
def test_multihead_attention_matches_mindspore(case, want):
    check_summaries(run_mha(*case), want)


def test_transformers_match_mindspore():
    """Summaries of (Transformer with masks, pre-norm gelu batch-first Transformer, pre-norm
    TransformerEncoder with a bool mask, unbatched TransformerDecoderLayer with ops.gelu):
    MindSpore 2.10's outputs."""
    want = [((3, 2, 4), -9.317293, 11.333976, 2.547176),
            ((2, 3, 4), -13.303716, 14.798999, 1.594936),
            ((3, 2, 4), -13.416824, 101.894087, 24.365503),
            ((3, 4), 4.062824, 6.281124, -0.051167)]
    outs = []
    net = fill(nn.Transformer(4, 2, 2, 1, 8))
    tgt_mask = T(np.triu(np.full((3, 3), -np.inf, np.float32), 1))
    padding = T(np.array([[False] * 5, [False, False, False, True, True]]))
    outs.append(net(T(det((5, 2, 4), 1)), T(det((3, 2, 4), 2)), tgt_mask=tgt_mask,
                    src_key_padding_mask=padding, memory_key_padding_mask=padding))
    net = fill(nn.Transformer(4, 2, 1, 2, 6, activation='gelu', norm_first=True,
                              batch_first=True))
    outs.append(net(T(det((2, 5, 4), 3)), T(det((2, 3, 4), 4))))
    enc = fill(nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, norm_first=True), 2))
    outs.append(enc(T(det((3, 2, 4), 5)), src_mask=T(np.triu(np.ones((3, 3), bool), 1))))
    dec = fill(nn.TransformerDecoderLayer(4, 2, 8, activation=ops.gelu))
    outs.append(dec(T(det((3, 4), 6)), T(det((5, 4), 7))))
    check_summaries(outs, want)


def test_parameter_names_shapes_and_init_match_mindspore():
    mha = nn.MultiheadAttention(4, 2, add_bias_kv=True, kdim=3)
    assert [(n, p.shape) for n, p in mha.parameters_and_names()] == [
        ('q_proj_weight', (4, 4)), ('k_proj_weight', (4, 3)), ('v_proj_weight', (4, 4)),
        ('in_proj_bias', (12,)), ('bias_k', (1, 1, 4)), ('bias_v', (1, 1, 4)),
        ('out_proj.weight', (4, 4)), ('out_proj.bias', (4,))]
    assert not mha.in_proj_bias.asnumpy().any()
    assert [n for n, _ in nn.MultiheadAttention(4, 2, has_bias=False).parameters_and_names()] \
        == ['in_proj_weight', 'out_proj.weight']
    net = nn.Transformer(4, 2, 1, 1, 8)
    names = [n for n, _ in net.parameters_and_names()]
    assert names[:4] == ['encoder.layers.0.self_attn.in_proj_weight',
                         'encoder.layers.0.self_attn.in_proj_bias',
                         'encoder.layers.0.self_attn.out_proj.weight',
                         'encoder.layers.0.self_attn.out_proj.bias']
    assert 'decoder.layers.0.multihead_attn.in_proj_weight' in names
    assert names[-2:] == ['decoder.norm.gamma', 'decoder.norm.beta'] and len(names) == 34
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 2)
    w0, w1 = (enc.layers[i].dense1.weight.asnumpy() for i in range(2))
    np.testing.assert_array_equal(w0, w1)          # deep copies of one fresh layer
    assert repr(nn.TransformerEncoderLayer(4, 2, 8)).startswith(
        "TransformerEncoderLayer(\n  (self_attn): MultiheadAttention(\n    (out_proj): "
        "Dense(input_channels=4, output_channels=4, has_bias=True)\n  )\n  (dense1): ")


def test_masks_exclude_keys_and_need_weights():
    rng = np.random.default_rng(0)
    mha = nn.MultiheadAttention(4, 2, dtype=ms.float64)
    q = T(rng.standard_normal((3, 2, 4)))
    kv = T(rng.standard_normal((5, 2, 4)))
    padding = np.zeros((2, 5), bool)
    padding[1, 3:] = True
    out, w = mha(q, kv, kv, key_padding_mask=T(padding))
    assert not w.asnumpy()[1, :, 3:].any()
    np.testing.assert_allclose(w.asnumpy().sum(-1), 1, rtol=1e-12)
    short, _ = mha(q[:, 1:], kv[:3, 1:], kv[:3, 1:])
    np.testing.assert_allclose(out.asnumpy()[:, 1:], short.asnumpy(), rtol=1e-10)
    causal = np.triu(np.ones((3, 5), bool), 1)
    _, w = mha(q, kv, kv, attn_mask=T(causal), average_attn_weights=False)
    assert w.shape == (2, 2, 3, 5) and not w.asnumpy()[..., causal].any()
    result = mha(q, kv, kv, need_weights=False)
    assert isinstance(result, tuple) and len(result) == 1 and result[0].shape == (3, 2, 4)
    np.testing.assert_array_equal(result[0].asnumpy(), mha(q, kv, kv)[0].asnumpy())
    for batch_first, query in ((False, q[:, 0]), (True, ops.swapaxes(q, 0, 1))):
        mha.batch_first = batch_first
        keys = ops.swapaxes(kv, 0, 1) if batch_first else kv[:, 0]
        alone, = mha(query, keys, keys, need_weights=False)
        both = mha(query, keys, keys)
        assert alone.shape == both[0].shape == query.shape
        np.testing.assert_array_equal(alone.asnumpy(), both[0].asnumpy())
    mha.batch_first = False


def test_attention_gradients_match_finite_differences():
    mha = fill(nn.MultiheadAttention(4, 2, kdim=3, vdim=2, add_bias_kv=True, add_zero_attn=True,
                                     dtype=ms.float64), np.float64)
    padding = T(np.array([[False, True, False], [False, False, False]]))
    check_grad(lambda q, k, v: mha(q, k, v, key_padding_mask=padding), det((2, 2, 4), 1,
               np.float64), det((3, 2, 3), 2, np.float64), det((3, 2, 2), 3, np.float64))
    mha = fill(nn.MultiheadAttention(4, 2, dtype=ms.float64), np.float64)
    in_proj, out_w = mha.in_proj_weight, mha.out_proj.weight

    # weights: ms.grad with respect to the Parameters against perturbing them in place
    x = T(det((3, 2, 4), 1, np.float64))
    c = np.random.default_rng(2).standard_normal((3, 2, 4))
    got = ms.grad(lambda t: (mha(t, t, t)[0] * T(c)).sum(), grad_position=None,
                  weights=[in_proj, out_w])(x)
    for p, g in zip([in_proj, out_w], got):
        flat = p._data.reshape(-1)
        want = np.zeros(flat.size)
        for j in range(flat.size):
            orig = flat[j]
            flat[j] = orig + 1e-6
            up = float((mha(x, x, x)[0].asnumpy() * c).sum())
            flat[j] = orig - 1e-6
            down = float((mha(x, x, x)[0].asnumpy() * c).sum())
            flat[j] = orig
            want[j] = (up - down) / 2e-6
        np.testing.assert_allclose(g.asnumpy().reshape(-1), want, rtol=1e-5, atol=1e-6)


def test_encoder_decoder_gradients_match_finite_differences():
    net = fill(nn.Transformer(4, 2, 1, 1, 6, dtype=ms.float64), np.float64)
    tgt_mask = T(np.triu(np.full((2, 2), -np.inf), 1))
    check_grad(lambda s, t: net(s, t, tgt_mask=tgt_mask), det((3, 2, 4), 1, np.float64),
               det((2, 2, 4), 2, np.float64), atol=1e-8, rtol=1e-6)


def test_dropout_applies_only_in_training():
    ms.set_seed(3)
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.5)
    x = T(det((3, 2, 4), 1))
    a = layer(x).asnumpy()
    np.testing.assert_array_equal(a, layer(x).asnumpy())
    layer.set_train()
    assert not np.allclose(layer(x).asnumpy(), a)


Q = T(np.ones((3, 2, 4), np.float32))


@pytest.mark.parametrize('make,error,match', [
    (lambda: nn.MultiheadAttention(5, 2), ValueError,
     r"nn.MultiheadAttention: embed_dim \(5\) must be divisible by num_heads \(2\)"),
    (lambda: nn.MultiheadAttention(4, 0), ValueError,
     r"nn.MultiheadAttention: num_heads must be a positive int, got 0"),
    (lambda: nn.MultiheadAttention(4, 2, dropout=1.5), ValueError,
     r"nn.MultiheadAttention: dropout must be a number in \[0, 1\]"),
    (lambda: nn.MultiheadAttention(4, 2, batch_first=1), TypeError,
     r"nn.MultiheadAttention: batch_first must be a bool"),
    (lambda: nn.TransformerEncoderLayer(4, 2, activation=nn.ReLU()), ValueError,
     r"The argument 'activation' must be ops.relu or ops.gelu instance"),
    (lambda: nn.TransformerEncoderLayer(4, 2, activation='tanh'), ValueError,
     r"The activation must be relu/gelu, but get tanh"),
    (lambda: nn.TransformerDecoderLayer(4, 2, activation=3), ValueError,
     r"The argument 'activation' must be str, callable or Cell instance, but get 3"),
    (lambda: nn.TransformerEncoderLayer(4, 2, layer_norm_eps=0), ValueError,
     r"nn.TransformerEncoderLayer: layer_norm_eps must be a positive number"),
    (lambda: nn.TransformerEncoder(nn.Dense(2, 2), 2), TypeError,
     r"nn.TransformerEncoder: expected a TransformerEncoderLayer, got Dense"),
    (lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8), 0), ValueError,
     r"nn.TransformerDecoder: num_layers must be a positive int, got 0"),
])
def test_bad_arguments(make, error, match):
    with pytest.raises(error, match=match):
        make()


@pytest.mark.parametrize('call,error,match', [
    (lambda: nn.MultiheadAttention(4, 2)(Q, ops.ones((3, 4)), Q), ValueError,
     r"key and value must be 3-D like query"),
    (lambda: nn.MultiheadAttention(4, 2)(ops.ones((2, 2, 2, 4)), Q, Q), ValueError,
     r"query must be 2-D \(unbatched\) or 3-D, got shape \(2, 2, 2, 4\)"),
    (lambda: nn.MultiheadAttention(8, 2)(Q, Q, Q), ValueError,
     r"query must have 8 features, got shape \(3, 2, 4\)"),
    (lambda: nn.MultiheadAttention(4, 2)(Q, Q, Q, attn_mask=ops.ones((3, 4))), ValueError,
     r"attn_mask must have shape \(3, 3\) or \(4, 3, 3\), got \(3, 4\)"),
    (lambda: nn.MultiheadAttention(4, 2)(Q, Q, Q, key_padding_mask=ops.ones((3, 3))),
     ValueError, r"key_padding_mask must have shape \(2, 3\), got \(3, 3\)"),
    (lambda: nn.MultiheadAttention(4, 2)(Q, Q, Q, key_padding_mask=ops.ones((2, 3), ms.int32)),
     ValueError, r"key_padding_mask must be bool or floating, got Int32"),
    (lambda: nn.MultiheadAttention(4, 2)(Q, Q, Q, key_padding_mask=ops.ones(3)), ValueError,
     r"key_padding_mask must be 2-D for a 3-D query"),
    (lambda: nn.MultiheadAttention(4, 2, kdim=3)(Q, Q, Q), ValueError,
     r"key and value must have 3 and 4 features"),
    (lambda: nn.TransformerEncoderLayer(4, 2, 8)(Q, src_key_padding_mask=ops.ones((2, 3),
                                                                                  ms.int32)),
     AssertionError, r"only bool and floating types of key_padding_mask are supported"),
    (lambda: nn.Transformer(4, 2, 1, 1, 8)(Q, ops.ones((3, 2, 6))), ValueError,
     r"nn.Transformer: src and tgt must have d_model=4 features"),
    (lambda: nn.Transformer(4, 2, 1, 1, 8)(Q, ops.ones((3, 5, 4))), ValueError,
     r"nn.Transformer: src and tgt must have the same batch size"),
])
def test_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()
