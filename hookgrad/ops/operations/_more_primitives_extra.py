"""MindSpore's Primitive classes MaxPool3DWithArgmax, ResizeArea, EditDistance, Dilation2D and
Betainc.

MaxPool3DWithArgmax runs ``pooling_nd.max_pool3d_padded`` (its gradient goes to each window's
maximum, as MindSpore's bprop sends it). ResizeArea (TensorFlow's area resampling, Float32
out, no gradient in MindSpore) and EditDistance (Levenshtein distances of sparse sequences)
compute on the host. Dilation2D (which MindSpore 2.10's CPU build cannot run) follows its
documented formula: the maximum over the kernel window of input plus filter, 'same' padding
filled with 0 as documented, composed of ``nn_pad.padded``, strided slices, ``stack`` and
``reduction.max`` (whose gradient goes to the first maximum, where MindSpore's backprop sends
it). Betainc is the op ``IncompleteBeta`` (continued fraction in float64, rounded once to the
input's dtype); its gradient, as MindSpore's bprop, flows to ``x`` only (the beta density).
Constructor and call arguments, dtypes and error messages follow MindSpore 2.10.
"""
import math

import numpy as np

from ..._dtype import int32 as _int32, int64 as _int64
from ...autograd.function import Op
from ...autograd.math import array_math
from ...kernels.backend import to_host
from .._base import as_tensor
from ..conv import as_ints
from ..pooling_nd import max_pool3d_padded
from ..arithmetic import cast
from ..nn_pad import padded
from ..reduction import max as _max_with_index
from ..shaping import reshape, stack
from ..special import lgamma
from ..unary import exp, log, log1p
from ._primitive import Primitive, _constant

__all__ = ['MaxPool3DWithArgmax', 'ResizeArea', 'EditDistance', 'Dilation2D', 'Betainc']


def _bool(value, prim, what):
    if not isinstance(value, bool):
        raise TypeError(f"For '{prim}', the type of '{what}' should be 'bool', but got type "
                        f"'{type(value).__name__}'.")
    return value


class MaxPool3DWithArgmax(Primitive):
    """``MaxPool3DWithArgmax(ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False,
    data_format='NCDHW', argmax_type=int64)(x)``: ``(output, argmax)``, 3-d max pooling of the
    (N, C, D, H, W) ``x`` (padding counts as -infinity) and the position of each maximum in
    its (D, H, W) volume."""
    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False,
                 data_format='NCDHW', argmax_type=_int64):
        where = 'MaxPool3DWithArgmax'
        if data_format != 'NCDHW':
            raise ValueError(f"For '{where}', the 'data_format' must be str and must be in "
                             f"'['NCDHW']', but got '{data_format}'.")
        if argmax_type not in (_int32, _int64):
            raise TypeError(f"For '{where}', the 'argmax_type' should be one of "
                            f"[mindspore.int32, mindspore.int64], but got "
                            f"'mindspore.{str(argmax_type).lower()}'.")
        super().__init__(ksize=as_ints(ksize, 3, where, 'ksize'),
                         strides=as_ints(strides, 3, where, 'strides'),
                         pads=as_ints(pads, 3, where, 'pads', minimum=0),
                         dilation=as_ints(dilation, 3, where, 'dilation'),
                         ceil_mode=_bool(ceil_mode, where, 'ceil_mode'),
                         data_format=data_format, argmax_type=argmax_type)

    def construct(self, x):
        x = as_tensor(x, 'x')
        if x.ndim != 5:
            raise ValueError(f"For primitive[MaxPool3DWithArgmax], the input x rank must be "
                             f"equal to 5, but got {x.ndim}.")
        pads = tuple(p for p in self.pads for _ in (0, 1))
        y, argmax = max_pool3d_padded(x, self.ksize, self.strides, pads, self.dilation,
                                      self.ceil_mode, True, 'ops.MaxPool3DWithArgmax')
        if self.argmax_type == _int32:
            argmax = cast(argmax, _int32)
        return y, argmax


def _area_matrix(n_in, n_out, align_corners):
    """(n_out, n_in) weights of TensorFlow's area resize along one axis: each output cell
    covers ``scale`` input cells, partly covered ones weighted by the overlap, indices past the
    input clamped to its last cell; divided by ``scale``."""
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    weights = np.zeros((n_out, n_in))
    for o in range(n_out):
        lo, hi = o * scale, (o + 1) * scale
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            weights[o, min(i, n_in - 1)] += min(i + 1, hi) - max(i, lo)
    return weights / scale


class ResizeArea(Primitive):
    """``ResizeArea(align_corners=False)(images, size)``: the (N, H, W, C) ``images`` resized
    to ``size`` (an Int32 Tensor (new_height, new_width)) by area averaging, as Float32."""
    def __init__(self, align_corners=False):
        super().__init__(align_corners=_bool(align_corners, 'ResizeArea', 'align_corners'))

    def construct(self, images, size):
        x, size = as_tensor(images, 'images'), as_tensor(size, 'size')
        if x.ndim != 4:
            raise ValueError(f"For primitive[ResizeArea], the images dimension must be equal "
                             f"to 4, but got {x.ndim}.")
        if size.dtype != _int32:
            raise TypeError(f"For primitive[ResizeArea], the input argument[size] must be a "
                            f"type of {{Tensor[Int32]}}, but got Tensor[{size.dtype}].")
        hw = [int(v) for v in size.asnumpy().ravel()]
        if len(hw) != 2:
            raise ValueError(f"For primitive[ResizeArea], the input1 num must be equal to 2, but "
                             f"got {len(hw)}.")
        if min(hw) <= 0:
            raise ValueError("For 'ResizeArea', 'size' should only contain positive number.")
        rows = _area_matrix(x.shape[1], hw[0], self.align_corners)
        cols = _area_matrix(x.shape[2], hw[1], self.align_corners)
        out = np.einsum('oh,nhwc,pw->nopc', rows, x.asnumpy().astype(np.float64), cols)
        return _constant(out.astype(np.float32), x)


def _levenshtein(a, b):
    row = list(range(len(b) + 1))
    for i, u in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, v in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (u != v))
    return row[-1]


def _sequences(indices, values):
    """{position (all coordinates but the last): values in order of the last coordinate}."""
    seqs = {}
    for idx, v in sorted(zip(map(tuple, indices.tolist()), values.tolist())):
        seqs.setdefault(idx[:-1], []).append(v)
    return seqs


class EditDistance(Primitive):
    """``EditDistance(normalize=True)(hypothesis_indices, hypothesis_values, hypothesis_shape,
    truth_indices, truth_values, truth_shape)``: the Float32 Levenshtein distance between each
    pair of sequences of two sparse tensors (sequences run along the last dimension; the output
    drops it), divided by the truth's length when ``normalize``."""
    def __init__(self, normalize=True):
        super().__init__(normalize=_bool(normalize, 'EditDistance', 'normalize'))

    def construct(self, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
                  truth_values, truth_shape):
        args = {'hypothesis_indices': hypothesis_indices, 'hypothesis_shape': hypothesis_shape,
                'truth_indices': truth_indices, 'truth_shape': truth_shape}
        for what, t in args.items():
            t = as_tensor(t, what)
            if t.dtype != _int64:
                raise TypeError(f"For primitive[EditDistance], the input argument[{what}] must "
                                f"be a type of {{Tensor[Int64]}}, but got Tensor[{t.dtype}].")
            args[what] = t.asnumpy()
        hv, tv = as_tensor(hypothesis_values), as_tensor(truth_values)
        if hv.dtype != tv.dtype:
            raise TypeError(f"Dtype of hypothesis_values and truth_values must be the same, but "
                            f"got hypothesis_values: Tensor[{hv.dtype}], truth_values: "
                            f"Tensor[{tv.dtype}].")
        for side in ('hypothesis', 'truth'):
            shape, indices = args[f'{side}_shape'], args[f'{side}_indices']
            if shape.shape[0] != indices.shape[1]:
                raise ValueError(f"{side}_shape should be equal to {side}_indices shape[1] but "
                                 f"got {side}_shape: {shape.shape[0]} and {side}_indices "
                                 f"shape[1]: {indices.shape[1]}.")
        hyp = _sequences(args['hypothesis_indices'], hv.asnumpy())
        truth = _sequences(args['truth_indices'], tv.asnumpy())
        out_shape = np.maximum(args['hypothesis_shape'], args['truth_shape'])[:-1]
        out = np.zeros(tuple(int(n) for n in out_shape), np.float32)
        for pos in np.ndindex(*out.shape):
            a, b = hyp.get(pos, []), truth.get(pos, [])
            d = float(_levenshtein(a, b))
            if self.normalize:
                d = d / len(b) if b else (np.inf if a else 0.0)
            out[pos] = d
        return _constant(out, hv)


def _dilation_attr(name, value):
    """MindSpore's (1, 1, height, width) form of Dilation2D's stride or dilation."""
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError(f"For 'Dilation2D', the type of '{name}' should be one of '['int', "
                        f"'tuple']', but got type '{type(value).__name__}'.")
    if isinstance(value, int):
        out = (1, 1, value, value)
    elif len(value) == 2:
        out = (1, 1) + value
    elif len(value) == 4:
        if value[0] != 1 or value[1] != 1:
            raise ValueError(f"For 'Dilation2D' attr '{name}' should be [1, 1, {name}_height, "
                             f"{name}_weigth]when data_format is 'NCHW', but got {value}")
        out = value
    else:
        out = (0,)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in out):
        raise ValueError(f"For 'Dilation2D' attr '{name}' should be an positive int number or a "
                         f"tuple of two or four positive int numbers, but got {value}")
    return tuple(out)


class Dilation2D(Primitive):
    """``Dilation2D(stride, dilation, pad_mode='SAME', data_format='NCHW')(x, filter)``: the
    grayscale dilation ``max_{m, n} x[.., s0 h + d0 m, s1 w + d1 n] + filter[c, m, n]`` of the
    (N, C, H, W) ``x`` by the (C, kh, kw) ``filter`` of its dtype."""
    def __init__(self, stride, dilation, pad_mode='SAME', data_format='NCHW'):
        if data_format == 'NHWC':
            raise ValueError("For 'Dilation2D', NHWC format is not supported at present.")
        if data_format != 'NCHW':
            raise ValueError(f"For 'Dilation2D', the 'data_format' must be str and must be in "
                             f"'['NCHW', 'NHWC']', but got '{data_format}'.")
        if pad_mode not in ('VALID', 'SAME', 'valid', 'same'):
            raise ValueError(f"For 'Dilation2D', the 'pad_mode' must be str and must be in "
                             f"'['VALID', 'SAME', 'valid', 'same']', but got '{pad_mode}'.")
        stride = _dilation_attr('stride', stride)
        if not (1 <= stride[2] <= 255 and 1 <= stride[3] <= 255):
            raise ValueError(f"For Dilation2D, size of stride is not supported, stride should be "
                             f"in the range of [1, 255], but got stride_h: `{stride[2]}`, "
                             f"stride_w: `{stride[3]}`.")
        super().__init__(stride=stride, dilation=_dilation_attr('dilation', dilation),
                         pad_mode=pad_mode.upper(), data_format=data_format)

    def construct(self, x, filter):
        x, f = as_tensor(x, 'x'), as_tensor(filter, 'filter')
        if x.ndim != 4 or f.ndim != 3 or f.shape[0] != x.shape[1]:
            raise ValueError(f"For 'Dilation2D', 'x' must be (N, C, H, W) and 'filter' (C, "
                             f"kh, kw) with the same C, but got shapes {x.shape} and {f.shape}.")
        if x.dtype != f.dtype:
            raise TypeError(f"For 'Dilation2D', 'x' and 'filter' must have one dtype, but got "
                            f"{x.dtype} and {f.dtype}.")
        (s0, s1), (d0, d1) = self.stride[2:], self.dilation[2:]
        kh, kw = f.shape[1:]
        spans = ((kh - 1) * d0 + 1, (kw - 1) * d1 + 1)
        sizes = []
        pairs = []
        for n, s, k in zip(x.shape[2:], (s0, s1), spans):
            if self.pad_mode == 'SAME':
                out = -(-n // s)
                total = max((out - 1) * s + k - n, 0)
                pairs.append((total // 2, total - total // 2))
            else:
                out = -(-(n - k + 1) // s)
                if out <= 0:
                    raise ValueError(f"For 'Dilation2D', the dilated filter {spans} does not fit "
                                     f"the input {x.shape[2:]} with 'VALID' padding.")
            sizes.append(out)
        if pairs:
            x = padded(x, pairs[::-1], 'constant', 0, 'Dilation2D')
        ho, wo = sizes
        windows = [x[:, :, d0 * m:d0 * m + s0 * (ho - 1) + 1:s0,
                     d1 * n:d1 * n + s1 * (wo - 1) + 1:s1]
                   + reshape(f[:, m, n], (1, -1, 1, 1)) for m in range(kh) for n in range(kw)]
        return _max_with_index(stack(windows, -1), -1)[0]


_LGAMMA = np.frompyfunc(math.lgamma, 1, 1)


def _log_beta(a, b):
    return (_LGAMMA(a) + _LGAMMA(b) - _LGAMMA(a + b)).astype(np.float64)


def _continued_fraction(a, b, x, steps=300):
    """The continued fraction of I_x(a, b) (modified Lentz), element-wise in float64."""
    tiny = 1e-300

    def fix(v):
        return np.where(np.abs(v) < tiny, tiny, v)

    c = np.ones_like(x)
    d = 1.0 / fix(1.0 - (a + b) * x / (a + 1.0))
    h = d
    for m in range(1, steps + 1):
        for aa in (m * (b - m) * x / ((a - 1.0 + 2 * m) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1.0 + 2 * m))):
            d = 1.0 / fix(1.0 + aa * d)
            c = fix(1.0 + aa / c)
            h = h * d * c
        if np.all(np.abs(d * c - 1.0) < 1e-16):
            break
    return h


def betainc_array(a, b, x):
    """I_x(a, b), the regularized incomplete beta function, in float64 (NaN where a <= 0,
    b <= 0 or x outside [0, 1])."""
    a, b, x = (np.asarray(v, np.float64) for v in (a, b, x))
    out = np.full(x.shape, np.nan)
    valid = (a > 0) & (b > 0) & (x >= 0) & (x <= 1)
    out[valid & (x == 0)] = 0.0
    out[valid & (x == 1)] = 1.0
    inner = valid & (x > 0) & (x < 1)
    if inner.any():
        ai, bi, xi = a[inner], b[inner], x[inner]
        flip = xi > (ai + 1.0) / (ai + bi + 2.0)
        ai, bi, xi = np.where(flip, bi, ai), np.where(flip, ai, bi), np.where(flip, 1 - xi, xi)
        front = np.exp(ai * np.log(xi) + bi * np.log1p(-xi) - _log_beta(ai, bi)) / ai
        value = front * _continued_fraction(ai, bi, xi)
        out[inner] = np.where(flip, 1.0 - value, value)
    return out


class IncompleteBeta(Op):
    """y = I_x(a, b); dy/dx = x^(a-1) (1-x)^(b-1) / B(a, b); a and b get no gradient (as
    MindSpore's Betainc bprop gives them zeros)."""
    @staticmethod
    def forward(ctx, a, b, x):
        ctx.save(a, b, x)
        host = [to_host(v, 'Betainc') for v in (a, b, x)]
        return ctx.xp.asarray(betainc_array(*host).astype(x.dtype))

    @staticmethod
    def backward(ctx, gy):
        a, b, x = ctx.saved
        if ctx.m is array_math:
            a64, b64, x64 = (to_host(v, 'Betainc').astype(np.float64) for v in (a, b, x))
            with np.errstate(divide='ignore', invalid='ignore'):
                density = np.exp((a64 - 1) * np.log(x64) + (b64 - 1) * np.log1p(-x64)
                                 - _log_beta(a64, b64))
            return None, None, gy * ctx.xp.asarray(density.astype(x.dtype))
        density = exp((a - 1) * log(x) + (b - 1) * log1p(-x) + lgamma(a + b) - lgamma(a)
                      - lgamma(b))
        return None, None, gy * density


def _dims(shape):
    return f"({', '.join(map(str, shape))})"


_BETAINC_TYPES = (np.dtype(np.float32), np.dtype(np.float64))


class Betainc(Primitive):
    """``Betainc()(a, b, x)``: the regularized incomplete beta function I_x(a, b) of three
    Float32 or Float64 Tensors of one dtype and shape."""
    def construct(self, a, b, x):
        args = {'a': as_tensor(a, 'a'), 'b': as_tensor(b, 'b'), 'x': as_tensor(x, 'x')}
        for what, t in args.items():
            if t._data.dtype not in _BETAINC_TYPES:
                raise TypeError(f"For primitive[Betainc], the input argument[{what}] must be a "
                                f"type of {{Tensor[Float32], Tensor[Float64]}}, but got "
                                f"Tensor[{t.dtype}].")
        a, b, x = args.values()
        if not a.dtype == b.dtype == x.dtype:
            raise TypeError(f"For primitive[Betainc], the input type must be same. name:[a]:"
                            f"Tensor[{a.dtype}]. name:[b]:Tensor[{b.dtype}]. name:[x]:"
                            f"Tensor[{x.dtype}].")
        for what, t in (('b', b), ('x', x)):
            if t.shape != a.shape:
                raise ValueError(f"For 'Betainc, shape of {what} {_dims(t.shape)} are not "
                                 f"consistent with the shape a {_dims(a.shape)} .")
        return IncompleteBeta.apply(a, b, x)
