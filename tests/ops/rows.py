"""The tests every table of ``Case`` rows gets (hookgrad.testing.cases), as pytest functions.

A test module of op rows ends its table with ``globals().update(row_tests(CASES))``: it then
has ``test_forward_matches_reference`` (float32 and float64), and where rows have gradients
``test_backward_matches_finite_differences`` and ``test_double_backward_matches_finite_differences``,
each on the CPU and on the GPU (the CUDA stand-in in CI).
"""
import importlib
import pkgutil

import numpy as np
import pytest

from hookgrad.testing.cases import variants


def row_tables():
    """``{module name: CASES}`` for every test module of tests/ops that has rows."""
    import tests.ops as op_tests
    tables = {}
    for info in pkgutil.iter_modules(op_tests.__path__):
        if info.name.startswith('test_'):
            module = importlib.import_module(f"tests.ops.{info.name}")
            if hasattr(module, 'CASES'):
                tables[info.name] = module.CASES
    return tables


def all_rows():
    """``[(module name, Case)]`` for every row of every table of tests/ops."""
    return [(name, case) for name, cases in row_tables().items() for case in cases]


def params(cases, grad=False, double=False):
    """``pytest.param(case, shapes)`` for every variant; with ``grad`` only rows that have a
    gradient check, with ``double`` only rows that have a second-order check."""
    return [pytest.param(case, shapes, id=ident) for case, shapes, ident in variants(cases)
            if (not grad or case.grad) and (not double or (case.grad and case.double))]


def row_tests(cases, devices=('CPU', 'GPU')):
    """``{name: test function}`` for the generic checks that have rows to run, on each of
    ``devices`` ('CPU'; 'GPU': CuPy's, or the CUDA stand-in with HOOKGRAD_FAKE_GPU=1)."""
    tests = {}
    on = pytest.mark.parametrize('device', devices)

    @on
    @pytest.mark.parametrize('case,shapes', params(cases))
    @pytest.mark.parametrize('dtype', [np.float32, np.float64])
    def test_forward_matches_reference(case, shapes, dtype, device):
        case.check_forward(shapes, dtype, device)

    tests[test_forward_matches_reference.__name__] = test_forward_matches_reference
    if params(cases, grad=True):
        @on
        @pytest.mark.parametrize('case,shapes', params(cases, grad=True))
        def test_backward_matches_finite_differences(case, shapes, device):
            case.check_backward(shapes, device)

        tests[test_backward_matches_finite_differences.__name__] = \
            test_backward_matches_finite_differences
    if params(cases, double=True):
        @on
        @pytest.mark.parametrize('case,shapes', params(cases, double=True))
        def test_double_backward_matches_finite_differences(case, shapes, device):
            case.check_double_backward(shapes, device)

        tests[test_double_backward_matches_finite_differences.__name__] = \
            test_double_backward_matches_finite_differences
    return tests


def error_test(errors):
    """A test of every ``(fn, exception, message)`` of ``errors``: ``fn()`` raises that
    exception with a message matching the regular expression."""
    @pytest.mark.parametrize('fn,exc,match', errors)
    def test_errors_name_the_op_and_argument(fn, exc, match):
        with pytest.raises(exc, match=match):
            fn()
    return test_errors_name_the_op_and_argument
