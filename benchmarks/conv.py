"""Time of conv2d's forward, input gradient and weight gradient on ResNet-18 CIFAR shapes, for
each of hookgrad's kernel choices and PyTorch.

Batch 32, float32: the 3x3 padding-1 convolutions (64 channels at 32x32, 128 at 16x16, 256 at
8x8, 512 at 4x4 with stride 1; the three stride-2 ones that halve the size) and the three 1x1
stride-2 shortcut convolutions. Each pass is timed with ``conv_kernels.ALGORITHM`` 'direct'
(im2col + GEMM everywhere) and 'auto' (Winograd and pointwise where chosen), in interleaved
rounds so that the load of other processes falls on both alike; PyTorch (CPU, 2 threads) runs
the same passes after them when it imports (``torch.nn.grad``). Inputs and gradients are stored
channels-last, as conv2d's own results are. Medians in ms; 'spread' is the largest
(max - min) / median seen over the rows, a measure of the machine's noise.

Run: python benchmarks/conv.py [--rounds N]   (PyTorch optional: run with its interpreter)
"""
import argparse
import statistics
import time

import numpy as np

import hookgrad  # noqa: F401  (chooses OpenBLAS's kernels before NumPy loads)
from hookgrad.ops import conv_kernels

BATCH = 32
# (in channels, out channels, input size, kernel, stride)
LAYERS = [(64, 64, 32, 3, 1), (128, 128, 16, 3, 1), (256, 256, 8, 3, 1), (512, 512, 4, 3, 1),
          (64, 128, 32, 3, 2), (128, 256, 16, 3, 2), (256, 512, 8, 3, 2),
          (64, 128, 32, 1, 2), (128, 256, 16, 1, 2), (256, 512, 8, 1, 2)]
PASSES = ('forward', 'input grad', 'weight grad')


def channels_last(rng, n, c, h):
    return rng.standard_normal((n, h, h, c)).astype(np.float32).transpose(0, 3, 1, 2)


def hookgrad_passes(cin, cout, size, k, stride, rng):
    """The three passes of one layer as closures on arrays."""
    pad = (k // 2,) * 4
    x = channels_last(rng, BATCH, cin, size)
    w = rng.standard_normal((cout, cin, k, k)).astype(np.float32) * 0.05
    gy = channels_last(rng, BATCH, cout, -(-size // stride))
    p = dict(stride=(stride, stride), padding=pad, dilation=(1, 1), groups=1)
    return (lambda: conv_kernels.conv_forward(x, w, **p),
            lambda: conv_kernels.input_grad(gy, w, (size, size), **p),
            lambda: conv_kernels.filter_grad(gy, x, (k, k), **p))


def torch_passes(torch, cin, cout, size, k, stride, rng):
    x = torch.from_numpy(rng.standard_normal((BATCH, cin, size, size)).astype(np.float32))
    w = torch.from_numpy(rng.standard_normal((cout, cin, k, k)).astype(np.float32) * 0.05)
    gy = torch.from_numpy(rng.standard_normal((BATCH, cout, -(-size // stride),
                                               -(-size // stride))).astype(np.float32))
    f, pad = torch.nn.functional, k // 2
    g = torch.nn.grad
    return (lambda: f.conv2d(x, w, stride=stride, padding=pad),
            lambda: g.conv2d_input(x.shape, w, gy, stride=stride, padding=pad),
            lambda: g.conv2d_weight(x, w.shape, gy, stride=stride, padding=pad))


def once(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=7)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(2)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print(f"conv2d passes, batch {BATCH}, float32 (median of {args.rounds} rounds, ms)")
    names = ['direct', 'auto'] + (['PyTorch'] if torch is not None else [])
    print(f"{'layer':<22}{'pass':<13}" + ''.join(f"{n:>9}" for n in names)
          + f"{'direct/auto':>12}" + (f"{'auto/PyTorch':>13}" if torch is not None else ""))
    totals = {n: 0.0 for n in names}
    spread = 0.0
    for cin, cout, size, k, stride in LAYERS:
        layer = f"{cin}->{cout} {size}x{size} {k}x{k} s{stride}"
        fns = hookgrad_passes(cin, cout, size, k, stride, rng)
        tfns = torch_passes(torch, cin, cout, size, k, stride, rng) if torch else None
        for i, pname in enumerate(PASSES):
            times = {n: [] for n in names}
            for r in range(args.rounds + 1):            # round 0 warms up
                for n in ('direct', 'auto'):
                    conv_kernels.ALGORITHM = n
                    t = once(fns[i])
                    if r:
                        times[n].append(t)
            if tfns:    # on its own: PyTorch's OpenMP threads spin after a call, slowing NumPy
                times['PyTorch'] = [once(tfns[i]) for _ in range(args.rounds + 1)][1:]
            conv_kernels.ALGORITHM = 'auto'
            med = {n: statistics.median(v) for n, v in times.items()}
            spread = max(spread, *((max(v) - min(v)) / med[n] for n, v in times.items()))
            for n in names:
                totals[n] += med[n]
            line = f"{layer if i == 0 else '':<22}{pname:<13}" + ''.join(
                f"{med[n] * 1e3:>9.1f}" for n in names) + f"{med['direct'] / med['auto']:>11.2f}x"
            if torch is not None:
                line += f"{med['auto'] / med['PyTorch']:>12.2f}x"
            print(line, flush=True)
    line = f"{'total':<35}" + ''.join(f"{totals[n] * 1e3:>9.1f}" for n in names) \
        + f"{totals['direct'] / totals['auto']:>11.2f}x"
    if torch is not None:
        line += f"{totals['auto'] / totals['PyTorch']:>12.2f}x"
    print(line)
    print(f"spread (max - min) / median, worst row: {spread:.2f}")


if __name__ == '__main__':
    main()
