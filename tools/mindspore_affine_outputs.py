"""Record MindSpore 2.10's Affine outputs for tests/dataset/fixtures/affine_mindspore.npz. Run
it with a Python that has MindSpore:

    python tools/mindspore_affine_outputs.py

Inputs: 'u8' (7, 9, 3) uint8, 'f32' (7, 9, 3) float32 in [0, 1], 'g8' (7, 9) uint8. Per case
``Affine-<variant>-<input>`` the file keeps MindSpore's output.
"""
import os

import numpy as np

from mindspore_vision_inputs import inputs

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'affine_mindspore.npz')

CASES = {   # name: (degrees, translate, scale, shear, resample name, fill_value, inputs)
    'Affine-a': (30.0, (0.0, 0.0), 1.0, 0.0, 'NEAREST', 0, ('u8', 'f32', 'g8')),
    'Affine-b': (-45.0, (0.2, -0.1), 0.8, (10.0, 5.0), 'NEAREST', (10, 20, 30), ('u8', 'g8')),
    'Affine-c': (15.0, (0.1, 0.3), 1.3, 20.0, 'BILINEAR', (10, 20, 30), ('u8', 'f32')),
    'Affine-d': (0.0, (-0.5, 0.5), 1.0, (0.0, -30.0), 'BILINEAR', 0, ('u8', 'g8')),
    'Affine-e': (170.0, (0.0, 0.0), 0.5, (45.0, 45.0), 'NEAREST', 255, ('u8',)),
    'Affine-f': (60.0, (0.05, 0.05), 1.1, 0.0, 'AREA', 0, ('u8',)),
}


def main():
    import mindspore.dataset.vision as vision     # here: the tests read CASES without it
    images = inputs()
    arrays = {f'input-{k}': v for k, v in images.items()}
    for case, (degrees, translate, scale, shear, resample, fill, keys) in CASES.items():
        op = vision.Affine(degrees, translate, scale, shear, getattr(vision.Inter, resample),
                           fill)
        for key in keys:
            arrays[f'{case}-{key}'] = op(images[key])
    np.savez_compressed(OUT, **arrays)
    print(len(arrays), 'arrays')


if __name__ == '__main__':
    main()
