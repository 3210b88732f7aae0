"""MindSpore's quick start, on synthetic data: a Dense network trained with value_and_grad, then
evaluated, saved to a checkpoint and loaded back.

Run with MindSpore, or unchanged on hookgrad: hookgrad run examples/quick_start.py
"""
import numpy as np

import mindspore
from mindspore import nn
from mindspore.dataset import GeneratorDataset

mindspore.set_seed(1)
rng = np.random.default_rng(0)
centers = rng.normal(0, 3, (3, 8)).astype(np.float32)
labels = rng.integers(0, 3, 600).astype(np.int32)
features = (centers[labels] + rng.normal(0, 1, (600, 8))).astype(np.float32)


def create_dataset(start, stop, batch_size=32):
    def source():
        for i in range(start, stop):
            yield features[i], labels[i]
    return GeneratorDataset(source, column_names=['data', 'label'], shuffle=False).batch(batch_size)


train_dataset, test_dataset = create_dataset(0, 480), create_dataset(480, 600)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(8, 32), nn.ReLU(), nn.Dense(32, 32), nn.ReLU(), nn.Dense(32, 3))

    def construct(self, x):
        return self.dense_relu_sequential(x)


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


def test_loop(net, dataset):
    net.set_train(False)
    correct, total = 0, 0
    for data, label in dataset.create_tuple_iterator():
        pred = net(data)
        correct += int((pred.argmax(1) == label).asnumpy().sum())
        total += len(data)
    net.set_train()
    return correct / total


for epoch in range(3):
    model.set_train()
    for data, label in train_dataset.create_tuple_iterator():
        loss = train_step(data, label)
    print(f"epoch {epoch + 1}: loss {loss.asnumpy():.4f}, "
          f"test accuracy {test_loop(model, test_dataset):.3f}")

mindspore.save_checkpoint(model, "quick_start.ckpt")
loaded = Network()
param_not_load, _ = mindspore.load_param_into_net(loaded, mindspore.load_checkpoint("quick_start.ckpt"))
print("parameters not loaded:", param_not_load)
print(f"reloaded test accuracy {test_loop(loaded, test_dataset):.3f}")
