"""Worker pools of ``Dataset.map`` and ``Dataset.batch``: a function applied to a stream of
items on several threads (or forked processes), results yielded in input order.

Items are taken from the input in the calling thread, so sources are read in one place; at most
``workers * config.get_prefetch_size()`` items are in flight. Pillow and NumPy release the GIL
in their heavy loops, so threads give real parallelism for image decoding and array math.
"""
import collections
import concurrent.futures
import multiprocessing

from . import config
from .row_state import set_row_seed

_process_ops = None      # the operations of a forked map worker, set by its initializer


def resolve_workers(value):
    """``num_parallel_workers`` with None replaced by the ``config`` default."""
    return config.get_num_parallel_workers() if value is None else value


def run_ops(ops, args, seed):
    """Apply ``ops`` in turn to ``args`` with ``row_generator()`` seeded by ``seed``."""
    set_row_seed(seed)
    try:
        for op in ops:
            out = op(*args)
            args = out if isinstance(out, tuple) else (out,)
    finally:
        set_row_seed(None)
    return args


def _init_process(ops):
    global _process_ops
    _process_ops = ops


def _run_in_process(args, seed):
    return run_ops(_process_ops, args, seed)


def ordered_map(func, items, workers, ops=None):
    """Yield ``(item[0], func(*item[1:]))`` for each item of ``items``, in order.

    Args:
        func: applied to each item's arguments (``item[1:]``); ``item[0]`` rides along.
        items: an iterator of tuples.
        workers: 1 runs in this thread; more use a thread pool, or with ``ops`` given, a pool
            of forked processes running ``run_ops(ops, ...)`` (``func`` is then ignored).
    """
    if workers == 1:
        for item in items:
            yield item[0], func(*item[1:])
        return
    if ops is not None:
        method = config.get_multiprocessing_start_method()
        pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context(method),
            initializer=_init_process, initargs=(ops,))
        func = _run_in_process
    else:
        pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix='dataset')
    window = workers * config.get_prefetch_size()
    pending = collections.deque()
    try:
        for item in items:
            pending.append((item, pool.submit(func, *item[1:])))
            if len(pending) >= window:
                first, future = pending.popleft()
                yield first[0], future.result()
        while pending:
            first, future = pending.popleft()
            yield first[0], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
