"""Grad-CAM: the planted-region task, agreement with a hand-written reference, state and hooks
left as they were, the overlay writer, and every error."""
import gc
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.explain import GradCAM, overlay
from hookgrad.explain.gradcam import _resize_bilinear


class SmallCNN(nn.Cell):
    """Two convolutions (the second with stride 2, so the heatmap is upsampled), GAP, Dense."""

    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell(nn.Conv2d(1, 8, 3, pad_mode='same'), nn.ReLU(),
                                          nn.Conv2d(8, 16, 3, stride=2, pad_mode='same'),
                                          nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(16, 2)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.features(x))))


def squares(n, rng):
    """16x16 noise with a 4x4 square at a random place deciding the class (bright: 1, dark: 0)
    and a 4x4 striped distractor elsewhere; returns images, labels and the squares' corners."""
    x = rng.normal(0, 0.3, (n, 1, 16, 16)).astype(np.float32)
    y = rng.integers(0, 2, n)
    r, c, dr, dc = rng.integers(0, 13, (4, n))
    stripes = np.tile([1.0, -1.0], (4, 2))
    for i in range(n):
        x[i, 0, dr[i]:dr[i] + 4, dc[i]:dc[i] + 4] = stripes
        x[i, 0, r[i]:r[i] + 4, c[i]:c[i] + 4] = 1.0 if y[i] else -1.0
    return x, y.astype(np.int32), r, c


def test_heatmap_peaks_in_the_region_that_decides_the_class():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    x, y, _, _ = squares(512, rng)
    net = SmallCNN()
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Adam(net.trainable_params(), learning_rate=1e-2)
    step = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, opt.parameters)
    net.set_train()
    for _ in range(80):
        i = rng.integers(0, 512, 64)
        _, grads = step(ms.Tensor(x[i]), ms.Tensor(y[i]))
        opt(grads)
    xt, yt, r, c = squares(100, rng)
    net.set_train(False)
    assert (net(ms.Tensor(xt)).asnumpy().argmax(1) == yt).mean() >= 0.95
    heat = GradCAM(net, 'features')(xt, target=yt)
    peak = heat.reshape(100, -1).argmax(1)
    row, col = peak // 16, peak % 16
    inside = (row >= r) & (row < r + 4) & (col >= c) & (col < c + 4)
    assert inside.mean() >= 0.9
    assert net.hooks() == []


def reference_gradcam(net, layer, x, labels):
    """Grad-CAM written directly: retain the layer output's gradient, backward the scores,
    resize pixel by pixel."""
    store = {}

    def keep(cell, inputs, output):
        output.retain_grad()
        store['a'] = output

    handle = layer.register_forward_hook(keep)
    net.set_train(False)
    logits = net(ms.Tensor(x))
    handle.remove()
    (logits * ms.Tensor(np.eye(logits.shape[1], dtype=np.float32)[labels])).sum().backward()
    a, g = store['a'].asnumpy().astype(np.float64), store['a'].grad.asnumpy()
    cam = np.maximum((g.mean(axis=(2, 3))[:, :, None, None] * a).sum(1), 0)
    n, h, w = cam.shape
    H, W = x.shape[2:]
    up = np.zeros((n, H, W))
    for i in range(H):
        for j in range(W):
            sy = min(max((i + 0.5) * h / H - 0.5, 0), h - 1)
            sx = min(max((j + 0.5) * w / W - 0.5, 0), w - 1)
            y0, x0 = int(sy), int(sx)
            y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
            fy, fx = sy - y0, sx - x0
            up[:, i, j] = ((1 - fy) * (1 - fx) * cam[:, y0, x0] + (1 - fy) * fx * cam[:, y0, x1]
                           + fy * (1 - fx) * cam[:, y1, x0] + fy * fx * cam[:, y1, x1])
    lo = up.min(axis=(1, 2), keepdims=True)
    span = up.max(axis=(1, 2), keepdims=True) - lo
    return np.where(span > 0, (up - lo) / np.where(span > 0, span, 1), 0)


@pytest.fixture(scope='module')
def resnet():
    ms.set_seed(3)
    return ms.vision.resnet18(num_classes=2, cifar=True)


@pytest.fixture(scope='module')
def images():
    return np.random.default_rng(3).random((3, 3, 16, 16), dtype=np.float32)


def test_resnet18_matches_the_reference_and_leaves_the_network_as_it_was(resnet, images):
    resnet.set_train()
    resnet.layer1.set_train(False)          # a mixed state must come back cell by cell
    moving = resnet.bn1.moving_mean.asnumpy().copy()
    heat = GradCAM(resnet, 'layer4')(images, target=[0, 1, 1])
    assert heat.shape == (3, 16, 16) and heat.dtype == np.float32
    assert heat.min() == 0 and heat.max() == 1
    assert resnet.training and resnet.layer4.training and not resnet.layer1.training
    assert resnet.phase == 'train' and resnet.layer1.phase == 'predict'
    assert np.array_equal(resnet.bn1.moving_mean.asnumpy(), moving)
    assert all(p.grad is None for p in resnet.trainable_params())
    assert resnet.hooks() == []
    states = [(c.training, c.phase) for _, c in resnet.cells_and_names()]
    expected = reference_gradcam(resnet, resnet.layer4, images, np.array([0, 1, 1]))
    for (_, c), (training, phase) in zip(resnet.cells_and_names(), states):
        c.__dict__['training'], c.__dict__['phase'] = training, phase
    for p in resnet.trainable_params():
        p.grad = None
    np.testing.assert_allclose(heat, expected, atol=1e-5)


def test_target_forms_agree(resnet, images):
    cam = GradCAM(resnet, resnet.layer3[1])
    assert cam.target_layer == 'layer3.1'
    resnet.set_train(False)
    predicted = resnet(ms.Tensor(images)).asnumpy().argmax(1)
    # equal up to rounding: each call's products may run on a different BLAS thread count
    np.testing.assert_allclose(cam(images), cam(images, target=predicted), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(cam(ms.Tensor(images), target=1),
                               cam(images, target=ms.Tensor(np.ones(3, np.int32))), rtol=1e-4,
                               atol=1e-5)
    assert repr(cam) == "GradCAM(ResNet, target_layer='layer3.1')"


def test_works_with_frozen_parameters_and_under_no_grad(resnet, images):
    expected = GradCAM(resnet, 'layer4')(images, target=0)
    for p in resnet.trainable_params():
        p.requires_grad = False
    try:
        with ms.no_grad():
            # float32 through a ResNet: equal up to the rounding of each call's BLAS thread count
            np.testing.assert_allclose(GradCAM(resnet, 'layer4')(images, target=0), expected,
                                       rtol=1e-4, atol=1e-5)
    finally:
        for p in resnet.get_parameters():
            p.requires_grad = True


def test_bilinear_resize_against_a_pixel_loop():
    rng = np.random.default_rng(5)
    maps = rng.random((2, 3, 5))
    up = _resize_bilinear(maps, (7, 11))
    h, w = maps.shape[1:]
    for i in range(7):
        for j in range(11):
            sy = min(max((i + 0.5) * h / 7 - 0.5, 0), h - 1)
            sx = min(max((j + 0.5) * w / 11 - 0.5, 0), w - 1)
            y0, x0 = int(sy), int(sx)
            y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
            fy, fx = sy - y0, sx - x0
            want = ((1 - fy) * ((1 - fx) * maps[:, y0, x0] + fx * maps[:, y0, x1])
                    + fy * ((1 - fx) * maps[:, y1, x0] + fx * maps[:, y1, x1]))
            np.testing.assert_allclose(up[:, i, j], want, rtol=1e-12)
    np.testing.assert_allclose(_resize_bilinear(maps, (3, 5)), maps, rtol=1e-12)


def test_network_is_held_weakly_and_hooks_go_even_after_errors():
    ms.set_seed(0)
    net = SmallCNN()
    cam = GradCAM(net, 'fc')
    with pytest.raises(ValueError, match=r"layer 'fc' must output one float Tensor of shape "
                                         r"\(N=2, K, h, w\), got shape \(2, 2\)"):
        cam(np.zeros((2, 1, 8, 8), np.float32))
    assert net.hooks() == [] and not net.training
    ref = weakref.ref(net)
    del net
    gc.collect()
    assert ref() is None
    with pytest.raises(RuntimeError, match="the network was deleted"):
        cam(np.zeros((2, 1, 8, 8), np.float32))
    assert repr(cam) == "GradCAM(deleted network, target_layer='fc')"


class Twice(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 1, 3, pad_mode='same')
        self.fc = nn.Dense(1, 2)

    def construct(self, x):
        return self.fc(self.conv(self.conv(x)).mean(axis=(2, 3)))


class Detached(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 1, 3, pad_mode='same')
        self.fc = nn.Dense(1, 2)

    def construct(self, x):
        self.conv(x)
        return self.fc(x.mean(axis=(2, 3)))


def test_errors():
    ms.set_seed(0)
    net = SmallCNN()
    x = np.zeros((2, 1, 8, 8), np.float32)
    with pytest.raises(TypeError, match="GradCAM: net must be a Cell, got str"):
        GradCAM('net', 'features')
    with pytest.raises(TypeError, match="target_layer must be a cell path .* got int"):
        GradCAM(net, 3)
    with pytest.raises(ValueError, match="SmallCNN has no cell 'feature'; did you mean "
                                         "'features'"):
        GradCAM(net, 'feature')
    with pytest.raises(ValueError, match="the Conv2d given as target_layer is not a sub-cell"):
        GradCAM(net, nn.Conv2d(1, 1, 3))
    cam = GradCAM(net, 'features')
    with pytest.raises(TypeError, match="images must be a Tensor or NumPy array, got list"):
        cam([[1.0]])
    with pytest.raises(ValueError, match=r"images must have shape \(N, C, H, W\), got \(8, 8\)"):
        cam(np.zeros((8, 8), np.float32))
    with pytest.raises(TypeError, match="images must be floating-point, got Int64"):
        cam(np.zeros((2, 1, 8, 8), np.int64))
    with pytest.raises(TypeError, match="target must be None, an int or N ints, got float64"):
        cam(x, target=[0.0, 1.0])
    with pytest.raises(ValueError, match=r"one class per image \(2\), got shape \(3,\)"):
        cam(x, target=[0, 1, 1])
    with pytest.raises(ValueError, match=r"target classes must lie in \[0, 2\), got \[2, -1\]"):
        cam(x, target=[2, -1])
    twice, detached = Twice(), Detached()
    with pytest.raises(ValueError, match="layer 'conv' ran 2 times in one forward pass"):
        GradCAM(twice, 'conv')(x)
    with pytest.raises(ValueError, match="the logits do not depend on layer 'conv'"):
        GradCAM(detached, 'conv')(x)
    flat = nn.SequentialCell(nn.Conv2d(1, 2, 3), nn.ReLU())
    with pytest.raises(ValueError, match=r"must return logits of shape \(N=2, classes\), got "
                                         r"shape \(2, 2, 8, 8\)"):
        GradCAM(flat, '1')(x)
    assert net.hooks() == []


def test_overlay_blends_and_writes_a_png(tmp_path):
    import matplotlib
    import matplotlib.image
    rng = np.random.default_rng(1)
    image = rng.random((3, 6, 5)).astype(np.float32)            # channels first, in [0, 1]
    heat = rng.random((6, 5))
    out = overlay(image, heat, path=tmp_path / 'cam.png', alpha=0.25, colormap='viridis')
    colour = matplotlib.colormaps['viridis'](heat)[..., :3] * 255
    want = np.rint(0.75 * image.transpose(1, 2, 0) * 255 + 0.25 * colour).astype(np.uint8)
    assert out.dtype == np.uint8 and out.shape == (6, 5, 3)
    np.testing.assert_array_equal(out, want)
    png = matplotlib.image.imread(tmp_path / 'cam.png')
    np.testing.assert_array_equal(np.rint(png[..., :3] * 255).astype(np.uint8), out)
    gray = overlay(np.full((6, 5), 200, np.uint8), np.zeros((6, 5)), alpha=0)
    assert (gray == 200).all()
    scaled = overlay(np.array([[-1.0, 3.0]]), np.zeros((1, 2)), alpha=0)
    np.testing.assert_array_equal(scaled[..., 0], [[0, 255]])


def test_overlay_errors():
    img = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(ValueError, match=r"heatmap must have the image's size \(4, 4\), got "
                                         r"shape \(2, 2\)"):
        overlay(img, np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"image must be \(H, W\), \(H, W, 1\|3\) or "
                                         r"\(1\|3, H, W\), got shape \(4, 4, 2\)"):
        overlay(np.zeros((4, 4, 2)), np.zeros((4, 4)))
    with pytest.raises(ValueError, match=r"alpha must be a number in \[0, 1\], got 1.5"):
        overlay(img, np.zeros((4, 4)), alpha=1.5)
    with pytest.raises(ValueError, match="unknown matplotlib colormap 'nope'"):
        overlay(img, np.zeros((4, 4)), colormap='nope')
    with pytest.raises(ValueError, match="image must hold numbers, got <U1"):
        overlay(np.full((4, 4), 'a'), np.zeros((4, 4)))


def test_overlay_scale_resizes_bilinearly_and_writes_the_larger_png(tmp_path):
    import matplotlib.image
    image = np.array([[0, 200]], np.uint8)
    # half-pixel centres: sources x = -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1)
    out = overlay(image, np.zeros((1, 2)), alpha=0, scale=2, path=tmp_path / 'big.png')
    assert out.shape == (2, 4, 3)
    np.testing.assert_array_equal(out[..., 0], [[0, 50, 150, 200]] * 2)
    assert matplotlib.image.imread(tmp_path / 'big.png').shape[:2] == (2, 4)
    assert overlay(np.zeros((32, 32, 3), np.uint8), np.ones((32, 32)), scale=8).shape == \
        (256, 256, 3)
    for bad in (0, -1, True, 'x', 0.01):
        with pytest.raises(ValueError, match="overlay: scale must be a positive number giving "
                                             "at least one pixel"):
            overlay(image, np.zeros((1, 2)), scale=bad)
