"""The calls of the optimizer Primitive checks against MindSpore 2.10's recorded values: one
table shared by the recording script (run with MindSpore) and the test (run with hookgrad).
Each call is text evaluated with ``P`` (``ops.operations``), ``ms``, ``np``, ``T`` (a Tensor
from a nested list and a dtype name) and ``W`` (a Parameter); every call's outputs are
recorded with the Parameters it updates in place (``W`` in order of creation)."""
import numpy as np

_V = "W([[0.5, -1.0], [2.0, 0.25]])"
_A = "W([[0.1, 0.2], [0.3, 0.4]])"
_B = "W([[0.05, -0.1], [0.2, 0.0]])"
_C = "W([[0.2, 0.1], [0.4, 0.3]])"
_G = "T([[0.3, -0.2], [-0.5, 0.1]])"
_V3 = "W([[0.5, -1.0], [2.0, 0.25], [1.0, -0.5]])"
_A3 = "W([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])"
_B3 = "W([[0.05, -0.1], [0.2, 0.0], [0.1, 0.1]])"
_G2 = "T([[0.3, -0.2], [-0.5, 0.1]])"
_G3 = "T([[0.3, -0.2], [-0.5, 0.1], [0.2, 0.2]])"
_I = "T([2, 0], 'int32')"
_I3 = "T([2, 0, 2], 'int32')"

CALLS = {
    'ApplyAdaMax': f"P.ApplyAdaMax()({_V}, {_A}, {_C}, T(0.9), T(0.01), T(0.9), T(0.99), "
                   f"T(1e-8), {_G})",
    'ApplyAddSign': f"P.ApplyAddSign()({_V}, {_B}, T(0.01), T(1.0), T(0.5), T(0.9), {_G})",
    'ApplyPowerSign': f"P.ApplyPowerSign()({_V}, {_B}, T(0.01), T(np.e), T(0.5), T(0.9), "
                      f"{_G})",
    'ApplyKerasMomentum': f"P.ApplyKerasMomentum()({_V}, {_B}, T(0.01), {_G}, T(0.9))",
    'ApplyKerasMomentum_nesterov': f"P.ApplyKerasMomentum(use_nesterov=True)({_V}, {_B}, "
                                   f"T(0.01), {_G}, T(0.9))",
    'ApplyCenteredRMSProp': f"P.ApplyCenteredRMSProp()({_V}, {_B}, {_C}, {_A}, {_G}, T(0.01), "
                            f"T(0.9), T(0.5), T(1e-6))",
    'ApplyProximalAdagrad': f"P.ApplyProximalAdagrad()({_V}, {_A}, T(0.1), T(0.05), T(0.2), "
                            f"{_G})",
    'ApplyAdagradDA': f"P.ApplyAdagradDA()({_V}, {_B}, {_A}, {_G}, T(0.1), T(0.05), T(0.2), "
                      f"T(3, 'int32'))",
    'ApplyAdagradDA_l1_0': f"P.ApplyAdagradDA()({_V}, {_B}, {_A}, {_G}, T(0.1), T(0.0), "
                           f"T(0.2), T(2, 'int32'))",
    'ApplyAdamWithAmsgrad': f"P.ApplyAdamWithAmsgrad(beta1=0.9, beta2=0.99, epsilon=1e-6)("
                            f"{_V}, {_B}, {_A}, {_C}, T(0.9), T(0.99), T(0.01), {_G})",
    'ApplyAdamWithAmsgradV2': f"P.ApplyAdamWithAmsgradV2()({_V}, {_B}, {_A}, {_C}, T(0.81), "
                              f"T(0.98), T(0.01), T(0.9), T(0.99), T(1e-6), {_G})",
    'SparseApplyAdagrad': f"P.SparseApplyAdagrad(lr=0.1)({_V3}, {_A3}, {_G2}, {_I})",
    'SparseApplyAdagrad_repeat': f"P.SparseApplyAdagrad(lr=0.1)({_V3}, {_A3}, {_G3}, {_I3})",
    'SparseApplyAdagradV2': f"P.SparseApplyAdagradV2(lr=0.1, epsilon=1e-3)({_V3}, {_A3}, "
                            f"{_G2}, {_I})",
    'SparseApplyProximalAdagrad': f"P.SparseApplyProximalAdagrad()({_V3}, {_A3}, T(0.1), "
                                  f"T(0.05), T(0.2), {_G2}, {_I})",
    'SparseApplyFtrl': f"P.SparseApplyFtrl(lr=0.1, l1=0.05, l2=0.2, lr_power=-0.5)({_V3}, "
                       f"{_A3}, {_B3}, {_G2}, {_I})",
    'SparseApplyRMSProp': f"P.SparseApplyRMSProp(rho=0.9, momentum=0.5, epsilon=1e-6)({_V3}, "
                          f"{_A3}, {_B3}, T(0.01), {_G3}, {_I3})",
}


def call(name, ms, P):
    """Run the call ``name``: ``(outputs, parameters)``, the Parameters it created in order."""
    made = []

    def T(value, dtype='float32'):
        return ms.Tensor(np.array(value, dtype=np.dtype(dtype)))

    def W(value):
        made.append(ms.Parameter(T(value), name=f"w{len(made)}"))
        return made[-1]
    out = eval(CALLS[name], {'P': P, 'ms': ms, 'np': np, 'T': T, 'W': W})  # noqa: S307
    return (out if isinstance(out, (tuple, list)) else (out,)), made
