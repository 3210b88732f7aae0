"""The cost of ``hookgrad.debug.StatsRecorder`` on the ResNet-18 CIFAR training step.

The step is the one of benchmarks/resnet18_cifar.py: forward of a batch of 32 3x32x32 images,
cross-entropy, backward, Momentum update (lr 0.01, momentum 0.9), 2 threads. Two copies of the
network (same seed) train side by side: one plain, one with a recorder on every cell (inputs,
outputs, grad_input, grad_output, parameter gradient norms and update ratios, every step).
Their steps alternate, and which of the two goes first alternates too, so both see the same
machine load and neither always inherits the other's cache; the medians after warm-up and
their ratio are printed.

Run: python benchmarks/debug_stats_overhead.py [--steps 8] [--warmup 2] [--profile]
"""
import two_threads  # noqa: F401  (first: two BLAS threads, hookgrad from this checkout)

import argparse
import statistics
import time

from resnet18_cifar import BATCH, hookgrad_step
from hookgrad.debug import StatsRecorder


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=8)
    parser.add_argument('--warmup', type=int, default=2)
    parser.add_argument('--profile', action='store_true', help='profile one recorded step')
    args = parser.parse_args()
    _, plain = hookgrad_step(0)
    net, recorded_step = hookgrad_step(0)
    rec = StatsRecorder(net)

    def recorded():
        recorded_step()
        rec.step()

    times = {'plain': [], 'recorded': []}
    pair = (('plain', plain), ('recorded', recorded))
    for i in range(args.warmup + args.steps):
        for name, fn in pair if i % 2 else pair[::-1]:     # which runs first alternates too
            t0 = time.perf_counter()
            fn()
            if i >= args.warmup:
                times[name].append(time.perf_counter() - t0)
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        recorded()
        prof.disable()
        pstats.Stats(prof).sort_stats('tottime').print_stats(15)
    rec.close()
    p, r = statistics.median(times['plain']), statistics.median(times['recorded'])
    cells = len(rec.history.cells)
    print(f"ResNet-18 CIFAR, batch {BATCH}, fwd + cross-entropy + bwd + Momentum; "
          f"{args.steps} steps after {args.warmup} warm-up, alternating")
    print(f"plain step:                        median {p:.3f} s (min {min(times['plain']):.3f})")
    print(f"StatsRecorder on all {cells} cells:   median {r:.3f} s "
          f"(min {min(times['recorded']):.3f})")
    print(f"ratio recorded / plain: {r / p:.2f} (medians), "
          f"{min(times['recorded']) / min(times['plain']):.2f} (minima)")
    print(rec.report())


if __name__ == '__main__':
    main()
