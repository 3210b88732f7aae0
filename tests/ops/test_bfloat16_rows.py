"""Every op row again in bfloat16: each op either computes it, or refuses it by name.

A row's floating inputs are rounded to bfloat16. The op must then give bfloat16 floating
outputs, close to the float32 reference on the same rounded inputs (bfloat16 keeps 8 bits
of mantissa, so the tolerance is a few of its units), and bfloat16 gradients; or raise a
TypeError that names BFloat16, as the decompositions, the special functions and the other
ops whose MindSpore CPU kernels take only Float16/32/64 do.
"""
import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad._tensor import Tensor
from tests.ops.rows import all_rows

BF16 = np.dtype(ml_dtypes.bfloat16)
RTOL = 3e-2         # a few units of bfloat16's last place (2**-8), through a chain of ops
# rows whose output meets a float32 tensor the op makes itself: float32, by promotion
PROMOTED = {'normal-numbers'}


def _rows():
    """The rows with a reference and a floating input."""
    for module, case in all_rows():
        if case.ref is not None and np.float32 in case.dtypes and \
                any(a.dtype.kind == 'f' for a in case.arrays(case.shapes[0], np.float32)):
            yield pytest.param(case, id=f"{module}:{case.label}")


def _inputs(case):
    arrays = case.arrays(case.shapes[0], np.float32)
    low = [a.astype(BF16) if a.dtype.kind == 'f' else a for a in arrays]
    return low, [a.astype(np.float32) if a.dtype == BF16 else a for a in low]


def _float_sum(out):
    out = out if isinstance(out, (tuple, list)) else (out,)
    total = None
    for o in out:
        if o.dtype.is_floating:
            s = o.astype(ms.float32).sum()
            total = s if total is None else total + s
    return total


@pytest.mark.parametrize('case', list(_rows()))
def test_op_computes_bfloat16_or_refuses_it_by_name(case):
    low, wide = _inputs(case)
    try:
        got = case.fn(*[Tensor(a) for a in low])
    except TypeError as e:
        assert 'BFloat16' in str(e), f"a refusal must name BFloat16: {e}"
        return
    want = case.ref(*wide)
    got = got if isinstance(got, (tuple, list)) else (got,)
    want = want if isinstance(want, (tuple, list)) else (want,)
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = g.asnumpy(), np.asarray(w)
        if w.dtype.kind != 'f':
            continue
        want_dtype = np.float32 if case.label in PROMOTED else BF16
        assert g.dtype == want_dtype, f"output {k}: dtype {g.dtype}, expected {want_dtype}"
        scale = max(1.0, float(np.nanmax(np.abs(w)))) if w.size else 1.0
        np.testing.assert_allclose(g.astype(np.float32), w, rtol=RTOL, atol=RTOL * scale,
                                   equal_nan=True, err_msg=f"output {k}")
    if case.grad:
        wrt = tuple(i for i, a in enumerate(low) if a.dtype == BF16) if case.wrt is None \
            else tuple(case.wrt)
        grads = ms.grad(lambda *xs: _float_sum(case.fn(*xs)), grad_position=wrt)(
            *[Tensor(a) for a in low])
        grads = grads if isinstance(grads, tuple) else (grads,)
        for i, g in zip(wrt, grads):
            assert g.dtype == ms.bfloat16, f"gradient of input {i}: dtype {g.dtype}"
