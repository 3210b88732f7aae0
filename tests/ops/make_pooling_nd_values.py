"""Records MindSpore 2.10's results of the 1-d, 3-d and adaptive pooling ops, and the input
gradients of ``(out[0] * w).sum()`` with ``w = arange(out.size) % 5 + 1``, into
pooling_nd_mindspore_values.json (read by test_pooling_nd.py). Run with MindSpore 2.10
installed: ``python tests/ops/make_pooling_nd_values.py``. The calls are listed in CALLS of
test_pooling_nd.py, as text, so both sides run the same ones."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pooling_nd_inputs import CALLS, INPUTS  # noqa: E402


def main():
    import mindspore as ms          # here: the test collection imports this file without it
    import mindspore.ops as ops
    values = {}
    for name, (source, which) in CALLS.items():
        fn = eval(source, {'ops': ops})

        def first(v):
            r = fn(v)
            return r[0] if isinstance(r, tuple) else r
        x = ms.Tensor(INPUTS[which])
        out = fn(x)
        outs = out if isinstance(out, tuple) else (out,)
        w = ms.Tensor((np.arange(outs[0].size).reshape(outs[0].shape) % 5 + 1).astype(np.float32))
        grad = ms.grad(lambda v: (first(v) * w).sum())(x)
        values[name] = {'outputs': [o.asnumpy().tolist() for o in outs],
                        'dtypes': [str(o.dtype) for o in outs],
                        'grad': grad.asnumpy().tolist()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'pooling_nd_mindspore_values.json')
    with open(path, 'w') as f:
        json.dump(values, f)


if __name__ == '__main__':
    main()
