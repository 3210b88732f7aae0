"""Record what MindSpore's dataset loaders read from tests/dataset/fixtures/<name>/.

Run with a Python that has MindSpore 2.10 installed, from outside the repository:

    python /path/to/tools/record_mindspore_datasets.py [name ...]

Each fixture folder's ``cases.json`` maps a case name to a constructor expression over ``ds``
(``mindspore.dataset``), ``D`` (the fixture folder) and ``np``; every case is read, from that
folder as the working directory, with ``create_tuple_iterator(output_numpy=True)`` and
``mindspore.npz`` receives, per case,
``<case>/names`` (the column names) and ``<case>/<row>/<column>`` (each value as read). A case
whose construction or reading raises records ``<case>/error`` (the exception's type name).
"""
import json
import os
import sys

import numpy as np
import mindspore.dataset as ds

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dataset',
                    'fixtures')


def record(folder):
    with open(os.path.join(folder, 'cases.json')) as f:
        cases = json.load(f)
    out = {}
    os.chdir(folder)                        # relative paths inside the files are read from here
    for case, expr in cases.items():
        try:
            dataset = eval(expr, {'ds': ds, 'D': folder, 'np': np})
            names = dataset.get_col_names()
            rows = list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))
        except Exception as e:              # the failure itself is what is recorded
            out[f'{case}/error'] = np.array(type(e).__name__)
            continue
        out[f'{case}/names'] = np.array(names)
        for i, row in enumerate(rows):
            for name, value in zip(names, row):
                out[f'{case}/{i}/{name}'] = value
    np.savez_compressed(os.path.join(folder, 'mindspore.npz'), **out)
    return len(cases)


def main(names):
    names = names or sorted(n for n in os.listdir(ROOT)
                            if os.path.isfile(os.path.join(ROOT, n, 'cases.json')))
    for name in names:
        print(name, record(os.path.join(ROOT, name)), 'cases')


if __name__ == '__main__':
    main(sys.argv[1:])
