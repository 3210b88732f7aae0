"""The primitives of hookgrad.numpy (cube root, bit inversion, gcd, lcm, unique positions,
set membership) against NumPy and finite differences."""
import numpy as np

import hookgrad.numpy as mnp
from hookgrad.testing.cases import Case
from tests.ops.rows import row_tests

SHAPES = [((),), ((5,),), ((3, 4),)]
PAIRS = [((5,), (5,)), ((3, 4), (4,)), ((2, 1), (1, 3))]


def away_from_zero(rng, shape):
    """|x| >= 0.3: clear of the cube root's infinite slope at 0."""
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.3, 2.0, size=shape)


def integers(rng, shape):
    return rng.integers(-40, 40, size=shape).astype(np.int32)


def small_floats(rng, shape):
    """Whole numbers in [-3, 3] as floats: repeats for unique and isin to find."""
    return rng.integers(-3, 4, size=shape).astype(float)


def distinct(rng, shape):
    """Distinct values (every one unique), so the gradient of each is its own."""
    n = int(np.prod(shape))
    return (rng.permutation(n).reshape(shape) - n / 2) * 0.5 + rng.uniform(-0.1, 0.1, shape)


def _unique_ref(x):
    values, inverse = np.unique(x, return_inverse=True)
    return values, inverse.reshape(-1)


CASES = [
    Case('Cbrt', mnp.cbrt, ref=np.cbrt, shapes=SHAPES, domains=(away_from_zero,),
         rtol=1e-13, atol=1e-13),
    Case('Invert', mnp.invert, ref=np.invert, shapes=SHAPES, domains=(integers,), grad=False),
    Case('Gcd', mnp.gcd, ref=np.gcd, shapes=PAIRS, domains=(integers, integers), grad=False),
    Case('Lcm', mnp.lcm, ref=np.lcm, shapes=PAIRS, domains=(integers, integers), grad=False),
    Case('UniqueIndex', lambda x: mnp.unique(x, return_inverse=True), ref=_unique_ref,
         shapes=[((7,),), ((3, 4),)], domains=(small_floats,), grad=False, name='unique'),
    Case('UniqueIndex', lambda x: mnp.unique(x, return_inverse=True), ref=_unique_ref,
         shapes=[((6,),), ((2, 3),)], domains=(distinct,), name='unique-gradient'),
    Case('IsIn', mnp.isin, ref=np.isin, shapes=[((6,), (3,)), ((3, 4), (2, 2))],
         domains=(small_floats, small_floats), grad=False),
]

globals().update(row_tests(CASES))


def test_unique_gradient_reaches_every_repeat_once():
    """The gradient of a unique value goes to its first occurrence only."""
    import hookgrad as ms
    x = ms.Tensor(np.array([2.0, 1.0, 2.0, 3.0]), requires_grad=True)
    mnp.sum(mnp.multiply(mnp.unique(x), mnp.array([10.0, 20.0, 30.0]))).backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [20.0, 10.0, 0.0, 30.0])
