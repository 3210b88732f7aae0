"""The image file functions against MindSpore 2.10 (tests/dataset/fixtures/image_io, made by
tools/mindspore_image_io_outputs.py): read_image of PNG, JPEG and BMP files in every
ImageReadMode, encode_jpeg's bytes and their decoding, lossless PNG round trips, and
MindSpore's argument and data errors."""
import os
import sys

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.dataset import vision
from hookgrad.dataset.vision import ImageReadMode

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from mindspore_image_io_outputs import MODES, QUALITIES  # noqa: E402
from mindspore_vision_inputs import inputs  # noqa: E402

FOLDER = os.path.join(os.path.dirname(__file__), 'fixtures', 'image_io')
U8 = inputs()['u8']


@pytest.fixture(scope='module')
def recorded():
    with np.load(os.path.join(FOLDER, 'mindspore.npz')) as z:
        return {k: z[k] for k in z.files}


FILES = ['grey.jpg', 'grey.png', 'palette.png', 'rgb.bmp', 'rgb.jpg', 'rgb.png', 'rgba.png']


@pytest.mark.parametrize('name', FILES)
@pytest.mark.parametrize('mode', MODES)
def test_read_image_matches_mindspore(recorded, name, mode):
    out = vision.read_image(os.path.join(FOLDER, name), getattr(ImageReadMode, mode))
    want = recorded[f'read/{name}/{mode}']
    assert out.dtype == np.uint8 and out.shape == want.shape
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize('mode', MODES)
def test_read_image_of_broken_data_fails_as_in_mindspore(recorded, mode):
    assert str(recorded[f'read/broken.png/{mode}/error']) == 'RuntimeError'
    with pytest.raises(RuntimeError, match='ReadImage: Failed to read file .*broken.png'):
        vision.read_image(os.path.join(FOLDER, 'broken.png'), getattr(ImageReadMode, mode))


@pytest.mark.parametrize('quality', QUALITIES)
def test_encode_jpeg_decodes_to_mindspores_image(recorded, quality):
    data = vision.encode_jpeg(U8, quality)
    assert data.dtype == np.uint8 and data.ndim == 1
    decoded = vision.Decode()(data)
    want = recorded[f'jpeg/{quality}/decoded']
    assert decoded.shape == want.shape      # libjpeg builds may differ by a grey level
    assert np.abs(decoded.astype(int) - want).max() <= 2


def test_encode_jpeg_of_a_smooth_image_decodes_close_to_it():
    y, x = np.mgrid[0:32, 0:48]
    smooth = np.stack([x * 5, y * 7, (x + y) * 3], -1).astype(np.uint8)
    for quality, tolerance in ((95, 2), (50, 4)):
        decoded = vision.Decode()(vision.encode_jpeg(smooth, quality))
        assert np.abs(decoded.astype(int) - smooth).mean() < tolerance


def test_encode_jpeg_of_grey_and_tensor_input():
    grey = U8[..., 0]
    for image in (grey, grey[..., None], ms.Tensor(grey)):
        data = vision.encode_jpeg(image, 95)
        assert np.abs(vision.Decode()(data)[..., 0].astype(int) - grey).mean() < 4


@pytest.mark.parametrize('image', [U8, U8[..., 0], U8[..., :1]])
def test_png_round_trips_exactly(tmp_path, image):
    for level in (0, 6, 9):
        data = vision.encode_png(image, level)
        assert bytes(data[:4]) == b'\x89PNG'
        path = str(tmp_path / f'x{level}.png')
        vision.write_png(path, image, level)
        out = vision.read_image(path)
        np.testing.assert_array_equal(out, image if image.ndim == 3 else image[..., None])


def test_write_jpeg_and_files(tmp_path):
    path = str(tmp_path / 'x.jpg')
    vision.write_jpeg(path, U8, 75)
    np.testing.assert_array_equal(vision.read_file(path), vision.encode_jpeg(U8, 75))
    raw = str(tmp_path / 'raw.bin')
    vision.write_file(raw, np.arange(5, dtype=np.uint8))
    np.testing.assert_array_equal(vision.read_file(raw), np.arange(5))


def test_errors(tmp_path):
    with pytest.raises(TypeError, match="Input filename is not of type <class 'str'>"):
        vision.read_file(3)
    with pytest.raises(RuntimeError, match='ReadFile: Invalid file path, /nonexistent does '
                                           'not exist.'):
        vision.read_file('/nonexistent')
    with pytest.raises(RuntimeError, match='is not a regular file'):
        vision.read_file(str(tmp_path))
    with pytest.raises(RuntimeError, match='WriteFile: The type of the elements of data should '
                                           'be UINT8, but got int32.'):
        vision.write_file(str(tmp_path / 'a'), np.arange(5, dtype=np.int32))
    with pytest.raises(RuntimeError, match='It should have only one dimension, but got 2'):
        vision.write_file(str(tmp_path / 'a'), np.zeros((2, 2), np.uint8))
    with pytest.raises(TypeError, match="Input data is not of type <class 'numpy.ndarray'>"):
        vision.write_file(str(tmp_path / 'a'), b'abc')
    with pytest.raises(TypeError, match="Input mode is not of type"):
        vision.read_image(os.path.join(FOLDER, 'rgb.png'), 0)
    with pytest.raises(RuntimeError, match='EncodeJpeg: The image has invalid channels. It '
                                           'should have 1 or 3 channels, but got 4 channels.'):
        vision.encode_jpeg(np.zeros((7, 9, 4), np.uint8))
    with pytest.raises(RuntimeError, match='EncodeJpeg: The type of the image data should be '
                                           'UINT8, but got float32.'):
        vision.encode_jpeg(U8.astype(np.float32))
    with pytest.raises(RuntimeError, match=r'EncodeJpeg: Invalid quality 0, should be in range '
                                           r'of \[1, 100\].'):
        vision.encode_jpeg(U8, 0)
    with pytest.raises(TypeError, match="Input quality is not of type <class 'int'>"):
        vision.encode_jpeg(U8, 1.5)
    with pytest.raises(RuntimeError, match='It should have two or three dimensions, but got 1'):
        vision.encode_jpeg(np.zeros(5, np.uint8))
    with pytest.raises(RuntimeError, match=r'EncodePng: Invalid compression_level 10, should be '
                                           r'in range of \[0, 9\].'):
        vision.encode_png(U8, 10)
    with pytest.raises(RuntimeError, match=r'WriteJpeg: Invalid quality 0'):
        vision.write_jpeg(str(tmp_path / 'a.jpg'), U8, 0)
    with pytest.raises(RuntimeError, match='WritePng: The image has invalid channels'):
        vision.write_png(str(tmp_path / 'a.png'), np.zeros((3, 4, 4), np.uint8))
    with pytest.raises(RuntimeError, match='No such file or directory'):
        vision.write_file('/nonexistent/x.bin', np.arange(5, dtype=np.uint8))
