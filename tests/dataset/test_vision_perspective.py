"""Perspective and RandomPerspective against MindSpore 2.10.

tests/dataset/fixtures/perspective_mindspore.npz (written by
tools/mindspore_perspective_outputs.py with MindSpore) holds small fixed images and MindSpore's
Perspective outputs for NumPy and PIL input: uint8 results must be equal, float32 ones within
float32 rounding. RandomPerspective is checked through prob 0 and 1, its corner ranges and
repeatability.
"""
import os
import sys

import numpy as np
import pytest
from PIL import Image

import hookgrad as ms
import hookgrad.dataset.vision as vision
from hookgrad.dataset.vision import Inter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from mindspore_perspective_outputs import CASES  # noqa: E402

RECORDED = dict(np.load(os.path.join(os.path.dirname(__file__), 'fixtures',
                                     'perspective_mindspore.npz')))
PIL_IMAGE = Image.fromarray(RECORDED['input-u8'], 'RGB')


@pytest.mark.parametrize('case,key', [(c, k) for c, spec in CASES.items() for k in spec[-1]],
                         ids=str)
def test_perspective_is_mindspores(case, key):
    start, end, inter, _ = CASES[case]
    img = PIL_IMAGE if key == 'pil' else RECORDED[f'input-{key}']
    out = vision.Perspective(start, end, getattr(Inter, inter))(img)
    assert isinstance(out, Image.Image) == (key == 'pil')
    out, theirs = np.asarray(out), RECORDED[f'{case}-{key}']
    assert out.shape == theirs.shape and out.dtype == theirs.dtype
    if theirs.dtype == np.uint8:
        np.testing.assert_array_equal(out, theirs)
    else:
        np.testing.assert_allclose(out, theirs, rtol=0, atol=1e-6)


def test_identity_points_keep_the_image():
    corners = [[0, 0], [8, 0], [8, 6], [0, 6]]
    img = RECORDED['input-u8']
    assert np.array_equal(vision.Perspective(corners, corners, Inter.NEAREST)(img), img)


def test_random_perspective():
    op = vision.RandomPerspective(0.5, 1.0, Inter.NEAREST)
    assert vision.RandomPerspective(prob=0.0)(PIL_IMAGE) is PIL_IMAGE
    ms.set_seed(5)
    outs = [np.asarray(op(PIL_IMAGE)) for _ in range(12)]
    assert len({o.tobytes() for o in outs}) > 6
    ms.set_seed(5)
    assert all(np.array_equal(o, np.asarray(op(PIL_IMAGE))) for o in outs)
    corners = op.end_points(np.random.default_rng(0), 9, 7)
    assert all(0 <= x <= 2 and 0 <= y <= 1 for x, y in corners[:1])
    assert 6 <= corners[2][0] <= 8 and 5 <= corners[2][1] <= 6
    flat = vision.RandomPerspective(0.0, 1.0, Inter.NEAREST)(PIL_IMAGE)
    assert np.array_equal(np.asarray(flat), RECORDED['input-u8'])


def test_errors_as_mindspore():
    corners = [[0, 0], [8, 0], [8, 6], [0, 6]]
    with pytest.raises(TypeError, match="start_points should be a list or tuple of length 4"):
        vision.Perspective(corners[:3], corners)
    with pytest.raises(TypeError, match=r"end_points\[1\] should be a list or tuple of length 2"):
        vision.Perspective(corners, [[0, 0], [1], [2, 2], [3, 3]])
    with pytest.raises(TypeError, match=r"Argument start_points\[0\]\[0\] with value 0.5 is not "
                                        r"of type"):
        vision.Perspective([[0.5, 0]] + corners[1:], corners)
    with pytest.raises(TypeError, match="Argument interpolation with value 2 is not of type"):
        vision.Perspective(corners, corners, 2)
    with pytest.raises(TypeError, match="Argument distortion_scale with value 1 is not of type"):
        vision.RandomPerspective(1)
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0.0, 1.0\]"):
        vision.RandomPerspective(0.5, 1.5)
    with pytest.raises(ValueError, match="Input image should be a Pillow image"):
        vision.RandomPerspective()(RECORDED['input-u8'])
    with pytest.raises(TypeError, match="Current Interpolation is not supported with NumPy input"):
        vision.Perspective(corners, corners, Inter.ANTIALIAS)(RECORDED['input-u8'])
