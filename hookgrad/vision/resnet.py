"""ResNet-18/34/50 (He et al., 2015) in the ImageNet layout and a CIFAR variant.

The ImageNet layout has a 7x7 stride-2 stem and a 3x3 max-pool; the CIFAR variant a 3x3
stride-1 stem and no pool, for 32x32 inputs. Stages are the attributes ``layer1`` ... ``layer4``,
so hooks and plug-in layers can be attached to them by name. Convolutions have no bias and are
initialised He-normal (fan-out); each block's last BatchNorm starts with gamma = 1.
"""
from .. import nn
from ..common.initializer import HeNormal

__all__ = ['ResNet', 'BasicBlock', 'Bottleneck', 'resnet18', 'resnet34', 'resnet50']


def _conv(in_channels, out_channels, kernel_size, stride=1):
    return nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, pad_mode='pad',
                     padding=kernel_size // 2, has_bias=False,
                     weight_init=HeNormal(mode='fan_out', nonlinearity='relu'))


def _shortcut(in_channels, out_channels, stride):
    """Identity when shapes agree, else a 1x1 projection with BatchNorm (option B)."""
    if stride == 1 and in_channels == out_channels:
        return None
    return nn.SequentialCell(_conv(in_channels, out_channels, 1, stride),
                             nn.BatchNorm2d(out_channels))


class BasicBlock(nn.Cell):
    """Two 3x3 convolutions with a residual connection (ResNet-18/34)."""

    expansion = 1

    def __init__(self, in_channels, channels, stride=1):
        super().__init__()
        out_channels = channels * self.expansion
        self.conv1 = _conv(in_channels, channels, 3, stride)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = _conv(channels, out_channels, 3)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU()
        self.down_sample = _shortcut(in_channels, out_channels, stride)

    def construct(self, x):
        identity = x if self.down_sample is None else self.down_sample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


class Bottleneck(nn.Cell):
    """1x1 reduce, 3x3, 1x1 expand (x4), with a residual connection (ResNet-50)."""

    expansion = 4

    def __init__(self, in_channels, channels, stride=1):
        super().__init__()
        out_channels = channels * self.expansion
        self.conv1 = _conv(in_channels, channels, 1)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = _conv(channels, channels, 3, stride)
        self.bn2 = nn.BatchNorm2d(channels)
        self.conv3 = _conv(channels, out_channels, 1)
        self.bn3 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU()
        self.down_sample = _shortcut(in_channels, out_channels, stride)

    def construct(self, x):
        identity = x if self.down_sample is None else self.down_sample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return self.relu(out + identity)


class ResNet(nn.Cell):
    """A residual network: stem, four stages ``layer1``..``layer4``, global pool, ``fc``.

    Args:
        block: ``BasicBlock`` or ``Bottleneck``.
        layers: the number of blocks in each of the four stages.
        num_classes: the size of the output. Default 1000.
        cifar: the CIFAR stem (3x3 stride-1 convolution, no max-pool) instead of the ImageNet
            one (7x7 stride-2 convolution and a 3x3 stride-2 max-pool). Default False.
        in_channels: channels of the input images. Default 3.

    Inputs:
        x: a float Tensor of shape (N, in_channels, H, W).

    Outputs:
        Tensor of shape (N, num_classes): logits.
    """

    def __init__(self, block, layers, num_classes=1000, cifar=False, in_channels=3):
        super().__init__()
        if len(layers) != 4 or any(not isinstance(n, int) or n < 1 for n in layers):
            raise ValueError(f"ResNet: layers must be four positive ints, got {layers!r}")
        if not isinstance(num_classes, int) or isinstance(num_classes, bool) or num_classes < 1:
            raise ValueError(f"ResNet: num_classes must be a positive int, got {num_classes!r}")
        self.cifar = bool(cifar)
        if self.cifar:
            self.conv1 = _conv(in_channels, 64, 3)
            self.max_pool = None
        else:
            self.conv1 = _conv(in_channels, 64, 7, stride=2)
            self.max_pool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode='pad', padding=1)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        channels = 64
        stages = []
        for i, (n, width) in enumerate(zip(layers, (64, 128, 256, 512))):
            blocks = []
            for j in range(n):
                stride = 2 if i > 0 and j == 0 else 1
                blocks.append(block(channels, width, stride))
                channels = width * block.expansion
            stages.append(nn.SequentialCell(blocks))
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.avg_pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(channels, num_classes)

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        if self.max_pool is not None:
            x = self.max_pool(x)
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(self.flatten(self.avg_pool(x)))


def resnet18(num_classes=1000, cifar=False, in_channels=3):
    """ResNet-18: BasicBlocks (2, 2, 2, 2); 11,689,512 trainable values for 1000 classes."""
    return ResNet(BasicBlock, (2, 2, 2, 2), num_classes, cifar, in_channels)


def resnet34(num_classes=1000, cifar=False, in_channels=3):
    """ResNet-34: BasicBlocks (3, 4, 6, 3)."""
    return ResNet(BasicBlock, (3, 4, 6, 3), num_classes, cifar, in_channels)


def resnet50(num_classes=1000, cifar=False, in_channels=3):
    """ResNet-50: Bottlenecks (3, 4, 6, 3)."""
    return ResNet(Bottleneck, (3, 4, 6, 3), num_classes, cifar, in_channels)
