"""mindspore.communication on hookgrad: init, ranks, sizes, groups and their errors, in one
process and on 2 MPI processes."""
import json

import pytest

import hookgrad as ms
from hookgrad import communication as comm
from hookgrad.communication import management
from tests.distributed.mpirun import needs_mpi, run_ranks


@pytest.fixture(autouse=True)
def fresh_world():
    comm.release()
    management._said_device_num.clear()
    yield
    comm.release()
    ms.reset_auto_parallel_context()


def test_names_before_init_raise_mindspores_error():
    for fn in (comm.get_rank, comm.get_group_size, comm.get_local_rank,
               comm.get_local_rank_size, comm.get_process_group_ranks):
        with pytest.raises(RuntimeError, match="Distributed Communication has not been inited"):
            fn()
    with pytest.raises(RuntimeError, match="has not been inited"):
        comm.create_group('g', [0])


def test_init_alone_is_rank_0_of_1_and_says_how_to_launch_more(capsys):
    comm.init('nccl')
    assert (comm.get_rank(), comm.get_group_size()) == (0, 1)
    assert (comm.get_local_rank(), comm.get_local_rank_size()) == (0, 1)
    assert comm.get_process_group_ranks() == [0]
    assert comm.GlobalComm.INITED is True
    assert comm.GlobalComm.BACKEND == 'nccl'
    assert comm.GlobalComm.WORLD_COMM_GROUP == comm.NCCL_WORLD_COMM_GROUP == 'nccl_world_group'
    err = capsys.readouterr().err
    assert "init('nccl') runs in a single process (rank 0 of 1)" in err
    assert "hookgrad run -n N script.py" in err
    comm.init('nccl')
    assert capsys.readouterr().err == ''        # said once


def test_init_backend_from_device_target_and_every_world_name_is_the_world():
    comm.init()
    assert comm.GlobalComm.BACKEND == 'mccl'    # device_target 'CPU'
    for name in (comm.HCCL_WORLD_COMM_GROUP, comm.NCCL_WORLD_COMM_GROUP,
                 comm.MCCL_WORLD_COMM_GROUP):
        assert comm.get_rank(name) == 0 and comm.get_group_size(name) == 1


def test_init_rejects_bad_backend_names():
    with pytest.raises(TypeError, match="'backend_name' must be a string"):
        comm.init(3)
    with pytest.raises(RuntimeError, match="must be one of 'hccl', 'nccl' and 'mccl', but got "
                                           "'backend_name' : gloo"):
        comm.init('gloo')
    assert comm.GlobalComm.INITED is False


def test_group_argument_must_be_a_string():
    comm.init()
    with pytest.raises(TypeError, match="For 'get_rank', the argument 'group' must be type of "
                                        "string, but got 'group' type : <class 'int'>"):
        comm.get_rank(1)
    with pytest.raises(TypeError, match="For 'get_group_size', the argument 'group'"):
        comm.get_group_size(None)


def test_groups_in_one_process():
    comm.init()
    comm.create_group('solo', [0])
    assert comm.get_rank('solo') == 0 and comm.get_group_size('solo') == 1
    assert comm.get_world_rank_from_group_rank('solo', 0) == 0
    assert comm.get_group_rank_from_world_rank(0, 'solo') == 0
    assert comm.get_process_group_ranks('solo') == [0]
    assert comm.get_comm_name('solo') == 'mccl:solo:0'
    comm.create_group('solo', [0])          # the same again is accepted
    comm.destroy_group('solo')
    with pytest.raises(ValueError, match="communication group 'solo' does not exist"):
        comm.get_rank('solo')


def test_group_errors():
    comm.init()
    with pytest.raises(TypeError, match="'rank_ids' must be type of list, but got 'rank_ids' "
                                        "type : <class 'tuple'>"):
        comm.create_group('g', (0,))
    with pytest.raises(ValueError, match="'rank_ids' size should be greater than 1, but got "
                                         "'rank_ids' size : 0"):
        comm.create_group('g', [])
    with pytest.raises(ValueError, match="List rank_ids in Group g has duplicate data!"):
        comm.create_group('g', [0, 0])
    with pytest.raises(ValueError, match=r"rank_ids must be distinct ranks in \[0, 1\), got "
                                         r"\[3\]"):
        comm.create_group('g', [3])
    comm.create_group('g', [0])
    with pytest.raises(ValueError, match=r"The group g has been created, the rank_list is \[0\]"):
        comm.create_group('g', [0, 1])
    with pytest.raises(ValueError, match="The world_group does not support destruction."):
        comm.destroy_group(comm.HCCL_WORLD_COMM_GROUP)
    with pytest.raises(ValueError, match="communication group 'nope' does not exist"):
        comm.destroy_group('nope')
    with pytest.raises(ValueError, match="not the world group 'hccl_world_group'"):
        comm.get_world_rank_from_group_rank('hccl_world_group', 0)
    with pytest.raises(TypeError, match="'group_rank_id' must be type of int"):
        comm.get_world_rank_from_group_rank('g', '0')
    with pytest.raises(ValueError, match=r"'group_rank_id' must be in \[0, 1\) for group 'g', "
                                         r"but got 1"):
        comm.get_world_rank_from_group_rank('g', 1)
    with pytest.raises(ValueError, match=r"world rank 5 is not in group 'g' \(ranks \[0\]\)"):
        comm.get_group_rank_from_world_rank(5, 'g')


def test_device_num_above_the_world_says_rank_0_of_1_once(capsys):
    ms.set_auto_parallel_context(device_num=4)
    ms.set_auto_parallel_context(device_num=4)
    err = capsys.readouterr().err
    assert err.count("device_num=4 asks for 4 processes, but this process runs as rank 0 of 1; "
                     "launch 4 processes with: hookgrad run -n 4 script.py") == 1
    assert ms.get_auto_parallel_context('device_num') == 4
    ms.set_auto_parallel_context(device_num=1)
    assert capsys.readouterr().err == ''


def test_mindspore_module_paths():
    import hookgrad.compat
    hookgrad.compat.alias_mindspore()
    try:
        from mindspore.communication import init, get_rank, GlobalComm
        from mindspore.communication.management import get_group_size
        assert init is comm.init and get_rank is comm.get_rank
        assert get_group_size is comm.get_group_size and GlobalComm is comm.GlobalComm
    finally:
        hookgrad.compat.unalias_mindspore()


TWO_RANKS = '''
    import json
    import os
    import hookgrad.compat
    hookgrad.compat.alias_mindspore()
    import mindspore as ms  # noqa: F401
    from mindspore.communication import (init, get_rank, get_group_size, get_local_rank,
        get_local_rank_size, create_group, get_process_group_ranks,
        get_world_rank_from_group_rank, get_group_rank_from_world_rank, destroy_group)
    init('hccl')
    rank = get_rank()
    out = {'rank': rank, 'size': get_group_size(), 'local': get_local_rank(),
           'local_size': get_local_rank_size(), 'world': get_process_group_ranks()}
    create_group('reversed', [1, 0])
    out['reversed_rank'] = get_rank('reversed')
    out['reversed_ranks'] = get_process_group_ranks('reversed')
    out['world_of_group_0'] = get_world_rank_from_group_rank('reversed', 0)
    out['group_of_world_0'] = get_group_rank_from_world_rank(0, 'reversed')
    if rank == 1:
        create_group('only1', [1])              # called by its member only
        out['only1'] = [get_rank('only1'), get_group_size('only1')]
    else:
        try:
            get_rank('only1')
        except ValueError as e:
            out['only1'] = str(e)
    destroy_group('reversed')
    os.write(1, (json.dumps(out) + '\\n').encode())     # one write: ranks' lines stay whole
'''


@needs_mpi
def test_two_processes_ranks_sizes_and_groups():
    code, out, err = run_ranks(TWO_RANKS, n=2, timeout=60)
    assert code == 0, err
    got = sorted((json.loads(line) for line in out.splitlines() if line.startswith('{')),
                 key=lambda d: d['rank'])
    assert [g['rank'] for g in got] == [0, 1]
    for g in got:
        assert g['size'] == 2 and g['local_size'] == 2 and g['local'] == g['rank']
        assert g['world'] == [0, 1] and g['reversed_ranks'] == [0, 1]
        assert g['reversed_rank'] == g['rank']
        assert g['world_of_group_0'] == 0 and g['group_of_world_0'] == 0
    assert got[1]['only1'] == [0, 1]
    assert got[0]['only1'] == "communication group 'only1' does not exist; create it with " \
                              "create_group first"
    assert err.count("hookgrad: init('hccl') runs on MPI (") == 1
    assert "2 processes" in err
