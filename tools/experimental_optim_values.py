"""Write MindSpore 2.10's values for tests/compat/test_experimental_optim.py.

Run with MindSpore's interpreter, from the repository root:
    /tmp/msvenv/bin/python tools/experimental_optim_values.py
It writes tests/compat/experimental_optim_ms210.json from the cases of
tests/compat/experimental_optim_cases.py.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'compat'))

import mindspore  # noqa: E402
from mindspore.experimental import optim  # noqa: E402

import experimental_optim_cases as cases  # noqa: E402


def main():
    values = {'optimizers': cases.run_optimizers(mindspore, optim),
              'schedulers': cases.run_schedulers(mindspore, optim)}
    path = os.path.join(HERE, '..', 'tests', 'compat', 'experimental_optim_ms210.json')
    lines = [f'  {json.dumps(f"{part}/{case}")}: {json.dumps(value)}'
             for part, table in sorted(values.items()) for case, value in sorted(table.items())]
    with open(path, 'w') as f:
        f.write('{\n' + ',\n'.join(lines) + '\n}\n')     # one case a line, keyed part/case


if __name__ == '__main__':
    main()
