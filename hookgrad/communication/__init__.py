"""MindSpore's ``mindspore.communication`` on MPI (or on one process).

``init()`` (any backend name: 'hccl', 'nccl', 'mccl' all run on MPI here), ``get_rank``,
``get_group_size``, ``get_local_rank``, ``get_local_rank_size``, ``create_group``,
``destroy_group``, ``GlobalComm``, ``release``: the names live in ``management`` and are
re-exported here, as in MindSpore. Launch several processes with
``hookgrad run -n N script.py`` or ``mpirun -n N python script.py``.
"""
from .management import (init, release, get_rank, get_local_rank, get_group_size,
                         get_local_rank_size, get_world_rank_from_group_rank,
                         get_group_rank_from_world_rank, create_group, destroy_group,
                         get_process_group_ranks, get_comm_name, GlobalComm,
                         HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
from . import management  # noqa: F401
from ..compat.names import reporter as _reporter

__all__ = ['init', 'release', 'get_rank', 'get_local_rank', 'get_group_size',
           'get_local_rank_size', 'get_world_rank_from_group_rank',
           'get_group_rank_from_world_rank', 'create_group', 'destroy_group',
           'get_process_group_ranks', 'get_comm_name', 'GlobalComm',
           'HCCL_WORLD_COMM_GROUP', 'NCCL_WORLD_COMM_GROUP', 'MCCL_WORLD_COMM_GROUP']

__getattr__ = _reporter('mindspore.communication')
