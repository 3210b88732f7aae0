"""Integer quotients and remainders by zero, as MindSpore 2.10's CPU kernels give them.

NumPy gives 0 everywhere; MindSpore's kernels saturate quotients, keep the dividend in
``remainder`` and ``fmod``, and give the type's minimum in some remainders of 32- and 64-bit
integers. Every expected row below is MindSpore 2.10's output for the dividend [7, -7, 0]
([7, 250, 0] for unsigned types) over [0, 0, 0].
"""
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops

I32_MIN, I64_MIN = -2 ** 31, -2 ** 63
EXPECTED = {
    'int8': {'//': [127, -128, 0], '%': [0, 0, 0], 'floor_mod': [0, 0, 0],
             'remainder': [7, -7, 0], 'truncate_div': [127, -128, 0],
             'truncate_mod': [0, 0, 0], 'fmod': [7, -7, 0], 'div_trunc': [0, 0, 0],
             'Mod': [0, 0, 0]},
    'int32': {'//': [2 ** 31 - 1, I32_MIN, 0], '%': [I32_MIN] * 3, 'floor_mod': [I32_MIN] * 3,
              'remainder': [7, -7, 0], 'truncate_div': [2 ** 31 - 1, I32_MIN, 0],
              'truncate_mod': [0, 0, 0], 'fmod': [7, -7, 0], 'div_trunc': [I32_MIN] * 3,
              'Mod': [I32_MIN, I32_MIN, 0]},
    'int64': {'//': [2 ** 63 - 1, I64_MIN, 0], '%': [I64_MIN] * 3, 'floor_mod': [I64_MIN] * 3,
              'remainder': [7, -7, 0], 'truncate_div': [2 ** 63 - 1, I64_MIN, 0],
              'fmod': [7, -7, 0], 'div_trunc': [I64_MIN] * 3, 'Mod': [I64_MIN, I64_MIN, 0]},
    'uint8': {'//': [255, 255, 0], '%': [0, 0, 0], 'floor_mod': [0, 0, 0],
              'remainder': [7, 250, 0], 'truncate_div': [255, 255, 0],
              'truncate_mod': [0, 0, 0], 'fmod': [7, 250, 0], 'div_trunc': [0, 0, 0],
              'Mod': [0, 0, 0]},
    'uint16': {'//': [65535, 65535, 0], 'remainder': [7, 250, 0], 'fmod': [7, 250, 0],
               'truncate_div': [65535, 65535, 0], 'div_trunc': [0, 0, 0]},
}
CALLS = {
    '//': lambda a, z: a // z, '%': lambda a, z: a % z, 'floor_mod': ops.floor_mod,
    'remainder': ops.remainder, 'truncate_div': ops.truncate_div,
    'truncate_mod': ops.truncate_mod, 'fmod': ops.fmod,
    'div_trunc': lambda a, z: ops.div(a, z, rounding_mode='trunc'),
    'Mod': lambda a, z: ops.Mod()(a, z),
}
ROWS = [(dt, name, want) for dt, table in EXPECTED.items() for name, want in table.items()]


@pytest.mark.parametrize('dtype,name,want', ROWS, ids=[f'{d}-{n}' for d, n, _ in ROWS])
def test_integer_division_by_zero_gives_mindspores_values(dtype, name, want):
    a = ms.Tensor(np.array([7, 250 if dtype.startswith('u') else -7, 0], dtype))
    z = ms.Tensor(np.zeros(3, dtype))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)     # hookgrad names the zero division
        got = CALLS[name](a, z)
    assert got.dtype == getattr(ms, dtype)
    assert got.asnumpy().tolist() == want


def test_nonzero_divisors_are_unchanged():
    a = ms.Tensor(np.array([7, -7, 5], np.int32))
    b = ms.Tensor(np.array([2, 2, -3], np.int32))
    assert (a // b).asnumpy().tolist() == [3, -4, -2]
    assert (a % b).asnumpy().tolist() == [1, 1, -1]
    assert ops.fmod(a, b).asnumpy().tolist() == [1, -1, 2]
    assert ops.truncate_div(a, b).asnumpy().tolist() == [3, -3, -1]
