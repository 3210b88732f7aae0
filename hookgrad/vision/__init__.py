"""``hookgrad.vision``: ready-made vision networks (ResNet-18/34/50, ImageNet and CIFAR stems)."""
from .resnet import ResNet, BasicBlock, Bottleneck, resnet18, resnet34, resnet50

__all__ = ['ResNet', 'BasicBlock', 'Bottleneck', 'resnet18', 'resnet34', 'resnet50']
