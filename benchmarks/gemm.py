"""GFLOP/s of each installed matrix-product library (NumPy's OpenBLAS, MKL, BLIS) on 2 threads:
a float32 2048^3 product and the products convolutions make, in interleaved rounds, medians;
then which library hookgrad's calibration chooses here.

    python benchmarks/gemm.py [--rounds 7] [--dtype float32]
"""
import two_threads  # noqa: F401,I001  (first: hookgrad from this checkout, two BLAS threads)

import argparse
import statistics
import time

import numpy as np

import hookgrad as ms
from hookgrad.kernels import gemm
from hookgrad.kernels import threads

SHAPES = [(2048, 2048, 2048)] + list(gemm.CALIBRATION)       # (M, K, N)


def _libraries():
    libs = [gemm.NumPy()]
    for name, where in gemm._installed().items():
        lib, problem = gemm._load(name, where)
        if lib is None:
            print(problem)
        else:
            libs.append(lib)
    return libs


def measure(libs, m, k, n, rounds, dtype):
    """Median GFLOP/s of each library on one (m x k) @ (k x n) product, rounds interleaved."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    out = np.empty((m, n), dtype)
    reps = max(1, int(3e8 // (2 * m * k * n)))
    times = {lib.name: [] for lib in libs}
    for r in range(rounds + 1):
        for lib in libs:
            t0 = time.perf_counter()
            for _ in range(reps):
                gemm._run(lib, a, b, out)
            if r:                                   # round 0 warms up
                times[lib.name].append((time.perf_counter() - t0) / reps)
    return {name: 2 * m * k * n / statistics.median(v) / 1e9 for name, v in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=7)
    parser.add_argument('--dtype', default='float32', choices=['float32', 'float64'])
    args = parser.parse_args()
    libs = _libraries()
    before = threads.set_threads(2)
    print(f"threads {threads.current() or 'library default'}, {args.dtype}, median of "
          f"{args.rounds} interleaved rounds, GFLOP/s")
    print(f"{'M x K x N':>20} " + ' '.join(f"{lib.name:>8}" for lib in libs))
    try:
        for m, k, n in SHAPES:
            g = measure(libs, m, k, n, args.rounds, np.dtype(args.dtype))
            print(f"{f'{m}x{k}x{n}':>20} " + ' '.join(f"{g[lib.name]:8.1f}" for lib in libs))
    finally:
        threads.set_threads(before)
    t0 = time.perf_counter()
    name = gemm.chosen()
    info = ms.blas_info()
    print(f"chosen: {name} ({time.perf_counter() - t0:.2f} s); {info['gemm_reason']}")
    print(f"plan cache: {info['gemm_cache']}")


if __name__ == '__main__':
    main()
