"""Grad-CAM (Selvaraju et al., 2017): where in an image a convolutional network looks for a class.

For a layer with activations ``A`` of shape (N, K, h, w) and the score ``y_c`` of class ``c``,
the heatmap is ``ReLU(sum_k alpha_k A_k)`` with ``alpha_k`` the spatial mean of ``dy_c / dA_k``,
upsampled bilinearly to the input size and scaled to [0, 1] per image.

A forward hook, registered for the duration of one call only, captures the layer's output and
hands the rest of the network a leaf holding the same array: the backward pass then stops at the
layer (nothing below it is differentiated), works with frozen parameters, and is run in capture
mode, so no parameter's ``.grad`` is touched. On a GPU the heatmaps are computed there and read
once, as the result.
"""
import difflib
import numbers
import weakref

import numpy as np

from .._tensor import Tensor
from ..autograd.engine import run_backward
from ..autograd.grad_mode import enable_grad
from ..nn.cell import Cell
from ..hooks.handle import in_this_thread
from ..kernels import backend

__all__ = ['GradCAM', 'overlay']


class GradCAM:
    """Grad-CAM heatmaps of a classifier for one of its convolutional layers.

    Args:
        net: the classifier, a Cell mapping images (N, C, H, W) to logits (N, classes).
        target_layer: the layer whose activations are explained: a cell path such as
            ``'layer4'`` or ``'features.2'`` (as in ``net.cells_and_names()``), or the Cell itself.
            Its output must be one Tensor of shape (N, K, h, w).

    The network is held through a weak reference, and hooks exist only while a call runs: a
    GradCAM object never keeps a network alive nor leaves anything registered on it.

    Raises:
        TypeError: if ``net`` is not a Cell or ``target_layer`` neither a str nor a Cell.
        ValueError: if ``target_layer`` is not a sub-cell of ``net``.

    >>> import numpy as np, hookgrad as ms
    >>> ms.set_seed(0)
    >>> net = ms.nn.SequentialCell(ms.nn.Conv2d(1, 4, 3), ms.nn.ReLU(),
    ...                            ms.nn.AdaptiveAvgPool2d(1), ms.nn.Flatten(), ms.nn.Dense(4, 2))
    >>> heatmaps = GradCAM(net, '1')(np.ones((2, 1, 8, 8), np.float32), target=0)
    >>> heatmaps.shape, heatmaps.dtype
    ((2, 8, 8), dtype('float32'))
    """

    __slots__ = ('_net', 'target_layer')

    def __init__(self, net, target_layer):
        if not isinstance(net, Cell):
            raise TypeError(f"GradCAM: net must be a Cell, got {type(net).__name__}")
        self.target_layer = _layer_path(net, target_layer)
        self._net = weakref.ref(net)

    def __call__(self, images, target=None):
        """Heatmaps for ``images``.

        Args:
            images: a float Tensor or NumPy array of shape (N, C, H, W); an array is taken
                to the device of the network's parameters.
            target: the class explained for each image: a sequence of N ints, one int for all
                images, or None for each image's predicted class.

        Returns:
            A float32 NumPy array of shape (N, H, W) with values in [0, 1] (all zeros for an
            image whose class score does not rise with any activation of the layer).

        Raises:
            ValueError: on images that are not (N, C, H, W), targets of the wrong length or out
                of range, a layer whose output is not (N, K, h, w) or that is not called exactly
                once, logits that are not (N, classes) or do not depend on the layer.
            TypeError: on non-float images or non-integer targets.
            RuntimeError: if the network no longer exists.

        The network runs in predict mode (``set_train(False)``); every cell's train state is
        restored afterwards, also when an error is raised.
        """
        net = self._net()
        if net is None:
            raise RuntimeError("GradCAM: the network was deleted; GradCAM holds it weakly, so "
                               "keep a reference to the network while using it")
        layer = dict(net.cells_and_names()).get(self.target_layer)
        if layer is None:
            raise ValueError(f"GradCAM: the network has no cell '{self.target_layer}' any more")
        x = _as_images(images, net)
        labels = _as_targets(target, x.shape[0])
        captured = []

        def capture(cell, inputs, output):
            if not isinstance(output, Tensor) or output.ndim != 4 or \
                    output.shape[0] != x.shape[0] or output._data.dtype.kind not in 'fV':
                got = f"shape {output.shape}" if isinstance(output, Tensor) \
                    else type(output).__name__
                raise ValueError(f"GradCAM: layer '{self.target_layer}' must output one float "
                                 f"Tensor of shape (N={x.shape[0]}, K, h, w), got {got}")
            leaf = Tensor._wrap(output._data)
            leaf.requires_grad = True
            captured.append(leaf)
            return leaf

        states = [(c, c.training, c.phase) for _, c in net.cells_and_names()]
        handle = layer.register_forward_hook(in_this_thread(capture))
        try:
            net.set_train(False)
            with enable_grad():
                logits = net(x)
            handle.remove()
            activation = _single_capture(captured, self.target_layer)
            labels = _check_logits(logits, labels, x.shape[0], self.target_layer)
            xp = backend.array_module(logits._data)
            onehot = xp.zeros(logits.shape, logits._data.dtype)
            if xp is not np and backend.is_host(labels):
                labels = xp.asarray(labels)
            onehot[xp.arange(x.shape[0]), labels] = 1
            (grad,) = run_backward([logits], [onehot], targets=[activation])
            if grad is None:
                raise ValueError(f"GradCAM: the logits do not depend on layer "
                                 f"'{self.target_layer}'")
        finally:
            handle.remove()
            for cell, training, phase in states:
                cell.__dict__['training'] = training
                cell.__dict__['phase'] = phase
        a = activation._data
        xp = backend.array_module(a)
        weights = grad.mean(axis=(2, 3))
        cam = xp.maximum(xp.einsum('nk,nkhw->nhw', weights, a), 0)
        return backend.to_host(_normalise(_resize_bilinear(cam, x.shape[2:])), 'the heatmaps')

    def __repr__(self):
        net = self._net()
        name = type(net).__name__ if net is not None else 'deleted network'
        return f"GradCAM({name}, target_layer='{self.target_layer}')"


def _layer_path(net, target_layer):
    """The cell path of ``target_layer`` inside ``net``, checked."""
    if isinstance(target_layer, Cell):
        for path, cell in net.cells_and_names():
            if cell is target_layer:
                return path
        raise ValueError(f"GradCAM: the {type(target_layer).__name__} given as target_layer is "
                         f"not a sub-cell of {type(net).__name__}")
    if not isinstance(target_layer, str):
        raise TypeError(f"GradCAM: target_layer must be a cell path (str) or a Cell, got "
                        f"{type(target_layer).__name__}")
    paths = [p for p, _ in net.cells_and_names()]
    if target_layer not in paths:
        close = difflib.get_close_matches(target_layer, paths, n=3)
        hint = f"; did you mean {', '.join(repr(p) for p in close)}?" if close else ''
        raise ValueError(f"GradCAM: {type(net).__name__} has no cell '{target_layer}'{hint}")
    return target_layer


def _as_images(images, net):
    """Checked images, detached; a NumPy array goes to the device of the net's parameters."""
    if isinstance(images, np.ndarray):
        images = Tensor(images)
        param = next(iter(net.get_parameters()), None)
        if param is not None and type(param._data) is not type(images._data):
            images = Tensor._wrap(backend.to_device(images._data, backend.device_of(param._data)))
    if not isinstance(images, Tensor):
        raise TypeError(f"GradCAM: images must be a Tensor or NumPy array, got "
                        f"{type(images).__name__}")
    if images.ndim != 4:
        raise ValueError(f"GradCAM: images must have shape (N, C, H, W), got {images.shape}")
    if images._data.dtype.kind not in 'fV':
        raise TypeError(f"GradCAM: images must be floating-point, got {images.dtype}")
    return images.detach()


def _as_targets(target, n):
    """Class indices as an int array of length n, or None for the predicted classes."""
    if target is None:
        return None
    if isinstance(target, numbers.Integral) and not isinstance(target, bool):
        return np.full(n, int(target))
    labels = np.asarray(target.asnumpy() if isinstance(target, Tensor) else target)
    if labels.dtype.kind not in 'iu':
        raise TypeError(f"GradCAM: target must be None, an int or N ints, got "
                        f"{labels.dtype} values")
    if labels.shape != (n,):
        raise ValueError(f"GradCAM: target must hold one class per image ({n}), got shape "
                         f"{labels.shape}")
    return labels.astype(np.int64)


def _single_capture(captured, path):
    if len(captured) != 1:
        raise ValueError(f"GradCAM: layer '{path}' ran {len(captured)} times in one forward "
                         f"pass; Grad-CAM needs a layer called exactly once")
    return captured[0]


def _check_logits(logits, labels, n, path):
    if not isinstance(logits, Tensor) or logits.ndim != 2 or logits.shape[0] != n:
        got = f"shape {logits.shape}" if isinstance(logits, Tensor) else type(logits).__name__
        raise ValueError(f"GradCAM: the network must return logits of shape (N={n}, classes), "
                         f"got {got}")
    if not logits.requires_grad:
        raise ValueError(f"GradCAM: the logits do not depend on layer '{path}'")
    classes = logits.shape[1]
    if labels is None:
        return logits._data.argmax(axis=1)
    bad = labels[(labels < 0) | (labels >= classes)]
    if bad.size:
        raise ValueError(f"GradCAM: target classes must lie in [0, {classes}), got "
                         f"{bad[:5].tolist()}")
    return labels


def _interpolation_matrix(size_out, size_in):
    """(size_out, size_in) weights of 1-D linear interpolation with half-pixel centres."""
    src = np.clip((np.arange(size_out) + 0.5) * (size_in / size_out) - 0.5, 0, size_in - 1)
    lo = np.floor(src).astype(np.int64)
    hi = np.minimum(lo + 1, size_in - 1)
    frac = src - lo
    m = np.zeros((size_out, size_in))
    rows = np.arange(size_out)
    np.add.at(m, (rows, lo), 1 - frac)
    np.add.at(m, (rows, hi), frac)
    return m


def _resize_bilinear(maps, size):
    """Resize (N, h, w) maps to ``size`` = (H, W) by bilinear interpolation (half-pixel
    centres, edges clamped; PyTorch's ``align_corners=False``), as two matrix products."""
    rows = _interpolation_matrix(size[0], maps.shape[1])
    cols = _interpolation_matrix(size[1], maps.shape[2])
    if type(maps) is not np.ndarray:
        device = backend.device_of(maps)
        rows, cols = backend.to_device(rows, device), backend.to_device(cols, device)
    return rows @ maps @ cols.T


def _normalise(maps):
    """Scale each map to [0, 1]; a constant map becomes zeros."""
    lo = maps.min(axis=(1, 2), keepdims=True)
    span = maps.max(axis=(1, 2), keepdims=True) - lo
    if type(maps) is np.ndarray:
        out = np.divide(maps - lo, span, out=np.zeros_like(maps), where=span > 0)
    else:                   # CuPy's ufuncs take no where=
        xp = backend.array_module(maps)
        out = xp.where(span > 0, (maps - lo) / xp.where(span > 0, span, 1), 0)
    return out.astype(np.float32)


def overlay(image, heatmap, path=None, alpha=0.5, colormap='jet', scale=1):
    """Blend a heatmap, coloured with a matplotlib colormap, over an image.

    Needs matplotlib (``pip install matplotlib``).

    Args:
        image: (H, W), (H, W, 1 or 3) or (1 or 3, H, W) array or Tensor. uint8 values are used
            as they are; floats in [0, 1] are scaled by 255, other floats are min-max scaled.
        heatmap: (H, W) values in [0, 1] (clipped), e.g. one map returned by ``GradCAM``.
        path: if given, the blend is also written there as a PNG file.
        alpha: weight of the heatmap in the blend, in [0, 1]. Default 0.5.
        colormap: a matplotlib colormap name. Default ``'jet'``.
        scale: enlarge (or shrink) the result by this factor, bilinearly: a 32x32 CIFAR
            image is hard to see at its own size, ``scale=8`` writes 256x256. Default 1.

    Returns:
        The blended (round(H * scale), round(W * scale), 3) uint8 RGB array.

    Raises:
        ValueError: on shapes that do not fit, an alpha outside [0, 1], a scale that is not
            a positive number or an unknown colormap.
        ImportError: if matplotlib is not installed.
    """
    rgb = _as_rgb(image)
    heat = np.asarray(heatmap.asnumpy() if isinstance(heatmap, Tensor) else heatmap)
    if heat.shape != rgb.shape[:2]:
        raise ValueError(f"overlay: heatmap must have the image's size {rgb.shape[:2]}, got "
                         f"shape {heat.shape}")
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 <= alpha <= 1:
        raise ValueError(f"overlay: alpha must be a number in [0, 1], got {alpha!r}")
    if isinstance(scale, bool) or not isinstance(scale, numbers.Real) or not scale > 0 or \
            round(rgb.shape[0] * scale) < 1 or round(rgb.shape[1] * scale) < 1:
        raise ValueError(f"overlay: scale must be a positive number giving at least one "
                         f"pixel, got {scale!r}")
    try:
        import matplotlib
        import matplotlib.image
    except ImportError as e:
        raise ImportError("overlay needs matplotlib: pip install matplotlib") from e
    try:
        cmap = matplotlib.colormaps[colormap]
    except KeyError:
        raise ValueError(f"overlay: unknown matplotlib colormap {colormap!r}") from None
    colour = cmap(np.clip(heat, 0, 1))[..., :3] * 255
    out = (1 - alpha) * rgb + alpha * colour
    if scale != 1:
        size = (round(rgb.shape[0] * scale), round(rgb.shape[1] * scale))
        out = _resize_bilinear(out.transpose(2, 0, 1), size).transpose(1, 2, 0)
    out = np.rint(np.clip(out, 0, 255)).astype(np.uint8)
    if path is not None:
        matplotlib.image.imsave(path, out, format='png')
    return out


def _as_rgb(image):
    """An (H, W, 3) float array of 0..255 values."""
    a = np.asarray(image.asnumpy() if isinstance(image, Tensor) else image)
    if a.ndim == 3 and a.shape[0] in (1, 3) and a.shape[2] not in (1, 3):
        a = a.transpose(1, 2, 0)
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[..., 0]
    if a.ndim == 2:
        a = np.repeat(a[..., None], 3, axis=2)
    if a.ndim != 3 or a.shape[2] != 3:
        raise ValueError(f"overlay: image must be (H, W), (H, W, 1|3) or (1|3, H, W), got "
                         f"shape {np.shape(image)}")
    if a.dtype == np.uint8:
        return a.astype(np.float64)
    if a.dtype.kind not in 'fiuV':
        raise ValueError(f"overlay: image must hold numbers, got {a.dtype}")
    a = a.astype(np.float64)
    lo, hi = a.min(), a.max()
    if lo < 0 or hi > 1:
        a = (a - lo) / (hi - lo) if hi > lo else np.zeros_like(a)
    return a * 255
