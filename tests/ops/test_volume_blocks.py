"""5-d resizing (``ops.interpolate`` / mint's ``interpolate`` with 'nearest', 'trilinear' and
'area', ``ops.UpsampleNearest3D``, ``ops.UpsampleTrilinear3D``) and blocks moved into the batch
(``ops.space_to_batch_nd``, ``ops.SpaceToBatch``, ``ops.SpaceToBatchND``): MindSpore 2.10's CPU
outputs and input gradients (volume_blocks_mindspore_values.npz, written by
make_volume_blocks_values.py), NumPy references and float64 finite-difference gradients (the
rows), and the argument errors."""
import itertools
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint, nn, ops
from hookgrad.ops import operations as P
from hookgrad.testing.cases import Case
from tests.ops import make_volume_blocks_values as recorded
from tests.ops.rows import error_test, row_tests
from tests.ops.test_resize_scaled import linear_weights

F = mint.nn.functional
VALUES = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              'volume_blocks_mindspore_values.npz'))


def hookgrad_call(call, kwargs):
    """hookgrad's form of a case of make_volume_blocks_values.py."""
    kw = dict(kwargs)
    if call == 'interpolate':
        return lambda t: ops.interpolate(t, **kw)
    if call == 'mint':
        return lambda t: F.interpolate(t, **kw)
    if call == 'space_to_batch_nd':
        return lambda t: ops.space_to_batch_nd(t, kw['block_size'], kw['paddings'])
    if call == 'SpaceToBatchND':
        return P.SpaceToBatchND(kw['block_shape'], kw['paddings'])
    prim = getattr(P, call)(**({'align_corners': kw.pop('align_corners')}
                               if 'align_corners' in kw else {}))
    return lambda t: prim(t, kw.get('output_size'), kw.get('scales'))


@pytest.mark.parametrize('name, shape, dtype, call, kwargs', recorded.CASES,
                         ids=[case[0] for case in recorded.CASES])
def test_values_and_gradients_match_mindspore(name, shape, dtype, call, kwargs):
    fn = hookgrad_call(call, kwargs)
    x = ms.Tensor(VALUES[f'{name}/x'], requires_grad=True)
    y = fn(x)
    (y * ms.Tensor(VALUES[f'{name}/w'])).sum().backward()
    tol = 1e-12 if dtype == 'float64' else 2e-6
    assert y.asnumpy().dtype == np.dtype(dtype)
    np.testing.assert_allclose(y.asnumpy(), VALUES[f'{name}/y'], rtol=tol, atol=tol)
    np.testing.assert_allclose(x.grad.asnumpy(), VALUES[f'{name}/grad'], rtol=tol * 4,
                               atol=tol * 4)


def test_nn_upsample_agrees_with_ops_interpolate_on_5d_input():
    x = ms.Tensor(VALUES['trilinear_scale/x'])
    for kwargs in (dict(scale_factor=(1.7, 0.6, 2.5), mode='trilinear'),
                   dict(size=(5, 3, 8), mode='trilinear', align_corners=True),
                   dict(scale_factor=(1.7, 0.6, 2.5), mode='nearest')):
        np.testing.assert_allclose(nn.Upsample(**kwargs)(x).asnumpy(),
                                   ops.interpolate(x, **kwargs).asnumpy(), rtol=1e-6, atol=1e-6)


def test_space_to_batch_is_the_nd_form_on_height_and_width_and_batch_to_space_undoes_it():
    x = ms.Tensor(np.random.default_rng(3).standard_normal((2, 3, 4, 5)))
    got = P.SpaceToBatch(2, [[0, 2], [2, 1]])(x)
    want = ops.space_to_batch_nd(x, [2, 2], [[0, 2], [2, 1]])
    assert got.shape == (8, 3, 3, 4)
    np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
    back = ops.batch_to_space_nd(got, [2, 2], [[0, 2], [2, 1]])
    np.testing.assert_array_equal(back.asnumpy(), x.asnumpy())


# ----------------------------------------------------------------------------- rows
def nearest_weights(n_in, n_out, scale):
    """Source ``floor(i * step)`` along one axis as an (out, in) 0/1 matrix."""
    step = 1.0 / scale if scale is not None else n_in / n_out
    m = np.zeros((n_out, n_in))
    m[np.arange(n_out), np.minimum(np.floor(np.arange(n_out) * step), n_in - 1).astype(int)] = 1
    return m


def resized(x, mats):
    return np.einsum('ad,be,cf,...def->...abc', *mats, x)


def trilinear_ref(out, align_corners=False, scales=(None,) * 3):
    return lambda x: resized(x, [linear_weights(n, m, align_corners, s)
                                 for n, m, s in zip(x.shape[2:], out, scales)])


def nearest_ref(out, scales=(None,) * 3):
    return lambda x: resized(x, [nearest_weights(n, m, s)
                                 for n, m, s in zip(x.shape[2:], out, scales)])


def space_to_batch_ref(blocks, paddings):
    """Padded element (n, ..., i * b + j, ...) at batch (j1, ..., jM) * B + n, position i."""
    def ref(x):
        m = len(blocks)
        padded = np.pad(x, [(0, 0)] * (x.ndim - m) + [tuple(p) for p in paddings])
        parts = []
        for offsets in itertools.product(*[range(b) for b in blocks]):
            key = (Ellipsis,) + tuple(slice(j, None, b) for j, b in zip(offsets, blocks))
            parts.append(padded[key])
        return np.concatenate(parts, axis=0)
    return ref


SCALES = (1.7, 0.6, 2.5)
CASES = [
    Case(('MatMul', 'Transpose'), lambda t: ops.interpolate(t, size=(4, 2, 5), mode='trilinear'),
         ref=trilinear_ref((4, 2, 5)), shapes=[((1, 2, 3, 4, 3),)], name='trilinear_size'),
    Case(('MatMul', 'Transpose'),
         lambda t: ops.interpolate(t, size=(4, 2, 5), mode='trilinear', align_corners=True),
         ref=trilinear_ref((4, 2, 5), True), shapes=[((2, 1, 3, 4, 3),)],
         name='trilinear_corners'),
    Case(('MatMul', 'Transpose'),
         lambda t: F.interpolate(t, scale_factor=SCALES, mode='trilinear'),
         ref=trilinear_ref((5, 2, 7), False, SCALES), shapes=[((1, 1, 3, 4, 3),)],
         name='trilinear_scale_step'),
    Case('Take', lambda t: ops.interpolate(t, scale_factor=SCALES, mode='nearest'),
         ref=nearest_ref((5, 2, 7), SCALES), shapes=[((1, 2, 3, 4, 3),)], name='nearest_scale'),
    Case('Take', lambda t: P.UpsampleNearest3D()(t, output_size=[2, 5, 4]),
         ref=nearest_ref((2, 5, 4)), shapes=[((1, 1, 3, 4, 3),)], name='upsample_nearest_3d'),
    Case(('MatMul', 'Transpose'),
         lambda t: P.UpsampleTrilinear3D(True)(t, scales=[1.5, 0.5, 2.0]),
         ref=trilinear_ref((4, 2, 6), True), shapes=[((1, 1, 3, 4, 3),)],
         name='upsample_trilinear_3d'),
    Case(('Reshape', 'Transpose'),
         lambda t: ops.space_to_batch_nd(t, [2, 3], [[1, 1], [0, 2]]),
         ref=space_to_batch_ref([2, 3], [[1, 1], [0, 2]]), shapes=[((2, 3, 4, 4),)],
         name='space_to_batch_nd'),
    Case(('Reshape', 'Transpose'), lambda t: P.SpaceToBatchND(2, [[1, 0]])(t),
         ref=space_to_batch_ref([2], [[1, 0]]), shapes=[((3, 2, 5),)], name='space_to_batch_nd_1d'),
]

globals().update(row_tests(CASES))


# ----------------------------------------------------------------------------- errors
def T(shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


VOL = (1, 1, 2, 3, 4)
test_errors = error_test([
    (lambda: ops.interpolate(T((1, 1, 3, 4)), size=(2, 2, 2), mode='trilinear'), ValueError,
     r"ops\.interpolate: mode 'trilinear' does not take an input of shape \(1, 1, 3, 4\)"),
    (lambda: ops.interpolate(T(VOL), size=(2, 2), mode='bilinear'), ValueError,
     r"ops\.interpolate: mode 'bilinear' does not take an input of shape \(1, 1, 2, 3, 4\)"),
    (lambda: ops.interpolate(T(VOL), size=(2, 2), mode='trilinear'), ValueError,
     r"ops\.interpolate: size must be a positive int or 3 of them for a 5-d input"),
    (lambda: ops.interpolate(T(VOL), size=2, scale_factor=2.0, mode='trilinear'), ValueError,
     r"ops\.interpolate: size and scale_factor cannot be set simultaneously"),
    (lambda: ops.interpolate(T(VOL), scale_factor=0.2, mode='nearest'), ValueError,
     r"ops\.interpolate: scale_factor 0\.2 gives the empty output size"),
    (lambda: ops.interpolate(T(VOL), size=3, mode='nearest', align_corners=True), ValueError,
     r"ops\.interpolate: align_corners can only be set with 'linear', 'bilinear', "
     r"'trilinear' or 'bicubic', not 'nearest'"),
    (lambda: F.interpolate(T((1, 1, 3, 4)), size=(2, 2, 2), mode='trilinear'), ValueError,
     r"mint\.nn\.functional\.interpolate: mode 'trilinear' takes a 5-d input, got shape"),
    (lambda: P.UpsampleNearest3D()(T(VOL)), ValueError,
     r"ops\.UpsampleNearest3D: exactly one of output_size and scales must be given"),
    (lambda: P.UpsampleNearest3D()(T(VOL), [2, 2, 2], [2.0, 2.0, 2.0]), ValueError,
     r"ops\.UpsampleNearest3D: exactly one of output_size and scales must be given"),
    (lambda: P.UpsampleTrilinear3D()(T(VOL), output_size=[4, 6]), ValueError,
     r"ops\.UpsampleTrilinear3D: output_size must hold 3 values \(D, H, W\), got \[4, 6\]"),
    (lambda: P.UpsampleTrilinear3D()(T((1, 2, 3, 4)), output_size=[4, 6, 7]), ValueError,
     r"ops\.UpsampleTrilinear3D: x must be 5-d \(N, C, D, H, W\), got shape \(1, 2, 3, 4\)"),
    (lambda: P.UpsampleNearest3D()(T(VOL), scales=[0.1, 1.0, 1.0]), ValueError,
     r"ops\.UpsampleNearest3D: the output size must be positive, got \(0, 3, 4\)"),
    (lambda: P.UpsampleNearest3D()(T(VOL), output_size=[2, 0, 2]), ValueError,
     r"ops\.UpsampleNearest3D: the output size must be positive, got \(2, 0, 2\)"),
    (lambda: P.UpsampleTrilinear3D()(T(VOL, np.int32), output_size=[2, 2, 2]), TypeError,
     r"ops\.UpsampleTrilinear3D: x must be floating, got Int32"),
    (lambda: P.UpsampleTrilinear3D(align_corners=1), TypeError,
     r"ops\.UpsampleTrilinear3D: align_corners must be a bool, got 1"),
    (lambda: ops.space_to_batch_nd(T((1, 2, 4, 6)), [3, 2], [[0, 0], [0, 0]]), ValueError,
     r"ops\.space_to_batch_nd: the padded size 4 of a dimension must be divisible by its "
     r"block 3"),
    (lambda: ops.space_to_batch_nd(T((1, 2, 4, 6)), [2, 2], [[0, 0], [-1, 1]]), TypeError,
     r"ops\.space_to_batch_nd: paddings must be a tuple or list of \(start, end\) pairs of "
     r"ints >= 0"),
    (lambda: ops.space_to_batch_nd(T((1, 2, 4, 6)), [0, 2], [[0, 0], [0, 0]]), TypeError,
     r"ops\.space_to_batch_nd: block_shape must be an int >= 1"),
    (lambda: ops.space_to_batch_nd(T((1, 2, 4, 6)), [2], [[0, 0], [0, 0]]), ValueError,
     r"ops\.space_to_batch_nd: block_shape and paddings must have one length >= 1"),
    (lambda: ops.space_to_batch_nd(T((4, 6)), [2, 2], [[0, 0], [0, 0]]), ValueError,
     r"ops\.space_to_batch_nd: input_x must have more than 2 dimensions, got shape \(4, 6\)"),
    (lambda: P.SpaceToBatch(1, [[0, 0], [0, 0]]), ValueError,
     r"ops\.SpaceToBatch: block_size must be >= 2, got 1"),
    (lambda: P.SpaceToBatch(2, [[0, 0]]), ValueError,
     r"ops\.SpaceToBatch: paddings must be 2 pairs \(start, end\) of ints >= 0, got \[\[0, 0\]\]"),
    (lambda: P.SpaceToBatch(2, [[0, 0], [0, 1]])(T((1, 2, 4, 6))), ValueError,
     r"ops\.space_to_batch_nd: the padded size 7 of a dimension must be divisible by its "
     r"block 2"),
    (lambda: P.SpaceToBatchND([2, 0], [[0, 0], [0, 0]]), ValueError,
     r"ops\.SpaceToBatchND: block_shape must be 2 ints >= 1 \(one per paddings pair\)"),
    (lambda: P.SpaceToBatchND([2, 2], [[0, 0], [-1, 0]]), ValueError,
     r"ops\.SpaceToBatchND: paddings must be pairs \(start, end\) of ints >= 0"),
])
