"""LeNet-5 trained with ``Model`` in graph mode on synthetic 32x32 digits: callbacks, a metric,
checkpoints written during training, and evaluation.

Run with MindSpore, or unchanged on hookgrad: hookgrad run examples/lenet_model.py
"""
import os
import tempfile

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import context, nn
from mindspore.common.initializer import Normal
from mindspore.train import Model, LossMonitor, CheckpointConfig, ModelCheckpoint, Accuracy

context.set_context(mode=context.GRAPH_MODE)
ms.set_seed(2)


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def synthetic_digits(n, seed):
    """Images of a bright square whose position is the class."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, n).astype(np.int32)
    images = rng.normal(0, 0.1, (n, 1, 32, 32)).astype(np.float32)
    for i, c in enumerate(labels):
        r, col = divmod(int(c), 5)
        images[i, 0, 4 + 12 * r:12 + 12 * r, 2 + 6 * col:7 + 6 * col] += 3.0
    return ds.NumpySlicesDataset({'image': images, 'label': labels}, shuffle=False).batch(32)


net = LeNet5()
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
opt = nn.Momentum(net.trainable_params(), learning_rate=0.02, momentum=0.9)
model = Model(net, loss_fn=loss, optimizer=opt, metrics={'accuracy': Accuracy()})

with tempfile.TemporaryDirectory() as directory:
    config = CheckpointConfig(save_checkpoint_steps=10, keep_checkpoint_max=2)
    checkpoint = ModelCheckpoint(prefix='lenet', directory=directory, config=config)
    model.train(8, synthetic_digits(640, 0), callbacks=[LossMonitor(20), checkpoint])
    print('checkpoints kept:', len([f for f in os.listdir(directory) if f.endswith('.ckpt')]))

result = model.eval(synthetic_digits(320, 1))
print(f"accuracy: {result['accuracy']:.3f}")
assert result['accuracy'] > 0.9, result
