"""MindSpore's element-wise functions of a sparse tensor's values: ``ops.coo_exp(x)`` is
``COOTensor(x.indices, ops.exp(x.values), x.shape)``, ``ops.csr_exp`` the same for a
CSRTensor, for each function of ``UNARY`` (each through the hookgrad op of that name, so the
values' gradients are that op's)."""
import sys

from ..common.sparse import COOTensor, CSRTensor

UNARY = ('abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'ceil', 'cos', 'cosh', 'exp',
         'expm1', 'floor', 'inv', 'isfinite', 'isinf', 'isnan', 'log', 'log1p', 'neg', 'relu',
         'relu6', 'round', 'sigmoid', 'sin', 'sinh', 'softsign', 'sqrt', 'square', 'tan', 'tanh')


def _op(name):
    return getattr(sys.modules['hookgrad.ops'], name)


def _coo(name):
    def apply(x):
        if not isinstance(x, COOTensor):
            raise TypeError(f'Expects COOTensor for coo_{name}')
        return COOTensor(x.indices, _op(name)(x.values), x.shape)
    apply.__name__ = apply.__qualname__ = f'coo_{name}'
    apply.__doc__ = f"``{name}`` of a COOTensor's values (same indices and shape)."
    return apply


def _csr(name):
    def apply(x):
        if not isinstance(x, CSRTensor):
            raise TypeError(f'Expects CSRTensor for csr_{name}')
        return CSRTensor(x.indptr, x.indices, _op(name)(x.values), x.shape)
    apply.__name__ = apply.__qualname__ = f'csr_{name}'
    apply.__doc__ = f"``{name}`` of a CSRTensor's values (same structure and shape)."
    return apply


__all__ = []
for _name in UNARY:
    globals()[f'coo_{_name}'] = _coo(_name)
    globals()[f'csr_{_name}'] = _csr(_name)
    __all__ += [f'coo_{_name}', f'csr_{_name}']
