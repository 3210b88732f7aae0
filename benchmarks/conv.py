"""Time of conv2d forward + backward (input and weight gradients) on ResNet-18 CIFAR shapes.

Batch 32, float32, 3x3 kernels, padding 1: 64 channels at 32x32, 128 at 16x16, 256 at 8x8 and
512 at 4x4 (stride 1), plus the three stride-2 3x3 convolutions that halve the size. For each:
hookgrad's time and, when PyTorch imports, PyTorch's (CPU, 2 threads) and the ratio.

Inside a network a convolution's input and output gradient come from other layers, and conv2d
returns its results stored channels-last, which elementwise layers keep; the inputs here are
stored that way. The last line times the first shape again on a C-contiguous (NCHW) input and
gradient, which conv2d must transpose.

Run: python benchmarks/conv.py [--repeats N]  (PyTorch is optional)
"""
import argparse
import statistics

import numpy as np

import hookgrad as ms
from hookgrad import ops
from timing import samples

BATCH = 32
# (in channels, out channels, input size, stride)
LAYERS = [(64, 64, 32, 1), (128, 128, 16, 1), (256, 256, 8, 1), (512, 512, 4, 1),
          (64, 128, 32, 2), (128, 256, 16, 2), (256, 512, 8, 2)]


def timed(step, repeats, warmup=3):
    """(min, median) seconds of ``step``. Each framework runs its repeats on its own: BLAS and
    OpenMP worker threads keep spinning a while after a call, which would slow the other."""
    times = samples(step, repeats, warmup)
    return min(times), statistics.median(times)


def activation(rng, n, c, h, channels_last):
    """An (n, c, h, h) float32 array, stored channels-last or C-contiguous."""
    if not channels_last:
        return rng.standard_normal((n, c, h, h)).astype(np.float32)
    return rng.standard_normal((n, h, h, c)).astype(np.float32).transpose(0, 3, 1, 2)


def hookgrad_step(cin, cout, size, stride, rng, channels_last=True):
    x = ms.Tensor(activation(rng, BATCH, cin, size, channels_last), requires_grad=True)
    w = ms.Tensor(rng.standard_normal((cout, cin, 3, 3)).astype(np.float32) * 0.05,
                  requires_grad=True)
    gy = ms.Tensor(activation(rng, BATCH, cout, size // stride, channels_last))

    def step():
        x.grad = w.grad = None
        y = ops.conv2d(x, w, stride=stride, pad_mode='pad', padding=1)
        y.backward(gy)
    return step


def torch_step(torch, cin, cout, size, stride, rng):
    x = torch.tensor(rng.standard_normal((BATCH, cin, size, size)).astype(np.float32),
                     requires_grad=True)
    w = torch.tensor(rng.standard_normal((cout, cin, 3, 3)).astype(np.float32) * 0.05,
                     requires_grad=True)

    gy = torch.tensor(rng.standard_normal((BATCH, cout, size // stride, size // stride))
                      .astype(np.float32))

    def step():
        x.grad = w.grad = None
        y = torch.nn.functional.conv2d(x, w, stride=stride, padding=1)
        y.backward(gy)
    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeats', type=int, default=10)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(2)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print(f"conv2d forward + backward, batch {BATCH}, float32, 3x3, padding 1 "
          f"(min / median of {args.repeats}, ms)")
    header = f"{'layer':<26}{'hookgrad':>18}"
    if torch is not None:
        header += f"{'PyTorch (2 thr)':>20}{'ratio (min)':>13}"
    print(header)
    totals = [0.0, 0.0]
    rows = [(layer, True) for layer in LAYERS] + [(LAYERS[0], False)]
    for (cin, cout, size, stride), channels_last in rows:
        name = f"{cin}->{cout} {size}x{size} s{stride}" + ("" if channels_last else " NCHW")
        h_min, h_med = timed(hookgrad_step(cin, cout, size, stride, rng, channels_last),
                             args.repeats)
        line = f"{name:<26}{h_min * 1e3:>9.1f} / {h_med * 1e3:<6.1f}"
        if channels_last:
            totals[0] += h_min
        if torch is not None:
            t_min, t_med = timed(torch_step(torch, cin, cout, size, stride, rng), args.repeats)
            totals[1] += t_min if channels_last else 0.0
            line += f"{t_min * 1e3:>11.1f} / {t_med * 1e3:<6.1f}{h_min / t_min:>10.2f}x"
        print(line)
        if (cin, cout, size, stride) == LAYERS[-1]:
            line = f"{'total (min)':<26}{totals[0] * 1e3:>9.1f}"
            if torch is not None:
                line += f"{'':9}{totals[1] * 1e3:>11.1f}{'':9}{totals[0] / totals[1]:>10.2f}x"
            print(line)


if __name__ == '__main__':
    main()
