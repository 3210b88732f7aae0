"""MindSpore's ``mindspore.communication.management``: init, ranks, sizes and groups.

Every backend name MindSpore code passes to ``init`` ('hccl', 'nccl', 'mccl', or None for the
one ``device_target`` implies) runs on the process world of ``_world``: MPI when the script
was launched as one of several processes (``mpirun -n 2 python train.py`` or
``hookgrad run -n 2 train.py``), else one process, rank 0 of 1. ``init`` says which, once.
MindSpore's world group names all mean the whole world here.

Names MindSpore documents as "used after init()" raise its RuntimeError before ``init``.
"""
import sys

from . import _world
from .faults import install_fault_handler

__all__ = ['init', 'release', 'get_rank', 'get_local_rank', 'get_group_size',
           'get_local_rank_size', 'get_world_rank_from_group_rank',
           'get_group_rank_from_world_rank', 'create_group', 'destroy_group',
           'get_process_group_ranks', 'get_comm_name', 'GlobalComm',
           'HCCL_WORLD_COMM_GROUP', 'NCCL_WORLD_COMM_GROUP', 'MCCL_WORLD_COMM_GROUP']

HCCL_WORLD_COMM_GROUP = 'hccl_world_group'
NCCL_WORLD_COMM_GROUP = 'nccl_world_group'
MCCL_WORLD_COMM_GROUP = 'mccl_world_group'
_WORLD_NAMES = {HCCL_WORLD_COMM_GROUP: 'hccl', NCCL_WORLD_COMM_GROUP: 'nccl',
                MCCL_WORLD_COMM_GROUP: 'mccl'}
_BACKEND_OF_TARGET = {'Ascend': 'hccl', 'GPU': 'nccl', 'CPU': 'mccl'}

LAUNCH_HINT = "hookgrad run -n N script.py (or mpirun -n N python script.py)"


class GlobalComm:
    """World communication information, as MindSpore keeps it: ``BACKEND`` (the backend name
    ``init`` was given: 'hccl', 'nccl' or 'mccl'; every one runs on MPI here),
    ``WORLD_COMM_GROUP`` (that backend's world group name) and ``INITED``."""
    BACKEND = 'hccl'
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


_created = {}       # group name -> rank_ids given to create_group


def world_group(group):
    """The ``_world`` group name for a MindSpore group name (world names -> ``WORLD``)."""
    if group is None or group in _WORLD_NAMES or group == GlobalComm.WORLD_COMM_GROUP:
        return _world.WORLD
    return group


def is_world_group(group):
    return world_group(group) == _world.WORLD


def current_world(api):
    """The world ``init`` made; RuntimeError (MindSpore's wording) before ``init``."""
    world = _world.world()
    if not GlobalComm.INITED or world is None:
        raise RuntimeError("Distributed Communication has not been inited")
    return world


def _check_group_type(api, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, "
                        f"but got 'group' type : {type(group)}.")


def _check_int(api, name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{api}', the argument '{name}' must be type of int, "
                        f"but got '{name}' type : {type(value)}.")


def _say(line):
    print(f"hookgrad: {line}", file=sys.stderr, flush=True)


def _backend_name(backend_name):
    if backend_name is None:
        from ..context import get_context
        target = get_context('device_target')
        return _BACKEND_OF_TARGET.get(target, 'mccl')
    if not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, "
                        f"but got the type : {type(backend_name)}")
    if backend_name not in _BACKEND_OF_TARGET.values():
        raise RuntimeError(f"For 'init', the argument 'backend_name' must be one of 'hccl', "
                           f"'nccl' and 'mccl', but got 'backend_name' : {backend_name}")
    return backend_name


def init(backend_name=None):
    """Start distributed communication: MPI when this process was launched as one of
    several, else a world of one process. Every backend name runs on MPI here.

    Args:
        backend_name (str, optional): 'hccl', 'nccl' or 'mccl' (MindSpore's names; all run
            on MPI). Default None: the one ``device_target`` implies.

    Raises:
        TypeError: ``backend_name`` is not a string.
        RuntimeError: an unknown backend name, or several processes were launched but mpi4py
            cannot be imported.
    """
    name = _backend_name(backend_name)
    first = _world.world() is None or not GlobalComm.INITED
    world = _world.start()
    GlobalComm.BACKEND = name
    GlobalComm.WORLD_COMM_GROUP = {'hccl': HCCL_WORLD_COMM_GROUP, 'nccl': NCCL_WORLD_COMM_GROUP,
                                   'mccl': MCCL_WORLD_COMM_GROUP}[name]
    GlobalComm.INITED = True
    if world.size > 1:
        install_fault_handler(world)
    if first and world.rank == 0:
        requested = repr(backend_name) if backend_name is not None else f"None -> {name!r}"
        if world.size > 1:
            _say(f"init({requested}) runs on {world.backend}, {world.size} processes")
        else:
            _say(f"init({requested}) runs in a single process (rank 0 of 1); to run on N "
                 f"processes launch with: {LAUNCH_HINT}")
    from ..context import get_auto_parallel_context
    check_device_num(get_auto_parallel_context('device_num'), explicit=False)


def check_device_num(device_num, explicit=True):
    """Say, once per value, when ``device_num`` asks for more processes than this world has
    (``set_auto_parallel_context(device_num=N)``): this process runs as rank 0 of 1 (or of
    its world) and how to launch more."""
    if not isinstance(device_num, int) or device_num <= 1:
        return
    world = _world.world()
    size = world.size if world is not None else _world.launched_size()
    rank = world.rank if world is not None else 0
    if device_num <= size or device_num in _said_device_num or rank != 0:
        return
    _said_device_num.add(device_num)
    _say(f"device_num={device_num} asks for {device_num} processes, but this process runs as "
         f"rank 0 of {size}; launch {device_num} processes with: "
         f"{LAUNCH_HINT.replace('N', str(device_num))}")


_said_device_num = set()


def release():
    """End distributed communication (``init`` may be called again)."""
    GlobalComm.INITED = False
    _created.clear()
    _world.stop()


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank in ``group`` (default: the world).

    Raises:
        TypeError: ``group`` is not a string.
        RuntimeError: before ``init``.
        ValueError: an unknown group, or one this process is not in.
    """
    _check_group_type('get_rank', group)
    return current_world('get_rank').group_rank(world_group(group))


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes in ``group`` (default: the world).

    Raises:
        TypeError: ``group`` is not a string.
        RuntimeError: before ``init``.
        ValueError: an unknown group.
    """
    _check_group_type('get_group_size', group)
    return current_world('get_group_size').group_size(world_group(group))


def _local(world, group):
    """(local rank, local size) of this process among the members of ``group`` on its host."""
    if is_world_group(group):
        return world.local_rank, world.local_size
    comm = world.comm(world_group(group))
    world.group_rank(world_group(group))
    if comm is None:
        return 0, 1
    local = comm.Split_type(world._mpi.COMM_TYPE_SHARED, key=comm.Get_rank())
    try:
        return local.Get_rank(), local.Get_size()
    finally:
        local.Free()


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank among the processes of ``group`` on the same host."""
    _check_group_type('get_local_rank', group)
    return _local(current_world('get_local_rank'), group)[0]


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes of ``group`` on this host."""
    _check_group_type('get_local_rank_size', group)
    return _local(current_world('get_local_rank_size'), group)[1]


def _user_group(api, world, group):
    if is_world_group(group):
        raise ValueError(f"For '{api}', the argument 'group' must be a group made by "
                         f"create_group, not the world group {group!r}")
    return world.group_ranks(world_group(group))


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world rank of rank ``group_rank_id`` of ``group`` (a group from create_group).

    Raises:
        TypeError: ``group`` is not a string or ``group_rank_id`` not an int.
        ValueError: the world group, an unknown group, or a rank outside it.
    """
    api = 'get_world_rank_from_group_rank'
    _check_group_type(api, group)
    _check_int(api, 'group_rank_id', group_rank_id)
    ranks = _user_group(api, current_world(api), group)
    if not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For '{api}', the argument 'group_rank_id' must be in [0, "
                         f"{len(ranks)}) for group {group!r}, but got {group_rank_id}")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group):
    """The rank in ``group`` (a group from create_group) of world rank ``world_rank_id``.

    Raises:
        TypeError: ``world_rank_id`` is not an int or ``group`` not a string.
        ValueError: the world group, an unknown group, or a world rank not in it.
    """
    api = 'get_group_rank_from_world_rank'
    _check_group_type(api, group)
    _check_int(api, 'world_rank_id', world_rank_id)
    ranks = _user_group(api, current_world(api), group)
    if world_rank_id not in ranks:
        raise ValueError(f"For '{api}', world rank {world_rank_id} is not in group "
                         f"{group!r} (ranks {ranks})")
    return ranks.index(world_rank_id)


def create_group(group, rank_ids, options=None):
    """Make communication group ``group`` of the world ranks ``rank_ids``. The members call
    it (every process may; non-members only record the group).

    Args:
        group (str): the new group's name.
        rank_ids (list): distinct world ranks.
        options: accepted for MindSpore's ``GroupOptions`` (HCCL settings); unused here.

    Raises:
        TypeError: ``group`` is not a string or ``rank_ids`` not a list.
        ValueError: ``rank_ids`` empty, with duplicates or out of range; ``group`` exists
            with other ranks.
    """
    api = 'create_group'
    _check_group_type(api, group)
    world = current_world(api)
    if group in _created:
        if rank_ids != _created[group]:
            raise ValueError(f"The group {group} has been created, the rank_list is "
                             f"{_created[group]}, but current rank_list for the group is "
                             f"{rank_ids}")
        return
    if not isinstance(rank_ids, list):
        raise TypeError(f"For 'create_group', the argument 'rank_ids' must be type of list, "
                        f"but got 'rank_ids' type : {type(rank_ids)}.")
    if len(rank_ids) < 1:
        raise ValueError(f"For 'create_group', the argument 'rank_ids' size should be greater "
                         f"than 1, but got 'rank_ids' size : {len(rank_ids)}.")
    if len(set(rank_ids)) != len(rank_ids):
        raise ValueError(f"List rank_ids in Group {group} has duplicate data!")
    if is_world_group(group):
        raise ValueError(f"For 'create_group', {group!r} names the world group")
    world.create_group(group, rank_ids)
    _created[group] = list(rank_ids)


def destroy_group(group):
    """Forget communication group ``group`` (made by create_group).

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: the world group, or an unknown group.
    """
    _check_group_type('destroy_group', group)
    world = current_world('destroy_group')
    if is_world_group(group):
        raise ValueError("The world_group does not support destruction.")
    world.group_ranks(group)
    world.destroy_group(group)
    _created.pop(group, None)


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP):
    """The world ranks of ``group``, in group-rank order."""
    _check_group_type('get_process_group_ranks', group)
    return current_world('get_process_group_ranks').group_ranks(world_group(group))


def get_comm_name(group=GlobalComm.WORLD_COMM_GROUP):
    """A name for the communicator of ``group``: backend, group and its world ranks."""
    _check_group_type('get_comm_name', group)
    world = current_world('get_comm_name')
    name = world_group(group)
    ranks = world.group_ranks(name)
    return f"{GlobalComm.BACKEND}:{group}:{'-'.join(map(str, ranks))}"
