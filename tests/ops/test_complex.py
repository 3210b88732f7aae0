"""Complex tensors: the complex ops (rows on real inputs), gradients of complex functions against
finite differences on the real and imaginary parts, MindSpore 2.10's printed values and dtypes,
and the ops that refuse complex inputs rather than drop their imaginary parts."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import ops
from hookgrad.autograd import complex_support
from hookgrad.testing.cases import Case, normal, positive
from tests.ops.rows import row_tests

PAIRS = [((3, 4), (3, 4)), ((3, 4), (4,))]


def _make(a, b):
    return ops.Complex()(a, b)


CASES = [
    Case(('Complex', 'Real'), lambda a, b: ops.real(_make(a, b)), ref=lambda a, b: a + 0 * b,
         shapes=PAIRS, name='real_of_complex'),
    Case(('Complex', 'Imag'), lambda a, b: ops.imag(_make(a, b)), ref=lambda a, b: b + 0 * a,
         shapes=PAIRS, name='imag_of_complex'),
    Case(('Complex', 'Conj', 'Imag'), lambda a, b: ops.imag(ops.conj(_make(a, b))),
         ref=lambda a, b: -b + 0 * a, shapes=PAIRS, name='conj'),
    Case(('Complex', 'ComplexAbs'), lambda a, b: ops.ComplexAbs()(_make(a, b)),
         ref=np.hypot, shapes=PAIRS, domains=(positive, normal), name='complex_abs'),
    Case(('Complex', 'Angle'), lambda a, b: ops.angle(_make(a, b)),
         ref=lambda a, b: np.arctan2(b, a), shapes=PAIRS, domains=(positive, normal),
         name='angle'),
    Case(('Polar', 'Real'), lambda r, t: ops.real(ops.polar(r, t)),
         ref=lambda r, t: r * np.cos(t), shapes=PAIRS, name='polar_real'),
    Case(('Polar', 'Imag'), lambda r, t: ops.imag(ops.polar(r, t)),
         ref=lambda r, t: r * np.sin(t), shapes=PAIRS, name='polar_imag'),
    Case(('Complex', 'ViewAsReal'), lambda a, b: ops.view_as_real(_make(a, b)),
         ref=lambda a, b: np.stack(np.broadcast_arrays(a, b), -1), shapes=PAIRS,
         name='view_as_real'),
    Case(('Complex', 'ComplexSign', 'Real'), lambda a, b: ops.real(ops.sgn(_make(a, b))),
         ref=lambda a, b: a / np.hypot(a, b), shapes=PAIRS, domains=(positive, normal),
         grad=False, name='sgn'),
]
globals().update(row_tests(CASES))


# ------------------------------------------------------------- gradients of complex functions
def _numeric_grad(loss, z, eps=1e-6):
    """dL/dx + i dL/dy of the real loss ``loss`` (a function of a complex128 array), by
    central differences."""
    g = np.zeros_like(z)
    for i in np.ndindex(z.shape):
        for unit in (1.0, 1j):
            up, down = z.copy(), z.copy()
            up[i] += eps * unit
            down[i] -= eps * unit
            g[i] += unit * (loss(up) - loss(down)) / (2 * eps)
    return g


RNG = np.random.default_rng(7)
Z = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3)) + (1.5 + 0.5j)
W = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
M = RNG.standard_normal((3, 2)) + 1j * RNG.standard_normal((3, 2))
# a real loss that sees both parts of a complex output
A, B = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))

FUNCTIONS = {
    'mul': lambda z, w: z * w, 'div': lambda z, w: z / w, 'rdiv': lambda z, w: w / z,
    'add': lambda z, w: z + w * 2, 'sub': lambda z, w: w - z, 'neg': lambda z, w: -z,
    'exp': lambda z, w: ops.exp(z), 'log': lambda z, w: ops.log(z),
    'sqrt': lambda z, w: ops.sqrt(z), 'rsqrt': lambda z, w: ops.rsqrt(z),
    'square': lambda z, w: ops.square(z), 'reciprocal': lambda z, w: ops.reciprocal(z),
    'sin': lambda z, w: ops.sin(z), 'cos': lambda z, w: ops.cos(z),
    'tan': lambda z, w: ops.tan(z), 'tanh': lambda z, w: ops.tanh(z),
    'sinh': lambda z, w: ops.sinh(z), 'cosh': lambda z, w: ops.cosh(z),
    'expm1': lambda z, w: ops.expm1(z), 'log1p': lambda z, w: ops.log1p(z),
    'conj_times': lambda z, w: ops.conj(z) * w, 'abs': lambda z, w: ops.abs(z),
    'angle': lambda z, w: ops.angle(z), 'sum': lambda z, w: ops.sum(z * w, 1),
    'mean': lambda z, w: ops.mean(z, 0) * w, 'cumsum': lambda z, w: ops.cumsum(z, 1) * w,
    'transpose_reshape': lambda z, w: ops.reshape(ops.transpose(z, (1, 0)), (2, 3)) * w,
    'getitem_concat': lambda z, w: ops.concat((z[:, 1:], z[:, :1]), 1) * w,
    'matmul': lambda z, w: ops.matmul(z, ms.Tensor(M)),
    'cast_to_real': lambda z, w: z.astype(ms.float64) * ops.real(w),
    'view_as_real': lambda z, w: ops.view_as_real(z * w),
}


def _loss_of(fn):
    def loss(z):
        out = fn(z, ms.Tensor(W))
        if out._data.dtype.kind == 'c':
            return (ops.real(out) * ms.Tensor(A[..., :out.shape[-1]]) +
                    ops.imag(out) * ms.Tensor(B[..., :out.shape[-1]])).sum()
        weights = np.resize(A, out.shape)
        return (out * ms.Tensor(weights)).sum()
    return loss


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_gradient_of_a_complex_function_matches_finite_differences(name):
    loss = _loss_of(FUNCTIONS[name])
    got = ms.grad(loss)(ms.Tensor(Z)).asnumpy()
    want = _numeric_grad(lambda z: float(loss(ms.Tensor(z)).asnumpy()), Z)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_gradients_of_real_inputs_through_complex_ops():
    a, b = ms.Tensor(A), ms.Tensor(B)

    def loss(x, y):
        z = ops.Complex()(x, y)
        return ops.real(z * ops.conj(z) + ops.polar(x * x + 1, y)).sum()
    ga, gb = ms.grad(loss, grad_position=(0, 1))(a, b)
    r, t = A * A + 1, B
    np.testing.assert_allclose(ga.asnumpy(), 2 * A + 2 * A * np.cos(t), rtol=1e-10)
    np.testing.assert_allclose(gb.asnumpy(), 2 * B - r * np.sin(t), rtol=1e-10)


def test_gradients_of_gradients_through_complex_ops():
    z = ms.Tensor(np.array([1.0 + 2.0j, 0.5 - 1.0j]))
    # d/dz of |z|^2 is 2z; the gradient of its real part's sum is 2 everywhere
    first = ms.grad(lambda z: ops.real(z * ops.conj(z)).sum())
    second = ms.grad(lambda z: ops.real(first(z)).sum())(z)
    np.testing.assert_allclose(second.asnumpy(), [2.0, 2.0])


# -------------------------------------------------------------- MindSpore's values and dtypes
def test_printing_as_mindspore():
    # MindSpore 2.10 prints these lines
    assert repr(ms.Tensor(np.array([1 + 2j, 3 - 1.5j], np.complex64))) == \
        "Tensor(shape=[2], dtype=Complex64, value= [1+2j, 3-1.5j])"
    assert repr(ms.Tensor(np.array([[1 + 2j, 3 - 1.5j], [0.1j, -2]]))) == (
        "Tensor(shape=[2, 2], dtype=Complex128, value=\n[[1+2j, 3-1.5j],\n [0+0.1j, -2+0j]])")
    assert repr(ms.Tensor(1 + 2j)) == "Tensor(shape=[], dtype=Complex128, value= 1+2j)"
    values = np.array([1e10 + 1e-7j, 123456.789 - 0.000123j, np.nan + 1j,
                       np.inf - np.inf * 1j], np.complex128)
    assert repr(ms.Tensor(values)) == ("Tensor(shape=[4], dtype=Complex128, value= "
                                       "[1e+10+1e-07j, 123457-0.000123j, nan+1j, -nan-infj])")
    assert str(ms.Tensor(np.array([1 + 2j, 3 - 1.5j], np.complex64))) == "[1.+2.j  3.-1.5j]"


def test_values_and_dtypes_as_mindspore():
    z = ms.Tensor(np.array([[1 + 2j, 3 - 1j], [0.5j, -2]], np.complex64))
    x = ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    assert ms.Tensor([1 + 2j, 3]).dtype == ms.complex128
    assert (z[0] + x[:2]).dtype == ms.complex64
    assert (z[0] + ms.Tensor(np.array([1.0, 2.0]))).dtype == ms.complex128
    assert (z + ms.Tensor(np.array([1, 2], np.int32))).dtype == ms.complex64
    assert ops.real(z).dtype == ms.float32 and ops.angle(z).dtype == ms.float32
    abs_z = ops.abs(z)              # MindSpore 2.10 keeps the complex dtype
    assert abs_z.dtype == ms.complex64
    assert repr(abs_z) == ("Tensor(shape=[2, 2], dtype=Complex64, value=\n"
                           "[[2.23607+0j, 3.16228+0j],\n [0.5+0j, 2+0j]])")
    assert ops.ComplexAbs()(z).dtype == ms.float32
    assert repr(z.mean(axis=1)) == \
        "Tensor(shape=[2], dtype=Complex64, value= [2+0.5j, -1+0.25j])"
    assert repr(ops.sgn(z)) == ("Tensor(shape=[2, 2], dtype=Complex64, value=\n"
                                "[[0.447214+0.894427j, 0.948683-0.316228j],\n [0+1j, -1+0j]])")
    assert repr(z.H) == ("Tensor(shape=[2, 2], dtype=Complex64, value=\n"
                         "[[1-2j, 0-0.5j],\n [3+1j, -2-0j]])")
    assert z.is_complex() and not x.is_complex()
    assert ops.isreal(z).asnumpy().tolist() == [[False, False], [False, True]]
    assert repr(ops.Polar()(x[:2], x[:2])) == \
        "Tensor(shape=[2], dtype=Complex64, value= [0.540302+0.841471j, -0.832294+1.81859j])"
    assert x.astype(ms.complex128).asnumpy().tolist() == [1, 2, 3, 4]
    assert z.astype(ms.float32).asnumpy().tolist() == [[1, 3], [0, -2]]     # the real parts


def test_gradients_as_mindspore():
    z = ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex64))
    # MindSpore 2.10's values
    assert repr(ms.grad(lambda z: ops.real(z).sum())(z)) == \
        "Tensor(shape=[2], dtype=Complex64, value= [1+0j, 1+0j])"
    assert repr(ms.grad(lambda z: ops.imag(z).sum())(z)) == \
        "Tensor(shape=[2], dtype=Complex64, value= [0+1j, 0+1j])"
    assert repr(ms.grad(lambda z: ops.real(ops.exp(z)).sum())(z)) == \
        "Tensor(shape=[2], dtype=Complex64, value= [-1.1312-2.47173j, 10.8523+16.9014j])"
    assert repr(ms.grad(lambda z: ops.abs(z).sum())(z)) == \
        "Tensor(shape=[2], dtype=Complex64, value= [0.447214+0.894427j, 0.948683-0.316228j])"
    assert repr(ms.grad(lambda z: (ops.real(z) ** 2 + ops.imag(z) ** 2).sum())(z)) == \
        "Tensor(shape=[2], dtype=Complex64, value= [2+4j, 6-2j])"


# ------------------------------------------------------------------ refusals, never silence
@pytest.mark.parametrize('call', [ops.relu, lambda z: z.max(), lambda z: ops.sort(z),
                                  lambda z: ops.clamp(z, 0, 1), ops.sigmoid, ops.log_softmax])
def test_an_op_for_real_numbers_refuses_complex_inputs(call):
    z = ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex64))
    with pytest.raises(TypeError, match=r"complex|imaginary"):
        call(z)


def test_an_op_that_would_drop_the_imaginary_part_says_so():
    z = ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex64))
    with pytest.raises(TypeError, match=r"dropping its imaginary part.*use ops\.real"):
        ops.var(z)


def test_a_gradient_through_a_forward_only_op_is_refused():
    z = ms.Tensor(np.array([1 + 2j, 3 - 1j], np.complex64))
    with pytest.raises(TypeError, match=r"For 'Pow', gradient not support for complex type"):
        ms.grad(lambda z: ops.real(z ** 2.5).sum())(z)
    assert ops.real(z ** 2).asnumpy().tolist() == [-3.0, 8.0]      # forward is fine


def test_the_check_starts_with_the_first_complex_tensor():
    ms.Tensor(np.zeros(1, np.complex64))
    assert complex_support._enabled
    assert all(op.name in complex_support.GRADIENT or op.__dict__.get('_complex_guarded')
               for op in ms.autograd.function.OPS.values())
