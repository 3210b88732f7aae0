"""Comparing a hookgrad Tensor with a Tensor recorded from MindSpore as JSON
(``{'dtype': 'Float32', 'shape': [...], 'values': [...]}``)."""
import numpy as np

import hookgrad as ms


def assert_tensor_matches(got, want, where, rtol, atol, shape_only=False):
    """``got`` is a Tensor of the recorded dtype and shape and, unless ``shape_only``, values
    (floats within ``rtol``/``atol``, NaN matching NaN; other dtypes exactly)."""
    assert isinstance(got, ms.Tensor), f"{where}: got {type(got).__name__} {got!r}, " \
                                       f"MindSpore gives a Tensor"
    assert str(got.dtype) == want['dtype'], f"{where}: dtype {got.dtype}, MindSpore gives " \
                                            f"{want['dtype']}"
    assert list(got.shape) == want['shape'], f"{where}: shape {tuple(got.shape)}, MindSpore " \
                                             f"gives {tuple(want['shape'])}"
    if shape_only:
        return
    values = np.asarray(want['values'], np.float64).reshape(want['shape'])
    actual = got.asnumpy().astype(np.float64)
    if got.asnumpy().dtype.kind == 'f':
        np.testing.assert_allclose(actual, values, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=where)
    else:
        np.testing.assert_array_equal(actual, values, err_msg=where)
