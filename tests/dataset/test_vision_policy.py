"""MixUp (MindSpore's Python batch transform), UniformAugment and RandomSelectSubpolicy: what
they compute for a draw, probabilities 0 and 1, repeatability under ``ms.set_seed`` and
MindSpore's argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad.dataset import vision

IMG = np.random.default_rng(0).integers(0, 256, (5, 6, 3)).astype(np.uint8)


def _batch():
    images = np.broadcast_to(np.array([0., 60., 120., 240.])[:, None, None, None], (4, 2, 3, 3))
    return images.copy(), np.eye(4)


def test_mixup_single_mixes_each_sample_with_the_next():
    images, labels = _batch()
    ms.set_seed(1)
    out, mixed = vision.MixUp(4, 0.4)(images, labels)
    assert out.dtype == np.float64 and mixed.shape == (4, 4)
    lam = mixed[np.arange(4), np.arange(4)]
    nxt = [1, 2, 3, 0]
    np.testing.assert_allclose(mixed[np.arange(4), nxt], 1 - lam)
    np.testing.assert_allclose(out[:, 0, 0, 0], lam * images[:, 0, 0, 0]
                               + (1 - lam) * images[nxt, 0, 0, 0])
    ms.set_seed(1)
    again = vision.MixUp(4, 0.4)(images, labels)
    np.testing.assert_array_equal(again[0], out)


def test_mixup_across_batches_keeps_the_first_and_mixes_with_the_previous_output():
    images, labels = _batch()
    op = vision.MixUp(4, 0.5, is_single=False)
    first = op(images, labels)
    np.testing.assert_array_equal(first[0], images)
    np.testing.assert_array_equal(first[1], labels)
    second_images, second_labels = images + 1, np.eye(4)[[1, 2, 3, 0]]
    out, mixed = op(second_images, second_labels)
    lam = mixed[np.arange(4), [1, 2, 3, 0]]
    np.testing.assert_allclose(mixed.diagonal(), 1 - lam)
    np.testing.assert_allclose(out[:, 0, 0, 0], lam * second_images[:, 0, 0, 0]
                               + (1 - lam) * images[:, 0, 0, 0])


def test_mixup_errors():
    with pytest.raises(ValueError, match=r'Input is not within the required interval of '
                                         r'\[1, 16777216\]'):
        vision.MixUp(0, 0.2)
    with pytest.raises(ValueError, match='Input alpha must be greater than 0.'):
        vision.MixUp(2, 0)
    with pytest.raises(TypeError, match='Argument is_single with value 1'):
        vision.MixUp(2, 0.2, 1)
    with pytest.raises(TypeError, match='Argument batch_size with value 2.0'):
        vision.MixUp(2.0, 0.2)


def test_uniform_augment_applies_picked_ops_half_the_time():
    ms.set_seed(0)
    op = vision.UniformAugment([vision.Invert()], num_ops=1)
    inverted = sum(np.array_equal(op(IMG), 255 - IMG) for _ in range(400))
    assert 150 < inverted < 250
    op = vision.UniformAugment([vision.Invert(), vision.HorizontalFlip(), vision.VerticalFlip()])
    ms.set_seed(4)
    first = [op(IMG) for _ in range(10)]
    ms.set_seed(4)
    assert all(np.array_equal(a, op(IMG)) for a in first)


def test_uniform_augment_errors():
    with pytest.raises(ValueError, match='num_ops is greater than transforms list size.'):
        vision.UniformAugment([vision.Invert()], 2)
    with pytest.raises(ValueError, match='Input num_ops must be greater than 0.'):
        vision.UniformAugment([vision.Invert()], 0)
    with pytest.raises(TypeError, match=r'transforms\[0\] is neither a transforms op'):
        vision.UniformAugment([1], 1)
    with pytest.raises(ValueError, match='It may be missing parentheses for instantiation'):
        vision.UniformAugment([vision.Invert], 1)


def test_random_select_subpolicy_probabilities_and_choice():
    ms.set_seed(0)
    op = vision.RandomSelectSubpolicy([[(vision.Invert(), 1), (vision.HorizontalFlip(), 0)]])
    np.testing.assert_array_equal(op(IMG), 255 - IMG)
    op = vision.RandomSelectSubpolicy([[(vision.Invert(), 1)], [(vision.VerticalFlip(), 1.0)]])
    outs = {op(IMG).tobytes() for _ in range(40)}
    assert outs == {(255 - IMG).tobytes(), IMG[::-1].tobytes()}


def test_random_select_subpolicy_errors():
    with pytest.raises(ValueError, match='policy can not be empty.'):
        vision.RandomSelectSubpolicy([])
    with pytest.raises(ValueError, match=r'policy\[0\] can not be empty.'):
        vision.RandomSelectSubpolicy([[]])
    with pytest.raises(ValueError, match=r'Value policy\[0\]\[0\] needs to be a 2-tuple.'):
        vision.RandomSelectSubpolicy([[vision.Invert()]])
    with pytest.raises(ValueError, match=r'Input prob of \(op, prob\) policy\[0\]\[0\] is not '
                                         r'within the required interval of \[0, 1\]'):
        vision.RandomSelectSubpolicy([[(vision.Invert(), 2)]])
