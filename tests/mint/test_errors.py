"""Bad input to mint: each error says what MindSpore 2.10 says (its messages, checked in
/tmp/msvenv), or, where MindSpore's message names its C++ kernel, what is wrong and where."""
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import mint
from hookgrad.mint.nn import functional as F

ONES = np.ones(3, np.float32)


def T(a):
    return ms.Tensor(a)


ERRORS = [
    (lambda: mint.clamp(T(ONES)), ValueError,
     "For Clamp, at least one of 'min' or 'max' must not be None."),
    (lambda: mint.randperm(-1), ValueError,
     "For 'RandpermExt', the input 'n' must be >= 0, but got data: -1."),
    (lambda: F.gelu(T(ONES), approximate='foo'), ValueError,
     "Failed to convert the value \"foo\" of input 'approximate' of 'gelu' to enum."),
    (lambda: F.dropout(T(ONES), p=1.5), ValueError,
     "For FuncDropoutExt, 'p' must be in [0, 1], but got 1.5"),
    (lambda: mint.nn.Dropout(p=1.5).set_train(True)(T(ONES)), ValueError,
     "For FuncDropoutExt, 'p' must be in [0, 1], but got 1.5"),
    (lambda: mint.nn.GroupNorm(3, 4), ValueError,
     "For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got "
     "'num_channels': 4, 'num_groups': 3."),
    (lambda: F.group_norm(T(np.ones((1, 4, 2), np.float32)), 3), ValueError,
     "For 'GroupNorm', the 'num_channels' must be divided by 'num_groups'"),
    (lambda: mint.nn.Embedding(4, 2, padding_idx=5), ValueError,
     "For 'EmbeddingExt', the 'padding_idx' must be in range of [-4, 4), but got 5 with type "
     "'int'."),
    (lambda: mint.nn.Conv2d(3, 4, 3, groups=2), ValueError, "in_channels must be divisible by "
                                                             "groups."),
    (lambda: mint.nn.Conv2d(2, 3, 3, padding_mode='foo'), ValueError,
     "The value of 'padding_mode' must be one of '{'circular', 'zeros', 'reflect', "
     "'replicate'}', but got foo."),
    (lambda: mint.nn.ConvTranspose2d(2, 3, 3, padding_mode='reflect'), ValueError,
     'Only "zeros" padding mode is supported for ConvTranspose2d'),
    (lambda: F.pixel_shuffle(T(np.ones((1, 3, 2, 2), np.float32)), 2), ValueError,
     "PixelShuffle expects its input's 'channel' dimension to be divisible by the square of "
     "upscale_factor, but input.shape(-3)=3 is not divisible by 4"),
    (lambda: F.kl_div(T(ONES), T(ONES), reduction='foo'), ValueError,
     "Failed to convert the value \"foo\" of input 'reduction' of 'KLDiv' to enum."),
    (lambda: mint.linalg.qr(T(np.eye(2, dtype=np.float32)), mode='foo'), ValueError,
     "Failed to convert the value \"foo\" of input 'mode' of 'LinalgQr' to enum."),
    (lambda: mint.linalg.qr(T(ONES)), ValueError,
     'mint.linalg.qr: expects at least 2 dimensions, got shape (3,)'),
    (lambda: mint.var(T(ONES), correction=0.5), TypeError,
     "mint.var: 'correction' must be an int, got 0.5"),
    (lambda: mint.mv(T(np.ones((2, 3), np.float32)), T(np.ones((2, 2), np.float32))),
     ValueError, 'mint.mv: expects a 2-D matrix and a 1-D vector, got shapes (2, 3) and (2, 2)'),
    (lambda: mint.dot(T(ONES), T(np.ones(2, np.float32))), ValueError,
     'mint.dot: expects two 1-D tensors of the same length, got shapes (3,) and (2,)'),
    (lambda: mint.randint(5), TypeError,
     'mint.randint: expects (high, size) or (low, high, size), got (5,)'),
    (lambda: mint.randint_like(T(ONES)), TypeError,
     'mint.randint_like: expects (input, high) or (input, low, high), got 1 arguments'),
    (lambda: mint.rand(2, 1.5), TypeError,
     'mint.rand: size must be ints or one tuple of ints, got (2, 1.5)'),
    (lambda: mint.max(T(ONES), keepdim=True), TypeError, "mint.max: 'keepdim' needs 'dim'"),
    (lambda: mint.min(T(ONES), T(ONES), True), TypeError,
     "mint.min: 'keepdim' has no meaning with a tensor 'other'"),
    (lambda: mint.unique(T(ONES), dim=0), NotImplementedError,
     "mint.unique: 'dim' is not available in hookgrad"),
    (lambda: mint.imag(T(ONES)), TypeError, 'mint.imag: expects a complex tensor, got Float32'),
    (lambda: F.embedding(T(np.array([0])), T(np.ones((2, 2), np.float32)), max_norm=-1.0),
     ValueError, 'ops.embedding: max_norm must be a positive number, got -1.0'),
    (lambda: F.interpolate(T(np.ones((1, 1, 2), np.float32)), 3, mode='bicubic'),
     ValueError, "mint.nn.functional.interpolate: mode 'bicubic' takes a 4-d input, got shape "
                 "(1, 1, 2)"),
    (lambda: F.interpolate(T(np.ones((1, 1, 2), np.float32)), 3, mode='bilinear'),
     ValueError, "mint.nn.functional.interpolate: mode 'bilinear' takes a 4-d input, got shape "
                 "(1, 1, 2)"),
    (lambda: F.interpolate(T(np.ones((1, 1, 2, 2), np.float32)), 3, align_corners=True),
     ValueError, "mint.nn.functional.interpolate: align_corners can only be set with 'linear', "
                 "'bilinear', 'bicubic' or 'trilinear', not 'nearest'"),
    (lambda: F.interpolate(T(np.ones((1, 1, 2, 2), np.float32)), scale_factor=(2.0,)),
     ValueError, "mint.nn.functional.interpolate: scale_factor must be a positive float or 2 "
                 "of them for a 4-d input, got (2.0,)"),
    (lambda: mint.nn.BatchNorm2d(3)(T(np.ones((2, 3), np.float32))), ValueError,
     'mint.nn.BatchNorm2d: expected a 4-d input, got shape (2, 3)'),
    (lambda: mint.optim.SGD([ms.Parameter(T(ONES), 'w')], lr=0.1)(()), ValueError,
     'mint.optim.SGD: got 0 gradients for 1 parameters'),
]


@pytest.mark.parametrize('call,exc,message', ERRORS, ids=[m[:40] for _, _, m in ERRORS])
def test_error(call, exc, message):
    with pytest.raises(exc, match=re.escape(message)):
        call()


def test_conv_padding_modes_pad_the_input_as_mindspore():
    # MindSpore 2.10's value, through ops.pad(x, (1, 1, 1, 1), 'reflect') and ops.conv2d
    conv = mint.nn.Conv2d(1, 1, 2, padding=1, padding_mode='reflect', bias=False)
    conv.weight.set_data(T(np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32)))
    out = conv(T(np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)))
    np.testing.assert_array_equal(out.asnumpy()[0, 0], [[13, 15, 25, 23], [25, 27, 37, 35],
                                                        [13, 15, 25, 23]])
