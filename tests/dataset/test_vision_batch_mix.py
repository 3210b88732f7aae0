"""MixUpBatch and CutMixBatch: what they compute for a given draw (pixels and labels mixed in
the same proportion, MindSpore's box rule), repeatability under ``ms.set_seed``, use in a
pipeline after ``batch``, and MindSpore's argument and input errors."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds
import hookgrad.dataset.vision as vision
from hookgrad.dataset.vision import ImageBatchFormat

VALUES = np.array([0, 60, 120, 240], np.uint8)


def _batch(nchw=False, dtype=np.uint8):
    images = np.broadcast_to(VALUES[:, None, None, None], (4, 5, 6, 3)).astype(dtype)
    if nchw:
        images = np.ascontiguousarray(images.transpose(0, 3, 1, 2))
    return images, np.eye(4, dtype=np.int32)


def test_mixup_batch_mixes_pixels_and_labels_alike():
    images, labels = _batch(dtype=np.float32)
    ms.set_seed(1)
    for _ in range(5):
        out, mixed = vision.MixUpBatch(alpha=0.7)(images, labels)
        assert out.dtype == np.float32 and mixed.dtype == np.float32
        assert np.allclose(mixed.sum(axis=1), 1)
        for i in range(4):
            partner = int(np.argmax(np.where(np.arange(4) == i, -1, mixed[i]))) \
                if mixed[i, i] < 1 else i
            lam = mixed[i, i] if partner != i else 1.0
            np.testing.assert_allclose(out[i], lam * VALUES[i] + (1 - lam) * VALUES[partner],
                                       rtol=1e-5)


def test_mixup_batch_uint8_rounds_and_repeats():
    images, labels = _batch()
    ms.set_seed(2)
    first = vision.MixUpBatch()(images, labels)
    ms.set_seed(2)
    again = vision.MixUpBatch()(images, labels)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    out, mixed = first
    assert out.dtype == np.uint8
    expected = mixed.astype(np.float64) @ VALUES.astype(np.float64)
    assert np.abs(out[:, 0, 0, 0] - expected).max() <= 0.5 + 1e-3


@pytest.mark.parametrize('nchw', [False, True])
def test_cutmix_batch_pastes_a_box_and_weights_labels_by_area(nchw):
    images, labels = _batch(nchw)
    fmt = ImageBatchFormat.NCHW if nchw else ImageBatchFormat.NHWC
    ms.set_seed(3)
    for _ in range(10):
        out, mixed = vision.CutMixBatch(fmt)(images, labels)
        planes = out[:, 0] if nchw else out[..., 0]
        for i in range(4):
            own = planes[i] == VALUES[i]
            assert np.isclose(mixed[i, i], own.mean()) or mixed[i, i] == 1
            pasted = ~own
            if pasted.any():
                rows, cols = np.nonzero(pasted)
                assert pasted[rows.min():rows.max() + 1, cols.min():cols.max() + 1].all()
                # MindSpore's box: at most (size - 1) on each side
                assert rows.max() - rows.min() < 4 and cols.max() - cols.min() < 5
                other = int(np.flatnonzero(VALUES == planes[i][pasted][0])[0])
                assert np.isclose(mixed[i, other], pasted.mean())


def test_cutmix_batch_probability_zero_keeps_the_batch():
    images, labels = _batch()
    out, mixed = vision.CutMixBatch(ImageBatchFormat.NHWC, prob=0.0)(images, labels)
    assert np.array_equal(out, images) and np.array_equal(mixed, labels.astype(np.float32))


def test_in_a_pipeline_after_batch():
    images, labels = _batch()
    data = ds.NumpySlicesDataset({'image': images, 'label': labels}, shuffle=False).batch(4)
    data = data.map(vision.MixUpBatch(), input_columns=['image', 'label'])
    ms.set_seed(4)
    image, label = next(data.create_tuple_iterator(output_numpy=True))
    assert image.shape == images.shape and label.dtype == np.float32


def test_errors_as_mindspore():
    images, labels = _batch()
    with pytest.raises(ValueError, match="Input alpha must be greater than 0"):
        vision.MixUpBatch(0)
    with pytest.raises(TypeError, match="Argument image_batch_format with value NHWC is not of "
                                        "type"):
        vision.CutMixBatch('NHWC')
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0, 1\]"):
        vision.CutMixBatch(ImageBatchFormat.NHWC, prob=2)
    with pytest.raises(RuntimeError, match="MixUpBatch: rank of image shape should be: 4, but got:"
                                           " 3"):
        vision.MixUpBatch()(images[0], labels)
    with pytest.raises(RuntimeError, match="MixUpBatch: wrong labels shape"):
        vision.MixUpBatch()(images, np.arange(4))
    with pytest.raises(RuntimeError, match="CutMixBatch: input image is not in shape of "
                                           r"<B,H,W,C> or <B,C,H,W>, but got dimension: 3\. You "
                                           "may need to perform Batch first"):
        vision.CutMixBatch(ImageBatchFormat.NHWC)(images[0], labels)
    with pytest.raises(RuntimeError, match="CutMixBatch: input image is not in channel of 1 or 3, "
                                           "but got channel: 5"):
        vision.CutMixBatch(ImageBatchFormat.NCHW)(images, labels)
    with pytest.raises(RuntimeError, match="CutMixBatch: batch sizes of image and label must be "
                                           "the same"):
        vision.CutMixBatch(ImageBatchFormat.NHWC)(images, labels[:2])
