"""Every registered op has a test row, and every row really applies the ops it names."""
import numpy as np
import pytest

from hookgrad._tensor import Tensor
from hookgrad.autograd.engine import run_backward
from hookgrad.autograd.function import OPS
from hookgrad.autograd.observer import OpObserver
from hookgrad.testing.cases import Case
from tests.ops.rows import all_rows


ROWS = all_rows()


def test_every_table_holds_case_rows():
    for name, case in ROWS:
        assert isinstance(case, Case), f"{name}.CASES holds {type(case).__name__}, not a Case"


def test_every_registered_op_has_a_row():
    covered = {op for _, case in ROWS for op in case.ops}
    ours = {name for name, op in OPS.items() if op.__module__.startswith('hookgrad.')}
    missing = sorted(ours - covered)
    assert not missing, f"registered ops without a test row: {missing}"
    unknown = sorted(covered - set(OPS))
    assert not unknown, f"rows name ops that are not registered: {unknown}"


class Applied(OpObserver):
    def __init__(self):
        self.names = set()

    def on_forward(self, call):
        self.names.add(call.name)

    def on_backward(self, call):
        self.names.add(call.name)


@pytest.mark.parametrize('case', [c for _, c in ROWS],
                         ids=[f"{n}:{c.label}" for n, c in ROWS])
def test_a_row_applies_the_ops_it_names(case):
    """Forward, and a recorded first-order backward where the row has gradients: the ops a row
    reaches only through higher-order gradients (the adjoint ops) are applied there."""
    seen = set()
    for shapes in case.shapes:
        arrays = case.arrays(shapes)
        wrt = case.wrt if case.wrt is not None else \
            [i for i, a in enumerate(arrays) if a.dtype.kind == 'f']
        tensors = [Tensor(a) for a in arrays]
        for i in wrt:
            tensors[i].requires_grad = True
        with Applied() as applied:
            out = case.fn(*tensors)
            outs = [o for o in (out if isinstance(out, (tuple, list)) else (out,))
                    if o.requires_grad]
            if case.grad and outs:
                run_backward(outs, [Tensor(np.ones(o.shape, o._data.dtype)) for o in outs],
                             targets=[tensors[i] for i in wrt], create_graph=True)
        seen |= applied.names
    missing = sorted(set(case.ops) - seen)
    assert not missing, f"row {case.label!r} names {missing} but never applies them"
