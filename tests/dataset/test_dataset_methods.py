"""``Dataset.filter``, ``concat`` / ``+``, ``padded_batch``, ``bucket_batch_by_length``,
``flat_map``, ``apply``, ``save`` and the pipeline queries, compared with what MindSpore 2.10
yields for the same pipelines (fixtures/dataset_methods.json, written by
tools/record_dataset_methods.py): rows with their dtypes and shapes, dataset sizes, errors with
their messages and the point where they are raised."""
import inspect
import json
import os
import re

import numpy as np
import pytest

from hookgrad import dataset as ds
from hookgrad.dataset.engine import Dataset
from tests.dataset import method_runs
from tests.distributed.mpirun import needs_mpi, run_ranks

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures',
                       'dataset_methods.json')) as _f:
    RECORDED = json.load(_f)

ENV = {'ds': ds, 'np': np}
exec(RECORDED['prelude'], ENV)

# errors whose text is MindSpore's own wording of something hookgrad words itself
OWN_MESSAGE = {
    'filter_bad_workers': 'num_parallel_workers',      # MindSpore's bound is its CPU count
    'filter_too_many_args': 'the predicate raised TypeError',
}
# rows MindSpore spreads over two files in an order of its own: compared as a set
UNORDERED = {'save_two_files'}


def run(expr):
    return method_runs.run(expr, ENV)


def mindspore_text(message):
    return message.replace('mindspore.dataset.engine.datasets.Dataset',
                           'hookgrad.dataset.engine.Dataset')


@pytest.mark.parametrize('case', sorted(RECORDED['cases']))
def test_pipeline_matches_mindspore(case):
    want = RECORDED['results'][case]
    got = run(RECORDED['cases'][case])
    if 'error' in want:
        assert 'error' in got, f"{case}: MindSpore raised {want}, hookgrad gave {got}"
        assert (got['error'], got['stage']) == (want['error'], want['stage']), got['message']
        if case in OWN_MESSAGE:
            assert OWN_MESSAGE[case] in got['message']
        else:
            assert got['message'] == mindspore_text(want['message'])
        return
    assert 'error' not in got, got
    assert got['names'] == want['names']
    assert got['size'] == want['size'] == len(want['rows'])
    if case in UNORDERED:
        key = json.dumps
        assert sorted(map(key, got['rows'])) == sorted(map(key, want['rows']))
    else:
        assert got['rows'] == want['rows']


@pytest.mark.filterwarnings('ignore:Repeat is located before padded_batch')
@pytest.mark.parametrize('query', sorted(RECORDED['queries']))
def test_queries_match_mindspore(query):
    assert eval(RECORDED['queries'][query], ENV) == RECORDED['answers'][query]


def test_plus_is_concat():
    a, b, c = ENV['nums'](2), ENV['nums'](1, 5), ENV['nums'](2, 9)
    both = a + b + c
    assert isinstance(both, ds.filtering.ConcatDataset)
    assert [int(r[0]) for r in both.create_tuple_iterator(output_numpy=True)] == [0, 1, 5, 9, 10]
    with pytest.raises(TypeError, match=re.escape("Argument datasets with value (1,) is not of "
                                                  "type [<class 'list'>, <class 'hookgrad")):
        a + (1,)


def test_shuffle_and_repeat_around_the_new_nodes_keep_the_rows():
    mixed = (ENV['nums'](3) + ENV['nums'](3, 10)).shuffle(6).repeat(2)
    epoch = [int(r[0]) for r in mixed.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert mixed.get_dataset_size() == 12 and len(epoch) == 12
    assert sorted(epoch) == sorted([0, 1, 2, 10, 11, 12] * 2)
    assert epoch[:6] != [0, 1, 2, 10, 11, 12] or epoch[6:] != [0, 1, 2, 10, 11, 12]
    kept = ENV['pairs'](10).shuffle(10).filter(lambda a: a % 2 == 0, ['a']).repeat(3)
    values = [int(r[0]) for r in kept.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert kept.get_dataset_size() == 15 and sorted(values) == sorted([0, 2, 4, 6, 8] * 3)


def test_padded_batch_callable_size_sees_the_epoch():
    seen = []

    def size(info):
        seen.append((info.get_epoch_num(), info.get_batch_num()))
        return 2
    d = ENV['nums'](3).padded_batch(size)
    for _ in range(2):
        assert [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True,
                                                               num_epochs=1)] == [[0, 1], [2]]
    assert (0, 0) in seen and (1, 1) in seen
    bad = ENV['nums'](3).padded_batch(lambda info: 0)
    with pytest.raises(RuntimeError, match="Invalid batch_size function: it returned 0"):
        list(bad.create_tuple_iterator(output_numpy=True))


def test_padded_batch_warns_after_repeat():
    with pytest.warns(UserWarning, match="Repeat is located before padded_batch"):
        ENV['nums'](3).repeat(2).padded_batch(2)


def test_save_round_trip_and_errors(tmp_path):
    path = str(tmp_path / 'rows.mindrecord')
    source = ENV['mixed'](3)
    source.save(path)
    back = ds.MindDataset(path, shuffle=False)
    assert back.get_col_names() == sorted(source.get_col_names())
    rows = list(back.create_dict_iterator(output_numpy=True))
    assert [r['v'].tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]
    assert [str(r['s']) for r in rows] == ['x', 'xx', 'xxx'] and rows[0]['v'].dtype == np.int32
    with pytest.raises(Exception, match="exist"):
        source.save(path)
    with pytest.raises(TypeError, match=re.escape("Argument file_name with value 3 is not of "
                                                  "type [<class 'str'>]")):
        source.save(3)
    grid = ds.NumpySlicesDataset({'g': np.array([['a', 'b'], ['c', 'd']])}, shuffle=False)
    with pytest.raises(RuntimeError, match="MindRecord only stores them as scalars"):
        grid.save(str(tmp_path / 'grid.mindrecord'))
    empty = ENV['nums'](3).filter(lambda a: False)
    with pytest.raises(RuntimeError, match="yields no rows to save"):
        empty.save(str(tmp_path / 'empty.mindrecord'))

    def wide():
        for i in range(2):
            yield (np.zeros((2, i + 1), np.float32),)
    with pytest.raises(RuntimeError, match="only the first dim may vary"):
        ds.GeneratorDataset(wide, ['m'], shuffle=False).save(str(tmp_path / 'w.mindrecord'))


@pytest.mark.parametrize('call', ['device_que()', 'parse()', 'pre_parse(False)',
                                  'post_parse(None)', 'parse_tree()', 'create_ir_tree()',
                                  'iterator_bootstrap()', 'pre_process(d)'])
def test_mindspore_internals_say_why_they_cannot_run(call):
    d = ENV['nums'](2)
    with pytest.raises(NotImplementedError, match="no device data queue|no C\\+\\+ IR tree"):
        eval('d.' + call, {'d': d})


def test_device_que_checks_its_arguments():
    with pytest.raises(TypeError, match=re.escape("Argument queue_name with value 1 is not of "
                                                  "type [<class 'str'>]")):
        ENV['nums'](2).device_que(queue_name=1)


def test_every_public_mindspore_dataset_method_exists():
    names = {'apply', 'bucket_batch_by_length', 'concat', 'filter', 'flat_map', 'padded_batch',
             'save', 'reset', 'get_class_indexing', 'get_repeat_count', 'is_shuffled',
             'is_sharded', 'get_init_step', 'set_init_step', 'copy_batch_size', 'device_que',
             'send', 'disable_sync', 'is_sync', 'get_sync_notifiers', 'input_indexs', 'parse',
             'pre_parse', 'post_parse', 'parse_tree', 'create_ir_tree', 'iterator_bootstrap',
             'recv', 'pre_process'}
    d = ENV['nums'](2)
    assert [n for n in sorted(names) if not hasattr(d, n)] == []
    assert isinstance(inspect.getattr_static(d, 'input_indexs'), property)
    assert issubclass(type(d), Dataset)


def test_disable_sync_lets_held_rows_pass():
    d = ENV['nums'](4).sync_wait('c', num_batch=1)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=1)
    assert int(next(it)[0]) == 0
    notify = d.get_sync_notifiers()['c']
    notify()                        # one more row may pass
    assert int(next(it)[0]) == 1
    d.disable_sync()
    assert [int(r[0]) for r in it] == [2, 3]


def test_recv_from_its_own_rank_reads_the_next_row():
    from hookgrad import communication as comm
    from hookgrad.mint import distributed as dist
    comm.release()
    dist.init_process_group()
    try:
        d = ENV['pairs'](2)
        first, second, third = d.recv(0), d.recv([0]), d.recv(src=0)
        assert [int(first[0]), float(first[1])] == [0, 0.0]
        assert [int(second[0]), float(second[1])] == [1, 10.0]
        assert int(third[0]) == 0          # epochs follow one another
        assert int(ENV['nums'](2).recv(0)) == 0     # one column comes back alone
        with pytest.raises(ValueError, match="Input element of src is not within"):
            d.recv(-1)
        with pytest.raises(TypeError, match="Argument tensor with value 3 is not of type"):
            d.send(3)
        with pytest.raises(TypeError, match="Argument group with value 1 is not of type"):
            d.send(dst=1, group=1)
    finally:
        dist.destroy_process_group()


TWO_RANKS = '''
    import json
    import numpy as np
    import hookgrad as ms
    from hookgrad import dataset as ds
    from hookgrad.mint import distributed as dist
    dist.init_process_group()
    r = dist.get_rank()
    d = ds.NumpySlicesDataset({'a': np.arange(3, dtype=np.int32) + 10 * r,
                               'b': np.ones((3, 2), np.float32) * r}, shuffle=False)
    out = {'rank': r}
    if r == 1:
        d.send(dst=0)
        d.send(ms.Tensor(np.array([7.5, 8.5], np.float32)), dst=[0])
    else:
        row = d.recv(1)
        out['row'] = [row[0].asnumpy().tolist(), row[1].asnumpy().tolist(), str(row[1].dtype)]
        out['tensor'] = d.recv(src=1).asnumpy().tolist()
        print('RESULT ' + json.dumps(out), flush=True)
    dist.destroy_process_group()
'''


@needs_mpi
def test_send_and_recv_on_two_ranks():
    code, out, err = run_ranks(TWO_RANKS, n=2, timeout=90)
    assert code == 0, err
    results = {r['rank']: r for r in (json.loads(line[7:]) for line in out.splitlines()
                                      if line.startswith('RESULT '))}
    assert list(results) == [0]
    assert results[0]['row'] == [10, [1.0, 1.0], 'Float32']
    assert results[0]['tensor'] == [7.5, 8.5]
