"""ResNet-18/34/50: layout, parameter counts, output shapes, names, errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.vision import resnet18, resnet34, resnet50, ResNet, BasicBlock


def n_trainable(net):
    return sum(int(np.prod(p.shape)) for p in net.trainable_params())


@pytest.mark.parametrize('make, count', [(resnet18, 11_689_512), (resnet34, 21_797_672),
                                         (resnet50, 25_557_032)])
def test_trainable_parameter_counts_for_1000_classes(make, count):
    assert n_trainable(make()) == count


def test_imagenet_and_cifar_layouts():
    net = resnet18(num_classes=10)
    assert net.conv1.weight.shape == (64, 3, 7, 7) and net.max_pool is not None
    cifar = resnet18(num_classes=10, cifar=True)
    assert cifar.conv1.weight.shape == (64, 3, 3, 3) and cifar.max_pool is None
    assert n_trainable(net) - n_trainable(cifar) == 64 * 3 * (49 - 9)
    for name in ('layer1', 'layer2', 'layer3', 'layer4'):
        assert isinstance(getattr(net, name), nn.SequentialCell)


def test_forward_shapes_and_stage_shapes_seen_by_hooks():
    ms.set_seed(0)
    net = resnet18(num_classes=10, cifar=True)
    shapes = {}
    for name in ('layer1', 'layer2', 'layer3', 'layer4'):
        getattr(net, name).register_forward_hook(
            lambda cell, i, o, name=name: shapes.__setitem__(name, o.shape))
    out = net(ms.Tensor(np.random.default_rng(0).random((2, 3, 32, 32), dtype=np.float32)))
    assert out.shape == (2, 10)
    assert shapes == {'layer1': (2, 64, 32, 32), 'layer2': (2, 128, 16, 16),
                      'layer3': (2, 256, 8, 8), 'layer4': (2, 512, 4, 4)}


def test_parameter_names_follow_attribute_paths():
    names = [n for n, _ in resnet18().parameters_and_names()]
    assert names[:5] == ['conv1.weight', 'bn1.moving_mean', 'bn1.moving_variance', 'bn1.gamma',
                         'bn1.beta']
    assert 'layer2.0.down_sample.0.weight' in names
    assert 'layer1.0.down_sample.0.weight' not in names       # identity shortcut
    assert names[-2:] == ['fc.weight', 'fc.bias']
    assert len(names) == len(set(names))


def test_gradients_reach_the_stem_through_every_stage():
    ms.set_seed(1)
    net = resnet18(num_classes=4, cifar=True)
    net.set_train()
    x = ms.Tensor(np.random.default_rng(1).random((2, 3, 8, 8), dtype=np.float32))
    grads = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
    assert len(grads) == len(net.trainable_params())
    assert all(np.isfinite(g.asnumpy()).all() for g in grads)
    assert np.abs(grads[0].asnumpy()).sum() > 0


def test_bad_arguments():
    with pytest.raises(ValueError, match="ResNet: layers must be four positive ints, got"):
        ResNet(BasicBlock, (2, 2, 2))
    with pytest.raises(ValueError, match="ResNet: num_classes must be a positive int, got 0"):
        resnet18(num_classes=0)
