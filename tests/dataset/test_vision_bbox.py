"""The bounding-box transforms and SlicePatches against MindSpore 2.10's recorded outputs
(tests/dataset/fixtures/bbox_mindspore.npz, made by tools/mindspore_bbox_outputs.py): exact
images and boxes for the deterministic cases, and for random crops the boxes of the crop at
the place MindSpore drew; then probabilities, repeatability and MindSpore's errors."""
import os
import sys

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.dataset import vision

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from mindspore_bbox_outputs import (BOX_CASES, BOXES, CROP_CASES, CROP_RUNS,  # noqa: E402
                                    PATCH_CASES, inter_args)

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'bbox_mindspore.npz')


@pytest.fixture(scope='module')
def recorded():
    with np.load(FIXTURE) as z:
        return {k: z[k] for k in z.files}


def _build(name, args):
    if name == 'BoundingBoxAugment':
        args = (vision.Invert() if args[0] == 'Invert' else vision.Resize((2, 3)),) + args[1:]
    return getattr(vision, name)(*inter_args(args, vision.Inter))


@pytest.mark.parametrize('case', [(c, k) for c, (_, _, keys) in BOX_CASES.items() for k in keys])
def test_box_transforms_match_mindspore(recorded, case):
    name, args, _ = BOX_CASES[case[0]]
    tag = f'{case[0]}-{case[1]}'
    boxes = BOXES.copy()
    img, out = _build(name, args)(recorded[f'input-{case[1]}'], boxes)
    want = recorded[f'{tag}/image']
    assert img.shape == want.shape and img.dtype == want.dtype
    if case[0] in ('Resize-a', 'Resize-b', 'Augment-resize'):
        assert np.abs(img.astype(int) - want).max() <= 1      # see Resize: OpenCV rounding
    else:
        np.testing.assert_array_equal(img, want)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, recorded[f'{tag}/boxes'])
    np.testing.assert_array_equal(boxes, BOXES)                # the input is left alone


@pytest.mark.parametrize('case', list(CROP_CASES))
def test_random_crop_boxes_match_mindspore_at_its_place(recorded, case):
    op = getattr(vision, case.split('-')[0] + 'WithBBox')(*inter_args(CROP_CASES[case],
                                                                       vision.Inter))
    image = recorded['input-u8']
    for run in range(CROP_RUNS):
        want_img, want_boxes = recorded[f'{case}-{run}/image'], recorded[f'{case}-{run}/boxes']
        places = 0      # draws giving MindSpore's image (a nearest resize can hide the crop)
        for seed in range(1000):
            ms.set_seed(seed)
            img, boxes = op(image, BOXES)
            if img.shape == want_img.shape and np.array_equal(img, want_img):
                places += 1
                if boxes.shape == want_boxes.shape and np.array_equal(boxes, want_boxes):
                    break
        else:
            pytest.fail(f"{places} draws gave MindSpore's image of {case} run {run}, none its "
                        f"boxes")


@pytest.mark.parametrize('case', [(c, k) for c in PATCH_CASES for k in ('u8', 'g8')])
def test_slice_patches_match_mindspore(recorded, case):
    args = PATCH_CASES[case[0]]
    if len(args) > 2:
        args = args[:2] + (getattr(vision.SliceMode, args[2]),) + args[3:]
    out = vision.SlicePatches(*args)(recorded[f'input-{case[1]}'])
    want = [recorded[k] for k in sorted((k for k in recorded if k.startswith(f'{case[0]}-'
                                                                             f'{case[1]}/')),
                                        key=lambda k: int(k.rsplit('/', 1)[1]))]
    out = list(out) if isinstance(out, tuple) else [out]
    assert len(out) == len(want)
    for a, b in zip(out, want):
        np.testing.assert_array_equal(a, b)


def test_flips_with_prob_zero_keep_everything_and_repeat_with_the_seed():
    img = np.arange(63, dtype=np.uint8).reshape(7, 9)
    for op in (vision.RandomHorizontalFlipWithBBox(0), vision.RandomVerticalFlipWithBBox(0.0)):
        out, boxes = op(img, BOXES)
        np.testing.assert_array_equal(out, img)
        np.testing.assert_array_equal(boxes, BOXES)
    op = vision.RandomHorizontalFlipWithBBox()
    ms.set_seed(3)
    first = [op(img, BOXES)[1] for _ in range(8)]
    ms.set_seed(3)
    second = [op(img, BOXES)[1] for _ in range(8)]
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert len({a.tobytes() for a in first}) == 2


def test_random_resize_with_bbox_uses_one_of_the_four_modes():
    img = np.random.default_rng(0).integers(0, 256, (7, 9, 3)).astype(np.uint8)
    modes = [vision.Inter.LINEAR, vision.Inter.NEAREST, vision.Inter.CUBIC, vision.Inter.AREA]
    results = [vision.ResizeWithBBox((5, 4), m)(img, BOXES) for m in modes]
    ms.set_seed(0)
    seen = set()
    for _ in range(20):
        out, boxes = vision.RandomResizeWithBBox((5, 4))(img, BOXES)
        np.testing.assert_array_equal(boxes, results[0][1])
        seen.update(i for i, (r, _) in enumerate(results) if np.array_equal(out, r))
    assert seen == {0, 1, 2, 3}


def test_bounding_box_augment_ratio_zero_keeps_the_image():
    img = np.random.default_rng(1).integers(0, 256, (7, 9, 3)).astype(np.uint8)
    out, boxes = vision.BoundingBoxAugment(vision.Invert(), 0)(img, BOXES)
    np.testing.assert_array_equal(out, img)
    np.testing.assert_array_equal(boxes, BOXES)


@pytest.mark.parametrize('boxes, match', [
    (np.array([1, 1, 3, 2], np.float32), 'two-dimensional matrix at least, but got 1'),
    (np.array([[1, 1, 3]], np.float32), 'at least 4 features, but got: 3'),
    (np.array([[1, 1, 30, 2]], np.float32),
     r'out of bounds of the image, as image width: 9, bbox width coordinate: 31.000000'),
    (np.array([[-1, 1, 3, 2]], np.float32), r'negative value, got: \(-1.000000,1.000000\)'),
    (np.array([[1, 1, 3, 2]], np.float64), 'should be float32'),
])
def test_bad_boxes_raise_mindspore_errors(boxes, match):
    img = np.zeros((7, 9, 3), np.uint8)
    with pytest.raises(RuntimeError, match=match):
        vision.RandomHorizontalFlipWithBBox(1.0)(img, boxes)


def test_bad_arguments_raise_mindspore_errors():
    with pytest.raises(RuntimeError, match='size of input data should be 2'):
        vision.RandomVerticalFlipWithBBox(1.0)(np.zeros((7, 9), np.uint8))
    with pytest.raises(ValueError, match=r'Input ratio is not within the required interval of '
                                         r'\[0.0, 1.0\]'):
        vision.BoundingBoxAugment(vision.Invert(), 1.5)
    with pytest.raises(TypeError, match='Argument transform with value None'):
        vision.BoundingBoxAugment(None)
    with pytest.raises(ValueError, match=r'Input prob is not within the required interval'):
        vision.RandomHorizontalFlipWithBBox(1.5)
    with pytest.raises(ValueError, match=r'Input is not within the required interval of '
                                         r'\[1, 16777216\]'):
        vision.ResizeWithBBox(0)
    with pytest.raises(TypeError, match='Argument interpolation with value x'):
        vision.ResizeWithBBox((2, 2), 'x')
    with pytest.raises(TypeError, match=r'Size should be a single integer or a list/tuple'):
        vision.RandomResizeWithBBox((2,))
    with pytest.raises(RuntimeError, match='crop size is bigger than the image dimensions'):
        vision.RandomCropWithBBox(10)(np.zeros((7, 9), np.uint8), BOXES)
    with pytest.raises(ValueError, match=r'scale should be in \(min,max\) format'):
        vision.RandomResizedCropWithBBox(4, scale=(0.9, 0.1))


def test_slice_patches_errors():
    with pytest.raises(ValueError, match=r'Input num_height is not within the required '
                                         r'interval of \[1, 2147483647\]'):
        vision.SlicePatches(0)
    with pytest.raises(TypeError, match='Argument num_width with value a'):
        vision.SlicePatches(2, 'a')
    with pytest.raises(TypeError, match='Argument slice_mode with value 1'):
        vision.SlicePatches(2, 2, 1)
    with pytest.raises(ValueError, match='Input fill_value is not within'):
        vision.SlicePatches(2, 2, vision.SliceMode.PAD, 256)
    with pytest.raises(RuntimeError, match='number of patches on height axis equals 0 or is '
                                           'greater than height, got number of patches:8'):
        vision.SlicePatches(8, 1)(np.zeros((7, 9), np.uint8))
    with pytest.raises(RuntimeError, match='Rank of input data should be greater than 2'):
        vision.SlicePatches(2, 2)(np.zeros(5, np.uint8))


def test_box_transforms_and_slice_patches_in_a_pipeline():
    import hookgrad.dataset as ds
    images = np.arange(3 * 7 * 9, dtype=np.uint8).reshape(3, 7, 9)
    boxes = np.tile(BOXES[:1], (3, 1, 1))
    data = ds.NumpySlicesDataset({'image': images, 'bbox': boxes}, shuffle=False)
    data = data.map(operations=[vision.RandomHorizontalFlipWithBBox(1.0)],
                    input_columns=['image', 'bbox'])
    rows = list(data.create_tuple_iterator(output_numpy=True))
    for (img, box), original in zip(rows, images):
        np.testing.assert_array_equal(img, original[:, ::-1])
        np.testing.assert_array_equal(box[0, :4], [5, 1, 3, 2])
    data = ds.NumpySlicesDataset({'image': images}, shuffle=False).map(
        operations=vision.SlicePatches(1, 3), input_columns=['image'],
        output_columns=['a', 'b', 'c'])
    assert data.get_col_names() == ['a', 'b', 'c']
    first = next(data.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.concatenate(first, axis=1), images[0])
