"""MindSpore 2.x ``ops`` functions of transformer and sequence layers, and functional forms of
Tensor methods: embedding, rms_norm, swiglu, rotary_position_embedding, gumbel_softmax,
sequence_mask, multilabel_margin_loss, population_count, select_scatter, slice_scatter,
nanmedian, type_as, soft_shrink and mse_loss_ext.

All but population_count (a bit count, no gradient) are composed of hookgrad's ops, so
gradients come from theirs; the Tensor-method forms call the method, the one implementation.
"""
import numbers

import numpy as np

from .. import _random
from .._tensor import Tensor
from ..autograd.function import Op
from ..autograd.grad_mode import no_grad
from ..kernels.backend import array_module
from .activation import relu, silu, softmax
from .arithmetic import add, cast, mul, neg, sub
from .comparison import lt, ne
from .creation import arange, one_hot, stop_gradient, tensor_on
from .indexing import gather, where
from .nn_activation import softshrink
from .pointwise_loss import mse_loss
from .reduction import amax, argmax, mean, sum as _sum
from .scatter_gather import gather_elements
from .shaping import concat, expand_dims, reshape, split, stack
from .unary import rsqrt

__all__ = ['embedding', 'rms_norm', 'swiglu', 'rotary_position_embedding', 'gumbel_softmax',
           'sequence_mask', 'multilabel_margin_loss', 'population_count', 'select_scatter',
           'slice_scatter', 'nanmedian', 'type_as', 'soft_shrink', 'mse_loss_ext']

soft_shrink = softshrink
mse_loss_ext = mse_loss


def _tensor(value, name, arg='input'):
    if not isinstance(value, Tensor):
        raise TypeError(f"ops.{name}: {arg} must be a Tensor, got {type(value).__name__}")
    return value


def _floating(value, name, arg='input'):
    x = _tensor(value, name, arg)
    if x._data.dtype.kind not in 'fV':
        raise TypeError(f"ops.{name}: {arg} must be a floating tensor, got {x.dtype}")
    return x


def _int(value, name, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{name}: {arg} must be an int, got {type(value).__name__}")
    return int(value)


# ------------------------------------------------------------------------------ layers
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Rows of ``weight`` (num_embeddings, dim) at the integer indices ``input``; the row
    ``padding_idx`` gets no gradient.

    ``max_norm``: first, each row ``input`` looks up whose ``norm_type``-norm exceeds it is
    scaled in place to that norm (``max_norm / (norm + 1e-7)``, outside the graph, as MindSpore's
    docs and PyTorch do). ``scale_grad_by_freq``: each row's gradient is divided by how often
    ``input`` looks it up.

    Raises:
        ValueError: when ``padding_idx`` is outside [-num_embeddings, num_embeddings), or
            ``max_norm`` is not positive.
    """
    x = _tensor(input, 'embedding')
    weight = _tensor(weight, 'embedding', 'weight')
    if x._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.embedding: input must be an integer tensor, got {x.dtype}")
    rows = weight.shape[0]
    if max_norm is not None:
        _renormalize_rows(weight, x, max_norm, norm_type)
    if padding_idx is not None:
        padding_idx = _int(padding_idx, 'embedding', 'padding_idx')
        if not -rows <= padding_idx < rows:
            raise ValueError(f"ops.embedding: padding_idx must be in [{-rows}, {rows}), got "
                             f"{padding_idx}")
        keep = ne(arange(rows), padding_idx % rows)
        weight = where(expand_dims(keep, 1), weight, stop_gradient(weight))
    y = gather(weight, x, 0)
    if scale_grad_by_freq:
        # the value stays y exactly; the gradient of each lookup is divided by its row's count
        xp = array_module(x._data)
        flat = x._data.reshape(-1).astype(np.int64) % rows
        counts = xp.bincount(flat, minlength=rows)[flat].reshape(x.shape + (1,))
        share = mul(y, Tensor._wrap((1.0 / counts).astype(y._data.dtype)))
        y = add(stop_gradient(y), sub(share, stop_gradient(share)))
    return y


def _renormalize_rows(weight, index, max_norm, norm_type):
    """Scale, in place, the rows of ``weight`` that ``index`` looks up whose ``norm_type``-norm
    exceeds ``max_norm`` down to it."""
    if isinstance(max_norm, bool) or not isinstance(max_norm, numbers.Real) or max_norm <= 0:
        raise ValueError(f"ops.embedding: max_norm must be a positive number, got {max_norm!r}")
    xp = array_module(weight._data)
    used = xp.unique(index._data.reshape(-1).astype(np.int64) % weight.shape[0])
    block = weight._data[used]
    p = float(norm_type)
    wide = xp.abs(block).astype(np.float64)       # the norm and scale in double, as PyTorch
    norms = wide.max(axis=1) if p == float('inf') else (wide ** p).sum(axis=1) ** (1.0 / p)
    scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(block.dtype)
    with no_grad():
        weight[Tensor._wrap(used)] = Tensor._wrap(block * scale[:, None])


def rms_norm(x, gamma, epsilon=1e-6):
    """``(x / sqrt(mean(x^2) + epsilon) * gamma, rstd)``, the mean over the trailing axes
    ``gamma`` spans; ``rstd`` (Float32) is ``1 / sqrt(mean(x^2) + epsilon)`` with those axes
    kept as 1.

    Raises:
        TypeError: for non-floating x or gamma, or different dtypes.
        ValueError: when epsilon is outside (0, 1] or gamma has more axes than x.
    """
    x = _floating(x, 'rms_norm', 'x')
    gamma = _floating(gamma, 'rms_norm', 'gamma')
    if x.dtype != gamma.dtype:
        raise TypeError(f"ops.rms_norm: x and gamma must have the same dtype, got {x.dtype} "
                        f"and {gamma.dtype}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, float) or not 0 < epsilon <= 1:
        raise ValueError(f"ops.rms_norm: epsilon must be a float in (0, 1], got {epsilon!r}")
    k = gamma.ndim
    if k > x.ndim:
        raise ValueError(f"ops.rms_norm: gamma has more axes than x: shapes {gamma.shape} and "
                         f"{x.shape}")
    axes = tuple(range(x.ndim - k, x.ndim))
    rstd = rsqrt(add(mean(mul(x, x), axes, True), epsilon))
    return mul(mul(x, rstd), gamma), cast(rstd, np.float32)


def _halves(x, axis, name):
    if x.shape[axis] % 2:
        raise ValueError(f"ops.{name}: the dimension {axis} must be divisible by 2, got shape "
                         f"{x.shape}")
    return split(x, x.shape[axis] // 2, axis)


def swiglu(input, dim=-1):
    """``silu(a) * b`` with ``a`` and ``b`` the first and second halves of ``input`` along
    ``dim``.

    Raises:
        TypeError: for a non-floating input or a non-int dim.
        ValueError: when that axis has an odd length.
    """
    x = _floating(input, 'swiglu')
    a, b = _halves(x, _int(dim, 'swiglu', 'dim'), 'swiglu')
    return mul(silu(a), b)


def rotary_position_embedding(x, cos, sin, mode=0):
    """``x * cos + rotate(x) * sin`` over the last axis (of even length D) of a 4-d ``x``.

    ``mode`` 0 (GPT-NeoX): rotate(x) = concat(-x[..., D/2:], x[..., :D/2]); ``mode`` 1
    (GPT-J): each pair (x[2i], x[2i+1]) becomes (-x[2i+1], x[2i]). ``cos`` and ``sin``
    broadcast against ``x``.

    Raises:
        TypeError: for non-floating tensors or different dtypes.
        ValueError: for a mode other than 0 or 1, a non-4-d x or an odd last axis.
    """
    x = _floating(x, 'rotary_position_embedding', 'x')
    cos = _floating(cos, 'rotary_position_embedding', 'cos')
    sin = _floating(sin, 'rotary_position_embedding', 'sin')
    if not x.dtype == cos.dtype == sin.dtype:
        raise TypeError(f"ops.rotary_position_embedding: x, cos and sin must have the same "
                        f"dtype, got {x.dtype}, {cos.dtype} and {sin.dtype}")
    if mode not in (0, 1) or isinstance(mode, bool):
        raise ValueError(f"ops.rotary_position_embedding: mode must be 0 or 1, got {mode!r}")
    if x.ndim != 4:
        raise ValueError(f"ops.rotary_position_embedding: x must be 4-d, got shape {x.shape}")
    if mode == 0:
        first, second = _halves(x, -1, 'rotary_position_embedding')
        rotated = concat((neg(second), first), -1)
    else:
        _halves(x, -1, 'rotary_position_embedding')
        pairs = reshape(x, x.shape[:-1] + (x.shape[-1] // 2, 2))
        rotated = reshape(stack((neg(pairs[..., 1]), pairs[..., 0]), -1), x.shape)
    return add(mul(x, cos), mul(rotated, sin))


class GumbelNoise(Op):
    """y = -log(-log(u)) with u ~ U(0, 1) of x's shape and dtype, from the global generator
    (``ms.set_seed``); no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        u = _random.generator().random(x.shape)
        u = np.clip(u, np.finfo(np.float64).tiny, 1.0)      # keep log(u) finite
        g = (-np.log(-np.log(u))).astype(x.dtype)
        return g if ctx.xp is np else ctx.xp.asarray(g)


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """``softmax((logits + g) / tau)`` along ``dim``, g standard Gumbel noise; with ``hard``
    the one-hot of its argmax, whose gradient is the soft sample's.

    Raises:
        TypeError: for a non-floating logits, a non-float tau, a non-bool hard or a non-int dim.
        ValueError: when tau is not positive.
    """
    x = _floating(logits, 'gumbel_softmax', 'logits')
    if not isinstance(tau, float):
        raise TypeError(f"ops.gumbel_softmax: tau must be a float, got {type(tau).__name__}")
    if tau <= 0:
        raise ValueError(f"ops.gumbel_softmax: tau must be positive, got {tau}")
    if not isinstance(hard, bool):
        raise TypeError(f"ops.gumbel_softmax: hard must be a bool, got {type(hard).__name__}")
    dim = _int(dim, 'gumbel_softmax', 'dim')
    y = softmax(mul(add(x, GumbelNoise.apply(x)), 1.0 / tau), dim)
    if not hard:
        return y
    axis = dim % x.ndim
    index = argmax(y, axis)
    onehot = cast(one_hot(index, x.shape[axis], 1, 0, axis), x.dtype)
    return add(sub(onehot, stop_gradient(y)), y)


def sequence_mask(lengths, maxlen=None):
    """Bool ``(*lengths.shape, maxlen)``: position j of row i is True where j < lengths[i];
    ``maxlen`` defaults to the largest length.

    Raises:
        TypeError: for lengths that are not Int32 or Int64, or a non-int maxlen.
        ValueError: when maxlen is not positive.
    """
    lengths = _tensor(lengths, 'sequence_mask', 'lengths')
    if lengths._data.dtype not in (np.int32, np.int64):
        raise TypeError(f"ops.sequence_mask: lengths must be Int32 or Int64, got "
                        f"{lengths.dtype}")
    if maxlen is None:
        maxlen = int(amax(lengths).asnumpy()) if lengths.size else 0
    else:
        maxlen = _int(maxlen, 'sequence_mask', 'maxlen')
        if maxlen <= 0:
            raise ValueError(f"ops.sequence_mask: maxlen must be positive, got {maxlen}")
    return lt(cast(arange(maxlen), lengths.dtype), expand_dims(lengths, -1))


def multilabel_margin_loss(input, target, reduction='mean'):
    """Multi-label hinge loss of scores (C) or (N, C) and integer targets of that shape
    (labels up to the first -1): per sample ``sum over targets j and non-targets i of
    max(0, 1 - (x[j] - x[i])) / C``, reduced by 'none', 'sum' or 'mean'.

    Raises:
        TypeError: for a non-floating input or a non-integer target.
        ValueError: for other shapes or reductions.
    """
    x = _floating(input, 'multilabel_margin_loss')
    t = _tensor(target, 'multilabel_margin_loss', 'target')
    if t._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.multilabel_margin_loss: target must be an integer tensor, got "
                        f"{t.dtype}")
    if x.ndim not in (1, 2) or t.shape != x.shape:
        raise ValueError(f"ops.multilabel_margin_loss: input must be (C) or (N, C) and target "
                         f"of the same shape, got {x.shape} and {t.shape}")
    if reduction not in ('none', 'mean', 'sum'):
        raise ValueError(f"ops.multilabel_margin_loss: reduction must be 'none', 'mean' or "
                         f"'sum', got {reduction!r}")
    single = x.ndim == 1
    if single:
        x, t = expand_dims(x, 0), expand_dims(t, 0)
    c = x.shape[1]
    valid, picked, is_target = _label_sets(t.asnumpy())
    weight = valid[:, :, None] & ~is_target[:, None, :]               # (N, target j, class i)
    xj = gather_elements(x, 1, tensor_on(picked, x, 'target'))        # (N, C): x at each label
    hinge = relu(add(sub(expand_dims(x, 1), expand_dims(xj, 2)), 1.0))
    weight = tensor_on(weight.astype(x._data.dtype), x, 'target')
    loss = mul(_sum(mul(hinge, weight), (1, 2)), 1.0 / c)
    if reduction == 'mean':
        return mean(loss)
    if reduction == 'sum':
        return _sum(loss)
    return reshape(loss, ()) if single else loss


def _label_sets(labels):
    """(valid, picked, is_target) of (N, C) label lists: which entries come before the first
    -1, the labels with the rest set to 0, and which classes each row lists."""
    labels = labels.astype(np.int64)
    valid = np.cumprod(labels != -1, axis=1).astype(bool)
    picked = np.where(valid, labels, 0)
    is_target = np.zeros(labels.shape, bool)
    rows = np.broadcast_to(np.arange(labels.shape[0])[:, None], picked.shape)
    is_target[rows[valid], picked[valid]] = True
    return valid, picked, is_target


def label_mask(target):
    """1 at each class a row of ``target`` (C) or (N, C) lists before its first -1, else 0, in
    the target's dtype (MindSpore's ``is_target``)."""
    t = _tensor(target, 'multilabel_margin_loss', 'target')
    labels = t.asnumpy().reshape((-1, t.shape[-1]) if t.ndim else (1, 1))
    mask = _label_sets(labels)[2].astype(t._data.dtype).reshape(t.shape)
    return tensor_on(mask, t, 'target')


# ------------------------------------------------------------------------------ bits
class PopulationCount(Op):
    """y = the number of set bits of each element of an integer x (its two's complement), as
    UInt8; no gradient."""
    differentiable = False

    @staticmethod
    def forward(ctx, x):
        bits = x.dtype.itemsize * 8
        u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
        count = ctx.xp.zeros(x.shape, np.uint8)
        for shift in range(bits):                 # one pass per bit position, not per element
            count += ((u >> shift) & 1).astype(np.uint8)
        return count


def population_count(input_x):
    """UInt8 count of the 1 bits of each element of an integer tensor.

    Raises:
        TypeError: for a non-integer tensor.
    """
    x = _tensor(input_x, 'population_count', 'input_x')
    if x._data.dtype.kind not in 'iu':
        raise TypeError(f"ops.population_count: input_x must be an integer tensor, got "
                        f"{x.dtype}")
    return PopulationCount.apply(x)


# ------------------------------------------------------------------------------ Tensor methods
def select_scatter(input, src, axis, index):
    """A copy of ``input`` whose slice at ``index`` along ``axis`` is ``src``."""
    return _tensor(input, 'select_scatter').select_scatter(src, axis, index)


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """A copy of ``input`` whose slice ``start:end:step`` along ``axis`` is ``src``."""
    return _tensor(input, 'slice_scatter').slice_scatter(src, axis, start, end, step)


def nanmedian(input, axis=-1, keepdims=False):
    """``(values, indices)`` of the lower medians along ``axis`` of the elements that are not
    NaN (NaN where all are)."""
    return _tensor(input, 'nanmedian').nanmedian(axis, keepdims)


def type_as(input, other):
    """``input`` cast to ``other``'s dtype."""
    return _tensor(input, 'type_as').type_as(_tensor(other, 'type_as', 'other'))
