"""Record MindSpore 2.10's outputs of the bounding-box transforms and SlicePatches for
tests/dataset/fixtures/bbox_mindspore.npz. Run it with a Python that has MindSpore:

    python tools/mindspore_bbox_outputs.py

Inputs are the 'u8' and 'g8' images of mindspore_vision_inputs.py and the boxes BOXES. Per
deterministic case ``<name>-<input>`` the file keeps MindSpore's image and boxes (``/image``,
``/boxes``) or its patches (``/0``, ``/1``, ...). Random crops (RandomCropWithBBox and
RandomResizedCropWithBBox, by the case name) are recorded ``CROP_RUNS`` times per case
(``<name>-<run>/image``, ``/boxes``): the tests find draws that give MindSpore's image and
check that one of them gives its boxes.
"""
import os

import numpy as np

from mindspore_vision_inputs import inputs

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'bbox_mindspore.npz')

BOXES = np.array([[1, 1, 3, 2, 7], [0, 0, 9, 7, 8], [5.5, 2.25, 2, 3.5, 9], [8, 6, 1, 1, 10]],
                 np.float32)

BOX_CASES = {   # name: (constructor, arguments, inputs)
    'HFlip': ('RandomHorizontalFlipWithBBox', (1.0,), ('u8', 'g8')),
    'VFlip': ('RandomVerticalFlipWithBBox', (1.0,), ('u8', 'g8')),
    'Resize-a': ('ResizeWithBBox', ((14, 5),), ('u8', 'g8')),
    'Resize-b': ('ResizeWithBBox', (4,), ('u8',)),
    'Resize-c': ('ResizeWithBBox', ((5, 12), 'NEAREST'), ('u8',)),
    'Crop-whole': ('RandomCropWithBBox', ((7, 9),), ('u8',)),
    'Crop-fit': ('RandomCropWithBBox', ((9, 11), 1), ('u8',)),
    'Augment-invert': ('BoundingBoxAugment', ('Invert', 1.0), ('u8',)),
    'Augment-resize': ('BoundingBoxAugment', ('Resize', 1.0), ('u8',)),
    'ResizedCrop-whole': ('RandomResizedCropWithBBox', ((5, 12), (1.0, 1.0), (9 / 7, 9 / 7),
                                                        'NEAREST'), ('u8', 'g8')),
}
CROP_CASES = {   # name: RandomCropWithBBox arguments
    'RandomCrop-a': ((3, 4),),
    'RandomCrop-b': ((5, 5), 2),
    'RandomCrop-c': ((9, 12), None, True),
    'RandomCrop-d': ((4, 6), (1, 2, 0, 3)),
    'RandomResizedCrop-a': ((4, 5), (0.5, 0.5), (1.0, 1.0), 'NEAREST'),
    'RandomResizedCrop-b': ((6, 8), (0.3, 0.6), (0.75, 1.333), 'NEAREST'),
}
CROP_RUNS = 8
PATCH_CASES = {   # name: SlicePatches arguments
    'Slice-a': (2, 3),
    'Slice-b': (2, 3, 'DROP'),
    'Slice-c': (3, 2, 'PAD', 7),
    'Slice-d': (1, 1),
    'Slice-e': (7, 4),
}


def inter_args(args, inter):
    """``args`` with an interpolation name (a str) made the ``Inter`` member."""
    return tuple(getattr(inter, a) if isinstance(a, str) else a for a in args)


def main():
    import mindspore.dataset.vision as vision     # here: the tests read the cases without it
    images = inputs()
    arrays = {f'input-{k}': v for k, v in images.items()}
    for case, (name, args, keys) in BOX_CASES.items():
        if name == 'BoundingBoxAugment':
            args = (vision.Invert() if args[0] == 'Invert' else vision.Resize((2, 3)),) + args[1:]
        args = inter_args(args, vision.Inter)
        for key in keys:
            img, boxes = getattr(vision, name)(*args)(images[key].copy(), BOXES.copy())
            arrays[f'{case}-{key}/image'], arrays[f'{case}-{key}/boxes'] = img, boxes
    for case, args in CROP_CASES.items():
        name = case.split('-')[0] + 'WithBBox'
        for run in range(CROP_RUNS):
            op = getattr(vision, name)(*inter_args(args, vision.Inter))
            img, boxes = op(images['u8'].copy(), BOXES.copy())
            arrays[f'{case}-{run}/image'], arrays[f'{case}-{run}/boxes'] = img, boxes
    for case, args in PATCH_CASES.items():
        if len(args) > 2:
            args = args[:2] + (getattr(vision.SliceMode, args[2]),) + args[3:]
        for key in ('u8', 'g8'):
            out = vision.SlicePatches(*args)(images[key].copy())
            out = out if isinstance(out, (list, tuple)) else [out]
            for i, patch in enumerate(out):
                arrays[f'{case}-{key}/{i}'] = patch
    np.savez_compressed(OUT, **arrays)
    print(len(arrays), 'arrays')


if __name__ == '__main__':
    main()
