"""Deterministic vision transforms: Decode, conversions, Rescale, Normalize, HWC2CHW, Pad,
crops and flips, compared with MindSpore 2.10; their errors."""
import io

import numpy as np
import pytest
from PIL import Image

import hookgrad as ms
from hookgrad.dataset import vision
from hookgrad.dataset.vision import Border


def image():
    return np.random.RandomState(0).randint(0, 256, (4, 5, 3)).astype(np.uint8)


def encoded(img, fmt, **kw):
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, fmt, **kw)
    return np.frombuffer(buf.getvalue(), np.uint8)


# ----------------------------------------------------------------- Decode
def test_decode_png_is_lossless_and_takes_bytes():
    img = image()
    out = vision.Decode()(encoded(img, 'PNG'))
    assert out.dtype == np.uint8 and out.shape == (4, 5, 3)
    np.testing.assert_array_equal(out, img)
    np.testing.assert_array_equal(vision.Decode()(encoded(img, 'PNG').tobytes()), img)
    pil = vision.Decode(to_pil=True)(encoded(img, 'PNG'))
    assert isinstance(pil, Image.Image) and pil.mode == 'RGB'


def test_decode_gray_and_rgba_give_three_channels():
    img = image()
    assert vision.Decode()(encoded(img[..., 0], 'PNG')).shape == (4, 5, 3)
    assert vision.Decode()(encoded(np.dstack([img, img[..., :1]]), 'PNG')).shape == (4, 5, 3)


def test_decode_jpeg_matches_mindspore():
    img = np.random.RandomState(1).randint(0, 256, (6, 8, 3)).astype(np.uint8)
    out = vision.Decode()(encoded(img, 'JPEG', quality=90))
    # MindSpore 2.10 (libjpeg), channel 0
    np.testing.assert_array_equal(out[..., 0], [
        [90, 131, 118, 154, 171, 205, 141, 189], [160, 112, 56, 230, 235, 165, 88, 75],
        [71, 73, 107, 160, 64, 155, 34, 144], [47, 98, 121, 108, 166, 62, 33, 193],
        [88, 131, 114, 67, 84, 37, 132, 113], [172, 76, 69, 159, 122, 45, 161, 163]])


def test_decode_errors():
    with pytest.raises(RuntimeError, match="Decode: image decode failed."):
        vision.Decode()(np.array([1, 2, 3], np.uint8))
    with pytest.raises(TypeError, match="The number of array dimensions of the encoded image "
                                        "should be 1, but got 2."):
        vision.Decode()(encoded(image(), 'PNG').reshape(1, -1))
    with pytest.raises(TypeError, match="The type of the encoded image should be <class "
                                        "'numpy.ndarray'>, but got <class 'int'>."):
        vision.Decode()(3)
    with pytest.raises(RuntimeError, match="Input Tensor has no data."):
        vision.Decode()(np.zeros(0, np.uint8))
    with pytest.raises(TypeError, match="Argument to_pil with value 1 is not of type"):
        vision.Decode(1)


# ----------------------------------------------------------------- conversions
def test_to_tensor_scales_to_chw_float():
    out = vision.ToTensor()(image()[:1, :2])
    assert out.dtype == np.float32 and out.shape == (3, 1, 2)
    # MindSpore 2.10
    np.testing.assert_array_equal(out, np.array(
        [[[0.6745098233222961, 0.7529412508010864]], [[0.18431372940540314, 0.26274511218070984]],
         [[0.458823561668396, 0.9843137860298157]]], np.float32))
    half = vision.ToTensor(ms.float16)(image()[:1, :2])
    assert half.dtype == np.float16
    np.testing.assert_array_equal(half[:, 0, 0], np.array([0.67431640625, 0.184326171875,
                                                          0.458740234375], np.float16))
    assert vision.ToTensor(np.float64)(image()[:2, :2, 0]).shape == (1, 2, 2)


def test_to_tensor_errors():
    with pytest.raises(RuntimeError, match="ToTensor: rank of input data should be greater "
                                           "than: 2, but got:1"):
        vision.ToTensor()(np.zeros(3, np.uint8))
    with pytest.raises(RuntimeError, match="ToTensor: image shape should be <H,W,C>, but got "
                                           "rank: 4"):
        vision.ToTensor()(np.zeros((1, 2, 2, 3), np.uint8))
    with pytest.raises(TypeError, match="Argument output_type with value 3 is not of type"):
        vision.ToTensor(3)


def test_to_pil_modes_and_errors():
    img = image()
    assert vision.ToPIL()(img).mode == 'RGB'
    assert vision.ToPIL()(img[..., 0]).mode == 'L'
    assert vision.ToPIL()(img[..., :2]).mode == 'LA'
    assert vision.ToPIL()(np.dstack([img, img[..., :1]])).mode == 'RGBA'
    assert vision.ToPIL()(img[..., 0].astype(np.float32)).mode == 'F'
    np.testing.assert_array_equal(vision.ToNumpy()(vision.ToPIL()(img)), img)
    with pytest.raises(TypeError, match=r"The input image type float32 is not supported when "
                                        r"image shape is \[H, W, 2\], \[H, W, 3\] or \[H, W, 4\]"):
        vision.ToPIL()(img.astype(np.float32))
    with pytest.raises(ValueError, match="The dimension of input image should be 2 or 3. Got 1."):
        vision.ToPIL()(np.zeros(3))
    with pytest.raises(ValueError, match="The channel of input image should not exceed 4. Got "
                                         "5."):
        vision.ToPIL()(img.transpose(2, 0, 1))


def test_to_type_takes_hookgrad_and_numpy_dtypes():
    img = image()[:1, :2]
    assert vision.ToType(ms.float32)(img).dtype == np.float32
    np.testing.assert_array_equal(vision.ToType(np.int16)(img), img.astype(np.int16))
    with pytest.raises(TypeError, match="Argument data_type with value abc is not of type"):
        vision.ToType('abc')


def test_hwc2chw():
    img = image()
    np.testing.assert_array_equal(vision.HWC2CHW()(img), img.transpose(2, 0, 1))
    np.testing.assert_array_equal(vision.HWC2CHW()(img[..., 0]), img[..., 0])
    assert vision.HWC2CHW()(Image.fromarray(img)).shape == (3, 4, 5)
    with pytest.raises(RuntimeError, match="HWC2CHW: image shape should be <H,W> or <H,W,C>, "
                                           "but got rank: 4"):
        vision.HWC2CHW()(img[None])


# ----------------------------------------------------------------- Rescale, Normalize
def test_rescale_gives_float32():
    out = vision.Rescale(1 / 255, -0.5)(image()[:1, :2])
    assert out.dtype == np.float32
    # MindSpore 2.10
    np.testing.assert_allclose(out, [[[0.17450983822345734, -0.31568625569343567,
                                       -0.0411764420568943], [0.25294122099876404,
                                                              -0.23725488781929016,
                                                              0.4843137860298157]]], atol=1e-7)
    with pytest.raises(TypeError, match="Argument rescale with value a is not of type"):
        vision.Rescale('a', 0)


def test_normalize_matches_mindspore():
    img = image()[:1, :2]
    out = vision.Normalize([100, 110, 120], [50, 60, 70])(img)
    assert out.dtype == np.float32
    # MindSpore 2.10
    expected = np.array([[[1.440000057220459, -1.0499999523162842, -0.04285714402794838],
                          [1.840000033378601, -0.7166666388511658, 1.8714286088943481]]],
                        np.float32)
    np.testing.assert_array_equal(out, expected)
    chw = vision.Normalize([100, 110, 120], [50, 60, 70], is_hwc=False)(img.transpose(2, 0, 1))
    np.testing.assert_array_equal(chw, expected.transpose(2, 0, 1))
    one = vision.Normalize([100], [50])(img)     # one mean/std for every channel
    np.testing.assert_allclose(one[0, 0], [1.44, -1.06, 0.34], rtol=1e-6)
    assert vision.Normalize([1, 1, 1], [1, 1, 1])(image()[None]).shape == (1, 4, 5, 3)


@pytest.mark.parametrize('args,err,match', [
    (([100, 110, 120], [0, 60, 70]), ValueError,
     r"Input std\[0\] is not within the required interval of \(0, 255\]\."),
    (([100, 110, 300], [1, 60, 70]), ValueError,
     r"Input mean\[2\] is not within the required interval of \[0, 255\]\."),
    (([100, 110], [1, 60, 70]), ValueError, "Length of mean and std must be equal."),
    ((1, 2), TypeError, "Argument mean with value 1 is not of type"),
])
def test_normalize_bad_arguments(args, err, match):
    with pytest.raises(err, match=match):
        vision.Normalize(*args)


def test_normalize_channel_mismatch():
    with pytest.raises(RuntimeError, match="Normalize: number of channels does not match the "
                                           "size of mean and std vectors, got channels: 3, size "
                                           "of mean: 2"):
        vision.Normalize([100, 110], [1, 60])(image())
    with pytest.raises(RuntimeError, match="Normalize: input tensor should have at least 2 "
                                           "dimensions, but got: 1"):
        vision.Normalize([1], [1])(image()[0, :, 0])


# ----------------------------------------------------------------- Pad
PADDED = {   # MindSpore 2.10: Pad((1, 2, 3, 0), 9, mode)(image())[..., 0]
    Border.CONSTANT: [[9] * 9, [9] * 9, [9, 172, 192, 195, 211, 36, 9, 9, 9],
                      [9, 216, 58, 39, 88, 25, 9, 9, 9], [9, 9, 208, 254, 192, 216, 9, 9, 9],
                      [9, 29, 142, 193, 127, 202, 9, 9, 9]],
    Border.EDGE: [[172, 172, 192, 195, 211, 36, 36, 36, 36]] * 3 + [
        [216, 216, 58, 39, 88, 25, 25, 25, 25], [9, 9, 208, 254, 192, 216, 216, 216, 216],
        [29, 29, 142, 193, 127, 202, 202, 202, 202]],
    Border.REFLECT: [[208, 9, 208, 254, 192, 216, 192, 254, 208],
                     [58, 216, 58, 39, 88, 25, 88, 39, 58],
                     [192, 172, 192, 195, 211, 36, 211, 195, 192],
                     [58, 216, 58, 39, 88, 25, 88, 39, 58],
                     [208, 9, 208, 254, 192, 216, 192, 254, 208],
                     [142, 29, 142, 193, 127, 202, 127, 193, 142]],
    Border.SYMMETRIC: [[216, 216, 58, 39, 88, 25, 25, 88, 39],
                       [172, 172, 192, 195, 211, 36, 36, 211, 195],
                       [172, 172, 192, 195, 211, 36, 36, 211, 195],
                       [216, 216, 58, 39, 88, 25, 25, 88, 39],
                       [9, 9, 208, 254, 192, 216, 216, 192, 254],
                       [29, 29, 142, 193, 127, 202, 202, 127, 193]],
}


@pytest.mark.parametrize('mode', list(PADDED), ids=lambda m: m.name)
def test_pad_modes_match_mindspore(mode):
    out = vision.Pad((1, 2, 3, 0), 9, mode)(image())
    assert out.shape == (6, 9, 3) and out.dtype == np.uint8
    np.testing.assert_array_equal(out[..., 0], PADDED[mode])


def test_pad_wider_than_the_image_keeps_mirroring():
    small = image()[:2, :3, 0]
    # MindSpore 2.10, first two rows of Pad(5, 9, mode)(small)
    out = vision.Pad(5, 9, Border.REFLECT)(small)
    assert out.shape == (12, 13)
    np.testing.assert_array_equal(out[:2], [[58, 216, 58, 39] * 3 + [58],
                                            [192, 172, 192, 195] * 3 + [192]])
    out = vision.Pad(5, 9, Border.SYMMETRIC)(small)
    np.testing.assert_array_equal(out[:3, :7], [[192, 195, 195, 192, 172, 172, 192]] * 2
                                  + [[58, 39, 39, 58, 216, 216, 58]])


def test_pad_forms_of_padding_and_fill():
    img = image()
    assert vision.Pad(1)(img).shape == (6, 7, 3)
    assert vision.Pad((1, 2))(img).shape == (8, 7, 3)
    np.testing.assert_array_equal(vision.Pad(1, (1, 2, 3))(img[:1, :1])[0, 0], [1, 2, 3])
    out = vision.Pad(1, 0, Border.REFLECT)(Image.fromarray(img))
    assert isinstance(out, Image.Image) and out.size == (7, 6)


@pytest.mark.parametrize('args,err,match', [
    ((-1,), ValueError, r"Input padding is not within the required interval of "
                        r"\[0, 2147483647\]\."),
    (((1, 2, 3),), ValueError, "The size of the padding list or tuple should be 2 or 4."),
    ((1, 256), ValueError, r"Input fill_value is not within the required interval of "
                           r"\[0, 255\]\."),
    ((1, (1, 2)), TypeError, "fill_value should be a single integer or a 3-tuple."),
    ((1, 0, 'constant'), TypeError, "Argument padding_mode with value constant is not of type"),
])
def test_pad_bad_arguments(args, err, match):
    with pytest.raises(err, match=match):
        vision.Pad(*args)


# ----------------------------------------------------------------- crops and flips
def test_center_crop_matches_mindspore():
    img = image()
    # MindSpore 2.10, channel 0
    np.testing.assert_array_equal(vision.CenterCrop(2)(img)[..., 0], [[58, 39], [208, 254]])
    np.testing.assert_array_equal(vision.CenterCrop((3, 2))(img)[..., 0],
                                  [[192, 195], [58, 39], [208, 254]])
    big = vision.CenterCrop((5, 6))(img)[..., 0]     # larger than the image: zero padding
    np.testing.assert_array_equal(big, [[0] * 6, [0, 172, 192, 195, 211, 36],
                                        [0, 216, 58, 39, 88, 25], [0, 9, 208, 254, 192, 216],
                                        [0, 29, 142, 193, 127, 202]])
    pil = vision.CenterCrop((3, 2))(Image.fromarray(img))    # Pillow's rounding of the offset
    np.testing.assert_array_equal(np.asarray(pil)[..., 0], [[195, 211], [39, 88], [254, 192]])


def test_crop_and_its_errors():
    np.testing.assert_array_equal(vision.Crop((1, 2), (2, 3))(image())[..., 0],
                                  [[39, 88, 25], [254, 192, 216]])
    with pytest.raises(RuntimeError, match="Crop: Crop height dimension: 5 exceeds image "
                                           "height: 4"):
        vision.Crop((3, 2), (2, 3))(image())
    with pytest.raises(ValueError, match=r"Input coordinates\[0\] is not within the required "
                                         r"interval of \[0, 2147483647\]\."):
        vision.Crop((-1, 2), (2, 3))


@pytest.mark.parametrize('size,err,match', [
    (0, ValueError, r"Input is not within the required interval of \[1, 16777216\]\."),
    ((1, 2, 3), TypeError, r"Size should be a single integer or a list/tuple \(h, w\) of "
                           r"length 2."),
    (2.0, TypeError, r"Argument size with value 2.0 is not of type \[<class 'int'>, <class "
                     r"'list'>, <class 'tuple'>\], but got <class 'float'>."),
])
def test_center_crop_bad_size(size, err, match):
    with pytest.raises(err, match=match):
        vision.CenterCrop(size)


def test_flips():
    img = image()
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(1)(img), img[:, ::-1])
    np.testing.assert_array_equal(vision.RandomVerticalFlip(1.0)(img), img[::-1])
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(0)(img), img)
    np.testing.assert_array_equal(vision.HorizontalFlip()(img[..., 0]), img[:, ::-1, 0])
    np.testing.assert_array_equal(vision.VerticalFlip()(img), img[::-1])
    pil = vision.RandomHorizontalFlip(1)(Image.fromarray(img))
    np.testing.assert_array_equal(np.asarray(pil), img[:, ::-1])
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0.0, 1.0\]\."):
        vision.RandomHorizontalFlip(1.5)
    with pytest.raises(TypeError, match=r"Argument prob with value a is not of type "
                                        r"\[<class 'float'>, <class 'int'>\]"):
        vision.RandomVerticalFlip('a')
    with pytest.raises(RuntimeError, match="RandomHorizontalFlip: the image tensor should have "
                                           "at least two dimensions"):
        vision.RandomHorizontalFlip(1)(img[0, :, 0])
    with pytest.raises(RuntimeError, match="RandomVerticalFlip: input tensor is not in shape of "
                                           "<H,W> or <H,W,C>, but got rank: 4"):
        vision.RandomVerticalFlip(1)(img[None])


def test_missing_names_say_so():
    with pytest.raises(AttributeError, match="mindspore.dataset.vision.validators is not "
                                             "available in hookgrad"):
        vision.validators
