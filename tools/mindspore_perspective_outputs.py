"""Record MindSpore 2.10's Perspective outputs for
tests/dataset/fixtures/perspective_mindspore.npz. Run it with a Python that has MindSpore:

    python tools/mindspore_perspective_outputs.py

Inputs: 'u8' (7, 9, 3) uint8, 'f32' (7, 9, 3) float32 in [0, 1], 'g8' (7, 9) uint8 and 'pil'
(the 'u8' image as a PIL RGB image, transformed by Pillow as MindSpore does). Per case
``Perspective-<variant>-<input>`` the file keeps MindSpore's output as an array.
"""
import os

import numpy as np

from mindspore_vision_inputs import inputs
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'perspective_mindspore.npz')

START = [[0, 0], [8, 0], [8, 6], [0, 6]]
CASES = {   # name: (start points, end points, interpolation name, inputs)
    'Perspective-a': (START, [[1, 1], [7, 0], [8, 5], [0, 6]], 'NEAREST', ('u8', 'g8', 'pil')),
    'Perspective-b': (START, [[1, 1], [7, 0], [8, 5], [0, 6]], 'BILINEAR',
                      ('u8', 'f32', 'g8', 'pil')),
    'Perspective-c': (START, [[2, 0], [8, 1], [6, 6], [0, 4]], 'BILINEAR', ('u8', 'f32')),
    'Perspective-d': ([[1, 1], [6, 0], [7, 5], [2, 6]], [[0, 0], [8, 0], [8, 6], [0, 6]],
                      'NEAREST', ('u8', 'f32')),
    'Perspective-e': (START, [[0, 2], [6, 0], [8, 6], [2, 5]], 'BICUBIC', ('pil',)),
}


def main():
    import mindspore.dataset.vision as vision     # here: the tests read CASES without it
    images = inputs()
    arrays = {f'input-{k}': v for k, v in images.items()}
    for case, (start, end, inter, keys) in CASES.items():
        op = vision.Perspective(start, end, getattr(vision.Inter, inter))
        for key in keys:
            img = Image.fromarray(images['u8'], 'RGB') if key == 'pil' else images[key]
            arrays[f'{case}-{key}'] = np.asarray(op(img))
    np.savez_compressed(OUT, **arrays)
    print(len(arrays), 'arrays')


if __name__ == '__main__':
    main()
