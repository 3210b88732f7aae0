"""Affine and RandomAffine against MindSpore 2.10.

tests/dataset/fixtures/affine_mindspore.npz (written by tools/mindspore_affine_outputs.py with
MindSpore) holds small fixed images and MindSpore's Affine outputs: uint8 results must be equal,
float32 ones within float32 rounding. RandomAffine with one-point ranges must give the same
values; its draws are checked for range and repeatability.
"""
import os
import sys

import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset.vision as vision
from hookgrad.dataset.vision import Inter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from mindspore_affine_outputs import CASES  # noqa: E402

RECORDED = dict(np.load(os.path.join(os.path.dirname(__file__), 'fixtures',
                                     'affine_mindspore.npz')))
IDS = [(case, key) for case, spec in CASES.items() for key in spec[-1]]


def _check(out, theirs):
    assert out.shape == theirs.shape and out.dtype == theirs.dtype
    if theirs.dtype == np.uint8:
        np.testing.assert_array_equal(out, theirs)
    else:
        np.testing.assert_allclose(out, theirs, rtol=0, atol=1e-5)


@pytest.mark.parametrize('case,key', IDS, ids=str)
def test_affine_is_mindspores(case, key):
    degrees, translate, scale, shear, resample, fill, _ = CASES[case]
    op = vision.Affine(degrees, translate, scale, shear, getattr(Inter, resample), fill)
    _check(op(RECORDED[f'input-{key}']), RECORDED[f'{case}-{key}'])


@pytest.mark.parametrize('case,key', IDS, ids=str)
def test_random_affine_with_point_ranges(case, key):
    degrees, translate, scale, shear, resample, fill, _ = CASES[case]
    shear = (shear, 0.0) if isinstance(shear, float) else shear
    op = vision.RandomAffine((degrees, degrees), translate=(translate[0], translate[0],
                                                           translate[1], translate[1]),
                             scale=(scale, scale), shear=(shear[0], shear[0], shear[1], shear[1]),
                             resample=getattr(Inter, resample), fill_value=fill)
    _check(op(RECORDED[f'input-{key}']), RECORDED[f'{case}-{key}'])


def test_random_affine_draws():
    img = np.zeros((21, 21), np.uint8)
    img[10, 10] = 255
    assert np.array_equal(vision.RandomAffine(0)(img), img)
    op = vision.RandomAffine(0, translate=(-0.2, 0.2, 0.1, 0.3))
    ms.set_seed(6)
    outs = [op(img) for _ in range(60)]
    shifts = np.array([np.argwhere(o == 255)[0] - 10 for o in outs])
    assert shifts[:, 1].min() >= -5 and shifts[:, 1].max() <= 5          # x: 0.2 * 21 pixels
    assert shifts[:, 0].min() >= 2 and shifts[:, 0].max() <= 7           # y: 0.1 .. 0.3 * 21
    assert len({tuple(s) for s in shifts}) > 10
    ms.set_seed(6)
    assert all(np.array_equal(a, op(img)) for a in outs)


def test_argument_errors_as_mindspore():
    with pytest.raises(ValueError, match=r"Input degrees is not within the required interval of "
                                         r"\[-180, 180\]"):
        vision.Affine(200, (0, 0), 1.0, 0)
    with pytest.raises(TypeError, match="The length of translate should be 2"):
        vision.Affine(0, (0,), 1.0, 0)
    with pytest.raises(ValueError, match="Input scale must be greater than 0"):
        vision.Affine(0, (0, 0), 0, 0)
    with pytest.raises(TypeError, match="The length of shear should be 2"):
        vision.Affine(0, (0, 0), 1.0, (1, 2, 3))
    with pytest.raises(TypeError, match="Argument resample with value 1 is not of type"):
        vision.Affine(0, (0, 0), 1.0, 0, resample=1)
    with pytest.raises(ValueError, match=r"degrees should be in \(min,max\) format"):
        vision.RandomAffine((10, 5))
    with pytest.raises(TypeError, match="translate should be a list or tuple of length 2 or 4"):
        vision.RandomAffine(0, translate=(0.1, 0.2, 0.3))
    with pytest.raises(RuntimeError, match="RandomAffine: minimum of translate range on x is "
                                           "greater than maximum: min = 0.300000, max = 0.200000"):
        vision.RandomAffine(0, translate=(0.3, 0.2))
    with pytest.raises(ValueError, match=r"Input scale\[1\] must be equal to or greater than "
                                         r"scale\[0\]"):
        vision.RandomAffine(0, scale=(2, 1))
    with pytest.raises(ValueError, match="Input shear must be greater than 0"):
        vision.RandomAffine(0, shear=0)
    with pytest.raises(TypeError, match="shear must be of length 2 or 4"):
        vision.RandomAffine(0, shear=(1, 2, 3))
    with pytest.raises(RuntimeError, match="Affine: the image tensor should have at least two "
                                           "dimensions"):
        vision.Affine(0, (0, 0), 1.0, 0)(np.zeros(3, np.uint8))
