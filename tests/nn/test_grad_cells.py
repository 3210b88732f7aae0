"""nn.Jvp and nn.Vjp give MindSpore 2.10's results (values produced by MindSpore 2.10)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from tests.autograd.test_forward_mode import Cube, T, V, X     # the cases MindSpore's give

pytestmark = pytest.mark.filterwarnings('ignore::DeprecationWarning')



class One(nn.Cell):
    def construct(self, x):
        return x ** 3


class Two(nn.Cell):
    def construct(self, x, y):
        return x * y, x + y


def test_jvp_cell():
    out, tangent = nn.Jvp(Cube())(X, X, (V, V))
    np.testing.assert_allclose(out.asnumpy(), [[2., 10.], [30., 68.]])
    np.testing.assert_allclose(tangent.asnumpy(), [[4., 13.], [28., 49.]])
    _, single = nn.Jvp(One())(X, V)
    np.testing.assert_allclose(single.asnumpy(), [[3., 12.], [27., 48.]])
    (o1, o2), (t1, t2) = nn.Jvp(Two())(X, X, (V, V))
    np.testing.assert_allclose(t1.asnumpy(), [[2., 4.], [6., 8.]])
    np.testing.assert_allclose(t2.asnumpy(), [[2., 2.], [2., 2.]])


def test_vjp_cell():
    out, (gx, gy) = nn.Vjp(Cube())(X, X, V)
    np.testing.assert_allclose(out.asnumpy(), [[2., 10.], [30., 68.]])
    np.testing.assert_allclose(gx.asnumpy(), [[3., 12.], [27., 48.]])
    np.testing.assert_allclose(gy.asnumpy(), [[1., 1.], [1., 1.]])
    _, single = nn.Vjp(One())(X, V)
    assert isinstance(single, ms.Tensor)
    np.testing.assert_allclose(single.asnumpy(), [[3., 12.], [27., 48.]])
    _, (g1, g2) = nn.Vjp(Two())(X, X, (V, V))
    np.testing.assert_allclose(g1.asnumpy(), [[2., 3.], [4., 5.]])


def test_cells_hold_fn_as_a_sub_cell_and_warn_that_they_are_deprecated():
    with pytest.warns(DeprecationWarning, match="'Jvp' is deprecated from version 1.9 .* use 'ops.jvp' instead"):
        jvp_cell = nn.Jvp(One())
    with pytest.warns(DeprecationWarning, match="'Vjp' is deprecated from version 1.9 .* use 'ops.vjp' instead"):
        nn.Vjp(One())
    assert [name for name, _ in jvp_cell.cells_and_names()] == ['', 'fn']
    assert jvp_cell.trainable_params() == []


def test_functions_work_too_and_bad_calls_say_what_is_wrong():
    _, tangent = nn.Jvp(lambda x: x * 2)(X, V)
    np.testing.assert_allclose(tangent.asnumpy(), [[2., 2.], [2., 2.]])
    with pytest.raises(TypeError, match="Jvp: expected the inputs of fn and then v, got 1 argument"):
        nn.Jvp(One())(X)
    with pytest.raises(ValueError, match="Jvp: v has 1 tangent for 2 inputs"):
        nn.Jvp(Cube())(X, X, V)
    with pytest.raises(TypeError, match="Vjp: expected the inputs of fn and then v, got 1 argument"):
        nn.Vjp(One())(X)
    with pytest.raises(ValueError, match=r"Vjp: cotangent of shape \(2,\) does not match the output shape \(2, 2\)"):
        nn.Vjp(One())(X, T([1., 1.]))
