"""GPU training steps: hookgrad (CuPy) against PyTorch CUDA, measured in the same run.

Workloads, each a full training step (forward, loss, backward, Momentum lr 0.01 / 0.9):
- ``mlp``: 4 x Dense 32->32 with ReLU between, MSE, batch 16, eager;
- ``mlp-jit``: the same step under ``ms.jit`` (PyTorch runs it eagerly: its usual mode);
- ``lenet``: LeNet-5, 1x32x32, sparse softmax cross-entropy, batch 64;
- ``resnet32`` / ``resnet256``: ResNet-18 CIFAR (3x3 stem, no max-pool), batch 32 / 256;
- ``resnet256-amp``: batch 256 in float16 (hookgrad ``auto_mixed_precision(net, 'O2')``;
  PyTorch ``autocast(float16)``).

TF32 is set alike on both sides: on for convolutions, off for matrix products (both
frameworks' defaults). Every timed step ends with a device synchronisation, so a step's time
includes all its kernels. Each framework and workload runs in its own process (``--child``), so
the peak device memory (``runtime.max_memory_allocated`` / ``torch.cuda.max_memory_allocated``)
is the step's own. Rounds alternate the two frameworks; the median over rounds of each round's
median step is reported.

Run on a machine with a GPU (``pip install -e '.[gpu]'``, PyTorch with CUDA in ``--torch-python``):
    python benchmarks/gpu.py [--rounds 3] [--steps 20] [--only mlp,lenet]
``--smoke`` runs each workload a step or two at tiny sizes, hookgrad only: the test suite runs
it on the CUDA stand-in (``HOOKGRAD_FAKE_GPU=1``) to keep this script working.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

from timing import checkout_env, samples

CLASSES = 10
WORKLOADS = ('mlp', 'mlp-jit', 'lenet', 'resnet32', 'resnet256', 'resnet256-amp')


def _batch(name, smoke):
    if name.startswith('mlp'):
        return 16
    if name == 'lenet':
        return 4 if smoke else 64
    return 2 if smoke else (32 if name == 'resnet32' else 256)


def _data(name, batch, smoke):
    import numpy as np
    rng = np.random.default_rng(0)
    if name.startswith('mlp'):
        return (rng.standard_normal((batch, 32)).astype(np.float32),
                rng.standard_normal((batch, 32)).astype(np.float32))
    side = 32 if not smoke or name == 'lenet' else 8
    channels = 1 if name == 'lenet' else 3
    return (rng.standard_normal((batch, channels, side, side)).astype(np.float32),
            rng.integers(0, CLASSES, batch).astype(np.int32))


# ----------------------------------------------------------------- hookgrad
def hookgrad_step(name, smoke):
    """A closure running one training step of workload ``name`` on the GPU."""
    import hookgrad as ms
    from hookgrad import nn
    ms.set_device('GPU')
    ms.device_context.gpu.op_precision.conv_allow_tf32(True)
    ms.device_context.gpu.op_precision.matmul_allow_tf32(False)
    ms.set_seed(0)
    x, y = (ms.Tensor(a) for a in _data(name, _batch(name, smoke), smoke))
    if name.startswith('mlp'):
        net = nn.SequentialCell([nn.Dense(32, 32) if i % 2 == 0 else nn.ReLU()
                                 for i in range(7)])
        loss_fn = nn.MSELoss()
    else:
        net = ms.vision.LeNet5(CLASSES) if name == 'lenet' else \
            ms.vision.resnet18(num_classes=CLASSES, cifar=True)
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    if name.endswith('-amp'):
        net = ms.amp.auto_mixed_precision(net, 'O2')
    net.set_train()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, opt.parameters)

    def train(a, b):
        loss, grads = grad_fn(a, b)
        opt(grads)
        return loss

    if name.endswith('-jit'):
        train = ms.jit(train)

    def step():
        loss = train(x, y)
        ms.runtime.synchronize()
        return loss
    return step, ms.runtime.reset_peak_memory_stats, ms.runtime.max_memory_allocated


# ----------------------------------------------------------------- PyTorch
def torch_step(name, smoke):
    import torch
    from resnet18_cifar import _torch_resnet18
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    nn = torch.nn
    dev = torch.device('cuda')
    a, b = _data(name, _batch(name, smoke), smoke)
    x, y = torch.tensor(a, device=dev), torch.tensor(b, device=dev).long()
    if name.startswith('mlp'):
        net = nn.Sequential(*[nn.Linear(32, 32) if i % 2 == 0 else nn.ReLU() for i in range(7)])
        loss_fn, y = nn.MSELoss(), torch.tensor(b, device=dev)
    elif name == 'lenet':
        net = nn.Sequential(nn.Conv2d(1, 6, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2),
                            nn.Conv2d(6, 16, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2),
                            nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                            nn.ReLU(), nn.Linear(84, CLASSES))
        loss_fn = nn.CrossEntropyLoss()
    else:
        net, loss_fn = _torch_resnet18(torch), nn.CrossEntropyLoss()
    net = net.to(dev).train()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    amp = name.endswith('-amp')

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast('cuda', dtype=torch.float16, enabled=amp):
            loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        return loss
    return step, torch.cuda.reset_peak_memory_stats, torch.cuda.max_memory_allocated


# ----------------------------------------------------------------- runs
def child(framework, name, steps, warmup, smoke):
    make = hookgrad_step if framework == 'hookgrad' else torch_step
    step, reset_peak, peak = make(name, smoke)
    for _ in range(warmup):
        step()
    reset_peak()                    # the peak of the timed steps alone
    times = samples(step, steps, warmup=0)
    print(json.dumps({'median_ms': statistics.median(times) * 1e3, 'peak_mib': peak() / 2**20}))


def spawn(python, framework, name, args):
    cmd = [python, os.path.abspath(__file__), '--child', framework, '--workload', name,
           '--steps', str(args.steps), '--warmup', str(args.warmup)] + \
        (['--smoke'] if args.smoke else [])
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ,
                                                                       **checkout_env()))
    if out.returncode != 0:
        print(f"{framework} {name} failed:\n{out.stderr[-3000:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--steps', type=int, default=20)
    parser.add_argument('--warmup', type=int, default=5)
    parser.add_argument('--only', default=','.join(WORKLOADS))
    parser.add_argument('--torch-python', default=sys.executable)
    parser.add_argument('--smoke', action='store_true', help="tiny sizes, hookgrad only")
    parser.add_argument('--child', choices=('hookgrad', 'torch'))
    parser.add_argument('--workload', choices=WORKLOADS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.workload, args.steps, args.warmup, args.smoke)
        return
    names = [n for n in args.only.split(',') if n]
    unknown = sorted(set(names) - set(WORKLOADS))
    if unknown:
        parser.error(f"unknown workloads {unknown}; choose from {', '.join(WORKLOADS)}")
    frameworks = ('hookgrad',) if args.smoke else ('hookgrad', 'torch')
    runs = {(f, n): [] for f in frameworks for n in names}
    for _ in range(args.rounds):
        for name in names:
            for framework in frameworks:
                python = sys.executable if framework == 'hookgrad' else args.torch_python
                r = spawn(python, framework, name, args)
                if r is not None:
                    runs[framework, name].append(r)
    print(f"GPU training steps: median ms per step over {args.rounds} round(s) of "
          f"{args.steps} steps; peak device memory in MiB; ratio = hookgrad / PyTorch")
    print(f"{'workload':<16}{'hookgrad ms':>12}{'torch ms':>10}{'ratio':>7}"
          f"{'hookgrad MiB':>14}{'torch MiB':>11}{'ratio':>7}")
    for name in names:
        row = {}
        for framework in frameworks:
            rs = runs[framework, name]
            if rs:
                row[framework] = (statistics.median(r['median_ms'] for r in rs),
                                  max(r['peak_mib'] for r in rs))
        hg, th = row.get('hookgrad'), row.get('torch')

        def cell(v, width, fmt):
            return f"{format(v, fmt):>{width}}" if v is not None else f"{'-':>{width}}"
        print(f"{name:<16}{cell(hg and hg[0], 12, '.2f')}{cell(th and th[0], 10, '.2f')}"
              f"{cell(hg and th and hg[0] / th[0], 7, '.2f')}{cell(hg and hg[1], 14, '.0f')}"
              f"{cell(th and th[1], 11, '.0f')}{cell(hg and th and hg[1] / th[1], 7, '.2f')}")
    if not all(runs.values()):
        sys.exit(1)


if __name__ == '__main__':
    main()
