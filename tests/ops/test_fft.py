"""The FFT functions: rows for the three transform ops (on real inputs, composed with ops.Complex
/ ops.real / ops.imag), gradients of every function against finite differences on the real and
imaginary parts, and MindSpore 2.10's values, dtypes, gradients and errors
(fft_mindspore_values.json, recorded by make_fft_values.py)."""
import json
import os

import ml_dtypes
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests
from tests.ops.test_complex import _numeric_grad


def _z(a, b):
    return ops.Complex()(a, b)


# a real input of a narrower float type than Float64 gives Complex64 (MindSpore's dtypes, tested
# below), so rows on real inputs run in float64 only
CASES = [
    Case(('Complex', 'FFTN', 'Real'), lambda a, b: ops.real(ops.fft2(_z(a, b), s=(2, 6))),
         ref=lambda a, b: np.fft.fft2(a + 1j * b, s=(2, 6)).real,
         shapes=[((3, 4), (3, 4))], name='fft2_real'),
    Case(('Complex', 'FFTN', 'Imag'), lambda a, b: ops.imag(ops.ifft(_z(a, b), n=5,
                                                                     norm='ortho')),
         ref=lambda a, b: np.fft.ifft(a + 1j * b, n=5, norm='ortho').imag,
         shapes=[((3, 4), (3, 4))], name='ifft_imag'),
    Case(('FFTN', 'Imag'), lambda a: ops.imag(ops.fftn(a, norm='forward')),
         ref=lambda a: np.fft.fftn(a, norm='forward').imag, shapes=[((3, 4),)],
         dtypes=(np.float64,), name='fftn_of_real'),
    Case(('RFFTN', 'Real'), lambda a: ops.real(ops.rfft(a, n=6)),
         ref=lambda a: np.fft.rfft(a, n=6).real, shapes=[((3, 4),), ((5,),)],
         dtypes=(np.float64,), name='rfft_real'),
    Case(('RFFTN', 'Imag'), lambda a: ops.imag(ops.rfft2(a, s=(2, 5), norm='ortho')),
         ref=lambda a: np.fft.rfft2(a, s=(2, 5), norm='ortho').imag, shapes=[((3, 4),)],
         dtypes=(np.float64,), name='rfft2_imag'),
    Case(('Complex', 'IRFFTN'), lambda a, b: ops.irfft(_z(a, b), n=7),
         ref=lambda a, b: np.fft.irfft(a + 1j * b, n=7), shapes=[((3, 4), (3, 4))],
         name='irfft'),
    Case(('Complex', 'Conj', 'IRFFTN'), lambda a, b: ops.hfft2(_z(a, b), norm='forward'),
         ref=lambda a, b: np.fft.irfft2(a - 1j * b, norm='backward'),
         shapes=[((3, 4), (3, 4))], name='hfft2'),
    Case(('IRFFTN',), lambda a: ops.irfftn(a, s=(2, 4)),
         ref=lambda a: np.fft.irfftn(a, s=(2, 4), axes=(0, 1)), shapes=[((3, 4),)],
         dtypes=(np.float64,), name='irfftn_of_real'),
]
globals().update(row_tests(CASES))


# ------------------------------------------------------------- gradients of every function
RNG = np.random.default_rng(11)
A, B = RNG.standard_normal((6, 48)), RNG.standard_normal((6, 48))

FUNCTIONS = {
    'fft': lambda x: ops.fft(x), 'fft_pad': lambda x: ops.fft(x, n=6, norm='ortho'),
    'fft_crop_dim0': lambda x: ops.fft(x, n=2, dim=0, norm='forward'),
    'ifft': lambda x: ops.ifft(x, n=5), 'ifft_crop': lambda x: ops.ifft(x, n=3, norm='ortho'),
    'fft2': lambda x: ops.fft2(x, s=(2, 6), norm='forward'),
    'ifft2': lambda x: ops.ifft2(x, s=(4, 3)), 'fftn': lambda x: ops.fftn(x, dim=(1, 0)),
    'ifftn': lambda x: ops.ifftn(x, s=(5,), norm='ortho'),
    'irfft': lambda x: ops.irfft(x), 'irfft_odd': lambda x: ops.irfft(x, n=7, norm='ortho'),
    'irfft_crop': lambda x: ops.irfft(x, n=4, dim=0, norm='forward'),
    'irfft2': lambda x: ops.irfft2(x, s=(2, 5)), 'irfftn': lambda x: ops.irfftn(x, s=(4, 8)),
    'hfft': lambda x: ops.hfft(x, n=6), 'hfft_odd': lambda x: ops.hfft(x, n=5, norm='ortho'),
    'hfft2': lambda x: ops.hfft2(x, s=(4, 3), norm='forward'), 'hfftn': lambda x: ops.hfftn(x),
    'fftshift': lambda x: ops.fftshift(x), 'ifftshift': lambda x: ops.ifftshift(x, dim=1),
}
REAL_FUNCTIONS = {
    'rfft': lambda x: ops.rfft(x), 'rfft_pad': lambda x: ops.rfft(x, n=8, norm='ortho'),
    'rfft_crop_odd': lambda x: ops.rfft(x, n=3, dim=0, norm='forward'),
    'rfft2': lambda x: ops.rfft2(x, s=(4, 5)), 'rfftn': lambda x: ops.rfftn(x, dim=(1, 0)),
    'ihfft': lambda x: ops.ihfft(x, n=6), 'ihfft2': lambda x: ops.ihfft2(x, norm='ortho'),
    'ihfftn': lambda x: ops.ihfftn(x, s=(2, 7), norm='forward'),
}


def _loss_of(fn):
    def loss(x):
        out = fn(x)
        key = tuple(slice(0, n) for n in out.shape)
        key = key if len(key) == 2 else (0,) + key      # weights of the output's shape
        if out._data.dtype.kind == 'c':
            return (ops.real(out) * ms.Tensor(A[key]) + ops.imag(out) * ms.Tensor(B[key])).sum()
        return (out * ms.Tensor(A[key])).sum()
    return loss


def _real_numeric_grad(loss, x, eps=1e-6):
    """dL/dx of the real loss ``loss`` of a float64 array, by central differences."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        g[i] = (loss(up) - loss(down)) / (2 * eps)
    return g


def _check(fn, x):
    loss = _loss_of(fn)
    got = ms.grad(loss)(ms.Tensor(x)).asnumpy()
    numeric = _numeric_grad if x.dtype.kind == 'c' else _real_numeric_grad
    want = numeric(lambda v: float(loss(ms.Tensor(v)).asnumpy()), x)
    assert got.dtype == x.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize('shape', [(3, 4), (4, 5)])
@pytest.mark.parametrize('kind', ['real', 'complex'])
@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_gradient_matches_finite_differences(name, kind, shape):
    x = RNG.standard_normal(shape)
    if kind == 'complex':
        x = x + 1j * RNG.standard_normal(shape)
    _check(FUNCTIONS[name], x)


@pytest.mark.parametrize('name,shape', [
    (name, shape) for name in sorted(REAL_FUNCTIONS) for shape in [(3, 4), (4, 5), (6,)]
    if len(shape) == 2 or name in ('rfft', 'rfft_pad', 'ihfft')])
def test_gradient_of_a_real_transform_matches_finite_differences(name, shape):
    _check(REAL_FUNCTIONS[name], RNG.standard_normal(shape))


def test_gradient_of_a_gradient_through_the_transforms():
    x = ms.Tensor(RNG.standard_normal((3, 4)))

    def energy(x):      # sum |rfft(x)|^2 with weights: its gradient is linear in x
        y = ops.irfft(ops.rfft(x, n=6) * ms.Tensor(np.arange(1.0, 5.0)), n=6)
        return (y * y).sum()
    first = ms.grad(energy)
    second = ms.grad(lambda x: (first(x) * ms.Tensor(A[:3, :4])).sum())(x).asnumpy()
    want = _real_numeric_grad(lambda v: float((first(ms.Tensor(v)) *
                                               ms.Tensor(A[:3, :4])).sum().asnumpy()),
                              x.asnumpy())
    np.testing.assert_allclose(second, want, rtol=1e-6, atol=1e-8)


# -------------------------------------------------------------- MindSpore's values and dtypes
with open(os.path.join(os.path.dirname(__file__), 'fft_mindspore_values.json')) as _f:
    RECORDED = json.load(_f)
X1 = np.array([1.0, 2.0, -1.0, 0.5, 3.0])
X2 = np.array([[1.0, 2.0, -1.0], [0.5, 3.0, -2.0]])
INPUTS = {'x1': X1, 'x2': X2, 'z1': X1 + 1j * np.array([0.5, -1.0, 2.0, 0.0, 1.0]),
          'z2': X2 + 1j * np.array([[0.5, -1.0, 2.0], [0.0, 1.0, 1.5]])}
DTYPES = {'float16': np.float16, 'float32': np.float32, 'float64': np.float64,
          'int32': np.int32, 'int64': np.int64, 'complex64': np.complex64,
          'complex128': np.complex128, 'bfloat16': ml_dtypes.bfloat16}


def _kwargs(kw):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}


def _values(v, like):
    v = np.asarray(v)
    return v[0] + 1j * v[1] if like.dtype.kind == 'c' else v


@pytest.mark.parametrize('rec', RECORDED['values'],
                         ids=[f"{r['fn']}-{r['input']}-{r['dtype']}-{r['kwargs']}"
                              for r in RECORDED['values']])
def test_values_and_dtypes_as_mindspore(rec):
    x = ms.Tensor(INPUTS[rec['input']].astype(DTYPES[rec['dtype']]))
    y = getattr(ops, rec['fn'])(x, **_kwargs(rec['kwargs']))
    assert str(y.dtype) == rec['out_dtype']
    assert list(y.shape) == rec['shape']
    got = y.asnumpy()
    wide = rec['out_dtype'] in ('Float64', 'Complex128')
    np.testing.assert_allclose(got, _values(rec['values'], got), rtol=1e-12 if wide else 1e-5,
                               atol=1e-12 if wide else 1e-5)


@pytest.mark.parametrize('rec', RECORDED['grads'],
                         ids=[f"{r['fn']}-{r['kwargs']}" for r in RECORDED['grads']])
def test_gradients_as_mindspore(rec):
    kw = _kwargs(rec['kwargs'])

    def loss(t):
        out = getattr(ops, rec['fn'])(t, **kw)
        if out.dtype in (ms.complex64, ms.complex128):
            return (ops.real(out) * 1.5 + ops.imag(out) * 0.5).sum()
        return (out * out).sum()
    x = INPUTS[rec['input']]
    got = ms.grad(loss)(ms.Tensor(x)).asnumpy()
    want = _values(rec['grad'], got)
    if rec['fn'] == 'ihfft':
        # MindSpore 2.10's ihfft gradient comes back reversed (it misses the conjugate that
        # ihfft applies); central differences agree with ours
        np.testing.assert_allclose(got, want[np.r_[0, -1:-len(want):-1]], atol=1e-12)
        fd = _real_numeric_grad(lambda v: float(loss(ms.Tensor(v)).asnumpy()), x)
        np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-8)
        return
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize('rec', RECORDED['freq'],
                         ids=[f"{r['fn']}-{r['n']}-{r['d']}-{r['dtype']}" for r in
                              RECORDED['freq']])
def test_frequencies_as_mindspore(rec):
    dtype = None if rec['dtype'] is None else ms.float64
    y = getattr(ops, rec['fn'])(rec['n'], d=rec['d'], dtype=dtype)
    assert str(y.dtype) == rec['out_dtype']
    assert y.asnumpy().tolist() == rec['values']


@pytest.mark.parametrize('rec', RECORDED['primitive'],
                         ids=[f"{r['input']}-{r['dtype']}-{r['args']}" for r in
                              RECORDED['primitive']])
def test_fft_with_size_as_mindspore(rec):
    x = ms.Tensor(INPUTS[rec['input']].astype(DTYPES[rec['dtype']]))
    prim = ops.FFTWithSize(**_kwargs(rec['args']))
    if 'error' in rec:
        kind, message = rec['error'].split(': ', 1)
        with pytest.raises({'TypeError': TypeError, 'ValueError': ValueError}[kind]) as e:
            prim(x)
        assert type(e.value).__name__ == kind and str(e.value) == message
        return
    y = prim(x)
    assert str(y.dtype) == rec['out_dtype'] and list(y.shape) == rec['shape']
    got = y.asnumpy()
    np.testing.assert_allclose(got, _values(rec['values'], got), rtol=1e-5, atol=1e-5)


def test_fft_with_size_has_gradients():
    x = RNG.standard_normal((2, 5))
    rfft = ops.FFTWithSize(1, False, True, norm='ortho')
    _check(rfft, x)
    _check(ops.FFTWithSize(2, True, True, signal_sizes=(3, 6)), x + 1j * x[::-1])
    _check(ops.FFTWithSize(1, True, True, onesided=False), x + 1j * x[::-1])


SIGNAL = np.array([1.0, 2.0, -1.0, 0.5, 3.0, -2.0, 0.25, 1.5, -0.5, 2.5])


def _stft_args(kw):
    kw = dict(kw)
    if 'window' in kw:
        kw['window'] = ms.Tensor(np.array(kw['window']))
    return kw


@pytest.mark.parametrize('rec', RECORDED['stft'],
                         ids=[f"{r['input']}-{r['dtype']}-{r['kwargs']}" for r in
                              RECORDED['stft']])
def test_stft_as_mindspore(rec):
    x = {'real': SIGNAL, 'batch': np.stack([SIGNAL, SIGNAL[::-1]]),
         'complex': SIGNAL + 1j * SIGNAL[::-1]}[rec['input']]
    y = ops.stft(ms.Tensor(x.astype(DTYPES[rec['dtype']])), 4, **_stft_args(rec['kwargs']))
    assert str(y.dtype) == rec['out_dtype'] and list(y.shape) == rec['shape']
    got = y.asnumpy()
    np.testing.assert_allclose(got, _values(rec['values'], got), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize('kwargs', [{}, {'hop_length': 3, 'win_length': 3, 'normalized': True},
                                    {'center': False, 'onesided': False}])
@pytest.mark.parametrize('kind', ['real', 'complex'])
def test_stft_gradient_matches_finite_differences(kind, kwargs):
    x = RNG.standard_normal((2, 9))
    if kind == 'complex':
        x = x + 1j * RNG.standard_normal((2, 9))
    window = ms.Tensor(RNG.uniform(0.5, 1.5, kwargs.get('win_length', 4)))

    def fn(t):      # (2, frequencies, frames) flattened to 2-d for the weights
        y = ops.stft(t, 4, window=window, return_complex=True, **kwargs)
        return ops.reshape(y, (2, -1))
    _check(fn, x)


def test_shifts_keep_the_dtype_as_mindspore():
    # MindSpore 2.10's values
    x = ms.Tensor(np.arange(5, dtype=np.int32))
    assert ops.fftshift(x).asnumpy().tolist() == [3, 4, 0, 1, 2]
    assert ops.ifftshift(x).asnumpy().tolist() == [2, 3, 4, 0, 1]
    assert ops.fftshift(x).dtype == ms.int32
    x2 = ms.Tensor(INPUTS['x2'])
    assert ops.fftshift(x2, dim=1).asnumpy().tolist() == [[-1.0, 1.0, 2.0], [-2.0, 0.5, 3.0]]
    assert ops.ifftshift(x2).asnumpy().tolist() == [[3.0, -2.0, 0.5], [2.0, -1.0, 1.0]]


def test_the_functions_are_mindspores():
    assert ops.fft.__name__ == 'fft' and ms.ops.rfftfreq(4).asnumpy().tolist() == \
        [0.0, 0.25, 0.5]


# ------------------------------------------------------------------------------- errors
X = ms.Tensor(X1)


@pytest.mark.parametrize('call,error,message', [
    (lambda: ops.fft(X, norm='bad'), ValueError,
     r"""Failed to convert the value "bad" of input 'norm' of 'FFT' to enum"""),
    (lambda: ops.fft(X, n=0), ValueError, r"The argument\[n\] must be greater than 0, but got 0"),
    (lambda: ops.fft(X, dim=3), ValueError,
     r"For primitive\[FFT\], the dim must be in \[-1,1\), but got 3"),
    (lambda: ops.fft2(X), ValueError,
     r"For primitive\[FFT2\], the dim must be in \[-1,1\), but got -2"),
    (lambda: ops.fft(INPUTS['x1']), TypeError, r"For 'FFT', the input must be a Tensor"),
    (lambda: ops.fft(X.astype(ms.bool_)), TypeError, r"For 'FFT', the input dtype .* got Bool"),
    (lambda: ops.ifft(X.astype(ms.uint8)), TypeError, r"For 'IFFT', .* got UInt8"),
    (lambda: ops.fft(X, n=2.0), TypeError, r"the type of 'n' must be int, got float"),
    (lambda: ops.fftn(ms.Tensor(X2), s=(2, 3), dim=(0,)), ValueError,
     r"dim and s arguments must have the same length"),
    (lambda: ops.fftn(ms.Tensor(X2), dim=(0, 0)), ValueError, r"the dims must be unique"),
    (lambda: ops.rfft(ms.Tensor(INPUTS['z1'])), TypeError,
     r"For 'RFFT', the input must be real .* got Complex128"),
    (lambda: ops.ihfftn(ms.Tensor(INPUTS['z2'])), TypeError,
     r"For 'IHFFTN', the input must be real"),
    (lambda: ops.irfft(ms.Tensor(np.ones(1))), ValueError, r"give n"),
    (lambda: ops.fftfreq(0), ValueError, r"The argument\[n\] must be greater than 0, but got 0"),
    (lambda: ops.fftshift(X, dim=2), ValueError, r"the dim must be in \[-1,1\)"),
    (lambda: ops.stft(X, 4, win_length=5), ValueError, r"win_length \(5\) must not exceed n_fft"),
    (lambda: ops.stft(X, 4, pad_mode='wrap'), ValueError, r"pad_mode must be 'REFLECT' or"),
    (lambda: ops.stft(X, 8, center=False), ValueError, r"shorter than n_fft \(8\)"),
])
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()
