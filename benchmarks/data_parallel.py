"""Data-parallel training step on 2 processes: how much of the gradient allreduce backward hides.

Run: ``mpiexec -n 2 python benchmarks/data_parallel.py`` (or ``hookgrad run -n 2 ...``).

An MLP whose gradients are ``--width``-squared floats per layer (16 MB at the defaults) trains
with ``nn.DistributedGradReducer`` two ways, in interleaved rounds: ``buckets`` (buckets of
``--bucket-mb`` started from gradient hooks during backward) and ``after`` (one allreduce of
every gradient after backward). Per step, medians over the rounds: forward+backward time, the
allreduce time (the ``after`` mode's wait: a blocking allreduce of every gradient), the time
the optimizer waited after backward, and the hidden share ``1 - waited / allreduce time``.
Then blocking allreduce time against message size, with the fit ``t = latency + bytes / bw``
that the cost model uses. Rank 0 prints.
"""
import argparse
import statistics
import time

import checkout  # noqa: F401,I001  (first: hookgrad from this checkout)
import numpy as np

import hookgrad as ms
from hookgrad import nn
from hookgrad.communication import init, get_rank, get_group_size, _world


def build(width, layers, batch, bucket_bytes, overlap):
    ms.set_seed(0)
    cells = []
    for _ in range(layers):
        cells += [nn.Dense(width, width), nn.ReLU()]
    net = nn.SequentialCell(cells[:-1])
    params = net.trainable_params()
    reducer = nn.DistributedGradReducer(params, mean=True, bucket_bytes=bucket_bytes,
                                        overlap=overlap)
    optimizer = nn.SGD(params, 1e-4)
    grad_fn = ms.value_and_grad(lambda x, y: ((net(x) - y) ** 2).mean(), None, params)
    rng = np.random.default_rng(get_rank())
    x = ms.Tensor(rng.standard_normal((batch, width)).astype(np.float32))
    y = ms.Tensor(rng.standard_normal((batch, width)).astype(np.float32))

    def step():
        t0 = time.perf_counter()
        _, grads = grad_fn(x, y)
        t1 = time.perf_counter()
        grads = reducer(grads)
        t2 = time.perf_counter()
        optimizer(grads)
        return t1 - t0, t2 - t1, reducer.last_step
    return step


def allreduce_sizes(world, repeats):
    rows = []
    for n_bytes in [2 ** k for k in range(12, 26)]:
        a = np.ones(n_bytes // 4, np.float32)
        for _ in range(3):
            world.allreduce(a)
        times = []
        for _ in range(repeats):
            world.barrier()
            t0 = time.perf_counter()
            world.allreduce(a)
            times.append(time.perf_counter() - t0)
        rows.append((n_bytes, statistics.median(times)))
    x = np.array([r[0] for r in rows], float)
    t = np.array([r[1] for r in rows])
    slope, latency = np.polyfit(x, t, 1, w=1 / t)      # relative errors: every size counts
    return rows, latency, 1 / slope


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--width', type=int, default=1024)
    parser.add_argument('--layers', type=int, default=4)
    parser.add_argument('--batch', type=int, default=64, help='per process')
    parser.add_argument('--bucket-mb', type=float, default=4.0)
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--steps', type=int, default=4, help='per mode and round')
    args = parser.parse_args()
    init()
    rank, size = get_rank(), get_group_size()
    world = _world.world()
    modes = {'buckets': build(args.width, args.layers, args.batch,
                              int(args.bucket_mb * 2 ** 20), True),
             'after': build(args.width, args.layers, args.batch, 2 ** 40, False)}
    for step in modes.values():         # warm-up (the first step also fixes the bucket order)
        step(), step()
    times = {m: {'backward': [], 'waited': [], 'allreduce': [], 'in_backward': []}
             for m in modes}
    for _ in range(args.rounds):
        for mode, step in modes.items():
            for _ in range(args.steps):
                world.barrier()
                backward, waited, last = step()
                rec = times[mode]
                rec['backward'].append(backward)
                rec['waited'].append(waited)
                rec['allreduce'].append(last['allreduce_s'])
                rec['in_backward'].append(last['buckets_in_backward'] / last['buckets'])
    med = {m: {k: statistics.median(v) for k, v in rec.items()} for m, rec in times.items()}
    rows, latency, bandwidth = allreduce_sizes(world, 20)
    if rank:
        return
    grad_mb = sum(4 * (args.width * args.width + args.width) for _ in range(args.layers)) / 2**20
    print(f"{size} processes, {world.backend}; MLP {args.layers} x Dense({args.width}, "
          f"{args.width}), batch {args.batch} per process, gradients {grad_mb:.1f} MB; "
          f"medians of {args.rounds} interleaved rounds x {args.steps} steps")
    after = med['after']['waited']
    print(f"{'mode':10s} {'fwd+bwd ms':>11s} {'allreduce ms':>13s} {'waited ms':>10s} "
          f"{'hidden':>7s} {'step ms':>8s} {'buckets started in backward':>28s}")
    for mode, m in med.items():
        hidden = max(0.0, 1 - m['waited'] / after)
        print(f"{mode:10s} {1e3 * m['backward']:11.2f} {1e3 * after:13.2f} "
              f"{1e3 * m['waited']:10.2f} {hidden:7.0%} "
              f"{1e3 * (m['backward'] + m['waited']):8.2f} {m['in_backward']:28.0%}")
    print(f"bucket size {args.bucket_mb} MB; allreduce ms = the blocking allreduce of every "
          f"gradient after backward ('after' mode's wait)")
    print("allreduce (blocking, float32) against message size:")
    for n_bytes, t in rows:
        print(f"  {n_bytes / 2**20:9.3f} MB  {1e6 * t:10.1f} us  {n_bytes / t / 1e9:6.2f} GB/s")
    print(f"fit t = latency + bytes / bandwidth: latency {1e6 * latency:.1f} us, bandwidth "
          f"{bandwidth / 1e9:.2f} GB/s")


if __name__ == '__main__':
    main()
