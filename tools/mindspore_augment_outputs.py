"""Record MindSpore 2.10's AutoAugment, RandAugment and TrivialAugmentWide outputs for
tests/dataset/fixtures/augment_mindspore.npz. Run it with a Python that has MindSpore:

    python tools/mindspore_augment_outputs.py

A small uint8 image goes through each transform many times in a MindSpore pipeline; the file
keeps the image and, per configuration, every distinct output. hookgrad's random draws differ
from MindSpore's, so the tests check that hookgrad's outputs for each operation, magnitude and
sign are exactly among MindSpore's (and that every one of MindSpore's is among hookgrad's).
"""
import os

import numpy as np
import mindspore.dataset as ds
import mindspore.dataset.vision as vision
from mindspore.dataset.vision import AutoAugmentPolicy, Inter

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'augment_mindspore.npz')
FILL = (10, 20, 30)
AUTO_RUNS = 20000      # enough that every combination of a sub-policy comes up


def image():
    img = np.random.default_rng(0).integers(0, 256, (10, 12, 3)).astype(np.uint8)
    img[:, :4] //= 3
    return img


def distinct(img, op, rows):
    data = ds.NumpySlicesDataset({'image': np.repeat(img[None], rows, 0)}, shuffle=False)
    data = data.map(op, input_columns='image', num_parallel_workers=1)
    outs = {}
    for (out,) in data.create_tuple_iterator(output_numpy=True):
        outs[out.tobytes()] = out
    return np.stack([outs[k] for k in sorted(outs)])


def main():
    ds.config.set_seed(1)
    img = image()
    configs = {
        'rand': (vision.RandAugment(num_ops=1, magnitude=9), 3000),
        'rand_cubic_fill': (vision.RandAugment(num_ops=1, magnitude=20,
                                               interpolation=Inter.BICUBIC, fill_value=FILL),
                            3000),
        'wide': (vision.TrivialAugmentWide(num_magnitude_bins=2), 3000),
        'wide_linear_fill': (vision.TrivialAugmentWide(num_magnitude_bins=2,
                                                       interpolation=Inter.BILINEAR,
                                                       fill_value=FILL), 3000),
        'auto_imagenet': (vision.AutoAugment(AutoAugmentPolicy.IMAGENET), AUTO_RUNS),
        'auto_cifar10': (vision.AutoAugment(AutoAugmentPolicy.CIFAR10), AUTO_RUNS),
        'auto_svhn': (vision.AutoAugment(AutoAugmentPolicy.SVHN), AUTO_RUNS),
        'auto_imagenet_linear_fill': (vision.AutoAugment(AutoAugmentPolicy.IMAGENET,
                                                         Inter.BILINEAR, FILL), AUTO_RUNS),
    }
    arrays = {'image': img}
    for name, (op, rows) in configs.items():
        arrays[name] = distinct(img, op, rows)
        print(name, len(arrays[name]))
    np.savez_compressed(OUT, **arrays)


if __name__ == '__main__':
    main()
