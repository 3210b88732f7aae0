"""ConvertColor against MindSpore 2.10: every ConvertMode on uint8 and float32 images.

tests/dataset/fixtures/convert_color_mindspore.npz is written by
tools/mindspore_convert_color_outputs.py with MindSpore; uint8 results must be equal, float32
grey levels within float32 rounding.
"""
import os
import sys

import numpy as np
import pytest

import hookgrad.dataset.vision as vision
from hookgrad.dataset.vision import ConvertMode

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from mindspore_convert_color_outputs import MODES  # noqa: E402

RECORDED = dict(np.load(os.path.join(os.path.dirname(__file__), 'fixtures',
                                     'convert_color_mindspore.npz')))


@pytest.mark.parametrize('mode', sorted(MODES))
@pytest.mark.parametrize('kind', ['u8', 'f32'])
def test_outputs_are_mindspores(mode, kind):
    out = vision.ConvertColor(ConvertMode[mode])(RECORDED[f'input-{kind}-{MODES[mode]}'])
    theirs = RECORDED[f'{mode}-{kind}']
    assert out.shape == theirs.shape and out.dtype == theirs.dtype
    if kind == 'u8':
        np.testing.assert_array_equal(out, theirs)
    else:
        np.testing.assert_allclose(out, theirs, rtol=0, atol=2e-7)


def test_aliases_and_errors():
    assert ConvertMode.COLOR_RGB2BGR == ConvertMode.COLOR_BGR2RGB
    assert vision.utils.ConvertMode is ConvertMode
    with pytest.raises(TypeError, match="Argument convert_mode with value 4 is not of type"):
        vision.ConvertColor(4)
    with pytest.raises(RuntimeError, match="ConvertColor: the mode COLOR_BGRA2BGR takes images "
                                           "of 4 channel"):
        vision.ConvertColor(ConvertMode.COLOR_BGRA2BGR)(RECORDED['input-u8-3'])
