"""``hookgrad.vision``: ready-made vision networks (LeNet-5; ResNet-18/34/50, ImageNet and CIFAR
stems)."""
from .lenet import LeNet5
from .resnet import ResNet, BasicBlock, Bottleneck, resnet18, resnet34, resnet50

__all__ = ['LeNet5', 'ResNet', 'BasicBlock', 'Bottleneck', 'resnet18', 'resnet34', 'resnet50']
