"""Record MindSpore 2.10's outputs of the deterministic colour and filter transforms
(AdjustBrightness ... Solarize, GaussianBlur, Grayscale, and RandomColor and RandomSharpness
with one-point ranges) for tests/dataset/fixtures/color_mindspore.npz. Run it with a Python
that has MindSpore:

    python tools/mindspore_color_outputs.py

Inputs are small fixed images: 'u8' (7, 9, 3) uint8, 'f32' (7, 9, 3) float32 in [0, 1], 'g8'
(7, 9) uint8 and 'pil' (the 'u8' image as a PIL RGB image). The file keeps the inputs and, per
case ``<transform>-<variant>-<input>``, MindSpore's output as an array.
"""
import os

import numpy as np

from mindspore_vision_inputs import inputs
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'color_mindspore.npz')

CASES = {   # name: (constructor, arguments, inputs)
    'AdjustBrightness-a': ('AdjustBrightness', (1.3,), ('u8', 'f32', 'g8', 'pil')),
    'AdjustBrightness-b': ('AdjustBrightness', (0.4,), ('u8', 'pil')),
    'AdjustContrast-a': ('AdjustContrast', (0.6,), ('u8', 'f32', 'pil')),
    'AdjustContrast-b': ('AdjustContrast', (2.5,), ('u8', 'pil')),
    'AdjustSaturation-a': ('AdjustSaturation', (1.7,), ('u8', 'f32', 'pil')),
    'AdjustSaturation-b': ('AdjustSaturation', (0.3,), ('u8', 'pil')),
    'AdjustHue-a': ('AdjustHue', (0.2,), ('u8', 'pil')),
    'AdjustHue-b': ('AdjustHue', (-0.45,), ('u8', 'pil')),
    'AdjustGamma-a': ('AdjustGamma', (0.7, 1.1), ('u8', 'f32', 'g8', 'pil')),
    'AdjustGamma-b': ('AdjustGamma', (2.2,), ('u8', 'f32', 'pil')),
    'AdjustSharpness-a': ('AdjustSharpness', (1.8,), ('u8', 'f32', 'g8')),
    'AdjustSharpness-b': ('AdjustSharpness', (0.2,), ('u8', 'f32')),
    'AutoContrast-a': ('AutoContrast', (), ('u8', 'g8', 'pil')),
    'AutoContrast-b': ('AutoContrast', (10.0, [3, 7]), ('u8', 'g8', 'pil')),
    'AutoContrast-c': ('AutoContrast', (2.5, 200), ('u8', 'pil')),
    'Equalize-a': ('Equalize', (), ('u8', 'g8', 'pil')),
    'Invert-a': ('Invert', (), ('u8', 'f32', 'pil')),
    'Posterize-a': ('Posterize', (3,), ('u8', 'g8')),
    'Posterize-b': ('Posterize', (0,), ('u8',)),
    'Solarize-a': ('Solarize', (100,), ('u8', 'f32', 'g8')),
    'Solarize-b': ('Solarize', ((50, 150),), ('u8', 'g8')),
    'Solarize-c': ('Solarize', ((0.2, 0.6),), ('f32',)),
    'GaussianBlur-a': ('GaussianBlur', (3, 0.8), ('u8', 'f32', 'g8')),
    'GaussianBlur-b': ('GaussianBlur', ((5, 3),), ('u8', 'f32', 'g8')),
    'GaussianBlur-c': ('GaussianBlur', ((3, 7), (1.5, 0.6)), ('u8', 'f32')),
    'GaussianBlur-d': ('GaussianBlur', ((5, 3), (0, 0)), ('u8',)),
    'GaussianBlur-e': ('GaussianBlur', ((5, 3), (1.0, 0)), ('u8',)),
    'GaussianBlur-f': ('GaussianBlur', (7,), ('u8', 'f32')),
    'RandomColor-a': ('RandomColor', ((1.7, 1.7),), ('u8', 'f32', 'pil')),
    'RandomColor-b': ('RandomColor', ((0.3, 0.3),), ('u8', 'pil')),
    'RandomSharpness-a': ('RandomSharpness', ((1.8, 1.8),), ('u8', 'f32', 'pil')),
    'RandomSharpness-b': ('RandomSharpness', ((0.2, 0.2),), ('u8', 'pil')),
    'Grayscale-a': ('Grayscale', (), ('pil',)),
    'Grayscale-b': ('Grayscale', (3,), ('pil',)),
}


def main():
    import mindspore.dataset.vision as vision     # here: the tests read CASES without it
    images = inputs()
    arrays = {f'input-{k}': v for k, v in images.items()}
    for case, (name, args, keys) in CASES.items():
        for key in keys:
            img = Image.fromarray(images['u8'], 'RGB') if key == 'pil' else images[key]
            arrays[f'{case}-{key}'] = np.asarray(getattr(vision, name)(*args)(img))
    np.savez_compressed(OUT, **arrays)
    print(len(arrays), 'arrays')


if __name__ == '__main__':
    main()
