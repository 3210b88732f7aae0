"""MindSpore's Primitive classes for activations beyond those of ``_primitive.py`` (Sigmoid,
ReLU, GeLU, Softmax, LogSoftmax).

Each is a thin callable over the functional ops of ``hookgrad/ops`` (see ``_primitive.py``):
the same code, graph and errors. Constructor and call arguments follow MindSpore 2.10's
Primitives.
"""
from .. import activation as _act, nn_activation as _nnact
from ._primitive import GeLU, Primitive, _float, _int

__all__ = ['ReLU6', 'FastGeLU', 'FastGelu', 'Gelu', 'HSwish', 'HSigmoid', 'SeLU', 'Softplus',
           'Softsign', 'Mish', 'Elu', 'CeLU', 'PReLU', 'HShrink', 'SoftShrink', 'GLU']


class _Activation(Primitive):
    function = None

    def construct(self, x):
        return type(self).function(x)


class ReLU6(_Activation):
    """``ReLU6()(x)``: ``min(max(x, 0), 6)``."""
    function = staticmethod(_act.relu6)


class FastGeLU(_Activation):
    """``FastGeLU()(x)``: ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""
    function = staticmethod(_nnact.fast_gelu)


FastGelu = FastGeLU
Gelu = GeLU


class HSwish(_Activation):
    """``HSwish()(input)``: ``x * relu6(x + 3) / 6``."""
    function = staticmethod(_nnact.hardswish)


class HSigmoid(_Activation):
    """``HSigmoid()(input)``: ``relu6(x + 3) / 6``."""
    function = staticmethod(_nnact.hardsigmoid)


class SeLU(_Activation):
    """``SeLU()(input_x)``: scaled ELU with MindSpore's fixed alpha and scale."""
    function = staticmethod(_nnact.selu)


class Softplus(_Activation):
    """``Softplus()(input)``: ``log(1 + exp(x))``."""
    function = staticmethod(_act.softplus)


class Softsign(_Activation):
    """``Softsign()(x)``: ``x / (1 + |x|)``."""
    function = staticmethod(_nnact.softsign)


class Mish(_Activation):
    """``Mish()(x)``: ``x * tanh(softplus(x))``."""
    function = staticmethod(_nnact.mish)


class Elu(Primitive):
    """``Elu(alpha=1.0)(input_x)``: ``x`` where x > 0, ``alpha * (exp(x) - 1)`` elsewhere.

    Raises:
        TypeError: when alpha is not a float.
        ValueError: when alpha is not 1.0 (the only value MindSpore's Elu primitive takes).
    """
    def __init__(self, alpha=1.0):
        alpha = _float(alpha, 'Elu', 'alpha')
        if alpha != 1.0:
            raise ValueError(f"ops.Elu: alpha must be 1.0, got {alpha!r}")
        super().__init__(alpha=alpha)

    def construct(self, input_x):
        return _nnact.elu(input_x, self.alpha)


class CeLU(Primitive):
    """``CeLU(alpha=1.0)(x)``: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Raises:
        TypeError: when alpha is not a float. ValueError: when alpha is 0.
    """
    def __init__(self, alpha=1.0):
        alpha = _float(alpha, 'CeLU', 'alpha')
        if alpha == 0.0:
            raise ValueError("ops.CeLU: alpha must not be 0")
        super().__init__(alpha=alpha)

    def construct(self, x):
        return _nnact.celu(x, self.alpha)


class PReLU(Primitive):
    """``PReLU()(x, weight)``: ``x`` where x > 0, ``weight * x`` elsewhere, one weight per
    channel (axis 1) or one for all."""
    def construct(self, x, weight):
        return _nnact.prelu(x, weight)


class _Shrink(Primitive):
    def __init__(self, lambd=0.5):
        lambd = _float(lambd, type(self).__name__, 'lambd')
        if lambd < 0:
            raise ValueError(f"ops.{type(self).__name__}: lambd must be >= 0, got {lambd!r}")
        super().__init__(lambd=lambd)


class HShrink(_Shrink):
    """``HShrink(lambd=0.5)(input)``: ``x`` where ``|x| > lambd``, 0 elsewhere."""
    def construct(self, input):
        return _nnact.hardshrink(input, self.lambd)


class SoftShrink(_Shrink):
    """``SoftShrink(lambd=0.5)(input)``: ``x - sign(x) * lambd`` where ``|x| > lambd``, 0
    elsewhere."""
    def construct(self, input):
        return _nnact.softshrink(input, self.lambd)


class GLU(Primitive):
    """``GLU(axis=-1)(x)``: x halved along ``axis`` into (a, b), then ``a * sigmoid(b)``."""
    def __init__(self, axis=-1):
        super().__init__(axis=_int(axis, 'GLU', 'axis'))

    def construct(self, x):
        return _nnact.glu(x, self.axis)
