"""What the test_layers_* files share: deterministic inputs and parameters (the same formula
produced MindSpore 2.10's expected numbers), the comparison with those numbers, and a
finite-difference check of a layer's input and parameter gradients in float64."""
import numpy as np

import hookgrad as ms
from hookgrad.testing import check_grad


def det(shape, k=0, dtype=np.float32):
    """sin(0.37 i + k) * 1.5 over the elements, in C order: the values fed to MindSpore."""
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + k) * 1.5).reshape(shape).astype(dtype)


def fill(net, dtype=np.float32):
    """Every parameter of ``net`` set to ``det(shape, 10 + its index)``."""
    for i, (_, p) in enumerate(net.parameters_and_names()):
        p.set_data(ms.Tensor(det(p.shape, 10 + i, dtype)))
    return net


def check_case(cell, kwargs, shapes, shape, total, squares, head, rtol=1e-4, train=False):
    """``cell(**kwargs)`` with filled parameters on ``det`` inputs (in training mode with
    ``train``) against MindSpore's output shape, sum, sum of squares and first values."""
    net = fill(getattr(ms.nn, cell)(**kwargs)).set_train(train)
    y = net(*[ms.Tensor(det(s, j)) for j, s in enumerate(shapes)])
    y = (y[0] if isinstance(y, tuple) else y).asnumpy().astype(np.float64)
    assert y.shape == shape
    np.testing.assert_allclose(y.sum(), total, rtol=rtol, atol=1e-3)
    np.testing.assert_allclose((y * y).sum(), squares, rtol=rtol, atol=1e-3)
    np.testing.assert_allclose(y.ravel()[:len(head)], head, rtol=rtol, atol=1e-4)


def check_layer_grad(net, *arrays, eps=1e-6, atol=1e-6, rtol=1e-5):
    """Finite-difference checks (float64) of ``net``'s gradients: inputs by ``check_grad``,
    trainable parameters by perturbing each element in place."""
    check_grad(lambda *t: net(*t), *arrays, eps=eps, atol=atol, rtol=rtol)
    params = net.trainable_params()
    if not params:
        return
    xs = [ms.Tensor(a) for a in arrays]
    c = np.random.default_rng(3).standard_normal(net(*xs).shape)

    def loss():
        return float(np.sum(net(*xs).asnumpy() * c))

    got = ms.grad(lambda *t: (net(*t) * ms.Tensor(c)).sum(), grad_position=None,
                  weights=params)(*xs)
    for p, g in zip(params, got):
        flat = p._data.reshape(-1)
        want = np.zeros(flat.size)
        for j in range(flat.size):
            orig = flat[j]
            flat[j] = orig + eps
            up = loss()
            flat[j] = orig - eps
            down = loss()
            flat[j] = orig
            want[j] = (up - down) / (2 * eps)
        np.testing.assert_allclose(g.asnumpy().reshape(-1), want, rtol=rtol, atol=atol,
                                   err_msg=f"gradient of {p.name}")


def test_det_matches_the_formula_given_to_mindspore():
    np.testing.assert_allclose(det((2, 2)).ravel(), 1.5 * np.sin([0.0, 0.37, 0.74, 1.11]),
                               rtol=1e-6)
