"""``Case``: one row of an op test table, and the checks every row gets.

A row names the registered op it exercises, calls it through the public API on generated
inputs, and is checked three ways: the forward against a NumPy reference, the gradient against
float64 central differences, and (for rules that must also run on Tensors) the gradient of that
gradient. The registry test derives op coverage from the rows: an op with no row fails it.

>>> import numpy as np
>>> from hookgrad import ops
>>> row = Case('Exp', ops.exp, ref=np.exp, shapes=[((3,),), ((2, 2),)])
>>> for shapes in row.shapes:
...     row.check_forward(shapes, np.float32)
...     row.check_backward(shapes)
...     row.check_double_backward(shapes)
"""
import contextlib
import dataclasses
from typing import Callable, Optional

import numpy as np

from .._tensor import Tensor
from ..kernels import backend, gpu_runtime
from .gradcheck import check_double_grad, check_grad


def device_named(name):
    """The device a test names: 'CPU', or 'GPU' (CuPy's, or the CUDA stand-in with
    ``HOOKGRAD_FAKE_GPU=1``)."""
    return backend.CPU if name == 'CPU' else backend.gpu()


@contextlib.contextmanager
def on_device(name):
    """New tensors on the device ``name``, in full float32 (no TF32: rows compare with
    float32 references)."""
    with backend.default_device(device_named(name)), gpu_runtime.full_float32():
        yield


def normal(rng, shape):
    """Standard normal values: the default domain."""
    return rng.standard_normal(shape)


def positive(rng, shape):
    """Values in [0.5, 2): clear of zero, for logarithms, roots and divisors."""
    return rng.uniform(0.5, 2.0, shape)


def away_from_zero(rng, shape):
    """|v| in [0.5, 2) with a random sign: divisors, and inputs clear of a kink at 0."""
    return rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)


@dataclasses.dataclass(frozen=True)
class Case:
    """A test row: which op, how it is called, on what inputs, checked against what.

    Attributes:
        op: the registered op name (a key of ``hookgrad.autograd.function.OPS``) the row
            exercises, or a tuple of names when one call applies several.
        fn: a function of Tensors, through the public API, returning a Tensor or a tuple.
        ref: the NumPy reference of ``fn`` on arrays, for the forward check (None: no check).
        shapes: the variants checked: per variant, one shape per input.
        domains: per input, ``domain(rng, shape) -> array`` (default: standard normal); a
            domain keeps inputs clear of kinks and poles so finite differences are exact.
        name: the test id prefix (default: the op name in lower case).
        grad: check first-order gradients against central differences (float64).
        double: also check second-order gradients (the backward rule run on Tensors).
        wrt: input positions to differentiate (default: the floating ones).
        dtypes: dtypes of the forward check, which also asserts the output keeps the dtype.
        rtol, atol: forward tolerances in float64.
        rtol32, atol32: forward tolerances in float32 (default: at least 1e-5 and 1e-6).
        grad_atol, grad_rtol: tolerances of both gradient checks.
        eps: the finite-difference step (a row whose output rounds, such as a cast through a
            narrow type, needs a wider one).
    """

    op: object
    fn: Callable
    ref: Optional[Callable] = None
    shapes: tuple = (((3, 4),),)
    domains: tuple = ()
    name: Optional[str] = None
    grad: bool = True
    double: bool = True
    wrt: Optional[tuple] = None
    dtypes: tuple = (np.float32, np.float64)
    rtol: float = 1e-6
    atol: float = 1e-6
    rtol32: Optional[float] = None
    atol32: Optional[float] = None
    grad_atol: float = 1e-6
    grad_rtol: float = 1e-5
    eps: float = 1e-6

    @property
    def ops(self):
        """The names of the ops the row exercises, as a tuple."""
        return self.op if isinstance(self.op, tuple) else (self.op,)

    @property
    def label(self):
        return self.name or self.ops[0].lower()

    def arrays(self, shapes, dtype=np.float64, seed=0):
        """Inputs for one variant: each input's domain at its shape, cast to ``dtype`` when
        floating (integer and boolean inputs such as indices keep their dtype)."""
        rng = np.random.default_rng(seed)
        out = []
        for i, shape in enumerate(shapes):
            domain = self.domains[i] if i < len(self.domains) else normal
            a = np.asarray(domain(rng, shape))
            out.append(a.astype(dtype) if a.dtype.kind in 'fV' else a)
        return out

    def check_forward(self, shapes, dtype, device='CPU'):
        """The output matches ``ref`` on the same inputs, with the reference's shape; a
        floating output has the inputs' floating dtype; every output is on ``device``."""
        if self.ref is None:
            return
        arrays = self.arrays(shapes, dtype)
        where = device_named(device)
        with on_device(device):
            got = self.fn(*[Tensor(a) for a in arrays])
        want = self.ref(*arrays)
        got = got if isinstance(got, (tuple, list)) else (got,)
        want = want if isinstance(want, (tuple, list)) else (want,)
        assert len(got) == len(want), f"{len(got)} outputs, the reference gives {len(want)}"
        rtol, atol = self.rtol, self.atol
        if dtype != np.float64:
            rtol = max(rtol, 1e-5) if self.rtol32 is None else self.rtol32
            atol = max(atol, 1e-6) if self.atol32 is None else self.atol32
        for k, (g, w) in enumerate(zip(got, want)):
            assert backend.device_of(g._data) is where, \
                f"output {k} is on {g.device}, its inputs on {where.name}"
            g, w = g.asnumpy(), np.asarray(w)
            assert g.shape == w.shape, f"output {k}: shape {g.shape}, reference {w.shape}"
            if g.dtype.kind in 'fV' and w.dtype.kind in 'fV':
                assert g.dtype == dtype, f"output {k}: dtype {g.dtype}, expected {np.dtype(dtype)}"
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol,
                                       err_msg=f"output {k} differs from the reference")

    def check_backward(self, shapes, device='CPU'):
        """First-order gradients match float64 central differences."""
        if self.grad:
            where = device_named(device)
            with on_device(device):
                check_grad(self.fn, *self.arrays(shapes, seed=1), wrt=self.wrt, eps=self.eps,
                           atol=self.grad_atol, rtol=self.grad_rtol, device=where)

    def check_double_backward(self, shapes, device='CPU'):
        """The first-order gradient of ``fn(x)**2`` recorded on Tensors, and its gradients,
        match central differences.

        Squaring makes the incoming gradient depend on the inputs, so even a linear op's rule
        is exercised on Tensors (the path higher-order gradients take).
        """
        if self.grad and self.double:
            where = device_named(device)
            with on_device(device):
                check_double_grad(lambda *xs: _squared(self.fn(*xs)),
                                  *self.arrays(shapes, seed=2), wrt=self.wrt, eps=self.eps,
                                  atol=max(self.grad_atol, 1e-5), rtol=max(self.grad_rtol, 1e-4),
                                  device=where)


def _squared(out):
    """Every floating output squared (indices and masks pass through)."""
    if isinstance(out, (tuple, list)):
        return tuple(o * o if o._data.dtype.kind in 'fV' else o for o in out)
    return out * out


def variants(cases):
    """``(case, shapes, id)`` for every variant of every row, ids unique within the table."""
    seen = set()
    for case in cases:
        for shapes in case.shapes:
            ident = f"{case.label}-{shapes}"
            n = 1
            while ident in seen:
                n += 1
                ident = f"{case.label}-{shapes}#{n}"
            seen.add(ident)
            yield case, shapes, ident
