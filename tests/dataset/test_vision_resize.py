"""vision.Resize: every Inter mode against MindSpore 2.10's outputs, PIL input, errors."""
import numpy as np
import pytest
from PIL import Image

from hookgrad.dataset import vision
from hookgrad.dataset.vision import Inter


def image():
    return np.random.RandomState(0).randint(0, 256, (4, 5, 3)).astype(np.uint8)


def wide():
    return np.random.RandomState(1).randint(0, 256, (6, 8, 3)).astype(np.uint8)


# Expected values below come from MindSpore 2.10 (mindspore.dataset.vision.Resize, CPU).
UP = {   # image() -> (3, 7), channel 0
    Inter.NEAREST: [[172, 172, 192, 195, 195, 211, 36], [216, 216, 58, 39, 39, 88, 25],
                    [9, 9, 208, 254, 254, 192, 216]],
    Inter.LINEAR: [[179, 174, 169, 169, 184, 123, 34], [113, 124, 137, 147, 142, 131, 121],
                   [25, 98, 167, 203, 156, 166, 204]],
    Inter.CUBIC: [[183, 175, 167, 169, 203, 126, 18], [114, 120, 131, 138, 137, 128, 120],
                  [12, 93, 185, 205, 151, 160, 213]],
    Inter.AREA: [[183, 168, 158, 156, 175, 121, 33], [113, 125, 136, 147, 141, 132, 121],
                 [24, 105, 168, 208, 156, 168, 206]],
    Inter.PILCUBIC: [[197, 170, 145, 144, 178, 110, 14], [114, 122, 135, 143, 141, 130, 119],
                     [4, 95, 193, 220, 163, 174, 220]],
}
DOWN = {   # image() -> (2, 3), channel 0
    Inter.NEAREST: [[172, 192, 211], [9, 208, 192]],
    Inter.LINEAR: [[171, 117, 70], [71, 224, 192]],
    Inter.CUBIC: [[182, 97, 55], [56, 244, 205]],
    Inter.AREA: [[166, 125, 78], [81, 201, 189]],
}
MIXED = {   # wide() (6, 8) -> (3, 6): one axis shrinks, the other too but not by a whole factor
    Inter.LINEAR: [[237, 153, 174, 145, 76, 72], [74, 111, 159, 138, 50, 199],
                   [138, 143, 177, 157, 99, 127]],
    Inter.AREA: [[234, 153, 166, 144, 76, 66], [72, 110, 160, 133, 50, 180],
                 [138, 143, 174, 146, 99, 129]],
}


@pytest.mark.parametrize('inter', list(UP), ids=lambda m: m.name)
def test_upscale_matches_mindspore(inter):
    out = vision.Resize((3, 7), inter)(image())
    assert out.dtype == np.uint8 and out.shape == (3, 7, 3)
    np.testing.assert_array_equal(out[..., 0], UP[inter])


@pytest.mark.parametrize('inter', list(DOWN), ids=lambda m: m.name)
def test_downscale_matches_mindspore(inter):
    np.testing.assert_array_equal(vision.Resize((2, 3), inter)(image())[..., 0], DOWN[inter])


@pytest.mark.parametrize('inter', list(MIXED), ids=lambda m: m.name)
def test_uneven_downscale_matches_mindspore(inter):
    np.testing.assert_array_equal(vision.Resize((3, 6), inter)(wide())[..., 1], MIXED[inter])


def test_large_resize_checksums_match_mindspore():
    img = np.random.RandomState(5).randint(0, 256, (300, 200, 3)).astype(np.uint8)
    # (sum, row-weighted sum) of the (224, 224, 3) results, from MindSpore 2.10
    expected = {Inter.NEAREST: (19174250, 2136695562), Inter.LINEAR: (19131317, 2133354332),
                Inter.CUBIC: (19156464, 2136047671), Inter.AREA: (19134513, 2133621351)}
    rows = np.arange(224)[:, None, None]
    for inter, (total, weighted) in expected.items():
        out = vision.Resize((224, 224), inter)(img).astype(np.int64)
        assert (int(out.sum()), int((out * rows).sum())) == (total, weighted), inter
    np.testing.assert_array_equal(vision.Resize((224, 224))(img)[100:103, 50:53, 0],
                                  [[112, 73, 101], [164, 156, 141], [132, 143, 150]])


def test_linear_upscale_is_within_one_grey_level():
    """OpenCV's SIMD rounding makes some uint8 pixels differ by one from hookgrad's."""
    img = np.array([[164, 13, 193, 250], [235, 115, 52, 154], [72, 217, 220, 219]], np.uint8)
    # MindSpore 2.10: Resize((9, 16))(img)
    expected = np.array([
        [164, 164, 145, 107, 69, 32, 35, 80, 125, 170, 200, 214, 228, 243, 250, 250],
        [164, 164, 145, 107, 70, 32, 36, 81, 126, 171, 200, 214, 229, 243, 250, 250],
        [188, 188, 170, 135, 100, 64, 59, 84, 109, 133, 155, 173, 191, 209, 218, 218],
        [211, 211, 195, 162, 130, 97, 83, 88, 92, 97, 110, 131, 153, 175, 186, 186],
        [235, 235, 220, 190, 160, 130, 107, 91, 76, 60, 65, 90, 116, 141, 154, 154],
        [181, 181, 177, 169, 161, 153, 144, 133, 123, 113, 116, 133, 150, 167, 176, 176],
        [126, 126, 133, 147, 162, 176, 180, 176, 171, 166, 168, 176, 185, 193, 197, 197],
        [72, 72, 90, 126, 163, 199, 217, 218, 219, 220, 220, 220, 219, 219, 219, 219],
        [72, 72, 90, 126, 162, 199, 217, 218, 219, 219, 220, 219, 219, 219, 219, 219]])
    out = vision.Resize((9, 16))(img)
    diff = np.abs(out.astype(int) - expected)
    assert diff.max() <= 1 and (diff == 0).mean() > 0.9


def test_float_image_stays_float():
    img = image().astype(np.float32) / 3
    out = vision.Resize((3, 7))(img)
    assert out.dtype == np.float32
    # MindSpore 2.10, channel 0, first row
    np.testing.assert_allclose(out[0, :, 0], [59.777775, 57.936508, 56.49206, 56.333332,
                                              61.452381, 41.166664, 11.388889], rtol=1e-6)


def test_other_dtypes_keep_their_dtype():
    out = vision.Resize((3, 7))(image().astype(np.uint16) * 200)
    assert out.dtype == np.uint16
    # MindSpore 2.10, channel 0
    np.testing.assert_array_equal(out[..., 0], [
        [35867, 34762, 33895, 33800, 36871, 24700, 6833],
        [22500, 24843, 27371, 29300, 28371, 26329, 24100],
        [5133, 19686, 33467, 40633, 31300, 33267, 40867]])
    for dtype in (np.bool_, np.int8, np.int16, np.float16, np.float64):
        assert vision.Resize((3, 7))(image().astype(dtype)).dtype == dtype


def test_int_size_sets_the_shorter_edge_rounding_down():
    # shapes from MindSpore 2.10
    for size, shape, out in [(3, (4, 7), (3, 5)), (3, (4, 6), (3, 4)), (2, (3, 5), (2, 3)),
                             (5, (7, 3), (11, 5)), (10, (3, 4), (10, 13))]:
        assert vision.Resize(size)(np.zeros(shape, np.uint8)).shape == out


def test_gray_batch_and_many_channels():
    img = image()
    assert vision.Resize((3, 7), Inter.NEAREST)(img[..., 0]).shape == (3, 7)
    batch = vision.Resize(2)(np.stack([img, img]))
    assert batch.shape == (2, 2, 2, 3)
    np.testing.assert_array_equal(batch[0], vision.Resize(2)(img))
    assert vision.Resize(2)(np.zeros((5, 5, 5), np.uint8)).shape == (2, 2, 5)


PIL_EXPECTED = {   # MindSpore 2.10 on a PIL image (Pillow's resize), channel 0
    Inter.LINEAR: [[185, 166, 151, 148, 167, 114, 33], [113, 124, 137, 147, 142, 132, 121],
                   [23, 102, 176, 211, 165, 172, 206]],
    Inter.ANTIALIAS: [[208, 173, 129, 135, 184, 101, 1], [113, 121, 134, 141, 140, 128, 120],
                      [0, 87, 221, 232, 167, 178, 231]],
}


@pytest.mark.parametrize('inter', list(PIL_EXPECTED), ids=lambda m: m.name)
def test_pil_image_is_resized_by_pillow(inter):
    out = vision.Resize((3, 7), inter)(Image.fromarray(image()))
    assert isinstance(out, Image.Image) and out.size == (7, 3)
    np.testing.assert_array_equal(np.asarray(out)[..., 0], PIL_EXPECTED[inter])


@pytest.mark.parametrize('args,err,match', [
    ((0,), ValueError, r"Input is not within the required interval of \[1, 16777216\]\."),
    (((2, 3, 4),), TypeError, r"Size should be a single integer or a list/tuple \(h, w\)"),
    ((2.5,), TypeError, r"Size should be a single integer or a list/tuple \(h, w\)"),
    ((2, 3), TypeError, r"Argument interpolation with value 3 is not of type \[<enum 'Inter'>\]"),
])
def test_bad_arguments(args, err, match):
    with pytest.raises(err, match=match):
        vision.Resize(*args)


def test_bad_inputs():
    with pytest.raises(RuntimeError, match="Resize: the image tensor should have at least two "
                                           "dimensions. You may need to perform Decode first."):
        vision.Resize(2)(np.zeros(5, np.uint8))
    with pytest.raises(TypeError, match="Input should be NumPy or PIL image, got <class 'list'>"):
        vision.Resize(2)([[1, 2], [3, 4]])
    with pytest.raises(TypeError, match="img should be PIL image. Got <class 'numpy.ndarray'>"):
        vision.Resize(2, Inter.ANTIALIAS)(image())
    with pytest.raises(RuntimeError, match="But got type int64"):
        vision.Resize(2)(np.zeros((3, 3), np.int64))
    with pytest.raises(RuntimeError, match=r"PILCUBIC only supports image with 3 channels, but "
                                           r"got: <4,5>"):
        vision.Resize(2, Inter.PILCUBIC)(image()[..., 0])
    with pytest.raises(TypeError, match="Current Interpolation is not supported with PIL input"):
        vision.Resize(2, Inter.AREA)(Image.fromarray(image()))
