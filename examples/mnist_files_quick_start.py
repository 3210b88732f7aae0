"""MindSpore's quick start on MNIST files: MnistDataset, vision and transforms in the data
pipeline, a Dense network trained with value_and_grad, a checkpoint saved and loaded.

The MNIST idx files are written first, from synthetic 28x28 digits (a bright bar whose position
is the label, plus noise), so that the script needs no download; with the real MNIST files in
MNIST_Data/ it runs on them instead. Runs under MindSpore, and unchanged with `hookgrad run`.
"""
import os
import struct
import sys
import tempfile

import numpy as np
import mindspore
from mindspore import nn
from mindspore.dataset import vision, transforms
from mindspore.dataset import MnistDataset


def write_idx(folder, kind, count, rng):
    """``count`` synthetic digits in MNIST's idx format (``kind`` is 'train' or 't10k')."""
    labels = rng.integers(0, 10, count).astype(np.uint8)
    images = rng.integers(0, 60, (count, 28, 28)).astype(np.uint8)
    for i, label in enumerate(labels):
        images[i, 2 + 2 * label:4 + 2 * label, 4:24] = 250
    with open(os.path.join(folder, f"{kind}-images-idx3-ubyte"), 'wb') as f:
        f.write(struct.pack('>IIII', 2051, count, 28, 28) + images.tobytes())
    with open(os.path.join(folder, f"{kind}-labels-idx1-ubyte"), 'wb') as f:
        f.write(struct.pack('>II', 2049, count) + labels.tobytes())


def datapipe(dataset, batch_size):
    image_transforms = [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        vision.HWC2CHW()
    ]
    label_transform = transforms.TypeCast(mindspore.int32)
    dataset = dataset.map(image_transforms, 'image')
    dataset = dataset.map(label_transform, 'label')
    dataset = dataset.batch(batch_size)
    return dataset


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 128),
            nn.ReLU(),
            nn.Dense(128, 10)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def main():
    mindspore.set_seed(1)
    root = tempfile.mkdtemp()
    rng = np.random.default_rng(0)
    for usage, kind, count in (('train', 'train', 512), ('test', 't10k', 128)):
        os.makedirs(os.path.join(root, usage))
        write_idx(os.path.join(root, usage), kind, count, rng)
    train_dataset = datapipe(MnistDataset(os.path.join(root, 'train'), shuffle=True), 64)
    test_dataset = datapipe(MnistDataset(os.path.join(root, 'test'), shuffle=False), 64)
    for image, label in test_dataset.create_tuple_iterator():
        print(f"Shape of image [N, C, H, W]: {image.shape} {image.dtype}")
        print(f"Shape of label: {label.shape} {label.dtype}")
        break

    model = Network()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 1e-1)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    def test(dataset):
        model.set_train(False)
        total, correct = 0, 0
        for data, label in dataset.create_tuple_iterator():
            pred = model(data)
            total += len(data)
            correct += (pred.argmax(1) == label).asnumpy().sum()
        return correct / total

    for epoch in range(3):
        model.set_train()
        for data, label in train_dataset.create_tuple_iterator():
            loss = train_step(data, label)
        print(f"epoch {epoch + 1}: loss {loss.asnumpy():>7f}, test accuracy {test(test_dataset):.3f}")

    path = os.path.join(root, "model.ckpt")
    mindspore.save_checkpoint(model, path)
    param_not_load, _ = mindspore.load_param_into_net(Network(), mindspore.load_checkpoint(path))
    print("parameters not loaded:", param_not_load)
    accuracy = test(test_dataset)
    print(f"final test accuracy {accuracy:.3f}")
    return 0 if accuracy > 0.9 else 1


if __name__ == '__main__':
    sys.exit(main())
