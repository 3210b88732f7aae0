"""Batch mixing augmentations (MindSpore's ``vision.MixUpBatch`` and ``vision.CutMixBatch``).

Both take two columns, a batch of images (N, H, W, C) or (N, C, H, W) and its one-hot labels
(N, classes) or (N, rows, classes), and pair every image with one of a random permutation of
the batch. Labels come back as float32 mixed in the same proportion as the pixels. Mixing
weights are Beta(alpha, alpha) draws, made as MindSpore does from two Gamma(alpha, 1) draws;
the draws come from ``row_generator()``, so ``ms.set_seed`` makes them repeat.
"""
import numpy as np

from ..engine import row_generator
from ..transforms import _checks
from ..transforms.transforms import PyTensorOperation, TensorOperation
from . import _enhance, _resize
from .utils import ImageBatchFormat

__all__ = ['MixUpBatch', 'CutMixBatch', 'MixUp']


def _alpha(alpha):
    _checks.type_check(alpha, (int, float), 'alpha')
    if alpha <= 0:
        raise ValueError("Input alpha must be greater than 0.")
    return alpha


def _beta(rng, alpha):
    """lam = x1 / (x1 + x2) with x1, x2 ~ Gamma(alpha, 1), in float32."""
    x1, x2 = np.float32(rng.gamma(alpha)), np.float32(rng.gamma(alpha))
    return np.float32(x1 / (x1 + x2))


def _mix_labels(labels, partner, lam):
    """``lam * labels + (1 - lam) * labels[partner]`` in float32, per sample."""
    x = labels.astype(np.float32)
    lam = np.asarray(lam, np.float32).reshape((-1,) + (1,) * (x.ndim - 1))
    return (lam * x + (np.float32(1) - lam) * x[partner]).astype(np.float32)


def _check_labels(labels, who):
    if labels.dtype.kind not in 'biufV':
        raise RuntimeError(f"{who}: invalid label type, label must be in a numeric type, but got: "
                           f"{labels.dtype}. You may need to perform OneHot first.")


class MixUpBatch(TensorOperation):
    """MixUp (Zhang et al., 2018) on a batch: every image becomes ``lam * image + (1 - lam) *
    partner`` with one ``lam`` ~ Beta(alpha, alpha) for the batch (uint8 blended as OpenCV's
    addWeighted), and its label likewise.

    Args:
        alpha: the Beta distribution's parameter, > 0. Default 1.0.
    """

    _one_to_one = False

    def __init__(self, alpha=1.0):
        self.alpha = _alpha(alpha)

    def _apply(self, *columns):
        if len(columns) < 2:
            raise RuntimeError(f"MixUpBatch: size of input data should be 2 (including images or "
                               f"labels), but got: {len(columns)}, check 'input_columns' when "
                               f"call this operator.")
        images, labels = columns[:2]
        if images.ndim != 4 or images.shape[0] != labels.shape[0]:
            raise RuntimeError(f"MixUpBatch: rank of image shape should be: 4, but got: "
                               f"{images.ndim}, make sure image shape are <H,W,C> or <C,H,W> and "
                               f"batched before calling MixUpBatch.")
        _check_labels(labels, 'MixUpBatch')
        if labels.ndim not in (2, 3):
            raise RuntimeError(f"MixUpBatch: wrong labels shape. The second column (labels) must "
                               f"have a shape of NC or NLC where N is the batch size, L is the "
                               f"number of labels in each row, and C is the number of classes. "
                               f"labels must be in one-hot format and in a batch, but got rank: "
                               f"{labels.ndim}")
        if images.shape[1] not in (1, 3) and images.shape[3] not in (1, 3):
            raise RuntimeError(f"MixUpBatch: images shape should in <N,H,W,C> or <N,C,H,W>, got "
                               f"shape:<{','.join(map(str, images.shape))}>")
        rng = row_generator()
        lam = _beta(rng, self.alpha)
        partner = rng.permutation(images.shape[0])
        if images.dtype == np.uint8:
            mixed = _enhance.add_weighted(images, lam, images[partner], np.float32(1) - lam)
        else:
            f32 = images.astype(np.float32)
            mixed = _resize._cast(f32 * lam + f32[partner] * (np.float32(1) - lam), images.dtype)
        return mixed, _mix_labels(labels, partner, lam)


class CutMixBatch(TensorOperation):
    """CutMix (Yun et al., 2019) on a batch: with probability ``prob`` per image, a box of a
    partner image (side ratio sqrt(1 - lam), lam ~ Beta(alpha, alpha), centred at a random
    point and clipped) is pasted in, and the label is mixed by the pasted area.

    Args:
        image_batch_format: an ``ImageBatchFormat``: NHWC or NCHW.
        alpha: the Beta distribution's parameter, > 0. Default 1.0.
        prob: probability of mixing each image, in [0, 1]. Default 1.0.
    """

    _one_to_one = False

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        _checks.type_check(image_batch_format, (ImageBatchFormat,), 'image_batch_format')
        _checks.type_check(alpha, (int, float), 'alpha')
        _checks.type_check(prob, (int, float), 'prob')
        self.alpha = _alpha(alpha)
        _checks.in_range(prob, 0, 1, 'prob')
        self.image_batch_format, self.prob = image_batch_format, prob

    def _check(self, columns):
        if len(columns) < 2:
            raise RuntimeError(f"CutMixBatch: invalid input size, input should have 2 columns "
                               f"(image and label), but got: {len(columns)}")
        images, labels = columns[:2]
        if images.ndim != 4:
            extra = ". You may need to perform Batch first." if images.ndim == 3 else ""
            raise RuntimeError(f"CutMixBatch: input image is not in shape of <B,H,W,C> or "
                               f"<B,C,H,W>, but got dimension: {images.ndim}{extra}")
        channels = images.shape[1 if self.image_batch_format == ImageBatchFormat.NCHW else 3]
        if channels not in (1, 3):
            raise RuntimeError(f"CutMixBatch: input image is not in channel of 1 or 3, but got "
                               f"channel: {channels}")
        _check_labels(labels, 'CutMixBatch')
        if labels.ndim not in (2, 3):
            raise RuntimeError(f"CutMixBatch: input label is not in shape of <Batch,Class> or "
                               f"<Batch,Row,Class>, but got dimension: {labels.ndim}. You may "
                               f"need to perform OneHot and Batch first.")
        if images.shape[0] != labels.shape[0]:
            raise RuntimeError(f"CutMixBatch: batch sizes of image and label must be the same, "
                               f"but got image size: {images.shape[0]} and label size: "
                               f"{labels.shape[0]}")
        return images, labels

    @staticmethod
    def _box(rng, height, width, lam):
        """(top, left, box height, box width) as MindSpore's GetCropBox."""
        cut_ratio = np.sqrt(np.float32(1) - lam, dtype=np.float32)
        cut_w = int(np.float32(width) * cut_ratio)
        cut_h = int(np.float32(height) * cut_ratio)
        cx, cy = int(rng.integers(0, width + 1)), int(rng.integers(0, height + 1))
        x = min(max(cx - cut_w // 2, 0), width - 1)
        y = min(max(cy - cut_h // 2, 0), height - 1)
        x2 = min(max(cx + cut_w // 2, 0), width - 1)
        y2 = min(max(cy + cut_h // 2, 0), height - 1)
        return y, x, min(max(y2 - y, 1), height - 1), min(max(x2 - x, 1), width - 1)

    def _apply(self, *columns):
        images, labels = self._check(columns)
        nchw = self.image_batch_format == ImageBatchFormat.NCHW
        height, width = images.shape[2:4] if nchw else images.shape[1:3]
        rng = row_generator()
        partner = rng.permutation(images.shape[0])
        out = images.copy()
        label_lam = np.ones(images.shape[0], np.float32)
        for i, j in enumerate(partner):
            lam = _beta(rng, self.alpha)
            if not rng.random() < self.prob:
                continue
            top, left, h, w = self._box(rng, height, width, lam)
            if nchw:
                out[i, :, top:top + h, left:left + w] = images[j, :, top:top + h, left:left + w]
            else:
                out[i, top:top + h, left:left + w] = images[j, top:top + h, left:left + w]
            label_lam[i] = np.float32(1) - np.float32(h * w) / np.float32(height * width)
        mixed = labels.astype(np.float32)
        lam = label_lam.reshape((-1,) + (1,) * (labels.ndim - 1))
        return out, (lam * mixed + (np.float32(1) - lam) * mixed[partner]).astype(np.float32)


class MixUp(PyTensorOperation):
    """MixUp as MindSpore's Python transform, on a batch of images (N, H, W, C) and one-hot
    labels (N, classes): per sample a weight ``lam`` ~ Beta(alpha, alpha) is drawn and the
    image and label become ``lam * own + (1 - lam) * other``, computed in float64.

    With ``is_single`` the other sample is the next one of the batch (the last pairs with the
    first); otherwise it is the previous call's output (the first call keeps its inputs).

    Args:
        batch_size: the number of images in a batch, >= 1.
        alpha: the Beta distribution's parameter, > 0.
        is_single: mix within the batch (True, default) or with the previous batch.
    """

    _one_to_one = False

    def __init__(self, batch_size, alpha, is_single=True):
        _checks.type_check(is_single, (bool,), 'is_single')
        _checks.type_check(batch_size, (int,), 'batch_size')
        _checks.type_check(alpha, (int, float), 'alpha')
        _checks.in_range(batch_size, 1, _checks.SIZE_MAX)
        if alpha <= 0:
            raise ValueError("Input alpha must be greater than 0.")
        self.batch_size, self.alpha, self.is_single = batch_size, alpha, is_single
        self._previous = None

    def _apply(self, image, label):
        n = self.batch_size
        lam = row_generator().beta(self.alpha, self.alpha, n)
        if self.is_single:
            shift = list(range(1, n)) + [0]
            other_image, other_label = image[shift, ...], label[shift, ...]
        elif self._previous is None:
            lam = np.ones(n)
            other_image, other_label = 0, 0
        else:
            other_image, other_label = self._previous
        lam_image, lam_label = lam.reshape((n, 1, 1, 1)), lam.reshape((n, 1))
        mixed = (lam_image * image + (1 - lam_image) * other_image,
                 lam_label * label + (1 - lam_label) * other_label)
        if not self.is_single:
            self._previous = mixed
        return mixed
