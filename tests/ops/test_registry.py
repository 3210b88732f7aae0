"""Every registered primitive has gradient-check cases somewhere in tests/ops."""
import importlib
import pkgutil

import tests.ops as op_tests
from hookgrad.autograd.function import OPS
from hookgrad.testing.cases import Case

# primitives whose checks live outside tests/ops
COVERED_ELSEWHERE = {
    'HookBackward',                                     # tests/hooks/test_hook_backward.py
    'CellBoundary',                                     # tests/hooks/test_cell_hooks.py
    'CellBprop',                                        # tests/nn/test_bprop.py
}


def covered_ops():
    names = set(COVERED_ELSEWHERE)
    for info in pkgutil.iter_modules(op_tests.__path__):
        if info.name.startswith('test_') and info.name != 'test_registry':
            module = importlib.import_module(f"tests.ops.{info.name}")
            names |= set(getattr(module, 'COVERED_OPS', ()))
            for case in getattr(module, 'CASES', ()):
                if isinstance(case, Case):
                    names |= set(case.ops)
    return names


def test_every_registered_op_has_cases():
    missing = sorted(set(OPS) - covered_ops())
    assert not missing, f"registered ops without test cases: {missing}"


def test_registry_names_are_op_classes_with_both_rules():
    for name, op in OPS.items():
        assert op.name == name
        assert callable(getattr(op, 'forward', None)), name
        if op.differentiable:
            assert callable(getattr(op, 'backward', None)), name
