"""Record MindSpore 2.10's outputs of PadToSize, NormalizePad, Erase, FiveCrop, TenCrop,
HsvToRgb, RgbToHsv, ResizedCrop (fixed results) and CutOut (every distinct output of many runs) for
tests/dataset/fixtures/region_mindspore.npz. Run it with a Python that has MindSpore:

    python tools/mindspore_region_outputs.py

Inputs: 'u8' (7, 9, 3) uint8, 'f32' (7, 9, 3) float32 in [0, 1], 'f64' the same as float64,
'g8' (7, 9) uint8, 'chw' the 'u8' image as (3, 7, 9), 'pil' the 'u8' image as a PIL RGB image.
Crops that give several images are kept stacked.
"""
import os

import numpy as np

from mindspore_vision_inputs import inputs as common_inputs
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'region_mindspore.npz')

CASES = {   # name: (constructor, positional arguments, keyword arguments, inputs)
    'PadToSize-a': ('PadToSize', (10,), {}, ('u8', 'f32', 'g8')),
    'PadToSize-b': ('PadToSize', ((8, 14),), {'offset': (1, 3), 'fill_value': (10, 20, 30)},
                    ('u8', 'g8')),
    'PadToSize-c': ('PadToSize', ((12, 12),), {'padding_mode': 'reflect'}, ('u8', 'f32')),
    'PadToSize-d': ('PadToSize', ((9, 13),), {'offset': 2, 'padding_mode': 'symmetric'},
                    ('u8',)),
    'PadToSize-e': ('PadToSize', ((7, 12),), {'padding_mode': 'edge'}, ('u8',)),
    'NormalizePad-a': ('NormalizePad', ((121.0, 115.0, 100.0), (70.0, 68.0, 71.0)), {},
                       ('u8', 'f32')),
    'NormalizePad-b': ('NormalizePad', ((121.0, 115.0, 100.0), (70.0, 68.0, 71.0)),
                       {'dtype': 'float16'}, ('u8',)),
    'NormalizePad-c': ('NormalizePad', ((0.5, 0.4, 0.3), (0.2, 0.25, 0.3)), {'is_hwc': False},
                       ('chw',)),
    'NormalizePad-d': ('NormalizePad', ((100.0,), (50.0,)), {}, ('g8',)),
    'Erase-a': ('Erase', (1, 2, 3, 4), {}, ('u8', 'f32')),
    'Erase-b': ('Erase', (2, 5, 5, 4), {'value': (10.6, 20.2, 200.5)}, ('u8', 'f32')),
    'Erase-c': ('Erase', (0, 0, 2, 2), {'value': 7.5}, ('u8',)),
    'FiveCrop-a': ('FiveCrop', (4,), {}, ('pil',)),
    'FiveCrop-b': ('FiveCrop', ((3, 6),), {}, ('pil',)),
    'TenCrop-a': ('TenCrop', ((4, 5),), {}, ('pil',)),
    'TenCrop-b': ('TenCrop', (3,), {'use_vertical_flip': True}, ('pil',)),
    'RgbToHsv-a': ('RgbToHsv', (), {'is_hwc': True}, ('u8', 'f32', 'f64')),
    'RgbToHsv-b': ('RgbToHsv', (), {}, ('chw',)),
    'HsvToRgb-a': ('HsvToRgb', (), {'is_hwc': True}, ('f32', 'f64')),
    'ResizedCrop-a': ('ResizedCrop', (1, 2, 4, 5, (3, 4)), {'interpolation': 'NEAREST'},
                      ('u8', 'f32', 'g8')),
    'ResizedCrop-b': ('ResizedCrop', (0, 3, 7, 6, 10), {'interpolation': 'NEAREST'}, ('u8',)),
}
CUTOUT = {'CutOut-a': ((3,), {}, 'u8', 3000), 'CutOut-b': ((2,), {'is_hwc': False}, 'chw', 3000),
          'CutOut-c': ((9,), {}, 'g9', 4000)}


def inputs():
    images = common_inputs()
    u8, f32 = images['u8'], images['f32']
    return dict(images, f64=f32.astype(np.float64),
                chw=np.ascontiguousarray(u8.transpose(2, 0, 1)),
                g9=np.full((9, 9, 3), 200, np.uint8))


def convert_enums(kwargs, vision):
    """``kwargs`` with 'padding_mode' and 'interpolation' names as ``vision``'s enums."""
    out = dict(kwargs)
    if 'padding_mode' in out:
        out['padding_mode'] = vision.Border(out['padding_mode'])
    if 'interpolation' in out:
        out['interpolation'] = getattr(vision.Inter, out['interpolation'])
    return out


def main():
    import mindspore.dataset as ds     # here: the tests read CASES without MindSpore
    import mindspore.dataset.vision as vision
    images = inputs()
    arrays = {f'input-{k}': v for k, v in images.items()}
    for case, (name, args, kwargs, keys) in CASES.items():
        kwargs = convert_enums(kwargs, vision)
        for key in keys:
            img = Image.fromarray(images['u8'], 'RGB') if key == 'pil' else images[key]
            out = getattr(vision, name)(*args, **kwargs)(img)
            if isinstance(out, tuple):
                out = np.stack([np.asarray(o) for o in out])
            arrays[f'{case}-{key}'] = np.asarray(out)
    ds.config.set_seed(1)
    for case, (args, kwargs, key, runs) in CUTOUT.items():
        data = ds.NumpySlicesDataset({'image': np.repeat(images[key][None], runs, 0)},
                                     shuffle=False)
        data = data.map(vision.CutOut(*args, **kwargs), input_columns='image')
        outs = {o.tobytes(): o for (o,) in data.create_tuple_iterator(output_numpy=True)}
        arrays[case] = np.stack([outs[k] for k in sorted(outs)])
    np.savez_compressed(OUT, **arrays)
    print(len(arrays), 'arrays')


if __name__ == '__main__':
    main()
