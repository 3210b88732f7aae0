"""Record MindSpore 2.10's ConvertColor outputs for every ConvertMode for
tests/dataset/fixtures/convert_color_mindspore.npz. Run it with a Python that has MindSpore:

    python tools/mindspore_convert_color_outputs.py

Inputs: 'u8-3' (7, 9, 3), 'u8-4' (7, 9, 4) and 'u8-1' (7, 9) uint8 images and their float32
versions in [0, 1] ('f32-3', 'f32-4', 'f32-1'). Per case ``<mode>-<input>`` the file keeps
MindSpore's output.
"""
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'convert_color_mindspore.npz')

MODES = {   # mode name: channels of its input
    'COLOR_BGR2BGRA': 3, 'COLOR_BGRA2BGR': 4, 'COLOR_BGR2RGBA': 3, 'COLOR_RGBA2BGR': 4,
    'COLOR_BGR2RGB': 3, 'COLOR_BGRA2RGBA': 4, 'COLOR_BGR2GRAY': 3, 'COLOR_RGB2GRAY': 3,
    'COLOR_GRAY2BGR': 1, 'COLOR_GRAY2BGRA': 1, 'COLOR_BGRA2GRAY': 4, 'COLOR_RGBA2GRAY': 4,
}


def inputs():
    rng = np.random.default_rng(0)
    u8 = rng.integers(0, 256, (7, 9, 4)).astype(np.uint8)
    f32 = rng.random((7, 9, 4)).astype(np.float32)
    return {'u8-4': u8, 'u8-3': u8[..., :3].copy(), 'u8-1': u8[..., 0].copy(),
            'f32-4': f32, 'f32-3': f32[..., :3].copy(), 'f32-1': f32[..., 0].copy()}


def main():
    import mindspore.dataset.vision as vision     # here: the tests read MODES without it
    images = inputs()
    arrays = {f'input-{k}': v for k, v in images.items()}
    for mode, channels in MODES.items():
        op = vision.ConvertColor(getattr(vision.ConvertMode, mode))
        for kind in ('u8', 'f32'):
            arrays[f'{mode}-{kind}'] = op(images[f'{kind}-{channels}'])
    np.savez_compressed(OUT, **arrays)
    print(len(arrays), 'arrays')


if __name__ == '__main__':
    main()
