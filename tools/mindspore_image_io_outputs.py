"""Record what MindSpore 2.10's image file functions give for tests/dataset/fixtures/image_io/
(bbox-free small images written by Pillow here: PNGs in several modes, JPEGs, a BMP) into
tests/dataset/fixtures/image_io/mindspore.npz. Run it with a Python that has MindSpore:

    python tools/mindspore_image_io_outputs.py

Per file and ``ImageReadMode`` the npz keeps ``read/<file>/<mode>`` (MindSpore's read_image
result, or ``.../error`` when it raised); per JPEG quality ``jpeg/<q>`` keeps encode_jpeg's
bytes of the 'u8' input image and ``jpeg/<q>/decoded`` their decoding by MindSpore's Decode.
"""
import os

import numpy as np
from PIL import Image

from mindspore_vision_inputs import inputs

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                      'fixtures', 'image_io')
MODES = ('UNCHANGED', 'GRAYSCALE', 'COLOR')
QUALITIES = (1, 50, 75, 100)


def write_files():
    """The fixture image files, from the 'u8' input image."""
    os.makedirs(FOLDER, exist_ok=True)
    u8 = inputs()['u8']
    rgb = Image.fromarray(u8, 'RGB')
    alpha = Image.fromarray(u8[..., 0], 'L')
    files = {'rgb.png': rgb, 'grey.png': rgb.convert('L'), 'rgba.png': rgb.convert('RGBA'),
             'palette.png': rgb.quantize(8), 'rgb.jpg': rgb, 'grey.jpg': rgb.convert('L'),
             'rgb.bmp': rgb}
    files['rgba.png'].putalpha(alpha)
    for name, img in files.items():
        img.save(os.path.join(FOLDER, name))
    with open(os.path.join(FOLDER, 'broken.png'), 'wb') as f:
        f.write(b'not an image')
    return sorted(files) + ['broken.png']


def main():
    import mindspore.dataset.vision as vision     # here: the tests read the names without it
    arrays = {}
    for name in write_files():
        for mode in MODES:
            try:
                arrays[f'read/{name}/{mode}'] = vision.read_image(
                    os.path.join(FOLDER, name), getattr(vision.ImageReadMode, mode))
            except RuntimeError as e:
                arrays[f'read/{name}/{mode}/error'] = np.array(type(e).__name__)
    u8 = inputs()['u8']
    for q in QUALITIES:
        data = vision.encode_jpeg(u8, q)
        arrays[f'jpeg/{q}'], arrays[f'jpeg/{q}/decoded'] = data, vision.Decode()(data)
    np.savez_compressed(os.path.join(FOLDER, 'mindspore.npz'), **arrays)
    print(len(arrays), 'arrays')


if __name__ == '__main__':
    main()
