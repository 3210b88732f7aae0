"""PadToSize, NormalizePad, Erase, CutOut, RandomErasing, FiveCrop, TenCrop, RgbToHsv,
HsvToRgb, ResizedCrop and RandomResize against MindSpore 2.10.

tests/dataset/fixtures/region_mindspore.npz (written by tools/mindspore_region_outputs.py with
MindSpore) holds small fixed images, MindSpore's outputs for each case and, for CutOut, every
distinct output of many runs: hookgrad's outputs must be among them.
"""
import os
import sys

import numpy as np
import pytest
from PIL import Image

import hookgrad as ms
import hookgrad.dataset.vision as vision

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from mindspore_region_outputs import CASES, CUTOUT, convert_enums  # noqa: E402

RECORDED = dict(np.load(os.path.join(os.path.dirname(__file__), 'fixtures',
                                     'region_mindspore.npz')))
U8 = RECORDED['input-u8']


def _run(case, key):
    name, args, kwargs, _ = CASES[case]
    kwargs = convert_enums(kwargs, vision)
    img = Image.fromarray(U8, 'RGB') if key == 'pil' else RECORDED[f'input-{key}']
    out = getattr(vision, name)(*args, **kwargs)(img)
    if isinstance(out, tuple):
        assert all(isinstance(o, Image.Image) for o in out)
        out = np.stack([np.asarray(o) for o in out])
    return out


@pytest.mark.parametrize('case,key', [(c, k) for c, (n, _, _, keys) in CASES.items()
                                      for k in keys if n != 'NormalizePad'], ids=str)
def test_outputs_are_mindspores(case, key):
    out, theirs = _run(case, key), RECORDED[f'{case}-{key}']
    assert out.shape == theirs.shape and out.dtype == theirs.dtype
    if key in ('f32',) and 'Hsv' in case:       # colorsys in float32 there, float64 here
        np.testing.assert_allclose(out, theirs, rtol=0, atol=1e-7)
    else:
        np.testing.assert_array_equal(out, theirs)


@pytest.mark.parametrize('case,key', [(c, k) for c, (n, _, _, keys) in CASES.items()
                                      for k in keys if n == 'NormalizePad'], ids=str)
def test_normalize_pad_values_are_mindspores(case, key):
    out, theirs = _run(case, key), RECORDED[f'{case}-{key}']
    assert out.shape == theirs.shape and out.dtype == theirs.dtype
    if CASES[case][2].get('is_hwc', True):
        # MindSpore 2.10 writes HWC output as the normalised values in order, then the zeros
        np.testing.assert_array_equal(out[..., :-1].ravel(), theirs.ravel()[:out[..., :-1].size])
        assert not out[..., -1].any() and not theirs.ravel()[out[..., :-1].size:].any()
    else:
        np.testing.assert_array_equal(out, theirs)


@pytest.mark.parametrize('case', sorted(CUTOUT))
def test_cutout_outputs_are_mindspores(case):
    args, kwargs, key, _ = CUTOUT[case]
    op, img = vision.CutOut(*args, **kwargs), RECORDED[f'input-{key}']
    theirs = {o.tobytes() for o in RECORDED[case]}
    ms.set_seed(4)
    ours = {op(img).tobytes() for _ in range(3 * len(theirs))}
    assert ours <= theirs
    assert len(ours) >= 0.8 * len(theirs)


def test_cutout_patches_and_seed():
    op = vision.CutOut(2, num_patches=3)
    ms.set_seed(7)
    first = [op(U8) for _ in range(5)]
    ms.set_seed(7)
    assert all(np.array_equal(a, op(U8)) for a in first)
    assert all(((o == U8) | (o == 0)).all() for o in first)


def test_random_erasing():
    chw = np.ascontiguousarray(U8.transpose(2, 0, 1))
    assert vision.RandomErasing(prob=0.0)(chw) is chw
    ms.set_seed(3)
    outs = [vision.RandomErasing(prob=1.0, value=(1, 2, 3))(chw) for _ in range(20)]
    for out in outs:
        erased = (out != chw).any(axis=0)
        rows, cols = np.nonzero(erased)
        assert erased.any()
        box = out[:, rows.min():rows.max() + 1, cols.min():cols.max() + 1]
        assert (box == np.array([1, 2, 3])[:, None, None]).all()
    ms.set_seed(3)
    again = [vision.RandomErasing(prob=1.0, value=(1, 2, 3))(chw) for _ in range(20)]
    assert all(np.array_equal(a, b) for a, b in zip(outs, again))
    assert len({o.tobytes() for o in outs}) > 5
    noise = vision.RandomErasing(prob=1.0, value='random')(chw.astype(np.float32))
    assert noise.dtype == np.float32 and not np.array_equal(noise, chw)
    assert np.array_equal(vision.RandomErasing(1.0, scale=(1, 1), ratio=(1, 1))(chw), chw)


def test_hsv_round_trip_on_batches():
    batch = RECORDED['input-f64'][None].repeat(2, 0)
    hsv = vision.RgbToHsv(is_hwc=True)(batch)
    np.testing.assert_allclose(vision.HsvToRgb(is_hwc=True)(hsv), batch, atol=1e-12)
    chw = np.moveaxis(batch, -1, 1)
    np.testing.assert_allclose(vision.RgbToHsv()(chw), np.moveaxis(hsv, -1, 1))


def test_errors_as_mindspore():
    with pytest.raises(RuntimeError, match="PadToSize: the target size to pad should be no less "
                                           "than the original image size"):
        vision.PadToSize(5)(U8)
    with pytest.raises(RuntimeError, match="Erase: box size is too large for image erase"):
        vision.Erase(0, 0, 8, 2)(U8)
    with pytest.raises(RuntimeError, match="CutOut: image shape is not <H,W,C>, but got rank: 2"):
        vision.CutOut(2)(U8[..., 0])
    with pytest.raises(TypeError, match="img should be PIL image"):
        vision.FiveCrop(2)(U8)
    with pytest.raises(ValueError, match=r"Crop size \(8, 2\) is larger than input image size"):
        vision.FiveCrop((8, 2))(Image.fromarray(U8))
    with pytest.raises(TypeError, match="img should be 3 channels RGB img. Got 2 channels"):
        vision.RgbToHsv(is_hwc=True)(U8[..., :2])
    with pytest.raises(ValueError, match="The size must be a sequence of length 2"):
        vision.PadToSize((1, 2, 3))
    with pytest.raises(ValueError, match=r"Input offset0 is not within the required interval"):
        vision.PadToSize(4, offset=(-1, 0))
    with pytest.raises(ValueError, match="dtype only supports float32 or float16"):
        vision.NormalizePad((1,), (1,), dtype='float64')
    with pytest.raises(ValueError, match=r"Input value\[1\] is not within the required interval "
                                         r"of \[0, 255\]"):
        vision.Erase(0, 0, 1, 1, value=(1, 300, 2))
    with pytest.raises(ValueError, match=r"Input height is not within the required interval"):
        vision.Erase(0, 0, 0, 1)
    with pytest.raises(ValueError, match=r"Input is not within the required interval of "
                                         r"\[1, 16777216\]"):
        vision.CutOut(0)
    with pytest.raises(ValueError, match=r"scale should be in \(min,max\) format"):
        vision.RandomErasing(scale=(0.5, 0.1))
    with pytest.raises(ValueError, match="The value for erasing should be either a single value"):
        vision.RandomErasing(value='zeros')
    with pytest.raises(TypeError, match="Argument use_vertical_flip with value 1 is not of type"):
        vision.TenCrop(2, use_vertical_flip=1)


def test_random_resize_uses_one_of_four_modes():
    img = RECORDED['input-u8']
    choices = {vision.Resize((4, 5), mode)(img).tobytes()
               for mode in (vision.Inter.LINEAR, vision.Inter.NEAREST, vision.Inter.CUBIC,
                            vision.Inter.AREA)}
    ms.set_seed(9)
    seen = {vision.RandomResize((4, 5))(img).tobytes() for _ in range(40)}
    assert seen == choices
    assert vision.RandomResize(3)(img).shape == (3, 3, 3)
    with pytest.raises(TypeError, match="Size should be a single integer or a list/tuple"):
        vision.RandomResize((1, 2, 3))


def test_resized_crop_errors_and_image_helpers():
    img = RECORDED['input-u8']
    with pytest.raises(RuntimeError, match="ResizedCrop: the sum of top and height: 8 exceeds "
                                           "image height: 7"):
        vision.ResizedCrop(5, 0, 3, 3, (2, 2))(img)
    with pytest.raises(ValueError, match=r"Input height is not within the required interval"):
        vision.ResizedCrop(0, 0, 0, 3, (2, 2))
    assert vision.utils.get_image_num_channels(img) == 3
    assert vision.get_image_num_channels(img[..., 0]) == 1
    assert vision.get_image_size(img) == [7, 9]
    assert vision.get_image_size(Image.fromarray(img)) == [7, 9]
    assert vision.get_image_num_channels(Image.fromarray(img)) == 3
    with pytest.raises(RuntimeError, match="GetImageSize: invalid parameter, image should have at "
                                           "least two dimensions, but got: 1"):
        vision.get_image_size(np.zeros(3))
    with pytest.raises(TypeError, match="Input image is not of type"):
        vision.get_image_num_channels([1, 2])
