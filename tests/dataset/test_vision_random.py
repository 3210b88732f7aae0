"""Random vision transforms (crops, rotation, colour) and the decode-resize-normalize pipeline.

MindSpore's random streams cannot be matched, so the deterministic cases (fixed angles and
factors, crops the size of the image) are compared with MindSpore 2.10, and the random draws
are checked for seeding, ranges and frequencies.
"""
import io
import itertools

import numpy as np
import pytest
from PIL import Image

import hookgrad as ms
from hookgrad import _random
from hookgrad import dataset as ds
from hookgrad.dataset import vision
from hookgrad.dataset.vision import Border, Inter


def image():
    return np.random.RandomState(0).randint(0, 256, (4, 5, 3)).astype(np.uint8)


def wide():
    return np.random.RandomState(1).randint(0, 256, (6, 8, 3)).astype(np.uint8)


# ----------------------------------------------------------------- rotation
ROTATED = {   # MindSpore 2.10: Rotate(degrees, resample)(wide())[..., 0]
    (30, Inter.NEAREST): [[0, 0, 192, 204, 86, 137, 24, 0], [0, 203, 192, 247, 86, 57, 57, 195],
                          [72, 50, 50, 234, 30, 135, 104, 190],
                          [139, 209, 141, 64, 111, 87, 87, 149], [1, 80, 80, 83, 32, 52, 2, 0],
                          [0, 76, 155, 83, 253, 52, 0, 0]],
    (30, Inter.LINEAR): [[0, 18, 117, 217, 153, 125, 44, 9],
                         [44, 189, 198, 239, 140, 118, 86, 132],
                         [90, 104, 141, 181, 78, 144, 145, 197],
                         [125, 185, 126, 109, 83, 79, 134, 160], [4, 99, 67, 59, 42, 39, 6, 51],
                         [15, 60, 140, 63, 163, 83, 3, 0]],
    (-45, Inter.LINEAR): [[16, 37, 145, 123, 151, 134, 0, 0],
                          [27, 86, 124, 131, 182, 210, 147, 0],
                          [113, 122, 51, 136, 154, 198, 193, 135],
                          [27, 46, 45, 74, 92, 164, 117, 136],
                          [0, 130, 106, 44, 121, 113, 60, 56], [0, 0, 27, 35, 178, 155, 106, 8]],
    (90, Inter.NEAREST): [[0, 178, 137, 57, 104, 243, 149, 0], [0, 252, 86, 198, 135, 87, 2, 0],
                          [0, 204, 247, 30, 111, 23, 52, 0], [0, 192, 215, 234, 64, 32, 253, 0],
                          [0, 203, 50, 141, 41, 83, 3, 0], [0, 72, 156, 209, 80, 155, 65, 0]],
}


@pytest.mark.parametrize('key', list(ROTATED), ids=lambda k: f'{k[0]}-{k[1].name}')
def test_rotation_matches_mindspore(key):
    degrees, resample = key
    np.testing.assert_array_equal(vision.Rotate(degrees, resample)(wide())[..., 0], ROTATED[key])
    same = vision.RandomRotation((degrees, degrees), resample)(wide())[..., 0]
    np.testing.assert_array_equal(same, ROTATED[key])


def test_bicubic_rotation_is_within_one_grey_level():
    # MindSpore 2.10: Rotate(30, Inter.CUBIC)(wide())[..., 0]
    expected = [[0, 16, 109, 235, 152, 126, 23, 6], [41, 206, 215, 255, 129, 134, 65, 148],
                [91, 83, 128, 199, 49, 151, 148, 234], [150, 214, 132, 112, 82, 75, 148, 203],
                [0, 103, 61, 40, 34, 31, 0, 47], [14, 56, 150, 62, 199, 115, 0, 0]]
    out = vision.Rotate(30, Inter.CUBIC)(wide())[..., 0]
    assert np.abs(out.astype(int) - expected).max() <= 1


def test_rotation_expand_center_and_fill_match_mindspore():
    img = wide()
    out = vision.Rotate(30, Inter.LINEAR, expand=True, fill_value=(1, 2, 3))(img)
    assert out.shape == (9, 10, 3)
    # MindSpore 2.10; NumPy images take the fill triple in B, G, R order (OpenCV's)
    np.testing.assert_array_equal(out[0, :6, 0], [3, 3, 3, 3, 3, 41])
    np.testing.assert_array_equal(out[3, :, 2], [44, 109, 123, 213, 149, 104, 103, 61, 120, 6])
    np.testing.assert_array_equal(out[8, :, 0], [3, 3, 63, 147, 21, 3, 3, 3, 3, 3])
    centred = vision.Rotate(30, center=(1, 2), fill_value=7)(img)[..., 0]
    np.testing.assert_array_equal(centred[4:], [[7, 23, 155, 3, 253, 7, 7, 7],
                                                [7, 216, 216, 7, 7, 7, 7, 7]])
    gray = vision.Rotate(30, fill_value=(1, 2, 3))(img[..., 0])
    np.testing.assert_array_equal(gray[0], [3, 3, 192, 204, 86, 137, 24, 3])


def test_rotation_of_float_and_uint16_images_matches_mindspore():
    img = image()
    out = vision.Rotate(30, Inter.LINEAR)(img.astype(np.float32))
    assert out.dtype == np.float32
    # MindSpore 2.10, channel 0, first row
    np.testing.assert_allclose(out[0, :, 0], [36.017578125, 133.8046875, 182.390625, 65.1875,
                                              32.306640625], rtol=1e-6)
    out = vision.Rotate(30, Inter.LINEAR)(img.astype(np.uint16) * 200)
    assert out.dtype == np.uint16
    np.testing.assert_array_equal(out[..., 0], [[7204, 26761, 36478, 13038, 6461],
                                                [35893, 22622, 12591, 28948, 42855],
                                                [41732, 24770, 46016, 37494, 32945],
                                                [5080, 15959, 33378, 25403, 4840]])


def test_rotation_of_a_pil_image_uses_pillow():
    out = vision.RandomRotation((30, 30), Inter.LINEAR, fill_value=(1, 2, 3))(
        Image.fromarray(wide()))
    assert isinstance(out, Image.Image)
    # MindSpore 2.10, channel 2 (the fill is in R, G, B order here)
    np.testing.assert_array_equal(np.asarray(out)[:3, :, 2], [
        [3, 3, 177, 167, 145, 73, 56, 3], [3, 83, 177, 127, 137, 130, 98, 121],
        [147, 169, 213, 181, 143, 129, 41, 133]])
    np.testing.assert_array_equal(np.asarray(out)[0, 0], [1, 2, 3])


def test_random_rotation_angles_are_seeded_and_in_range():
    img = np.zeros((9, 9), np.uint8)
    img[4, 8] = 255                       # a dot on the right: it moves with the angle
    op = vision.RandomRotation((-90, 0), Inter.NEAREST)
    _random.set_seed(3)
    first = [op(img) for _ in range(5)]
    _random.set_seed(3)
    again = [op(img) for _ in range(5)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    for out in first:     # clockwise turns of up to 90 degrees keep the dot in the lower right
        ys, xs = np.nonzero(out)
        assert (ys >= 4).all() and (xs >= 4).all()


@pytest.mark.parametrize('args,kw,err,match', [
    ((-1,), {}, ValueError, r"Input degrees is not within the required interval of "
                            r"\[0, 16777216\]\."),
    (((10, 1),), {}, ValueError, r"degrees should be in \(min,max\) format. Got \(max,min\)."),
    (((1, 2, 3),), {}, TypeError, "If degrees is a sequence, the length must be 2."),
    ((10,), {'fill_value': 300}, ValueError, r"Input fill_value is not within the required "
                                             r"interval of \[0, 255\]\."),
    ((10,), {'center': (1, 2, 3)}, ValueError, "Value center needs to be a 2-tuple."),
    ((10, 0), {}, TypeError, r"Argument resample with value 0 is not of type \[<enum 'Inter'>\]"),
])
def test_random_rotation_bad_arguments(args, kw, err, match):
    with pytest.raises(err, match=match):
        vision.RandomRotation(*args, **kw)


def test_rotation_bad_inputs():
    with pytest.raises(RuntimeError, match="Rotate: input tensor is not in shape of <H,W> or "
                                           "<H,W,C>, but got rank: 1"):
        vision.RandomRotation(10)(image()[0, :, 0])
    with pytest.raises(RuntimeError, match="RandomRotation: Invalid InterpolationMode"):
        vision.RandomRotation(10, Inter.PILCUBIC)(image())


# ----------------------------------------------------------------- colour
COLOUR = {   # MindSpore 2.10: RandomColorAdjust(**{name: (f, f)})(wide())[..., 1]
    ('brightness', 1.37): [[255, 255, 182, 197, 97, 184, 27, 200],
                           [255, 215, 93, 255, 255, 193, 10, 30],
                           [175, 11, 158, 166, 97, 204, 4, 255],
                           [36, 149, 255, 255, 255, 36, 30, 255],
                           [171, 226, 227, 222, 196, 34, 126, 63],
                           [207, 155, 175, 255, 255, 104, 255, 255]],
    ('contrast', 0.3): [[160, 166, 130, 133, 111, 130, 96, 133],
                        [165, 137, 110, 160, 156, 132, 92, 96],
                        [128, 92, 124, 126, 111, 134, 90, 162],
                        [97, 122, 153, 148, 157, 97, 96, 159],
                        [127, 139, 139, 138, 132, 97, 117, 103],
                        [135, 124, 128, 151, 154, 112, 150, 150]],
    ('saturation', 1.37): [[255, 255, 127, 139, 49, 125, 0, 148],
                           [255, 158, 64, 234, 225, 143, 0, 16],
                           [145, 0, 109, 105, 73, 148, 0, 255],
                           [19, 112, 237, 218, 239, 9, 13, 240],
                           [137, 171, 176, 183, 152, 11, 76, 25],
                           [142, 120, 137, 208, 232, 78, 217, 219]],
    ('contrast', 1.7): [[255, 255, 136, 155, 31, 138, 0, 159], [255, 177, 26, 255, 255, 150, 0, 0],
                        [128, 0, 106, 116, 31, 164, 0, 255], [0, 96, 255, 244, 255, 0, 0, 255],
                        [123, 191, 193, 186, 154, 0, 67, 0],
                        [167, 102, 128, 255, 255, 40, 255, 250]],
    ('saturation', 1.7): [[255, 255, 122, 135, 30, 118, 0, 150],
                          [255, 158, 60, 236, 227, 145, 0, 11],
                          [160, 0, 104, 91, 74, 147, 0, 255], [13, 115, 255, 237, 251, 0, 6, 247],
                          [148, 176, 186, 201, 160, 0, 62, 7],
                          [135, 126, 145, 211, 248, 80, 230, 236]],
    ('hue', -0.3): [[186, 175, 79, 129, 231, 25, 254, 212], [252, 142, 215, 241, 96, 233, 31, 48],
                    [88, 174, 175, 174, 131, 49, 196, 90], [40, 115, 33, 25, 226, 143, 9, 126],
                    [124, 57, 155, 21, 239, 199, 74, 127], [168, 88, 248, 6, 213, 219, 7, 102]],
    ('hue', 0.1): [[209, 255, 203, 181, 71, 252, 20, 101], [203, 157, 50, 217, 247, 86, 28, 22],
                   [121, 8, 115, 121, 30, 198, 3, 241], [29, 88, 210, 196, 168, 26, 78, 231],
                   [88, 165, 146, 162, 23, 25, 193, 46], [157, 113, 3, 253, 131, 2, 203, 200]],
}


@pytest.mark.parametrize('key', list(COLOUR), ids=lambda k: f'{k[0]}{k[1]}')
def test_colour_adjustments_match_mindspore(key):
    name, factor = key
    out = vision.RandomColorAdjust(**{name: (factor, factor)})(wide())
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out[..., 1], COLOUR[key])


def test_colour_adjustments_run_in_a_random_order():
    op = vision.RandomColorAdjust((1.5, 1.5), (0.5, 0.5))
    img = wide()
    bright = vision.RandomColorAdjust(brightness=(1.5, 1.5))
    contrast = vision.RandomColorAdjust(contrast=(0.5, 0.5))
    orders = {contrast(bright(img)).tobytes(), bright(contrast(img)).tobytes()}
    assert len(orders) == 2
    _random.set_seed(0)
    seen = {op(img).tobytes() for _ in range(30)}
    assert seen == orders


def test_colour_factors_are_drawn_from_their_ranges():
    img = np.full((2, 2, 3), 100, np.uint8)
    op = vision.RandomColorAdjust(brightness=(0.5, 1.5))
    _random.set_seed(1)
    values = np.array([op(img)[0, 0, 0] for _ in range(300)])
    assert values.min() >= 50 and values.max() <= 150
    assert values.min() < 60 and values.max() > 140 and abs(values.mean() - 100) < 6
    assert vision.RandomColorAdjust(0.5).brightness == (0.5, 1.5)
    assert vision.RandomColorAdjust(hue=0.1).hue == (-0.1, 0.1)


def test_colour_of_a_pil_image_goes_through_pillow():
    img = Image.fromarray(wide())
    out = vision.RandomColorAdjust(brightness=(1.37, 1.37))(img)
    assert isinstance(out, Image.Image)
    # MindSpore 2.10's PIL path applies all four adjustments (a hue shift of 0 through HSV
    # changes pixels too) in a random order; this row (channel 1) is one of its outputs
    row = [255, 255, 180, 197, 98, 180, 28, 202]
    _random.set_seed(0)
    rows = {tuple(np.asarray(vision.RandomColorAdjust(brightness=(1.37, 1.37))(img))[0, :, 1])
            for _ in range(40)}
    assert tuple(row) in rows and len(rows) > 1


@pytest.mark.parametrize('kw,err,match', [
    ({'brightness': -1}, ValueError, "The input value of brightness cannot be negative."),
    ({'hue': 0.6}, ValueError, r"Input is not within the required interval of \[-0.5, 0.5\]\."),
    ({'hue': (0.2, 0.1)}, ValueError, r"hue value should be in \(min,max\) format. "
                                      r"Got \(0.2, 0.1\)."),
    ({'brightness': (0.5,)}, TypeError, "If brightness is a sequence, the length must be 2."),
    ({'contrast': (-1, 2)}, ValueError, r"Input is not within the required interval of "
                                        r"\[0, 16777216\]\."),
    ({'brightness': 'a'}, TypeError, "Argument brightness with value a is not of type"),
])
def test_colour_bad_arguments(kw, err, match):
    with pytest.raises(err, match=match):
        vision.RandomColorAdjust(**kw)


def test_colour_bad_inputs():
    op = vision.RandomColorAdjust(1.5)
    with pytest.raises(RuntimeError, match=r"Expecting tensor in dimension of \(3\), in shape "
                                           r"of <H, W, C>. But got dimension 2."):
        op(image()[..., 0])
    with pytest.raises(RuntimeError, match=r"Expecting tensor in channel of \(3\). But got "
                                           r"channel 4."):
        op(np.zeros((4, 4, 4), np.uint8))


# ----------------------------------------------------------------- random crops
def test_random_crop_of_the_whole_image_and_padding():
    img = image()
    np.testing.assert_array_equal(vision.RandomCrop((4, 5))(img), img)
    padded = vision.RandomCrop((8, 9), padding=2, fill_value=7)(img)
    np.testing.assert_array_equal(padded, vision.Pad(2, 7)(img))
    # pad_if_needed pads the missing length on both ends, so the crop can land on either side
    op = vision.RandomCrop((5, 5), pad_if_needed=True, fill_value=9)
    _random.set_seed(0)
    fill_rows = {tuple(np.nonzero((op(img)[..., 0] == 9).all(axis=1))[0]) for _ in range(40)}
    assert fill_rows == {(0,), (4,)}


def test_random_crop_positions_are_uniform_and_seeded():
    img = np.arange(16, dtype=np.uint8).reshape(4, 4)
    op = vision.RandomCrop(2)
    _random.set_seed(5)
    corners = [int(op(img)[0, 0]) for _ in range(900)]
    _random.set_seed(5)
    assert corners == [int(op(img)[0, 0]) for _ in range(900)]
    counts = np.bincount(corners, minlength=16)
    starts = [0, 1, 2, 4, 5, 6, 8, 9, 10]
    assert set(np.nonzero(counts)[0]) == set(starts)
    assert counts[starts].min() > 60


def test_random_crop_errors():
    with pytest.raises(RuntimeError, match="RandomCrop: invalid crop size, crop size is bigger "
                                           "than the image dimensions, got crop height: 6, crop "
                                           "width: 5"):
        vision.RandomCrop((6, 5))(image())
    with pytest.raises(TypeError, match="Argument pad_if_needed with value 1 is not of type"):
        vision.RandomCrop(2, pad_if_needed=1)
    with pytest.raises(ValueError, match=r"Input padding is not within the required interval"):
        vision.RandomCrop(2, padding=-1)


def test_random_resized_crop_of_the_whole_image_matches_mindspore():
    out = vision.RandomResizedCrop((3, 4), scale=(1, 1), ratio=(8 / 6, 8 / 6))(wide())
    # MindSpore 2.10 (the whole image, resized bilinearly)
    np.testing.assert_array_equal(out[..., 0], [[101, 165, 197, 119], [92, 120, 119, 95],
                                                [115, 93, 41, 165]])
    pil = vision.RandomResizedCrop((3, 4), scale=(1, 1), ratio=(5 / 4, 5 / 4))(
        Image.fromarray(image()))
    np.testing.assert_array_equal(np.asarray(pil)[..., 0], [[177, 150, 163, 68],
                                                            [118, 139, 143, 126],
                                                            [58, 182, 174, 191]])


def test_random_resized_crop_boxes_respect_scale_and_ratio():
    op = vision.RandomResizedCrop(8, scale=(0.2, 0.5), ratio=(0.5, 2.0))
    _random.set_seed(2)
    for _ in range(200):
        top, left, h, w = op.crop_box(100, 120)
        assert 0 <= top <= 100 - h and 0 <= left <= 120 - w
        assert 0.19 <= h * w / 12000 <= 0.51 and 0.45 <= w / h <= 2.2
    assert op(wide()).shape == (8, 8, 3)
    # nothing fits: the centre crop clamped to the ratio range
    image = (np.arange(40).reshape(10, 4) * 6).astype(np.uint8)
    tall = vision.RandomResizedCrop(4, scale=(2, 3), ratio=(1, 1), max_attempts=3)
    assert tall.crop_box(10, 4) == (3, 0, 4, 4)
    np.testing.assert_array_equal(tall(image), image[3:7])
    wide_op = vision.RandomResizedCrop((2, 3), scale=(2, 3), ratio=(1, 1.2), max_attempts=3,
                                       interpolation=Inter.NEAREST)
    # MindSpore 2.10: the offset (10 - 5) / 2 rounds half away from zero, as std::round
    np.testing.assert_array_equal(wide_op(image.T.copy()), [[72, 96, 144], [84, 108, 156]])


@pytest.mark.parametrize('kw,err,match', [
    ({'scale': (1, 0.5)}, ValueError, r"scale should be in \(min,max\) format. "
                                      r"Got \(max,min\)."),
    ({'ratio': (0, 0.5)}, ValueError, r"Input ratio\[0\] is not within the required interval "
                                      r"of \(0, 16777216\]\."),
    ({'max_attempts': 0}, ValueError, r"Input max_attempts is not within the required "
                                      r"interval of \[1, 2147483647\]\."),
    ({'scale': 0.5}, TypeError, "Argument scale with value 0.5 is not of type"),
    ({'scale': (0.5,)}, TypeError, "scale should be a list/tuple of length 2."),
])
def test_random_resized_crop_bad_arguments(kw, err, match):
    with pytest.raises(err, match=match):
        vision.RandomResizedCrop(3, **kw)


def test_flip_frequency_follows_prob():
    img = image()
    op = vision.RandomHorizontalFlip(0.3)
    _random.set_seed(4)
    flipped = np.mean([op(img)[0, 0, 0] != img[0, 0, 0] for _ in range(1000)])
    assert 0.25 < flipped < 0.35


# ----------------------------------------------------------------- pipeline
def test_decode_resize_normalize_hwc2chw_pipeline_matches_mindspore():
    def source():
        for i in range(3):
            img = np.random.RandomState(10 + i).randint(0, 256, (6, 8, 3)).astype(np.uint8)
            buf = io.BytesIO()
            Image.fromarray(img).save(buf, 'PNG')
            yield np.frombuffer(buf.getvalue(), np.uint8),

    ops = [vision.Decode(), vision.Resize((4, 4)), vision.Normalize([120.0] * 3, [60.0] * 3),
           vision.HWC2CHW()]
    data = ds.GeneratorDataset(source, ['image'], shuffle=False)
    batches = [b for (b,) in data.map(operations=ops, input_columns='image').batch(2)
               .create_tuple_iterator(output_numpy=True)]
    # MindSpore 2.10: shapes, sums and the first channel of the first image
    assert [b.shape for b in batches] == [(2, 3, 4, 4), (1, 3, 4, 4)]
    assert all(b.dtype == np.float32 for b in batches)
    np.testing.assert_allclose([b.astype(np.float64).sum() for b in batches],
                               [5.183332990854979, 17.666666746139526], rtol=1e-6)
    np.testing.assert_allclose(batches[0][0, 0], [
        [-1.1666666269302368, 0.4833333194255829, -0.05000000074505806, -0.5166666507720947],
        [0.06666667014360428, -0.8500000238418579, 0.6000000238418579, -0.03333333507180214],
        [-0.3166666626930237, 1.4166666269302368, -0.46666666865348816, 0.6666666865348816],
        [-1.0, 0.9833333492279053, -1.2999999523162842, 0.5833333134651184]], rtol=1e-6)


def test_random_ops_in_a_pipeline_repeat_with_the_seed():
    imgs = np.random.RandomState(3).randint(0, 256, (4, 6, 6, 3)).astype(np.uint8)
    ops = [vision.RandomCrop(4), vision.RandomHorizontalFlip(), vision.RandomRotation(20),
           vision.RandomColorAdjust(0.4, 0.4, 0.4, 0.1), vision.ToTensor()]

    def run():
        data = ds.NumpySlicesDataset({'image': imgs}, shuffle=False).map(ops, 'image')
        return [x for (x,) in data.create_tuple_iterator(output_numpy=True)]

    ms.set_seed(11)
    first = run()
    ms.set_seed(11)
    second = run()
    assert all(a.shape == (3, 4, 4) and a.dtype == np.float32 for a in first)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, b) for a, b in itertools.combinations(first, 2))


def test_border_and_inter_enums():
    assert [m.name for m in Inter] == ['NEAREST', 'ANTIALIAS', 'BILINEAR', 'BICUBIC', 'AREA',
                                       'PILCUBIC']
    assert Inter.LINEAR is Inter.BILINEAR and Inter.CUBIC is Inter.BICUBIC
    assert Border('edge') is Border.EDGE and Border.REFLECT.value == 'reflect'
    assert int(vision.ImageBatchFormat.NCHW) == 1
