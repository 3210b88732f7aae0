"""Every call of calls.py gives MindSpore's values, shapes and dtypes (mindspore_values.json,
written by make_mindspore_values.py with MindSpore 2.10)."""
import json
import os

import pytest

import hookgrad as ms
import hookgrad.numpy as mnp
from tests.numpy.calls import CALLS, arrays
from tests.recorded import assert_tensor_matches

with open(os.path.join(os.path.dirname(__file__), 'mindspore_values.json')) as f:
    EXPECTED = json.load(f)

# MindSpore 2.10's own float32 kernels (hypot, log2...) round differently from NumPy's.
RTOL, ATOL = 2e-5, 2e-6


def run(expr):
    env = {name: ms.Tensor(a) for name, a in arrays().items()}
    env['mnp'] = mnp
    return eval(expr, env)  # noqa: S307  (expressions of calls.py)


def compare(got, want, where):
    if 'sequence' in want:
        assert isinstance(got, (tuple, list)), f"{where}: got {type(got).__name__}, " \
                                               f"MindSpore gives a sequence"
        assert len(got) == len(want['sequence']), f"{where}: {len(got)} results"
        for k, (g, w) in enumerate(zip(got, want['sequence'])):
            compare(g, w, f"{where}[{k}]")
        return
    if 'python' in want:
        if isinstance(got, ms.Tensor):
            got = got.item() if got.ndim == 0 else got
        assert got == want['python'] or str(got) == want['python'], \
            f"{where}: {got!r}, MindSpore gives {want['python']!r}"
        return
    assert_tensor_matches(got, want, where, RTOL, ATOL)


def test_every_call_has_a_mindspore_value():
    missing = sorted(name for name, _ in CALLS if name not in EXPECTED)
    assert not missing, f"run make_mindspore_values.py: no MindSpore values for {missing}"


@pytest.mark.parametrize('name,expr', CALLS, ids=[name for name, _ in CALLS])
def test_matches_mindspore(name, expr):
    compare(run(expr), EXPECTED[name], f"{name}: {expr}")


def test_every_function_is_called():
    """Each exported function (not the dtypes, constants and grids) appears in a call."""
    text = ' '.join(expr for _, expr in CALLS)
    skip = {'rand', 'randn', 'randint',     # random: test_random.py
            'ravel_multi_index'}            # Int32, not MindSpore's Float32: test_beyond_...
    names = [n for n in mnp.__all__ if callable(getattr(mnp, n)) and n not in skip
             and not isinstance(getattr(mnp, n), ms.DType if hasattr(ms, 'DType') else type)]
    uncalled = sorted(n for n in names if f"mnp.{n}(" not in text and f"mnp.{n}[" not in text)
    assert not uncalled, f"functions without a MindSpore comparison: {uncalled}"
