"""The Primitive classes of operations/_feature_maps.py and operations/_distributions.py: each
gives its functional op's values (MindSpore 2.10's constructor and call arguments), seeded
Primitives repeat their draws, and bad arguments raise MindSpore-like errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.ops import operations as P

RNG = np.random.default_rng(4)
X = ms.Tensor(RNG.standard_normal((2, 4, 3, 4)).astype(np.float32))
VOL = ms.Tensor(np.ones((1, 2, 3, 3, 3), np.float32))
W3 = ms.Tensor(np.ones((2, 2, 2, 2, 2), np.float32))


def same(a, b):
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_primitives_are_the_ops_classes_under_mindspore_paths():
    for name in ('GridSampler2D', 'GridSampler3D', 'MaxUnpool2D', 'MaxUnpool3D', 'CropAndResize', 'ChannelShuffle',
                 'RmsNorm', 'PopulationCount', 'Conv3D', 'Conv3DTranspose', 'Dropout3D',
                 'MultilabelMarginLoss', 'Gamma', 'Poisson', 'RandomGamma', 'RandomPoisson',
                 'StandardLaplace', 'Randperm', 'RandpermV2', 'MultinomialWithReplacement',
                 'UniformCandidateSampler', 'LogUniformCandidateSampler'):
        assert getattr(P, name) is getattr(ops, name)


def test_layer_primitives_give_their_functions_values():
    grid = ms.Tensor(RNG.uniform(-1, 1, (2, 2, 3, 2)).astype(np.float32))
    same(ops.GridSampler2D('nearest', 'border', True)(X, grid),
         ops.grid_sample(X, grid, 'nearest', 'border', True))
    vol = ms.Tensor(RNG.standard_normal((2, 1, 2, 3, 2)).astype(np.float32))
    grid3 = ms.Tensor(RNG.uniform(-1, 1, (2, 1, 2, 2, 3)).astype(np.float32))
    same(ops.GridSampler3D('bilinear', 'border')(vol, grid3),
         ops.grid_sample(vol, grid3, 'bilinear', 'border'))
    pooled, idx = ops.max_pool2d(X, 2, 2, return_indices=True)
    same(ops.MaxUnpool2D(2)(pooled, idx), ops.max_unpool2d(pooled, idx, 2))
    same(ops.MaxUnpool2D(2, 2, 0, (2, 4, 3, 5))(pooled, idx),
         ops.max_unpool2d(pooled, idx, 2, 2, 0, (3, 5)))
    same(ops.ChannelShuffle(2)(X), ops.channel_shuffle(X, 2))
    y, rstd = ops.RmsNorm(1e-5)(X, ms.Tensor(np.ones(4, np.float32)))
    same(y, ops.rms_norm(X, ms.Tensor(np.ones(4, np.float32)), 1e-5)[0])
    ints = ms.Tensor(np.array([3, -1, 8], np.int16))
    assert ops.PopulationCount()(ints).asnumpy().tolist() == [2, 16, 1]
    image = ms.Tensor(RNG.standard_normal((1, 4, 5, 2)).astype(np.float32))
    boxes = ms.Tensor(np.array([[0.1, 0.2, 0.9, 0.7]], np.float32))
    index = ms.Tensor(np.array([0], np.int32))
    same(ops.CropAndResize('nearest', 2.0)(image, boxes, index, (3, 3)),
         ops.crop_and_resize(image, boxes, index, (3, 3), 'nearest', 2.0))


def test_conv3d_primitives_match_mindspore():
    """All-ones inputs: MindSpore 2.10's CPU outputs, first eight values."""
    y = ops.Conv3D(2, 2, pad_mode='pad', pad=(1, 0, 0, 1, 1, 0))(VOL, W3)
    assert y.shape == (1, 2, 3, 3, 3)
    assert y.asnumpy().ravel()[:8].tolist() == [4, 8, 8, 4, 8, 8, 2, 4]
    y = ops.Conv3DTranspose(2, 2, 2)(VOL, W3)
    assert y.shape == (1, 2, 4, 4, 4)
    assert y.asnumpy().ravel()[:8].tolist() == [2, 4, 4, 2, 4, 8, 8, 4]
    same(ops.Conv3D(2, 2, pad_mode='same', stride=2)(VOL, W3),
         ops.conv3d(VOL, W3, None, 2, 'same'))


def test_dropout3d_gives_a_channel_mask_of_the_input_shape():
    ms.set_seed(0)
    y, mask = ops.Dropout3D(0.5)(ms.Tensor(np.ones((4, 8, 1, 2, 2), np.float32)))
    m = mask.asnumpy()
    assert mask.dtype == ms.bool_ and m.shape == (4, 8, 1, 2, 2)
    assert (m.reshape(32, -1).min(-1) == m.reshape(32, -1).max(-1)).all()
    np.testing.assert_array_equal(y.asnumpy(), 2.0 * m)


def test_multilabel_margin_loss_primitive_returns_the_target_mask():
    loss, is_target = ops.MultilabelMarginLoss('none')(
        ms.Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.3, 0.1, 0.2, 0.0]], np.float32)),
        ms.Tensor(np.array([[3, 0, -1, 1], [1, 2, 3, -1]], np.int32)))
    assert loss.shape == (2,) and abs(loss.asnumpy()[0] - 0.85) < 1e-6
    assert is_target.dtype == ms.int32
    assert is_target.asnumpy().tolist() == [[1, 0, 0, 1], [0, 1, 1, 1]]


@pytest.mark.parametrize('make,call', [
    (lambda s: ops.Gamma(s, 1), lambda p: p((3, 2), ms.Tensor(np.ones(2, np.float32)),
                                           ms.Tensor(np.ones(2, np.float32)))),
    (lambda s: ops.Poisson(s, 1), lambda p: p((3, 2), ms.Tensor(np.ones(2, np.float32)))),
    (lambda s: ops.RandomGamma(s, 1), lambda p: p(ms.Tensor(np.array([3], np.int32)),
                                                 ms.Tensor(np.ones(2, np.float32)))),
    (lambda s: ops.RandomPoisson(s, 1), lambda p: p(ms.Tensor(np.array([3], np.int32)),
                                                   ms.Tensor(np.ones(2, np.float32)))),
    (lambda s: ops.StandardLaplace(s, 1), lambda p: p((3, 2))),
    (lambda s: ops.RandpermV2(s, 1), lambda p: p(ms.Tensor(6, ms.int64))),
    (lambda s: ops.LogUniformCandidateSampler(1, 3, True, 9, s),
     lambda p: p(ms.Tensor(np.array([[1], [3]], np.int64)))[0]),
    (lambda s: ops.UniformCandidateSampler(1, 3, False, 9, s),
     lambda p: p(ms.Tensor(np.array([[1], [3]], np.int64)))[0]),
])
def test_seeded_primitives_repeat_their_sequence(make, call):
    a, b = make(3), make(3)
    first, second = call(a), call(a)
    same(call(b), first)                              # a new Primitive, the same seed
    same(call(b), second)                             # continues the same sequence
    ms.set_seed(8)
    c = call(make(0))
    ms.set_seed(8)
    same(call(make(0)), c)                            # seed 0: the global generator


def test_randperm_pads_to_max_length():
    ms.set_seed(1)
    y = ops.Randperm(6, -1)(ms.Tensor(np.array([3], np.int32)))
    assert y.dtype == ms.int32 and y.shape == (6,)
    v = y.asnumpy().tolist()
    assert sorted(v[:3]) == [0, 1, 2] and v[3:] == [-1, -1, -1]


def test_random_poisson_primitive_is_int64_by_default():
    y = ops.RandomPoisson(1)(ms.Tensor(np.array([2, 3], np.int32)),
                             ms.Tensor(np.ones(2, np.float32)))
    assert y.dtype == ms.int64 and y.shape == (2, 3, 2)


@pytest.mark.parametrize('fn,exc,match', [
    (lambda: ops.Randperm(2)(ms.Tensor(np.array([3], np.int32))), ValueError,
     r"ops.Randperm: n must be in \[0, max_length = 2\]"),
    (lambda: ops.Randperm(0), ValueError, "ops.Randperm: max_length must be an int >= 1"),
    (lambda: ops.Gamma(-1), ValueError, "ops.Gamma: seed must be an int >= 0"),
    (lambda: ops.RandomPoisson(dtype=ms.bool_), TypeError, "ops.RandomPoisson: dtype must be"),
    (lambda: ops.Conv3D(2, 2, pad_mode='full'), ValueError, "ops.Conv3D: pad_mode must be"),
    (lambda: ops.Conv3D(2, 2, pad=1), ValueError, "ops.Conv3D: pad must be 0 when pad_mode"),
    (lambda: ops.Conv3D(2, 2, data_format='NDHWC'), ValueError,
     "ops.Conv3D: data_format must be 'NCDHW'"),
    (lambda: ops.MaxUnpool2D(2, data_format='NHWC'), ValueError,
     "ops.MaxUnpool2D: data_format must be 'NCHW'"),
    (lambda: ops.Dropout3D(1.5), ValueError, r"ops.Dropout3D: keep_prob must be in \[0, 1\]"),
    (lambda: ops.Dropout3D()(X), ValueError, "ops.Dropout3D: x must be 5-d"),
    (lambda: ops.UniformCandidateSampler(1, 1, True, 5, 0, True), NotImplementedError,
     "remove_accidental_hits"),
])
def test_errors_name_the_primitive(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn()
