"""Graph mode (``ms.jit``) against eager hookgrad and PyTorch eager, in one process.

1. The tiny-MLP training step of op_overhead.py (4 layers of 32, batch 16: matmul + add + relu,
   mean-square loss, backward, SGD written by hand): time per step, eager, jitted and PyTorch.
2. The chain of 1,000 element-wise ops of op_overhead.py, forward and backward: time per op,
   eager and jitted; and the replay's overhead per op, the jitted time less the time of the same
   NumPy arithmetic (forward and gradients) written as plain NumPy code.
3. A ResNet-18 CIFAR training step written the MindSpore way (``value_and_grad`` + Momentum,
   batch 32): time per step, eager and jitted.
4. What a first call costs (it runs eagerly under the recorder, then compiles the program),
   against an eager call.

The contenders run in interleaved rounds; medians over rounds are reported.
Run: python benchmarks/jit.py [--rounds 9] [--resnet-rounds 3] [--no-resnet]
(PyTorch is optional: without it only hookgrad is timed.)
"""
import argparse
import statistics
import time

import two_threads  # noqa: F401,I001  (first: hookgrad from this checkout, two BLAS threads)
import numpy as np

import hookgrad as ms
from hookgrad import nn
import op_overhead
from timing import samples


def per_call(fn, calls):
    """Median seconds per call over ``calls`` calls (no warm-up: rounds warm each other)."""
    return statistics.median(samples(fn, calls, warmup=0))


def rounds(contenders, n, calls):
    """Median per-call seconds of each contender, timed in ``n`` interleaved rounds."""
    times = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()                                # first calls (traces) happen before timing
    for _ in range(n):
        for name, fn in contenders.items():
            times[name].append(per_call(fn, calls))
    return {name: statistics.median(t) for name, t in times.items()}


def first_call(make, args=()):
    """Seconds the first call of a fresh jitted ``make()`` takes (recording and compiling),
    measured after the contenders warmed the process up."""
    jitted = ms.jit(make())
    t0 = time.perf_counter()
    jitted(*args)
    return time.perf_counter() - t0


def chain_numpy():
    """The chain's forward and gradients as plain NumPy: what each op's rule computes, and
    the sums into the gradients of ``a`` and ``b``."""
    rng = np.random.default_rng(0)
    x = rng.random(8, dtype=np.float32)
    a = np.full(8, 1.0001, np.float32)
    b = np.full(8, 0.001, np.float32)
    seed = np.ones(8, np.float32)

    def step():
        y, saved = x, []
        for _ in range(op_overhead.CHAIN // 4):
            y0 = y
            y1 = y0 * a
            y2 = y1 + b
            y3 = y2 - b
            y = y3 / a
            saved.append((y0, y3))
        g, ga, gb = seed, None, None
        for y0, y3 in reversed(saved):
            gx = g / a                                  # Div
            d = -gx * y3 / a
            ga = d if ga is None else ga + d
            d = -g                                      # Sub
            gb = d if gb is None else gb + d
            gb = gb + g                                 # Add
            d = g * y0                                  # Mul
            ga = ga + d
            g = gx * a
        return g, ga, gb
    return step


def resnet_step(seed=0):
    """A ResNet-18 CIFAR training step, the MindSpore way, on a fixed batch."""
    ms.set_seed(seed)
    net = ms.vision.resnet18(num_classes=10, cifar=True)
    net.set_train()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((32, 3, 32, 32), dtype=np.float32))
    y = ms.Tensor(rng.integers(0, 10, 32).astype(np.int32))
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss
    return train_step, x, y


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=9)
    parser.add_argument('--resnet-rounds', type=int, default=3)
    parser.add_argument('--no-resnet', action='store_true')
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(2)
    except ImportError:
        torch = None

    mlp = {'eager': op_overhead.mlp_hookgrad(), 'jit': ms.jit(op_overhead.mlp_hookgrad())}
    if torch:
        mlp['pytorch'] = op_overhead.mlp_torch(torch)
    m = rounds(mlp, args.rounds, 300)
    print(f"1. MLP 4x32 training step, batch 16 (median of {args.rounds} rounds)")
    for name, t in m.items():
        print(f"   {name:<10}{t * 1e6:9.1f} us")
    print(f"   jit / eager {m['jit'] / m['eager']:.3f}" +
          (f"   jit / pytorch {m['jit'] / m['pytorch']:.3f}" if torch else ''))

    chain = {'eager': op_overhead.chain_hookgrad(), 'jit': ms.jit(op_overhead.chain_hookgrad()),
             'numpy': chain_numpy()}
    c = {k: v / op_overhead.CHAIN for k, v in rounds(chain, args.rounds, 10).items()}
    print(f"2. chain of {op_overhead.CHAIN} element-wise ops on 8 floats, forward + backward, "
          f"per op")
    print(f"   eager {c['eager'] * 1e6:.3f} us   jit {c['jit'] * 1e6:.3f} us   "
          f"plain NumPy {c['numpy'] * 1e6:.3f} us   "
          f"replay overhead {(c['jit'] - c['numpy']) * 1e6:.3f} us per op")

    firsts = {'MLP step': (first_call(op_overhead.mlp_hookgrad), m['eager']),
              'chain': (first_call(op_overhead.chain_hookgrad), c['eager'] * op_overhead.CHAIN)}
    if not args.no_resnet:
        _, x, y = resnet_step()
        step, jitted = resnet_step()[0], ms.jit(resnet_step()[0])
        r = rounds({'eager': lambda: step(x, y), 'jit': lambda: jitted(x, y)},
                   args.resnet_rounds, 1)
        firsts['ResNet-18 step'] = (first_call(lambda: resnet_step()[0], (x, y)), r['eager'])
        print(f"3. ResNet-18 CIFAR training step, batch 32 (median of {args.resnet_rounds} "
              f"rounds)")
        print(f"   eager {r['eager'] * 1e3:.1f} ms   jit {r['jit'] * 1e3:.1f} ms   "
              f"jit / eager {r['jit'] / r['eager']:.3f}")
    print("4. a first jitted call (recorded, then compiled) against an eager call")
    for name, (first, eager) in firsts.items():
        print(f"   {name:<16}{first * 1e3:9.1f} ms against {eager * 1e3:8.3f} ms: "
              f"{first / eager:6.1f} eager calls")
    print(f"(NumPy {np.__version__}" + (f"; PyTorch {torch.__version__}, "
                                         f"{torch.get_num_threads()} threads" if torch else '') +
          "; lower is better)")


if __name__ == '__main__':
    main()
