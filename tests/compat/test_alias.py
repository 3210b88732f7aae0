"""MindSpore code runs unchanged: ``mindspore`` and its submodules are hookgrad's, and a name
hookgrad lacks says so."""
import importlib
import os
import subprocess
import sys
import textwrap

import pytest

import hookgrad
from hookgrad.compat import NotAvailable, alias_mindspore, unalias_mindspore


@pytest.fixture
def mindspore():
    ms = alias_mindspore()
    yield ms
    unalias_mindspore()


def test_mindspore_and_its_module_paths_are_hookgrads(mindspore):
    import mindspore.nn as nn
    import mindspore.ops.operations as P
    from mindspore import Tensor, context, ops
    from mindspore.common import dtype as mstype
    from mindspore.common.initializer import Normal
    from mindspore.nn.optim import Momentum
    from mindspore.ops import composite as C, functional as F
    from mindspore.train.serialization import save_checkpoint
    from mindspore.nn.learning_rate_schedule import CosineDecayLR
    from mindspore.nn.dynamic_lr import piecewise_constant_lr
    from mindspore.common.api import _pynative_executor
    from mindspore.nn.loss.loss import LossBase
    from mindspore.nn.wrap.cell_wrapper import TrainOneStepCell
    from mindspore.nn.optim.momentum import Momentum as DeepMomentum
    from mindspore.nn.layer.container import SequentialCell
    assert LossBase is hookgrad.nn.LossBase and TrainOneStepCell is hookgrad.nn.TrainOneStepCell
    assert DeepMomentum is Momentum and SequentialCell is hookgrad.nn.SequentialCell
    from mindspore.ops.operations.nn_ops import Conv2D
    from mindspore.ops.operations import math_ops, array_ops
    assert Conv2D is hookgrad.ops.Conv2D and math_ops.MatMul is hookgrad.ops.MatMul
    assert array_ops.Concat is hookgrad.ops.Concat and 'MatMul' not in array_ops.__all__
    assert CosineDecayLR is hookgrad.nn.CosineDecayLR
    assert piecewise_constant_lr([2, 4], [0.1, 0.01]) == [0.1, 0.1, 0.01, 0.01]
    assert _pynative_executor.sync() is None
    assert mindspore is hookgrad and nn is hookgrad.nn and ops is hookgrad.ops
    assert Tensor is hookgrad.Tensor and context is hookgrad.context
    assert P.MatMul is hookgrad.ops.MatMul and F.matmul is hookgrad.ops.matmul
    assert C.GradOperation is hookgrad.ops.GradOperation and mstype.float32 is hookgrad.float32
    assert Normal is hookgrad.common.initializer.Normal and Momentum is hookgrad.nn.Momentum
    assert save_checkpoint is hookgrad.save_checkpoint
    assert hookgrad.__spec__.name == 'hookgrad' and hookgrad.nn.__name__ == 'hookgrad.nn'


def test_the_alias_is_undone(mindspore):
    unalias_mindspore()
    assert 'mindspore' not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module('mindspore')
    alias_mindspore()


def test_a_module_hookgrad_lacks_says_so(mindspore):
    with pytest.raises(ModuleNotFoundError, match=r"^mindspore\.rewrite is not available in "
                                                  r"hookgrad \(a MindSpore module of that"):
        import mindspore.rewrite  # noqa: F401
    with pytest.raises(ImportError, match="mindspore.rewrite is not available in hookgrad"):
        from mindspore import rewrite  # noqa: F401
    with pytest.raises(ModuleNotFoundError, match="MindSpore has none"):
        import mindspore.no_such_module  # noqa: F401


def test_a_name_hookgrad_lacks_says_so():
    with pytest.raises(NotAvailable, match=r"^module 'mindspore\.ops' has no attribute "
                                           r"'einsum_nope' \(nor has MindSpore 2\.10\)$"):
        hookgrad.ops.einsum_nope
    with pytest.raises(AttributeError, match=r"^mindspore\.rewrite is not available"):
        hookgrad.rewrite
    assert not hasattr(hookgrad, 'rewrite')
    assert getattr(hookgrad.nn, 'NoSuchLayer', 7) == 7
    t = hookgrad.Tensor([1.0])
    with pytest.raises(AttributeError, match=r"^Tensor\.storage of MindSpore is not available"):
        t.storage
    with pytest.raises(AttributeError, match=r"^'Tensor' object has no attribute 'zzz'$"):
        t.zzz


def test_from_import_of_a_missing_name_is_an_import_error_that_says_so(mindspore):
    with pytest.raises(ImportError, match=r"^mindspore\.rewrite is not available"):
        from mindspore import rewrite  # noqa: F401
    with pytest.raises(ImportError, match=r"'mindspore\.ops' has no attribute 'no_such_op'"):
        from mindspore.ops import no_such_op  # noqa: F401


def _run(tmp_path, source, *args, module=False):
    script = tmp_path / 'train.py'
    script.write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(hookgrad.__file__)), str(tmp_path)]))
    target = ['-m', 'train'] if module else [str(script)]
    return subprocess.run([sys.executable, '-m', 'hookgrad', 'run', *target, *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)


SCRIPT = '''
import sys
import numpy as np
import mindspore as ms
from mindspore import nn, ops, context
import mindspore.ops.operations as P

context.set_context(mode=context.GRAPH_MODE)
net = nn.Dense(3, 2)
grad_fn = ms.value_and_grad(lambda x: ops.sum(net(x)), None, net.trainable_params())
loss, grads = grad_fn(ms.Tensor(np.ones((4, 3), np.float32)))
print(sys.argv[1:], type(ms).__name__, ms.__name__, P.MatMul.__name__, len(grads))
'''


def test_hookgrad_run_runs_a_mindspore_script(tmp_path):
    out = _run(tmp_path, SCRIPT, '--epochs', '2')
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['--epochs', '2'] module hookgrad MatMul 2"


def test_hookgrad_run_dash_m(tmp_path):
    out = _run(tmp_path, SCRIPT, 'x', module=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("['x'] module hookgrad")


def test_hookgrad_run_reports_what_is_missing(tmp_path):
    out = _run(tmp_path, 'from mindspore import SymbolTree\n')
    assert out.returncode == 1
    assert 'mindspore.SymbolTree is not available in hookgrad' in out.stderr
    out = _run(tmp_path, 'import sys\nsys.exit(3)\n')
    assert out.returncode == 3


def test_hookgrad_run_needs_a_target():
    out = subprocess.run([sys.executable, '-m', 'hookgrad', 'run'], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and 'give a script' in out.stderr


def test_the_docs_examples_of_missing_names_fail_as_shown(tmp_path):
    """docs/compat.md, "When a name is missing": each example raises the error it shows."""
    import pathlib
    import re
    text = (pathlib.Path(hookgrad.__file__).parents[1] / 'docs' / 'compat.md').read_text()
    block = text.split('## When a name is missing', 1)[1]
    block = re.search(r"```text\n(.*?)\n```", block, re.S).group(1).splitlines()
    pairs = [(block[i][4:], block[i + 1]) for i in range(0, len(block), 2)]
    script = 'import mindspore as ms\nx = ms.Tensor([1.0])\n'
    for stmt, _ in pairs:
        script += (f"try:\n    exec({stmt!r})\nexcept Exception as e:\n"
                   f"    print(type(e).__mro__[1].__name__ if type(e).__name__.startswith("
                   f"'NotAvailable') else type(e).__name__, e, sep=': ')\n")
    out = _run(tmp_path, script)
    assert out.stdout.splitlines() == [shown for _, shown in pairs], out.stderr
