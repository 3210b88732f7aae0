"""Hooks of every kind on the GPU: Cell forward pre-hooks, forward hooks, backward pre-hooks and
backward hooks, ``Tensor.register_hook``, ``ops.HookBackward``, a Cell with a custom ``bprop`` and
gradients of gradients. The hooks see GPU tensors, their replacements flow on, the gradients
equal the CPU's, and nothing is read back from the GPU."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

from .common import GPU, Reads, assert_close, assert_on_gpu, assert_reads, both, on

X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)


def run_hooked(fn):
    """``fn(seen)`` on both devices; the GPU's result, the tensors its hooks saw, and its
    reads. ``fn`` appends what its hooks see to ``seen`` and returns tensors."""
    def one():
        seen = []
        with Reads() as r:
            out = fn(seen)
        return out, seen, r
    (cpu, cpu_seen, _), (gpu, seen, reads) = both(one)
    assert len(seen) == len(cpu_seen) > 0
    assert_on_gpu(*[t for t in seen if t is not None], *gpu)
    assert_close(seen, cpu_seen, rtol=1e-5)
    assert_close(gpu, cpu, rtol=1e-5)
    assert_reads(reads, 0)
    return gpu


def mlp():
    return nn.SequentialCell([nn.Dense(4, 5), nn.Tanh(), nn.Dense(5, 2)])


def test_cell_hooks_of_every_kind_see_and_replace_values_on_the_gpu():
    def fn(seen):
        net = mlp()
        net[0].register_forward_pre_hook(lambda c, args: (args[0] * 2,))
        net[1].register_forward_hook(lambda c, args, out: seen.append(out) or out * 3)
        net[2].register_backward_pre_hook(lambda c, gy: seen.extend(gy) or (gy[0] * 0.5,))
        net[0].register_backward_hook(lambda c, gx, gy: seen.extend(gx + gy) or (gx[0] * 4,))
        net.register_forward_pre_hook(lambda c, args, kwargs: seen.append(args[0]),
                                      with_kwargs=True)
        net.register_forward_hook(lambda c, args, kwargs, out: seen.append(out),
                                  with_kwargs=True)
        gx, gw = ms.grad(lambda x: (net(x) ** 2).sum(), 0, net.trainable_params())(ms.Tensor(X))
        return [gx, *gw]
    grads = run_hooked(fn)
    assert len(grads) == 5


def test_hooks_on_a_cell_called_twice_and_with_unused_outputs():
    class Pair(nn.Cell):
        def construct(self, a):
            return [a * 2.0, ops.exp(a)]

    def fn(seen):
        pair, scale = Pair(), nn.Dense(4, 4)
        pair.register_backward_pre_hook(lambda c, gy: seen.extend(gy))   # zeros for [1]
        scale.register_backward_hook(lambda c, gx, gy: seen.extend(gx + gy))
        g = ms.grad(lambda x: (scale(scale(x)) * pair(x)[0]).sum())(ms.Tensor(X))
        return [g]
    run_hooked(fn)


def test_tensor_hooks_on_leaves_intermediates_and_parameters():
    def fn(seen):
        w = ms.Parameter(ms.Tensor(np.linspace(0.5, 2.0, 4, dtype=np.float32)), name='w')
        w.register_hook(lambda g: seen.append(g))
        x = ms.Tensor(X, requires_grad=True)
        x.register_hook(lambda g: seen.append(g) or g + 1.0)

        def f(x):
            y = x * w
            y.register_hook(lambda g: (g * 2).astype(ms.float64))      # cast back to float32
            z = ops.sin(y)
            z.register_hook(lambda g: seen.append(g))
            return (z ** 2).sum()
        loss = f(x)
        loss.backward()
        gx, (gw,) = ms.grad(f, 0, [w])(x)
        return [x.grad, w.grad, gx, gw]
    run_hooked(fn)


def test_hook_backward_with_several_inputs_and_an_unused_output():
    def fn(seen):
        hook = ops.HookBackward(lambda grads: seen.extend(grads) or
                                tuple(g * 10 for g in grads))
        a, b = ms.Tensor(X), ms.Tensor(X[::-1].copy())

        def f(a, b):
            a2, b2 = hook(a * 2, b * 3)
            return (a2 * a2).sum()          # b2 unused: its gradient is zeros, on the GPU
        return list(ms.grad(f, (0, 1))(a, b))
    ga, gb = run_hooked(fn)
    assert not gb.asnumpy().any()


def test_a_custom_bprop_cell_on_the_gpu():
    class Clipped(nn.Cell):
        def construct(self, x, y):
            return x * y, x + y

        def bprop(self, x, y, out, dout):
            return ops.clamp(dout[0] * y, -0.5, 0.5), dout[1] * 3.0 + x

    def fn(seen):
        cell = Clipped()
        cell.register_backward_hook(lambda c, gx, gy: seen.extend(gx + gy))
        x, y = ms.Tensor(X), ms.Tensor(np.cos(X))
        gx, gy = ms.grad(lambda x, y: (cell(x, y)[0] ** 2).sum() + cell(x, y)[1].sum(),
                         (0, 1))(x, y)
        return [gx, gy]
    run_hooked(fn)


def test_gradients_of_gradients_on_the_gpu():
    def fn(seen):
        net = mlp()
        hook = ops.HookBackward(lambda grads: seen.extend(grads) or (grads[0] * 2,))
        x = ms.Tensor(X)

        def penalty(x):     # the squared norm of d(output)/d(input): a second-order loss
            gx = ms.grad(lambda x: hook(net(x)).sum())(x)
            return (gx ** 2).sum()
        second = ms.grad(penalty, None, net.trainable_params())(x)
        hessian_diag = ms.grad(lambda x: ms.grad(lambda x: (ops.sin(x) * x ** 3).sum())(x)
                               .sum())(x)
        return [*second, hessian_diag]
    grads = run_hooked(fn)
    want = 6 * X * np.sin(X) + 6 * X ** 2 * np.cos(X) - X ** 3 * np.sin(X)
    np.testing.assert_allclose(grads[-1].asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_hooks_run_once_per_step_of_a_training_loop_without_reads():
    def fn(seen):
        net = mlp()
        for _, cell in net.cells_and_names():
            cell.register_forward_hook(lambda c, args, out: seen.append(out))
            cell.register_backward_hook(lambda c, gx, gy: seen.append(gy[0]))
        opt = nn.Adam(net.trainable_params(), 0.01)
        step = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, opt.parameters)
        losses = []
        for _ in range(3):
            loss, grads = step(ms.Tensor(X))
            opt(grads)
            losses.append(loss)
        return losses + list(net.trainable_params())
    out = run_hooked(fn)
    assert out[2].asnumpy() < out[0].asnumpy()


@pytest.mark.parametrize('kind', ['forward', 'backward'])
def test_an_error_in_a_hook_on_the_gpu_names_the_hook(kind):
    with on(GPU):
        net = mlp()

        def bad(*args):
            raise KeyError('planted')
        if kind == 'forward':
            net[1].register_forward_hook(bad)
        else:
            net[1].register_backward_hook(bad)
        with pytest.raises(KeyError, match='planted'):
            ms.grad(lambda x: net(x).sum())(ms.Tensor(X))
