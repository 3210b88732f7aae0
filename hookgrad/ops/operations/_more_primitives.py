"""MindSpore's Primitive classes CountNonZero, CheckNumerics, HistogramFixedWidth, ListDiff,
CTCLoss, CTCGreedyDecoder, PadV3 and ResizeNearestNeighborV2 (and, from
``_more_primitives_extra``, MaxPool3DWithArgmax, ResizeArea, EditDistance, Dilation2D and
Betainc).

Each runs hookgrad's functional op for its math: ``count_nonzero``, ``ctc_loss`` over
``log_softmax``, ``nn_pad.padded`` and ``gather`` (whose recorded gradients give MindSpore's
bprops of CTCLoss, PadV3 and ResizeNearestNeighborV2). CheckNumerics, HistogramFixedWidth,
ListDiff and CTCGreedyDecoder compute on the host and carry no gradient, as in MindSpore.
Constructor and call arguments, dtypes and error messages follow MindSpore 2.10.

MindSpore 2.10's CPU build runs no HistogramFixedWidth kernel and its CountNonZero Primitive
fails on CPU; both follow their documentation (TensorFlow's binning: values below the range
go to the first bin, values at or above its end to the last; the count of
``ops.count_nonzero``).
"""
import numpy as np

from ..._dtype import int32 as _int32, int64 as _int64, to_numpy
from ..._tensor import Tensor
from .._base import as_tensor
from ..activation import log_softmax
from ..arithmetic import identity
from ..ctc import _forward_backward, ctc_loss
from ..indexing import gather
from ..nn_pad import padded
from ..sorting import count_nonzero
from ._primitive import Primitive, _constant

__all__ = ['CountNonZero', 'CheckNumerics', 'HistogramFixedWidth', 'ListDiff', 'CTCLoss',
           'CTCGreedyDecoder', 'PadV3', 'ResizeNearestNeighborV2']

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))
_FLOAT_NAMES = '{Tensor[Float16], Tensor[Float32], Tensor[Float64]}'


def _bool(value, prim, what):
    if not isinstance(value, bool):
        raise TypeError(f"For '{prim}', the type of '{what}' should be 'bool', but got type "
                        f"'{type(value).__name__}'.")
    return value


def _floating(x, prim, what):
    x = as_tensor(x, what)
    if x._data.dtype not in _FLOATS:
        raise TypeError(f"For primitive[{prim}], the input argument[{what}] must be a type of "
                        f"{_FLOAT_NAMES}, but got Tensor[{x.dtype}].")
    return x


def _host(x):
    return x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)


class CountNonZero(Primitive):
    """``CountNonZero(dims=None)(x)``: the Int32 number of nonzero elements of ``x`` over
    ``dims`` (None or [] for all), the reduced dimensions dropped."""
    def __init__(self, dims=None):
        dims = [] if dims is None else dims
        if isinstance(dims, bool) or not isinstance(dims, (int, list, tuple)):
            raise TypeError(f"For 'CountNonZero', the type of 'dims' should be one of '['int', "
                            f"'list', 'tuple']', but got type '{type(dims).__name__}'.")
        if isinstance(dims, (list, tuple)):
            for i, each in enumerate(dims):
                if isinstance(each, bool) or not isinstance(each, int):
                    raise TypeError(f"For 'CountNonZero', the type of 'dims[{i}]' should be "
                                    f"'int', but got type '{type(each).__name__}'.")
        super().__init__(dims=dims)

    def construct(self, x):
        dims = self.dims
        if isinstance(dims, (list, tuple)):
            if len(set(dims)) != len(dims):
                raise RuntimeError(f"dim={dims[0]} appears multiple times in the list of dims")
            dims = tuple(dims)
        return count_nonzero(x, dims)


class CheckNumerics(Primitive):
    """``CheckNumerics()(x)``: ``x`` itself when it holds no NaN or infinity; a RuntimeError
    otherwise. ``x`` is Float16, Float32 or Float64."""
    def construct(self, x):
        x = _floating(x, 'CheckNumerics', 'x')
        a = x.asnumpy()
        if np.isnan(a).any():
            raise RuntimeError(": Tensor had NaN values")
        if np.isinf(a).any():
            raise RuntimeError(": Tensor had Inf values")
        return identity(x)


class HistogramFixedWidth(Primitive):
    """``HistogramFixedWidth(nbins, dtype='int32')(x, range)``: the Int32 counts of ``x`` in
    ``nbins`` equal bins over ``[range[0], range[1])``; values below the range count in the
    first bin, values at or above its end in the last."""
    def __init__(self, nbins, dtype='int32'):
        if isinstance(nbins, bool) or not isinstance(nbins, int) or nbins < 1:
            raise ValueError(f"For 'HistogramFixedWidth', the 'nbins' must be int and must >= "
                             f"1, but got '{nbins}' with type '{type(nbins).__name__}'.")
        if dtype != 'int32':
            raise ValueError(f"For 'HistogramFixedWidth', the 'dtype' must be str and must be "
                             f"in '['int32']', but got '{dtype}'.")
        super().__init__(nbins=nbins, dtype=dtype)

    def construct(self, x, range):
        x, rng = as_tensor(x, 'x'), as_tensor(range, 'range')
        if x.dtype != rng.dtype:
            raise TypeError(f"For 'HistogramFixedWidth', 'x' and 'range' must have the same "
                            f"dtype, but got {x.dtype} and {rng.dtype}.")
        if rng.shape != (2,):
            raise ValueError(f"For 'HistogramFixedWidth', 'range' must have shape (2,), but "
                             f"got {rng.shape}.")
        low, high = (float(v) for v in rng.asnumpy().astype(np.float64))
        if not low < high:
            raise ValueError(f"For 'HistogramFixedWidth', range[0] must be less than range[1], "
                             f"but got {low} and {high}.")
        values = x.asnumpy().astype(np.float64).ravel()
        bins = np.floor((values - low) / (high - low) * self.nbins)
        bins = np.clip(bins, 0, self.nbins - 1).astype(np.int64)
        counts = np.bincount(bins, minlength=self.nbins).astype(np.int32)
        return _constant(counts, x)


class ListDiff(Primitive):
    """``ListDiff(out_idx=int32)(x, y)``: ``(out, idx)``, the elements of the 1-d ``x`` absent
    from ``y`` in their order, and their positions in ``x`` (``out_idx``: Int32 or Int64)."""
    def __init__(self, out_idx=_int32):
        if out_idx not in (_int32, _int64):
            raise TypeError(f"For 'ListDiff', the 'out_idx' should be in : [mindspore.int32, "
                            f"mindspore.int64], but got {out_idx}.")
        super().__init__(out_idx=out_idx)

    def construct(self, x, y):
        x, y = as_tensor(x, 'x'), as_tensor(y, 'y')
        if x.ndim != 1 or y.ndim != 1:
            raise ValueError(f"For ListDiff, input x, y should be 1D, but get x dims = {x.ndim}, "
                             f"y dims = {y.ndim}.")
        if x.dtype != y.dtype:
            raise TypeError(f"For ListDiff, type of 'x' and 'y' should be same. But get "
                            f"x[{x.dtype}], y[{y.dtype}].")
        a = x.asnumpy()
        keep = ~np.isin(a, y.asnumpy())
        idx = np.nonzero(keep)[0].astype(to_numpy(self.out_idx))
        return _constant(a[keep], x), _constant(idx, x)


def _dense_labels(indices, values, batch, collapse):
    """Per-sample label lists from the sparse (indices, values) pair MindSpore's CTC takes."""
    idx = _host(indices).astype(np.int64).reshape(-1, 2)
    vals = _host(values).astype(np.int64).ravel()
    labels = [[] for _ in range(batch)]
    for (b, pos), v in sorted(zip(map(tuple, idx), vals)):
        labels[b].append(int(v))
    if collapse:
        labels = [[v for k, v in enumerate(row) if k == 0 or row[k - 1] != v] for row in labels]
    return labels


class CTCLoss(Primitive):
    """``CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True,
    ignore_longer_outputs_than_inputs=False)(x, labels_indices, labels_values,
    sequence_length)``: ``(loss, gradient)``, the per-sample CTC loss of the logits ``x``
    (max_time, batch, num_classes; the last class is the blank) against the sparse labels, and
    its gradient with respect to ``x``.

    ``ctc_merge_repeated=False`` and ignoring samples whose labels outnumber their frames
    raise NotImplementedError: ``ops.ctc_loss`` computes the merging alignment only.
    """
    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        super().__init__(
            preprocess_collapse_repeated=_bool(preprocess_collapse_repeated, 'CTCLoss',
                                               'preprocess_collapse_repeated'),
            ctc_merge_repeated=_bool(ctc_merge_repeated, 'CTCLoss', 'ctc_merge_repeated'),
            ignore_longer_outputs_than_inputs=_bool(ignore_longer_outputs_than_inputs,
                                                    'CTCLoss',
                                                    'ignore_longer_outputs_than_inputs'))

    def construct(self, x, labels_indices, labels_values, sequence_length):
        x = _floating(x, 'CTCLoss', 'inputs')
        if x.ndim != 3:
            raise ValueError(f"For primitive[CTCLoss], the inputs rank must be equal to 3, but "
                             f"got {x.ndim}.")
        if not self.ctc_merge_repeated:
            raise NotImplementedError("CTCLoss: ctc_merge_repeated=False is not implemented; "
                                      "ops.ctc_loss computes the merging alignment")
        n_time, batch, n_class = x.shape
        seq = _host(sequence_length).astype(np.int64).ravel()
        labels = _dense_labels(labels_indices, labels_values, batch,
                               self.preprocess_collapse_repeated)
        for b in range(batch):
            if seq[b] > n_time:
                raise RuntimeError(f"For 'CTCLoss, the 'max_time'(the 1st dimension value of "
                                   f"'probs') must be greater than or equal to "
                                   f"'sequence_length', but got 'max_time': {n_time} and "
                                   f"'sequence_length': {seq[b]}")
            if len(labels[b]) > seq[b]:
                if self.ignore_longer_outputs_than_inputs:
                    raise NotImplementedError("CTCLoss: ignoring samples whose labels outnumber "
                                              "their frames is not implemented")
                raise RuntimeError(f"For 'CTCLoss, input time(sequence length) must be greater "
                                   f"than output size(label length), but got sequence length: "
                                   f"{seq[b]} and label length: {len(labels[b])}")
        tgt_len = np.array([len(row) for row in labels], np.int64)
        targets = np.full((batch, max(1, int(tgt_len.max(initial=0)))), n_class - 1, np.int64)
        for b, row in enumerate(labels):
            targets[b, :len(row)] = row
        lp = log_softmax(x, -1)
        loss, _ = ctc_loss(lp, Tensor(targets), Tensor(seq), Tensor(tgt_len), blank=n_class - 1,
                           reduction='none')
        # d loss / d logits: softmax minus the alignment occupancy (the softmax's Jacobian
        # leaves it unchanged, each frame's occupancy summing to 1), 0 past each sequence.
        _, grad, _ = _forward_backward(lp.asnumpy().astype(np.float64), targets, seq, tgt_len,
                                       n_class - 1)
        return loss, _constant(grad.astype(x.asnumpy().dtype), x)


class CTCGreedyDecoder(Primitive):
    """``CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length)``: ``(decoded_indices,
    decoded_values, decoded_shape, log_probability)``, the most likely class of each frame of
    the logits (max_time, batch, num_classes), repeats merged, blanks (the last class) dropped,
    as a sparse Int64 tensor, and each sample's negated sum of frame maxima (batch, 1)."""
    def __init__(self, merge_repeated=True):
        super().__init__(merge_repeated=_bool(merge_repeated, 'CTCGreedyDecoder',
                                              'merge_repeated'))

    def construct(self, inputs, sequence_length):
        x = _floating(inputs, 'CTCGreedyDecoder', 'inputs')
        if x.ndim != 3:
            raise ValueError(f"For 'CTCGreedyDecoder', inputs's dim must be 3, but got: "
                             f"{x.ndim}.")
        n_time, batch, n_class = x.shape
        seq = _host(sequence_length).astype(np.int64).ravel()
        if seq.shape[0] != batch:
            raise ValueError(f"For 'CTCGreedyDecoder', inputs batch_size must be the same with "
                             f"sequence_length batch_size, but now inputs batch_size: {batch} "
                             f"and sequence_length batch_size: {seq.shape[0]}.")
        for b in range(batch):
            if seq[b] > n_time:
                raise RuntimeError(f"For 'CTCGreedyDecoder', sequence_length[{b}] {seq[b]} "
                                   f"should be less than {n_time}.")
        a = x.asnumpy()
        best, top = a.argmax(-1), a.max(-1)
        indices, values, logp = [], [], np.zeros((batch, 1), a.dtype)
        width = 0
        for b in range(batch):
            out, prev = [], -1
            for t in range(seq[b]):
                c = int(best[t, b])
                logp[b, 0] -= top[t, b]
                if c != n_class - 1 and not (self.merge_repeated and c == prev):
                    out.append(c)
                prev = c
            indices += [[b, k] for k in range(len(out))]
            values += out
            width = max(width, len(out))
        return (_constant(np.array(indices, np.int64).reshape(-1, 2), x),
                _constant(np.array(values, np.int64), x),
                _constant(np.array([batch, width], np.int64), x), _constant(logp, x))


_PAD_MODES = ('constant', 'reflect', 'edge', 'circular')


class PadV3(Primitive):
    """``PadV3(mode='constant', paddings_contiguous=True)(x, paddings, constant_value=None)``:
    ``x`` padded by ``paddings`` (before and after of the last dimension, then the one before
    it...; with ``paddings_contiguous=False`` all befores, then all afters), filled with
    ``constant_value`` (constant mode only), mirrored ('reflect'), repeated ('edge') or wrapped
    ('circular'). Negative constant amounts crop."""
    def __init__(self, mode='constant', paddings_contiguous=True):
        if not isinstance(mode, str) or mode not in _PAD_MODES:
            raise ValueError(f"For 'PadV3', the 'mode' must be str and must be in "
                             f"'{list(_PAD_MODES)}', but got '{mode}'.")
        if not isinstance(paddings_contiguous, bool):
            raise TypeError(f"For 'PadV3', the 'paddings_contiguous' must be a bool, but got "
                            f"{type(paddings_contiguous).__name__}.")
        super().__init__(mode=mode, paddings_contiguous=paddings_contiguous)

    def construct(self, x, paddings, constant_value=None):
        x = as_tensor(x, 'x')
        mode = self.mode
        if mode == 'constant' and constant_value is None:
            raise ValueError("For primitive[PadV3], the input number must be equal to 3, but "
                             "got 2.")
        if mode != 'constant' and constant_value is not None:
            raise ValueError(f"For 'PadV3', the input[constant_value] is only valid when the "
                             f"attribute[mode] is `constant`. DO NOT set it in [{mode}] mode.")
        p = [int(v) for v in _host(paddings).ravel()]
        if len(p) % 2:
            raise ValueError(f"For 'PadV3' {mode} mode, paddings length must be divisible by 2")
        if len(p) > 6:
            raise ValueError(f"For primitive[PadV3], the paddings_length must be less than or "
                             f"equal to 6, but got {len(p)}.")
        if mode != 'constant':
            if x.ndim < 3:
                raise ValueError(f"For primitive[PadV3], the input dims for edge, reflect or "
                                 f"circular mode must be greater than or equal to 3, but got "
                                 f"{x.ndim}.")
            if x.ndim != len(p) // 2 + 2:
                raise ValueError(f"For primitive[PadV3], the input dims when padding's size "
                                 f"equal {len(p)} must be equal to {len(p) // 2 + 2}, but got "
                                 f"{x.ndim}.")
        half = len(p) // 2
        if not self.paddings_contiguous:
            p = [v for k in range(half) for v in (p[k], p[half + k])]
        pairs = [(p[2 * k], p[2 * k + 1]) for k in range(half)]
        fill = 0
        if constant_value is not None:
            value = as_tensor(constant_value, 'constant_value')
            if value.dtype != x.dtype:
                raise TypeError(f"For 'PadV3', 'constant_value' must have the dtype of 'x' "
                                f"({x.dtype}), but got {value.dtype}.")
            fill = value.asnumpy().item()
        if mode == 'reflect':
            for k, (before, after) in enumerate(pairs):
                n = x.shape[x.ndim - 1 - k]
                if before >= n or after >= n:
                    raise ValueError(f"For 'PadV3' reflect mode, Padding size must be less than "
                                     f"the corresponding input dimension, but got: padding "
                                     f"({before},{after}) at dimension {x.ndim - 1 - k} of "
                                     f"input:[{n}]")
        return padded(x, pairs, 'replicate' if mode == 'edge' else mode, fill, 'PadV3')


def _nearest_index(n_in, n_out, align_corners, half_pixel):
    """The source row of each of ``n_out`` rows, as MindSpore's (TensorFlow's) nearest
    resize picks it: corners aligned and rounded half away from zero, or floored from the
    scaled (pixel-centre) position; clamped to the input."""
    if align_corners and n_out > 1:
        scale = (n_in - 1) / (n_out - 1)
    else:
        scale = n_in / n_out
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        src = np.floor(dst * np.float32(scale) + 0.5)
    elif half_pixel:
        src = np.floor((dst + 0.5) * np.float32(scale))
    else:
        src = np.floor(dst * np.float32(scale))
    return np.clip(src, 0, n_in - 1).astype(np.int64)


class ResizeNearestNeighborV2(Primitive):
    """``ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(image,
    size)``: the (N, C, H, W) ``image`` resized to ``size`` (new_height, new_width) by nearest
    neighbours; gradients add up onto the picked pixels."""
    def __init__(self, align_corners=False, half_pixel_centers=False):
        super().__init__(
            align_corners=_bool(align_corners, 'ResizeNearestNeighborV2', 'align_corners'),
            half_pixel_centers=_bool(half_pixel_centers, 'ResizeNearestNeighborV2',
                                     'half_pixel_centers'))
        if align_corners and half_pixel_centers:
            raise ValueError("For ResizeNearestNeighborV2, the half_pixel_centers must be false "
                             "when align_corners is true, but half_pixel_centers got True.")

    def construct(self, image, size):
        x = as_tensor(image, 'image')
        if x.ndim != 4:
            raise ValueError(f"For primitive[ResizeNearestNeighborV2], the image rank must be "
                             f"equal to 4, but got {x.ndim}.")
        hw = [int(v) for v in _host(size).ravel()]
        if len(hw) != 2:
            raise ValueError(f"For primitive[ResizeNearestNeighborV2], the number of size must "
                             f"be equal to 2, but got {len(hw)}.")
        if min(hw) <= 0:
            raise ValueError(f"For primitive[ResizeNearestNeighborV2], the size must be "
                             f"positive, but got {hw}.")
        for axis, n_out in zip((2, 3), hw):
            index = _nearest_index(x.shape[axis], n_out, self.align_corners,
                                   self.half_pixel_centers)
            x = gather(x, _constant(index, x), axis)
        return x


# MaxPool3DWithArgmax, ResizeArea, EditDistance, Dilation2D, Betainc: this set's second module.
from ._more_primitives_extra import *  # noqa: E402,F401,F403
from ._more_primitives_extra import __all__ as _extra  # noqa: E402

__all__ += _extra
