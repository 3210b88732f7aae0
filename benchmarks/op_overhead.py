"""Per-op overhead: hookgrad against PyTorch (CPU, 2 threads) in the same process.

1. A chain of 1,000 element-wise ops on 8-element float32 tensors that require grad,
   forward and backward: time per op.
2. A 4-layer, 32-wide MLP training step (batch 16, matmul + add + relu, mean-square loss,
   SGD written by hand): time per step.

Run: python benchmarks/op_overhead.py  (PyTorch is optional: without it only hookgrad is timed)
"""
import argparse
import statistics

import two_threads  # noqa: F401,I001  (first: hookgrad from this checkout, two BLAS threads)
import numpy as np

import hookgrad as ms
from hookgrad import ops
from timing import samples

CHAIN = 1000


def timed(fn, repeats, warmup=3):
    return statistics.median(samples(fn, repeats, warmup))


def chain_hookgrad():
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.random(8, dtype=np.float32), requires_grad=True)
    a = ms.Tensor(np.full(8, 1.0001, np.float32), requires_grad=True)
    b = ms.Tensor(np.full(8, 0.001, np.float32), requires_grad=True)

    def step():
        y = x
        for i in range(CHAIN // 4):
            y = y * a
            y = y + b
            y = y - b
            y = y / a
        y.backward(ms.Tensor(np.ones(8, np.float32)))
        x.grad = a.grad = b.grad = None
    return step


def chain_torch(torch):
    x = torch.rand(8, requires_grad=True)
    a = torch.full((8,), 1.0001, requires_grad=True)
    b = torch.full((8,), 0.001, requires_grad=True)
    ones = torch.ones(8)

    def step():
        y = x
        for i in range(CHAIN // 4):
            y = y * a
            y = y + b
            y = y - b
            y = y / a
        y.backward(ones)
        x.grad = a.grad = b.grad = None
    return step


def mlp_params(rng):
    ws = [rng.standard_normal((32, 32)).astype(np.float32) * 0.2 for _ in range(4)]
    bs = [np.zeros(32, np.float32) for _ in range(4)]
    x = rng.standard_normal((16, 32)).astype(np.float32)
    t = rng.standard_normal((16, 32)).astype(np.float32)
    return ws, bs, x, t


def mlp_hookgrad():
    ws, bs, x, t = mlp_params(np.random.default_rng(0))
    W = [ms.Parameter(w, name=f'w{i}') for i, w in enumerate(ws)]
    B = [ms.Parameter(b, name=f'b{i}') for i, b in enumerate(bs)]
    X, Tt = ms.Tensor(x), ms.Tensor(t)
    params = W + B
    lr = 0.01

    def step():
        h = X
        for i in range(4):
            h = ops.matmul(h, W[i]) + B[i]
            if i < 3:
                h = ops.relu(h)
        loss = ops.mean((h - Tt) ** 2)
        loss.backward()
        with ms.no_grad():
            for p in params:
                ops.assign(p, p - lr * p.grad)
                p.grad = None
    return step


def mlp_torch(torch):
    ws, bs, x, t = mlp_params(np.random.default_rng(0))
    W = [torch.tensor(w, requires_grad=True) for w in ws]
    B = [torch.tensor(b, requires_grad=True) for b in bs]
    X, Tt = torch.tensor(x), torch.tensor(t)
    params = W + B
    lr = 0.01

    def step():
        h = X
        for i in range(4):
            h = torch.matmul(h, W[i]) + B[i]
            if i < 3:
                h = torch.relu(h)
        loss = torch.mean((h - Tt) ** 2)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= lr * p.grad
                p.grad = None
    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeats', type=int, default=30)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(2)
    except ImportError:
        torch = None
    rows = [('chain: time per op (fwd+bwd)', CHAIN,
             timed(chain_hookgrad(), args.repeats),
             timed(chain_torch(torch), args.repeats) if torch else None),
            ('MLP 4x32, batch 16: time per step', 1,
             timed(mlp_hookgrad(), args.repeats * 10),
             timed(mlp_torch(torch), args.repeats * 10) if torch else None)]
    print(f"{'benchmark':<38}{'hookgrad':>12}{'pytorch':>12}{'ratio':>8}")
    for name, per, h, t in rows:
        hs = f"{h / per * 1e6:9.2f} us"
        ts = f"{t / per * 1e6:9.2f} us" if t else f"{'n/a':>12}"
        ratio = f"{h / t:8.2f}" if t else f"{'':>8}"
        print(f"{name:<38}{hs:>12}{ts:>12}{ratio}")
    if torch:
        print(f"(PyTorch {torch.__version__}, {torch.get_num_threads()} threads; "
              f"NumPy {np.__version__}; ratio = hookgrad / PyTorch, lower is better)")


if __name__ == '__main__':
    main()
