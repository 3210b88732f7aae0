"""pytest parameters from ``Case`` rows (hookgrad.testing.cases): one per variant of a row."""
import pytest

from hookgrad.testing.cases import variants


def params(cases, grad=False, double=False):
    """``pytest.param(case, shapes)`` for every variant; with ``grad`` only rows that have a
    gradient check, with ``double`` only rows that have a second-order check."""
    return [pytest.param(case, shapes, id=ident) for case, shapes, ident in variants(cases)
            if (not grad or case.grad) and (not double or (case.grad and case.double))]
