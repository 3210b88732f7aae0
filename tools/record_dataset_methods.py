"""Record what MindSpore 2.10 yields for small pipelines using ``filter``, ``concat`` (and
``+``), ``padded_batch``, ``bucket_batch_by_length``, ``flat_map`` and ``apply``.

Run with a Python that has MindSpore 2.10 installed, from outside the repository:

    python /path/to/tools/record_dataset_methods.py

``tests/dataset/fixtures/dataset_methods.json`` receives ``prelude`` (Python source defining
helpers over ``ds`` and ``np``), ``cases`` (``{name: expression}``, evaluated after the
prelude), ``queries`` and their ``answers`` (expressions giving plain values: repeat counts,
``is_shuffled``, init steps...) and ``results``: per case the column names, ``get_dataset_size()`` and the rows read
with ``create_tuple_iterator(output_numpy=True)`` (each value as dtype, shape and nested list),
or the error's type name and message when building or reading raises. The same file is read by
tests/dataset/test_dataset_methods.py, which evaluates the same expressions with
``hookgrad.dataset`` as ``ds``.
"""
import json
import os
import re
import sys

import numpy as np
import mindspore.dataset as ds

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests',
                                'dataset'))
import method_runs  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                   'fixtures', 'dataset_methods.json')

PRELUDE = '''
import os
def ragged(n, start=0):
    def gen():
        for i in range(start, start + n):
            yield (np.arange(i % 4 + 1, dtype=np.int32) + i, np.array(i, dtype=np.int64))
    return ds.GeneratorDataset(gen, ['x', 'i'], shuffle=False)

def ragged2d():
    def gen():
        for i in range(5):
            yield (np.full((i % 3 + 1, 2), i, dtype=np.float32),)
    return ds.GeneratorDataset(gen, ['m'], shuffle=False)

def doc_bucket():
    def gen():
        for i in range(8):
            yield (np.array([i]), np.array([j for j in range(i + 1)]))
    return ds.GeneratorDataset(gen, ['col1', 'col2'], shuffle=False)

def nums(n, start=0, name='a'):
    return ds.NumpySlicesDataset({name: np.arange(start, start + n, dtype=np.int64)},
                                 shuffle=False)

def pairs(n):
    return ds.NumpySlicesDataset({'a': np.arange(n, dtype=np.int32),
                                  'b': np.arange(n, dtype=np.float32) * 10}, shuffle=False)

def two_ragged():
    def gen():
        for i in range(4):
            yield (np.arange(i + 1, dtype=np.int32), np.arange(i % 2 + 1, dtype=np.int32))
    return ds.GeneratorDataset(gen, ['p', 'q'], shuffle=False)

def mixed(n):
    return ds.NumpySlicesDataset({'u8': np.arange(n, dtype=np.uint8),
                                  'b': np.arange(n) % 2 == 0,
                                  'u32': np.arange(n, dtype=np.uint32),
                                  'h': np.arange(n, dtype=np.float16) / 2,
                                  'd': np.arange(n, dtype=np.float64) / 4,
                                  'v': np.arange(2 * n, dtype=np.int16).reshape(n, 2),
                                  's': np.array(['x' * (i + 1) for i in range(n)])},
                                 shuffle=False)

def saved(d, num_files=1, file_type='mindrecord'):
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), 'saved.mindrecord')
    d.save(path, num_files, file_type)
    first = path if num_files == 1 else path + '0'
    return ds.MindDataset(first, shuffle=False)

def init_step_epochs(step, n=4, num_epochs=3, batch=None):
    d = nums(n) if batch is None else nums(n).batch(batch)
    d.set_init_step(step)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=num_epochs)
    out = []
    for _ in range(num_epochs):
        try:
            out.append([r[0].tolist() for r in it])
        except RuntimeError:
            out.append('error')
    return out

def init_steps():
    d = nums(6)
    first = d.get_init_step()
    d.set_init_step(5)
    return [first, d.get_init_step(), d.batch(2).get_init_step(), (d + nums(2)).get_init_step()]

def input_indexs():
    d = nums(6)
    first = d.input_indexs
    d.input_indexs = (1, 0)
    return [list(first), list(d.input_indexs), list(d.batch(2).input_indexs),
            list((nums(2) + d).input_indexs)]

def copied_batch_sizes():
    b = nums(6).batch(2)
    b.copy_batch_size(7)
    d = nums(6)
    d.copy_batch_size(3)
    return [b.get_batch_size(), d.get_batch_size(), d.batch(2).get_batch_size()]

def words():
    return ds.NumpySlicesDataset({'w': np.array(['a', 'bb', 'ccc', 'dd', 'e'])},
                                 shuffle=False)
'''

CASES = {
    # filter
    'filter_col': "pairs(10).filter(lambda a: a % 3 == 0, input_columns=['a'])",
    'filter_str_col': "pairs(10).filter(lambda b: b > 45, input_columns='b')",
    'filter_all_cols': "pairs(6).filter(lambda a, b: a + b > 30)",
    'filter_none': "pairs(4).filter(lambda a: False, input_columns=['a'])",
    'filter_batch': "pairs(10).filter(lambda a: a % 2 == 1, ['a']).batch(2)",
    'filter_repeat': "pairs(5).repeat(2).filter(lambda a: a >= 3, ['a'])",
    'filter_np_result': "pairs(5).filter(lambda a: np.array(a < 2), ['a'])",
    'filter_int_result': "pairs(5).filter(lambda a: int(a) % 2, ['a'])",
    'filter_bad_predicate': "pairs(3).filter(5)",
    'filter_bad_column': "pairs(3).filter(lambda z: True, input_columns=['z'])",
    'filter_bad_workers': "pairs(3).filter(lambda a: True, ['a'], num_parallel_workers=0)",
    'filter_too_many_args': "pairs(3).filter(lambda a: True)",
    'filter_shuffle_size': "pairs(8).shuffle(4).filter(lambda a: a < 5, ['a']).project('a')"
                           ".batch(8).map(lambda a: np.sort(a), ['a'])",
    # concat and +
    'concat_plus': "nums(3) + nums(2, 10)",
    'concat_list': "nums(2).concat([nums(2, 10), nums(1, 20)])",
    'concat_one': "nums(2).concat(nums(3, 5))",
    'concat_repeat_inside': "nums(2).repeat(2) + nums(1, 9)",
    'concat_then_repeat': "(nums(2) + nums(1, 9)).repeat(2)",
    'concat_then_batch': "(nums(3) + nums(3, 10)).batch(2)",
    'concat_take': "(nums(3) + nums(3, 10)).take(4)",
    'concat_generator': "ragged(2).project('i') + ragged(2, 5).project('i')",
    'concat_bad_type': "nums(2).concat(5)",
    'concat_bad_list': "nums(2).concat([nums(1), 5])",
    'concat_plus_bad': "nums(2) + 5",
    'concat_empty': "nums(2) + nums(3).filter(lambda a: False, ['a']).take(1).skip(1)",
    'concat_names_differ': "nums(2) + nums(2, name='b')",
    # padded_batch
    'padded_default': "ragged(6).padded_batch(2, pad_info={})",
    'padded_shape_value': "ragged(5).padded_batch(2, pad_info={'x': ([6], -1)})",
    'padded_none_shape': "ragged(5).padded_batch(3, pad_info={'x': (None, 100)})",
    'padded_none_dim': "ragged2d().padded_batch(2, pad_info={'m': ([None, 3], 7.5)})",
    'padded_drop': "ragged(5).padded_batch(2, drop_remainder=True, pad_info={})",
    'padded_callable': "ragged(6).padded_batch(lambda info: info.get_batch_num() + 1, "
                       "pad_info={})",
    'padded_no_pad_info': "ragged(4).padded_batch(2)",
    'padded_equal_no_pad_info': "pairs(5).padded_batch(2)",
    'padded_too_small': "ragged(4).padded_batch(2, pad_info={'x': ([2], 0)})",
    'padded_unknown_column': "ragged(4).padded_batch(2, pad_info={'y': ([2], 0)})",
    'padded_partial': "two_ragged().padded_batch(2, pad_info={'p': (None, -1)})",
    'padded_partial_both': "two_ragged().padded_batch(2, pad_info={'p': (None, -1), "
                           "'q': ([3], 5)})",
    'padded_float_value_int': "ragged(3).padded_batch(3, pad_info={'x': (None, 2.7)})",
    'padded_value_none': "ragged(3).padded_batch(3, pad_info={'x': ([5], None)})",
    'padded_string': "words().padded_batch(2, pad_info={})",
    'padded_bad_size': "ragged(4).padded_batch(0)",
    'padded_bad_pad_info': "ragged(4).padded_batch(2, pad_info=[1])",
    'padded_bad_value': "ragged(4).padded_batch(2, pad_info={'x': ([2], [0])})",
    'padded_bad_tuple': "ragged(4).padded_batch(2, pad_info={'x': ([2], 0, 1)})",
    'padded_bad_shape': "ragged(4).padded_batch(2, pad_info={'x': ((2,), 0)})",
    'padded_bad_dim': "ragged(4).padded_batch(2, pad_info={'x': ([0], 0)})",
    'padded_bad_drop': "ragged(4).padded_batch(2, drop_remainder=1)",
    'padded_bad_callable': "ragged(4).padded_batch(lambda a, b: 1)",
    'padded_repeat': "ragged(3).padded_batch(2, pad_info={}).repeat(2)",
    # bucket_batch_by_length
    'bucket_doc': "doc_bucket().bucket_batch_by_length(['col1', 'col2'], [5, 10], [2, 1, 1], "
                  "lambda col1, col2: max(len(col1), len(col2)), {'col2': ([None], -1)}, True)",
    'bucket_default_len': "ragged(8).bucket_batch_by_length(['x'], [2, 3], [2, 3, 2])",
    'bucket_drop': "ragged(8).bucket_batch_by_length(['x'], [2, 3], [2, 3, 2], "
                   "drop_remainder=True)",
    'bucket_pad_info': "ragged(8).bucket_batch_by_length(['x'], [3], [3, 2], "
                       "pad_info={'x': ([5], -2)})",
    'bucket_pad_none_shape': "ragged(8).bucket_batch_by_length(['x'], [3], [3, 2], "
                             "pad_info={'x': (None, 9)})",
    'bucket_len_fn': "pairs(7).bucket_batch_by_length(['a'], [2, 4], [2, 2, 2], "
                     "lambda a: int(a))",
    'bucket_scalar_len': "pairs(5).bucket_batch_by_length(['a'], [1], [2, 3])",
    'bucket_boundary_last': "ragged(4).bucket_batch_by_length(['x'], [2], [2, 2], "
                            "pad_info={'x': ([None], 0)}, pad_to_bucket_boundary=True)",
    'bucket_bad_names': "ragged(4).bucket_batch_by_length('x', [2], [2, 2])",
    'bucket_two_names': "ragged(4).bucket_batch_by_length(['x', 'i'], [2], [2, 2])",
    'bucket_empty_bounds': "ragged(4).bucket_batch_by_length(['x'], [], [2])",
    'bucket_float_bounds': "ragged(4).bucket_batch_by_length(['x'], [2.0], [2, 2])",
    'bucket_zero_bound': "ragged(4).bucket_batch_by_length(['x'], [0, 2], [2, 2, 2])",
    'bucket_not_increasing': "ragged(4).bucket_batch_by_length(['x'], [3, 3], [2, 2, 2])",
    'bucket_sizes_len': "ragged(4).bucket_batch_by_length(['x'], [2], [2])",
    'bucket_sizes_float': "ragged(4).bucket_batch_by_length(['x'], [2], [2, 2.0])",
    'bucket_sizes_zero': "ragged(4).bucket_batch_by_length(['x'], [2], [2, 0])",
    'bucket_bad_fn': "ragged(4).bucket_batch_by_length(['x'], [2], [2, 2], 5)",
    'bucket_bad_bool': "ragged(4).bucket_batch_by_length(['x'], [2], [2, 2], "
                       "drop_remainder=1)",
    'bucket_unknown_column': "ragged(4).bucket_batch_by_length(['z'], [2], [2, 2])",
    'bucket_len_negative': "pairs(3).bucket_batch_by_length(['a'], [2], [2, 2], "
                           "lambda a: -1)",
    # save, read back with MindDataset
    'save_mixed': "saved(mixed(4))",
    'save_ragged': "saved(ragged(5))",
    'save_two_files': "saved(nums(5), 2)",
    'save_bad_num_files': "saved(nums(2), 0)",
    'save_bad_num_files_type': "saved(nums(2), '1')",
    'save_bad_type': "saved(nums(2), 1, 'tfrecord')",
    # flat_map and apply
    'flat_map': "nums(3).flat_map(lambda a: ds.NumpySlicesDataset([int(a)] * (int(a) + 1), "
                "shuffle=False))",
    'flat_map_bad_func': "nums(3).flat_map(5)",
    'flat_map_bad_result': "nums(3).flat_map(lambda a: a)",
    'apply': "nums(5).apply(lambda d: d.batch(2))",
    'apply_bad_func': "nums(5).apply(5)",
    'apply_bad_result': "nums(5).apply(lambda d: 3)",
}

# expressions giving plain values (lists of ints, bools, strings...)
QUERIES = {
    'repeat_counts': "[nums(6).get_repeat_count(), nums(6).repeat(3).get_repeat_count(), "
                     "nums(6).repeat(3).batch(2).get_repeat_count(), "
                     "nums(6).repeat(2).repeat(3).get_repeat_count(), "
                     "nums(6).batch(2).repeat(4).take(2).get_repeat_count(), "
                     "nums(6).repeat().get_repeat_count(), nums(6).filter(lambda a: True)"
                     ".repeat(2).padded_batch(2).get_repeat_count()]",
    'shuffled': "[ds.NumpySlicesDataset({'a': np.arange(6)}).is_shuffled(), "
                "nums(6).is_shuffled(), nums(6).shuffle(3).is_shuffled(), "
                "nums(6).shuffle(3).batch(2).is_shuffled(), "
                "ds.NumpySlicesDataset({'a': np.arange(6)}, sampler=ds.RandomSampler())"
                ".is_shuffled(), "
                "ds.NumpySlicesDataset({'a': np.arange(6)}, sampler=ds.SequentialSampler())"
                ".is_shuffled(), "
                "ds.NumpySlicesDataset({'a': np.arange(6)}, sampler=ds.SubsetRandomSampler("
                "[0, 1])).is_shuffled(), "
                "ds.NumpySlicesDataset({'a': np.arange(6)}, sampler=ds.DistributedSampler(2, 0))"
                ".is_shuffled(), "
                "ds.NumpySlicesDataset({'a': np.arange(6)}, sampler=ds.DistributedSampler("
                "2, 0, shuffle=False)).is_shuffled(), "
                "(nums(2) + nums(2).shuffle(2)).is_shuffled(), "
                "ragged(3).is_shuffled()]",
    'sharded': "[nums(6).is_sharded(), ds.NumpySlicesDataset({'a': np.arange(6)}, "
               "num_shards=2, shard_id=0, shuffle=False).is_sharded(), "
               "ds.NumpySlicesDataset({'a': np.arange(6)}, sampler=ds.DistributedSampler(2, 0))"
               ".batch(2).is_sharded(), "
               "(nums(2) + ds.NumpySlicesDataset({'a': np.arange(6)}, num_shards=2, "
               "shard_id=1)).is_sharded()]",
    'class_indexing': "[nums(2).get_class_indexing(), nums(2).batch(2).get_class_indexing()]",
    'init_step_epochs': "[init_step_epochs(2, 6, 1), init_step_epochs(1, 6, 1, batch=2), "
                        "init_step_epochs(5), init_step_epochs(6, 4, 3), "
                        "init_step_epochs(4, 4, 3), "
                        "init_step_epochs(0, 3, 2)]",
    'init_steps': "init_steps()",
    'input_indexs': "input_indexs()",
    'copied_batch_sizes': "copied_batch_sizes()",
    'sync': "[nums(2).is_sync(), nums(2).sync_wait('c').is_sync(), "
            "nums(2).sync_wait('c').batch(2).is_sync(), "
            "sorted(nums(2).sync_wait('c').sync_wait('d').get_sync_notifiers()), "
            "nums(2).get_sync_notifiers(), nums(2).disable_sync(), nums(2).reset(), "
            "ds.zip((nums(2), nums(2, name='b').sync_wait('c'))).is_sync()]",
    'batch_sizes': "[nums(6).padded_batch(3).get_batch_size(), "
                   "nums(6).padded_batch(lambda i: 2).get_batch_size(), "
                   "nums(6).bucket_batch_by_length(['a'], [1], [2, 2]).get_batch_size(), "
                   "nums(6).filter(lambda a: True).get_batch_size(), "
                   "(nums(2) + nums(2)).batch(2).get_batch_size()]",
}


def message(error):
    """The first line of the error, or the ``[ERROR]`` line of a pipeline error."""
    text = str(error)
    found = re.search(r'\[ERROR\] (.*)', text)
    return found.group(1) if found else text.split('\n')[0]


def run(expr, env):
    return method_runs.run(expr, env, message)


def main():
    env = {'ds': ds, 'np': np}
    exec(PRELUDE, env)
    results = {name: run(expr, env) for name, expr in CASES.items()}
    answers = {name: eval(expr, env) for name, expr in QUERIES.items()}
    with open(OUT, 'w') as f:
        json.dump({'prelude': PRELUDE, 'cases': CASES, 'results': results, 'queries': QUERIES,
                   'answers': answers}, f, indent=0)
        f.write('\n')
    print(answers)
    for name, r in results.items():
        print(name, r.get('error', ''), r.get('stage', ''), r.get('message', r.get('size')))


if __name__ == '__main__':
    main()
