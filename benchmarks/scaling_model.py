"""Predicted data-parallel step time on p nodes from a cost model of bucketed ring allreduce.

Model (docs/distributed.md). A ring allreduce of n bytes over p nodes sends 2(p-1)/p * n bytes
through each node's link in 2(p-1) latency-bound rounds:

    T_allreduce(n, p) = 2 (p - 1) * alpha + 2 (p - 1) / p * n / beta

with alpha the per-message latency and beta the link bandwidth (bytes/s). Backward produces the
gradients bucket by bucket: bucket k (n_k bytes) is ready at time r_k after backward starts.
Its allreduce starts when it is ready and the link is free; the step ends when backward has
ended and the last allreduce has finished:

    s_k = max(r_k, e_{k-1}),  e_k = s_k + T_allreduce(n_k, p),
    step(p) = forward + max(backward, e_last) + update,

so the exposed communication is max(0, e_last - backward). Per-node work stays fixed (each node
keeps its batch): weak scaling, efficiency = step(1) / step(p).

The layers come from hookgrad's ResNet-18 (CIFAR, 11.2 M float32 parameters, batch 32 per
node) through ``hookgrad.debug.summary``: backward visits them in reverse, spending time in
proportion to each layer's multiply-adds, and a layer's gradients are ready when backward has
passed it. Gradients fill buckets of ``--bucket-mb`` in that order (reverse order of use); a
bucket is ready with its last gradient. Forward, backward and update times default to the ones
measured on the 2-core machine. Every figure can be given on the command line.

Run: python benchmarks/scaling_model.py [--alpha 20e-6] [--forward 0.15] [--backward 0.29]
     [--update 0.01] [--bucket-mb 25] [--nodes 2 8 64] [--local-alpha A --local-beta B]
"""
import argparse


def allreduce_time(nbytes, p, alpha, beta):
    """Seconds for a ring allreduce of ``nbytes`` over ``p`` nodes."""
    if p == 1:
        return 0.0
    return 2 * (p - 1) * alpha + 2 * (p - 1) / p * nbytes / beta


def layers_of_resnet18():
    """(gradient bytes, multiply-adds) of each ResNet-18 CIFAR layer with parameters, in
    forward order (hookgrad.debug.summary at batch 32)."""
    import numpy as np

    import hookgrad as ms
    net = ms.vision.resnet18(num_classes=10, cifar=True)
    rows = ms.debug.summary(net, ms.Tensor(np.zeros((32, 3, 32, 32), np.float32)),
                            verbose=False).rows
    return [(4 * r.params, r.macs or 0) for r in rows if r.params]


def buckets(layers, bucket_bytes, backward):
    """(bytes, ready time) of each bucket: the layers' gradients in reverse order of use,
    filling buckets of ``bucket_bytes``; backward spends time on each layer in proportion to
    its multiply-adds, and a bucket is ready when its last layer's gradients are."""
    total = sum(m for _, m in layers) or 1
    out, size, passed = [], 0, 0
    for nbytes, macs in reversed(layers):
        passed += macs
        size += nbytes
        if size >= bucket_bytes:
            out.append((size, backward * passed / total))
            size = 0
    if size:
        out.append((size, backward))
    return out


def step_time(p, alpha, beta, forward, backward, update, bucket_list):
    """(step seconds, exposed communication seconds) on ``p`` nodes."""
    free = 0.0
    for n, ready in bucket_list:
        free = max(ready, free) + allreduce_time(n, p, alpha, beta)
    exposed = max(0.0, free - backward)
    return forward + backward + exposed + update, exposed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--alpha', type=float, default=20e-6, help='network latency, s')
    parser.add_argument('--forward', type=float, default=0.15)
    parser.add_argument('--backward', type=float, default=0.29)
    parser.add_argument('--update', type=float, default=0.01)
    parser.add_argument('--bucket-mb', type=float, default=25.0)
    parser.add_argument('--nodes', type=int, nargs='+', default=[2, 8, 64])
    parser.add_argument('--local-alpha', type=float, help='measured 2-process latency, s')
    parser.add_argument('--local-beta', type=float, help='measured 2-process bandwidth, B/s')
    args = parser.parse_args()
    layers = layers_of_resnet18()
    total = sum(n for n, _ in layers)
    bl = buckets(layers, args.bucket_mb * 1e6, args.backward)
    one, _ = step_time(1, 0, 1, args.forward, args.backward, args.update, bl)
    print(f"{total / 1e6:.1f} MB of gradients in {len(bl)} bucket(s) of at most "
          f"{args.bucket_mb:g} MB; one node: {one * 1e3:.0f} ms per step")
    networks = [('25 Gb/s', args.alpha, 25e9 / 8), ('100 Gb/s', args.alpha, 100e9 / 8)]
    if args.local_alpha and args.local_beta:
        networks.insert(0, ('measured, 2 processes', args.local_alpha, args.local_beta))
    print(f"{'network':<24}{'nodes':>6}{'allreduce':>12}{'exposed':>10}{'step':>10}"
          f"{'efficiency':>12}{'no overlap':>12}")
    for name, alpha, beta in networks:
        for p in args.nodes:
            step, exposed = step_time(p, alpha, beta, args.forward, args.backward, args.update,
                                      bl)
            comm = sum(allreduce_time(n, p, alpha, beta) for n, _ in bl)
            serial = one + comm
            print(f"{name:<24}{p:>6}{comm * 1e3:>10.1f}ms{exposed * 1e3:>8.1f}ms"
                  f"{step * 1e3:>8.0f}ms{one / step:>12.1%}{one / serial:>12.1%}")


if __name__ == '__main__':
    main()
