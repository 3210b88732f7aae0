"""The colour adjustments, GaussianBlur and Grayscale against MindSpore 2.10.

tests/dataset/fixtures/color_mindspore.npz (written by tools/mindspore_color_outputs.py with
MindSpore) holds small fixed images and MindSpore's outputs for each case; uint8 results must be
equal, float32 ones within float32 rounding. The random variants are checked through prob 0 and
1, the range of their results and repeatability under ``ms.set_seed``.
"""
import os
import sys

import numpy as np
import pytest
from PIL import Image

import hookgrad as ms
import hookgrad.dataset.vision as vision

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from mindspore_color_outputs import CASES  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'color_mindspore.npz')
RECORDED = dict(np.load(FIXTURE))
U8 = RECORDED['input-u8']


def _case_ids():
    return [(case, key) for case, (_, _, keys) in CASES.items() for key in keys]


@pytest.mark.parametrize('case,key', _case_ids(), ids=lambda x: str(x))
def test_outputs_are_mindspores(case, key):
    name, args, _ = CASES[case]
    img = Image.fromarray(U8, 'RGB') if key == 'pil' else RECORDED[f'input-{key}']
    out = getattr(vision, name)(*args)(img)
    assert isinstance(out, Image.Image) == (key == 'pil')
    out, theirs = np.asarray(out), RECORDED[f'{case}-{key}']
    assert out.shape == theirs.shape and out.dtype == theirs.dtype
    if theirs.dtype == np.uint8:
        np.testing.assert_array_equal(out, theirs)
    else:
        np.testing.assert_allclose(out, theirs, rtol=0, atol=1e-6 * max(1, np.abs(theirs).max()))


def test_names_are_in_vision_transforms():
    for name in ('AdjustBrightness', 'GaussianBlur', 'RandomSolarize', 'RandomGrayscale'):
        assert getattr(vision.transforms, name) is getattr(vision, name)
        assert name in vision.__all__


@pytest.mark.parametrize('make', [
    lambda p: vision.RandomAdjustSharpness(2.0, p), lambda p: vision.RandomAutoContrast(prob=p),
    lambda p: vision.RandomEqualize(p), lambda p: vision.RandomInvert(p)])
def test_random_apply_with_probability(make):
    assert make(0.0)(U8) is U8
    always = make(1.0)(U8)
    assert not np.array_equal(always, U8)
    ms.set_seed(3)
    outs = [make(0.5)(U8) for _ in range(40)]
    changed = sum(not np.array_equal(o, U8) for o in outs)
    assert 5 < changed < 35
    assert all(np.array_equal(o, U8) or np.array_equal(o, always) for o in outs)
    ms.set_seed(3)
    again = [make(0.5)(U8) for _ in range(40)]
    assert all(np.array_equal(a, b) for a, b in zip(outs, again))


def test_random_posterize_draws_bits_in_range():
    assert np.array_equal(vision.RandomPosterize()(U8), U8)
    choices = {b: vision.Posterize(b)(U8).tobytes() for b in range(2, 5)}
    ms.set_seed(1)
    seen = {vision.RandomPosterize((2, 4))(U8).tobytes() for _ in range(60)}
    assert seen == set(choices.values())
    assert np.array_equal(vision.RandomPosterize(3)(U8), vision.Posterize(3)(U8))


def test_random_solarize_ranges():
    ms.set_seed(2)
    op = vision.RandomSolarize((40, 200))
    outs = [op(U8) for _ in range(30)]
    assert len({o.tobytes() for o in outs}) > 10
    for out in outs:
        changed = out != U8
        assert np.array_equal(out[changed], 255 - U8[changed])
        assert changed.sum() == 0 or (U8[changed].min() >= 40 and U8[changed].max() <= 200)
    assert np.array_equal(vision.RandomSolarize((90, 90))(U8), vision.Solarize(90)(U8))


def test_grayscale_and_random_grayscale_on_pil():
    pil = Image.fromarray(U8, 'RGB')
    assert vision.RandomGrayscale(1.0)(pil).mode == 'RGB'
    np.testing.assert_array_equal(np.asarray(vision.RandomGrayscale(1.0)(pil)),
                                  RECORDED['Grayscale-b-pil'])
    assert vision.RandomGrayscale(1.0)(pil.convert('L')).mode == 'L'
    assert vision.RandomGrayscale(0.0)(pil) is pil
    with pytest.raises(TypeError, match="img should be PIL image"):
        vision.Grayscale()(U8)
    with pytest.raises(TypeError, match="img should be PIL image"):
        vision.RandomGrayscale()(U8)


def test_image_errors_as_mindspore():
    gray, f32 = RECORDED['input-g8'], RECORDED['input-f32']
    with pytest.raises(RuntimeError, match=r"AdjustContrast: the dimension of image tensor .* "
                                           r"But got dimension 2"):
        vision.AdjustContrast(0.5)(gray)
    with pytest.raises(RuntimeError, match=r"AdjustBrightness: the channel of image tensor .* "
                                           r"channel of \(1, 3\). But got channel 2"):
        vision.AdjustBrightness(0.5)(U8[..., :2])
    with pytest.raises(RuntimeError, match=r"AdjustHue: .* type of \(uint8\). But got type "
                                           r"float32"):
        vision.AdjustHue(0.1)(f32)
    with pytest.raises(RuntimeError, match="AdjustGamma: channel of input image should be 1 or "
                                           "3, but got: 2"):
        vision.AdjustGamma(2.0)(U8[..., :2])
    with pytest.raises(RuntimeError, match="Equalize: the data type of image tensor should be "
                                           "uint8, but got float32"):
        vision.Equalize()(f32)
    with pytest.raises(RuntimeError, match="AutoContrast: channel of input image should be 1 or "
                                           "3, but got: 2"):
        vision.AutoContrast()(U8[..., :2])
    with pytest.raises(RuntimeError, match="Invert: input tensor is not in shape of <H,W,C>, but "
                                           "got rank: 2"):
        vision.Invert()(gray)
    with pytest.raises(RuntimeError, match="Posterize: data type of input image should be int8 "
                                           "or uint8, but got float32"):
        vision.Posterize(2)(f32)
    with pytest.raises(RuntimeError, match="GaussianBlur: input tensor is not in shape of <H,W> "
                                           "or <H,W,C>, but got rank: 4"):
        vision.GaussianBlur(3)(U8[None])


def test_argument_errors_as_mindspore():
    with pytest.raises(TypeError, match="Argument brightness_factor with value x is not of type"):
        vision.AdjustBrightness('x')
    with pytest.raises(ValueError, match=r"Input contrast_factor is not within the required "
                                         r"interval of \[0, 16777216\]"):
        vision.AdjustContrast(-1)
    with pytest.raises(ValueError, match=r"Input hue_factor is not within the required interval "
                                         r"of \[-0.5, 0.5\]"):
        vision.AdjustHue(0.6)
    with pytest.raises(ValueError, match=r"Input is not within the required interval of "
                                         r"\[0, 16777216\]"):
        vision.AdjustGamma(-0.5)
    with pytest.raises(ValueError, match=r"Input cutoff is not within the required interval of "
                                         r"\[0, 50\)"):
        vision.AutoContrast(50)
    with pytest.raises(TypeError, match="Argument item with value 1.5 is not of type"):
        vision.AutoContrast(ignore=[1.5])
    with pytest.raises(ValueError, match=r"Input bits is not within the required interval of "
                                         r"\[0, 8\]"):
        vision.Posterize(9)
    with pytest.raises(ValueError, match=r"threshold must be in order of \(min, max\)"):
        vision.Solarize((200, 100))
    with pytest.raises(ValueError, match="Input kernel_size is not an odd value"):
        vision.GaussianBlur(4)
    with pytest.raises(ValueError, match=r"Input kernel_size\[1\] is not an odd value"):
        vision.GaussianBlur((3, 2))
    with pytest.raises(TypeError, match="Sigma should be a single number or a list/tuple of "
                                        "length 2"):
        vision.GaussianBlur(3, (1, 2, 3))
    with pytest.raises(ValueError, match="Number of channels of the output grayscale image"):
        vision.Grayscale(2)
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0.0, 1.0\]"):
        vision.RandomInvert(1.5)
    with pytest.raises(ValueError, match=r"Input degree is not within the required interval"):
        vision.RandomAdjustSharpness(-1)
    with pytest.raises(ValueError, match=r"Input is not within the required interval of "
                                         r"\[1, 8\]"):
        vision.RandomPosterize((0, 4))
    with pytest.raises(ValueError, match="threshold must be in min max format numbers"):
        vision.RandomSolarize((10, 5))
    with pytest.raises(TypeError, match="Argument threshold with value"):
        vision.RandomSolarize([1, 5])


def test_random_color_and_sharpness_draw_in_range():
    ms.set_seed(8)
    colors = {vision.RandomColor((0.5, 1.5))(U8).tobytes() for _ in range(20)}
    assert len(colors) > 10
    ends = [vision.AdjustSaturation(f)(U8).astype(int) for f in (0.5, 1.5)]
    for out in colors:
        out = np.frombuffer(out, np.uint8).reshape(U8.shape)
        lo, hi = np.minimum(*ends), np.maximum(*ends)
        assert ((out >= lo - 1) & (out <= hi + 1)).all()
    ms.set_seed(8)
    first = vision.RandomSharpness()(U8)
    ms.set_seed(8)
    assert np.array_equal(first, vision.RandomSharpness()(U8))
    with pytest.raises(TypeError, match="degrees must be either a tuple or a list"):
        vision.RandomColor(1.0)
    with pytest.raises(ValueError, match="degrees must be a sequence with length 2"):
        vision.RandomSharpness((1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match=r"degrees should be in \(min,max\) format"):
        vision.RandomColor((1.5, 0.5))
    with pytest.raises(RuntimeError, match="RandomColor: the channel of image tensor"):
        vision.RandomColor()(U8[..., :2])


# MindSpore 2.10: the type each transform returns for a PIL image (Pillow-backed transforms
# give PIL images; C++ ones, random ones among them applied or not, arrays)
PIL_RESULTS = {
    'Invert': Image.Image, 'Equalize': Image.Image, 'AutoContrast': Image.Image,
    'Grayscale': Image.Image, 'AdjustBrightness': Image.Image, 'AdjustGamma': Image.Image,
    'RandomGrayscale': Image.Image, 'RandomColor': Image.Image,
    'RandomInvert': np.ndarray, 'RandomEqualize': np.ndarray, 'RandomAutoContrast': np.ndarray,
    'RandomAdjustSharpness': np.ndarray, 'Posterize': np.ndarray, 'Solarize': np.ndarray,
    'GaussianBlur': np.ndarray, 'AdjustSharpness': np.ndarray,
}
PIL_OPS = {
    'Invert': lambda p: vision.Invert(), 'Equalize': lambda p: vision.Equalize(),
    'AutoContrast': lambda p: vision.AutoContrast(), 'Grayscale': lambda p: vision.Grayscale(),
    'AdjustBrightness': lambda p: vision.AdjustBrightness(1.2),
    'AdjustGamma': lambda p: vision.AdjustGamma(1.2),
    'RandomGrayscale': lambda p: vision.RandomGrayscale(p),
    'RandomColor': lambda p: vision.RandomColor((1.2, 1.2)),
    'RandomInvert': lambda p: vision.RandomInvert(p),
    'RandomEqualize': lambda p: vision.RandomEqualize(p),
    'RandomAutoContrast': lambda p: vision.RandomAutoContrast(prob=p),
    'RandomAdjustSharpness': lambda p: vision.RandomAdjustSharpness(1.2, p),
    'Posterize': lambda p: vision.Posterize(4), 'Solarize': lambda p: vision.Solarize(100.0),
    'GaussianBlur': lambda p: vision.GaussianBlur(3),
    'AdjustSharpness': lambda p: vision.AdjustSharpness(1.2),
}


@pytest.mark.parametrize('name', sorted(PIL_RESULTS))
def test_a_pil_image_gives_what_mindspore_gives(name):
    img = Image.fromarray(np.random.default_rng(0).integers(0, 256, (8, 9, 3), dtype=np.uint8))
    for prob in (1.0, 0.0):
        out = PIL_OPS[name](prob)(img)
        assert isinstance(out, PIL_RESULTS[name]), (name, prob, type(out))
