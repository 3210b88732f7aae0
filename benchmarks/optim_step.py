"""One optimizer update: hookgrad against PyTorch (CPU, 2 threads), same shapes, same process.

Two parameter lists, float32, random values and gradients:
1. a 4-layer, 32-wide MLP (4 weights of 32x32 and 4 biases: per-step overhead dominates);
2. ResNet-18 for CIFAR-10 (62 tensors, 11.17M values: memory traffic dominates).

Optimizers: SGD with momentum 0.9, Adam, and AdamWeightDecay against torch's AdamW (weight
decay 0.01). PyTorch is timed with its default CPU implementation (a loop over tensors) and with
``foreach=True``. The time is the median over repeats; the ratio is hookgrad / PyTorch.

Run: /tmp/torchvenv/bin/python benchmarks/optim_step.py   (without PyTorch only hookgrad runs)
"""
import argparse
import pathlib
import statistics
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import hookgrad as ms  # noqa: E402
from timing import samples


def mlp_shapes(width=32, layers=4):
    shapes = []
    for i in range(layers):
        shapes += [(f'fc{i}.weight', (width, width)), (f'fc{i}.bias', (width,))]
    return shapes


def resnet18_shapes(classes=10):
    """CIFAR ResNet-18: 3x3 stem, four stages of two basic blocks, BatchNorm gamma/beta."""
    shapes = [('conv1.weight', (64, 3, 3, 3)), ('bn1.gamma', (64,)), ('bn1.beta', (64,))]
    cin = 64
    for stage, cout in enumerate((64, 128, 256, 512), 1):
        for block in range(2):
            pre = f'layer{stage}.{block}'
            first = cin if block == 0 else cout
            shapes += [(f'{pre}.conv1.weight', (cout, first, 3, 3)), (f'{pre}.bn1.gamma', (cout,)),
                       (f'{pre}.bn1.beta', (cout,)), (f'{pre}.conv2.weight', (cout, cout, 3, 3)),
                       (f'{pre}.bn2.gamma', (cout,)), (f'{pre}.bn2.beta', (cout,))]
            if block == 0 and first != cout:
                shapes += [(f'{pre}.down.weight', (cout, first, 1, 1)),
                           (f'{pre}.down.gamma', (cout,)), (f'{pre}.down.beta', (cout,))]
        cin = cout
    return shapes + [('fc.weight', (classes, 512)), ('fc.bias', (classes,))]


def timed(fn, repeats, warmup=3):
    return statistics.median(samples(fn, repeats, warmup))


def arrays(shapes, seed=0):
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal(s, dtype=np.float32) * 0.1 for _, s in shapes]
    grads = [rng.standard_normal(s, dtype=np.float32) * 0.01 for _, s in shapes]
    return values, grads


HOOKGRAD = {
    'SGD(momentum=0.9)': lambda ps: ms.nn.SGD(ps, learning_rate=0.01, momentum=0.9),
    'Adam': lambda ps: ms.nn.Adam(ps, learning_rate=1e-3),
    'AdamWeightDecay(0.01)': lambda ps: ms.nn.AdamWeightDecay(ps, learning_rate=1e-3,
                                                              weight_decay=0.01),
}


def torch_makers(torch):
    return {
        'SGD(momentum=0.9)': lambda ps, **kw: torch.optim.SGD(ps, lr=0.01, momentum=0.9, **kw),
        'Adam': lambda ps, **kw: torch.optim.Adam(ps, lr=1e-3, **kw),
        'AdamWeightDecay(0.01)': lambda ps, **kw: torch.optim.AdamW(ps, lr=1e-3,
                                                                    weight_decay=0.01, **kw),
    }


def time_hookgrad(name, shapes, repeats):
    values, grads = arrays(shapes)
    params = [ms.Parameter(v, name=n) for (n, _), v in zip(shapes, values)]
    opt = HOOKGRAD[name](params)
    gs = tuple(ms.Tensor(g) for g in grads)
    return timed(lambda: opt(gs), repeats)


def time_torch(torch, name, shapes, repeats, foreach):
    values, grads = arrays(shapes)
    params = [torch.nn.Parameter(torch.from_numpy(v.copy())) for v in values]
    for p, g in zip(params, grads):
        p.grad = torch.from_numpy(g.copy())
    opt = torch_makers(torch)[name](params, foreach=foreach)
    return timed(opt.step, repeats)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeats', type=int, default=0, help='0: 2000 for the MLP, 30 for '
                        'ResNet-18')
    args = parser.parse_args(argv)
    try:
        import torch
        torch.set_num_threads(2)
    except ImportError:
        torch = None
    cases = [('MLP 4x32', mlp_shapes(), args.repeats or 2000),
             ('ResNet-18', resnet18_shapes(), args.repeats or 30)]
    for label, shapes, _ in cases:
        count = sum(int(np.prod(s)) for _, s in shapes)
        print(f"{label}: {len(shapes)} tensors, {count:,} float32 values")
    print(f"\n{'parameters':<12}{'optimizer':<24}{'hookgrad':>12}{'torch':>12}{'ratio':>8}"
          f"{'torch foreach':>15}{'ratio':>8}")
    for label, shapes, repeats in cases:
        for name in HOOKGRAD:
            ours = time_hookgrad(name, shapes, repeats)
            row = f"{label:<12}{name:<24}{ours * 1e6:>10.1f}us"
            if torch is not None:
                loop = time_torch(torch, name, shapes, repeats, foreach=False)
                fused = time_torch(torch, name, shapes, repeats, foreach=True)
                row += (f"{loop * 1e6:>10.1f}us{ours / loop:>8.2f}"
                        f"{fused * 1e6:>13.1f}us{ours / fused:>8.2f}")
            print(row)
            label = ''


if __name__ == '__main__':
    main()
