"""More of MindSpore's Primitive classes used in model code: embedding lookups, diagonals,
cross products, bounds, top-k membership, local response normalization, sequence reversal,
in-place n-d scatters, index grids, weight-decayed Adam and Adagrad V2.

Each computes through hookgrad's ops (see ``primitives.py``). Constructor and call arguments
follow MindSpore 2.10's Primitives.
"""
import numbers

import numpy as np

from .._dtype import float32 as _float32, int32 as _int32, int64 as _int64, to_numpy
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .array_primitives import GatherV2, _InPlaceScatter
from .primitives import Primitive, _flag
from .primitives_state import _parameter
from . import (arithmetic as _arith, comparison as _cmp, creation as _create,
               indexing as _index, nn_pad as _pad, pooling as _pool, products as _products,
               reduction as _red, scatter_gather as _scatter, selection as _select,
               shaping as _shape, sorting as _sort, unary as _unary)
from ._base import as_tensor, normalize_axis, scalar_arg
from .conv import as_ints

__all__ = [
    'EmbeddingLookup', 'SparseGatherV2', 'DiagPart', 'Cross', 'IndexFill', 'UpperBound',
    'LowerBound', 'InTopK', 'LRN', 'UniqueConsecutive', 'Padding', 'ReverseSequence',
    'TrilIndices', 'TriuIndices', 'LogSpace', 'Ger', 'MaxPoolWithArgmaxV2', 'ScatterNdMax',
    'ScatterNdMin', 'ScatterNdMul', 'ScatterNdDiv', 'ScatterNonAliasingAdd', 'AdamWeightDecay',
    'ApplyAdagradV2', 'Assert',
]


def _int(value, prim, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ops.{prim}: {what} must be an int, got {value!r}")
    return int(value)


def _int_dtype(dtype, prim, what):
    if to_numpy(dtype) not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"ops.{prim}: {what} must be Int32 or Int64, got {dtype}")
    return dtype


# ----------------------------------------------------------------------------- gathers
class EmbeddingLookup(Primitive):
    """``EmbeddingLookup()(input_params, input_indices, offset)``: the rows
    ``input_params[i - offset]``; indices outside the table give rows of zeros."""
    def construct(self, input_params, input_indices, offset):
        table = as_tensor(input_params, 'input_params')
        idx = as_tensor(input_indices, 'input_indices')
        if idx._data.dtype.kind not in 'iu':
            raise TypeError(f"ops.EmbeddingLookup: input_indices must be an integer Tensor, "
                            f"got {idx.dtype}")
        local = idx._data.astype(np.int64) - int(offset)
        inside = (local >= 0) & (local < table.shape[0])
        rows = _index.gather(table, Tensor._wrap(np.where(inside, local, 0)), 0)
        keep = inside.reshape(inside.shape + (1,) * (table.ndim - 1))
        return _arith.mul(rows, Tensor._wrap(keep.astype(table._data.dtype)))


class SparseGatherV2(GatherV2):
    """``SparseGatherV2()(input_params, input_indices, axis)``: ``GatherV2``'s slices."""


class DiagPart(Primitive):
    """``DiagPart()(input_x)``: for x of shape (D1..Dk, D1..Dk), the (D1..Dk) diagonal."""
    def construct(self, input_x):
        x = as_tensor(input_x, 'input_x')
        k = x.ndim // 2
        if x.ndim == 0 or x.ndim % 2 or x.shape[:k] != x.shape[k:]:
            raise ValueError(f"ops.DiagPart: input_x must have shape (D1..Dk, D1..Dk), got "
                             f"{x.shape}")
        n = int(np.prod(x.shape[:k]))
        return _shape.reshape(_index.take(_shape.reshape(x, (n * n,)),
                                          Tensor._wrap(np.arange(n) * (n + 1))), x.shape[:k])


class Cross(Primitive):
    """``Cross(dim=-65530)(x1, x2)``: the cross product of 3-vectors along ``dim`` (by
    default the first dimension of size 3)."""
    def __init__(self, dim=-65530):
        super().__init__(dim=_int(dim, 'Cross', 'dim'))

    def construct(self, x1, x2):
        a, b = as_tensor(x1, 'x1'), as_tensor(x2, 'x2')
        if a.shape != b.shape:
            raise ValueError(f"ops.Cross: x1 and x2 must have one shape, got {a.shape} and "
                             f"{b.shape}")
        if self.dim == -65530:
            sizes = [i for i, s in enumerate(a.shape) if s == 3]
            if not sizes:
                raise ValueError(f"ops.Cross: no dimension of size 3 in shape {a.shape}")
            axis = sizes[0]
        else:
            axis = normalize_axis(self.dim, a.ndim, 'Cross')
        if a.shape[axis] != 3:
            raise ValueError(f"ops.Cross: dimension {axis} of shape {a.shape} must have size 3")
        a0, a1, a2 = _shape.split(a, 1, axis)
        b0, b1, b2 = _shape.split(b, 1, axis)
        parts = [_arith.sub(_arith.mul(p, q), _arith.mul(r, s))
                 for p, q, r, s in ((a1, b2, a2, b1), (a2, b0, a0, b2), (a0, b1, a1, b0))]
        return _shape.concat(parts, axis)


class IndexFill(Primitive):
    """``IndexFill()(x, dim, index, value)``: x with ``value`` at positions ``index`` along
    ``dim``."""
    def construct(self, x, dim, index, value):
        return _select.index_fill(x, dim, index, value)


class _Bound(Primitive):
    right = False

    def __init__(self, out_type=_int32):
        super().__init__(out_type=_int_dtype(out_type, type(self).__name__, 'out_type'))

    def construct(self, sorted_x, values):
        s, v = as_tensor(sorted_x, 'sorted_x'), as_tensor(values, 'values')
        if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
            raise ValueError(f"ops.{type(self).__name__}: sorted_x and values must be 2-d with "
                             f"one number of rows, got {s.shape} and {v.shape}")
        return _arith.cast(_sort.searchsorted(s, v, right=self.right), self.out_type)


class UpperBound(_Bound):
    """``UpperBound(out_type=int32)(sorted_x, values)``: per row, the index of the first
    element of sorted_x greater than each value."""
    right = True


class LowerBound(_Bound):
    """``LowerBound(out_type=int32)(sorted_x, values)``: per row, the index of the first
    element of sorted_x not less than each value."""


class InTopK(Primitive):
    """``InTopK(k)(x1, x2)``: Bool (N,), whether the target class x2[i] is among the k largest
    of row x1[i] (ties count in its favour)."""
    def __init__(self, k):
        super().__init__(k=_int(k, 'InTopK', 'k'))

    def construct(self, x1, x2):
        x, t = as_tensor(x1, 'x1'), as_tensor(x2, 'x2')
        if x.ndim != 2 or t.shape != x.shape[:1]:
            raise ValueError(f"ops.InTopK: x1 must be (N, C) and x2 (N,), got {x.shape} and "
                             f"{t.shape}")
        target = _scatter.gather_elements(x, 1, _shape.reshape(_arith.cast(t, _int64), (-1, 1)))
        above = _red.reduce_sum(_arith.cast(_cmp.gt(x, target), _int32), 1)
        return _cmp.lt(above, self.k)


# ----------------------------------------------------------------------------- normalization
class LRN(Primitive):
    """``LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')(x)``:
    ``x / (bias + alpha * s) ** beta`` for an (N, C, H, W) x, s the sum of squares over the
    channels within depth_radius of each one."""
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region='ACROSS_CHANNELS'):
        radius = _int(depth_radius, 'LRN', 'depth_radius')
        if radius < 0:
            raise ValueError(f"ops.LRN: depth_radius must be >= 0, got {radius}")
        if norm_region != 'ACROSS_CHANNELS':
            raise ValueError(f"ops.LRN: norm_region must be 'ACROSS_CHANNELS', got "
                             f"{norm_region!r}")
        for what, v in (('bias', bias), ('alpha', alpha), ('beta', beta)):
            if not isinstance(v, float):
                raise TypeError(f"ops.LRN: {what} must be a float, got {v!r}")
        super().__init__(depth_radius=radius, bias=bias, alpha=alpha, beta=beta,
                         norm_region=norm_region)

    def construct(self, x):
        x = as_tensor(x, 'x')
        if x.ndim != 4:
            raise ValueError(f"ops.LRN: x must be 4-d (N, C, H, W), got shape {x.shape}")
        r, c = self.depth_radius, x.shape[1]
        sq = _pad.padded(_arith.square(x), [(0, 0), (0, 0), (r, r)], 'constant', 0, 'LRN')
        total = _red.reduce_sum(_shape.stack([_index.getitem(sq, (slice(None), slice(i, i + c)))
                                              for i in range(2 * r + 1)], 0), 0)
        scale = _arith.add(_arith.mul(total, self.alpha), self.bias)
        return _arith.div(x, _arith.pow(scale, self.beta))


class UniqueConsecutive(Primitive):
    """``UniqueConsecutive(return_inverse=False, return_counts=False, dim=None)(x)``:
    ``(output, inverse, counts)``, runs of equal consecutive elements collapsed; inverse
    and counts not asked for are 0-d zeros, as MindSpore returns them."""
    def __init__(self, return_inverse=False, return_counts=False, dim=None):
        super().__init__(return_inverse=_flag(return_inverse, 'UniqueConsecutive',
                                              'return_inverse'),
                         return_counts=_flag(return_counts, 'UniqueConsecutive',
                                             'return_counts'), dim=dim)

    def construct(self, x):
        r = _select.unique_consecutive(x, True, True, self.dim)
        return (r[0], r[1] if self.return_inverse else Tensor(0, _int64),
                r[2] if self.return_counts else Tensor(0, _int64))


# ----------------------------------------------------------------------------- rearrangement
class Padding(Primitive):
    """``Padding(pad_dim_size=8)(x)``: x, whose last dimension has size 1, extended with zeros
    to ``pad_dim_size`` along it."""
    def __init__(self, pad_dim_size=8):
        size = _int(pad_dim_size, 'Padding', 'pad_dim_size')
        if size < 1:
            raise ValueError(f"ops.Padding: pad_dim_size must be > 0, got {size}")
        super().__init__(pad_dim_size=size)

    def construct(self, x):
        x = as_tensor(x, 'x')
        if x.ndim < 1 or x.shape[-1] != 1:
            raise ValueError(f"ops.Padding: the last dimension of x must be 1, got shape "
                             f"{x.shape}")
        return _pad.padded(x, [(0, self.pad_dim_size - 1)], 'constant', 0, 'Padding')


class ReverseSequence(Primitive):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``: for each index b along
    ``batch_dim``, the first ``seq_lengths[b]`` elements along ``seq_dim`` reversed."""
    def __init__(self, seq_dim, batch_dim=0):
        super().__init__(seq_dim=_int(seq_dim, 'ReverseSequence', 'seq_dim'),
                         batch_dim=_int(batch_dim, 'ReverseSequence', 'batch_dim'))

    def construct(self, x, seq_lengths):
        x = as_tensor(x, 'x')
        seq = normalize_axis(self.seq_dim, x.ndim, 'ReverseSequence')
        batch = normalize_axis(self.batch_dim, x.ndim, 'ReverseSequence')
        lengths = as_tensor(seq_lengths, 'seq_lengths')._data.astype(np.int64)
        if seq == batch or lengths.shape != (x.shape[batch],) or \
                np.any((lengths < 0) | (lengths > x.shape[seq])):
            raise ValueError(f"ops.ReverseSequence: seq_lengths must hold {x.shape[batch]} "
                             f"lengths in [0, {x.shape[seq]}] and seq_dim differ from "
                             f"batch_dim, got {lengths.tolist()}")
        pos = np.arange(x.shape[seq])[None, :]
        n = lengths[:, None]
        src = np.where(pos < n, n - 1 - pos, pos)            # (batch, seq)
        shape = [1] * x.ndim
        shape[batch], shape[seq] = x.shape[batch], x.shape[seq]
        index = (src.T if batch > seq else src).reshape(shape)
        return _scatter.gather_elements(x, seq, Tensor._wrap(np.broadcast_to(
            index, x.shape).copy()))


class _Indices(Primitive):
    lower = True

    def __init__(self, row, col, offset=0, dtype=_int32):
        prim = type(self).__name__
        row, col = _int(row, prim, 'row'), _int(col, prim, 'col')
        if row < 0 or col < 0:
            raise ValueError(f"ops.{prim}: row and col must be >= 0, got {row} and {col}")
        super().__init__(row=row, col=col, offset=_int(offset, prim, 'offset'),
                         dtype=_int_dtype(dtype, prim, 'dtype'))

    def construct(self):
        find = np.tril_indices if self.lower else np.triu_indices
        rows, cols = find(self.row, self.offset, self.col)
        return Tensor(np.stack([rows, cols]).astype(to_numpy(self.dtype)), self.dtype)


class TrilIndices(_Indices):
    """``TrilIndices(row, col, offset=0, dtype=int32)()``: the (2, N) coordinates of the
    lower triangle of a row x col matrix, row by row."""


class TriuIndices(_Indices):
    """``TriuIndices(row, col, offset=0, dtype=int32)()``: the (2, N) coordinates of the
    upper triangle of a row x col matrix, row by row."""
    lower = False


class LogSpace(Primitive):
    """``LogSpace(steps=10, base=10, dtype=float32)(start, end)``: ``base ** t`` for ``steps``
    evenly spaced t from start to end."""
    def __init__(self, steps=10, base=10, dtype=_float32):
        steps, base = _int(steps, 'LogSpace', 'steps'), _int(base, 'LogSpace', 'base')
        if steps < 0 or base < 0:
            raise ValueError(f"ops.LogSpace: steps and base must be >= 0, got {steps} and "
                             f"{base}")
        super().__init__(steps=steps, base=base, dtype=dtype)

    def construct(self, start, end):
        exponent = _create.linspace(scalar_arg(start, 'start'), scalar_arg(end, 'end'),
                                    self.steps)
        return _arith.cast(_arith.pow(float(self.base), exponent), self.dtype)


class Ger(Primitive):
    """``Ger()(x1, x2)``: the outer product of two 1-d tensors."""
    def construct(self, x1, x2):
        return _products.ger(x1, x2)


class MaxPoolWithArgmaxV2(Primitive):
    """``MaxPoolWithArgmaxV2(kernel_size, strides=None, pads=0, dilation=(1, 1),
    ceil_mode=False, argmax_type=int64)(x)``: ``(output, argmax)``, argmax the position of each
    maximum in its (H, W) plane."""
    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=_int64):
        where = 'ops.MaxPoolWithArgmaxV2'
        kernel = as_ints(kernel_size, 2, where, 'kernel_size')
        super().__init__(kernel_size=kernel,
                         strides=kernel if strides is None else as_ints(strides, 2, where,
                                                                        'strides'),
                         pads=as_ints(pads, 2, where, 'pads', minimum=0),
                         dilation=as_ints(dilation, 2, where, 'dilation'),
                         ceil_mode=_flag(ceil_mode, 'MaxPoolWithArgmaxV2', 'ceil_mode'),
                         argmax_type=_int_dtype(argmax_type, 'MaxPoolWithArgmaxV2',
                                                'argmax_type'))

    def construct(self, x):
        y, index = _pool.max_pool2d(x, self.kernel_size, self.strides, self.pads,
                                    self.dilation, True, self.ceil_mode)
        return y, _arith.cast(index, self.argmax_type)


# ----------------------------------------------------------------------------- in place
class ScatterNdMax(_InPlaceScatter):
    """``ScatterNdMax(use_locking=False)(input_x, indices, updates)``: in-place n-d maxima."""
    function = staticmethod(_select.scatter_nd_max)


class ScatterNdMin(_InPlaceScatter):
    """``ScatterNdMin(use_locking=False)(input_x, indices, updates)``: in-place n-d minima."""
    function = staticmethod(_select.scatter_nd_min)


class ScatterNdMul(_InPlaceScatter):
    """``ScatterNdMul(use_locking=False)(input_x, indices, updates)``: in-place n-d products."""
    function = staticmethod(_select.scatter_nd_mul)


class ScatterNdDiv(_InPlaceScatter):
    """``ScatterNdDiv(use_locking=False)(input_x, indices, updates)``: in-place n-d
    quotients."""
    function = staticmethod(_select.scatter_nd_div)


class ScatterNonAliasingAdd(Primitive):
    """``ScatterNonAliasingAdd()(input_x, indices, updates)``: updates added in place at the
    n-d positions of indices; returns input_x."""
    def construct(self, input_x, indices, updates):
        return _select.scatter_nd_add(input_x, indices, updates)


class AdamWeightDecay(Primitive):
    """``AdamWeightDecay(use_locking=False)(var, m, v, lr, beta1, beta2, epsilon, decay,
    gradient)``: in place, ``m = beta1 m + (1 - beta1) g``, ``v = beta2 v + (1 - beta2) g ** 2``
    and ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)`` (no bias correction); returns
    ``(var, m, v)``."""
    def __init__(self, use_locking=False):
        super().__init__(use_locking=_flag(use_locking, 'AdamWeightDecay', 'use_locking'))

    def construct(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        for what, p in (('var', var), ('m', m), ('v', v)):
            _parameter(p, 'AdamWeightDecay', what)
        with no_grad():
            g = gradient
            new_m = _arith.add(_arith.mul(m, beta1), _arith.mul(g, 1.0 - beta1))
            new_v = _arith.add(_arith.mul(v, beta2), _arith.mul(_arith.square(g), 1.0 - beta2))
            step = _arith.add(_arith.div(new_m, _arith.add(_unary.sqrt(new_v), epsilon)),
                              _arith.mul(var, decay))
            new = _arith.sub(var, _arith.mul(step, lr))
        _create.assign(m, new_m)
        _create.assign(v, new_v)
        return _create.assign(var, new), m, v


class ApplyAdagradV2(Primitive):
    """``ApplyAdagradV2(epsilon, update_slots=True)(var, accum, lr, grad)``: in place,
    ``accum += grad ** 2`` (with update_slots) and ``var -= lr * grad / (sqrt(accum) +
    epsilon)``; returns ``(var, accum)``."""
    def __init__(self, epsilon, update_slots=True):
        if not isinstance(epsilon, float):
            raise TypeError(f"ops.ApplyAdagradV2: epsilon must be a float, got {epsilon!r}")
        super().__init__(epsilon=epsilon,
                         update_slots=_flag(update_slots, 'ApplyAdagradV2', 'update_slots'))

    def construct(self, var, accum, lr, grad):
        var = _parameter(var, 'ApplyAdagradV2', 'var')
        accum = _parameter(accum, 'ApplyAdagradV2', 'accum')
        with no_grad():
            acc = _arith.add(accum, _arith.square(grad)) if self.update_slots else accum
            step = _arith.div(_arith.mul(grad, lr), _arith.add(_unary.sqrt(acc), self.epsilon))
            new = _arith.sub(var, step)
        if self.update_slots:
            _create.assign(accum, acc)
        return _create.assign(var, new), accum


class Assert(Primitive):
    """``Assert(summarize=3)(condition, input_data)``: raises when the Bool condition is
    False, showing the first ``summarize`` values of each input_data tensor."""
    def __init__(self, summarize=3):
        super().__init__(summarize=_int(summarize, 'Assert', 'summarize'))

    def construct(self, condition, input_data):
        ok = condition.asnumpy().all() if isinstance(condition, Tensor) else bool(condition)
        if not ok:
            shown = [np.asarray(t.asnumpy() if isinstance(t, Tensor) else t).reshape(-1)[
                :self.summarize].tolist() for t in input_data]
            raise ValueError(f"ops.Assert: the condition is False; input_data: {shown}")
