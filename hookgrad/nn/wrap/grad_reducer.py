"""``nn.DistributedGradReducer``: gradients all-reduced over the processes of a data-parallel job.

The reduction overlaps backward. The parameters' gradients are grouped into buckets of about
``bucket_bytes`` (25 MB by default; the ``HOOKGRAD_BUCKET_MB`` environment variable or the
``bucket_bytes`` argument change it), in the order the gradients become ready: reverse
parameter order in the first step, then the order the first step observed (rank 0's, so every
rank buckets alike). A tensor hook on each parameter copies its final gradient into its bucket's
flat buffer; the hook that completes a bucket starts that bucket's nonblocking allreduce at
once, and every hook call lets the requests in flight progress. ``construct(grads)`` then waits
only for what is still in flight. Gradients that changed after their hook ran (a later hook
replaced one, or the caller scaled them) are reduced again from what ``construct`` is given, so
the result is always the reduction of those gradients.

Every rank must run the same backward (the same parameters reached in the same order): the
collectives are matched by the order in which they start, as in any MPI program.
"""
import numbers
import os
import time
import weakref

import numpy as np

from ..._tensor import Tensor
from ...kernels.backend import array_module, device_of
from ...communication import _world
from ...communication.management import GlobalComm, world_group
from ..cell import Cell
from ..parameter import Parameter

__all__ = ['DistributedGradReducer']

BUCKET_ENV = 'HOOKGRAD_BUCKET_MB'
DEFAULT_BUCKET_BYTES = 25 * 2 ** 20
_DATA_PARALLEL_MODES = ('data_parallel', 'hybrid_parallel')


def data_parallel_world():
    """The world when the auto-parallel context is in data-parallel mode (or hybrid, which
    MindSpore treats alike for gradients) and more than one process runs; else None."""
    from ...context import get_auto_parallel_context
    if get_auto_parallel_context('parallel_mode') not in _DATA_PARALLEL_MODES:
        return None
    world = _world.world()
    return world if world is not None and world.size > 1 else None


def data_parallel_reducer(parameters):
    """A ``DistributedGradReducer`` for ``parameters`` in data-parallel mode, as MindSpore's
    training wrappers build one (mean from ``gradients_mean``, degree the group size), or None
    when no reduction is needed."""
    world = data_parallel_world()
    if world is None:
        return None
    from ...context import get_auto_parallel_context
    return DistributedGradReducer(parameters, bool(get_auto_parallel_context('gradients_mean')),
                                  world.size)


def _bucket_bytes(value):
    if value is None:
        env = os.environ.get(BUCKET_ENV)
        if env is None:
            return DEFAULT_BUCKET_BYTES
        try:
            value = float(env) * 2 ** 20
        except ValueError:
            raise ValueError(f"{BUCKET_ENV} must be a number of megabytes, got {env!r}") from None
    elif isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"For 'DistributedGradReducer', bucket_bytes must be a number, got "
                        f"{type(value).__name__}")
    if not value > 0:
        raise ValueError(f"For 'DistributedGradReducer', bucket_bytes must be positive, got "
                         f"{value}")
    return int(value)


def _wire_dtype(dtype):
    """The dtype a gradient travels in: float32 for narrower floats (MindSpore casts gradients
    to float32 for the allreduce), else its own."""
    return np.dtype(np.float32) if dtype.kind in 'fV' and dtype.itemsize < 4 else dtype


class _Bucket:
    """Gradients reduced together: slots (parameter positions) and their offsets in one flat
    buffer, the request in flight and when it started and was seen finished."""

    __slots__ = ('index', 'slots', 'offsets', 'dtype', 'size', 'missing', 'buffer', 'request',
                 'started', 'finished', 'in_backward')

    def __init__(self, index, slots, shapes, dtype):
        self.index, self.slots, self.dtype = index, slots, dtype
        self.offsets, n = {}, 0
        for s in slots:
            size = int(np.prod(shapes[s], dtype=np.int64))
            self.offsets[s] = (n, n + size)
            n += size
        self.size = n
        self.reset()

    def reset(self):
        self.missing = len(self.slots)
        self.buffer = self.request = self.started = self.finished = None
        self.in_backward = False

    def view(self, slot, shape):
        a, b = self.offsets[slot]
        return self.buffer[a:b].reshape(shape)


def _make_buckets(order, shapes, dtypes, limit):
    """Buckets of ``order`` (parameter positions), each of one wire dtype, closed once it
    holds ``limit`` bytes or more."""
    open_, closed = {}, []
    for slot in order:
        dtype = _wire_dtype(dtypes[slot])
        slots = open_.setdefault(dtype, [])
        slots.append(slot)
        if sum(int(np.prod(shapes[s])) for s in slots) * dtype.itemsize >= limit:
            closed.append((slots, dtype))
            del open_[dtype]
    closed.extend((slots, dtype) for dtype, slots in open_.items())
    return [_Bucket(i, slots, shapes, dtype) for i, (slots, dtype) in enumerate(closed)]


def _reducer_hook(ref, slot):
    def distributed_grad_reducer(grad):
        reducer = ref()
        if reducer is not None:
            reducer._gradient_ready(slot, grad)
    return distributed_grad_reducer


def _remove_all(handles):
    for handle in handles:
        handle.remove()


class DistributedGradReducer(Cell):
    """The gradients of ``parameters`` all-reduced over ``group``, averaged when ``mean``.

    Used in data parallel: each process computes gradients on its share of the batch, and the
    reducer gives every process their sum (``mean``: divided by ``degree``). Gradients of
    float16 travel as float32 and come back in their own dtype, as in MindSpore. The allreduce
    starts from gradient hooks during backward (module docstring); ``stats`` and ``last_step``
    say how much of it backward hid.

    Args:
        parameters: the parameters whose gradients ``construct`` is given, in that order.
        mean: divide the sums by ``degree``. Default True; None takes ``gradients_mean`` from
            the auto-parallel context.
        degree: the divisor, a positive int. Default None: the group's size.
        fusion_type: MindSpore's allreduce fusion id, an int; buckets fuse gradients here.
        group: the communication group. Default ``GlobalComm.WORLD_COMM_GROUP``.
        bucket_bytes: (hookgrad) bytes per bucket; default the ``HOOKGRAD_BUCKET_MB``
            environment variable's megabytes, else 25 MB.
        overlap: (hookgrad) start buckets from gradient hooks during backward. False reduces
            all gradients in ``construct``, after backward.

    Inputs:
        grads: a tuple of Tensors, one per parameter (or one Tensor).

    Outputs:
        The reduced gradients, in the form given. In a group of one process they are the
        gradients given (divided by ``degree`` when it is given and ``mean``).

    Raises:
        ValueError: If degree is not an int or less than 0, or ``grads`` does not match
            ``parameters``.
        TypeError: for ``parameters`` that are not Parameters, or arguments of other types.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(2, 1)
    >>> reducer = ms.nn.DistributedGradReducer(net.trainable_params())   # one process
    >>> grads = (ms.ops.ones((1, 2)), ms.ops.ones((1,)))
    >>> reducer(grads)[0] is grads[0]
    True
    """

    def __init__(self, parameters, mean=True, degree=None, fusion_type=1,
                 group=GlobalComm.WORLD_COMM_GROUP, *, bucket_bytes=None, overlap=True):
        super().__init__(auto_prefix=False)
        params = tuple(parameters)
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(f"For 'DistributedGradReducer', parameters must be Parameters, "
                                f"got {type(p).__name__}")
        if mean is None:
            from ...context import get_auto_parallel_context
            mean = get_auto_parallel_context('gradients_mean')
        if not isinstance(mean, bool):
            raise TypeError(f"For 'DistributedGradReducer', mean must be a bool, got {mean!r}")
        if isinstance(fusion_type, bool) or not isinstance(fusion_type, int):
            raise TypeError(f"For 'DistributedGradReducer', fusion_type must be an int, got "
                            f"{fusion_type!r}")
        if not isinstance(group, str):
            raise TypeError(f"For 'DistributedGradReducer', group must be a str, got "
                            f"{type(group).__name__}")
        if not isinstance(overlap, bool):
            raise TypeError(f"For 'DistributedGradReducer', overlap must be a bool, got "
                            f"{overlap!r}")
        world = _world.world() or _world.start()
        self._comm_group = world_group(group)
        group_size = world.group_size(self._comm_group)
        world.group_rank(self._comm_group)           # this process must belong to the group
        if degree is None:
            degree = group_size
        elif isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise ValueError(f"For 'DistributedGradReducer', parameter 'degree' in "
                             f"DistributedGradReducer should large than 0 and be int, degree: "
                             f"{degree}.")
        self.mean, self.degree, self.fusion_type, self.overlap = mean, degree, fusion_type, overlap
        self.bucket_bytes = _bucket_bytes(bucket_bytes)
        self._comm_world = world
        object.__setattr__(self, '_grad_params', params)     # the caller's: not registered
        self._reducing = group_size > 1
        self.stats = {'steps': 0, 'allreduce_s': 0.0, 'waited_s': 0.0, 'bytes': 0,
                      'buckets_in_backward': 0, 'buckets': 0, 'reduced_again': 0}
        self.last_step = {}
        self.events = []        # this step's ('ready', slot) / ('start', bucket) / ... in order
        self._hook_handles = []
        if not self._reducing:
            return
        self._shapes = [tuple(p.shape) for p in params]
        self._dtypes = [p._data.dtype for p in params]
        self.buckets = _make_buckets(range(len(params) - 1, -1, -1), self._shapes, self._dtypes,
                                     self.bucket_bytes)
        self._index_buckets()
        self._seen = [None] * len(params)
        self._ready_order = []
        self._order_final = False
        ref = weakref.ref(self)
        for slot, p in enumerate(params):
            self._hook_handles.append(p.register_hook(_reducer_hook(ref, slot)))
        weakref.finalize(self, _remove_all, self._hook_handles)

    def _index_buckets(self):
        self._bucket_of = {s: b for b in self.buckets for s in b.slots}

    # ------------------------------------------------------------------ during backward
    def _gradient_ready(self, slot, grad):
        """A parameter's final gradient: into its bucket; start the bucket once it is full."""
        if self._seen[slot] is not None:    # a second backward before construct: drop the first
            self._drain()
        g = grad._data
        self._seen[slot] = g
        if not self._order_final:
            self._ready_order.append(slot)
        self.events.append(('ready', slot))
        bucket = self._bucket_of[slot]
        if bucket.buffer is None:
            bucket.buffer = array_module(g).empty(bucket.size, bucket.dtype)
        np.copyto(bucket.view(slot, g.shape), g, casting='unsafe')
        bucket.missing -= 1
        if bucket.missing == 0 and self.overlap:
            self._start(bucket, in_backward=True)
        self._progress()

    def _start(self, bucket, in_backward=False):
        bucket.started = time.perf_counter()
        bucket.in_backward = in_backward
        bucket.request = self._comm_world.iallreduce(bucket.buffer, 'sum', self._comm_group,
                                                out=bucket.buffer)
        self.events.append(('start', bucket.index))

    def _progress(self):
        """Let MPI move the requests in flight (MPI progresses them inside MPI calls)."""
        for b in self.buckets:
            if b.request is not None and b.finished is None and b.request.test():
                b.finished = time.perf_counter()

    def _drain(self):
        """Finish every request in flight and forget this step's gradients."""
        for b in self.buckets:
            if b.request is not None:
                b.request.wait()
            b.reset()
        self._seen = [None] * len(self._grad_params)
        if not self._order_final:
            self._ready_order = []

    # ------------------------------------------------------------------ after backward
    def construct(self, grads):
        one = isinstance(grads, Tensor)
        grads = (grads,) if one else tuple(grads)
        if len(grads) != len(self._grad_params):
            raise ValueError(f"For 'DistributedGradReducer', got {len(grads)} gradients for "
                             f"{len(self._grad_params)} parameters")
        if not self._reducing:
            if self.mean and self.degree != 1:
                scale = np.float32(1.0 / self.degree)
                grads = tuple(Tensor._wrap((g._data * scale).astype(g._data.dtype))
                              for g in grads)
            return grads[0] if one else grads
        arrays = [None if g is None else g._data for g in grads]
        after_backward = time.perf_counter()
        self.events.append(('construct',))
        reduced_again = 0
        for b in self.buckets:              # the same order on every rank
            stale = [s for s in b.slots if self._seen[s] is None or self._seen[s] is not
                     arrays[s]]
            if not stale and b.request is not None:
                continue
            if b.request is not None:       # started with gradients that have changed since
                b.request.wait()
                reduced_again += 1
                stale = b.slots
            if b.buffer is None or b.request is not None:
                b.buffer = self._device_of(b, arrays).xp.empty(b.size, b.dtype)
                stale = b.slots
            for s in stale:
                view = b.view(s, self._shapes[s])
                if arrays[s] is None:
                    view[...] = 0
                else:
                    np.copyto(view, arrays[s], casting='unsafe')
            self._start(b)
        waited = 0.0
        out = [None] * len(grads)
        for b in self.buckets:
            t = time.perf_counter()
            b.request.wait()
            done = time.perf_counter()
            waited += done - t
            if b.finished is None:
                b.finished = done
            if self.mean:
                b.buffer *= b.buffer.dtype.type(1.0 / self.degree)
            for s in b.slots:
                view = b.view(s, self._shapes[s])
                dtype = self._dtypes[s] if arrays[s] is None else arrays[s].dtype
                out[s] = Tensor._wrap(view if view.dtype == dtype else view.astype(dtype))
        self._account(after_backward, waited, reduced_again)
        self._next_step()
        return out[0] if one else tuple(out)

    def _device_of(self, bucket, arrays):
        """The device of a bucket's gradients (of its parameters when it has none)."""
        for s in bucket.slots:
            a = arrays[s] if arrays[s] is not None else self._grad_params[s]._data
            return device_of(a)

    def _account(self, after_backward, waited, reduced_again):
        comm = sum(b.finished - b.started for b in self.buckets)
        in_backward = sum(b.in_backward for b in self.buckets)
        first = min((b.started for b in self.buckets), default=after_backward)
        self.last_step = {'buckets': len(self.buckets), 'buckets_in_backward': in_backward,
                          'allreduce_s': comm, 'waited_s': waited,
                          'first_start_before_end_s': max(0.0, after_backward - first),
                          'bucket_sizes': [b.size * b.dtype.itemsize for b in self.buckets],
                          'reduced_again': reduced_again}
        st = self.stats
        st['steps'] += 1
        st['allreduce_s'] += comm
        st['waited_s'] += waited
        st['bytes'] += sum(b.size * b.dtype.itemsize for b in self.buckets)
        st['buckets_in_backward'] += in_backward
        st['buckets'] += len(self.buckets)
        st['reduced_again'] += reduced_again

    def _next_step(self):
        """Forget this step; after the first complete one, bucket in the order it observed."""
        if not self._order_final and len(self._ready_order) == len(self._grad_params):
            order = np.array(self._ready_order, np.int64)
            # rank 0's order on every rank, so that all bucket alike
            order = self._comm_world.broadcast(order, 0, self._comm_group)
            self.buckets = _make_buckets([int(s) for s in order], self._shapes, self._dtypes,
                                         self.bucket_bytes)
            self._index_buckets()
            self._order_final = True
        elif not self._order_final and self._ready_order:
            self._order_final = True        # some gradients never came by hook: keep the order
        for b in self.buckets:
            b.reset()
        self._seen = [None] * len(self._grad_params)
        self.events = []
        self._keep_hooks_last()

    def _keep_hooks_last(self):
        """Re-register a reducer hook that is no longer its parameter's last, so that hooks
        registered later still run first (they see the local gradient, the reducer the
        final one)."""
        ref = weakref.ref(self)
        for slot, p in enumerate(self._grad_params):
            store = p._hooks
            handle = self._hook_handles[slot]
            if store and next(reversed(store)) != handle.id:
                handle.remove()
                self._hook_handles[slot] = p.register_hook(_reducer_hook(ref, slot))

    def hidden_share(self):
        """The share of allreduce time that ran behind backward over all steps:
        ``1 - waited / allreduce`` (None before the first step)."""
        st = self.stats
        if not st['allreduce_s']:
            return None
        return max(0.0, 1.0 - st['waited_s'] / st['allreduce_s'])

    def extend_repr(self):
        return (f"mean={self.mean}, degree={self.degree}, buckets="
                f"{len(getattr(self, 'buckets', ()))}, bucket_bytes={self.bucket_bytes}")
