"""Time of conv2d's forward, input gradient and weight gradient on ResNet-18 CIFAR or narrow
(LeNet-style) shapes, for each of hookgrad's kernel choices and PyTorch.

``--layers resnet`` (batch 32, float32): the 3x3 padding-1 convolutions (64 channels at 32x32,
128 at 16x16, 256 at 8x8, 512 at 4x4 with stride 1; the three stride-2 ones that halve the size)
and the three 1x1 stride-2 shortcut convolutions. ``--layers narrow`` (batch 64): LeNet-5's two
5x5 layers, the 3x3 layers of a small MNIST network (1->32->64) and 16- to 32-channel layers.
Each pass is timed with ``conv_kernels.ALGORITHM`` 'direct' (channels-last im2col + GEMM
everywhere) and 'auto' (the layer's plan: measured once, see kernels/conv_plan.py), in interleaved
rounds so that the load of other processes falls on both alike; PyTorch (CPU, 2 threads) runs
the same passes after them when it imports (``torch.nn.grad``). Inputs and gradients are stored
as the layer before would leave them: channels-last, or, for the narrow layers, batch-last
where 'auto' runs the batch-last kernels on a batch-last input (as a narrow layer leaves it).
The gradient passes take what a training step's forward keeps for them (the kernel that ran,
the padded input, the weight in that kernel's form), so a Winograd input gradient does not
transform the weight again. Medians in ms; 'spread' is the largest (max - min) / median seen
over the rows, a measure of the machine's noise.

Run: python benchmarks/conv.py [--rounds N] [--layers resnet|narrow]
(PyTorch optional: run with its interpreter)
"""
import argparse
import statistics
import time

import two_threads  # noqa: F401,I001  (first: hookgrad from this checkout, two BLAS threads)
import hookgrad  # noqa: F401,I001  (first: it sets OpenBLAS's kernels and thread wait)
import numpy as np
from hookgrad.kernels import conv as conv_kernels

# batch, then (in channels, out channels, input size, kernel, stride, padding) per layer
LAYERS = {
    'resnet': (32, [(64, 64, 32, 3, 1, 1), (128, 128, 16, 3, 1, 1), (256, 256, 8, 3, 1, 1),
                    (512, 512, 4, 3, 1, 1), (64, 128, 32, 3, 2, 1), (128, 256, 16, 3, 2, 1),
                    (256, 512, 8, 3, 2, 1), (64, 128, 32, 1, 2, 0), (128, 256, 16, 1, 2, 0),
                    (256, 512, 8, 1, 2, 0)]),
    'narrow': (64, [(1, 6, 32, 5, 1, 0), (6, 16, 14, 5, 1, 0), (1, 32, 28, 3, 1, 0),
                    (32, 64, 26, 3, 1, 0), (16, 16, 14, 3, 1, 1), (16, 32, 14, 3, 2, 1),
                    (32, 32, 14, 3, 1, 1)]),
}
PASSES = ('forward', 'input grad', 'weight grad')


def stored(a, batch_last):
    """a (N, C, H, W) stored channels-last, or batch-last."""
    order = (1, 2, 3, 0) if batch_last else (0, 2, 3, 1)
    return np.ascontiguousarray(a.transpose(order)).transpose(np.argsort(order))


def hookgrad_passes(batch, cin, cout, size, k, stride, pad, rng, batch_last_input=False):
    """``{algorithm: the three passes of one layer as closures on arrays}``, the arrays stored
    as the algorithm's own layers would leave them; the gradients take what the forward keeps
    for them in a training step (the kernel that ran, the padded input, the weight in that
    kernel's form, a small im2col matrix)."""
    x = rng.standard_normal((batch, cin, size, size)).astype(np.float32)
    w = rng.standard_normal((cout, cin, k, k)).astype(np.float32) * 0.05
    ho = (size + 2 * pad - k) // stride + 1
    gy = rng.standard_normal((batch, cout, ho, ho)).astype(np.float32)
    p = dict(stride=(stride, stride), padding=(pad,) * 4, dilation=(1, 1), groups=1)
    passes = {}
    for name in ('direct', 'auto'):
        conv_kernels.ALGORITHM = name
        last = conv_kernels.kernel_choice(w.shape, p['stride'], p['padding'], (1, 1), 1,
                                          (ho, ho), w.dtype,
                                          batch_last_input=batch_last_input) == 'batch_last'
        xs, gys = stored(x, last), stored(gy, last)
        _, how, xh, rows, cols = conv_kernels.conv_forward(xs, w, **p)    # what a step keeps
        passes[name] = (
            lambda xs=xs: conv_kernels.conv_forward(xs, w, **p),
            lambda gys=gys, how=how, rows=rows: conv_kernels.input_grad(
                gys, w, (size, size), how=how, rows=rows, **p),
            lambda xs=xs, gys=gys, how=how, xh=xh, cols=cols: conv_kernels.filter_grad(
                gys, xs, (k, k), how=how, xh=xh, cols=cols, **p))
    conv_kernels.ALGORITHM = 'auto'
    return passes


def torch_passes(torch, batch, cin, cout, size, k, stride, pad, rng):
    x = torch.from_numpy(rng.standard_normal((batch, cin, size, size)).astype(np.float32))
    w = torch.from_numpy(rng.standard_normal((cout, cin, k, k)).astype(np.float32) * 0.05)
    ho = (size + 2 * pad - k) // stride + 1
    gy = torch.from_numpy(rng.standard_normal((batch, cout, ho, ho)).astype(np.float32))
    f = torch.nn.functional
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
    parser.add_argument('--layers', choices=sorted(LAYERS), default='resnet')
    args = parser.parse_args()
    batch, layers = LAYERS[args.layers]
    try:
        import torch
        torch.set_num_threads(2)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print(f"conv2d passes, batch {batch}, float32 (median of {args.rounds} rounds, ms)")
    names = ['direct', 'auto'] + (['PyTorch'] if torch is not None else [])
    print(f"{'layer':<22}{'pass':<13}" + ''.join(f"{n:>9}" for n in names)
          + f"{'direct/auto':>12}" + (f"{'auto/PyTorch':>13}" if torch is not None else ""))
    totals = {n: 0.0 for n in names}
    spread = 0.0
    for shape in layers:
        cin, cout, size, k, stride, _ = shape
        layer = f"{cin}->{cout} {size}x{size} {k}x{k} s{stride}"
        fns = hookgrad_passes(batch, *shape, rng, batch_last_input=args.layers == 'narrow')
        tfns = torch_passes(torch, batch, *shape, rng) if torch else None
        for i, pname in enumerate(PASSES):
            times = {n: [] for n in names}
            for r in range(args.rounds + 1):            # round 0 warms up
                for n in ('direct', 'auto'):
                    conv_kernels.ALGORITHM = n
                    t = once(fns[n][i])
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
