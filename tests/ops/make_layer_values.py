"""Records MindSpore 2.10's CPU outputs of the layer functions of ``ops`` (feature_maps.py,
layer_forms.py, operations/_functional_forms.py) for fixed inputs, into
layer_mindspore_values.npz beside this file.

Run with a MindSpore environment, from outside the checkout:
``cd /tmp && python /path/to/tests/ops/make_layer_values.py``.
"""
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'layer_mindspore_values.npz')


def inputs():
    """The fixed inputs, by name (float32)."""
    rng = np.random.default_rng(20)
    x = rng.standard_normal((2, 8, 4, 6)).astype(np.float32)
    nan = rng.standard_normal((3, 5)).astype(np.float32)
    nan[0, 1] = nan[1, :4] = nan[2, :] = np.nan
    return {
        'x': x,
        'x1': rng.standard_normal((2, 3, 9)).astype(np.float32),
        'pos': np.abs(x) + 0.1,
        'small': rng.standard_normal((1, 2, 3, 3)).astype(np.float32),
        'anchors': np.array([[0, 0, 4, 4], [1, 2, 6, 5], [2, 1, 3, 8]], np.float32),
        'gts': np.array([[1, 1, 5, 3], [0, 2, 4, 7]], np.float32),
        'deltas': rng.standard_normal((3, 4)).astype(np.float32) * 0.3,
        'weight': rng.standard_normal(8).astype(np.float32),
        'bias': rng.standard_normal(8).astype(np.float32),
        'nan': nan,
        'lengths': np.array([[1, 3], [0, 4]], np.int32),
        'ints': np.array([0, 1, 7, -1, 255, -128, 1000], np.int16),
        'src_select': rng.standard_normal((2, 8, 6)).astype(np.float32),
        'src_slice': rng.standard_normal((2, 8, 2, 6)).astype(np.float32),
        'grid': rng.uniform(-1.2, 1.2, (2, 3, 5, 2)).astype(np.float32),
        'vol': rng.standard_normal((2, 4, 5, 6, 7)).astype(np.float32),
        'grid3': rng.uniform(-1.2, 1.2, (2, 2, 3, 4, 3)).astype(np.float32),
        'w3': rng.standard_normal((6, 2, 2, 3, 2)).astype(np.float32),
        'w3t': rng.standard_normal((4, 3, 3, 2, 2)).astype(np.float32),
        'b3': rng.standard_normal(6).astype(np.float32),
        'image': rng.standard_normal((2, 6, 7, 3)).astype(np.float32),
        'crop_boxes': np.array([[0.1, 0.2, 0.8, 0.9], [0.9, 0.0, 0.2, 0.5],
                                [-0.2, 0.3, 0.6, 1.3], [0.5, 0.5, 0.5, 0.5]], np.float32),
    }


def record(ms, ops, a):
    t = {k: ms.Tensor(v) for k, v in a.items()}
    out = {}
    out['pixel_shuffle'] = ops.pixel_shuffle(t['x'], 2)
    out['pixel_unshuffle'] = ops.pixel_unshuffle(t['x'], 2)
    out['channel_shuffle'] = ops.channel_shuffle(t['x'], 4)
    out['lp_pool1d'] = ops.lp_pool1d(t['pos'][0], 2, 3, 2)
    out['lp_pool1d_ceil'] = ops.lp_pool1d(t['x1'], 3, 2, ceil_mode=True)
    out['lp_pool2d'] = ops.lp_pool2d(t['pos'], 1.5, (2, 3))
    pooled, idx = ops.max_pool2d(t['x'], 2, 2, return_indices=True)
    out['unpool2d_idx'], out['unpool2d'] = idx, ops.max_unpool2d(pooled, idx, 2)
    pooled1, idx1 = ops.max_pool2d(t['small'], 2, 1, return_indices=True)
    out['unpool2d_size'] = ops.max_unpool2d(pooled1, idx1, 2, 1, output_size=(1, 2, 3, 3))
    out['group_norm'] = ops.group_norm(t['x'], 4, t['weight'], t['bias'])
    out['lrn'] = ops.lrn(t['x'], 2, 1.5, 0.3, 0.75)
    out['iou'] = ops.iou(t['anchors'], t['gts'])
    out['iof'] = ops.iou(t['anchors'], t['gts'], 'iof')
    out['bb_encode'] = ops.bounding_box_encode(t['anchors'], t['anchors'][::-1] + 1,
                                               (0.1, 0.0, 0.2, 0.0), (1.0, 2.0, 1.0, 0.5))
    out['bb_decode'] = ops.bounding_box_decode(t['anchors'], t['deltas'], (6, 7))
    out['check_valid'] = ops.check_valid(t['anchors'], ms.Tensor(np.array([6, 7, 1], np.float32)))
    out['soft_shrink'] = ops.soft_shrink(t['x'], 0.7)
    out['sequence_mask'] = ops.sequence_mask(t['lengths'], 5)
    out['sequence_mask_max'] = ops.sequence_mask(t['lengths'])
    out['select_scatter'] = ops.select_scatter(t['x'], t['src_select'], 2, 1)
    out['slice_scatter'] = ops.slice_scatter(t['x'], t['src_slice'], 2, 0, 4, 2)
    out['nanmedian'], out['nanmedian_idx'] = ops.nanmedian(t['nan'])
    out['nanmedian0'], out['nanmedian0_idx'] = ops.nanmedian(t['nan'], 0, True)
    out['population_count'] = ops.population_count(t['ints'])
    out['invert'] = ops.invert(t['ints'])
    out['grid_sample'] = ops.grid_sample(t['x'][:, :3], t['grid'])
    out['grid_sample_nearest'] = ops.grid_sample(t['x'][:, :3], t['grid'], 'nearest', 'border',
                                                 True)
    out['grid_sample3d'] = ops.grid_sample(t['vol'], t['grid3'], 'bilinear', 'reflection')
    out['grid_sample3d_nearest'] = ops.grid_sample(t['vol'], t['grid3'], 'nearest', 'zeros',
                                                   True)
    out['conv3d'] = ops.conv3d(t['vol'], t['w3'], t['b3'], (1, 2, 1), groups=2)
    out['conv3d_same'] = ops.conv3d(t['vol'], t['w3'], None, 2, 'same', 0, (1, 1, 2), 2)
    out['conv3d_pad'] = ops.conv3d(t['vol'], t['w3'], None, 1, 'pad', (1, 0, 2), 1, 2)
    out['conv3d_t'] = ops.conv3d_transpose(t['vol'], t['w3t'])
    out['conv3d_t_pad'] = ops.conv3d_transpose(t['vol'], t['w3t'], 'pad', (1, 0, 1, 1, 0, 1),
                                               (2, 1, 2), 1, 1, (1, 0, 1))
    out['conv3d_t_same'] = ops.conv3d_transpose(t['vol'], t['w3t'], 'same', 0, 2, (1, 2, 1))
    idx = ms.Tensor(np.array([0, 1, 1, 0], np.int32))
    out['crop_bilinear'] = ops.crop_and_resize(t['image'], t['crop_boxes'], idx, (4, 5))
    out['crop_nearest'] = ops.crop_and_resize(t['image'], t['crop_boxes'], idx, (3, 1),
                                              'nearest', -1.0)
    return {k: v.asnumpy() for k, v in out.items()}


def main():
    import mindspore as ms
    from mindspore import ops
    ms.set_context(device_target='CPU')
    a = inputs()
    values = record(ms, ops, a)
    np.savez_compressed(OUT, **{f"in_{k}": v for k, v in a.items()}, **values)
    print(f"wrote {len(values)} outputs to {OUT}")


if __name__ == '__main__':
    main()
