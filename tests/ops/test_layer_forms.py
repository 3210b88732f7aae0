"""The layer functions of ``ops`` (feature_maps.py, layer_forms.py and the functional forms of
Primitives): values against MindSpore 2.10's CPU outputs (layer_mindspore_values.npz, written
by make_layer_values.py), formulas of the Ascend-only ones against NumPy, gradients against
float64 central differences, and the errors for bad arguments."""
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case, normal
from tests.ops.rows import error_test, row_tests

VALUES = np.load(os.path.join(os.path.dirname(__file__), 'layer_mindspore_values.npz'))
IN = {k[3:]: ms.Tensor(VALUES[k]) for k in VALUES.files if k.startswith('in_')}


def positive(rng, shape):
    return rng.uniform(0.5, 2.0, shape)


def unpool_indices(rng, shape):
    """Flat positions of 2 x 2 windows of a (2 h) x (2 w) map, one per window (max-pool-like)."""
    n, c, h, w = shape
    r, q = rng.integers(0, 2, shape), rng.integers(0, 2, shape)
    rows = 2 * np.arange(h)[:, None] + r
    cols = 2 * np.arange(w)[None, :] + q
    return (rows * 2 * w + cols).astype(np.int64)


def labels(rng, shape):
    t = np.stack([rng.permutation(shape[-1]) for _ in range(int(np.prod(shape[:-1])))])
    t = t.reshape(shape)
    t[..., 2] = -1                     # labels after the first -1 are ignored
    return t


def ref_rms_norm(x, g):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * g


def ref_swiglu(x):
    a, b = np.split(x, 2, -1)
    return a / (1 + np.exp(-a)) * b


def ref_rope(x, cos, sin, mode):
    if mode == 0:
        a, b = np.split(x, 2, -1)
        rotated = np.concatenate([-b, a], -1)
    else:
        rotated = np.empty_like(x)
        rotated[..., 0::2], rotated[..., 1::2] = -x[..., 1::2], x[..., 0::2]
    return x * cos + rotated * sin


CASES = [
    Case(('Reshape', 'Transpose'), lambda x: ops.pixel_shuffle(x, 2), name='pixel_shuffle',
         shapes=(((1, 8, 2, 3),), ((3, 4, 2, 2),))),
    Case(('Reshape', 'Transpose'), lambda x: ops.pixel_unshuffle(x, 2), name='pixel_unshuffle',
         shapes=(((1, 2, 4, 6),), ((3, 2, 2),))),
    Case(('Reshape', 'Transpose'), lambda x: ops.channel_shuffle(x, 3), name='channel_shuffle',
         shapes=(((2, 6, 3),), ((1, 3, 2, 2),))),
    Case(('AvgPool2D', 'Pow'), lambda x: ops.lp_pool1d(x, 2, 3, 2), name='lp_pool1d',
         shapes=(((2, 3, 8),), ((3, 7),)), domains=(positive,)),
    Case(('AvgPool2D', 'Pow'), lambda x: ops.lp_pool2d(x, 1.5, (2, 3)), name='lp_pool2d',
         shapes=(((1, 2, 4, 6),), ((2, 1, 5, 3),)), domains=(positive,)),
    Case('ScatterElements', lambda x, i: ops.max_unpool2d(x, i, 2), name='max_unpool2d',
         shapes=(((1, 2, 2, 3), (1, 2, 2, 3)), ((2, 1, 3, 2), (2, 1, 3, 2))),
         domains=(positive, unpool_indices)),
    Case('LayerNorm', lambda x, w, b: ops.group_norm(x, 2, w, b), name='group_norm',
         shapes=(((2, 4, 3), (4,), (4,)), ((1, 6, 2, 2), (6,), (6,)))),
    Case(('Pow', 'Square'), lambda x: ops.lrn(x, 1, 1.0, 0.5, 0.75), name='lrn',
         shapes=(((1, 4, 2, 2),), ((2, 3, 1, 2),))),
    Case('Rsqrt', lambda x, g: ops.rms_norm(x, g)[0], ref=ref_rms_norm, name='rms_norm',
         shapes=(((2, 3, 4), (4,)), ((5, 2), (2,)))),
    Case('SiLU', lambda x: ops.swiglu(x), ref=ref_swiglu, name='swiglu',
         shapes=(((2, 6),), ((3, 2, 4),))),
    Case(('Concat', 'Neg'), lambda x, c, s: ops.rotary_position_embedding(x, c, s, 0),
         ref=lambda x, c, s: ref_rope(x, c, s, 0), name='rope_half',
         shapes=(((1, 2, 3, 4), (1, 1, 3, 4), (1, 1, 3, 4)), ((2, 1, 2, 6), (2, 1, 2, 6),
                                                             (1, 1, 2, 6)))),
    Case(('Stack', 'Neg'), lambda x, c, s: ops.rotary_position_embedding(x, c, s, 1),
         ref=lambda x, c, s: ref_rope(x, c, s, 1), name='rope_interleaved',
         shapes=(((1, 2, 3, 4), (1, 1, 3, 4), (1, 1, 3, 4)),)),
    Case('Take', lambda w: ops.embedding(ms.Tensor([[0, 2], [1, 2]]), w),
         ref=lambda w: w[[[0, 2], [1, 2]]], name='embedding', shapes=(((3, 4),), ((4, 2),))),
    Case(('GatherElements', 'ReLU'), lambda x, t: ops.multilabel_margin_loss(x, t, 'none'),
         name='multilabel_margin_loss', shapes=(((3, 5), (3, 5)), ((4,), (4,))),
         domains=(lambda rng, s: rng.uniform(-0.3, 0.3, s), labels), double=False),
    Case('Untake', lambda x, s: ops.select_scatter(x, s, 1, 1), name='select_scatter',
         shapes=(((2, 3), (2,)), ((2, 3, 4), (2, 4)))),
    Case('Untake', lambda x, s: ops.slice_scatter(x, s, 0, 0, 4, 2), name='slice_scatter',
         shapes=(((4, 3), (2, 3)), ((5, 2), (2, 2)))),
    Case('Convolution2D', lambda x, w, b: ops.conv3d(x, w, b, (2, 1, 1), 'pad', 1),
         name='conv3d', shapes=(((1, 2, 4, 3, 3), (3, 2, 2, 2, 1), (3,)),), double=False),
    Case('Conv2DBackpropInput', lambda x, w: ops.conv3d_transpose(x, w, 'pad', 1, (2, 1, 1)),
         name='conv3d_transpose', shapes=(((1, 2, 3, 2, 3), (2, 2, 2, 2, 2)),), double=False),
    Case('GatherElements', lambda x, g: ops.grid_sample(x, g), name='grid_sample',
         shapes=(((1, 2, 3, 4), (1, 2, 3, 2)), ((2, 1, 2, 3, 2), (2, 1, 2, 2, 3))), double=False,
         domains=(normal, lambda rng, s: rng.uniform(-0.9, 0.9, s))),
    # the crops are Float32 (MindSpore's), so a wider step; bilinear sampling is piecewise
    # linear in the image and quadratic in the boxes, which central differences take exactly
    Case('GatherElements', lambda x, b: ops.crop_and_resize(
        x, b, ms.Tensor(np.array([0, 1], np.int32)), (3, 2)), name='crop_and_resize',
         shapes=(((2, 4, 5, 2), (2, 4)),), double=False, eps=1e-3, grad_atol=1e-4,
         grad_rtol=1e-3, domains=(normal, lambda rng, s: rng.uniform(0.05, 0.95, s))),
    Case('GumbelNoise', lambda x: ops.gumbel_softmax(x), name='gumbel_softmax', grad=False),
    Case('PopulationCount', lambda x: ops.population_count(x),
         ref=lambda x: np.array([bin(v).count('1') for v in x.ravel()], np.uint8).reshape(x.shape),
         name='population_count', grad=False, shapes=(((3, 4),), ((5,),)),
         domains=(lambda rng, s: rng.integers(0, 1 << 30, s),)),
]
globals().update(row_tests(CASES))


# ------------------------------------------------------------------------------ MindSpore values
def check(got, name, rtol=1e-5):
    want = VALUES[name]
    got = got.asnumpy()
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6)


def test_rearrangements_match_mindspore():
    check(ops.pixel_shuffle(IN['x'], 2), 'pixel_shuffle')
    check(ops.pixel_unshuffle(IN['x'], 2), 'pixel_unshuffle')
    check(ops.channel_shuffle(IN['x'], 4), 'channel_shuffle')


def test_lp_pooling_matches_mindspore():
    check(ops.lp_pool1d(IN['pos'][0], 2, 3, 2), 'lp_pool1d')
    with pytest.warns(RuntimeWarning, match='ops.pow: invalid value'):   # negative sums ** 1/3
        check(ops.lp_pool1d(IN['x1'], 3, 2, ceil_mode=True), 'lp_pool1d_ceil')     # NaN there
    check(ops.lp_pool2d(IN['pos'], 1.5, (2, 3)), 'lp_pool2d')


def test_max_unpool_matches_mindspore():
    pooled, idx = ops.max_pool2d(IN['x'], 2, 2, return_indices=True)
    np.testing.assert_array_equal(idx.asnumpy(), VALUES['unpool2d_idx'])
    check(ops.max_unpool2d(pooled, idx, 2), 'unpool2d')
    pooled, idx = ops.max_pool2d(IN['small'], 2, 1, return_indices=True)
    check(ops.max_unpool2d(pooled, idx, 2, 1, output_size=(1, 2, 3, 3)), 'unpool2d_size')


def test_max_unpool_1d_and_3d_write_each_value_at_its_index():
    x = ms.Tensor(np.array([[[5.0, 7.0]]]))
    y = ops.max_unpool1d(x, ms.Tensor(np.array([[[1, 2]]])), 2)
    np.testing.assert_array_equal(y.asnumpy(), [[[0, 5, 7, 0]]])
    y = ops.max_unpool3d(ms.Tensor(np.array([[[[[3.0]]]]])), ms.Tensor(np.array([[[[[6]]]]])), 2)
    assert y.shape == (1, 1, 2, 2, 2) and y.asnumpy().ravel().tolist() == [0] * 6 + [3, 0]


def test_normalizations_match_mindspore():
    check(ops.group_norm(IN['x'], 4, IN['weight'], IN['bias']), 'group_norm', 1e-4)
    check(ops.lrn(IN['x'], 2, 1.5, 0.3, 0.75), 'lrn')


def test_box_functions_match_mindspore():
    check(ops.iou(IN['anchors'], IN['gts']), 'iou')
    check(ops.iou(IN['anchors'], IN['gts'], 'iof'), 'iof')
    check(ops.bounding_box_encode(IN['anchors'], IN['anchors'][::-1] + 1, (0.1, 0.0, 0.2, 0.0),
                                  (1.0, 2.0, 1.0, 0.5)), 'bb_encode')
    check(ops.bounding_box_decode(IN['anchors'], IN['deltas'], (6, 7)), 'bb_decode')
    check(ops.check_valid(IN['anchors'], ms.Tensor(np.array([6, 7, 1], np.float32))),
          'check_valid')


def test_element_functions_match_mindspore():
    check(ops.soft_shrink(IN['x'], 0.7), 'soft_shrink')
    check(ops.sequence_mask(IN['lengths'], 5), 'sequence_mask')
    check(ops.sequence_mask(IN['lengths']), 'sequence_mask_max')
    check(ops.select_scatter(IN['x'], IN['src_select'], 2, 1), 'select_scatter')
    check(ops.slice_scatter(IN['x'], IN['src_slice'], 2, 0, 4, 2), 'slice_scatter')
    check(ops.population_count(IN['ints']), 'population_count')
    check(ops.invert(IN['ints']), 'invert')


def test_embedding_padding_row_gets_no_gradient():
    w = ms.Tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
    y = ops.embedding(ms.Tensor([[0, 1], [1, 2]]), w, padding_idx=-2)
    np.testing.assert_array_equal(y.asnumpy(), [[[0, 1], [2, 3]], [[2, 3], [4, 5]]])
    y.sum().backward()
    np.testing.assert_array_equal(w.grad.asnumpy(), [[1, 1], [0, 0], [1, 1]])


def test_nanmedian_matches_mindspore():
    values, index = ops.nanmedian(IN['nan'])
    check(values, 'nanmedian')
    # a row of NaN only: MindSpore's index is the middle position, hookgrad's the first
    np.testing.assert_array_equal(index.asnumpy()[:2], VALUES['nanmedian_idx'][:2])
    values, index = ops.nanmedian(IN['nan'], 0, True)
    check(values, 'nanmedian0')
    check(index, 'nanmedian0_idx')


# ------------------------------------------------------------------------------ other values
def test_rms_norm_returns_the_reciprocal_std_as_float32():
    x = ms.Tensor(np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]))
    y, rstd = ops.rms_norm(x, ms.Tensor(np.ones(3)))
    assert rstd.shape == (2, 1) and rstd.dtype == ms.float32
    np.testing.assert_allclose(rstd.asnumpy(), 1 / np.sqrt(14 / 3 + 1e-6), rtol=1e-6)
    np.testing.assert_allclose(y.asnumpy()[0], [0.46290955, 0.92581911, 1.38872866], rtol=1e-6)


def test_swiglu_matches_the_documented_example():
    x = ms.Tensor([[-0.12, 0.123, 31.122], [2.1223, 4.1212121217, 0.3123]], ms.float32)
    np.testing.assert_allclose(ops.swiglu(x, 0).asnumpy(), [[-0.11970687, 0.2690224, 9.7194]],
                               rtol=1e-5)


def test_multilabel_margin_loss_of_the_documented_example():
    x = ms.Tensor(np.array([[0.1, 0.2, 0.4, 0.8]], np.float32))
    t = ms.Tensor(np.array([[3, 0, -1, 1]], np.int32))
    assert abs(ops.multilabel_margin_loss(x, t).asnumpy() - 0.85) < 1e-6


def test_grid_sample_matches_mindspore_and_is_minted_once():
    check(ops.grid_sample(IN['x'][:, :3], IN['grid']), 'grid_sample')
    check(ops.grid_sample(IN['x'][:, :3], IN['grid'], 'nearest', 'border', True),
          'grid_sample_nearest')
    assert ms.mint.nn.functional.grid_sample is ops.grid_sample


def test_grid_sample_of_volumes_matches_mindspore():
    check(ops.grid_sample(IN['vol'], IN['grid3'], 'bilinear', 'reflection'), 'grid_sample3d')
    check(ops.grid_sample(IN['vol'], IN['grid3'], 'nearest', 'zeros', True),
          'grid_sample3d_nearest')


def test_conv3d_matches_mindspore():
    check(ops.conv3d(IN['vol'], IN['w3'], IN['b3'], (1, 2, 1), groups=2), 'conv3d', 1e-4)
    check(ops.conv3d(IN['vol'], IN['w3'], None, 2, 'same', 0, (1, 1, 2), 2), 'conv3d_same',
          1e-4)
    check(ops.conv3d(IN['vol'], IN['w3'], None, 1, 'pad', (1, 0, 2), 1, 2), 'conv3d_pad', 1e-4)


def test_conv3d_transpose_matches_mindspore():
    check(ops.conv3d_transpose(IN['vol'], IN['w3t']), 'conv3d_t', 1e-4)
    check(ops.conv3d_transpose(IN['vol'], IN['w3t'], 'pad', (1, 0, 1, 1, 0, 1), (2, 1, 2), 1,
                               1, (1, 0, 1)), 'conv3d_t_pad', 1e-4)
    check(ops.conv3d_transpose(IN['vol'], IN['w3t'], 'same', 0, 2, (1, 2, 1)), 'conv3d_t_same',
          1e-4)


def test_crop_and_resize_matches_mindspore():
    idx = ms.Tensor(np.array([0, 1, 1, 0], np.int32))
    check(ops.crop_and_resize(IN['image'], IN['crop_boxes'], idx, (4, 5)), 'crop_bilinear')
    check(ops.crop_and_resize(IN['image'], IN['crop_boxes'], idx, (3, 1), 'nearest', -1.0),
          'crop_nearest')


def test_gumbel_softmax_rows_sum_to_one_and_follow_the_seed():
    logits = ms.Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32))
    ms.set_seed(3)
    soft = ops.gumbel_softmax(logits, 0.5)
    ms.set_seed(3)
    again = ops.gumbel_softmax(logits, 0.5)
    np.testing.assert_array_equal(soft.asnumpy(), again.asnumpy())
    np.testing.assert_allclose(soft.asnumpy().sum(-1), 1, rtol=1e-6)
    hard = ops.gumbel_softmax(logits, 1.0, True)
    assert hard.dtype == ms.float32 and sorted(hard.asnumpy().ravel().tolist()) == [0] * 4 + [1] * 2


def test_gumbel_softmax_hard_passes_the_soft_gradient():
    logits = ms.Tensor(np.array([[0.2, 0.1, -0.3]]), requires_grad=True)
    ops.gumbel_softmax(logits, 1.0, True).sum().backward()
    np.testing.assert_allclose(logits.grad.asnumpy(), 0, atol=1e-12)   # softmax rows sum to 1


def test_dropout1d_and_3d_drop_whole_channels():
    ms.set_seed(1)
    y = ops.dropout1d(ms.Tensor(np.ones((8, 16, 5), np.float32)), 0.5).asnumpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and (y.min(-1) == y.max(-1)).all()
    assert 0.2 < (y == 0).mean() < 0.8
    y = ops.dropout3d(ms.Tensor(np.ones((4, 8, 2, 2, 2), np.float32)), 0.5).asnumpy()
    flat = y.reshape(32, -1)
    assert (flat.min(-1) == flat.max(-1)).all() and set(np.unique(y)) <= {0.0, 2.0}
    x = ms.Tensor(np.ones((3, 4), np.float32))
    assert ops.dropout1d(x, 0.5, False) is x


def test_population_count_counts_two_complement_bits():
    x = ms.Tensor(np.array([-1, 0, 5, np.iinfo(np.int64).min], np.int64))
    y = ops.population_count(x)
    assert y.dtype == ms.uint8 and y.asnumpy().tolist() == [64, 0, 2, 1]


def test_type_as_and_aliases():
    assert ops.type_as(ms.Tensor([1.5]), ms.Tensor([1])).dtype == ms.int64
    assert ops.soft_shrink is ops.softshrink and ops.mse_loss_ext is ops.mse_loss


ERRORS = [
    (lambda: ops.pixel_shuffle(ms.Tensor(np.ones((1, 3, 2, 2))), 2), ValueError,
     r"ops.pixel_shuffle: expected an input \(\*, C, H, W\) with C divisible by"),
    (lambda: ops.pixel_unshuffle(ms.Tensor(np.ones((1, 1, 3, 2))), 2), ValueError,
     r"ops.pixel_unshuffle: .*divisible by downscale_factor 2"),
    (lambda: ops.channel_shuffle(ms.Tensor(np.ones((1, 3, 2))), 0), ValueError,
     "ops.channel_shuffle: groups must be larger than 0"),
    (lambda: ops.lp_pool2d(ms.Tensor(np.ones((1, 1, 2, 2))), 0, 2), ValueError,
     "ops.lp_pool2d: norm_type can not be 0"),
    (lambda: ops.lp_pool1d(ms.Tensor(np.ones((1, 1, 2))), '2', 2), TypeError,
     "ops.lp_pool1d: norm_type must be a float or an int"),
    (lambda: ops.max_unpool2d(ms.Tensor(np.ones((1, 1, 2, 2))), ms.Tensor(np.ones((1, 1, 2))),
                              2), ValueError, "ops.max_unpool2d: indices must be an integer"),
    (lambda: ops.max_unpool1d(ms.Tensor(np.ones((1, 1, 2))), ms.Tensor(np.ones((1, 1, 2), int)),
                              2, output_size=(9,)), ValueError,
     "ops.max_unpool1d: output_size .* must be within a stride"),
    (lambda: ops.max_unpool1d(ms.Tensor(np.ones((1, 1, 2))), ms.Tensor(np.array([[[0, 4]]])),
                              2), ValueError,
     r"ops.max_unpool1d: indices must lie in \[0, 4\) for the output size \(4,\)"),
    (lambda: ops.dropout3d(ms.Tensor(np.ones((1, 1, 2, 2))), 0.5), ValueError,
     "ops.dropout3d: expected a 5-d input"),
    (lambda: ops.dropout1d(ms.Tensor(np.ones((1, 1, 2))), 1.5), ValueError,
     r"ops.dropout1d: p must be in \[0, 1\]"),
    (lambda: ops.group_norm(ms.Tensor(np.ones((1, 3, 2))), 2), ValueError,
     "ops.group_norm: the number of channels must be divisible by num_groups"),
    (lambda: ops.lrn(ms.Tensor(np.ones((1, 3, 2, 2))), 2, 1), TypeError,
     "ops.LRN: bias must be a float"),
    (lambda: ops.iou(ms.Tensor(np.ones((1, 4))), ms.Tensor(np.ones((1, 4))), 'x'), KeyError,
     "ops.IOU: mode must be 'iou' or 'iof'"),
    (lambda: ops.rms_norm(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(3, np.float32))),
     TypeError, "ops.rms_norm: x and gamma must have the same dtype"),
    (lambda: ops.rms_norm(ms.Tensor(np.ones(3)), ms.Tensor(np.ones((2, 3)))), ValueError,
     "ops.rms_norm: gamma has more axes than x"),
    (lambda: ops.swiglu(ms.Tensor(np.ones((2, 3)))), ValueError,
     "ops.swiglu: the dimension -1 must be divisible by 2"),
    (lambda: ops.swiglu(ms.Tensor([1, 2])), TypeError, "ops.swiglu: input must be a floating"),
    (lambda: ops.rotary_position_embedding(ms.Tensor(np.ones((2, 4))), ms.Tensor(np.ones(4)),
                                           ms.Tensor(np.ones(4))), ValueError,
     "ops.rotary_position_embedding: x must be 4-d"),
    (lambda: ops.rotary_position_embedding(*[ms.Tensor(np.ones((1, 1, 1, 2)))] * 3, 2),
     ValueError, "ops.rotary_position_embedding: mode must be 0 or 1"),
    (lambda: ops.gumbel_softmax(ms.Tensor(np.ones(2)), 0.0), ValueError,
     "ops.gumbel_softmax: tau must be positive"),
    (lambda: ops.gumbel_softmax(ms.Tensor(np.ones(2)), 1), TypeError,
     "ops.gumbel_softmax: tau must be a float"),
    (lambda: ops.sequence_mask(ms.Tensor([1.0]), 2), TypeError,
     "ops.sequence_mask: lengths must be Int32 or Int64"),
    (lambda: ops.sequence_mask(ms.Tensor([1]), 0), ValueError,
     "ops.sequence_mask: maxlen must be positive"),
    (lambda: ops.embedding(ms.Tensor([0]), ms.Tensor(np.ones((2, 2))), 5), ValueError,
     r"ops.embedding: padding_idx must be in \[-2, 2\)"),
    (lambda: ops.embedding(ms.Tensor([0]), ms.Tensor(np.ones((2, 2))), max_norm=0.0),
     ValueError, "ops.embedding: max_norm must be a positive number, got 0.0"),
    (lambda: ops.multilabel_margin_loss(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((2, 2),
                                                                                     int))),
     ValueError, "ops.multilabel_margin_loss: input must be"),
    (lambda: ops.population_count(ms.Tensor([1.0])), TypeError,
     "ops.population_count: input_x must be an integer tensor"),
    (lambda: ops.conv3d(ms.Tensor(np.ones((1, 2, 3, 3, 3))), ms.Tensor(np.ones((1, 2, 2, 2, 2))),
                        pad_mode='pad', padding=(1, 1)), TypeError,
     "ops.conv3d: padding must be an int or a tuple of 3 ints"),
    (lambda: ops.conv3d(ms.Tensor(np.ones((1, 2, 3, 3, 3))), ms.Tensor(np.ones((1, 2, 2, 2, 2))),
                        padding=1), ValueError, "ops.conv3d: padding must be 0 when pad_mode"),
    (lambda: ops.conv3d(ms.Tensor(np.ones((1, 3, 3, 3, 3))), ms.Tensor(np.ones((1, 2, 2, 2, 2)))),
     ValueError, "ops.conv3d: input .* and weight .* do not fit groups=1"),
    (lambda: ops.conv3d(ms.Tensor(np.ones((1, 2, 1, 3, 3))), ms.Tensor(np.ones((1, 2, 2, 2, 2)))),
     ValueError, "ops.conv3d: the dilated kernel"),
    (lambda: ops.conv3d_transpose(ms.Tensor(np.ones((1, 2, 3, 3, 3))),
                                  ms.Tensor(np.ones((2, 1, 2, 2, 2))), output_padding=1),
     ValueError, "ops.conv3d_transpose: output_padding needs pad_mode 'pad'"),
    (lambda: ops.conv3d_transpose(ms.Tensor(np.ones((1, 2, 3, 3))),
                                  ms.Tensor(np.ones((2, 1, 2, 2, 2)))), ValueError,
     "ops.conv3d_transpose: inputs must be 5-d"),
    (lambda: ops.crop_and_resize(ms.Tensor(np.ones((1, 2, 2, 1))), ms.Tensor(np.ones((1, 4))),
                                 ms.Tensor(np.array([1], np.int32)), (2, 2)), ValueError,
     r"ops.crop_and_resize: box_indices must be in \[0, 1\)"),
    (lambda: ops.crop_and_resize(ms.Tensor(np.ones((1, 2, 2, 1))), ms.Tensor(np.ones((1, 4))),
                                 ms.Tensor(np.array([0], np.int32)), (2, 2), 'bicubic'),
     ValueError, "ops.crop_and_resize: method must be 'bilinear' or 'nearest'"),
    (lambda: ops.crop_and_resize(ms.Tensor(np.ones((1, 2, 2, 1))), ms.Tensor(np.ones((1, 4))),
                                 ms.Tensor(np.array([0], np.int32)), 2), TypeError,
     "ops.crop_and_resize: crop_size must be a tuple of two ints"),
    (lambda: ops.grid_sample(ms.Tensor(np.ones((1, 1, 2, 2))), ms.Tensor(np.ones((1, 2, 2, 3)))),
     ValueError, r"ops.grid_sample: expects input \(N, C, H, W\) and grid"),
    (lambda: ops.select_scatter([1], ms.Tensor([1]), 0, 0), TypeError,
     "ops.select_scatter: input must be a Tensor"),
]
test_errors_name_the_op_and_argument = error_test(ERRORS)


# PyTorch 2.13's F.embedding on the same inputs (MindSpore's CPU build has no Embedding kernel;
# its docs describe PyTorch's in-place renormalisation and gradient scaling)
def test_embedding_max_norm_renormalizes_the_looked_up_rows_in_place():
    w = ms.Parameter(ms.Tensor(np.array([[3., 4.], [0.3, 0.4], [1., 1.], [6., 8.]], np.float32)),
                     name='w')
    y = ops.embedding(ms.Tensor(np.array([[0, 1], [0, 3]], np.int32)), w, max_norm=2.0)
    np.testing.assert_array_equal(y.asnumpy(), np.float32([[[1.2, 1.6], [0.3, 0.4]],
                                                           [[1.2, 1.6], [1.2, 1.6]]]))
    np.testing.assert_array_equal(w.asnumpy(), np.float32([[1.2, 1.6], [0.3, 0.4], [1., 1.],
                                                           [1.2, 1.6]]))
    w1 = ms.Parameter(ms.Tensor(np.array([[3., 4.], [1., 1.]], np.float32)), name='w1')
    y1 = ops.embedding(ms.Tensor(np.array([0, 1], np.int32)), w1, max_norm=1.0, norm_type=1.0)
    assert y1.asnumpy().tolist() == [[0.4285714030265808, 0.5714285373687744],
                                     [0.4999999701976776, 0.4999999701976776]]


def test_embedding_scale_grad_by_freq_divides_each_row_s_gradient_by_its_count():
    w = ms.Tensor(np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32))
    x = ms.Tensor(np.array([0, 0, 1, 0], np.int32))
    g = ms.Tensor(np.array([[1., 2.], [3., 4.], [5., 6.], [7., 8.]], np.float32))
    y = ops.embedding(x, w, scale_grad_by_freq=True)
    np.testing.assert_array_equal(y.asnumpy(), w.asnumpy()[[0, 0, 1, 0]])
    grad = ms.grad(lambda w: (ops.embedding(x, w, scale_grad_by_freq=True) * g).sum())(w)
    np.testing.assert_allclose(grad.asnumpy(), [[11 / 3, 14 / 3], [5., 6.], [0., 0.]],
                               rtol=1e-6)
