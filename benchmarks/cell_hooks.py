"""Cost of cell hooks: a 4-layer, 32-wide MLP of cells (Dense + ReLU), batch 16, training step.

For hookgrad and PyTorch (CPU, 2 threads) in the same process: the step without hooks, and with a
forward hook and a backward hook on every Dense (PyTorch: register_forward_hook +
register_full_backward_hook), and the hooked/unhooked ratio of each.

Run: python benchmarks/cell_hooks.py  (PyTorch is optional)
"""
import argparse
import statistics

import two_threads  # noqa: F401,I001  (first: hookgrad from this checkout, two BLAS threads)
import numpy as np

import hookgrad as ms
from hookgrad import nn, ops
from timing import samples

WIDTH, DEPTH, BATCH, LR = 32, 4, 16, 0.01


def timed(step, repeats, warmup=20):
    return statistics.median(samples(step, repeats, warmup))


def data(rng):
    return (rng.standard_normal((BATCH, WIDTH)).astype(np.float32),
            rng.standard_normal((BATCH, WIDTH)).astype(np.float32))


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        layers = []
        for i in range(DEPTH):
            layers.append(nn.Dense(WIDTH, WIDTH))
            if i < DEPTH - 1:
                layers.append(nn.ReLU())
        self.body = nn.SequentialCell(layers)

    def construct(self, x):
        return self.body(x)


def hookgrad_step(hooked):
    ms.set_seed(0)
    x, t = data(np.random.default_rng(0))
    X, Tt = ms.Tensor(x), ms.Tensor(t)
    net = MLP()
    params = net.trainable_params()
    stats = []
    if hooked:
        for cell in net.body:
            if isinstance(cell, nn.Dense):
                cell.register_forward_hook(lambda c, i, o: stats.append(o))
                cell.register_backward_hook(lambda c, gi, go: stats.append(go))

    def step():
        loss = ops.mean((net(X) - Tt) ** 2)
        loss.backward()
        with ms.no_grad():
            for p in params:
                ops.assign(p, p - LR * p.grad)
                p.grad = None
        stats.clear()
    return step


def torch_step(torch, hooked):
    torch.manual_seed(0)
    x, t = data(np.random.default_rng(0))
    X, Tt = torch.tensor(x), torch.tensor(t)
    layers = []
    for i in range(DEPTH):
        layers.append(torch.nn.Linear(WIDTH, WIDTH))
        if i < DEPTH - 1:
            layers.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*layers)
    params = list(net.parameters())
    stats = []
    if hooked:
        for m in net:
            if isinstance(m, torch.nn.Linear):
                m.register_forward_hook(lambda mod, i, o: stats.append(o))
                m.register_full_backward_hook(lambda mod, gi, go: stats.append(go))

    def step():
        loss = torch.mean((net(X) - Tt) ** 2)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= LR * p.grad
                p.grad = None
        stats.clear()
    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeats', type=int, default=300)
    parser.add_argument('--rounds', type=int, default=5,
                        help='interleaved rounds; the best median of each is reported')
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(2)
    except ImportError:
        torch = None
    steps = {'h0': hookgrad_step(False), 'h1': hookgrad_step(True)}
    if torch:
        steps.update(t0=torch_step(torch, False), t1=torch_step(torch, True))
    # rounds interleave the configurations, so drifts in machine speed hit all of them alike
    best = {k: timed(step, args.repeats)
            for k, step in steps.items()}
    for _ in range(args.rounds - 1):
        for k, step in steps.items():
            best[k] = min(best[k], timed(step, args.repeats, warmup=5))
    h0, h1 = best['h0'], best['h1']
    print(f"{'':<28}{'no hooks':>12}{'hooked':>12}{'hooked/plain':>14}")
    print(f"{'hookgrad step':<28}{h0 * 1e6:9.1f} us{h1 * 1e6:9.1f} us{h1 / h0:14.2f}")
    if torch:
        t0, t1 = best['t0'], best['t1']
        print(f"{'pytorch step':<28}{t0 * 1e6:9.1f} us{t1 * 1e6:9.1f} us{t1 / t0:14.2f}")
        print(f"{'hookgrad / pytorch':<28}{h0 / t0:12.2f}{h1 / t1:12.2f}")
        print(f"(PyTorch {torch.__version__}, {torch.get_num_threads()} threads; NumPy {np.__version__})")


if __name__ == '__main__':
    main()
