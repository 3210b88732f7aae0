"""Write MindSpore 2.10's initial values for tests/nn/test_initializer_mindspore.py.

Run with MindSpore's interpreter, from the repository root:
    /tmp/msvenv/bin/python tools/initializer_values.py
It writes tests/nn/initializer_values_ms210.json from the cases of tests/nn/initializer_cases.py,
with MindSpore's own C++ random fills (``mindspore._c_expression``) for the raw streams.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'nn'))

import mindspore  # noqa: E402
from mindspore import nn  # noqa: E402
from mindspore.common import initializer  # noqa: E402
from mindspore._c_expression import _random_normal, _random_uniform, _truncated_normal  # noqa: E402

import initializer_cases as cases  # noqa: E402


def _filled(fill):
    def draw(seed, shape, *args):
        arr = np.zeros(shape, np.float32)
        fill(seed, arr, *args)
        return arr
    return draw


def main():
    fills = (_filled(_random_uniform), _filled(_random_normal),
             lambda seed, shape, a, b, mean, sigma: _filled(_truncated_normal)(
                 seed, shape, a, b, mean, sigma))
    values = cases.run(mindspore, nn, initializer, fills)
    path = os.path.join(HERE, '..', 'tests', 'nn', 'initializer_values_ms210.json')
    lines = [f'  {json.dumps(k)}: {json.dumps(v)}' for k, v in sorted(values.items())]
    with open(path, 'w') as f:
        f.write('{\n' + ',\n'.join(lines) + '\n}\n')


if __name__ == '__main__':
    main()
