"""Records MindSpore 2.10's (CPU) results of the calls in ext_forms_inputs.py into
ext_forms_mindspore_values.json, read by test_ext_forms.py. ``inplace_index_add`` is recorded
as the Parameter it adds into, after the call. Run with a Python that has MindSpore 2.10 from
outside the repository: ``python tests/ops/make_ext_forms_values.py [out.json]``."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ext_forms_inputs import CALLS, INPUTS  # noqa: E402


def main():
    import mindspore as ms          # here: the test collection imports this file without it
    from mindspore import ops
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target='CPU')
    out = {}
    for name, source in CALLS.items():
        made = []

        def t(key):
            return ms.Tensor(INPUTS[key])

        def p(key):
            made.append(ms.Parameter(ms.Tensor(INPUTS[key]), name=key))
            return made[-1]

        result = eval(source, {'ops': ops, 't': t, 'p': p})
        if made:
            result = made[0]
        value = result.asnumpy()
        out[name] = {'value': np.where(np.isnan(value), None, value).tolist()
                     if value.dtype.kind == 'f' else value.tolist(),
                     'dtype': str(result.dtype), 'shape': list(value.shape)}
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'ext_forms_mindspore_values.json')
    with open(path, 'w') as f:
        f.write('{\n' + ',\n'.join(f'{json.dumps(k)}: {json.dumps(out[k])}' for k in sorted(out))
                + '\n}\n')
    print(path)


if __name__ == '__main__':
    main()
