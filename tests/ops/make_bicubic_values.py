"""Write bicubic_mindspore_values.npz: MindSpore's bicubic resizing (``ops.interpolate`` with
mode='bicubic' and ``ops.ResizeBicubic``), its outputs and the input gradients of
``sum(out * w)`` for a fixed w, for the cases test_resize_bicubic.py checks.

Run with a Python that has MindSpore 2.10 (CPU) installed, from outside the repository (so
``import mindspore`` finds MindSpore rather than hookgrad):
``python tests/ops/make_bicubic_values.py``.
"""
import os
import sys

import numpy as np

# (name, input shape, dtype, call, kwargs): call 'interpolate' is ops.interpolate(x, **kwargs)
# with mode='bicubic'; 'ResizeBicubic' is ops.ResizeBicubic(align_corners, half_pixel_centers)
CASES = [
    ('size_up', (1, 1, 4, 5), 'float32', 'interpolate', dict(size=(6, 7))),
    ('size_up_corners', (1, 1, 4, 5), 'float32', 'interpolate',
     dict(size=(6, 7), align_corners=True)),
    ('scale_2', (2, 3, 5, 7), 'float32', 'interpolate',
     dict(scale_factor=2.0, recompute_scale_factor=True)),
    ('scale_1_5_corners', (1, 2, 5, 7), 'float32', 'interpolate',
     dict(scale_factor=1.5, recompute_scale_factor=True, align_corners=True)),
    ('scale_0_6', (1, 1, 6, 9), 'float32', 'interpolate',
     dict(scale_factor=0.6, recompute_scale_factor=True)),
    ('scale_0_6_corners', (1, 1, 6, 9), 'float32', 'interpolate',
     dict(scale_factor=0.6, recompute_scale_factor=True, align_corners=True)),
    ('down_and_up', (1, 2, 7, 5), 'float32', 'interpolate', dict(size=(3, 8))),
    ('down_and_up_corners', (1, 2, 7, 5), 'float32', 'interpolate',
     dict(size=(3, 8), align_corners=True)),
    ('one_axis_kept', (1, 1, 4, 5), 'float32', 'interpolate', dict(size=(4, 8))),
    ('to_one', (1, 1, 3, 4), 'float32', 'interpolate', dict(size=(1, 2))),
    ('to_one_corners', (1, 1, 3, 4), 'float32', 'interpolate',
     dict(size=(1, 2), align_corners=True)),
    ('shrink_much', (1, 1, 11, 13), 'float32', 'interpolate', dict(size=(3, 2))),
    # steps of exactly 1/2 pixel: MindSpore's table is exact there, so these are also the
    # values of UpsampleBicubic2D with align_corners
    ('half_steps_corners', (1, 2, 5, 4), 'float32', 'interpolate',
     dict(size=(9, 7), align_corners=True)),
    ('size_up_f64', (1, 1, 4, 5), 'float64', 'interpolate', dict(size=(6, 7))),
    ('down_corners_f64', (2, 1, 6, 9), 'float64', 'interpolate',
     dict(size=(4, 5), align_corners=True)),
    ('prim_legacy', (1, 1, 4, 5), 'float32', 'ResizeBicubic', dict(size=(6, 7))),
    ('prim_legacy_down', (1, 2, 5, 6), 'float32', 'ResizeBicubic', dict(size=(3, 4))),
    ('prim_half_pixel', (1, 1, 4, 5), 'float32', 'ResizeBicubic',
     dict(size=(7, 3), half_pixel_centers=True)),
    ('prim_corners_f64', (1, 1, 4, 5), 'float64', 'ResizeBicubic',
     dict(size=(7, 3), align_corners=True)),
]


def inputs(name, shape, dtype):
    """The input and the output weights of a case (fixed by its name)."""
    rng = np.random.default_rng(sum(map(ord, name)))
    return rng.standard_normal(shape).astype(dtype), rng


def main():
    import mindspore as ms
    from mindspore import ops
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target='CPU')
    out = {}
    for name, shape, dtype, call, kwargs in CASES:
        x, rng = inputs(name, shape, dtype)
        if call == 'interpolate':
            def f(t):
                return ops.interpolate(t, mode='bicubic', **kwargs)
        else:
            flags = {k: v for k, v in kwargs.items() if k != 'size'}
            prim = ops.ResizeBicubic(**flags)

            def f(t):
                return prim(t, kwargs['size'])
        y = f(ms.Tensor(x))
        w = rng.standard_normal(y.shape).astype(dtype)
        grad = ms.grad(lambda t: (f(t) * ms.Tensor(w)).sum())(ms.Tensor(x))
        out[f'{name}/x'], out[f'{name}/w'] = x, w
        out[f'{name}/y'], out[f'{name}/grad'] = y.asnumpy(), grad.asnumpy()
        print(name, y.shape, y.dtype, grad.dtype)
    np.savez_compressed(sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'bicubic_mindspore_values.npz'), **out)


if __name__ == '__main__':
    main()
