"""LeNet-5 training step: hookgrad against PyTorch CPU, quiet or beside a busy neighbour.

MindSpore's LeNet-5: conv 1->6 5x5 valid, ReLU, max-pool 2, conv 6->16 5x5 valid, ReLU,
max-pool 2, flatten, dense 400->120->84->10 (ReLU between); a batch of 64 1x32x32 images,
softmax cross-entropy, backward and Momentum (lr 0.01, momentum 0.9). Each framework runs in its
own process with ``--threads`` BLAS threads; rounds alternate hookgrad with the BLAS thread
choice (docs/performance.md, "Threads"), hookgrad with one BLAS thread, hookgrad with the choice
off (HOOKGRAD_BLAS_THREADS=fixed) and PyTorch, and the median over rounds of each round's median step is reported. ``--load`` runs a
busy loop on one core in another process for the whole measurement.

Run: python benchmarks/lenet.py [--rounds 5] [--steps 40] [--threads 2] [--load]
PyTorch is optional; give another interpreter with --torch-python (one that has torch).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

from timing import checkout_env, neighbour_load, samples

BATCH, CLASSES = 64, 10


def hookgrad_step(seed=0):
    """A closure running one LeNet-5 training step on a fixed batch, returning the loss."""
    import hookgrad as ms               # first: it chooses OpenBLAS's kernels before NumPy loads
    import numpy as np
    from hookgrad import nn

    ms.set_seed(seed)
    net = ms.vision.LeNet5(CLASSES)
    net.set_train()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((BATCH, 1, 32, 32), dtype=np.float32))
    y = ms.Tensor(rng.integers(0, CLASSES, BATCH).astype(np.int32))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def step():
        loss, grads = grad_fn(x, y)
        opt(grads)
        return float(loss.asnumpy())
    return step


def torch_step(threads):
    import numpy as np
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    nn = torch.nn
    net = nn.Sequential(nn.Conv2d(1, 6, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(6, 16, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                        nn.ReLU(), nn.Linear(84, CLASSES))
    net.train()
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((BATCH, 1, 32, 32), dtype=np.float32))
    y = torch.tensor(rng.integers(0, CLASSES, BATCH))
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def child(framework, steps, warmup, threads):
    step = hookgrad_step() if framework == 'hookgrad' else torch_step(threads)
    times = samples(step, steps, warmup)
    info = {}
    if framework == 'hookgrad':
        import hookgrad as ms
        info = ms.blas_info()
    print(json.dumps({'median_s': statistics.median(times), 'info': info}))


def spawn(python, framework, args, env_extra):
    n = str(args.threads)
    env = dict(os.environ, OMP_NUM_THREADS=n, OPENBLAS_NUM_THREADS=n, MKL_NUM_THREADS=n)
    env.update(env_extra)
    cmd = [python, os.path.abspath(__file__), '--child', framework, '--steps', str(args.steps),
           '--warmup', str(args.warmup), '--threads', n]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        print(f"{framework} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--steps', type=int, default=40)
    parser.add_argument('--warmup', type=int, default=5)
    parser.add_argument('--threads', type=int, default=2, help='BLAS / PyTorch threads')
    parser.add_argument('--load', action='store_true', help='keep one core busy meanwhile')
    parser.add_argument('--torch-python', default=sys.executable)
    parser.add_argument('--child', choices=('hookgrad', 'torch'))
    args = parser.parse_args()
    if args.child:
        child(args.child, args.steps, args.warmup, args.threads)
        return
    path = checkout_env()
    configs = [('hookgrad', sys.executable, 'hookgrad', path),
               ('hookgrad, 1 BLAS thread', sys.executable, 'hookgrad',
                dict(path, HOOKGRAD_BLAS_THREADS='1')),
               ('hookgrad, threads fixed', sys.executable, 'hookgrad',
                dict(path, HOOKGRAD_BLAS_THREADS='fixed')),
               ('pytorch', args.torch_python, 'torch', path)]
    runs = {name: [] for name, *_ in configs}
    info = None
    with neighbour_load(args.load):
        for _ in range(args.rounds):
            for name, python, framework, env in configs:
                r = spawn(python, framework, args, env)
                if r is not None:
                    runs[name].append(r['median_s'])
                    info = r['info'] if name == 'hookgrad' else info
    medians = {name: statistics.median(t) for name, t in runs.items() if t}
    torch = medians.get('pytorch')
    print(f"LeNet-5, batch {BATCH}, fwd + cross-entropy + bwd + Momentum; {args.threads} threads; "
          f"{'one core kept busy by another process' if args.load else 'no added load'}; "
          f"median of {args.rounds} rounds of {args.steps} steps")
    print(f"{'':<28}{'median step':>12}{'range':>20}{'ratio':>8}")
    for name, t in runs.items():
        if not t:
            continue
        ratio = f"{medians[name] / torch:8.2f}" if torch else f"{'-':>8}"
        span = f"{min(t) * 1e3:.2f}-{max(t) * 1e3:.2f} ms"
        print(f"{name:<28}{medians[name] * 1e3:9.2f} ms{span:>20}{ratio}")
    if info:
        print(f"hookgrad: {info}")
    print("ratios are hookgrad / PyTorch, lower is better")


if __name__ == '__main__':
    main()
