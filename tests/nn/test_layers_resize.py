"""Upsample: every mode against MindSpore 2.10, gradients, repr and MindSpore's argument
rules."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .test_layers_support import check_case, check_layer_grad

# (input shape, kwargs, output shape, sum, sum of squares, first values): MindSpore 2.10's
# outputs for the ``det`` inputs of test_layers_support
CASES = [
    ((1, 1, 5), {'size': 8, 'mode': 'nearest'}, (1, 1, 8), 6.2772, 7.45318,
     [0.0, 0.0, 0.542423, 0.542423, 1.01143, 1.34355]),
    ((1, 1, 3, 4), {'size': (5, 7), 'mode': 'nearest'}, (1, 1, 5, 7), 24.1864, 36.0783,
     [0.0, 0.0, 0.542423, 0.542423, 1.01143, 1.01143]),
    ((1, 1, 3, 4), {'scale_factor': 2.0, 'mode': 'nearest', 'recompute_scale_factor': True},
     (1, 1, 6, 8), 23.233, 46.8195, [0.0, 0.0, 0.542423, 0.542423, 1.01143, 1.01143]),
    ((1, 1, 2, 3, 4), {'size': (3, 5, 6), 'mode': 'nearest'}, (1, 1, 3, 5, 6), 35.2614, 100.353,
     [0.0, 0.0, 0.542423, 1.01143, 1.01143, 1.34355]),
    ((1, 1, 2, 3, 4), {'scale_factor': (1.5, 2.0, 1.7), 'mode': 'nearest'}, (1, 1, 3, 6, 6),
     39.1755, 113.994, [0.0, 0.0, 0.542423, 0.542423, 1.01143, 1.01143]),
    ((1, 1, 5), {'size': 8, 'mode': 'linear'}, (1, 1, 8), 7.03382, 8.39558,
     [0.0, 0.23731, 0.571736, 0.864867, 1.11522, 1.32279]),
    ((1, 1, 5), {'size': 3, 'mode': 'linear', 'align_corners': True}, (1, 1, 3), 2.50525, 3.2545,
     [0.0, 1.01143, 1.49382]),
    ((1, 2, 3, 4), {'size': (5, 7), 'mode': 'bilinear'}, (1, 2, 5, 7), 21.8505, 66.2596,
     [0.0, 0.193723, 0.503679, 0.776927, 1.03515, 1.22494]),
    ((1, 2, 3, 4), {'size': (2, 7), 'mode': 'bilinear', 'align_corners': True}, (1, 2, 2, 7),
     1.91259, 34.7816, [0.0, 0.271212, 0.542423, 0.776927, 1.01143, 1.17749]),
    ((1, 1, 4, 5), {'size': (6, 3), 'mode': 'bicubic'}, (1, 1, 6, 3), 1.51599, 15.3338,
     [0.0506273, 1.02628, 1.56997, 0.858188, 1.0366, 0.778701]),
    ((1, 1, 4, 5), {'size': (7, 9), 'mode': 'bicubic', 'align_corners': True}, (1, 1, 7, 9),
     0.460462, 56.7499, [0.0, 0.227242, 0.542423, 0.796644, 1.01143, 1.20737]),
    ((1, 1, 2, 3, 4), {'size': (3, 5, 6), 'mode': 'trilinear'}, (1, 1, 3, 5, 6), 28.0519, 65.374,
     [0.0, 0.271212, 0.620591, 0.933264, 1.17749, 1.34355]),
    ((1, 1, 2, 3, 4), {'scale_factor': (1.5, 2.0, 1.7), 'mode': 'trilinear'}, (1, 1, 3, 6, 6),
     30.8654, 73.3885, [0.0, 0.207397, 0.526469, 0.804516, 1.06027, 1.25563]),
    ((1, 1, 2, 3, 4), {'size': (3, 5, 6), 'mode': 'trilinear', 'align_corners': True},
     (1, 1, 3, 5, 6), 30.6403, 64.5813, [0.0, 0.325454, 0.636225, 0.91763, 1.14428, 1.34355]),
    ((1, 1, 5, 7), {'size': (3, 4), 'mode': 'area'}, (1, 1, 3, 4), -0.019249, 0.79721,
     [0.399846, 0.348767, 0.139805, -0.0751988, 0.274651, 0.119303]),
    ((1, 1, 5, 7), {'scale_factor': 0.5, 'mode': 'area'}, (1, 1, 2, 3), 0.00965562, 0.278286,
     [-0.0606486, 0.177932, 0.323443, -0.322181, -0.174034, 0.0651447]),
    ((1, 1, 3, 4, 5), {'size': (2, 3, 2), 'mode': 'area'}, (1, 1, 2, 3, 2), -1.03443, 2.969,
     [0.702081, 0.380996, -0.389464, -0.704794, -0.487416, 0.00747303]),
    ((1, 1, 5), {'size': 8, 'mode': 'nearest-exact'}, (1, 1, 8), 6.89648, 8.60834,
     [0.0, 0.0, 0.542423, 1.01143, 1.01143, 1.34355]),
    ((1, 1, 3, 4), {'size': (5, 3), 'mode': 'nearest-exact'}, (1, 1, 5, 3), 4.73498, 14.2281,
     [0.0, 1.01143, 1.34355, 0.0, 1.01143, 1.34355]),
    ((2, 1, 4, 5), {'size': (7, 9), 'mode': 'bicubic'}, (2, 1, 7, 9), 18.9844, 124.681,
     [-0.163532, 0.0339062, 0.420037, 0.742233, 1.02928, 1.27203]),
    ((1, 2, 6, 7), {'size': (3, 2), 'mode': 'bicubic'}, (1, 2, 3, 2), 0.0868309, 1.706,
     [0.477728, -0.015616, 0.363217, 0.554949, -0.269942, 0.333085]),
]


@pytest.mark.parametrize('case', CASES, ids=lambda c: c[1]['mode'])
def test_values_match_mindspore(case):
    shape, kwargs = case[:2]
    check_case('Upsample', kwargs, [shape], *case[2:])


def test_nearest_repeats_and_linear_interpolates():
    x = ms.Tensor(np.array([[[0.0, 1.0, 3.0]]]))
    assert nn.Upsample(size=6)(x).asnumpy().ravel().tolist() == [0, 0, 1, 1, 3, 3]
    y = nn.Upsample(size=5, mode='linear', align_corners=True)(x).asnumpy().ravel()
    np.testing.assert_allclose(y, [0, 0.5, 1, 2, 3])


@pytest.mark.parametrize('kwargs,shape', [
    (dict(size=(3, 5), mode='bilinear'), (1, 2, 2, 3)),
    (dict(size=(5, 4), mode='bicubic'), (1, 1, 3, 3)),
    (dict(size=(4, 2), mode='bicubic', align_corners=True), (1, 1, 3, 3)),
    (dict(scale_factor=(1.5, 2.0, 1.0), mode='trilinear'), (1, 1, 2, 2, 3)),
    (dict(size=(2, 3), mode='area'), (1, 1, 4, 5)),
    (dict(size=7, mode='nearest'), (1, 2, 3)),
], ids=lambda v: v.get('mode', '') if isinstance(v, dict) else '')
def test_gradients(kwargs, shape):
    check_layer_grad(nn.Upsample(**kwargs), np.random.default_rng(13).standard_normal(shape))


def test_repr_prints_as_mindspore():
    assert repr(nn.Upsample(scale_factor=2.0)) == "Upsample()"


@pytest.mark.parametrize('kwargs,shape,err,match', [
    (dict(size=4, scale_factor=2.0), (1, 1, 3), ValueError,
     "size and scale_factor cannot be set simultaneously"),
    (dict(), (1, 1, 3), ValueError, "size and scale_factor cannot be both empty"),
    (dict(size=4, mode='cubic'), (1, 1, 3), ValueError, "mode must be one of"),
    (dict(size=4, mode='bilinear'), (1, 1, 3), ValueError,
     r"mode 'bilinear' takes a 4-d input, got shape \(1, 1, 3\)"),
    (dict(scale_factor=2.0), (1, 1, 3, 3), ValueError,
     "scale_factor cannot be set with mode 'nearest' for a 4-d input"),
    (dict(size=(4, 4), recompute_scale_factor=True), (1, 1, 3, 3), ValueError,
     "recompute_scale_factor cannot be True with an explicit size"),
    (dict(size=(4, 4), align_corners=True), (1, 1, 3, 3), ValueError,
     "align_corners cannot be set with mode 'nearest'"),
    (dict(size=(4, 4, 4)), (1, 1, 3, 3), ValueError,
     r"size must have 2 entries for a 4-d input, got \(4, 4, 4\)"),
    (dict(size=0), (1, 1, 3), ValueError, "size must be a positive int"),
    (dict(size=2, mode='area'), (1, 1, 5), ValueError,
     "mode 'area' of a 3-d input needs its length 5 divisible by the output size 2"),
])
def test_bad_arguments(kwargs, shape, err, match):
    with pytest.raises(err, match=f"nn.Upsample 'Upsample': {match}"):
        nn.Upsample(**kwargs)(ops.ones(shape))


def test_bad_inputs():
    with pytest.raises(TypeError, match="nn.Upsample 'Upsample': expected a floating input, "
                                        "got dtype Int64"):
        nn.Upsample(size=2)(ms.Tensor(np.ones((1, 1, 3), np.int64)))
