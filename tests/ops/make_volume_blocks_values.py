"""Write volume_blocks_mindspore_values.npz: MindSpore's 5-d resizing (``ops.interpolate``,
``mint.nn.functional.interpolate``, ``ops.UpsampleNearest3D``, ``ops.UpsampleTrilinear3D``)
and its blocks-into-batch moves (``ops.space_to_batch_nd``, ``ops.SpaceToBatchND``; its
SpaceToBatch has no CPU kernel): the outputs and the input gradients of ``sum(out * w)`` for a fixed
w, for the cases test_volume_blocks.py checks.

Run with a Python that has MindSpore 2.10 (CPU) installed, from outside the repository (so
``import mindspore`` finds MindSpore rather than hookgrad):
``python tests/ops/make_volume_blocks_values.py [out.npz]``.
"""
import os
import sys

import numpy as np

# (name, input shape, dtype, call, kwargs)
CASES = [
    ('nearest_size', (1, 2, 3, 4, 5), 'float32', 'interpolate',
     dict(size=(4, 6, 7), mode='nearest')),
    ('nearest_scale', (1, 2, 3, 4, 5), 'float32', 'interpolate',
     dict(scale_factor=(1.7, 0.6, 2.5), mode='nearest')),
    ('nearest_recompute', (1, 2, 3, 4, 5), 'float32', 'interpolate',
     dict(scale_factor=(1.7, 0.6, 2.5), mode='nearest', recompute_scale_factor=True)),
    ('trilinear_size', (2, 1, 3, 4, 5), 'float32', 'interpolate',
     dict(size=(5, 3, 8), mode='trilinear')),
    ('trilinear_corners', (1, 2, 3, 4, 5), 'float32', 'interpolate',
     dict(size=(5, 3, 8), mode='trilinear', align_corners=True)),
    ('trilinear_scale', (1, 2, 3, 4, 5), 'float32', 'interpolate',
     dict(scale_factor=(1.7, 0.6, 2.5), mode='trilinear')),
    ('trilinear_recompute', (1, 2, 3, 4, 5), 'float32', 'interpolate',
     dict(scale_factor=(1.7, 0.6, 2.5), mode='trilinear', recompute_scale_factor=True)),
    ('trilinear_f64', (1, 1, 4, 3, 5), 'float64', 'interpolate',
     dict(size=(2, 5, 3), mode='trilinear')),
    ('area', (1, 2, 4, 6, 5), 'float32', 'interpolate', dict(size=(2, 4, 3), mode='area')),
    ('mint_trilinear_scale', (1, 2, 3, 4, 5), 'float32', 'mint',
     dict(scale_factor=(1.7, 0.6, 2.5), mode='trilinear')),
    ('mint_nearest_size', (1, 1, 3, 4, 5), 'float32', 'mint', dict(size=(2, 7, 3))),
    ('prim_nearest_size', (1, 2, 3, 4, 5), 'float32', 'UpsampleNearest3D',
     dict(output_size=[4, 6, 7])),
    ('prim_nearest_scales', (1, 2, 3, 4, 5), 'float32', 'UpsampleNearest3D',
     dict(scales=[1.7, 0.6, 2.5])),
    ('prim_trilinear_scales', (1, 2, 3, 4, 5), 'float32', 'UpsampleTrilinear3D',
     dict(scales=[1.7, 0.6, 2.5])),
    ('prim_trilinear_corners', (1, 2, 3, 4, 5), 'float64', 'UpsampleTrilinear3D',
     dict(output_size=[5, 3, 8], align_corners=True)),
    ('s2b_nd', (1, 2, 4, 6), 'float32', 'space_to_batch_nd',
     dict(block_size=[2, 2], paddings=[[0, 0], [1, 1]])),
    ('s2b_nd_three', (2, 2, 4, 6), 'float32', 'space_to_batch_nd',
     dict(block_size=[2, 2, 3], paddings=[[0, 0], [1, 1], [0, 0]])),
    ('s2b_nd_one', (2, 3, 5), 'float64', 'space_to_batch_nd',
     dict(block_size=[3], paddings=[[2, 2]])),
    ('prim_s2b_nd', (1, 2, 3, 4), 'float32', 'SpaceToBatchND',
     dict(block_shape=[3, 2], paddings=[[1, 2], [0, 0]])),
]


def inputs(name, shape, dtype):
    """The input and the output weights' generator of a case (fixed by its name)."""
    rng = np.random.default_rng(sum(map(ord, name)))
    return rng.standard_normal(shape).astype(dtype), rng


def function(call, kwargs):
    """The case's call as a function of the input Tensor."""
    from mindspore import mint, ops
    kw = dict(kwargs)
    if call == 'interpolate':
        return lambda t: ops.interpolate(t, **kw)
    if call == 'mint':
        return lambda t: mint.nn.functional.interpolate(t, **kw)
    if call == 'space_to_batch_nd':
        return lambda t: ops.space_to_batch_nd(t, kw['block_size'], kw['paddings'])
    if call == 'SpaceToBatchND':
        return ops.SpaceToBatchND(kw['block_shape'], kw['paddings'])
    prim = getattr(ops, call)(**({'align_corners': kw.pop('align_corners')}
                                 if 'align_corners' in kw else {}))
    return lambda t: prim(t, kw.get('output_size'), kw.get('scales'))


def main():
    import mindspore as ms
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target='CPU')
    out = {}
    for name, shape, dtype, call, kwargs in CASES:
        x, rng = inputs(name, shape, dtype)
        f = function(call, kwargs)
        y = f(ms.Tensor(x))
        w = rng.standard_normal(y.shape).astype(dtype)
        grad = ms.grad(lambda t: (f(t) * ms.Tensor(w)).sum())(ms.Tensor(x))
        out[f'{name}/x'], out[f'{name}/w'] = x, w
        out[f'{name}/y'], out[f'{name}/grad'] = y.asnumpy(), grad.asnumpy()
        print(name, y.shape, y.dtype, grad.dtype)
    np.savez_compressed(sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'volume_blocks_mindspore_values.npz'), **out)


if __name__ == '__main__':
    main()
