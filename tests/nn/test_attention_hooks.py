"""The hook points of MultiheadAttention and the Transformer layers: where they sit, their
layouts, reading and replacing them with forward hooks (activation patching, head ablation),
their gradients in backward hooks, and that a network without hooks computes what it computed
before they existed."""
import math
import pathlib
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

T = ms.Tensor
POINTS = ('q_point', 'k_point', 'v_point', 'attn_scores_point', 'attn_weights_point',
          'head_output_point')


def make_mha(embed_dim=8, num_heads=2, seed=0, **kwargs):
    """A float64 MultiheadAttention with N(0, 0.5) parameters."""
    mha = nn.MultiheadAttention(embed_dim, num_heads, dtype=ms.float64, **kwargs)
    rng = np.random.default_rng(seed)
    for _, p in mha.parameters_and_names():
        p.set_data(T(rng.standard_normal(p.shape) * 0.5))
    return mha


def inputs(*shapes, seed=1):
    rng = np.random.default_rng(seed)
    return [T(rng.standard_normal(s)) for s in shapes]


def capture(net, kind='forward'):
    """Forward hooks on every hook point of ``net`` storing their values (or, for 'backward',
    backward hooks storing grad_input) by path; returns (store, handles)."""
    store, handles = {}, []
    for path, cell in net.cells_and_names():
        if isinstance(cell, nn.HookPoint):
            if kind == 'forward':
                def hook(cell, args, out, path=path):
                    store[path] = out.asnumpy()
                handles.append(cell.register_forward_hook(hook))
            else:
                def hook(cell, grad_input, grad_output, path=path):
                    store[path] = grad_input[0].asnumpy()
                handles.append(cell.register_backward_hook(hook))
    return store, handles


def split_heads(t, heads):
    """(seq, N, E) -> (N, heads, seq, E // heads)."""
    s, n, e = t.shape
    return t.reshape(s, n, heads, e // heads).transpose(1, 2, 0, 3)


def numpy_attention(mha, query, key, value, attn_mask=None):
    """Every hook point's value and the output, by NumPy, for a packed-projection layer."""
    e, heads = mha.embed_dim, mha.num_heads
    w, b = mha.in_proj_weight.asnumpy(), mha.in_proj_bias.asnumpy()
    q, k, v = (split_heads(x.asnumpy() @ w[i * e:(i + 1) * e].T + b[i * e:(i + 1) * e], heads)
               for i, x in enumerate((query, key, value)))
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(mha.head_dim)
    if attn_mask is not None:
        scores = scores + attn_mask
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    head_output = weights @ v
    return dict(q_point=q, k_point=k, v_point=v, attn_scores_point=scores,
                attn_weights_point=weights, head_output_point=head_output,
                out=out_from_heads(mha, head_output))


def out_from_heads(mha, head_output):
    """out_proj applied to the heads' outputs (N, H, L, hd) concatenated by columns."""
    n, heads, length, hd = head_output.shape
    concat = head_output.transpose(2, 0, 1, 3).reshape(length, n, heads * hd)
    return concat @ mha.out_proj.weight.asnumpy().T + mha.out_proj.bias.asnumpy()


def test_points_are_cells_without_parameters_listed_under_their_layers(tmp_path):
    mha = nn.MultiheadAttention(4, 2, add_bias_kv=True, kdim=3)
    assert [n for n, _ in mha.cells_and_names()] == ['', 'out_proj', *POINTS]
    assert [n for n, _ in mha.parameters_and_names()] == [
        'q_proj_weight', 'k_proj_weight', 'v_proj_weight', 'in_proj_bias', 'bias_k', 'bias_v',
        'out_proj.weight', 'out_proj.bias']
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)
    points = [n for n, c in enc.cells_and_names() if isinstance(c, nn.HookPoint)]
    assert points == [f"layers.{i}.self_attn.{p}" for i in range(2) for p in POINTS]
    assert enc.layers[1].self_attn.attn_weights_point.path() == \
        'TransformerEncoder.layers.1.self_attn.attn_weights_point'
    net = nn.Transformer(4, 2, 1, 1, 8)
    points = {n: c for n, c in net.cells_and_names() if isinstance(c, nn.HookPoint)}
    assert len(points) == 6 * 3
    assert 'decoder.layers.0.multihead_attn.head_output_point' in points
    assert all(not list(c.get_parameters()) for c in points.values())
    names = [n for n, _ in net.parameters_and_names()]
    assert len(names) == 34 and not any('point' in n for n in names)
    ms.save_checkpoint(net, str(tmp_path / 'net.ckpt'))
    assert list(ms.load_checkpoint(str(tmp_path / 'net.ckpt'))) == names
    assert 'point' not in repr(net)       # printed as MindSpore prints it


@pytest.mark.parametrize('kwargs,shapes,batch_first,want', [
    (dict(), ((5, 3, 8),) * 3, False, dict(q=(3, 2, 5, 4), k=(3, 2, 5, 4), w=(3, 2, 5, 5))),
    (dict(kdim=3, vdim=6, add_bias_kv=True, add_zero_attn=True, batch_first=True),
     ((3, 5, 8), (3, 4, 3), (3, 4, 6)), True, dict(q=(3, 2, 5, 4), k=(3, 2, 6, 4),
                                                   w=(3, 2, 5, 6))),
    (dict(num_heads=4), ((5, 8), (2, 8), (2, 8)), False,
     dict(q=(1, 4, 5, 2), k=(1, 4, 2, 2), w=(1, 4, 5, 2))),
], ids=['self', 'batch-first-cross-bias-kv-zero-attn', 'unbatched'])
def test_forward_hooks_see_each_point_in_its_layout(kwargs, shapes, batch_first, want):
    mha = make_mha(**kwargs)
    seen, handles = capture(mha)
    q, k, v = inputs(*shapes)
    out, weights = mha(q, k, v, average_attn_weights=False)
    assert list(seen) == list(POINTS)
    assert {p: seen[p].shape for p in POINTS} == {
        'q_point': want['q'], 'k_point': want['k'], 'v_point': want['k'],
        'attn_scores_point': want['w'], 'attn_weights_point': want['w'],
        'head_output_point': want['q']}
    np.testing.assert_allclose(seen['attn_weights_point'].sum(-1), 1, rtol=1e-12)
    returned = weights.asnumpy()
    np.testing.assert_array_equal(returned, seen['attn_weights_point'].reshape(returned.shape))
    if kwargs.get('add_zero_attn'):
        assert not seen['k_point'][:, :, -1].any() and not seen['v_point'][:, :, -1].any()
        bias_k = mha.bias_k.asnumpy().reshape(2, 4)
        np.testing.assert_array_equal(seen['k_point'][:, :, -2], np.broadcast_to(bias_k,
                                                                                (3, 2, 4)))
    for h in handles:
        h.remove()
    seen.clear()
    mha(q, k, v)
    assert seen == {}


def test_point_values_are_the_documented_computation():
    mha = make_mha(seed=2)
    query, memory = inputs((4, 3, 8), (6, 3, 8))
    mask = np.triu(np.full((4, 6), -np.inf), 3)
    seen, _ = capture(mha)
    out, _ = mha(query, memory, memory, attn_mask=T(mask))
    want = numpy_attention(mha, query, memory, memory, mask)
    for p in POINTS:
        np.testing.assert_allclose(seen[p], want[p], rtol=1e-12, atol=1e-12, err_msg=p)
    np.testing.assert_allclose(out.asnumpy(), want['out'], rtol=1e-12, atol=1e-12)
    assert np.isneginf(seen['attn_scores_point'][..., mask == -np.inf]).all()


def test_out_proj_input_holds_head_h_in_columns_h_times_head_dim():
    mha = make_mha(embed_dim=12, num_heads=3)
    seen, _ = capture(mha)
    out_proj_input = []
    mha.out_proj.register_forward_pre_hook(lambda cell, args: out_proj_input.append(
        args[0].asnumpy()))
    (x,) = inputs((5, 2, 12))
    mha(x, x, x)
    heads, hd = seen['head_output_point'], mha.head_dim
    for h in range(3):
        np.testing.assert_array_equal(out_proj_input[0][..., h * hd:(h + 1) * hd],
                                      heads[:, h].transpose(1, 0, 2))


def plain_attention(mha, query, key, value, attn_mask=None):
    """MultiheadAttention's forward as the same ops without hook points (time-major, packed
    projection, no bias_kv): the computation the points must leave untouched."""
    tgt_len, bsz, e = query.shape
    heads, hd = mha.num_heads, mha.head_dim
    w, b = mha.in_proj_weight, mha.in_proj_bias
    if query is key and key is value:
        q, k, v = ops.split(ops.dense(query, w, b), e, axis=-1)
    else:
        q, k, v = (ops.dense(query, w[:e], b[:e]), ops.dense(key, w[e:2 * e], b[e:2 * e]),
                   ops.dense(value, w[2 * e:], b[2 * e:]))
    q, k, v = (ops.transpose(ops.reshape(t, (t.shape[0], bsz, heads, hd)), (1, 2, 0, 3))
               for t in (q, k, v))
    scale = ops.sqrt(ops.sqrt(ms.Tensor(hd, q.dtype)))     # MindSpore's: in the tensors' dtype
    scores = ops.matmul(q / scale, ops.swapaxes(k, -2, -1) / scale)
    if attn_mask is not None:
        scores = scores + ops.expand_dims(attn_mask, 0)
    weights = ops.softmax(scores, -1)
    out = ops.matmul(weights, v)
    out = mha.out_proj(ops.reshape(ops.transpose(out, (2, 0, 1, 3)), (tgt_len, bsz, e)))
    return out, ops.sum(weights, 1) / heads


@pytest.mark.parametrize('dtype', [ms.float32, ms.float64])
def test_without_hooks_the_results_are_bit_identical_to_the_plain_computation(dtype):
    mha = nn.MultiheadAttention(8, 2, dtype=dtype)
    query, memory = (ops.cast(t, dtype) for t in inputs((4, 3, 8), (6, 3, 8)))
    mask = ops.cast(T(np.triu(np.full((4, 6), -1e4), 2)), dtype)
    cases = [((query, query, query), {}), ((query, memory, memory), dict(attn_mask=mask))]
    for args, kw in cases:
        want = [t.asnumpy() for t in plain_attention(mha, *args, **kw)]
        for t, w in zip(mha(*args, **kw), want):
            np.testing.assert_array_equal(t.asnumpy(), w)
        # hooks that return nothing change nothing, and nothing stays once they are removed
        _, handles = capture(mha)
        for t, w in zip(mha(*args, **kw), want):
            np.testing.assert_array_equal(t.asnumpy(), w)
        for h in handles:
            h.remove()
        for t, w in zip(mha(*args, **kw), want):
            np.testing.assert_array_equal(t.asnumpy(), w)


def test_patching_weights_and_one_head_from_a_clean_run():
    mha = make_mha(embed_dim=12, num_heads=3)
    clean, corrupted = inputs((5, 2, 12), (5, 2, 12))
    cache, handles = capture(mha)
    mha(clean, clean, clean)
    for h in handles:
        h.remove()
    want_corrupted = numpy_attention(mha, corrupted, corrupted, corrupted)

    # the clean attention pattern on the corrupted values
    handle = mha.attn_weights_point.register_forward_hook(
        lambda cell, args, out: T(cache['attn_weights_point']))
    out, weights = mha(corrupted, corrupted, corrupted, average_attn_weights=False)
    handle.remove()
    want = out_from_heads(mha, cache['attn_weights_point'] @ want_corrupted['v_point'])
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(weights.asnumpy(), cache['attn_weights_point'])

    # head 1's output from the clean run, heads 0 and 2 from the corrupted one
    def patch_head_1(cell, args, out):
        patched = out.asnumpy().copy()
        patched[:, 1] = cache['head_output_point'][:, 1]
        return T(patched)
    mha.head_output_point.register_forward_hook(patch_head_1)
    out, _ = mha(corrupted, corrupted, corrupted)
    heads = want_corrupted['head_output_point'].copy()
    heads[:, 1] = cache['head_output_point'][:, 1]
    np.testing.assert_allclose(out.asnumpy(), out_from_heads(mha, heads), rtol=1e-12,
                               atol=1e-12)
    assert not np.allclose(out.asnumpy(), want_corrupted['out'])


def test_patching_one_layer_of_an_encoder_matches_recomputing_that_layer():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dtype=ms.float64), 2)
    clean, corrupted = inputs((4, 3, 8), (4, 3, 8))
    cache, handles = capture(enc)
    clean_out = enc(clean).asnumpy()
    for h in handles:
        h.remove()
    point = 'layers.1.self_attn.head_output_point'
    layer = enc.layers[1]

    def patch_head_0(cell, args, out):
        return ops.concat([T(cache[point][:, :1]), out[:, 1:]], axis=1)
    handle = layer.self_attn.head_output_point.register_forward_hook(patch_head_0)
    got = enc(corrupted).asnumpy()
    handle.remove()

    # layer 1 by hand (post-norm, relu) on layer 0's corrupted output
    x = enc.layers[0](corrupted)
    heads = numpy_attention(layer.self_attn, x, x, x)['head_output_point']
    heads[:, 0] = cache[point][:, 0]
    x = layer.norm1(x + T(out_from_heads(layer.self_attn, heads)))
    want = layer.norm2(x + layer.dense2(ops.relu(layer.dense1(x)))).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    assert not np.allclose(got, enc(corrupted).asnumpy())
    assert not np.allclose(got, clean_out)


def test_ablating_a_head_removes_its_share_of_the_output():
    mha = make_mha(embed_dim=12, num_heads=3, seed=4)
    (x,) = inputs((5, 2, 12))
    full = numpy_attention(mha, x, x, x)
    hd = mha.head_dim
    for h in range(3):
        def ablate(cell, args, out, h=h):
            keep = np.ones(out.shape)
            keep[:, h] = 0
            return out * T(keep)
        handle = mha.head_output_point.register_forward_hook(ablate)
        out, _ = mha(x, x, x)
        handle.remove()
        share = full['head_output_point'][:, h].transpose(1, 0, 2) @ \
            mha.out_proj.weight.asnumpy()[:, h * hd:(h + 1) * hd].T
        np.testing.assert_allclose(out.asnumpy(), full['out'] - share, rtol=1e-10, atol=1e-12)
        assert np.abs(share).max() > 1e-3


def test_backward_hooks_give_the_gradient_of_each_point():
    mha = make_mha(embed_dim=12, num_heads=3, seed=5)
    (x,) = inputs((5, 2, 12))
    c = np.random.default_rng(6).standard_normal((5, 2, 12))
    loss = lambda t: (mha(t, t, t)[0] * T(c)).sum()      # noqa: E731
    grads, _ = capture(mha, 'backward')
    pre = []
    mha.attn_weights_point.register_backward_pre_hook(
        lambda cell, grad_output: pre.append(grad_output[0].asnumpy()))
    ms.grad(loss)(x)
    ref = numpy_attention(mha, x, x, x)
    assert {p: g.shape for p, g in grads.items()} == {p: ref[p].shape for p in POINTS}

    # explicit: d loss / d head outputs is c @ W_o by head, then d / d weights = that @ V.T
    d_heads = split_heads(c @ mha.out_proj.weight.asnumpy(), 3)
    np.testing.assert_allclose(grads['head_output_point'], d_heads, rtol=1e-10, atol=1e-12)
    want = d_heads @ ref['v_point'].swapaxes(-1, -2)
    np.testing.assert_allclose(grads['attn_weights_point'], want, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(pre[0], grads['attn_weights_point'])

    # the gradient with respect to the same weights patched in as an input
    mha.remove_hooks()

    def patched_loss(weights):
        handle = mha.attn_weights_point.register_forward_hook(lambda cell, args, out: weights)
        value = loss(x)
        handle.remove()
        return value
    np.testing.assert_allclose(ms.grad(patched_loss)(T(ref['attn_weights_point'])).asnumpy(),
                               want, rtol=1e-10, atol=1e-12)

    # central differences on a few entries, nudging the point's value through a forward hook
    for index in [(0, 0, 0, 0), (1, 2, 3, 4), (0, 1, 4, 2)]:
        def nudged(eps):
            def hook(cell, args, out):
                delta = np.zeros(out.shape)
                delta[index] = eps
                return out + T(delta)
            handle = mha.attn_weights_point.register_forward_hook(hook)
            value = float(loss(x).asnumpy())
            handle.remove()
            return value
        fd = (nudged(1e-6) - nudged(-1e-6)) / 2e-6
        np.testing.assert_allclose(fd, want[index], rtol=1e-6, atol=1e-8)


def test_dropout_applies_after_the_attention_weights_point():
    ms.set_seed(3)
    mha = make_mha(dropout=0.5).set_train()
    seen, _ = capture(mha)
    (x,) = inputs((6, 2, 8))
    _, weights = mha(x, x, x, average_attn_weights=False)
    before, after = seen['attn_weights_point'], weights.asnumpy()
    np.testing.assert_allclose(before.sum(-1), 1, rtol=1e-12)
    dropped = after == 0
    assert dropped.any() and not dropped.all()
    np.testing.assert_allclose(after[~dropped], before[~dropped] * 2, rtol=1e-12)


def test_a_replacement_that_is_not_a_tensor_is_refused_naming_the_point():
    mha = make_mha()
    (x,) = inputs((3, 2, 8))

    def as_list(cell, args, out):
        return [out]
    mha.attn_weights_point.register_forward_hook(as_list)
    with pytest.raises(TypeError, match=r"Cell 'MultiheadAttention.attn_weights_point' forward "
                                        r"hook '.*as_list' returned list, expected a Tensor"):
        mha(x, x, x)
    with pytest.raises(TypeError, match=r"HookPoint.construct\(\) takes 2 positional arguments"):
        nn.HookPoint()(x, x)


def test_the_recipe_in_the_attention_guide_runs():
    text = (pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'attention.md').read_text()
    blocks = re.findall(r"```python\n(.*?)\n```", text, re.S)
    assert len(blocks) >= 4
    scope = {}
    for block in blocks:
        exec(compile(block, 'docs/attention.md', 'exec'), scope)
    assert {'cache', 'patched', 'ablated'} <= set(scope)
