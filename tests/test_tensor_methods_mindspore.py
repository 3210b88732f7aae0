"""Every recorded Tensor method call gives MindSpore 2.10's result: values, dtype, shape and the
structure of tuples (tensor_methods_ms210.json, written by tools/tensor_methods_mindspore.py).

A call MindSpore 2.10 rejects is not compared (hookgrad need not copy the error), except where
its CPU build lacks the kernel or contradicts its documentation: DOCUMENTED holds the documented
result of those calls.
"""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from tests.recorded import assert_tensor_matches

with open(os.path.join(os.path.dirname(__file__), 'tensor_methods_ms210.json')) as f:
    RECORD = json.load(f)

# MindSpore's float32 kernels (erf, lgamma, pow...) round differently from NumPy's.
RTOL, ATOL = 2e-5, 2e-6
# The inputs reach NaN, infinities and poles on purpose (log of negative integers...).
pytestmark = pytest.mark.filterwarnings('ignore::RuntimeWarning')


def arrays():
    return {name: np.array(a['values'], a['dtype']) for name, a in RECORD['arrays'].items()}


def _scattered(a, ufunc, src):
    """x with ``src`` combined by ``ufunc`` at the positions g names along axis 1."""
    out = a['x'].copy()
    ufunc.at(out, (np.arange(2)[:, None], a['g']), src)
    return out


def _columns_set(a, columns, src):
    out = a['x'].copy()
    out[:, columns] = src
    return out


def _flat_set(a, positions, values, accumulate=False):
    out = a['x'].copy().reshape(-1)
    (np.add.at if accumulate else np.put)(out, positions, values)
    return out.reshape(a['x'].shape)


def _kth(a, name, k, axis, keep=False):
    x = a[name]
    values = np.take(np.sort(x, axis), [k - 1], axis)
    index = np.take(np.argsort(x, axis, kind='stable'), [k - 1], axis).astype(np.int64)
    return (values, index) if keep else (values.squeeze(axis), index.squeeze(axis))


def _unique(a, name, inverse=False, counts=False):
    values, inv, cnt = np.unique(a[name], return_inverse=True, return_counts=True)
    out = (values,) + ((inv.astype(np.int64),) if inverse else ()) + \
        ((cnt.astype(np.int64),) if counts else ())
    return out[0] if len(out) == 1 else out


# Calls whose documented result MindSpore 2.10's CPU build does not give: it lacks the kernel
# (the method or overload is documented for Ascend), or its CPU fallback departs from the
# documentation. Each maps to the documented result: a recorded call MindSpore documents as
# equal, or a function of the inputs (NumPy arrays) computing it. In-place methods (a name
# ending in ``_``, the case giving ``(result, self)``) are documented to write the result into
# self, in self's dtype, and return self; the CPU build returns the result and leaves self
# unchanged, so for them the expected pair is built from the result (see ``expected``).
DOCUMENTED = {
    # "a copy of self"
    'x.clone()': 'x.copy()',
    # Tensor.new_full (Ascend only): fill_value in shape size, of self's dtype unless given
    'x.new_full((2, 2), 3)': lambda a: np.full((2, 2), 3, np.float32),
    'i.new_full((2,), 2.5)': lambda a: np.full((2,), 2, np.int32),
    'x.new_full([2], 1, dtype=ms.int32)': lambda a: np.full((2,), 1, np.int32),
    'i.floor_divide(2)': lambda a: a['i'] // 2,
    'x.floor_divide(0.5)': lambda a: a['x'] // np.float32(0.5),
    'x.addcdiv(y, p)': lambda a: a['x'] + a['y'] / a['p'],
    'x.addcdiv(y, p, value=0.5)': lambda a: a['x'] + np.float32(0.5) * a['y'] / a['p'],
    'n.fmin(x)': lambda a: np.fmin(a['n'], a['x']),
    'x.fmin(y)': lambda a: np.fmin(a['x'], a['y']),
    # round(decimals): the CPU kernel only takes decimals=0
    'x.round(1)': lambda a: np.round(a['x'], 1),
    'x.round(decimals=1)': lambda a: np.round(a['x'], 1),
    'i.bitwise_not()': lambda a: ~a['i'],
    'b.bitwise_not()': lambda a: ~a['b'],
    # var(dim, *, correction=1, keepdim=False): the PyTorch-style overload has no CPU kernel
    'x.var(dim=1)': 'x.var(1, 1)',
    'x.var(dim=1, correction=0)': 'x.var(1)',
    'x.var(dim=1, keepdim=True)': 'x.var(1, 1, True)',
    'x.var(1, correction=0)': 'x.var(1)',
    'x.var(1, keepdim=True)': 'x.var(1, 1, True)',
    'x.var(correction=0)': 'x.var()',
    # std(dim, *, correction=1, keepdim=False): the CPU fallback defaults correction to 0
    'x.std(dim=1)': 'x.std(1, 1)',
    'x.std(dim=1, keepdim=True)': 'x.std(1, 1, True)',
    'x.std(1, keepdim=True)': 'x.std(1, 1, True)',
    # nansum(dim=None, keepdim=False, *, dtype=None)
    'n.nansum(dim=1)': 'n.nansum(1)',
    'n.nansum(dim=1, keepdim=True)': 'n.nansum(1, True)',
    # quantile: linear interpolation between the two nearest values
    'x.quantile(0.5)': lambda a: np.quantile(a['x'], 0.5).astype(np.float32),
    'x.quantile(0.25, 1)': lambda a: np.quantile(a['x'], 0.25, 1).astype(np.float32),
    'x.quantile(0.5, axis=1, keepdims=True)':
        lambda a: np.quantile(a['x'], 0.5, 1, keepdims=True).astype(np.float32),
    'x.quantile(ms.Tensor([0.25, 0.75]))':
        lambda a: np.quantile(a['x'], [0.25, 0.75]).astype(np.float32),
    'x.quantile(ms.Tensor([0.25, 0.75]), 0)':
        lambda a: np.quantile(a['x'], [0.25, 0.75], 0).astype(np.float32),
    # kthvalue (Ascend only): the k-th smallest and its Int64 index
    'x.kthvalue(2)': lambda a: _kth(a, 'x', 2, -1),
    'x.kthvalue(1, 0)': lambda a: _kth(a, 'x', 1, 0),
    'x.kthvalue(2, 1, True)': lambda a: _kth(a, 'x', 2, 1, True),
    'x.kthvalue(2, dim=0, keepdim=True)': lambda a: _kth(a, 'x', 2, 0, True),
    'i.kthvalue(2)': lambda a: _kth(a, 'i', 2, -1),
    # repeat(*repeats) (no CPU kernel): the tensor tiled
    'x.repeat(2, 1)': 'x.tile((2, 1))',
    'x.repeat((2, 1))': 'x.tile((2, 1))',
    'x.repeat(1, 2, 1)': 'x.tile((1, 2, 1))',
    'v3.repeat(2)': 'v3.tile((2,))',
    'x.repeat([2, 2])': 'x.tile((2, 2))',
    'v3.repeat_interleave(2, output_size=6)': lambda a: np.repeat(a['v3'], 2),
    # roll(shifts, dims) (no CPU kernel); without dims the flattened tensor rolls
    'x.roll(1)': lambda a: np.roll(a['x'], 1),
    'x.roll(1, 1)': lambda a: np.roll(a['x'], 1, 1),
    'x.roll((1, 2), (0, 1))': lambda a: np.roll(a['x'], (1, 2), (0, 1)),
    'x.roll(-1, 0)': lambda a: np.roll(a['x'], -1, 0),
    'x.roll(shifts=2, dims=1)': lambda a: np.roll(a['x'], 2, 1),
    'v.roll(1)': lambda a: np.roll(a['v'], 1),
    'i.nonzero(as_tuple=True)': lambda a: tuple(k.astype(np.int64) for k in np.nonzero(a['i'])),
    'srt.searchsorted(ms.Tensor([2.5]), sorter=ms.Tensor([0, 1, 2, 3, 4]))':
        lambda a: np.array([2], np.int32),
    # unique (Ascend only): sorted values, Int64 inverse indices and counts
    'dup.unique()': lambda a: _unique(a, 'dup'),
    'dup.unique(return_inverse=True)': lambda a: _unique(a, 'dup', inverse=True),
    'dup.unique(return_counts=True)': lambda a: _unique(a, 'dup', counts=True),
    'dup.unique(True, True, True)': lambda a: _unique(a, 'dup', True, True),
    'k.unique()': lambda a: _unique(a, 'k'),
    'x.unique()': lambda a: _unique(a, 'x'),
    # scatter's reduce combines as scatter_'s documents; the CPU fallback drops it
    "x.scatter(1, g, y[:, :2], reduce='add')": lambda a: _scattered(a, np.add, a['y'][:, :2]),
    "x.scatter(1, g, 2.0, reduce='multiply')": lambda a: _scattered(a, np.multiply, 2.0),
    'x.scatter_add(1, g, y[:, :2])': lambda a: _scattered(a, np.add, a['y'][:, :2]),
    'x.scatter_add(dim=1, index=g, src=y[:, :2])': lambda a: _scattered(a, np.add, a['y'][:, :2]),
    # in place, without a CPU kernel: the out-of-place result (see expected)
    '(x.scatter_(1, g, y[:, :2]), x)': 'x.scatter(1, g, y[:, :2])',
    '(x.scatter_(1, g, 5.0), x)': 'x.scatter(1, g, 5.0)',
    "(x.scatter_(1, g, y[:, :2], reduce='add'), x)":
        lambda a: _scattered(a, np.add, a['y'][:, :2]),
    '(x.scatter_(dim=1, index=g, src=y[:, :2]), x)': 'x.scatter(1, g, y[:, :2])',
    '(x.scatter_(1, g, value=5.0), x)': 'x.scatter(1, g, 5.0)',
    '(x.scatter_add_(1, g, y[:, :2]), x)': lambda a: _scattered(a, np.add, a['y'][:, :2]),
    '(x.index_add_(1, ix, y[:, :2]), x)': 'x.index_add(1, ix, y[:, :2])',
    '(x.index_add_(1, ix, y[:, :2], alpha=2), x)': 'x.index_add(1, ix, y[:, :2], alpha=2)',
    '(x.index_fill_(1, ix, 9.0), x)': 'x.index_fill(1, ix, 9.0)',
    '(x.index_fill_(1, ix, ms.Tensor(9.0)), x)': 'x.index_fill(1, ix, ms.Tensor(9.0))',
    '(x.index_copy_(1, ix, y[:, :2]), x)': lambda a: _columns_set(a, [0, 2], a['y'][:, :2]),
    '(x.index_copy_(0, ms.Tensor([1]), y[:1]), x)':
        lambda a: np.stack([a['x'][0], a['y'][0]]),
    '(x.index_put_((ms.Tensor([0, 1]), ms.Tensor([2, 0])), ms.Tensor([9.0, 8.0])), x)':
        'x.index_put((ms.Tensor([0, 1]), ms.Tensor([2, 0])), ms.Tensor([9.0, 8.0]))',
    '(x.index_put_((ms.Tensor([0, 0]), ms.Tensor([2, 2])), ms.Tensor([1.0, 2.0]), True), x)':
        'x.index_put((ms.Tensor([0, 0]), ms.Tensor([2, 2])), ms.Tensor([1.0, 2.0]), True)',
    '(x.masked_scatter_(b, y), x)': 'x.masked_scatter(b, y)',
    '(x.put_(ms.Tensor([0, 4]), ms.Tensor([9.0, 8.0])), x)':
        lambda a: _flat_set(a, [0, 4], [9.0, 8.0]),
    '(x.put_(ms.Tensor([1, 1]), ms.Tensor([1.0, 2.0]), True), x)':
        lambda a: _flat_set(a, [1, 1], [1.0, 2.0], accumulate=True),
    '(m.addmm_(m, m), m)': 'm.addmm(m, m)',
    '(m.addmm_(m, m, beta=0.5, alpha=2), m)': lambda a: 0.5 * a['m'] + 2 * a['m'] @ a['m'],
    '(x.clamp_(0.0, 1.0), x)': 'x.clamp(0.0, 1.0)',
    '(x.clamp_(max=0.5), x)': 'x.clamp(max=0.5)',
    '(x.clamp_(y, p), x)': 'x.clamp(y, p)',
    '(p.log_(), p)': 'p.log()',
    '(r.floor_(), r)': 'r.floor()',
    '(x.sigmoid_(), x)': 'x.sigmoid()',
    '(x.tanh_(), x)': 'x.tanh()',
    '(x.sign_(), x)': 'x.sign()',
    '(u.erfinv_(), u)': 'u.erfinv()',
    '(x.fill_(2.5), x)': 'x.fill(2.5)',
    '(i.fill_(2.5), i)': 'i.fill(2.5)',
    '(x.fill_(ms.Tensor(4.0)), x)': 'x.fill(4.0)',
    '(x.zero_(), x)': 'x.fill(0.0)',
    '(i.zero_(), i)': 'i.fill(0)',
    '(x.masked_fill_(b, 0.0), x)': 'x.masked_fill(b, 0.0)',
    '(x.masked_fill_(b, ms.Tensor(2.0)), x)': 'x.masked_fill(b, 2)',
    '(m.fill_diagonal_(9.0), m)': 'm.fill_diagonal(9.0)',
    '(x.fill_diagonal_(9.0), x)': 'x.fill_diagonal(9.0)',
    # random fills without a CPU kernel: a tensor of self's shape and dtype (values not compared)
    'x.uniform()': 'x.copy()', 'x.uniform(2.0, 3.0)': 'x.copy()',
    'x.uniform_()': 'x.copy()', 'x.uniform_(2.0, 3.0)': 'x.copy()', 'x.normal_()': 'x.copy()',
    'x.normal_(1.0, 2.0)': 'x.copy()', 'x.exponential_()': 'x.copy()',
    'x.exponential_(2.0)': 'x.copy()', 'x.random_()': 'x.copy()', 'x.random_(0, 5)': 'x.copy()',
    'i.random_(0, 5)': 'i.copy()', 'prob.bernoulli()': lambda a: a['prob'],
    'x.bernoulli_()': 'x.copy()',
    'x.bernoulli_(0.3)': 'x.copy()', 'i.bernoulli_(0.3)': 'i.copy()',
}

# Where hookgrad keeps a documented rule that MindSpore 2.10's CPU kernels do not follow.
DOCUMENTED.update({
    # ops.maximum/minimum: "If one of the elements being compared is a NaN, then that element
    # is returned"; the CPU kernels return the other one. hookgrad's max/min reductions keep a
    # NaN the same way (as NumPy's); MindSpore's CPU reduction kernels skip it, and its
    # documentation of them does not say.
    'n.maximum(x)': lambda a: np.maximum(a['n'], a['x']),
    'n.minimum(x)': lambda a: np.minimum(a['n'], a['x']),
    'n.max()': lambda a: np.max(a['n']),
    'n.max(1)': lambda a: (np.max(a['n'], 1), np.argmax(a['n'], 1)),
    'n.min()': lambda a: np.min(a['n']),
})


def _ormqr(a):
    """Q @ m for the Q of q's QR decomposition (what ormqr of geqrf's output computes)."""
    return np.linalg.qr(a['q'].astype(np.float64), 'complete')[0] @ a['m']


DOCUMENTED.update({
    # Tensor.choose: the CPU build casts float choices to Int32 and back, truncating them
    'ix.choose([v[:2], w[:2]])': lambda a: np.choose(np.clip(a['ix'], 0, 1),
                                                    [a['v'][:2], a['w'][:2]]),
    # nanquantile has no CPU kernel (ops.quantile's linear interpolation without the NaN)
    'n.nanquantile(0.5)': lambda a: np.nanquantile(a['n'], 0.5).astype(np.float32),
    'n.nanquantile(0.25, axis=1, keepdims=True)':
        lambda a: np.nanquantile(a['n'], 0.25, axis=1, keepdims=True).astype(np.float32),
    # ormqr is documented for GPU only: Q @ other
    'q.geqrf()[0].ormqr(q.geqrf()[1], m)': lambda a: _ormqr(a).astype(np.float32),
})

def _triangular_solve(a, upper=True, transpose=False, unitriangular=False):
    """(X, m) with X solving op(T) X = q for the triangle T of m (triangular_solve's result)."""
    t = np.triu(a['m'].astype(np.float64)) if upper else np.tril(a['m'].astype(np.float64))
    if unitriangular:
        np.fill_diagonal(t, 1.0)
    x = np.linalg.solve(t.T if transpose else t, a['q'].astype(np.float64))
    return x.astype(np.float32), a['m']


DOCUMENTED.update({
    # Tensor.triangular_solve is documented for Ascend only (mint.triangular_solve)
    'q.triangular_solve(m)': _triangular_solve,
    'q.triangular_solve(m, False)': lambda a: _triangular_solve(a, False),
    'q.triangular_solve(m, True, True)': lambda a: _triangular_solve(a, True, True),
    'q.triangular_solve(m, upper=False, transpose=True, unitriangular=True)':
        lambda a: _triangular_solve(a, False, True, True),
    # to_ moves self to the device and returns it; the CPU build fails to make a device context
    "(x.to_('CPU'), x)": 'x.copy()',
    "(x.to_('CPU', True), x)": 'x.copy()',
})

# Recorded calls not compared, and why.
NOT_COMPARED = {
    'x.bfloat16().float()': "NumPy, which holds hookgrad's tensors, has no bfloat16",
    'x.requires_grad_().requires_grad': "MindSpore 2.10's Tensor has no requires_grad attribute",
    'x.requires_grad_(False).requires_grad':
        "MindSpore 2.10's Tensor has no requires_grad attribute",
    'ms.Tensor.remove_hook(0)': "hookgrad's hook handles have no global ids (remove_hook raises "
                                "and points to handle.remove())",
}

_MS_DTYPES = {'float16': 'Float16', 'float32': 'Float32', 'float64': 'Float64', 'int8': 'Int8',
              'int16': 'Int16', 'int32': 'Int32', 'int64': 'Int64', 'uint8': 'UInt8',
              'bool': 'Bool'}


def _recorded(value):
    """A NumPy result (or tuple of them) in the recorded form."""
    if isinstance(value, tuple):
        return {'sequence': [_recorded(v) for v in value], 'kind': 'tuple'}
    a = np.asarray(value)
    return {'dtype': _MS_DTYPES[str(a.dtype)], 'shape': list(a.shape),
            'values': a.astype(np.float64).tolist()}


RECORDED = {c['expr']: c['result'] for c in RECORD['cases']}


def _in_self(result, self_dtype):
    """``result`` cast to the dtype of the tensor an in-place method writes it into."""
    values = np.asarray(result['values'], np.float64).astype(self_dtype)
    return {'dtype': _MS_DTYPES[str(values.dtype)], 'shape': result['shape'],
            'values': values.astype(np.float64).tolist()}


def expected(method, expr, want):
    """The result to compare with: the recorded one, or the documented one (DOCUMENTED)."""
    if expr in DOCUMENTED:
        target = DOCUMENTED[expr]
        want = RECORDED[target] if isinstance(target, str) else _recorded(target(arrays()))
        assert 'error' not in want, f"{expr}: the documented stand-in {target!r} raised"
    if method.endswith('_') and expr.startswith('(') and 'error' not in want:
        result = want['sequence'][0] if 'sequence' in want else want
        self_dtype = arrays()[expr.rsplit(', ', 1)[1].rstrip(')')].dtype
        written = _in_self(result, self_dtype)
        want = {'sequence': [written, written], 'kind': 'tuple'}
    return want


def run(expr):
    env = {name: ms.Tensor(a) for name, a in arrays().items()}
    env.update(ms=ms, np=np)
    return eval(expr, env)  # noqa: S307  (the recorded expressions)


def compare(got, want, where, shape_only=False):
    if 'sequence' in want:
        kind = want['kind']
        assert type(got).__name__ == kind, f"{where}: got {type(got).__name__}, MindSpore " \
                                           f"gives a {kind}"
        assert len(got) == len(want['sequence']), \
            f"{where}: {len(got)} results, MindSpore gives {len(want['sequence'])}"
        for k, (g, w) in enumerate(zip(got, want['sequence'])):
            compare(g, w, f"{where}[{k}]", shape_only)
        return
    if 'mstype' in want:
        assert str(got) == want['mstype'], f"{where}: {got!r}, MindSpore gives {want['mstype']}"
        return
    if 'python' in want:
        assert type(got).__name__ == want['kind'], \
            f"{where}: got {type(got).__name__} {got!r}, MindSpore gives {want['kind']} " \
            f"{want['python']!r}"
        if want['kind'] == 'float':
            np.testing.assert_allclose(got, want['python'], rtol=RTOL, atol=ATOL, err_msg=where)
        else:
            assert got == want['python'], f"{where}: {got!r}, MindSpore gives {want['python']!r}"
        return
    if 'ndarray' in want:
        assert isinstance(got, np.ndarray), f"{where}: got {type(got).__name__}, MindSpore " \
                                            f"gives a NumPy array"
        assert str(got.dtype) == want['ndarray'] and list(got.shape) == want['shape'], \
            f"{where}: {got.dtype} {got.shape}, MindSpore gives {want['ndarray']} {want['shape']}"
        np.testing.assert_allclose(got.astype(np.float64), np.asarray(want['values']),
                                   rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=where)
        return
    assert_tensor_matches(got, want, where, RTOL, ATOL, shape_only)


# Compared: every recorded call but those NOT_COMPARED names and those MindSpore 2.10 refuses
# with nothing documented in their place (hookgrad may accept them).
CASES = [(c['method'], c['expr'], want) for c in RECORD['cases'] if c['expr'] not in NOT_COMPARED
         for want in [expected(c['method'], c['expr'], c['result'])] if 'error' not in want]


def test_most_recorded_calls_are_compared():
    assert len(CASES) > 0.9 * len(RECORD['cases'])


@pytest.mark.parametrize('method,expr,want', CASES, ids=[c[1] for c in CASES])
def test_matches_mindspore(method, expr, want):
    compare(run(expr), want, expr, method in RECORD['random'])


def test_documented_calls_are_recorded():
    stale = sorted(set(DOCUMENTED) - set(RECORDED))
    assert not stale, f"DOCUMENTED names calls that are not recorded: {stale}"
    targets = [t for t in DOCUMENTED.values() if isinstance(t, str)]
    missing = sorted(t for t in targets if t not in RECORDED or 'error' in RECORDED[t])
    assert not missing, f"documented stand-ins without a recorded MindSpore result: {missing}"


def test_every_method_has_a_case():
    """Each public Tensor method (or attribute) MindSpore 2.10 also has is called by a case."""
    shared = {n for n in dir(ms.Tensor) if not n.startswith('_')} & set(RECORD['methods'])
    covered = {c['method'] for c in RECORD['cases']}
    unnamed = [c['expr'] for c in RECORD['cases'] if f".{c['method']}" not in c['expr']]
    assert not unnamed, f"cases that do not call the method they are filed under: {unnamed}"
    missing = sorted(shared - covered)
    assert not missing, f"run tools/tensor_methods_mindspore.py with cases for {missing}"
