"""Write color_index_mindspore_values.json: MindSpore 2.10's ``ops.RGBToHSV``,
``ops.HSVToRGB`` and ``ops.UnravelIndex`` (CPU) on the inputs of this file, for
test_color_index_draw.py.

Run with a Python that has MindSpore 2.10 (CPU) installed, from outside the repository (so
``import mindspore`` finds MindSpore rather than hookgrad):
``python tests/ops/make_color_index_values.py [out.json]``.
"""
import json
import os
import sys

import numpy as np

# pixels (N, H, W, 3) with every hue sector, greys, black, white and an out-of-range hue
PIXELS = [[[[0.2, 0.5, 0.7], [0.9, 0.1, 0.3], [0.0, 0.0, 0.0]],
           [[1.0, 1.0, 0.5], [0.4, 0.4, 0.4], [0.05, 0.8, 0.2]]],
          [[[0.95, 0.6, 1.0], [0.5, 0.25, 0.75], [1.0, 0.0, 0.0]],
           [[0.3, 0.9, 0.9], [0.7, 0.2, 0.6], [0.55, 1.0, 0.25]]]]
UNRAVEL = [('int32_list', [5, 7, 0, 11], [3, 4], 'int32'),
           ('int64_scalar', 5, [3, 4], 'int64'),
           ('three_dims', [0, 13, 29, 17], [2, 3, 5], 'int64')]


def main():
    import mindspore as ms
    from mindspore import ops
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target='CPU')
    out = {}
    for dtype in ('float32', 'float64'):
        x = ms.Tensor(np.array(PIXELS, dtype))
        out[f'RGBToHSV/{dtype}'] = ops.RGBToHSV()(x).asnumpy().tolist()
        out[f'HSVToRGB/{dtype}'] = ops.HSVToRGB()(x).asnumpy().tolist()
    for name, indices, dims, dtype in UNRAVEL:
        y = ops.UnravelIndex()(ms.Tensor(np.array(indices, dtype)),
                               ms.Tensor(np.array(dims, dtype)))
        out[f'UnravelIndex/{name}'] = {'value': y.asnumpy().tolist(), 'dtype': str(y.dtype)}
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'color_index_mindspore_values.json')
    with open(path, 'w') as f:
        json.dump(out, f)
        f.write('\n')
    print(path)


if __name__ == '__main__':
    main()
