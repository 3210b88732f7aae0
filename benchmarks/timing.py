"""The one timer every benchmark uses: per-call wall times after a warm-up."""
import time


def samples(fn, repeats, warmup=3):
    """Seconds taken by each of ``repeats`` calls of ``fn``, after ``warmup`` untimed calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times
