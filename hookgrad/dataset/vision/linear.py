"""Linear colour and pixel transforms (MindSpore's ``vision.RandomLighting`` and
``vision.LinearTransformation``)."""
import numpy as np

from ..engine import row_generator
from ..transforms import _checks
from ..transforms.transforms import PyTensorOperation
from ._base import ImageTensorOperation

__all__ = ['RandomLighting', 'LinearTransformation']

# AlexNet's ImageNet RGB eigenvectors (columns) scaled by their eigenvalues, as in MindSpore
_PCA = ((55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009),
        (55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140),
        (55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203))


class RandomLighting(ImageTensorOperation):
    """AlexNet's PCA lighting noise: add ``pca @ a`` to every RGB pixel, with ``a`` three
    N(0, alpha) draws per image (Krizhevsky et al., 2012).

    NumPy images must be uint8 (H, W, 3): the shift is computed in float32 and the sum rounded
    and clipped, as MindSpore's kernel; PIL images are shifted in float64 and truncated to
    uint8, as MindSpore's Python code.

    Args:
        alpha: the standard deviation of the draws, >= 0. Default 0.05.
    """

    def __init__(self, alpha=0.05):
        _checks.type_check(alpha, (float, int), 'alpha')
        _checks.in_range(alpha, 0, float(np.finfo(np.float32).max), 'alpha')
        self.alpha = alpha

    def shift(self, dtype=np.float32):
        """The per-channel (R, G, B) shift of one image, drawn now."""
        draws = row_generator().normal(0.0, self.alpha, 3) if self.alpha > 0 else np.zeros(3)
        pca = np.asarray(_PCA, dtype)
        draws = draws.astype(dtype)
        return (pca[:, 0] * draws[0] + pca[:, 1] * draws[1] + pca[:, 2] * draws[2]).astype(dtype)

    def _apply(self, img):
        if img.ndim != 3 or img.shape[2] != 3:
            channels = img.shape[2] if img.ndim == 3 else img.shape[-1]
            raise RuntimeError(f"RandomLighting: input tensor is not in shape of <H,W,C> or "
                               f"channel is not 3, got rank: {img.ndim}, and channel: "
                               f"{channels}")
        if img.dtype != np.uint8:
            raise RuntimeError(f"RandomLighting: the data type of image tensor should be uint8, "
                               f"but got {img.dtype}")
        out = img.astype(np.float32) + self.shift()
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)

    def _apply_pil(self, img):
        from PIL import Image
        if img.mode != 'RGB':
            img = img.convert('RGB')
        out = np.asarray(img).astype(np.float64) + self.shift(np.float64)
        return Image.fromarray(np.uint8(np.minimum(np.maximum(out, 0), 255)))


class LinearTransformation(PyTensorOperation):
    """Flatten an image (any shape, usually (C, H, W)), subtract ``mean_vector`` and multiply
    by ``transformation_matrix`` (e.g. ZCA whitening), keeping the shape.

    Args:
        transformation_matrix: a (D, D) array, D the number of values of an image.
        mean_vector: a (D,) array.
    """

    def __init__(self, transformation_matrix, mean_vector):
        _checks.type_check(transformation_matrix, (np.ndarray,), 'transformation_matrix')
        _checks.type_check(mean_vector, (np.ndarray,), 'mean_vector')
        matrix = transformation_matrix
        if matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"transformation_matrix should be a square matrix. Got shape "
                             f"{matrix.shape} instead.")
        if mean_vector.shape[0] != matrix.shape[0]:
            raise ValueError(f"mean_vector length {mean_vector.shape[0]} should match either one "
                             f"dimension of the squaretransformation_matrix {matrix.shape}.")
        self.transformation_matrix, self.mean_vector = matrix, mean_vector

    def __call__(self, img):
        if not isinstance(img, np.ndarray):
            raise TypeError(f"img should be NumPy array. Got {type(img)}")
        matrix = self.transformation_matrix
        if img.size != matrix.shape[0]:
            raise ValueError(f"transformation_matrix shape {matrix.shape} not compatible with "
                             f"Numpy image shape {img.shape}.")
        return np.dot(img.reshape(1, -1) - self.mean_vector, matrix).reshape(img.shape)
