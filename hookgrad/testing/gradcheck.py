"""Check analytic gradients against central finite differences (in float64).

``check_grad(fn, x, y)`` compares the vector-Jacobian product computed by the engine with the
one from central differences, for a random cotangent; ``check_double_grad`` does the same for
the gradient of that gradient (the higher-order path, where backward rules run on Tensors).
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.engine import run_backward
from ..kernels.backend import CPU, to_device, to_host


def _placer(device):
    """A function putting a NumPy array on ``device`` (None: the CPU)."""
    if device is None or device is CPU:
        return lambda a: a
    return lambda a: to_device(a, device)


def _host(g):
    """A gradient (an array of any device, or a Tensor) as a NumPy array."""
    return to_host(g._data if isinstance(g, Tensor) else g)


def _outputs(fn, tensors):
    y = fn(*tensors)
    return list(y) if isinstance(y, (tuple, list)) else [y]


def _cotangents(outs, rng):
    return [rng.standard_normal(o.shape).astype(o._data.dtype) for o in outs]


def numerical_vjp(fn, arrays, cotangents, eps=1e-6, wrt=None, device=None):
    """Central-difference estimate of sum_k <cotangent_k, d out_k / d x_i> for each input i
    (``fn`` runs on ``device``; ``arrays`` and ``cotangents`` are NumPy arrays)."""
    wrt = range(len(arrays)) if wrt is None else wrt
    put = _placer(device)
    grads = []
    for i in range(len(arrays)):
        if i not in wrt:
            grads.append(None)
            continue
        x = arrays[i]
        g = np.zeros(x.shape, dtype=np.float64)
        flat = x.reshape(-1)
        gflat = g.reshape(-1)
        for j in range(flat.size):
            orig = flat[j]
            vals = []
            for step in (eps, -eps):
                flat[j] = orig + step
                outs = _outputs(fn, [Tensor._wrap(put(a.copy())) for a in arrays])
                vals.append(sum(float(np.sum(to_host(o._data).astype(np.float64) * c))
                                for o, c in zip(outs, cotangents)))
            flat[j] = orig
            gflat[j] = (vals[0] - vals[1]) / (2 * eps)
        grads.append(g)
    return grads


def check_grad(fn, *arrays, wrt=None, eps=1e-6, atol=1e-6, rtol=1e-5, seed=0,
               allow_constant=False, device=None):
    """Assert that the engine's gradients of ``fn`` match finite differences.

    Args:
        fn: function of Tensors returning a Tensor or a tuple of Tensors.
        arrays: float64 NumPy arrays, the point to check at.
        wrt: indices of the inputs to differentiate (default: all floating ones).
        allow_constant: accept outputs that do not depend on the inputs (zero gradients are
            then checked against finite differences); otherwise that is an error.
        device: the device ``fn`` runs on (a ``kernels.backend.Device``; None: the CPU).
    Returns:
        The analytic gradients (NumPy arrays).
    """
    rng = np.random.default_rng(seed)
    arrays = [np.array(a) for a in arrays]
    if wrt is None:
        wrt = [i for i, a in enumerate(arrays) if a.dtype.kind in 'fV']
    put = _placer(device)
    tensors = [Tensor._wrap(put(a.copy())) for a in arrays]
    for i in wrt:
        tensors[i].requires_grad = True
    outs = _outputs(fn, tensors)
    cts = _cotangents(outs, rng)
    live = [(o, put(c)) for o, c in zip(outs, cts) if o.requires_grad]
    assert live or allow_constant, "no output of fn depends on the inputs"
    got = [None] * len(wrt)
    if live:
        got = run_backward([o for o, _ in live], [c for _, c in live],
                           targets=[tensors[i] for i in wrt])
    want = numerical_vjp(fn, arrays, cts, eps, wrt, device)
    result = []
    for k, i in enumerate(wrt):
        g = np.zeros(arrays[i].shape) if got[k] is None else _host(got[k])
        assert g.shape == arrays[i].shape, \
            f"input {i}: gradient shape {g.shape} != {arrays[i].shape}"
        np.testing.assert_allclose(g, want[i], atol=atol, rtol=rtol,
                                   err_msg=f"gradient of input {i} differs from finite differences")
        result.append(g)
    return result


def check_double_grad(fn, *arrays, wrt=None, eps=1e-6, atol=1e-5, rtol=1e-4, seed=1,
                      device=None):
    """Assert that the first-order VJP of ``fn`` recorded with ``create_graph=True`` equals the
    finite differences of ``fn``, and that its own gradients match finite differences.

    Recording runs every backward rule on Tensors (the rule an op uses for higher-order
    gradients, which may differ from its first-order rule on arrays): the first check catches a
    wrong value there, the second a wrong derivative.
    """
    rng = np.random.default_rng(seed)
    arrays = [np.array(a) for a in arrays]
    if wrt is None:
        wrt = [i for i, a in enumerate(arrays) if a.dtype.kind in 'fV']
    put = _placer(device)
    probe = _outputs(fn, [Tensor._wrap(put(a.copy())) for a in arrays])
    host_cts = _cotangents(probe, rng)
    cts = [Tensor._wrap(put(c)) for c in host_cts]

    def first_order(*tensors):
        leaves = list(tensors)
        for i in wrt:
            if leaves[i]._node is None and not leaves[i].requires_grad:
                leaves[i] = Tensor._wrap(leaves[i]._data)
                leaves[i].requires_grad = True
        outs = _outputs(fn, leaves)
        live = [(o, c) for o, c in zip(outs, cts) if o.requires_grad]
        gs = run_backward([o for o, _ in live], [c for _, c in live],
                          targets=[leaves[i] for i in wrt], create_graph=True)
        return tuple(Tensor._zeros(leaves[i].shape, leaves[i]._data.dtype, leaves[i]._data)
                     if g is None else g for g, i in zip(gs, wrt))

    values = first_order(*[Tensor._wrap(put(a.copy())) for a in arrays])
    want = numerical_vjp(fn, arrays, host_cts, eps, wrt, device)
    for k, i in enumerate(wrt):
        np.testing.assert_allclose(to_host(values[k]._data), want[i], atol=atol, rtol=rtol,
                                   err_msg=f"recorded gradient of input {i} differs from finite "
                                           f"differences")
    return check_grad(first_order, *arrays, wrt=wrt, eps=eps, atol=atol, rtol=rtol, seed=seed,
                      allow_constant=True, device=device)
