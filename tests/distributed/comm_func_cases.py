"""Calls of ``mindspore.ops``' functional collectives whose result MindSpore 2.10 gives before
any communication (argument errors, queries before ``init``), as expressions over the names of
``namespace``. ``record_comm_func.py`` records what MindSpore gives for each into
``comm_func_ms210.json``; ``test_comm_func.py`` checks hookgrad gives the same.

``me`` is this process's rank as ``ops.get_rank()`` says (MindSpore before ``init``: RANK_SIZE,
1; hookgrad's one-process world: 0); every group has one member in both.
"""
import numpy as np

# The ones evaluated before init (queries); the others run in a one-process world in hookgrad.
BEFORE_INIT = [
    "ops.get_rank()",
    "ops.get_world_size()",
    "ops.get_backend()",
    "ops.get_backend('mccl_4_abc')",
    "ops.get_backend('hccl_2_abc')",
    "ops.is_available()",
    "ops.is_initialized()",
    "ops.get_global_rank(None, 3)",
    "ops.new_group()",
    "ops.get_process_group_ranks()",
    "ops.get_group_rank(None, 0)",
    "ops.get_global_rank('g', 1)",
    "ops.destroy_process_group()",
]

ERRORS = [
    "ops.init_process_group('nccl')",
    "ops.set_comm_ops_inplace(1)",
    "ops.set_comm_ops_inplace(True, 'all_reduce')",
    "ops.set_comm_ops_inplace(True, ['all_reduce', 'nope'])",
    "ops.all_reduce(np.ones(2))",
    "ops.all_reduce(x, op=1)",
    "ops.all_reduce(x, op='mean')",
    "ops.all_reduce(x, group=1)",
    "ops.all_reduce(x, async_op=1)",
    "ops.all_gather_into_tensor(o, [1.0])",
    "ops.all_gather_into_tensor([1.0], x)",
    "ops.all_gather_into_tensor(o, x, group=2.5)",
    "ops.reduce_scatter_tensor(o, x, op='mean')",
    "ops.reduce_scatter_tensor([0.0], x)",
    "ops.reduce_scatter_tensor_uneven(o, x, op='prod')",
    "ops.reduce_scatter_tensor_uneven(o, x, op=None)",
    "ops.all_gather_into_tensor_uneven(o, x, group=0)",
    "ops.reduce(x, '0')",
    "ops.reduce(x, 0, op='avgs')",
    "ops.broadcast([1.0], 0)",
    "ops.broadcast(x, 0.5)",
    "ops.broadcast(x, 0, async_op='no')",
    "ops.barrier(group=3)",
    "ops.barrier(async_op=None)",
    "ops.scatter_tensor(o, x, src='a')",
    "ops.scatter_tensor(o, 1.0)",
    "ops.gather_into_tensor([1], x)",
    "ops.gather_into_tensor(o, x, dst=None)",
    "ops.all_gather([x, 1], x)",
    "ops.all_gather([x, i32], x)",
    "ops.all_gather([x, x], x)",
    "ops.all_gather((x,), [1.0])",
    "ops.reduce_scatter(o, [x], op='x')",
    "ops.reduce_scatter(o, 'x')",
    "ops.reduce_scatter([0.0], [x])",
    "ops.all_to_all([o], 'notalist')",
    "ops.all_to_all([o], [x, i32])",
    "ops.all_to_all([o], [x], async_op=0)",
    "ops.all_to_all_single(o, [1.0])",
    "ops.all_to_all_single(o, x, group=7)",
    "ops.all_to_all_v_c(o, x, (1,))",
    "ops.all_to_all_v_c(o, x, [1.0])",
    "ops.all_to_all_v_c(o, x, [1, 1])",
    "ops.all_to_all_v_c(o, [1.0], [1])",
    "ops.P2POp('send', x, 1)",
    "ops.P2POp(ops.isend, [1.0], 1)",
    "ops.P2POp(ops.isend, x, '1')",
    "ops.P2POp(ops.isend, x, 1, tag=1)",
    "ops.batch_isend_irecv([])",
    "ops.batch_isend_irecv([1])",
    "ops.batch_isend_irecv([ops.P2POp('isend', x, 1), ops.P2POp(ops.irecv, x, 1, group='g')])",
    "ops.send(x, me)",
    "ops.send([1.0], 1)",
    "ops.send(x, 1.0)",
    "ops.isend(x, me)",
    "ops.isend(x, '1')",
    "ops.recv(x, 'a')",
    "ops.recv(1.0)",
    "ops.irecv(x, group=1)",
    "ops.irecv(x, src=None)",
    "ops.all_gather_object([None, None], 'obj')",
    "ops.all_gather_object([None], 'obj', group=5)",
    "ops.gather_object('obj', [None, None], dst=me)",
    "ops.gather_object('obj', dst='0')",
    "ops.broadcast_object_list([], 0)",
    "ops.broadcast_object_list([1], 0.0)",
    "ops.scatter_object_list([], [1])",
    "ops.scatter_object_list([None], [1], src='0')",
    "ops.scatter_object_list([None], [1, 2], src=me)",
    "ops.send_object_list('x', 1)",
    "ops.send_object_list([1], '1')",
    "ops.send_object_list([1], me)",
    "ops.recv_object_list('x')",
    "ops.recv_object_list([None], src=0.0)",
    "ops.get_rank(3)",
    "ops.get_world_size(3)",
    "ops.get_backend(3)",
    "ops.get_global_rank(None, '1')",
    "ops.get_global_rank(3, 1)",
    "ops.get_group_rank(None, '1')",
    "ops.get_group_rank(3, 1)",
    "ops.get_process_group_ranks(3)",
    "ops.destroy_process_group(3)",
    "ops.new_group('0')",
    "ops.new_group([0], backend='nccl')",
]

# Errors of the functional form (after ops.set_comm_ops_inplace(False))
FUNCTIONAL_ERRORS = [
    "ops.all_gather_into_tensor_uneven(o, x)",
    "ops.reduce_scatter_tensor_uneven(o, x)",
    "ops.reduce(x, 0)",
    "ops.broadcast(x, 0)",
    "ops.scatter_tensor(o, x)",
    "ops.gather_into_tensor(o, x)",
    "ops.all_gather([o], x)",
    "ops.reduce_scatter(o, [x])",
    "ops.batch_isend_irecv([ops.P2POp('isend', x, 1)])",
    "ops.all_to_all_v_c(o, x, [1])",
    "ops.all_gather_object([None], 1)",
    "ops.broadcast_object_list([1])",
    "ops.gather_object(1, [None])",
    "ops.scatter_object_list([None], [1])",
    "ops.send_object_list([1], 1)",
    "ops.recv_object_list([None])",
]


def namespace(ops, tensor, me):
    """The names the expressions use: ``ops``, ``np``, ``me`` and three small tensors."""
    return {'ops': ops, 'np': np, 'me': me,
            'x': tensor(np.array([1.0, -2.0], np.float32)),
            'o': tensor(np.zeros(2, np.float32)),
            'i32': tensor(np.array([1, 2], np.int32))}


def outcome(expression, names):
    """``['value', repr]`` of the expression's value, or ``['error', type name, message]``."""
    try:
        value = eval(expression, dict(names))       # noqa: S307 (expressions of this file)
    except Exception as e:     # noqa: BLE001 (every error is recorded)
        return ['error', type(e).__name__, str(e)]
    return ['value', repr(value)]
