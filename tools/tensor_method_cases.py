"""The Tensor method calls recorded on MindSpore 2.10 by tools/tensor_methods_mindspore.py.

``arrays()`` gives the named inputs; CASES maps each method name to expressions calling it on
them (bound as Tensors) and literals, ``ms`` being the framework module and ``np`` NumPy: the
NumPy-style and the PyTorch-style call forms MindSpore 2.10 accepts, defaults and keyword
names. An in-place method's case gives ``(result, self)``. For the methods in RANDOM only the
shapes and dtypes are recorded.
"""
import numpy as np

from tensor_method_cases_structure import STRUCTURE_CASES


def arrays():
    """The named inputs, as NumPy arrays (literals, so every NumPy version makes the same)."""
    f32, i32, i64 = np.float32, np.int32, np.int64
    nan, inf = np.nan, np.inf
    return {
        'x': np.array([[0.5, -1.25, 2.0], [3.5, 0.25, -0.75]], f32),
        'y': np.array([[1.5, 0.25, -2.0], [-0.5, 2.75, 1.0]], f32),
        'c': np.array([[[0.5, 2.5, -1.0, 3.25], [1.75, -2.5, 0.0, 4.5],
                        [-0.25, 1.0, 2.25, -3.0]],
                       [[3.75, -0.5, 1.25, 0.75], [-1.5, 2.0, -0.75, 1.5],
                        [0.25, -1.75, 3.0, 2.75]]], f32),
        'v': np.array([0.5, -1.25, 2.0, 3.5], f32),
        'w': np.array([1.5, 0.25, -0.75, 2.0], f32),
        'v3': np.array([1.0, 2.0, 3.0], f32),
        'w3': np.array([0.5, -1.0, 2.0], f32),
        'p': np.array([[0.5, 1.5, 2.0], [3.0, 0.25, 4.0]], f32),
        'u': np.array([[-0.9, -0.5, 0.0], [0.25, 0.5, 0.75]], f32),
        'big': np.array([[1.5, 2.0, 3.0], [1.25, 4.0, 10.0]], f32),
        'm': np.array([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 1.0]], f32),
        'bm': np.array([[[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 1.0]],
                        [[1.0, 2.0, 0.0], [0.5, -1.0, 1.5], [2.0, 0.5, 3.0]]], f32),
        'q': np.array([[1.0, 0.5], [-1.0, 2.0], [0.25, 1.5]], f32),     # (3, 2)
        'bq': np.array([[[1.0, 0.5], [-1.0, 2.0], [0.25, 1.5]],
                        [[0.5, 0.0], [1.0, -1.5], [2.0, 1.0]]], f32),  # (2, 3, 2)
        's': np.array(1.5, f32),
        'n': np.array([[1.0, nan, 3.0], [-2.0, nan, 0.5]], f32),
        'e': np.array([-inf, -1.0, -0.0, 0.0, 1.0, inf, nan], f32),
        'r': np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.7, -0.2], f32),
        'srt': np.array([0.0, 1.0, 2.5, 4.0, 10.0], f32),
        'dup': np.array([2.0, 1.0, 2.0, 3.0, 1.0, 1.0], f32),
        'prob': np.array([[0.2, 0.8, 0.5], [0.1, 0.4, 0.9]], f32),
        'i': np.array([[3, -2, 7], [1, 0, -5]], i32),
        'j': np.array([[2, 3, -1], [4, -3, 2]], i32),
        'l': np.array([[3, -2, 7], [1, 0, -5]], i64),
        'ni': np.array([-3, -2, -1], i32),
        'k': np.array([0, 2, 1, 2, 4], i64),
        'k32': np.array([0, 2, 1, 2, 4], i32),
        'ix': np.array([0, 2], i32),
        'ix64': np.array([0, 2], i64),
        'g': np.array([[0, 2], [1, 0]], i64),          # gather/scatter indices for x (2, 3)
        'g3': np.array([[0, 2, 1], [1, 0, 2]], i64),   # a permutation of each row of x
        'nd': np.array([[0, 1], [1, 2]], i32),         # gather_nd indices for x
        'b': np.array([[True, False, True], [False, False, True]]),
        'b2': np.array([[True, True, False], [False, True, True]]),
        'row': np.array([True, False, True]),
        'f16': np.array([[0.5, -1.25, 2.0], [3.5, 0.25, -0.75]], np.float16),
        'f64': np.array([[0.5, -1.25, 2.0], [3.5, 0.25, -0.75]], np.float64),
        'u8': np.array([[3, 0, 7], [1, 255, 5]], np.uint8),
    }


# The methods whose values are random: only the shapes and dtypes are recorded.
RANDOM = {'bernoulli', 'bernoulli_', 'cauchy', 'exponential_', 'log_normal', 'multinomial',
          'normal_', 'random_', 'uniform', 'uniform_'}

_VALUES = {
    # ------------------------------------------------------------ attributes
    'H': ["x.H"],
    'T': ["x.T", "c.T", "v.T"],
    'mH': ["x.mH", "c.mH"],
    'mT': ["x.mT", "c.mT"],
    'shape': ["c.shape", "s.shape"],
    'dtype': ["x.dtype", "i.dtype", "b.dtype"],
    'ndim': ["c.ndim", "s.ndim"],
    'size': ["c.size", "s.size"],
    'itemsize': ["x.itemsize", "l.itemsize", "f16.itemsize"],
    'nbytes': ["x.nbytes", "l.nbytes"],
    'strides': ["c.strides", "x.strides"],
    'has_init': ["x.has_init"],
    'device': ["x.device", "i.device"],
    'move_to': ["x.move_to('CPU')", "i.move_to('CPU')"],
    'data': ["x.data"],
    # ------------------------------------------------------------ layout and conversion
    'asnumpy': ["x.asnumpy()"],
    'numpy': ["i.numpy()"],
    'item': ["s.item()", "i[0, 2].item()", "b[0, 0].item()"],
    'itemset': ["x.itemset(1, 9.0)", "x.itemset((1, 2), 9.0)"],
    'tolist': ["x.tolist()", "i.tolist()", "s.tolist()"],
    'dim': ["c.dim()", "s.dim()"],
    'ndimension': ["c.ndimension()"],
    'numel': ["c.numel()"],
    'nelement': ["c.nelement()"],
    'stride': ["c.stride()", "c.stride(1)", "c.stride(-1)"],
    'storage_offset': ["x.storage_offset()"],
    'is_contiguous': ["x.is_contiguous()", "x.T.is_contiguous()"],
    'contiguous': ["x.contiguous()", "x.T.contiguous()"],
    'is_complex': ["x.is_complex()"],
    'is_floating_point': ["x.is_floating_point()", "i.is_floating_point()"],
    'is_signed': ["x.is_signed()", "i.is_signed()", "u8.is_signed()"],
    'is_init': ["x.is_init()"],
    'init_data': ["x.init_data()"],
    'value': ["x.value()"],
    'hooks': ["x.hooks()"],
    'from_numpy': ["ms.Tensor.from_numpy(np.array([1.5, 2.0], np.float32))"],
    'copy': ["x.copy()", "i.copy()"],
    'clone': ["x.clone()"],
    'set_dtype': ["(lambda t: (t.set_dtype(ms.int32), t)[1])(x.copy())",
                  "(lambda t: str(t.set_dtype(ms.float16)))(x.copy())"],
    'astype': [
        "x.astype(ms.int32)", "i.astype(ms.float16)", "x.astype('float64')", "x.astype(ms.bool_)"],
    'to': ["x.to(ms.int32)", "i.to(ms.float32)", "x.to(dtype=ms.float16)", "i.to(x)"],
    'type': ["x.type()", "i.type()", "x.type(ms.int32)"],
    'type_as': ["x.type_as(i)", "i.type_as(x)"],
    'float': ["i.float()"],
    'double': ["x.double()"],
    'half': ["x.half()"],
    'bfloat16': ["x.bfloat16().float()"],
    'int': ["x.int()"],
    'long': ["x.long()"],
    'short': ["x.short()"],
    'byte': ["i.byte()"],
    'bool': ["x.bool()", "i.bool()"],
    'view': [
        "x.view(3, 2)", "x.view((3, 2))", "x.view(-1)", "x.view([6])", "x.view(ms.int32)",
        "l.view(ms.int32)"],
    'view_as': ["x.view_as(q)"],
    'reshape': ["x.reshape(3, 2)", "x.reshape((3, 2))", "x.reshape([-1])", "x.reshape(-1, 1)"],
    'reshape_as': ["x.reshape_as(q)"],
    'resize': ["x.resize(3, 2)", "x.resize((2, 2))", "x.resize(4, 2)"],
    'ravel': ["x.ravel()"],
    'conj': ["x.conj()"],
    'real': ["x.real()"],
    'imag': ["x.imag()"],
    'isreal': ["x.isreal()"],
    'angle': ["x.angle()"],
    'requires_grad_': ["x.requires_grad_().requires_grad", "x.requires_grad_(False).requires_grad"],
    'register_hook': ["len(x.hooks()) if x.register_hook(lambda g: g) else -1"],
    'assign_value': ["x.assign_value(y)", "(x.assign_value(y), x)"],
    # ------------------------------------------------------------ new tensors
    'new_zeros': [
        "x.new_zeros((2, 2))", "x.new_zeros(3)", "x.new_zeros((2,), dtype=ms.int32)",
        "i.new_zeros((1, 2))", "x.new_zeros([2, 1], ms.int64)"],
    'new_ones': [
        "x.new_ones((2, 2))", "x.new_ones(3)", "i.new_ones((2,), dtype=ms.float32)",
        "x.new_ones([2], ms.int64)"],
    'new_full': [
        "x.new_full((2, 2), 3)", "i.new_full((2,), 2.5)", "x.new_full([2], 1, dtype=ms.int32)"],
    'new_empty': [
        "x.new_empty((2, 2)).shape", "x.new_empty((2, 3)).dtype",
        "x.new_empty(3, dtype=ms.int32).dtype"],
    # ------------------------------------------------------------ arithmetic
    'add': [
        "x.add(y)", "x.add(2)", "x.add(1.5)", "i.add(2)", "i.add(1.5)", "i.add(x)",
        "x.add(y, alpha=2)", "i.add(j, alpha=3)", "x.add(other=y)", "b.add(b2)"],
    'sub': [
        "x.sub(y)", "x.sub(2)", "i.sub(1.5)", "x.sub(y, alpha=2)", "x.sub(other=y)", "i.sub(j)"],
    'subtract': ["x.subtract(y)", "x.subtract(y, alpha=2)", "i.subtract(2)"],
    'mul': [
        "x.mul(y)", "x.mul(2)", "i.mul(2)", "i.mul(0.5)", "i.mul(x)", "b.mul(b2)",
        "x.mul(other=y)"],
    'multiply': ["x.multiply(y)", "i.multiply(2)", "x.multiply(2)"],
    'div': [
        "x.div(y)", "x.div(2)", "i.div(j)", "i.div(2)", "i.div(j, rounding_mode='floor')",
        "i.div(j, rounding_mode='trunc')", "x.div(y, rounding_mode='floor')",
        "x.div(y, rounding_mode='trunc')", "x.div(other=y)"],
    'divide': ["x.divide(y)", "i.divide(j)", "i.divide(j, rounding_mode='floor')"],
    'true_divide': ["x.true_divide(y)", "i.true_divide(j)", "i.true_divide(2)"],
    'floor_divide': [
        "x.floor_divide(y)", "i.floor_divide(j)", "i.floor_divide(2)", "x.floor_divide(0.5)"],
    'fmod': ["x.fmod(y)", "i.fmod(j)", "x.fmod(0.75)", "i.fmod(3)"],
    'remainder': [
        "x.remainder(y)", "i.remainder(j)", "x.remainder(0.75)", "i.remainder(3)",
        "x.remainder(divisor=0.75)"],
    'pow': ["x.pow(2)", "p.pow(0.5)", "x.pow(y)", "i.pow(2)", "p.pow(exponent=y)", "i.pow(0.5)"],
    'float_power': ["x.float_power(2)", "p.float_power(y)", "i.float_power(2)"],
    'neg': ["x.neg()", "i.neg()"],
    'negative': ["x.negative()", "i.negative()"],
    'positive': ["x.positive()"],
    'abs': ["x.abs()", "i.abs()"],
    'absolute': ["x.absolute()", "i.absolute()"],
    'square': ["x.square()", "i.square()", "b.square()"],
    'sqrt': ["p.sqrt()", "i.sqrt()"],
    'rsqrt': ["p.rsqrt()", "i.rsqrt()"],
    'reciprocal': ["x.reciprocal()", "i.reciprocal()"],
    'inv': ["x.inv()"],
    'matmul': ["x.matmul(q)", "v3.matmul(w3)", "bm.matmul(bq)", "x.matmul(w3)", "i.matmul(i.T)"],
    'mm': ["x.mm(q)"],
    'bmm': ["bm.bmm(bq)"],
    'dot': ["v3.dot(w3)", "v.dot(w)"],
    'inner': ["x.inner(y)", "v3.inner(w3)"],
    'outer': ["v3.outer(w3)"],
    'ger': ["v3.ger(w3)"],
    'addmm': ["m.addmm(m, m)", "x.addmm(x, m)", "x.addmm(x, m, beta=0.5, alpha=2)"],
    'addbmm': ["m.addbmm(bm, bm)", "m.addbmm(bm, bm, beta=0.5, alpha=2)"],
    'baddbmm': ["bm.baddbmm(bm, bm)", "bm.baddbmm(bm, bm, beta=0.5, alpha=2)"],
    'addmv': ["v3.addmv(m, w3)", "v3.addmv(m, w3, beta=0.5, alpha=2)"],
    'addr': ["m.addr(v3, w3)", "m.addr(v3, w3, beta=0.5, alpha=2)", "m.addr(v3, w3, 0.5, 2)"],
    'addcdiv': ["x.addcdiv(y, p)", "x.addcdiv(y, p, value=0.5)"],
    'addcmul': ["x.addcmul(y, p)", "x.addcmul(y, p, value=0.5)", "x.addcmul(y, p, 0.5)"],
    'hypot': ["x.hypot(y)"],
    'lerp': ["x.lerp(y, 0.25)", "x.lerp(y, p)"],
    'xlogy': ["x.xlogy(p)", "p.xlogy(2.0)", "i.xlogy(p)"],
    'xdivy': ["x.xdivy(p)"],
    'ldexp': ["x.ldexp(i)", "x.ldexp(2)", "i.ldexp(j)"],
    'copysign': [
        "x.copysign(y)", "p.copysign(-1.0)", "i.copysign(y)", "v3.copysign(-0.0)",
        "v3.copysign(e[1:4])"],
    'fmax': ["n.fmax(x)", "x.fmax(y)"],
    'fmin': ["n.fmin(x)", "x.fmin(y)"],
    'heaviside': ["x.heaviside(y)", "e.heaviside(ms.Tensor(0.5))"],
    'maximum': ["x.maximum(y)", "i.maximum(j)", "n.maximum(x)", "i.maximum(x)"],
    'minimum': ["x.minimum(y)", "i.minimum(j)", "n.minimum(x)"],
    # ------------------------------------------------------------ unary math
    'exp': ["x.exp()", "i.exp()"],
    'expm1': ["x.expm1()", "i.expm1()"],
    'log': ["p.log()", "i.log()"],
    'log1p': ["p.log1p()", "i.log1p()"],
    'log2': ["p.log2()", "i.log2()"],
    'log10': ["p.log10()", "i.log10()"],
    'sin': ["x.sin()", "i.sin()"],
    'cos': ["x.cos()", "i.cos()"],
    'tan': ["x.tan()", "i.tan()"],
    'sinh': ["x.sinh()", "i.sinh()"],
    'cosh': ["x.cosh()", "i.cosh()"],
    'tanh': ["x.tanh()", "i.tanh()"],
    'asin': ["u.asin()", "ni.asin()"],
    'acos': ["u.acos()"],
    'atan': ["x.atan()", "i.atan()"],
    'asinh': ["x.asinh()"],
    'acosh': ["big.acosh()"],
    'atanh': ["u.atanh()"],
    'arcsin': ["u.arcsin()"],
    'arccos': ["u.arccos()"],
    'arctan': ["x.arctan()"],
    'arcsinh': ["x.arcsinh()"],
    'arccosh': ["big.arccosh()"],
    'arctanh': ["u.arctanh()"],
    'atan2': ["x.atan2(y)", "i.atan2(j)", "x.atan2(2)"],
    'arctan2': ["x.arctan2(y)"],
    'sinc': ["x.sinc()", "e.sinc()", "i.sinc()"],
    'deg2rad': ["x.deg2rad()", "i.deg2rad()"],
    'rad2deg': ["x.rad2deg()", "i.rad2deg()"],
    'logaddexp': ["x.logaddexp(y)"],
    'logaddexp2': ["x.logaddexp2(y)"],
    'logit': ["prob.logit()", "prob.logit(0.25)", "prob.logit(eps=0.25)"],
    'erf': ["x.erf()", "i.erf()"],
    'erfc': ["x.erfc()"],
    'erfinv': ["u.erfinv()", "e.erfinv()"],
    'lgamma': ["x.lgamma()", "big.lgamma()", "i.lgamma()"],
    'digamma': ["x.digamma()", "big.digamma()"],
    'mvlgamma': ["big.mvlgamma(1)", "big.mvlgamma(2)"],
    'sigmoid': ["x.sigmoid()", "i.sigmoid()"],
    'softmax': [
        "x.softmax(0)", "x.softmax(-1)", "x.softmax(axis=1)", "c.softmax(1)",
        "x.softmax(1, dtype=ms.float16)"],
    'sign': ["x.sign()", "i.sign()", "e.sign()", "e.half().sign()"],
    'sgn': ["x.sgn()", "i.sgn()"],
    'signbit': ["e.signbit()", "i.signbit()"],
    'hardshrink': ["x.hardshrink()", "x.hardshrink(0.6)", "x.hardshrink(lambd=1.0)"],
    'soft_shrink': ["x.soft_shrink()", "x.soft_shrink(0.6)"],
    'nan_to_num': [
        "e.nan_to_num()", "e.nan_to_num(0.5)", "e.nan_to_num(1.0, 2.0, -3.0)",
        "e.nan_to_num(posinf=9.0)"],
    'floor': ["r.floor()", "i.floor()"],
    'ceil': ["r.ceil()"],
    'trunc': ["r.trunc()", "i.trunc()"],
    'frac': ["r.frac()", "i.frac()"],
    'round': ["r.round()", "x.round(1)", "x.round(decimals=1)", "i.round()"],
    # ------------------------------------------------------------ comparison and logic
    'eq': ["x.eq(y)", "x.eq(0.5)", "i.eq(3)", "i.eq(x)"],
    'ne': ["x.ne(y)", "x.ne(0.5)"],
    'lt': ["x.lt(y)", "x.lt(0.5)", "i.lt(2)"],
    'le': ["x.le(y)", "x.le(0.5)"],
    'gt': ["x.gt(y)", "x.gt(0.5)"],
    'ge': ["x.ge(y)", "x.ge(0.5)"],
    'equal': ["x.equal(y)", "x.equal(x)", "x.equal(0.5)"],
    'not_equal': ["x.not_equal(y)", "x.not_equal(0.5)"],
    'less': ["x.less(y)", "x.less(0.5)"],
    'less_equal': ["x.less_equal(y)", "x.less_equal(0.5)"],
    'greater': ["x.greater(y)", "x.greater(0.5)"],
    'greater_equal': ["x.greater_equal(y)", "x.greater_equal(0.5)"],
    'isclose': [
        "x.isclose(y)", "x.isclose(x + 1e-6)", "x.isclose(y, 1.0, 1.0)", "n.isclose(n)",
        "n.isclose(n, equal_nan=True)", "x.isclose(x2=y)"],
    'allclose': [
        "x.allclose(y)", "x.allclose(x + 1e-6)", "x.allclose(y, 2.0, 2.0)",
        "n.allclose(n, equal_nan=True)"],
    'approximate_equal': [
        "x.approximate_equal(y)", "x.approximate_equal(x + 1e-6)", "x.approximate_equal(y, 1.5)"],
    'isnan': ["e.isnan()", "i.isnan()"],
    'isinf': ["e.isinf()", "i.isinf()"],
    'isfinite': ["e.isfinite()", "i.isfinite()"],
    'isneginf': ["e.isneginf()", "i.isneginf()"],
    'isposinf': ["e.isposinf()"],
    'logical_and': ["b.logical_and(b2)", "x.logical_and(i)", "b.logical_and(True)"],
    'logical_or': ["b.logical_or(b2)", "x.logical_or(i)"],
    'logical_xor': ["b.logical_xor(b2)", "x.logical_xor(i)"],
    'logical_not': ["b.logical_not()", "x.logical_not()", "i.logical_not()"],
    'bitwise_and': ["i.bitwise_and(j)", "b.bitwise_and(b2)", "i.bitwise_and(6)"],
    'bitwise_or': ["i.bitwise_or(j)", "b.bitwise_or(b2)", "i.bitwise_or(6)"],
    'bitwise_xor': ["i.bitwise_xor(j)", "b.bitwise_xor(b2)", "i.bitwise_xor(6)"],
    'bitwise_not': ["i.bitwise_not()", "b.bitwise_not()"],
    'invert': ["i.invert()", "u8.invert()", "b.invert()"],
    # ------------------------------------------------------------ reductions
    'sum': [
        "x.sum()", "x.sum(0)", "x.sum(1)", "x.sum(-1)", "c.sum((0, 2))", "x.sum(axis=1)",
        "x.sum(dim=1)", "x.sum(1, True)", "x.sum(dim=1, keepdim=True)",
        "x.sum(axis=1, keepdims=True)", "x.sum(1, keepdims=True)", "x.sum(1, keepdim=True)",
        "x.sum(1, ms.float64)", "x.sum(1, dtype=ms.float64)", "x.sum(initial=1.0)",
        "x.sum(1, initial=2)", "i.sum()", "i.sum(1)", "b.sum()", "b.sum(0)",
        "i.sum(dtype=ms.float32)", "x.sum(None, None, True)", "u8.sum()", "f16.sum()",
        "x.sum(1, None, True)", "x.sum(1, False)", "x.sum(dim=(0, 1))"],
    'mean': [
        "x.mean()", "x.mean(0)", "x.mean(1, True)", "x.mean(axis=1)", "x.mean(dim=1)",
        "x.mean(axis=1, keep_dims=True)", "x.mean(dim=1, keepdim=True)",
        "x.mean(1, keep_dims=True)", "x.mean(1, keepdim=True)", "c.mean((0, 2))",
        "x.mean(dtype=ms.float64)", "i.mean()", "i.mean(1)", "l.mean(0)",
        "i.mean(dtype=ms.float32)", "ni.mean()", "x.mean(None, True)", "b.mean()",
        "x.mean(1, False)", "ms.Tensor([-1, -2], ms.int32).mean()",
        "ms.Tensor(np.array([1, 0, 1], np.int8)).mean()", "l.mean(dim=1, keepdim=True)",
        "f16.mean()", "u8.mean()"],
    'prod': [
        "x.prod()", "x.prod(0)", "x.prod(1, True)", "x.prod(axis=1)", "x.prod(dim=1)",
        "x.prod(axis=1, keep_dims=True)", "x.prod(dim=1, keepdim=True)", "i.prod()", "i.prod(1)",
        "x.prod(1, dtype=ms.float64)", "b.prod()", "x.prod(1, True, ms.float64)", "c.prod((0, 2))",
        "u8.prod()", "x.prod(1, False)", "i.prod(dtype=ms.int32)"],
    'max': [
        "x.max()", "x.max(0)", "x.max(1)", "x.max(-1)", "x.max(0, True)", "x.max(1, False)",
        "x.max(dim=1)", "x.max(dim=0, keepdim=True)", "x.max(1, keepdim=True)", "x.max(axis=1)",
        "x.max(axis=0, keepdims=True)", "x.max(1, keepdims=True)", "x.max(None)", "x.max((0, 1))",
        "c.max((0, 2))", "x.max([1])", "x.max(axis=1, return_indices=True)",
        "x.max(1, return_indices=True)", "x.max(return_indices=True)", "x.max(None, True)",
        "x.max(keepdims=True)", "x.max(np.int64(1))", "x.max(0, keepdims=False)",
        "x.max(axis=(0, 1), keepdims=True)", "x.max(initial=10.0)", "x.max(axis=1, initial=3.0)",
        "x.max(axis=1, where=b, initial=-5.0)", "i.max()", "i.max(1)", "i.max(axis=0)", "b.max()",
        "n.max()", "n.max(1)", "s.max()", "s.max(0)"],
    'min': [
        "x.min()", "x.min(0)", "x.min(1)", "x.min(0, True)", "x.min(dim=1)",
        "x.min(dim=0, keepdim=True)", "x.min(1, keepdim=True)", "x.min(axis=1)",
        "x.min(axis=0, keepdims=True)", "x.min(1, keepdims=True)", "x.min(None)", "c.min((0, 2))",
        "x.min(axis=1, return_indices=True)", "x.min(initial=-10.0)", "x.min(return_indices=True)",
        "x.min(None, True)", "x.min(np.int64(0))", "x.min(axis=1, where=b, initial=5.0)", "i.min()",
        "i.min(1)", "n.min()", "n.min(0)"],
    'amax': [
        "x.amax()", "x.amax(0)", "x.amax(1, True)", "x.amax(axis=1)", "x.amax(dim=1)",
        "x.amax(1, keepdims=True)", "x.amax(1, keepdim=True)", "c.amax((0, 2))",
        "x.amax(initial=10.0)", "i.amax(0)", "x.amax(axis=1, where=b, initial=-5.0)"],
    'amin': [
        "x.amin()", "x.amin(0)", "x.amin(1, True)", "x.amin(axis=1)", "x.amin(dim=1)",
        "c.amin((0, 2))", "i.amin(1)", "x.amin(initial=-10.0)"],
    'aminmax': [
        "x.aminmax()", "x.aminmax(axis=1)", "x.aminmax(axis=1, keepdims=True)", "x.aminmax(dim=1)",
        "i.aminmax(axis=0)"],
    'ptp': ["x.ptp()", "x.ptp(1)", "x.ptp(axis=0, keepdims=True)", "i.ptp(1)"],
    'argmax': [
        "x.argmax()", "x.argmax(0)", "x.argmax(1, True)", "x.argmax(axis=1)", "x.argmax(dim=1)",
        "x.argmax(axis=1, keepdims=True)", "x.argmax(dim=1, keepdim=True)",
        "x.argmax(1, keepdims=True)", "x.argmax(1, keepdim=True)", "i.argmax()", "i.argmax(1)",
        "c.argmax(-1)", "x.argmax(None)", "x.argmax(1, False)"],
    'argmin': [
        "x.argmin()", "x.argmin(0)", "x.argmin(1, True)", "x.argmin(axis=1)", "x.argmin(dim=1)",
        "x.argmin(axis=1, keepdims=True)", "x.argmin(dim=1, keepdim=True)", "i.argmin()",
        "i.argmin(1)"],
    'argmax_with_value': [
        "x.argmax_with_value()", "x.argmax_with_value(1)", "x.argmax_with_value(1, True)",
        "x.argmax_with_value(axis=1, keep_dims=True)"],
    'argmin_with_value': [
        "x.argmin_with_value()", "x.argmin_with_value(1)",
        "x.argmin_with_value(axis=1, keep_dims=True)"],
    'all': [
        "b.all()", "b.all(0)", "b.all(1, True)", "b.all(axis=1)", "b.all(dim=1)",
        "b.all(axis=1, keep_dims=True)", "b.all(dim=1, keepdim=True)", "x.all()", "i.all(1)",
        "b.all((0, 1))"],
    'any': [
        "b.any()", "b.any(0)", "b.any(1, True)", "b.any(axis=1)", "b.any(dim=1)",
        "b.any(axis=1, keep_dims=True)", "b.any(dim=1, keepdim=True)", "x.any()", "i.any(1)",
        "b.any((0, 1))"],
    'var': [
        "x.var()", "x.var(0)", "x.var(1)", "x.var(1, 1)", "x.var(axis=1, ddof=1)",
        "x.var(1, 0, True)", "x.var(axis=1, keepdims=True)", "x.var(dim=1)",
        "x.var(dim=1, correction=0)", "x.var(dim=1, keepdim=True)", "x.var(1, correction=0)",
        "x.var(1, keepdim=True)", "x.var(correction=0)", "c.var((0, 2))", "i.var()",
        "x.var(1, 1, True)", "i.var(1)", "i.var(0, 1, True)", "u8.var()"],
    'std': [
        "x.std()", "x.std(0)", "x.std(1)", "x.std(1, 1)", "x.std(axis=1, ddof=1)",
        "x.std(1, 0, True)", "x.std(axis=1, keepdims=True)", "x.std(dim=1)",
        "x.std(dim=1, correction=0)", "x.std(dim=1, keepdim=True)", "x.std(1, keepdim=True)",
        "x.std(correction=0)", "i.std()", "x.std(1, 1, True)", "i.std(1)"],
    'nansum': [
        "n.nansum()", "n.nansum(1)", "n.nansum(1, True)", "n.nansum(axis=1)", "n.nansum(dim=1)",
        "n.nansum(dim=1, keepdim=True)", "n.nansum(axis=1, keepdims=True)", "i.nansum()",
        "n.nansum(dtype=ms.float64)", "u8.nansum()", "b.nansum()", "l.nansum(1)",
        "i.nansum(dtype=ms.float32)"],
    'nanmean': [
        "n.nanmean()", "n.nanmean(1)", "n.nanmean(1, True)", "n.nanmean(axis=0)",
        "n.nanmean(dtype=ms.float64)"],
    'nanmedian': [
        "n.nanmedian()", "n.nanmedian(1)", "n.nanmedian(0, True)",
        "n.nanmedian(axis=1, keepdims=True)"],
    'median': [
        "x.median()", "x.median(0)", "x.median(1, True)", "x.median(axis=1)", "x.median(dim=1)",
        "x.median(dim=1, keepdim=True)", "x.median(axis=0, keepdims=True)", "i.median()",
        "i.median(1)", "dup.median()", "ms.Tensor([1.0, 2.0, 1.0, 2.0, 1.0, 2.0]).median()",
        "ms.Tensor([3.0, 1.0, 3.0, 1.0]).median()"],
    'quantile': [
        "x.quantile(0.5)", "x.quantile(0.25, 1)", "x.quantile(0.5, axis=1, keepdims=True)",
        "x.quantile(ms.Tensor([0.25, 0.75]))", "x.quantile(ms.Tensor([0.25, 0.75]), 0)"],
    'kthvalue': [
        "x.kthvalue(2)", "x.kthvalue(1, 0)", "x.kthvalue(2, 1, True)",
        "x.kthvalue(2, dim=0, keepdim=True)", "i.kthvalue(2)"],
    'logsumexp': [
        "x.logsumexp(1)", "x.logsumexp(0, True)", "x.logsumexp(dim=1, keepdim=True)",
        "x.logsumexp((0, 1))", "c.logsumexp([0, 2])"],
    'norm': [
        "x.norm()", "x.norm(1)", "x.norm(2, 1)", "x.norm('fro')", "x.norm(dim=1)",
        "x.norm(float('inf'), 1)", "x.norm(2, 1, True)", "x.norm(dim=1, keepdim=True)", "v.norm(3)",
        "x.norm('nuc')", "x.norm(ord=-1, dim=0)"],
    'renorm': ["x.renorm(2, 0, 1.0)", "x.renorm(1, 1, 2.0)"],
    'count_nonzero': [
        "i.count_nonzero()", "i.count_nonzero(1)", "i.count_nonzero(dim=1)",
        "i.count_nonzero(axis=1)", "i.count_nonzero(axis=1, keep_dims=True)",
        "i.count_nonzero(1, True)", "x.count_nonzero()", "b.count_nonzero(0)",
        "i.count_nonzero(axis=(0, 1), dtype=ms.int64)", "i.count_nonzero((0, 1))"],
    'cov': ["x.cov()", "x.cov(correction=0)", "v.cov()"],
    'histc': [
        "x.histc(4, -2.0, 4.0)", "x.histc(bins=3)", "x.histc()", "x.histc(4, min=0.0, max=4.0)"],
    'bincount': [
        "k.bincount()", "k.bincount(minlength=7)", "k.bincount(v3.repeat(2)[:5])", "k32.bincount()",
        "k.bincount(weights=ms.Tensor([0.5, 1.0, 1.5, 2.0, 2.5]))"],
    # ------------------------------------------------------------ cumulative
    'cumsum': [
        "x.cumsum()", "x.cumsum(0)", "x.cumsum(1)", "x.cumsum(-1)", "x.cumsum(axis=1)",
        "x.cumsum(dim=1)", "x.cumsum(1, ms.float64)", "x.cumsum(1, dtype=ms.float64)",
        "x.cumsum(dim=1, dtype=ms.float64)", "i.cumsum()", "i.cumsum(0)", "i.cumsum(1)",
        "l.cumsum(1)", "b.cumsum(0)", "u8.cumsum(1)", "i.cumsum(1, ms.float32)", "i.cumsum(dim=0)",
        "x.cumsum(1, None)", "x.cumsum(None)", "c.cumsum()", "f16.cumsum(1)"],
    'cumprod': [
        "x.cumprod(1)", "x.cumprod(0)", "i.cumprod(1)", "x.cumprod(1, ms.float64)",
        "x.cumprod(dim=1)", "x.cumprod(1, dtype=ms.float64)", "b.cumprod(0)"],
    'cummax': ["x.cummax(1)", "x.cummax(0)", "i.cummax(1)", "x.cummax(axis=1)", "dup.cummax(0)"],
    'cummin': ["x.cummin(1)", "x.cummin(0)", "i.cummin(1)", "x.cummin(axis=1)", "dup.cummin(0)"],
    'logcumsumexp': ["x.logcumsumexp(1)", "x.logcumsumexp(0)", "x.logcumsumexp(axis=1)"],
    'diff': [
        "x.diff()", "x.diff(1, 0)", "x.diff(2)", "v.diff()", "x.diff(axis=0)", "i.diff()",
        "b.diff()", "x.diff(prepend=y)", "x.diff(1, 1, y, y)"],
    'msort': ["x.msort()", "i.msort()"],
    # ------------------------------------------------------------ matrices
    'trace': [
        "m.trace()", "x.trace()", "i.trace()", "x.trace(1)", "c.trace()", "c.trace(0, 1, 2)",
        "m.trace(dtype=ms.float64)"],
    'diagonal': [
        "m.diagonal()", "x.diagonal()", "x.diagonal(1)", "x.diagonal(-1)", "c.diagonal(0, 1, 2)",
        "c.diagonal(offset=1, axis1=0, axis2=2)", "c.diagonal()"],
    'diag': [
        "v3.diag()", "v3.diag(1)", "m.diag()", "m.diag(1)", "x.diag(-1)", "v3.diag(diagonal=-1)"],
    'diagflat': ["v3.diagflat()", "x.diagflat()", "v3.diagflat(1)", "v3.diagflat(-1)"],
    'tril': ["m.tril()", "m.tril(1)", "x.tril(-1)", "c.tril()", "x.tril(diagonal=1)"],
    'triu': ["m.triu()", "m.triu(1)", "x.triu(-1)", "c.triu()", "x.triu(diagonal=1)"],
    'cross': [
        "v3.cross(w3)", "m.cross(m.T)", "m.cross(m.T, 1)", "m.cross(m.T, dim=0)",
        "c[:, :, :3].cross(c[:, :, 1:])"],
    'matrix_power': [
        "m.matrix_power(0)", "m.matrix_power(1)", "m.matrix_power(3)", "bm.matrix_power(2)",
        "m.matrix_power(-1)"],
    'inverse': ["m.inverse()", "bm.inverse()"],
    'det': ["m.det()", "bm.det()"],
    'matrix_determinant': ["m.matrix_determinant()", "bm.matrix_determinant()"],
    'slogdet': ["m.slogdet()", "bm.slogdet()"],
    'log_matrix_determinant': ["m.log_matrix_determinant()"],
    'logdet': ["m.logdet()", "bm.logdet()"],
    'adjoint': ["x.adjoint()", "c.adjoint()"],
    't': ["x.t()", "v.t()", "s.t()"],
}

CASES = {**_VALUES, **STRUCTURE_CASES}
