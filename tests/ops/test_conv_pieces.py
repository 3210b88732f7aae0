"""im2col built a piece at a time (``conv_kernels._pieces``): the forward, the stride-1 input
gradient and the weight gradient of a large channels-last im2col layer give the numbers of the
whole-matrix GEMM, for any cut of the output into pieces and any number of free cores."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.kernels import threads as _threads
from hookgrad.kernels import conv as conv_kernels
from hookgrad.testing import check_grad

# (batch, in channels, out channels, (H, W), kernel, conv2d keywords)
SHAPES = [
    (3, 4, 5, (7, 6), (3, 3), dict(pad_mode='pad', padding=1)),
    (2, 3, 4, (9, 8), (3, 3), dict(pad_mode='pad', padding=1, stride=2)),
    (2, 4, 6, (8, 9), (3, 3), dict(pad_mode='pad', padding=(2, 0, 1, 3), dilation=2)),
    (2, 4, 6, (6, 7), (3, 3), dict(pad_mode='same', groups=2)),
    (1, 2, 3, (9, 9), (5, 5), dict(pad_mode='valid')),
    (2, 3, 2, (5, 8), (2, 4), dict(pad_mode='pad', padding=(1, 2, 0, 1))),
]
# bytes per piece: one output row each, a few rows, a whole image or more
PIECES = [1, 1500, 1 << 16]


def run(case, dtype=np.float64, seed=0):
    """(y, gx, gw) of conv2d for a case, with a fixed output gradient."""
    n, c, o, hw, k, kwargs = case
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c) + hw).astype(dtype)
    w = (rng.standard_normal((o, c // kwargs.get('groups', 1)) + k) / 3).astype(dtype)
    xt, wt = ms.Tensor(x, requires_grad=True), ms.Tensor(w, requires_grad=True)
    y = ops.conv2d(xt, wt, **kwargs)
    y.backward(ms.Tensor(rng.standard_normal(y.shape).astype(dtype)))
    return y.asnumpy(), xt.grad.asnumpy(), wt.grad.asnumpy()


@pytest.fixture
def direct(monkeypatch):
    """The channels-last im2col kernels everywhere (no Winograd, pointwise or batch-last)."""
    monkeypatch.setattr(conv_kernels, 'ALGORITHM', 'direct')


@pytest.mark.parametrize('piece_bytes', PIECES)
@pytest.mark.parametrize('case', SHAPES)
def test_pieces_give_the_whole_matrix_numbers(case, piece_bytes, direct, monkeypatch):
    """Float64: the pieces' products equal one GEMM on the whole im2col matrix (kept from
    the forward) to rounding."""
    monkeypatch.setattr(conv_kernels, 'KEEP_COLS_BYTES', 1 << 40)
    whole = run(case)
    monkeypatch.setattr(conv_kernels, 'KEEP_COLS_BYTES', 0)
    monkeypatch.setattr(conv_kernels, 'PIECE_BYTES', piece_bytes)
    for got, want in zip(run(case), whole):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('case', SHAPES[:4])
def test_pieces_against_finite_differences(case, direct, monkeypatch):
    monkeypatch.setattr(conv_kernels, 'KEEP_COLS_BYTES', 0)
    monkeypatch.setattr(conv_kernels, 'PIECE_BYTES', 1500)
    n, c, o, hw, k, kwargs = case
    rng = np.random.default_rng(5)
    check_grad(lambda a, b: ops.conv2d(a, b, **kwargs), rng.standard_normal((n, c) + hw),
               rng.standard_normal((o, c // kwargs.get('groups', 1)) + k))


@pytest.mark.parametrize('n, ho, wo', [(3, 7, 6), (1, 9, 4), (5, 2, 3), (2, 1, 1)])
@pytest.mark.parametrize('piece_bytes', [1, 100, 1000, 1 << 20])
def test_pieces_cover_every_output_row_once(n, ho, wo, piece_bytes, monkeypatch):
    monkeypatch.setattr(conv_kernels, 'PIECE_BYTES', piece_bytes)
    seen = np.zeros((n, ho), int)
    for i0, i1, r0, r1 in conv_kernels._pieces(n, ho, wo, row_bytes=10, weight_bytes=0):
        assert i0 < i1 and r0 < r1 and (i1 - i0 == 1 or (r0, r1) == (0, ho))
        seen[i0:i1, r0:r1] += 1
    np.testing.assert_array_equal(seen, 1)


def test_a_wide_layer_is_cut_into_one_piece_per_core(monkeypatch):
    """Each piece's GEMM reads the whole weight matrix, so pieces are at least its size; but
    not fewer than the cores, which would leave some idle."""
    monkeypatch.setattr(_threads, '_cores', 2)
    monkeypatch.setattr(_threads, '_set', lambda n: None)
    pieces = conv_kernels._pieces(32, 4, 4, row_bytes=18432, weight_bytes=9 << 20)
    assert pieces == [(0, 16, 0, 4), (16, 32, 0, 4)]
    small = conv_kernels._pieces(32, 32, 32, row_bytes=2304, weight_bytes=147456)
    rows = [(i1 - i0) * (r1 - r0) * 32 for i0, i1, r0, r1 in small]
    assert max(rows) * 2304 <= conv_kernels.PIECE_BYTES and len(small) > 32


def test_whole_image_pieces_come_as_many_per_core(monkeypatch):
    """Pieces of whole images are cut so that every core gets as many (3 images a piece would
    give 11 for 32 images: 12 pieces of 2 or 3 images instead), none larger than before."""
    monkeypatch.setattr(_threads, '_cores', 2)
    monkeypatch.setattr(_threads, '_set', lambda n: None)
    pieces = conv_kernels._pieces(32, 16, 16, row_bytes=2304, weight_bytes=294912)
    assert len(pieces) == 12 and pieces[0][0] == 0 and pieces[-1][1] == 32
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
    assert {i1 - i0 for i0, i1, _, _ in pieces} == {2, 3}
    assert all((r0, r1) == (0, 16) for _, _, r0, r1 in pieces)
    assert max(i1 - i0 for i0, i1, _, _ in pieces) * 256 * 2304 <= conv_kernels.PIECE_BYTES


def test_weight_gradient_rounding_does_not_follow_the_load(direct, monkeypatch):
    """Float32: the pieces depend on the cores, not on how many are free, so the summed
    weight gradient is the same bit for bit on one worker thread or two."""
    monkeypatch.setattr(conv_kernels, 'KEEP_COLS_BYTES', 0)
    monkeypatch.setattr(conv_kernels, 'PIECE_BYTES', 1500)
    case = SHAPES[0]
    monkeypatch.setattr(_threads, '_large', 1)
    monkeypatch.setattr(_threads, '_interval', 1e9)
    one = run(case, np.float32)
    monkeypatch.setattr(_threads, '_large', 2)
    for got, want in zip(run(case, np.float32), one):
        np.testing.assert_array_equal(got, want)
