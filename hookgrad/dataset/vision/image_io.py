"""Image files and encoded images (MindSpore's ``read_file``, ``write_file``, ``read_image``,
``write_jpeg``, ``write_png``, ``encode_jpeg`` and ``encode_png`` of ``vision.utils``).

Encoded data is a 1-D uint8 array; images are uint8 (H, W) or (H, W, 1 or 3) arrays (or
hookgrad Tensors). Encoding and decoding go through Pillow (libjpeg and zlib), so PNG round
trips are exact and JPEG results decode to nearly the image MindSpore's OpenCV encoder gives.
"""
import io
import os

import numpy as np
from PIL import Image

from ..._tensor import Tensor
from .utils import ImageReadMode

__all__ = ['read_file', 'write_file', 'read_image', 'write_jpeg', 'write_png', 'encode_jpeg',
           'encode_png']


def _filename(filename):
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    return filename


def _array(value, name, article=''):
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, np.ndarray):
        return value
    raise TypeError(f"{article}Input {name} is not of type {np.ndarray} or {Tensor}, but got: "
                    f"{type(value)}.")


def _existing(filename, who):
    if not os.path.exists(filename):
        raise RuntimeError(f"{who}: Invalid file path, {filename} does not exist.")
    if not os.path.isfile(filename):
        raise RuntimeError(f"{who}: Invalid file path, {filename} is not a regular file.")


def read_file(filename):
    """The bytes of a file as a 1-D uint8 array."""
    _existing(_filename(filename), 'ReadFile')
    with open(filename, 'rb') as f:
        return np.frombuffer(f.read(), np.uint8).copy()


def write_file(filename, data):
    """Write a 1-D uint8 array (or Tensor) to a file, as its bytes."""
    _filename(filename)
    data = _array(data, 'data')
    if data.dtype != np.uint8:
        raise RuntimeError(f"WriteFile: The type of the elements of data should be UINT8, but "
                           f"got {data.dtype}.")
    if data.ndim != 1:
        raise RuntimeError(f"WriteFile: The data has invalid dimensions. It should have only one "
                           f"dimension, but got {data.ndim} dimensions.")
    _write(filename, data)


def read_image(filename, mode=ImageReadMode.UNCHANGED):
    """Decode an image file (JPEG, PNG, BMP, TIFF) to uint8 (H, W, C).

    Args:
        filename: the path.
        mode: an ``ImageReadMode``: UNCHANGED gives one channel for a grey image and three
            (RGB, any alpha dropped) otherwise, GRAYSCALE one channel (ITU-R 601 luma, rounded
            as the JPEG and PNG decoders MindSpore uses round it), COLOR three RGB channels.

    Raises:
        RuntimeError: for a missing file, a directory or data that does not decode.
    """
    _filename(filename)
    if not isinstance(mode, ImageReadMode):
        raise TypeError(f"Input mode is not of type {ImageReadMode}, but got: {type(mode)}.")
    _existing(filename, 'ReadImage')
    try:
        img = Image.open(filename)
        if mode == ImageReadMode.GRAYSCALE and img.format == 'JPEG':
            img.draft('L', img.size)
        img.load()
    except Exception:
        raise RuntimeError(f"ReadImage: Failed to read file {filename}") from None
    grey = img.getbands()[0] in ('L', 'I', 'F', '1') and img.mode != 'P'
    if mode == ImageReadMode.GRAYSCALE and img.format == 'PNG' and not grey:
        out = _png_luma(np.asarray(img.convert('RGB')))
    elif mode == ImageReadMode.GRAYSCALE or (mode == ImageReadMode.UNCHANGED and grey):
        out = np.asarray(img.convert('L'))
    else:
        out = np.asarray(img.convert('RGB'))
    return (out[..., None] if out.ndim == 2 else out).copy()


def _png_luma(rgb):
    """libpng's grey conversion (what MindSpore's PNG decoder gives): 0.299, 0.587 and the
    rest in 15-bit fixed point, rounded down."""
    weights = np.array([9797, 19234, 3737], np.int64)
    return ((rgb.astype(np.int64) @ weights) >> 15).astype(np.uint8)


def _image(image, who):
    """``image`` as a uint8 (H, W) or (H, W, 3) array for Pillow, with MindSpore's checks."""
    image = _array(image, 'image', 'The ' if who == 'WritePng' else '')
    if image.dtype != np.uint8:
        raise RuntimeError(f"{who}: The type of the image data should be UINT8, but got "
                           f"{image.dtype}.")
    if image.ndim not in (2, 3):
        raise RuntimeError(f"{who}: The image has invalid dimensions. It should have two or "
                           f"three dimensions, but got {image.ndim} dimensions.")
    if image.ndim == 3 and image.shape[2] not in (1, 3):
        raise RuntimeError(f"{who}: The image has invalid channels. It should have 1 or 3 "
                           f"channels, but got {image.shape[2]} channels.")
    return image[..., 0] if image.ndim == 3 and image.shape[2] == 1 else image


def _encode(image, fmt, **options):
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image)).save(buffer, fmt, **options)
    return np.frombuffer(buffer.getvalue(), np.uint8).copy()


def _quality(quality, who):
    if not isinstance(quality, int) or isinstance(quality, bool):
        raise TypeError(f"Input quality is not of type {int}, but got: {type(quality)}.")
    if not 1 <= quality <= 100:
        raise RuntimeError(f"{who}: Invalid quality {quality}, should be in range of [1, 100].")


def _level(level, who):
    if not isinstance(level, int) or isinstance(level, bool):
        raise TypeError(f"Input compression_level is not of type {int}, but got: "
                        f"{type(level)}.")
    if not 0 <= level <= 9:
        raise RuntimeError(f"{who}: Invalid compression_level {level}, should be in range of "
                           f"[0, 9].")


def encode_jpeg(image, quality=75):
    """A uint8 (H, W[, 1 or 3]) RGB or grey image as JPEG data (1-D uint8), at ``quality``
    in [1, 100] (default 75)."""
    _quality(quality, 'EncodeJpeg')
    return _encode(_image(image, 'EncodeJpeg'), 'JPEG', quality=quality)


def encode_png(image, compression_level=6):
    """A uint8 (H, W[, 1 or 3]) RGB or grey image as PNG data (1-D uint8), at
    ``compression_level`` in [0, 9] (default 6)."""
    _level(compression_level, 'EncodePng')
    return _encode(_image(image, 'EncodePng'), 'PNG',
                   compress_level=compression_level)


def write_jpeg(filename, image, quality=75):
    """Write a uint8 RGB or grey image to a JPEG file (see ``encode_jpeg``)."""
    _filename(filename)
    _quality(quality, 'WriteJpeg')
    _write(filename, _encode(_image(image, 'WriteJpeg'), 'JPEG', quality=quality))


def write_png(filename, image, compression_level=6):
    """Write a uint8 RGB or grey image to a PNG file (see ``encode_png``)."""
    _filename(filename)
    _level(compression_level, 'WritePng')
    _write(filename, _encode(_image(image, 'WritePng'), 'PNG', compress_level=compression_level))


def _write(filename, data):
    try:
        with open(filename, 'wb') as f:
            f.write(data.tobytes())
    except OSError as e:
        raise RuntimeError(e.strerror) from None
