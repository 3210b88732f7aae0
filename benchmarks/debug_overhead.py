"""The cost of ``hookgrad.debug.nan_guard`` on the ResNet-18 CIFAR training step.

The step is the one of benchmarks/resnet18_cifar.py: forward of a batch of 32 3x32x32 images,
cross-entropy, backward, Momentum update (lr 0.01, momentum 0.9), 2 threads. Plain steps and
steps under a guard (every op output and every gradient checked, the default options) alternate
on one network, so both see the same machine load; the guard is switched on and off outside the
timed region. The medians after warm-up and their ratio are printed.

Run: python benchmarks/debug_overhead.py [--steps 8] [--warmup 2]
"""
import two_threads  # noqa: F401  (first: two BLAS threads, hookgrad from this checkout)

import argparse
import statistics
import time

import hookgrad as ms
from resnet18_cifar import BATCH, hookgrad_step
import numpy as np
from hookgrad.debug import nan_guard


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=8)
    parser.add_argument('--warmup', type=int, default=2)
    args = parser.parse_args()
    net, step = hookgrad_step()
    guard = nan_guard(net)
    times = {'plain': [], 'guarded': []}
    for i in range(args.warmup + args.steps):
        for name in times:
            if name == 'guarded':
                guard.enable()
            t0 = time.perf_counter()
            step()
            elapsed = time.perf_counter() - t0
            guard.disable()
            if i >= args.warmup:
                times[name].append(elapsed)
    plain = statistics.median(times['plain'])
    guarded = statistics.median(times['guarded'])
    print(f"ResNet-18 CIFAR, batch {BATCH}, fwd + cross-entropy + bwd + Momentum; "
          f"{args.steps} steps of each after {args.warmup} warm-up, alternating")
    print(f"{'plain step':<24}{plain:8.3f} s")
    print(f"{'under nan_guard':<24}{guarded:8.3f} s")
    print(f"{'ratio guarded / plain':<24}{guarded / plain:8.2f}")
    print(f"(reports: {len(guard.reports)}; NumPy {np.__version__}; {ms.blas_info()})")


if __name__ == '__main__':
    main()
