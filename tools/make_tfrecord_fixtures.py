"""Write the small TFRecord files of tests/dataset/fixtures/tfrecord/ (tf.train.Example records,
written with hookgrad's own protobuf schema of Example, since TensorFlow is not needed).

    python tools/make_tfrecord_fixtures.py

``data0.tfrecord`` holds rows 0-2 and ``data1.tfrecord`` rows 3-4 of: ``image`` (bytes, 6 per
row), ``label`` (one int64), ``vec`` (3 float32), ``ids`` (4 int64, a (2, 2) column with a
schema) and ``name`` (one string). ``schema.json`` is MindSpore's schema file for them.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from hookgrad.dataset.tfrecord_format import encode_example, write_records  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', 'tests', 'dataset', 'fixtures', 'tfrecord')


def rows():
    for i in range(5):
        yield {'image': np.array([bytes(range(10 * i, 10 * i + 6))], dtype=object),
               'label': np.array([i * 7 - 3], np.int64),
               'vec': np.array([i, i + 0.5, -i * 0.25], np.float32),
               'ids': np.arange(4, dtype=np.int64) + 100 * i,
               'name': np.array([f'row{i}']),
               }


def main():
    os.makedirs(OUT, exist_ok=True)
    data = [encode_example(r) for r in rows()]
    write_records(os.path.join(OUT, 'data0.tfrecord'), data[:3])
    write_records(os.path.join(OUT, 'data1.tfrecord'), data[3:])
    schema = {'columns': {'label': {'type': 'int64', 'rank': 1, 'shape': [1]},
                          'vec': {'type': 'float32', 'rank': 1, 'shape': [3]},
                          'ids': {'type': 'int64', 'rank': 2, 'shape': [2, 2]},
                          'name': {'type': 'string', 'rank': 1, 'shape': [1]},
                          'image': {'type': 'uint8', 'rank': 1}}}
    with open(os.path.join(OUT, 'schema.json'), 'w') as f:
        json.dump(schema, f, indent=2)
        f.write('\n')


if __name__ == '__main__':
    main()
