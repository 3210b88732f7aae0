"""The inputs and calls of the pooling checks against MindSpore 2.10's recorded values: one
list shared by the recording script (run with MindSpore) and the test (run with hookgrad);
each call is text evaluated with ``ops`` bound to the framework's ops."""
import numpy as np

INPUTS = {
    'x1': ((np.arange(14) * 7) % 11).reshape(1, 2, 7).astype(np.float32),
    'x1even': ((np.arange(12) * 7) % 11).reshape(1, 2, 6).astype(np.float32),
    'x2': ((np.arange(2 * 5 * 7) * 7) % 13).reshape(1, 2, 5, 7).astype(np.float32),
    'x3': ((np.arange(2 * 4 * 5 * 6) * 7) % 17).reshape(1, 2, 4, 5, 6).astype(np.float32),
}

# name: (call, input)
CALLS = {
    'aap1d': ('lambda v: ops.adaptive_avg_pool1d(v, 3)', 'x1even'),
    'aap3d': ('lambda v: ops.adaptive_avg_pool3d(v, (3, 2, 4))', 'x3'),
    'aap3d_none': ('lambda v: ops.adaptive_avg_pool3d(v, (None, 2, 4))', 'x3'),
    'AdaptiveAvgPool3D': ('lambda v: ops.AdaptiveAvgPool3D((3, 2, 4))(v)', 'x3'),
    'amp1d': ('lambda v: ops.adaptive_max_pool1d(v, 3)', 'x1even'),
    'amp2d': ('lambda v: ops.adaptive_max_pool2d(v, (2, 3))', 'x2'),
    'amp2d_idx': ('lambda v: ops.adaptive_max_pool2d(v, (2, 3), True)', 'x2'),
    'amp2d_none': ('lambda v: ops.adaptive_max_pool2d(v, (None, 3))', 'x2'),
    'AdaptiveMaxPool2D': ('lambda v: ops.AdaptiveMaxPool2D((2, 3))(v)', 'x2'),
    'amp3d': ('lambda v: ops.adaptive_max_pool3d(v, (3, 2, 4))', 'x3'),
    'amp3d_idx': ('lambda v: ops.adaptive_max_pool3d(v, 2, True)', 'x3'),
    'AdaptiveMaxPool3D': ('lambda v: ops.AdaptiveMaxPool3D()(v, ops.tuple_to_array((3, 2, 4)))',
                          'x3'),
    'ap1d': ('lambda v: ops.avg_pool1d(v, 3, 2, 1)', 'x1'),
    'ap1d_ceil': ('lambda v: ops.avg_pool1d(v, 3, 2, 1, True, False)', 'x1'),
    'ap3d': ('lambda v: ops.avg_pool3d(v, 2, 1)', 'x3'),
    'ap3d_pad': ('lambda v: ops.avg_pool3d(v, (2, 3, 3), (2, 2, 1), 1, True, False)', 'x3'),
    'ap3d_div': ('lambda v: ops.avg_pool3d(v, 2, 2, 0, False, True, 3)', 'x3'),
    'AvgPool3D': ('lambda v: ops.AvgPool3D(2, 1)(v)', 'x3'),
    'AvgPool3D_same': ("lambda v: ops.AvgPool3D((2, 3, 3), 2, 'same')(v)", 'x3'),
    'AvgPool3D_pad': ("lambda v: ops.AvgPool3D(3, 2, 'pad', (1, 1, 0, 0, 1, 1), "
                      "count_include_pad=False)(v)", 'x3'),
    'mp3d': ('lambda v: ops.max_pool3d(v, 2, 1)', 'x3'),
    'mp3d_idx': ('lambda v: ops.max_pool3d(v, (2, 3, 2), (2, 1, 2), 1, 1, True, True)', 'x3'),
    'MaxPool3D': ('lambda v: ops.MaxPool3D(2, 1)(v)', 'x3'),
    'MaxPool3D_same': ("lambda v: ops.MaxPool3D(3, 2, 'SAME')(v)", 'x3'),
    'MaxPool3D_pad': ("lambda v: ops.MaxPool3D(3, 2, 'PAD', (1, 1, 0, 0, 1, 1), True)(v)", 'x3'),
}
