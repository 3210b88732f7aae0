"""serialize / deserialize / show / compare: MindSpore's JSON description of a pipeline."""
import json
import logging
import os

import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds
import hookgrad.dataset.transforms as T
import hookgrad.dataset.vision as V

MNIST = os.path.join(os.path.dirname(__file__), 'fixtures', 'fashion_mnist')


def _pipeline():
    data = ds.MnistDataset(MNIST, num_samples=3, shuffle=False)
    data = data.map(operations=T.OneHot(10), input_columns='label')
    return (data.shuffle(4).repeat(2).batch(2, drop_remainder=True).take(3).skip(1)
            .project(['label', 'image']).rename(['label'], ['l']))


def _strip(node):
    """The keys both MindSpore and hookgrad write with the same meaning."""
    keep = {k: v for k, v in node.items()
            if k not in ('children', 'num_parallel_workers', 'usage', 'cache', 'sampler')}
    keep['children'] = [_strip(c) for c in node['children']]
    return keep


def test_json_matches_mindspore_for_the_operations():
    got = _strip(ds.serialize(_pipeline()))
    # MindSpore 2.10's serialize of the same pipeline, less the reader's own fields
    mnist = {'children': [], 'connector_queue_size': 16, 'dataset_dir': MNIST,
             'op_type': 'MnistDataset'}
    mapped = {'callback': [], 'children': [mnist], 'connector_queue_size': 16,
              'input_columns': ['label'], 'op_type': 'Map',
              'operations': [{'tensor_op_name': 'OneHot',
                              'tensor_op_params': {'num_classes': 10, 'smoothing_rate': 0.0}}],
              'output_columns': ['label']}
    shuffled = {'buffer_size': 4, 'children': [mapped], 'op_type': 'Shuffle',
                'reset_each_epoch': True}
    repeated = {'children': [shuffled], 'count': 2, 'op_type': 'Repeat'}
    batched = {'batch_size': 2, 'children': [repeated], 'connector_queue_size': 16,
               'drop_remainder': True, 'input_columns': [], 'op_type': 'Batch',
               'output_columns': []}
    taken = {'children': [batched], 'count': 3, 'op_type': 'Take'}
    skipped = {'children': [taken], 'count': 1, 'op_type': 'Skip'}
    projected = {'children': [skipped], 'columns': ['label', 'image'], 'op_type': 'Project'}
    assert got == {'children': [projected], 'input_columns': ['label'], 'op_type': 'Rename',
                   'output_columns': ['l']}
    sampler = ds.serialize(_pipeline())
    while sampler['children']:
        sampler = sampler['children'][0]
    assert sampler['sampler'] == {'sampler_name': 'SequentialSampler', 'start_index': 0,
                                  'num_samples': 3}


def test_round_trip_gives_the_same_rows(tmp_path):
    path = str(tmp_path / 'pipeline.json')
    original = _pipeline()
    ds.serialize(original, json_filepath=path)
    with open(path) as f:
        assert json.load(f) == ds.serialize(original)
    for rebuilt in (ds.deserialize(json_filepath=path),
                    ds.deserialize(input_dict=ds.serialize(original))):
        assert ds.compare(original, rebuilt)
        ms.set_seed(2)
        a = [[x.tolist() for x in r] for r in original.create_tuple_iterator(output_numpy=True)]
        ms.set_seed(2)
        b = [[x.tolist() for x in r] for r in rebuilt.create_tuple_iterator(output_numpy=True)]
        assert a == b and len(a) == 2
    assert ds.deserialize() is None


def test_round_trip_of_samplers_zip_enums_and_schema():
    schema = ds.Schema()
    schema.add_column('image', de_type=ms.uint8, shape=[4, 4, 3])
    left = ds.RandomDataset(total_rows=4, schema=schema, num_shards=2, shard_id=1)
    left = left.map(V.Resize((2, 2), V.Inter.NEAREST), input_columns='image')
    right = ds.MnistDataset(MNIST, sampler=ds.WeightedRandomSampler([1, 2], 2, False))
    right = right.rename(['image'], ['digit'])
    data = ds.zip((left, right))
    rebuilt = ds.deserialize(input_dict=ds.serialize(data))
    assert ds.compare(data, rebuilt)
    assert rebuilt.get_col_names() == ['image', 'digit', 'label']
    assert [r[0].shape for r in rebuilt.create_tuple_iterator(output_numpy=True)] == \
        [(2, 2, 3)] * 2
    resize = rebuilt.children[0].operations[0]
    assert resize.size == [2, 2] and resize.interpolation is V.Inter.NEAREST
    sampler = rebuilt.children[1].children[0]._sampler
    assert type(sampler).__name__ == 'WeightedRandomSampler' and sampler.replacement is False
    assert rebuilt.children[0].children[0]._sampler.shard_id == 1


def test_compare_tells_pipelines_apart():
    a = ds.MnistDataset(MNIST, shuffle=False)
    assert ds.compare(a.batch(2), ds.MnistDataset(MNIST, shuffle=False).batch(2))
    assert not ds.compare(a.batch(2), a.batch(3))


def test_python_code_is_named_and_refused_by_deserialize():
    data = ds.NumpySlicesDataset([1, 2]).map(lambda x: x)
    desc = ds.serialize(data)
    assert desc['operations'] == [{'python_module': __name__, 'tensor_op_name': '<lambda>'}]
    assert desc['children'][0]['op_type'] == 'NumpySlicesDataset'
    with pytest.raises(ValueError, match="a map operation holds Python code or data"):
        ds.deserialize(input_dict=desc)
    with pytest.raises(ValueError, match="the source GeneratorDataset holds Python code"):
        ds.deserialize(input_dict=ds.serialize(ds.GeneratorDataset(lambda: iter([1]), 'x')))
    plain = ds.NumpySlicesDataset({'x': np.arange(3)}, shuffle=False)      # data as JSON
    assert [int(x) for (x,) in ds.deserialize(input_dict=ds.serialize(plain))
            .create_tuple_iterator(output_numpy=True)] == [0, 1, 2]
    with pytest.raises(ValueError, match="unknown op_type 'Nope'"):
        ds.deserialize(input_dict={'op_type': 'Nope', 'children': []})
    with pytest.raises(TypeError, match="dataset must be a Dataset, got list"):
        ds.serialize([1])


def test_show_logs_the_json(caplog):
    with caplog.at_level(logging.INFO, logger='hookgrad.dataset'):
        ds.show(ds.MnistDataset(MNIST).take(1), indentation=None)
    assert json.loads(caplog.records[-1].getMessage())['op_type'] == 'Take'
    with pytest.raises(TypeError, match="indentation must be an int or None"):
        ds.show(ds.MnistDataset(MNIST), indentation='2')
    assert ds.MnistDataset(MNIST).to_json()['op_type'] == 'MnistDataset'
