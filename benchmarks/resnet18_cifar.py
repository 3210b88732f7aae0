"""ResNet-18 (CIFAR stem) training step: hookgrad against PyTorch CPU, time and peak memory.

One step: forward of a batch of 32 3x32x32 images, cross-entropy, backward, Momentum update
(lr 0.01, momentum 0.9). The median over steps after warm-up is reported, and the peak resident
memory of the process. Each framework runs in its own process (2 threads each), so memory
figures are not mixed. hookgrad runs with the OpenBLAS kernels and thread choice it makes, with
a forward and a backward hook on every cell (PyTorch too: register_forward_hook and
register_full_backward_hook on every module), with one BLAS thread, with OpenBLAS's own kernels
(HOOKGRAD_BLAS_CORETYPE=off), with OpenBLAS's own thread count (HOOKGRAD_BLAS_THREADS=fixed)
and with NumPy's Winograd transforms instead of the compiled ones (HOOKGRAD_FUSED=0; the same
without Numba installed).
Each process also measures its float32 GEMM rate (a 2048^3 product); the step's GFLOP/s (6x the
forward's multiply-adds, as counted by hookgrad.debug.summary) is compared with the best of them.
``--rounds`` repeats the runs interleaved and reports the median; ``--load`` keeps one core busy
in another process meanwhile.

Run: python benchmarks/resnet18_cifar.py [--steps 6] [--warmup 2] [--rounds 1] [--load] [--profile]
PyTorch is optional; give another interpreter with --torch-python (one that has torch).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys

from timing import checkout_env, neighbour_load, samples

BATCH, CLASSES = 32, 10


def hookgrad_step(seed=0):
    """``(net, step)``: a ResNet-18 CIFAR network and a closure running one training step on a
    fixed batch (forward, cross-entropy, backward, Momentum), returning the loss."""
    import hookgrad as ms               # first: it chooses OpenBLAS's kernels before NumPy loads
    import numpy as np
    from hookgrad import nn
    ms.set_seed(seed)
    net = ms.vision.resnet18(num_classes=CLASSES, cifar=True)
    net.set_train()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((BATCH, 3, 32, 32), dtype=np.float32))
    y = ms.Tensor(rng.integers(0, CLASSES, BATCH).astype(np.int32))
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def step():
        loss, grads = grad_fn(x, y)
        opt(grads)
        return float(loss.asnumpy())
    return net, step


def _hooked(hooks):
    """Whether this child puts a forward and a backward hook on every cell."""
    return hooks == '1'


def sgemm_gflops(matmul, make):
    """The best float32 GEMM rate of five 2048^3 products, in GFLOP/s."""
    n = 2048
    a, b = make(n), make(n)
    best = min(samples(lambda: matmul(a, b), 5, 1))
    return 2 * n ** 3 / best / 1e9


def hookgrad_steps(steps, warmup, profile):
    import hookgrad as ms
    import numpy as np
    net, step = hookgrad_step()
    from hookgrad.kernels import winograd_fused
    info = {'blas': dict(ms.blas_info(), compiled_transforms=winograd_fused.kernels() is not None)}
    if _hooked(os.environ.get('BENCH_HOOKS')):
        calls = [0]

        def seen(*_):
            calls[0] += 1
        for cell in net.cells_and_names():
            cell[1].register_forward_hook(seen)
            cell[1].register_backward_hook(seen)
        info['hooked_cells'] = len(list(net.cells_and_names()))
    else:
        x = ms.Tensor(np.zeros((BATCH, 3, 32, 32), np.float32))
        info['step_gflop'] = 6 * ms.debug.summary(net, x, verbose=False).total_macs / 1e9
    times = samples(step, steps, warmup)
    rng = np.random.default_rng(0)
    info['sgemm_gflops'] = sgemm_gflops(
        ms.ops.matmul, lambda n: ms.Tensor(rng.standard_normal((n, n), dtype=np.float32)))
    report = None
    if profile:
        import cProfile
        import io
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        step()
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats('tottime').print_stats(18)
        report = out.getvalue()
    return times, info, report


def torch_steps(steps, warmup, profile):
    import numpy as np
    import torch
    torch.set_num_threads(2)
    torch.manual_seed(0)
    net = _torch_resnet18(torch)
    net.train()
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((BATCH, 3, 32, 32), dtype=np.float32))
    y = torch.tensor(rng.integers(0, CLASSES, BATCH))
    loss_fn = torch.nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    if _hooked(os.environ.get('BENCH_HOOKS')):
        def seen(*_):
            return None
        for module in net.modules():
            module.register_forward_hook(seen)
            module.register_full_backward_hook(seen)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return float(loss)

    times = samples(step, steps, warmup)
    gemm = sgemm_gflops(torch.mm, lambda n: torch.randn(n, n))
    return times, {'torch': torch.__version__, 'sgemm_gflops': gemm}, None


def _torch_resnet18(torch):
    """The same network as hookgrad.vision.resnet18(cifar=True), in torch.nn."""
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

        def forward(self, x):
            identity = x if self.down is None else self.down(x)
            out = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(self.bn2(self.conv2(out)) + identity)

    layers = [nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU()]
    cin = 64
    for i, width in enumerate((64, 128, 256, 512)):
        for j in range(2):
            layers.append(Block(cin, width, 2 if i > 0 and j == 0 else 1))
            cin = width
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, CLASSES)]
    return nn.Sequential(*layers)


def child(framework, steps, warmup, profile):
    run = hookgrad_steps if framework == 'hookgrad' else torch_steps
    times, info, report = run(steps, warmup, profile)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({'median_s': statistics.median(times), 'min_s': min(times),
                      'peak_mib': peak_mib, 'info': info, 'profile': report}))


def spawn(python, framework, args, env_extra=None):
    env = dict(os.environ, OMP_NUM_THREADS='2', OPENBLAS_NUM_THREADS='2', MKL_NUM_THREADS='2')
    env.update(env_extra or {})
    cmd = [python, os.path.abspath(__file__), '--child', framework, '--steps', str(args.steps),
           '--warmup', str(args.warmup)] + (['--profile'] if args.profile else [])
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        print(f"{framework} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def _median_run(rs):
    """The run with the median step time of a configuration's rounds (None if none ran)."""
    if not rs:
        return None
    return sorted(rs, key=lambda r: r['median_s'])[(len(rs) - 1) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=6)
    parser.add_argument('--warmup', type=int, default=2)
    parser.add_argument('--rounds', type=int, default=1)
    parser.add_argument('--load', action='store_true', help='keep one core busy meanwhile')
    parser.add_argument('--profile', action='store_true', help="print hookgrad's top functions")
    parser.add_argument('--torch-python', default=sys.executable)
    parser.add_argument('--child', choices=('hookgrad', 'torch'))
    args = parser.parse_args()
    if args.child:
        child(args.child, args.steps, args.warmup, args.profile)
        return
    path = checkout_env()
    hooks = {'BENCH_HOOKS': '1'}
    configs = [('hookgrad', sys.executable, 'hookgrad', path),
               ('hookgrad, hooks on every cell', sys.executable, 'hookgrad',
                dict(path, **hooks)),
               ('hookgrad, 1 BLAS thread', sys.executable, 'hookgrad',
                dict(path, HOOKGRAD_BLAS_THREADS='1')),
               ('hookgrad, OpenBLAS own choice', sys.executable, 'hookgrad',
                dict(path, HOOKGRAD_BLAS_CORETYPE='off')),
               ('hookgrad, threads fixed', sys.executable, 'hookgrad',
                dict(path, HOOKGRAD_BLAS_THREADS='fixed')),
               ('hookgrad, NumPy transforms', sys.executable, 'hookgrad',
                dict(path, HOOKGRAD_FUSED='0')),
               ('pytorch', args.torch_python, 'torch', path),
               ('pytorch, hooks on every module', args.torch_python, 'torch',
                dict(path, **hooks))]
    runs = {name: [] for name, *_ in configs}
    with neighbour_load(args.load):
        for _ in range(args.rounds):
            for name, python, framework, env in configs:
                r = spawn(python, framework, args, env)
                if r is not None:
                    runs[name].append(r)
    rows = dict((name, _median_run(rs)) for name, rs in runs.items())
    torch = rows['pytorch']
    print(f"ResNet-18 CIFAR, batch {BATCH}, fwd + cross-entropy + bwd + Momentum; "
          f"{args.steps} steps after {args.warmup} warm-up; median of {args.rounds} round(s); "
          f"{'one core kept busy by another process' if args.load else 'no added load'}")
    print(f"{'':<32}{'median step':>12}{'peak memory':>14}{'time ratio':>12}{'mem ratio':>11}")
    for name, r in rows.items():
        if r is None:
            continue
        ratio = f"{r['median_s'] / torch['median_s']:12.2f}" if torch else f"{'-':>12}"
        mem = f"{r['peak_mib'] / torch['peak_mib']:11.2f}" if torch else f"{'-':>11}"
        print(f"{name:<32}{r['median_s']:10.3f} s{r['peak_mib']:10.0f} MiB{ratio}{mem}")
    _report_rates(rows)
    for name, r in rows.items():
        if r is not None and 'blas' in r['info']:
            print(f"{name}: {r['info']['blas']}")
    if torch:
        print(f"pytorch {torch['info']['torch']}; ratios are hookgrad / PyTorch, lower is better")
    if args.profile and rows['hookgrad']:
        print("\nwhere hookgrad's step goes (cProfile, one step):\n" + rows['hookgrad']['profile'])


def _report_rates(rows):
    """The hooked/plain and 2/1-thread ratios, and the step's GFLOP/s against the best sgemm
    rate measured by any of the processes."""
    plain = rows['hookgrad']
    if plain is None:
        return
    for name, base in (('hookgrad, hooks on every cell', 'hookgrad'),
                       ('pytorch, hooks on every module', 'pytorch'),
                       ('hookgrad', 'hookgrad, 1 BLAS thread'),
                       ('hookgrad', 'hookgrad, NumPy transforms')):
        if rows[name] and rows[base]:
            print(f"{name} / {base}: {rows[name]['median_s'] / rows[base]['median_s']:.3f}")
    peak = max(r['info']['sgemm_gflops'] for r in rows.values() if r is not None)
    flop = plain['info']['step_gflop']
    for name in ('hookgrad', 'pytorch'):
        if rows[name]:
            rate = flop / rows[name]['median_s']
            print(f"{name}: {flop:.1f} GFLOP per step, {rate:.0f} GFLOP/s = "
                  f"{100 * rate / peak:.0f}% of the best sgemm rate measured, {peak:.0f} GFLOP/s")


if __name__ == '__main__':
    main()
