"""Graph mode on a device: a program runs where it was traced, and each device has its own."""
import numpy as np

import hookgrad as ms
from hookgrad.kernels import backend

GPU = backend.gpu()


def test_a_program_traced_on_the_gpu_replays_there_and_the_cpu_gets_its_own():
    @ms.jit
    def f(x, y):
        return (x * y + 1.0).exp()

    with backend.default_device(GPU):
        x, y = ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.full(3, 2.0, np.float32))
    want = np.exp(np.full(3, 3.0, np.float32))
    for _ in range(3):
        r = f(x, y)
        assert r.device == 'GPU:0'
        np.testing.assert_allclose(r.asnumpy(), want, rtol=1e-6)
    assert (f.traces, f.replays) == (1, 2)
    r = f(ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.full(3, 2.0, np.float32)))
    assert r.device == 'CPU' and f.traces == 2
    np.testing.assert_allclose(r.asnumpy(), want, rtol=1e-6)


def test_gradients_of_a_program_on_the_gpu():
    @ms.jit
    def step(x, w):
        return ms.grad(lambda a: (a * w * w).exp(), grad_position=0)(x)

    with backend.default_device(GPU):
        x, w = ms.Tensor(np.array([0.5, 1.0], np.float32)), ms.Tensor(np.float32(0.5))
    for _ in range(3):
        g = step(x, w)
        assert g.device == 'GPU:0'
        np.testing.assert_allclose(g.asnumpy(), 0.25 * np.exp(0.25 * np.array([0.5, 1.0])),
                                   rtol=1e-6)
    assert step.replays == 2


def test_a_jitted_value_and_grad_replays_fresh_gradients_on_the_gpu():
    """Each replay's gradients are its own: the arrays a traced backward returns on a device
    are slots of the program, not constants frozen at the trace."""
    def run(device):
        with backend.default_device(device):
            w = ms.Parameter(np.float32([1.0, 2.0]), name='w')
            step = ms.jit(ms.value_and_grad(lambda x: (x * w).sum() ** 2, None, [w]))
            out = []
            for i in range(3):
                loss, (g,) = step(ms.Tensor(np.float32([1.0 + i, 0.5])))
                out.append((loss.asnumpy(), g.asnumpy()))
                with ms.no_grad():
                    ms.ops.assign(w, w - 0.1 * g)
            return out, step
    cpu, _ = run(backend.CPU)
    gpu, step = run(GPU)
    assert step.replays == 2
    for (loss, g), (want_loss, want_g) in zip(gpu, cpu):
        np.testing.assert_allclose(loss, want_loss, rtol=1e-6)
        np.testing.assert_allclose(g, want_g, rtol=1e-6)
