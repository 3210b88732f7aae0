"""Calls of ``mindspore.mint`` functions on small fixed inputs, shared by the recorder (run under
MindSpore: ``record_values.py``) and the tests (run under hookgrad).

Each case is ``name: (call, reference)``: ``call(mint, T)`` calls mint, ``T(array)`` making a
tensor; ``reference(ms, T)``, where given, computes the same values with MindSpore's ``ops``
for the mint functions whose kernels MindSpore 2.10 has only on Ascend.
"""
import importlib

import numpy as np

X = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5) / 4      # no zeros, mixed signs
P = np.linspace(0.1, 0.9, 12, dtype=np.float32).reshape(3, 4)      # in (0, 1)
Y = np.array([[1.5, -0.5, 2.0, 0.25]], np.float32)
I = np.array([[3, 1, 2], [0, 2, 1]], np.int64)
V = np.array([1.0, -2.0, 3.0], np.float32)
W = np.array([0.5, 1.5, -1.0], np.float32)
B = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
M = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], np.float32)


def _inplace(fn, t):
    """``(fn(t), t)``: the in-place forms return their input, changed."""
    return fn(t), t


def _ms_unique(ms, T):
    """mint.unique(I, return_inverse=True, return_counts=True) with MindSpore's ops: the sorted
    distinct values, each element's position among them, and their counts."""
    flat = ms.ops.sort(T(I.reshape(-1).astype(np.float32)))[0]
    values, counts = ms.ops.unique_consecutive(flat, return_counts=True)
    inverse = ms.ops.searchsorted(values, T(I.astype(np.float32)))
    return values.astype(ms.int64), inverse.astype(ms.int64), counts.astype(ms.int64)


FUNCTIONS = {
    # element-wise math
    'abs': (lambda m, T: m.abs(T(X)), None), 'acos': (lambda m, T: m.acos(T(P)), None),
    'acosh': (lambda m, T: m.acosh(T(X + 3)), None), 'arccos': (lambda m, T: m.arccos(T(P)), None),
    'arccosh': (lambda m, T: m.arccosh(T(X + 3)), None), 'asin': (lambda m, T: m.asin(T(P)), None),
    'arcsin': (lambda m, T: m.arcsin(T(P)), None), 'asinh': (lambda m, T: m.asinh(T(X)), None),
    'arcsinh': (lambda m, T: m.arcsinh(T(X)), None), 'atan': (lambda m, T: m.atan(T(X)), None),
    'arctan': (lambda m, T: m.arctan(T(X)), None), 'atanh': (lambda m, T: m.atanh(T(P)), None),
    'arctanh': (lambda m, T: m.arctanh(T(P)), None),
    'atan2': (lambda m, T: m.atan2(T(X), T(Y)), None),
    'arctan2': (lambda m, T: m.arctan2(T(X), T(Y)), None),
    'ceil': (lambda m, T: m.ceil(T(X)), None), 'floor': (lambda m, T: m.floor(T(X)), None),
    'trunc': (lambda m, T: m.trunc(T(X)), None), 'fix': (lambda m, T: m.fix(T(X)), None),
    'frac': (lambda m, T: m.frac(T(X)), None), 'round': (lambda m, T: m.round(T(X * 3)), None),
    'cos': (lambda m, T: m.cos(T(X)), None), 'cosh': (lambda m, T: m.cosh(T(X)), None),
    'sin': (lambda m, T: m.sin(T(X)), None), 'sinh': (lambda m, T: m.sinh(T(X)), None),
    'tan': (lambda m, T: m.tan(T(X)), None), 'tanh': (lambda m, T: m.tanh(T(X)), None),
    'sinc': (lambda m, T: m.sinc(T(X)), None),
    'erf': (lambda m, T: m.erf(T(X)), None),
    'erfc': (lambda m, T: m.erfc(T(X)), None),
    'erfinv': (lambda m, T: m.erfinv(T(P * 2 - 1)), None),
    'exp': (lambda m, T: m.exp(T(X)), None),
    'exp2': (lambda m, T: m.exp2(T(X)), None),
    'expm1': (lambda m, T: m.expm1(T(X)), None),
    'log': (lambda m, T: m.log(T(P)), None),
    'log10': (lambda m, T: m.log10(T(P)), None),
    'log1p': (lambda m, T: m.log1p(T(P)), None),
    'log2': (lambda m, T: m.log2(T(P)), None),
    'sqrt': (lambda m, T: m.sqrt(T(P)), None),
    'rsqrt': (lambda m, T: m.rsqrt(T(P)), None),
    'square': (lambda m, T: m.square(T(X)), None),
    'reciprocal': (lambda m, T: m.reciprocal(T(X)), None),
    'neg': (lambda m, T: m.neg(T(X)), None),
    'negative': (lambda m, T: m.negative(T(X)), None),
    'sign': (lambda m, T: m.sign(T(X)), None),
    'sigmoid': (lambda m, T: m.sigmoid(T(X)), None),
    'logaddexp': (lambda m, T: m.logaddexp(T(X), T(Y)), None),
    'logaddexp2': (lambda m, T: m.logaddexp2(T(X), T(Y)), None),
    'add': (lambda m, T: m.add(T(X), T(Y), alpha=2), None),
    'sub': (lambda m, T: m.sub(T(X), T(Y), alpha=0.5), None),
    'mul': (lambda m, T: m.mul(T(X), T(Y)), None),
    'div': (lambda m, T: m.div(T(X), T(Y), rounding_mode='floor'), None),
    'divide': (lambda m, T: m.divide(T(X), T(Y)), None),
    'floor_divide': (lambda m, T: m.floor_divide(T(X), T(Y)), None),
    'fmod': (lambda m, T: m.fmod(T(X), T(Y)), None),
    'remainder': (lambda m, T: m.remainder(T(X), T(Y)), None),
    'pow': (lambda m, T: m.pow(T(P), T(Y)), None),
    'float_power': (lambda m, T: m.float_power(T(P), 2), None),
    'xlogy': (lambda m, T: m.xlogy(T(X), T(P)), None),
    'addcdiv': (lambda m, T: m.addcdiv(T(X), T(P), T(Y), value=0.5), None),
    'addcmul': (lambda m, T: m.addcmul(T(X), T(P), T(Y), value=0.5), None),
    'lerp': (lambda m, T: m.lerp(T(X), T(Y), 0.25), None),
    'clamp': (lambda m, T: m.clamp(T(X), -0.5, 0.75), None),
    'clip': (lambda m, T: m.clip(T(X), min=0.1), None),
    'maximum': (lambda m, T: m.maximum(T(X), T(Y)), None),
    'minimum': (lambda m, T: m.minimum(T(X), T(Y)), None),
    'nan_to_num': (lambda m, T: m.nan_to_num(T(np.array([np.nan, np.inf, -np.inf, 1.0],
                                                         np.float32)), 0.5), None),
    # comparison and logic
    'eq': (lambda m, T: m.eq(T(X), T(Y)), None),
    'equal': (lambda m, T: m.equal(T(X), T(X)),
              lambda ms, T: bool(ms.ops.equal(T(X), T(X)).all())),
    'ne': (lambda m, T: m.ne(T(X), 0.125), None),
    'not_equal': (lambda m, T: m.not_equal(T(X), T(Y)), None),
    'gt': (lambda m, T: m.gt(T(X), T(Y)), None),
    'greater': (lambda m, T: m.greater(T(X), T(Y)), None),
    'ge': (lambda m, T: m.ge(T(X), T(Y)), None),
    'greater_equal': (lambda m, T: m.greater_equal(T(X), T(Y)), None),
    'lt': (lambda m, T: m.lt(T(X), T(Y)), None),
    'less': (lambda m, T: m.less(T(X), T(Y)), None),
    'le': (lambda m, T: m.le(T(X), T(Y)), None),
    'less_equal': (lambda m, T: m.less_equal(T(X), T(Y)), None),
    'isclose': (lambda m, T: m.isclose(T(X), T(X + 1e-6)), None),
    'allclose': (lambda m, T: m.allclose(T(X), T(X + 1e-3)), None),
    'isfinite': (lambda m, T: m.isfinite(T(np.array([1, np.inf, np.nan], np.float32))), None),
    'isinf': (lambda m, T: m.isinf(T(np.array([1, np.inf, np.nan], np.float32))), None),
    'isnan': (lambda m, T: m.isnan(T(np.array([1, np.inf, np.nan], np.float32))), None),
    'isneginf': (lambda m, T: m.isneginf(T(np.array([1, -np.inf, np.inf], np.float32))), None),
    'logical_and': (lambda m, T: m.logical_and(T(X > 0), T(Y > 0)), None),
    'logical_or': (lambda m, T: m.logical_or(T(X > 0), T(Y > 0)), None),
    'logical_xor': (lambda m, T: m.logical_xor(T(X > 0), T(Y > 0)), None),
    'logical_not': (lambda m, T: m.logical_not(T(X > 0)), None),
    'bitwise_and': (lambda m, T: m.bitwise_and(T(I), T(I + 1)), None),
    'bitwise_or': (lambda m, T: m.bitwise_or(T(I), T(I + 1)), None),
    'bitwise_xor': (lambda m, T: m.bitwise_xor(T(I), T(I + 1)), None),
    'bitwise_not': (lambda m, T: m.bitwise_not(T(I)), lambda ms, T: ms.ops.invert(T(I))),
    'gcd': (lambda m, T: m.gcd(T(I * 6), T(I * 4 + 2)), None),
    'real': (lambda m, T: m.real(T(X)), None),
    'where': (lambda m, T: m.where(T(X > 0), T(X), T(Y)), None),
}

FUNCTIONS.update({
    # reductions, statistics, sorting
    'sum': (lambda m, T: m.sum(T(X), dim=1, keepdim=True), None),
    'mean': (lambda m, T: m.mean(T(B), dim=(0, 2)), None),
    'prod': (lambda m, T: m.prod(T(X), dim=0), None),
    'max': (lambda m, T: (m.max(T(X)), *m.max(T(X), 1)), None),
    'min': (lambda m, T: (m.min(T(X)), *m.min(T(X), dim=0, keepdim=True)), None),
    'amax': (lambda m, T: m.amax(T(B), dim=(0, 1)), None),
    'amin': (lambda m, T: m.amin(T(B), dim=-1, keepdim=True), None),
    'argmax': (lambda m, T: m.argmax(T(X), dim=1), None),
    'argmin': (lambda m, T: m.argmin(T(X)), None),
    'all': (lambda m, T: m.all(T(X > -1), dim=1), None),
    'any': (lambda m, T: m.any(T(X > 1)), None),
    'std': (lambda m, T: m.std(T(X), dim=1), lambda ms, T: ms.ops.std(T(X), 1, ddof=1)),
    'var': (lambda m, T: m.var(T(X), dim=0, correction=0, keepdim=True),
            lambda ms, T: ms.ops.var(T(X), 0, ddof=0, keepdims=True)),
    'std_mean': (lambda m, T: m.std_mean(T(X), dim=1),
                 lambda ms, T: ms.ops.std_mean(T(X), 1, ddof=1)),
    'var_mean': (lambda m, T: m.var_mean(T(X)), lambda ms, T: ms.ops.var_mean(T(X), ddof=1)),
    'logsumexp': (lambda m, T: m.logsumexp(T(X), 1), None),
    'cumsum': (lambda m, T: m.cumsum(T(X), 1), None),
    'cumprod': (lambda m, T: m.cumprod(T(X), 0), None),
    'cummax': (lambda m, T: m.cummax(T(X), 1), None),
    'cummin': (lambda m, T: m.cummin(T(X), 0), None),
    'median': (lambda m, T: (m.median(T(X)), *m.median(T(X), 1)),
               lambda ms, T: (ms.ops.median(T(X.reshape(-1)))[0],
                              *ms.ops.median(T(X), 1))),
    'sort': (lambda m, T: m.sort(T(Y), descending=True), None),
    'argsort': (lambda m, T: m.argsort(T(X * Y), dim=1),
                lambda ms, T: ms.ops.argsort(T(X * Y), 1).astype(ms.int64)),
    'topk': (lambda m, T: m.topk(T(X * Y), 2, dim=1), None),
    'kthvalue': (lambda m, T: m.kthvalue(T(X * Y), 2, 1),
                 lambda ms, T: tuple(r[:, 1] for r in ms.ops.sort(T(X * Y), 1))),
    'unique': (lambda m, T: m.unique(T(I), return_inverse=True, return_counts=True),
               lambda ms, T: _ms_unique(ms, T)),
    'unique_consecutive': (lambda m, T: m.unique_consecutive(T(np.array([1, 1, 2, 2, 3, 1])),
                                                              return_counts=True), None),
    'searchsorted': (lambda m, T: m.searchsorted(T(V[[1, 0, 2]]), T(Y[0])), None),
    'bincount': (lambda m, T: (m.bincount(T(I.reshape(-1))),
                               m.bincount(T(I.reshape(-1)), T(X[:2].reshape(-1)[:6]), 6)),
                 lambda ms, T: (ms.ops.bincount(T(I.reshape(-1))).astype(ms.int64),
                                ms.ops.bincount(T(I.reshape(-1)), T(X[:2].reshape(-1)[:6]), 6))),
    'histc': (lambda m, T: m.histc(T(X), bins=4, min=-1, max=1), None),
    'count_nonzero': (lambda m, T: m.count_nonzero(T(I), dim=1),
                      lambda ms, T: ms.ops.count_nonzero(T(I), axis=1).astype(ms.int64)),
    'nansum': (lambda m, T: m.nansum(T(np.array([1.0, np.nan, 2.0], np.float32))), None),
    'norm': (lambda m, T: (m.norm(T(X)), m.norm(T(X), 1, dim=1)), None),
    # shapes, joining, indexing
    'broadcast_to': (lambda m, T: m.broadcast_to(T(Y), (2, 4)), None),
    'cat': (lambda m, T: m.cat([T(X), T(Y)], dim=0), None),
    'concat': (lambda m, T: m.concat([T(X), T(Y)]), None),
    'stack': (lambda m, T: m.stack([T(V), T(W)], dim=1),
              lambda ms, T: ms.ops.stack([T(V), T(W)], 1)),
    'hstack': (lambda m, T: m.hstack([T(V), T(W)]), None),
    'dstack': (lambda m, T: m.dstack([T(V), T(W)]), None),
    'chunk': (lambda m, T: m.chunk(T(X), 3, dim=1), None),
    'split': (lambda m, T: m.split(T(X), [1, 3], dim=1), None),
    'unbind': (lambda m, T: m.unbind(T(X), dim=1), None),
    'diff': (lambda m, T: m.diff(T(X), dim=0), None),
    'flatten': (lambda m, T: m.flatten(T(B), 1), None),
    'ravel': (lambda m, T: m.ravel(T(X)), None),
    'reshape': (lambda m, T: m.reshape(T(X), (2, -1)), None),
    'permute': (lambda m, T: m.permute(T(B), (2, 0, 1)), None),
    'transpose': (lambda m, T: m.transpose(T(B), 0, 2), None),
    'swapaxes': (lambda m, T: m.swapaxes(T(B), 0, 1), None),
    't': (lambda m, T: m.t(T(X)), None),
    'squeeze': (lambda m, T: m.squeeze(T(Y), 0), None),
    'unsqueeze': (lambda m, T: m.unsqueeze(T(V), 1), None),
    'flip': (lambda m, T: m.flip(T(X), (0, 1)), None),
    'roll': (lambda m, T: m.roll(T(X), 1, 1), lambda ms, T: ms.Tensor(np.roll(X, 1, 1))),
    'tile': (lambda m, T: m.tile(T(V), (2, 2)), None),
    'tril': (lambda m, T: m.tril(T(X), -1), None),
    'triu': (lambda m, T: m.triu(T(X), 1), None),
    'narrow': (lambda m, T: m.narrow(T(X), 1, 1, 2), None),
    'select': (lambda m, T: m.select(T(X), 1, -1), None),
    'index_select': (lambda m, T: m.index_select(T(X), 1, T(np.array([3, 0]))), None),
    'gather': (lambda m, T: m.gather(T(X[:2]), 1, T(I)), None),
    'take': (lambda m, T: m.take(T(X), T(I)),
             lambda ms, T: ms.ops.gather(T(X.reshape(-1)), T(I), 0)),
    'masked_select': (lambda m, T: m.masked_select(T(X), T(X > 0.5)), None),
    'nonzero': (lambda m, T: m.nonzero(T(I - 1)), None),
    'scatter': (lambda m, T: m.scatter(T(X[:2]), 1, T(I), T(-X[:2, :3])), None),
    'scatter_add': (lambda m, T: m.scatter_add(T(X[:2]), 1, T(I), T(X[:2, :3])),
                    lambda ms, T: ms.ops.tensor_scatter_elements(T(X[:2]), T(I), T(X[:2, :3]), 1,
                                                                 'add')),
    'index_add': (lambda m, T: m.index_add(T(X), 0, T(np.array([2, 0])), T(X[:2]),
                                           alpha=2),
                  lambda ms, T: T(X).index_add(0, T(np.array([2, 0], np.int32)), T(X[:2]),
                                               alpha=2)),
    'repeat_interleave': (lambda m, T: m.repeat_interleave(T(X), 2, dim=0),
                          lambda ms, T: ms.ops.repeat_interleave(T(X), 2, 0)),
    'meshgrid': (lambda m, T: m.meshgrid(T(V), T(W[:2]), indexing='ij'), None),
    # creation (deterministic)
    'arange': (lambda m, T: (m.arange(5), m.arange(0.5, 2, 0.5)), None),
    'eye': (lambda m, T: m.eye(2, 3), None),
    'full': (lambda m, T: m.full((2, 2), 1.5), lambda ms, T: ms.ops.fill(ms.float32, (2, 2), 1.5)),
    'full_like': (lambda m, T: m.full_like(T(I), 7), None),
    'ones': (lambda m, T: m.ones((2, 3)), None),
    'ones_like': (lambda m, T: m.ones_like(T(I)), None),
    'zeros': (lambda m, T: m.zeros((3,)), None),
    'zeros_like': (lambda m, T: m.zeros_like(T(X)), None),
    'linspace': (lambda m, T: m.linspace(0, 1, 5), None),
    'clone': (lambda m, T: m.clone(T(X)), lambda ms, T: ms.ops.deepcopy(T(X))),
    # products and matrices
    'matmul': (lambda m, T: m.matmul(T(X.T), T(X)), None),
    'mm': (lambda m, T: m.mm(T(X), T(X.T)), lambda ms, T: ms.ops.matmul(T(X), T(X.T))),
    'bmm': (lambda m, T: m.bmm(T(B), T(B.transpose(0, 2, 1))), None),
    'mv': (lambda m, T: m.mv(T(M), T(V)), None),
    'dot': (lambda m, T: m.dot(T(V), T(W)), lambda ms, T: (T(V) * T(W)).sum()),
    'vdot': (lambda m, T: m.vdot(T(V), T(W)), lambda ms, T: (T(V) * T(W)).sum()),
    'outer': (lambda m, T: m.outer(T(V), T(W)), None),
    'einsum': (lambda m, T: m.einsum('ij,kj->ik', T(X), T(X)),
               lambda ms, T: ms.ops.matmul(T(X), T(X.T))),
    'addmm': (lambda m, T: m.addmm(T(M), T(M), T(M), beta=0.5, alpha=2), None),
    'addmv': (lambda m, T: m.addmv(T(V), T(M), T(W), beta=2), None),
    'addbmm': (lambda m, T: m.addbmm(T(M[:2, :2]), T(B[:, :2]), T(B[:, :2].transpose(0, 2, 1))),
               None),
    'baddbmm': (lambda m, T: m.baddbmm(T(M[:2, :2]), T(B[:, :2]),
                                       T(B[:, :2].transpose(0, 2, 1)), alpha=0.5), None),
    'addr_': (lambda m, T: m.addr_(T(M), T(V), T(W), beta=2),
              lambda ms, T: ms.ops.addr(T(M), T(V), T(W), beta=2)),
    'cross': (lambda m, T: m.cross(T(M), T(M[::-1].copy()), dim=1), None),
    'diag': (lambda m, T: (m.diag(T(V), 1), m.diag(T(M), -1)),
             lambda ms, T: (ms.numpy.diag(T(V), 1), ms.numpy.diag(T(M), -1))),
    'trace': (lambda m, T: m.trace(T(M)), None),
    'inverse': (lambda m, T: m.inverse(T(M)), None),
    'cdist': (lambda m, T: m.cdist(T(X), T(Y)), None),
    'triangular_solve': (lambda m, T: m.triangular_solve(T(M[:, :2]), T(M)),
                         lambda ms, T: (ms.ops.matmul(ms.ops.MatrixInverse()(ms.ops.triu(T(M))),
                                                      T(M[:, :2])), T(M))),
    'softmax': (lambda m, T: m.softmax(T(X), 1), None),
    'item': (lambda m, T: m.item(T(np.array([2.5], np.float32))), None),
})

IMG = np.sin(np.arange(2 * 4 * 5 * 5, dtype=np.float32)).reshape(2, 4, 5, 5)
KER = np.cos(np.arange(3 * 4 * 3 * 3, dtype=np.float32)).reshape(3, 4, 3, 3) / 4
SEQ = np.sin(np.arange(2 * 3 * 8, dtype=np.float32)).reshape(2, 3, 8)
VOL = np.cos(np.arange(1 * 2 * 4 * 4 * 4, dtype=np.float32)).reshape(1, 2, 4, 4, 4)
LBL = np.array([2, 0, 3], np.int64)
LOGP = np.log(np.exp(X) / np.exp(X).sum(1, keepdims=True)).astype(np.float32)

FUNCTIONAL = {
    'relu': (lambda F, T: F.relu(T(X)), None),
    'relu6': (lambda F, T: F.relu6(T(X * 8)), None),
    'silu': (lambda F, T: F.silu(T(X)), None),
    'sigmoid': (lambda F, T: F.sigmoid(T(X)), None),
    'tanh': (lambda F, T: F.tanh(T(X)), None),
    'gelu': (lambda F, T: (F.gelu(T(X)), F.gelu(T(X), approximate='tanh')), None),
    'elu': (lambda F, T: F.elu(T(X), 0.5),
            lambda ms, T: ms.ops.where(T(X) > 0, T(X), 0.5 * ms.ops.expm1(T(X)))),
    'selu': (lambda F, T: F.selu(T(X)), None),
    'mish': (lambda F, T: F.mish(T(X)), None),
    'logsigmoid': (lambda F, T: F.logsigmoid(T(X)), None),
    'leaky_relu': (lambda F, T: F.leaky_relu(T(X)), lambda ms, T: ms.ops.leaky_relu(T(X), 0.01)),
    'hardtanh': (lambda F, T: F.hardtanh(T(X), -0.5, 0.5), None),
    'hardshrink': (lambda F, T: F.hardshrink(T(X)), None),
    'softshrink': (lambda F, T: F.softshrink(T(X), 0.3), None),
    'hardsigmoid': (lambda F, T: F.hardsigmoid(T(X * 4)), None),
    'hardswish': (lambda F, T: F.hardswish(T(X * 4)), None),
    'softplus': (lambda F, T: F.softplus(T(X), 2, 1), None),
    'threshold': (lambda F, T: F.threshold(T(X), 0.2, -1.0), None),
    'glu': (lambda F, T: F.glu(T(X), -1), None),
    'prelu': (lambda F, T: F.prelu(T(IMG[:, :, :2, :2]), T(np.array([0.1, 0.2, 0.3, 0.4],
                                                                     np.float32))), None),
    'softmax': (lambda F, T: F.softmax(T(X), dim=0), None),
    'log_softmax': (lambda F, T: F.log_softmax(T(X), dim=1),
                    lambda ms, T: ms.ops.log_softmax(T(X), 1)),
    'linear': (lambda F, T: F.linear(T(X), T(KER[:3, 0, 0, :3] @ X[:, :4]), T(V)),
               lambda ms, T: ms.ops.dense(T(X), T(KER[:3, 0, 0, :3] @ X[:, :4]), T(V))),
    'conv1d': (lambda F, T: F.conv1d(T(SEQ), T(KER[:2, :3, 0]), T(W[:2]), stride=2, padding=1),
               lambda ms, T: ms.ops.conv1d(T(SEQ), T(KER[:2, :3, 0]), T(W[:2]), 2, 'pad', 1)),
    'conv2d': (lambda F, T: F.conv2d(T(IMG), T(KER), T(V), padding=1, stride=(1, 2)),
               lambda ms, T: ms.ops.conv2d(T(IMG), T(KER), T(V), (1, 2), 'pad', 1)),
    'conv_transpose2d': (lambda F, T: F.conv_transpose2d(T(IMG[:, :3]), T(KER[:, :2]), None,
                                                         stride=2, padding=1),
        lambda ms, T: ms.ops.Conv2DTranspose(2, 3, pad_mode='pad', pad=1, stride=2)(
            T(IMG[:, :3]), T(KER[:, :2]), (2, 2, 9, 9))),
    'max_pool2d': (lambda F, T: F.max_pool2d(T(IMG), 2, return_indices=True), None),
    'avg_pool2d': (lambda F, T: F.avg_pool2d(T(IMG), 3, stride=2, padding=1), None),
    'avg_pool1d': (lambda F, T: F.avg_pool1d(T(SEQ), 3, 2), None),
    'avg_pool3d': (lambda F, T: F.avg_pool3d(T(VOL), 2),
                   lambda ms, T: ms.ops.avg_pool3d(T(VOL), 2, 2)),
    'adaptive_avg_pool1d': (lambda F, T: F.adaptive_avg_pool1d(T(SEQ), 4),
                            lambda ms, T: ms.ops.adaptive_avg_pool1d(T(SEQ), 4)),
    'adaptive_avg_pool2d': (lambda F, T: F.adaptive_avg_pool2d(T(IMG), (2, 3)), None),
    'adaptive_avg_pool3d': (lambda F, T: F.adaptive_avg_pool3d(T(VOL), 2), None),
    'adaptive_max_pool1d': (lambda F, T: F.adaptive_max_pool1d(T(SEQ), 4),
                            lambda ms, T: ms.ops.adaptive_max_pool1d(T(SEQ), 4)),
    'adaptive_max_pool2d': (lambda F, T: F.adaptive_max_pool2d(T(IMG), 2, True), None),
    'batch_norm': (lambda F, T: F.batch_norm(T(IMG), T(V[[0, 1, 2, 0]]), T(P[0]),
                                             T(W[[0, 1, 2, 0]]), T(Y[0])), None),
    'layer_norm': (lambda F, T: F.layer_norm(T(B), (4,), T(Y[0]), T(P[0])),
                   lambda ms, T: ms.ops.LayerNorm(-1, -1, 1e-5)(T(B), T(Y[0]), T(P[0]))[0]),
    'group_norm': (lambda F, T: F.group_norm(T(IMG), 2, T(Y[0]), T(P[0])), None),
    'normalize': (lambda F, T: F.normalize(T(X), dim=1),
                  lambda ms, T: ms.ops.L2Normalize(axis=1, epsilon=1e-12)(T(X))),
    'cross_entropy': (lambda F, T: (F.cross_entropy(T(X), T(LBL)),
                                    F.cross_entropy(T(X), T(LBL), label_smoothing=0.1,
                                                    reduction='sum')), None),
    'nll_loss': (lambda F, T: F.nll_loss(T(LOGP), T(LBL), T(P[0])), None),
    'binary_cross_entropy': (lambda F, T: F.binary_cross_entropy(T(P), T(P[::-1].copy())),
                             None),
    'binary_cross_entropy_with_logits': (
        lambda F, T: F.binary_cross_entropy_with_logits(T(X), T(P), reduction='sum',
                                                        pos_weight=T(Y[0])), None),
    'mse_loss': (lambda F, T: F.mse_loss(T(X), T(Y)), None),
    'l1_loss': (lambda F, T: F.l1_loss(T(X), T(Y), reduction='none'), None),
    'smooth_l1_loss': (lambda F, T: F.smooth_l1_loss(T(X), T(Y), beta=0.5),
                       lambda ms, T: ms.ops.smooth_l1_loss(T(X), T(np.broadcast_to(Y, X.shape)),
                                                           0.5, 'mean')),
    'soft_margin_loss': (lambda F, T: F.soft_margin_loss(T(X), T(np.sign(X * Y))),
        lambda ms, T: ms.ops.log1p(ms.ops.exp(-T(np.sign(X * Y)) * T(X))).mean()),
    'kl_div': (lambda F, T: (F.kl_div(T(LOGP), T(P)), F.kl_div(T(LOGP), T(LOGP), 'batchmean',
                                                               True)),
        lambda ms, T: (ms.ops.kl_div(T(LOGP), T(P), 'mean'),
                       (ms.ops.exp(T(LOGP)) * (T(LOGP) - T(LOGP))).sum() / 3)),
    'cosine_embedding_loss': (lambda F, T: F.cosine_embedding_loss(
        T(X), T(X[::-1].copy()), T(np.array([1, -1, 1], np.int32)), 0.1), None),
    'one_hot': (lambda F, T: F.one_hot(T(LBL), 5), None),
    'embedding': (lambda F, T: F.embedding(T(I), T(X.T.copy())),
                  lambda ms, T: ms.ops.gather(T(X.T.copy()), T(I), 0)),
    'pad': (lambda F, T: (F.pad(T(X), (1, 2)), F.pad(T(IMG[:1, :1]), (1, 1, 2, 0), 'reflect')),
            None),
    'pixel_shuffle': (lambda F, T: F.pixel_shuffle(T(IMG[:, :4, :2, :2]), 2), None),
    'interpolate': (lambda F, T: (F.interpolate(T(IMG), size=(3, 4), mode='bilinear',
                                                align_corners=True),
                                  F.interpolate(T(IMG), scale_factor=2.0)),
        lambda ms, T: (ms.ops.interpolate(T(IMG), size=(3, 4), mode='bilinear', align_corners=True),
                       ms.ops.interpolate(T(IMG), scale_factor=2.0, mode='nearest',
                                          recompute_scale_factor=True))),
    'upsample': (lambda F, T: F.upsample(T(IMG), size=(7, 7)), None),
    'dropout': (lambda F, T: F.dropout(T(X), 0.5, training=False), None),
    'dropout2d': (lambda F, T: F.dropout2d(T(IMG), 0.5, training=False), None),
    'flatten': (lambda F, T: F.flatten(T(IMG), 1, 2), None),
    'clamp': (lambda F, T: F.clamp(T(X), -0.2, 0.3), None),
    'broadcast_to': (lambda F, T: F.broadcast_to(T(V), (2, 3)), None),
}

K3 = np.cos(np.arange(3 * 2 * 2 * 3 * 3, dtype=np.float32)).reshape(3, 2, 2, 3, 3) / 4
GRID = np.stack(np.meshgrid(np.linspace(-1.3, 1.2, 4), np.linspace(-1.1, 0.9, 3)), -1)[None]
GRID = np.concatenate([GRID, GRID[:, ::-1] * 0.7], 0).astype(np.float32)     # (2, 3, 4, 2)

FUNCTIONAL.update({
    'max_unpool2d': (lambda F, T: F.max_unpool2d(*F.max_pool2d(T(IMG[:, :, :4, :4]), 2,
                                                               return_indices=True), 2),
                     lambda ms, T: ms.ops.max_unpool2d(*ms.ops.max_pool2d(
                         T(IMG[:, :, :4, :4]), 2, return_indices=True), 2)),
    'relu_': (lambda F, T: _inplace(F.relu_, T(X)),
              lambda ms, T: (lambda y: (y, y))(ms.ops.relu(T(X)))),
    'elu_': (lambda F, T: _inplace(lambda t: F.elu_(t, 0.5), T(X)),
             lambda ms, T: (lambda y: (y, y))(ms.ops.where(T(X) > 0, T(X),
                                                            0.5 * ms.ops.expm1(T(X))))),
    'hardtanh_': (lambda F, T: _inplace(lambda t: F.hardtanh_(t, -0.5, 0.5), T(X)),
                  lambda ms, T: (lambda y: (y, y))(ms.ops.clamp(T(X), -0.5, 0.5))),
    'sigmoid_': (lambda F, T: _inplace(F.sigmoid_, T(X)),
                 lambda ms, T: (lambda y: (y, y))(ms.ops.sigmoid(T(X)))),
    'threshold_': (lambda F, T: _inplace(lambda t: F.threshold_(t, 0.2, -1.0), T(X)),
                   lambda ms, T: (lambda y: (y, y))(ms.ops.where(T(X) > 0.2, T(X), -1.0))),
    'conv3d': (lambda F, T: F.conv3d(T(VOL), T(K3), T(V), padding=1, stride=(1, 2, 1)),
               lambda ms, T: ms.ops.conv3d(T(VOL), T(K3), T(V), (1, 2, 1), 'pad', 1)),
    'unfold': (lambda F, T: F.unfold(T(IMG), 2, padding=1, stride=2),
               lambda ms, T: ms.ops.unfold(T(IMG), 2, padding=1, stride=2)),
    'fold': (lambda F, T: F.fold(T(SEQ.reshape(2, 24)[:, :18].reshape(2, 2, 9)
                                   .repeat(2, 1)), (4, 4), 2, 1, 1, 2),
             lambda ms, T: ms.ops.fold(T(SEQ.reshape(2, 24)[:, :18].reshape(2, 2, 9)
                                         .repeat(2, 1)), T(np.array([4, 4], np.int32)), 2, 1, 1,
                                       2)),
    'grid_sample': (lambda F, T: (F.grid_sample(T(IMG), T(GRID)),
                                  F.grid_sample(T(IMG), T(GRID), 'nearest', 'border', True),
                                  F.grid_sample(T(IMG), T(GRID), 'bilinear', 'reflection'),
                                  F.grid_sample(T(IMG), T(GRID), 'bilinear', 'reflection',
                                                True)), None),
})

FUNCTIONS.update({
    'conv_tbc': (lambda m, T: m.conv_tbc(T(SEQ.transpose(2, 0, 1).copy()),
                                         T(KER[0, :3, :, :2]), T(W[:2]), 1),
                 lambda ms, T: ms.ops.conv1d(T(SEQ), T(KER[0, :3, :, :2].transpose(2, 1, 0).copy()),
                                             T(W[:2]), 1, 'pad', 1).transpose(2, 0, 1)),
    'npu_gelu': (lambda m, T: m.npu_gelu(T(X)), lambda ms, T: ms.ops.gelu(T(X))),
    'batch_norm_stats': (lambda m, T: m.batch_norm_stats(T(IMG), 1e-5),
                         lambda ms, T: (T(IMG).mean((0, 2, 3)),
                                        1 / ms.ops.sqrt(T(IMG).var((0, 2, 3)) + 1e-5))),
    'batch_norm_elemt': (lambda m, T: m.batch_norm_elemt(T(IMG), T(Y[0]), T(P[0]),
                                                         T(V[[0, 1, 2, 0]]), T(P[1])),
                         lambda ms, T: (T(IMG) - T(V[[0, 1, 2, 0]]).reshape(1, 4, 1, 1))
                         * T(P[1]).reshape(1, 4, 1, 1) * T(Y[0]).reshape(1, 4, 1, 1)
                         + T(P[0]).reshape(1, 4, 1, 1)),
    'batch_norm_gather_stats_with_counts': (
        lambda m, T: m.batch_norm_gather_stats_with_counts(
            T(IMG), T(X[:2]), T(P[:2] + 1), counts=T(np.array([3.0, 5.0], np.float32))),
        lambda ms, T: _gathered_stats(ms, T)),
})


def _gathered_stats(ms, T):
    """The mean and invstd of two batches of 3 and 5 elements per channel (means X[:2],
    invstds P[:2] + 1), with MindSpore's ops."""
    counts = T(np.array([[3.0], [5.0]], np.float32))
    var = 1 / (T(P[:2] + 1) ** 2) - 1e-5
    mean = (counts * T(X[:2])).sum(0) / 8
    second = (counts * (var + T(X[:2]) ** 2)).sum(0) / 8
    return mean, 1 / ms.ops.sqrt(second - mean ** 2 + 1e-5)


# more argument forms of common functions ('name#form'): keywords, dtypes, keepdim, ties
FUNCTIONS.update({
    'sum#dtype': (lambda m, T: m.sum(T(I), dtype=m.Tensor(1.0).dtype), None),
    'sum#int': (lambda m, T: m.sum(T(I), 0), None),
    'mean#dtype': (lambda m, T: m.mean(T(X), 1, True, dtype=T(X).dtype), None),
    'prod#keepdim': (lambda m, T: m.prod(T(X), 1, keepdim=True), None),
    'argmax#keepdim': (lambda m, T: m.argmax(T(X * Y), dim=0, keepdim=True), None),
    'max#keepdim': (lambda m, T: m.max(T(X * Y), 1, True), None),
    'max#other': (lambda m, T: m.max(T(X), T(Y)), None),
    'topk#smallest': (lambda m, T: m.topk(T(X * Y), 3, dim=0, largest=False), None),
    'sort#dim0': (lambda m, T: m.sort(T(X * Y), dim=0),
                  lambda ms, T: tuple(ms.ops.sort(T(X * Y), 0))),
    'cumsum#dtype': (lambda m, T: m.cumsum(T(I), 1), None),
    'split#int': (lambda m, T: m.split(T(B), 2, dim=2), None),
    'chunk#uneven': (lambda m, T: m.chunk(T(np.arange(10, dtype=np.float32)), 4), None),
    'squeeze#dims': (lambda m, T: m.squeeze(T(np.ones((1, 3, 1, 2), np.float32)), (0, 2)),
                     None),
    'squeeze#all': (lambda m, T: m.squeeze(T(np.ones((1, 3, 1, 2), np.float32))), None),
    'arange#float': (lambda m, T: m.arange(1.0, 2.0, 0.25), None),
    'arange#dtype': (lambda m, T: m.arange(3, dtype=T(X).dtype), None),
    'full#int': (lambda m, T: m.full((2,), 3), None),
    'zeros#dtype': (lambda m, T: m.zeros((2,), dtype=T(I).dtype), None),
    'eye#square': (lambda m, T: m.eye(3), None),
    'linspace#steps1': (lambda m, T: m.linspace(2, 5, 1), None),
    'std#all': (lambda m, T: m.std(T(X)), lambda ms, T: ms.ops.std(T(X), ddof=1)),
    'var#correction2': (lambda m, T: m.var(T(X), 1, correction=2),
                        lambda ms, T: ms.ops.var(T(X), 1, ddof=2)),
    'mean#all': (lambda m, T: m.mean(T(B)), None),
    'amax#all': (lambda m, T: m.amax(T(B)), None),
    'all#all': (lambda m, T: m.all(T(X)), None),
    'any#dim': (lambda m, T: m.any(T(X > 0.8), 1, True), None),
    'clamp#tensor': (lambda m, T: m.clamp(T(X), T(Y - 1), T(Y)), None),
    'div#trunc': (lambda m, T: m.div(T(X), T(Y), rounding_mode='trunc'), None),
    'div#int': (lambda m, T: m.div(T(I), 2), None),
    'pow#scalar': (lambda m, T: m.pow(T(X), 2), None),
    'pow#int': (lambda m, T: m.pow(T(I), 2), None),
    'add#scalar': (lambda m, T: m.add(T(I), 2), None),
    'mul#bool': (lambda m, T: m.mul(T(X), T(X > 0)), None),
    'where#scalar': (lambda m, T: m.where(T(X > 0), T(X), 0.0), None),
    'where#condition': (lambda m, T: m.where(T(I > 1)),
                        lambda ms, T: tuple(ms.ops.nonzero(T(I > 1)).T.astype(ms.int64))),
    'nonzero#tuple': (lambda m, T: m.nonzero(T(I - 1), as_tuple=True),
                      lambda ms, T: tuple(ms.ops.nonzero(T(I - 1)).T.astype(ms.int64))),
    'round#decimals': (lambda m, T: m.round(T(X * 3.3), decimals=1),
                       lambda ms, T: ms.ops.round(T(X * 3.3) * 10) / 10),
    'flatten#range': (lambda m, T: m.flatten(T(IMG), 1, 2), None),
    'gather#dim0': (lambda m, T: m.gather(T(X), 0, T(I[:, :2] % 3)), None),
    'index_select#dim0': (lambda m, T: m.index_select(T(X), 0, T(np.array([2, 2, 0]))), None),
    'repeat_interleave#tensor': (lambda m, T: m.repeat_interleave(T(V), T(np.array([1, 0, 2]))),
                                 None),
    'unique#sorted': (lambda m, T: m.unique(T(np.array([3, 1, 3, 2]))),
                      lambda ms, T: ms.ops.sort(ms.ops.unique(T(np.array([3, 1, 3, 2])))[0]
                                                .astype(ms.float32))[0].astype(ms.int64)),
    'meshgrid#xy': (lambda m, T: m.meshgrid(T(V), T(W[:2]), indexing='xy'), None),
    'matmul#batched': (lambda m, T: m.matmul(T(B), T(V[:, None] * np.ones((3, 4), np.float32)
                                                     ).T), None),
    'matmul#vector': (lambda m, T: m.matmul(T(M), T(V)), None),
    'cat#neg': (lambda m, T: m.cat([T(X), T(X)], dim=-1), None),
    'stack#neg': (lambda m, T: m.stack([T(X), T(X)], dim=-1),
                  lambda ms, T: ms.ops.stack([T(X), T(X)], -1)),
    'diff#n2': (lambda m, T: m.diff(T(X), n=2), None),
    'logsumexp#keepdim': (lambda m, T: m.logsumexp(T(X), (0, 1), True), None),
    'norm#p1': (lambda m, T: m.norm(T(X), 1), lambda ms, T: ms.ops.norm(T(X.reshape(-1)), 1)),
    'norm#inf': (lambda m, T: m.norm(T(X), float('inf'), dim=1), None),
    'histc#range': (lambda m, T: m.histc(T(X), 3), None),
    'count_nonzero#all': (lambda m, T: m.count_nonzero(T(I - 1)), None),
    'cummax#ties': (lambda m, T: m.cummax(T(np.array([1.0, 3.0, 3.0, 2.0, 4.0], np.float32)), 0),
                    None),
    'median#even': (lambda m, T: m.median(T(np.array([4.0, 1.0, 3.0, 2.0], np.float32))),
                    lambda ms, T: ms.ops.median(T(np.array([4.0, 1.0, 3.0, 2.0], np.float32)))[0]),
    'searchsorted#right': (lambda m, T: m.searchsorted(T(np.array([1.0, 2.0, 2.0, 3.0],
                                                                   np.float32)),
                                                        T(np.array([2.0, 0.5], np.float32)),
                                                        right=True), None),
})

PROBS = (np.exp(X) / np.exp(X).sum(1, keepdims=True)).astype(np.float32)
FUNCTIONAL.update({
    'cross_entropy#weighted': (lambda F, T: F.cross_entropy(T(X), T(np.array([2, -100, 3])),
                                                            T(P[0]), reduction='mean'), None),
    'cross_entropy#ignore': (lambda F, T: F.cross_entropy(T(X), T(LBL), ignore_index=0,
                                                          reduction='none'), None),
    'cross_entropy#probabilities': (lambda F, T: F.cross_entropy(T(X), T(PROBS[::-1].copy())),
                                    None),
    'cross_entropy#4d': (lambda F, T: F.cross_entropy(T(IMG), T(np.arange(50).reshape(2, 5, 5)
                                                                % 4)), None),
    'nll_loss#ignore': (lambda F, T: F.nll_loss(T(LOGP), T(LBL), ignore_index=2), None),
    'softmax#dtype': (lambda F, T: F.softmax(T(X), 1, dtype=T(np.float64(1)).dtype), None),
    'interpolate#bilinear': (lambda F, T: F.interpolate(T(IMG), size=(3, 7), mode='bilinear',
                                                        align_corners=False), None),
    'interpolate#nearest_size': (lambda F, T: F.interpolate(T(IMG), size=(3, 7)), None),
    'interpolate#linear': (lambda F, T: F.interpolate(T(SEQ), size=5, mode='linear'), None),
    'interpolate#nearest_scale': (lambda F, T: F.interpolate(T(IMG), scale_factor=1.7), None),
    'interpolate#nearest_scale_1d': (lambda F, T: F.interpolate(T(SEQ), scale_factor=0.6), None),
    'interpolate#nearest_recompute': (lambda F, T: F.interpolate(
        T(IMG), scale_factor=(1.7, 0.6), recompute_scale_factor=True), None),
    'pad#replicate': (lambda F, T: F.pad(T(IMG), (1, 2, 2, 1), 'replicate'), None),
    'pad#circular': (lambda F, T: F.pad(T(SEQ), (2, 1), 'circular'), None),
    'pad#value': (lambda F, T: F.pad(T(X), (1, 1, 1, 0), value=-2.0), None),
    'max_pool2d#full': (lambda F, T: F.max_pool2d(T(IMG), 3, 2, 1, 1, True),
                        lambda ms, T: ms.ops.max_pool2d(T(IMG), 3, 2, 1, 1, ceil_mode=True)),
    'avg_pool2d#exclude': (lambda F, T: F.avg_pool2d(T(IMG), 2, 2, 1, True, False), None),
    'avg_pool2d#divisor': (lambda F, T: F.avg_pool2d(T(IMG), 2, 1, divisor_override=3), None),
    'layer_norm#plain': (lambda F, T: F.layer_norm(T(IMG), (5, 5)),
                         lambda ms, T: ms.ops.LayerNorm(2, 2)(
                             T(IMG), T(np.ones((5, 5), np.float32)),
                             T(np.zeros((5, 5), np.float32)))[0]),
    'batch_norm#training': (lambda F, T: _batch_norm_training(F, T), None),
    'embedding#padding': (lambda F, T: F.embedding(T(I), T(X.T.copy()), padding_idx=1),
                          lambda ms, T: ms.ops.gather(T(X.T.copy()), T(I), 0)),
    'binary_cross_entropy#weight': (lambda F, T: F.binary_cross_entropy(
        T(P), T(P[::-1].copy()), T(np.broadcast_to(Y[0], P.shape).copy()), 'sum'), None),
    'conv2d#groups': (lambda F, T: F.conv2d(T(IMG), T(KER[:2, :2]), None, 1, 'same', 2, 2),

                      lambda ms, T: ms.ops.conv2d(T(IMG), T(KER[:2, :2]), None, 1, 'same', 0, 2,
                                                  2)),
    'conv2d#valid': (lambda F, T: F.conv2d(T(IMG), T(KER), padding='valid'),
                     lambda ms, T: ms.ops.conv2d(T(IMG), T(KER))),
    'conv1d#same': (lambda F, T: F.conv1d(T(SEQ), T(KER[:2, :3, 0]), padding='same'),
                    lambda ms, T: ms.ops.conv1d(T(SEQ), T(KER[:2, :3, 0]), None, 1, 'same')),
    'leaky_relu#slope': (lambda F, T: F.leaky_relu(T(X), 0.3), None),
    'softplus#default': (lambda F, T: F.softplus(T(X * 20)), None),
    'mse_loss#sum': (lambda F, T: F.mse_loss(T(X), T(Y), 'sum'), None),
    'one_hot#auto': (lambda F, T: F.one_hot(T(LBL)),
                     lambda ms, T: ms.ops.one_hot(T(LBL), 4).astype(ms.int64)),
    'normalize#p1': (lambda F, T: F.normalize(T(X), 1.0, 0),
                     lambda ms, T: T(X) / ms.ops.clamp(ms.ops.abs(T(X)).sum(0, keepdims=True),
                                                       1e-12)),
})


def _batch_norm_training(F, T):
    """The output and the moved running statistics of batch norm in training."""
    framework = importlib.import_module(T.__module__.split('.')[0])  # mindspore or hookgrad
    mean = framework.Parameter(T(np.zeros(4, np.float32)), 'm')
    var = framework.Parameter(T(np.ones(4, np.float32)), 'v')
    out = F.batch_norm(T(IMG), mean, var, T(Y[0]), T(P[0]), True, 0.3)
    return out, mean, var


SPECIAL = {
    'erfc': (lambda S, T: S.erfc(T(X)), None),
    'exp2': (lambda S, T: S.exp2(T(X)), None),
    'expm1': (lambda S, T: S.expm1(T(X)), None),
    'log1p': (lambda S, T: S.log1p(T(P)), None),
    'sinc': (lambda S, T: S.sinc(T(X)), None),
    'round': (lambda S, T: S.round(T(X * 3)), None),
    'log_softmax': (lambda S, T: S.log_softmax(T(X), 1), None),
}

LINALG = {
    'inv': (lambda L, T: L.inv(T(M)), lambda ms, T: ms.ops.MatrixInverse()(T(M))),
    'vector_norm': (lambda L, T: L.vector_norm(T(X), 3, dim=1),
                    lambda ms, T: ms.ops.norm(T(X), 3, 1)),
    'matrix_norm': (lambda L, T: (L.matrix_norm(T(M)), L.matrix_norm(T(B), 'nuc')), None),
    'norm': (lambda L, T: (L.norm(T(V)), L.norm(T(M), 'fro')), None),
    'qr': (lambda L, T: L.qr(T(M)), None),
}

AREAS = {'mint': FUNCTIONS, 'mint.nn.functional': FUNCTIONAL, 'mint.special': SPECIAL,
         'mint.linalg': LINALG}


def module(root, area):
    """The module of ``area`` ('mint', 'mint.nn.functional'...) under ``root`` (mindspore or
    hookgrad)."""
    obj = root
    for part in area.split('.'):
        obj = getattr(obj, part)
    return obj
