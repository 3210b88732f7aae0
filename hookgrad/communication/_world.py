"""The process world behind ``mindspore.communication``: MPI through mpi4py, or one process.

A script started by ``mpiexec``/``mpirun`` (or ``hookgrad run -n N``) finds its peers through
MPI (mpi4py and an MPI library, the ``distributed`` extra); every collective is an MPI call on
NumPy buffers, blocking or nonblocking. A script started alone is rank 0 of 1: collectives
return their input, and asking for more processes says how to get them.

Groups. ``WORLD`` names every process; ``create_group`` makes a sub-communicator from world
ranks. MindSpore's world group names ('hccl_world_group', 'nccl_world_group', ...) all mean
``WORLD`` here.

Only this module imports mpi4py, and only when the process was launched as one of several or
``init`` asks for MPI, so a plain install never loads an MPI library.
"""
import os
import threading

import numpy as np

from ..kernels.backend import device_of, is_device_array, to_device, to_host

__all__ = ['World', 'world', 'start', 'stop', 'launched_size', 'WORLD', 'Request',
           'REDUCE_OPS']

WORLD = 'world'
REDUCE_OPS = ('sum', 'max', 'min', 'prod')

# Environment variables through which MPI launchers give a process its world size.
_SIZE_VARS = ('OMPI_COMM_WORLD_SIZE', 'PMI_SIZE', 'PMIX_SIZE', 'MPI_LOCALNRANKS',
              'HOOKGRAD_WORLD_SIZE')


def launched_size():
    """The number of processes this one was launched among (1 when started alone)."""
    for var in _SIZE_VARS:
        value = os.environ.get(var)
        if value and value.isdigit():
            return int(value)
    return 1


class Request:
    """A collective in flight: ``wait()`` finishes it and returns its result array (a device
    array's collective runs on a host copy: the ``inner`` request)."""
    __slots__ = ('_req', '_finish', '_inner')

    def __init__(self, req, finish, inner=None):
        self._req, self._finish, self._inner = req, finish, inner

    def test(self):
        """Whether it has finished (never blocks)."""
        if self._inner is not None:
            return self._inner.test()
        return self._req is None or self._req.Test()

    def wait(self):
        if self._req is not None:
            self._req.Wait()
            self._req = None
        return self._finish()


class World:
    """The processes of one job: rank, size, local (same host) rank and size, and collectives
    on NumPy arrays over a group (``WORLD`` or a name from ``create_group``)."""

    def __init__(self, comm=None, mpi=None):
        self._mpi = mpi
        self._groups = {}
        self._group_ranks = {}
        if comm is None:
            self.rank, self.size, self.local_rank, self.local_size = 0, 1, 0, 1
            self.backend = 'single process'
            return
        self._groups[WORLD] = comm
        self.rank, self.size = comm.Get_rank(), comm.Get_size()
        local = comm.Split_type(mpi.COMM_TYPE_SHARED, key=self.rank)
        self.local_rank, self.local_size = local.Get_rank(), local.Get_size()
        local.Free()
        self.backend = f"MPI ({' '.join(mpi.Get_library_version().split()[:3])})"

    # ----------------------------------------------------------------------------- groups
    def comm(self, group=WORLD):
        """The MPI communicator of ``group`` (None in a single process)."""
        if self._mpi is None:
            if group != WORLD and group not in self._groups:
                raise ValueError(f"communication group {group!r} does not exist")
            return None
        try:
            return self._groups[group]
        except KeyError:
            raise ValueError(f"communication group {group!r} does not exist; create it with "
                             f"create_group first") from None

    def create_group(self, name, ranks):
        """Make group ``name`` of the world ``ranks`` (every process must call it)."""
        if name in self._groups or name == WORLD:
            raise ValueError(f"communication group {name!r} already exists")
        ranks = sorted(int(r) for r in ranks)
        if len(set(ranks)) != len(ranks) or not ranks or ranks[0] < 0 or ranks[-1] >= self.size:
            raise ValueError(f"create_group: rank_ids must be distinct ranks in [0, "
                             f"{self.size}), got {ranks}")
        if self._mpi is None:
            self._groups[name] = ranks
            return
        # Create_group is collective over the members only, so non-members need not call.
        sub = None
        if self.rank in ranks:
            world = self._groups[WORLD]
            members = world.Get_group().Incl(ranks)
            sub = world.Create_group(members)
            members.Free()
        self._groups[name] = sub
        self._group_ranks[name] = ranks

    def destroy_group(self, name):
        if name == WORLD:
            raise ValueError("the world group cannot be destroyed")
        comm = self._groups.pop(name, None)
        self._group_ranks.pop(name, None)
        if comm is not None and self._mpi is not None:
            comm.Free()

    def group_ranks(self, group=WORLD):
        """The world ranks of ``group``, in group-rank order."""
        if group == WORLD:
            return list(range(self.size))
        if self._mpi is None:
            self.comm(group)
            return list(self._groups[group])
        self.comm(group)
        return list(self._group_ranks[group])

    def group_size(self, group=WORLD):
        return len(self.group_ranks(group))

    def group_rank(self, group=WORLD):
        """This process's rank within ``group`` (ValueError if it is not in it)."""
        ranks = self.group_ranks(group)
        if self.rank not in ranks:
            raise ValueError(f"rank {self.rank} is not in communication group {group!r}")
        return ranks.index(self.rank)

    # ------------------------------------------------------------------------ collectives
    def _member_comm(self, group):
        """``comm(group)``, refusing a group this process is not a member of."""
        comm = self.comm(group)
        if comm is None and self._mpi is not None:
            raise ValueError(f"rank {self.rank} is not in communication group {group!r}")
        return comm

    def _op(self, op):
        if op not in REDUCE_OPS:
            raise ValueError(f"reduce operation must be one of {REDUCE_OPS}, got {op!r}")
        return {'sum': self._mpi.SUM, 'max': self._mpi.MAX, 'min': self._mpi.MIN,
                'prod': self._mpi.PROD}[op]

    def iallreduce(self, a, op='sum', group=WORLD, out=None):
        """Start reducing ``a`` over ``group`` (every member's ``a`` has the same shape and
        dtype); ``wait()`` returns the reduced array (``out`` when given). A device array
        travels through the host: MPI reduces a NumPy copy, which ``wait()`` puts back on the
        device."""
        if type(a) is not np.ndarray and is_device_array(a):
            device = device_of(a)
            request = self.iallreduce(to_host(a, 'an allreduce through the host'), op, group)

            def finish():
                reduced = to_device(request.wait(), device)
                if out is None:
                    return reduced
                out[...] = reduced
                return out
            return Request(None, finish, request)
        a = np.ascontiguousarray(a)
        out = np.empty_like(a) if out is None else out
        comm = self._member_comm(group)
        if comm is None or self.group_size(group) == 1:
            if out is not a:
                np.copyto(out, a)
            return Request(None, lambda: out)
        if out is a:
            req = comm.Iallreduce(self._mpi.IN_PLACE, out, op=self._op(op))
        else:
            req = comm.Iallreduce(a, out, op=self._op(op))
        return Request(req, lambda: out)

    def allreduce(self, a, op='sum', group=WORLD, out=None):
        return self.iallreduce(a, op, group, out).wait()

    def allgather(self, a, group=WORLD):
        """Members' ``a`` (same shape) concatenated along axis 0 in group-rank order."""
        a = np.ascontiguousarray(a)
        comm, n = self._member_comm(group), self.group_size(group)
        if comm is None or n == 1:
            return a.copy()
        out = np.empty((n,) + a.shape, a.dtype)
        comm.Allgather(a, out)
        return out.reshape((n * a.shape[0],) + a.shape[1:]) if a.ndim else out

    def reduce_scatter(self, a, op='sum', group=WORLD):
        """``a`` reduced over the group, then cut along axis 0 into group-size blocks; member
        i keeps block i (axis 0 must divide by the group size)."""
        a = np.ascontiguousarray(a)
        comm, n = self._member_comm(group), self.group_size(group)
        if a.ndim == 0 or a.shape[0] % n:
            raise ValueError(f"reduce_scatter: the first dimension of shape {a.shape} must "
                             f"divide by the group size {n}")
        if comm is None or n == 1:
            return a.copy()
        out = np.empty((a.shape[0] // n,) + a.shape[1:], a.dtype)
        comm.Reduce_scatter_block(a, out, op=self._op(op))
        return out

    def broadcast(self, a, root=0, group=WORLD):
        """Group member ``root``'s ``a`` (group rank), on every member."""
        a = np.array(a, copy=True, order='C')
        comm = self._member_comm(group)
        if comm is None or self.group_size(group) == 1:
            return a
        comm.Bcast(a, root=root)
        return a

    # ------------------------------------------------------------------------ point to point
    def _peer(self, group, rank, who):
        comm = self._member_comm(group)
        if comm is None:
            raise RuntimeError(f"{who}: point-to-point communication needs several processes "
                               f"(launch with hookgrad run -n N)")
        if not 0 <= rank < comm.Get_size() or rank == comm.Get_rank():
            raise ValueError(f"{who}: peer rank {rank} must be another member of the group "
                             f"(0..{comm.Get_size() - 1})")
        return comm

    def isend(self, a, dst, group=WORLD, tag=0):
        """Start sending ``a`` (any device: sent from a host copy) to group rank ``dst``."""
        comm = self._peer(group, dst, 'send')
        host = np.ascontiguousarray(to_host(a, 'a send through the host'))
        return Request(comm.Isend(host, dest=dst, tag=tag), lambda: host)

    def irecv(self, out, src, group=WORLD, tag=0):
        """Start receiving into ``out`` (an array of the sent shape and dtype, any device) from
        group rank ``src``; ``wait()`` returns ``out``."""
        comm = self._peer(group, src, 'recv')
        host = np.empty(out.shape, out.dtype)

        def finish():
            out[...] = to_device(host, device_of(out))
            return out
        return Request(comm.Irecv(host, source=src, tag=tag), finish)

    def send_object(self, obj, dst, group=WORLD, tag=0):
        """Send a picklable object to group rank ``dst``."""
        self._peer(group, dst, 'send_object_list').send(obj, dest=dst, tag=tag)

    def recv_object(self, src, group=WORLD, tag=0):
        """The object group rank ``src`` sent."""
        return self._peer(group, src, 'recv_object_list').recv(source=src, tag=tag)

    def barrier(self, group=WORLD):
        comm = self._member_comm(group)
        if comm is not None:
            comm.Barrier()

    def abort(self, code=1):
        """End every process of the job at once (after an error on this one)."""
        if self._mpi is not None:
            self._groups[WORLD].Abort(code)
        os._exit(code)


_lock = threading.Lock()
_world = None


def world():
    """The world ``start`` made (None before it)."""
    return _world


def start(need_mpi=False):
    """Make the world once: MPI when this process was launched among several or ``need_mpi``,
    else one process. Raises RuntimeError when several processes were launched but mpi4py or
    an MPI library is missing."""
    global _world
    with _lock:
        if _world is not None:
            return _world
        size = launched_size()
        if size > 1 or need_mpi:
            try:
                from mpi4py import MPI
            except ImportError as exc:
                raise RuntimeError(
                    f"this process was launched as one of {size} but mpi4py cannot be imported "
                    f"({exc}); install it with: pip install 'hookgrad[distributed]'") from exc
            _world = World(MPI.COMM_WORLD.Dup(), MPI)
        else:
            _world = World()
        return _world


def stop():
    """Forget the world (``release``); MPI itself ends when the process does."""
    global _world
    with _lock:
        _world = None
