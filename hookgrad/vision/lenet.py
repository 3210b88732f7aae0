"""LeNet-5 (LeCun et al., 1998) as MindSpore's tutorials and model zoo write it: two valid 5x5
convolutions with ReLU and 2x2 max-pooling, then three dense layers, for 32x32 inputs."""
from .. import nn
from ..common.initializer import Normal

__all__ = ['LeNet5']


class LeNet5(nn.Cell):
    """LeNet-5 for ``num_channel`` x 32 x 32 images and ``num_class`` classes; the dense
    layers start from Normal(0.02) weights.

    >>> import hookgrad as ms
    >>> ms.vision.LeNet5()(ms.ops.zeros((2, 1, 32, 32))).shape
    (2, 10)
    """

    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
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
