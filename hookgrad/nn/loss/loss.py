"""Loss cells (MindSpore's ``mindspore.nn`` losses): each calls one functional loss of ``ops``.

Every loss cell derives from ``LossBase``, which checks ``reduction`` and offers
``get_loss(x, weights)``, the weighted reduction MindSpore's losses share.
"""
import numbers

import numpy as np

from ..._frames import warn
from ... import _dtype
from ... import ops
from ..._tensor import Tensor
from ...ops.loss import sparse_softmax_cross_entropy
from ..cell import Cell

__all__ = ['LossBase', 'SoftmaxCrossEntropyWithLogits', 'CrossEntropyLoss', 'NLLLoss',
           'MSELoss', 'L1Loss', 'MAELoss', 'BCEWithLogitsLoss']


class LossBase(Cell):
    """Base class of losses: holds ``reduction`` and reduces element-wise losses.

    Subclasses define ``construct(logits, labels)``.

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        dtype: the dtype ``get_loss`` computes in. Default ``ms.float32``.

    Raises:
        ValueError: for another ``reduction``.
    """

    def __init__(self, reduction='mean', dtype=_dtype.float32):
        super().__init__()
        if not isinstance(reduction, str) or reduction not in ('none', 'mean', 'sum'):
            raise ValueError(f"nn.{type(self).__name__}: reduction must be 'none', 'mean' or "
                             f"'sum', got {reduction!r}")
        self.reduction = reduction
        self.reduce = reduction != 'none'
        self.average = reduction == 'mean'
        self.dtype = dtype

    def get_axis(self, x):
        """Every axis of ``x``, as a tuple."""
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        """``weights * x`` reduced as ``reduction`` says, returned in ``x``'s dtype.

        The product and reduction are computed in ``dtype`` or in ``x``'s dtype, whichever is
        wider (Float16 losses are reduced in Float32; Float64 ones stay Float64).

        Args:
            x: Tensor of element-wise losses.
            weights: a number or a Tensor broadcasting with ``x``. Default 1.0.

        Raises:
            TypeError: when ``x`` is not a Tensor.

        >>> import hookgrad as ms
        >>> ms.nn.MSELoss(reduction='sum').get_loss(ms.Tensor([1.0, 2.0]), 3.0).item()
        9.0
        """
        if not isinstance(x, Tensor):
            raise TypeError(f"nn.{type(self).__name__}.get_loss: x must be a Tensor, got "
                            f"{type(x).__name__}")
        dtype = x.dtype
        wide = _dtype.from_numpy(_dtype.promote(x._data.dtype, _dtype.to_numpy(self.dtype)))
        y = ops.cast(x, wide)
        if not (isinstance(weights, (int, float)) and weights == 1.0):
            y = y * (ops.cast(weights, wide) if isinstance(weights, Tensor) else weights)
        if self.reduce:
            axes = self.get_axis(y)
            y = ops.mean(y, axes) if self.average else ops.sum(y, axes)
        return ops.cast(y, dtype)


def _optional_tensor(value, cell, arg):
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"nn.{cell}: {arg} must be a Tensor or None, got {type(value).__name__}")
    return value


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross-entropy between the softmax of (N, C) logits and labels.

    ``l = -sum_c labels[c] * log_softmax(logits)[c]`` per sample, then ``get_loss``
    ('none' keeps the N losses). With ``sparse=True`` the labels are (N,) class indices.

    Args:
        sparse: whether the labels are class indices. Default False (labels of the logits'
            shape, e.g. one-hot).
        reduction: 'none', 'mean' or 'sum'. Default 'none'.

    Raises:
        TypeError: for a non-bool ``sparse`` or non-Tensor inputs.
        ValueError: for another ``reduction``, or logits that are not 2-d or labels of the
            wrong shape.
        IndexError: for a sparse label outside [0, C).

    >>> import hookgrad as ms
    >>> loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    >>> round(loss(ms.Tensor([[0.0, 0.0], [0.0, 0.0]]), ms.Tensor([0, 1])).item(), 5)
    0.69315
    """

    def __init__(self, sparse=False, reduction='none'):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"nn.SoftmaxCrossEntropyWithLogits: sparse must be a bool, got "
                            f"{sparse!r}")
        self.sparse = sparse

    def construct(self, logits, labels):
        if not isinstance(logits, Tensor) or logits.ndim != 2:
            got = logits.shape if isinstance(logits, Tensor) else type(logits).__name__
            raise ValueError(f"nn.SoftmaxCrossEntropyWithLogits '{self.path()}': logits must "
                             f"be a 2-d Tensor (N, C), got {got}")
        if not isinstance(labels, Tensor):
            raise TypeError(f"nn.SoftmaxCrossEntropyWithLogits '{self.path()}': labels must be "
                            f"a Tensor, got {type(labels).__name__}")
        want = logits.shape[:1] if self.sparse else logits.shape
        if labels.shape != want:
            raise ValueError(f"nn.SoftmaxCrossEntropyWithLogits '{self.path()}': labels must "
                             f"have shape {want} (sparse={self.sparse}), got {labels.shape}")
        if self.sparse:
            x = sparse_softmax_cross_entropy(logits, labels)
        else:
            if labels._data.dtype.kind not in 'fV':
                labels = ops.cast(labels, _dtype.float32)
            x = ops.cross_entropy(logits, labels, reduction='none')
        return self.get_loss(x)


class CrossEntropyLoss(LossBase):
    """Cross-entropy of logits against class indices or class probabilities
    (``ops.cross_entropy``; see there for the formulas and shapes).

    Args:
        weight: a (C,) Tensor of class weights, or None. Default None.
        ignore_index: a class index whose targets count for nothing. Default -100.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        label_smoothing: in [0.0, 1.0]. Default 0.0.

    Raises:
        TypeError: for a ``weight`` that is not a Tensor or None, or a non-int
            ``ignore_index``, or a non-float ``label_smoothing``; for floating labels of the
            shape of class indices (MindSpore raises a TypeError too: pass int labels).
        ValueError: for another ``reduction`` or ``label_smoothing`` out of range.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0):
        super().__init__(reduction)
        self.weight = _optional_tensor(weight, 'CrossEntropyLoss', 'weight')
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, numbers.Integral):
            raise TypeError(f"nn.CrossEntropyLoss: ignore_index must be an int, got "
                            f"{ignore_index!r}")
        if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, numbers.Real):
            raise TypeError(f"nn.CrossEntropyLoss: label_smoothing must be a float, got "
                            f"{type(label_smoothing).__name__}")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"nn.CrossEntropyLoss: label_smoothing must be in [0.0, 1.0], got "
                             f"{label_smoothing}")
        self.ignore_index = int(ignore_index)
        self.label_smoothing = float(label_smoothing)

    def construct(self, logits, labels):
        _check_index_labels(self, logits, labels)
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log-likelihood of log-probabilities at class indices (``ops.nll_loss``).

    Args:
        weight: a (C,) Tensor of class weights, or None. Default None.
        ignore_index: a class index whose targets count for nothing. Default -100.
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        TypeError: for a ``weight`` that is not a Tensor or None, or a non-int
            ``ignore_index``.
        ValueError: for another ``reduction``.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction='mean'):
        super().__init__(reduction)
        self.weight = _optional_tensor(weight, 'NLLLoss', 'weight')
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, numbers.Integral):
            raise TypeError(f"nn.NLLLoss: ignore_index must be an int, got {ignore_index!r}")
        self.ignore_index = int(ignore_index)

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class MSELoss(LossBase):
    """Squared error ``(logits - labels) ** 2``, reduced (``ops.mse_loss``).

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        ValueError: for another ``reduction``.

    Warns:
        UserWarning: when labels of another shape are broadcast against the logits (once
            per call site).
    """

    def construct(self, logits, labels):
        _warn_broadcast(self, logits, labels)
        return ops.mse_loss(logits, labels, self.reduction)


class L1Loss(LossBase):
    """Absolute error ``|logits - labels|``, reduced (``ops.l1_loss``).

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        ValueError: for another ``reduction``.

    Warns:
        UserWarning: when labels of another shape are broadcast against the logits (once
            per call site).
    """

    def construct(self, logits, labels):
        _warn_broadcast(self, logits, labels)
        return ops.l1_loss(logits, labels, self.reduction)


class MAELoss(LossBase):
    """Mean absolute error ``|logits - labels|`` (broadcast), reduced by ``get_loss``.

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.

    Raises:
        ValueError: for another ``reduction``.
        TypeError: for inputs that are not Tensors.

    Warns:
        UserWarning: when labels of another shape are broadcast against the logits (once
            per call site).

    >>> import hookgrad as ms
    >>> ms.nn.MAELoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 1.0, 1.0])).item()
    1.0
    """

    def construct(self, logits, label):
        _check_tensors(self, logits=logits, labels=label)
        _warn_broadcast(self, logits, label)
        return self.get_loss(ops.abs(logits - label))


def _check_tensors(cell, **inputs):
    for arg, x in inputs.items():
        if not isinstance(x, Tensor):
            raise TypeError(f"nn.{type(cell).__name__}: {arg} must be a Tensor, got "
                            f"{type(x).__name__}")


def _check_index_labels(cell, logits, labels):
    """Floating labels of the shape class indices have: a TypeError suggesting int labels
    (floating labels are class probabilities, which have the logits' shape)."""
    if not (isinstance(logits, Tensor) and isinstance(labels, Tensor)
            and labels._data.dtype.kind in 'fV' and logits.ndim >= 1):
        return
    index_shape = logits.shape[:1] + logits.shape[2:] if logits.ndim >= 2 else ()
    if labels.shape == index_shape and labels.shape != logits.shape:
        raise TypeError(f"nn.{type(cell).__name__} '{cell.path()}': labels are {labels.dtype} "
                        f"of shape {labels.shape}, the shape of class indices for logits of "
                        f"shape {logits.shape}: pass class indices as int labels "
                        f"(labels.astype(ms.int32)); floating labels are class probabilities "
                        f"and have the logits' shape")


def _warn_broadcast(cell, logits, labels):
    """Warn (once per call site, under Python's default filter) when labels of another shape
    broadcast against the logits, which rarely means what was meant: a (4, 1) prediction
    against (4,) labels gives a (4, 4) loss. PyTorch warns likewise; MindSpore says nothing."""
    if not (isinstance(logits, Tensor) and isinstance(labels, Tensor)) or \
            logits.shape == labels.shape:
        return
    try:
        shape = np.broadcast_shapes(logits.shape, labels.shape)
    except ValueError:
        return                      # the op raises its own error
    hint = (f" (e.g. labels.reshape{logits.shape})" if labels.size == logits.size else "")
    warn(f"nn.{type(cell).__name__} '{cell.path()}': labels of shape {labels.shape} "
         f"are broadcast against logits of shape {logits.shape} to {shape}, which is "
         f"likely to give a wrong loss; give them the same shape{hint}",
         UserWarning)



class BCEWithLogitsLoss(LossBase):
    """Binary cross-entropy of ``sigmoid(logits)`` against labels, computed from the logits
    (``ops.binary_cross_entropy_with_logits``).

    Args:
        reduction: 'none', 'mean' or 'sum'. Default 'mean'.
        weight: Tensor of per-element weights broadcasting with the logits, or None.
        pos_weight: Tensor of positive-class weights broadcasting with the logits, or None.

    Raises:
        TypeError: for a ``weight`` or ``pos_weight`` that is not a Tensor or None.
        ValueError: for another ``reduction``, or logits and labels of different shapes (as
            in MindSpore).
    """

    def __init__(self, reduction='mean', weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = _optional_tensor(weight, 'BCEWithLogitsLoss', 'weight')
        self.pos_weight = _optional_tensor(pos_weight, 'BCEWithLogitsLoss', 'pos_weight')

    def construct(self, logits, labels):
        if isinstance(logits, Tensor) and isinstance(labels, Tensor) and \
                logits.shape != labels.shape:
            raise ValueError(f"nn.BCEWithLogitsLoss '{self.path()}': logits and labels must "
                             f"have the same shape, got {logits.shape} and {labels.shape}")
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight,
                                                    self.pos_weight, self.reduction)


from .loss_regression import *  # noqa: E402,F401,F403
from .loss_margin import *  # noqa: E402,F401,F403
from .loss_ext import *  # noqa: E402,F401,F403
from . import loss_margin as _margin, loss_regression as _regression  # noqa: E402
from . import loss_ext as _ext  # noqa: E402
__all__ += _regression.__all__ + _margin.__all__ + _ext.__all__

from ...compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.nn.loss.loss')
