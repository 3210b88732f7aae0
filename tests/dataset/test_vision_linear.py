"""RandomLighting and LinearTransformation: what they compute, repeatability under
``ms.set_seed`` and MindSpore's argument checks."""
import numpy as np
import pytest
from PIL import Image

import hookgrad as ms
import hookgrad.dataset.vision as vision
from hookgrad.dataset.vision.linear import _PCA

GREY = np.full((4, 5, 3), 128, np.uint8)


def test_random_lighting_adds_one_pca_shift_per_image():
    assert np.array_equal(vision.RandomLighting(0.0)(GREY), GREY)
    op = vision.RandomLighting(0.1)
    ms.set_seed(3)
    shifts = [op(GREY).astype(int) - 128 for _ in range(10)]
    assert all((s == s[0, 0]).all() for s in shifts)
    assert len({tuple(s[0, 0]) for s in shifts}) > 5
    draws = np.linalg.solve(np.array(_PCA), np.array([s[0, 0] for s in shifts]).T)
    assert np.abs(draws[0]).max() < 0.6            # the large-eigenvalue draw, N(0, 0.1)
    ms.set_seed(3)
    assert all(np.array_equal(s, op(GREY).astype(int) - 128) for s in shifts)


def test_random_lighting_rounds_then_clips_arrays_and_truncates_pil():
    op = vision.RandomLighting(2.0)
    img = np.array([[[0, 128, 255]]], np.uint8)
    ms.set_seed(4)
    shift = op.shift()
    ms.set_seed(4)
    expected = np.clip(np.rint(img.astype(np.float32) + shift), 0, 255)
    assert np.array_equal(op(img), expected)
    ms.set_seed(4)
    shift64 = op.shift(np.float64)
    ms.set_seed(4)
    out = op(Image.fromarray(img))
    assert isinstance(out, Image.Image)
    assert np.array_equal(np.asarray(out), np.uint8(np.clip(img + shift64, 0, 255)))


def test_linear_transformation():
    rng = np.random.default_rng(0)
    img = rng.random((3, 2, 2)).astype(np.float32)
    matrix, mean = rng.random((12, 12)), rng.random(12)
    out = vision.LinearTransformation(matrix, mean)(img)
    expected = np.einsum('i,ij->j', img.ravel().astype(np.float64) - mean, matrix)
    assert out.shape == img.shape and out.dtype == np.float64
    np.testing.assert_allclose(out.ravel(), expected, rtol=1e-12)


def test_errors_as_mindspore():
    with pytest.raises(ValueError, match="Input alpha is not within the required interval"):
        vision.RandomLighting(-0.1)
    with pytest.raises(TypeError, match="Argument alpha with value x is not of type"):
        vision.RandomLighting('x')
    with pytest.raises(RuntimeError, match="RandomLighting: input tensor is not in shape of "
                                           "<H,W,C> or channel is not 3"):
        vision.RandomLighting()(GREY[..., 0])
    with pytest.raises(ValueError, match=r"transformation_matrix should be a square matrix. Got "
                                         r"shape \(2, 3\) instead"):
        vision.LinearTransformation(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match="mean_vector length 3 should match"):
        vision.LinearTransformation(np.zeros((2, 2)), np.zeros(3))
    with pytest.raises(TypeError, match="Argument mean_vector with value"):
        vision.LinearTransformation(np.zeros((2, 2)), [0, 0])
    with pytest.raises(ValueError, match=r"transformation_matrix shape \(2, 2\) not compatible "
                                         r"with Numpy image shape"):
        vision.LinearTransformation(np.zeros((2, 2)), np.zeros(2))(np.zeros((3, 1, 1)))
