"""Every report of "where" names the user's line: op sources for observers and nan_guard, the
nodes named by backward errors, NumPy's floating-point warnings from backward rules, and the
warnings hookgrad issues."""
import sys
import types
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import _frames, nn, ops
from hookgrad.autograd.observer import OpObserver
from hookgrad.debug import nan_guard


class Sources(OpObserver):
    """Keeps ``(phase, op, source)`` of every op and backward rule, read inside the callback."""

    def __init__(self, record_source=True):
        self.record_source = record_source
        self.seen = []

    def on_forward(self, call):
        self.seen.append(('forward', call.name, call.source))

    def on_backward(self, call):
        self.seen.append(('backward', call.name, call.source))


def here():
    """``(file, line)`` of the caller's line."""
    frame = sys._getframe(1)
    return frame.f_code.co_filename, frame.f_lineno


def sample():
    return ms.Tensor(np.linspace(0.1, 0.9, 6, dtype=np.float32).reshape(2, 3))


def _methods():
    """The public Tensor methods that run at least one op with no argument or with a tensor of
    the same shape."""
    found = []
    for name in sorted(dir(ms.Tensor)):
        if name.startswith('_') or not callable(getattr(ms.Tensor, name, None)):
            continue
        for args in ((), ('tensor',)):
            observer = Sources(record_source=False)
            try:
                with observer, warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    getattr(sample(), name)(*[sample() for _ in args])
            except Exception:
                continue
            if observer.seen:
                found.append((name, len(args)))
                break
    return found


METHODS = _methods()


def test_the_methods_checked_here_cover_the_tensor_methods_in_every_module():
    modules = {getattr(ms.Tensor, name).__module__ for name, _ in METHODS}
    assert len(METHODS) > 150
    assert {'hookgrad._tensor.tensor', 'hookgrad._tensor.methods', 'hookgrad._tensor.elementwise',
            'hookgrad._tensor.reductions', 'hookgrad._tensor.shaping'} <= modules


@pytest.mark.parametrize('record_source', [True, False], ids=['recorded', 'read-in-callback'])
@pytest.mark.parametrize('name,n_args', METHODS, ids=[name for name, _ in METHODS])
def test_every_tensor_method_reports_the_callers_line(name, n_args, record_source):
    x, args = sample(), [sample() for _ in range(n_args)]
    observer = Sources(record_source)
    with observer, warnings.catch_warnings():
        warnings.simplefilter('ignore')
        line = here(); getattr(x, name)(*args)       # noqa: E702  (the op's line is this one)
    assert observer.seen
    assert {source for _, _, source in observer.seen} == {line}, observer.seen


def test_backward_rules_report_the_forward_line_of_their_node():
    x = ms.Tensor([1.0, 2.0], requires_grad=True)
    with Sources() as observer:
        y = x.divide(ms.Tensor([3.0, 4.0])); line_div = here()       # noqa: E702
        z = y.exp().clip(0, 2); line_exp = here()                    # noqa: E702
        z.sum().backward()
    rules = {name: source for phase, name, source in observer.seen if phase == 'backward'}
    assert rules['Div'] == line_div
    assert rules['Exp'] == rules['Clamp'] == line_exp


def test_a_source_read_inside_on_forward_is_the_ops_line_not_the_observers():
    class Lazy(OpObserver):
        seen = []

        def on_forward(self, call):
            Lazy.seen.append(call.source)

    with Lazy():
        ms.Tensor([1.0]).exp(); line = here()          # noqa: E702
    assert Lazy.seen == [line]


def test_a_source_first_read_after_the_callbacks_is_unknown():
    class Keep(OpObserver):
        calls = []

        def on_forward(self, call):
            Keep.calls.append(call)         # kept, not read: its frames are not kept alive

    with Keep():
        ms.Tensor([1.0]).exp()
    assert Keep.calls[0].source is None


def test_nan_guard_names_the_line_of_a_method_call():
    x = ms.Tensor([1.0, 0.0])
    with nan_guard(action='record') as guard, warnings.catch_warnings():
        warnings.simplefilter('ignore')
        x.divide(ms.Tensor([0.0, 0.0])); line = here()     # noqa: E702
    (report,) = guard.reports
    assert report.op == 'Div' and report.source == f"{line[0]}:{line[1]}"


def test_an_error_in_backward_names_the_forward_line_of_its_node():
    x = ms.Tensor([1.0, 2.0], requires_grad=True)

    def fail(grad):
        raise RuntimeError("planted")

    with Sources():
        y = x.multiply(ms.Tensor([3.0, 4.0])); line = here()   # noqa: E702
        y.register_hook(fail)
        with pytest.raises(RuntimeError, match="planted") as info:
            y.sum().backward()
    if sys.version_info >= (3, 11):
        assert f"created at {line[0]}:{line[1]}" in ''.join(info.value.__notes__)


# --------------------------------------------------------------------------- NumPy's warnings
def _caught(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        fn()
    return [(w.category, w.filename, w.lineno, str(w.message)) for w in caught]


def test_a_floating_point_warning_of_a_backward_rule_names_the_op_at_the_backward_line():
    x = ms.Tensor([0.0, 1.0], requires_grad=True)
    y = ops.sqrt(x)

    def run():
        y.sum().backward(); run.line = here()          # noqa: E702

    (warning,) = _caught(run)
    assert warning[:3] == (RuntimeWarning, __file__, run.line[1])
    assert warning[3].startswith("the backward of 'Sqrt': divide by zero encountered (")
    assert "nan_guard" in warning[3]
    np.testing.assert_array_equal(x.grad.asnumpy(), [np.inf, 0.5])     # the gradient as before


@pytest.mark.parametrize('op, f', [('Sqrt', ops.sqrt), ('Log', ops.log),
                                   ('Div', lambda x: ms.Tensor([1.0]) / x)])
def test_grad_at_zero_warns_once_per_error_naming_the_op_at_the_grad_line(op, f):
    def run():
        ms.grad(lambda x: f(x).sum())(ms.Tensor([0.0])); run.line = here()     # noqa: E702

    backward = [w for w in _caught(run) if w[3].startswith('the backward of')]
    assert backward, 'no warning from the backward pass'
    assert {w[:3] for w in backward} == {(RuntimeWarning, __file__, run.line[1])}
    assert all(w[3].startswith(f"the backward of '{op}': ") for w in backward), backward
    assert len({w[3] for w in backward}) == len(backward)      # one per kind of error

    def guarded():
        with nan_guard(action='record'):
            y = f(ms.Tensor([0.0], requires_grad=True)); guarded.line = here()   # noqa: E702
            y.sum().backward()

    at_forward = [w for w in _caught(guarded) if w[3].startswith('the backward of')]
    code = getattr(f, '__code__', None)     # the lambda of this file is the user's line
    line = code.co_firstlineno if code and code.co_filename == __file__ else guarded.line[1]
    assert at_forward and {w[1:3] for w in at_forward} == {(__file__, line)}


def test_with_sources_recorded_the_warning_is_at_the_line_that_created_the_node():
    x = ms.Tensor([1.0, 2.0], requires_grad=True)

    def run():
        with Sources():
            y = x / ms.Tensor([0.0, 1.0]); run.line = here()      # noqa: E702
            y.sum().backward()

    caught = _caught(run)
    backward = [w for w in caught if w[3].startswith("the backward of")]
    assert backward == [(RuntimeWarning, __file__, run.line[1],
                         "the backward of 'Div': divide by zero encountered")]


def test_transforms_and_graph_mode_replays_warn_at_the_users_line():
    def f(x):
        return ops.sqrt(x).sum()

    grad_f = ms.grad(f)
    step = ms.jit(lambda x: grad_f(x))
    x = ms.Tensor([0.0, 4.0])

    def run():
        grad_f(x); run.line = here()            # noqa: E702

    assert [w[1:3] for w in _caught(run)] == [(__file__, run.line[1])]
    for _ in range(3):                          # traced, then replayed
        def replay():
            step(x); replay.line = here()        # noqa: E702
        (warning,) = _caught(replay)
        assert warning[1] == __file__ and warning[3].startswith("the backward of 'Sqrt'")


def test_backward_keeps_numpys_error_settings_and_restores_them():
    x = ms.Tensor([0.0, 1.0], requires_grad=True)
    before = np.geterr()
    with np.errstate(divide='ignore'):
        assert _caught(lambda: ops.sqrt(x).sum().backward()) == []
    with np.errstate(divide='raise'):
        with pytest.raises(FloatingPointError):
            ops.sqrt(x).sum().backward()
    assert np.geterr() == before

    def fail(grad):
        raise RuntimeError("planted")

    y = ops.sqrt(x)
    y.register_hook(fail)
    with pytest.raises(RuntimeError):
        y.sum().backward()
    assert np.geterr() == before
    with warnings.catch_warnings(record=True) as caught:       # NumPy warns as usual after
        warnings.simplefilter('always')
        np.log(np.array([-1.0]))
    assert [str(w.message) for w in caught] == ['invalid value encountered in log']


def test_a_backward_pass_inside_a_hook_reports_its_own_steps():
    x = ms.Tensor([0.0, 1.0], requires_grad=True)
    inner = ms.Tensor([0.0, 4.0])

    def hook(grad):
        ms.grad(lambda a: ops.sqrt(a).sum())(inner)
        return grad

    def run():
        y = x * 2.0
        y.register_hook(hook)
        y.sum().backward()

    messages = [w[3] for w in _caught(run)]
    assert len(messages) == 1 and messages[0].startswith("the backward of 'Sqrt'")


def test_a_floating_point_warning_in_a_hooks_own_code_is_at_the_hooks_line():
    x = ms.Tensor([1.0, 2.0], requires_grad=True)

    def hook(grad):
        ops.log(ms.Tensor([-1.0])); hook.op_line = here()        # noqa: E702
        np.log(np.array([-1.0])); hook.numpy_line = here()       # noqa: E702

    def run():
        y = x * 2.0
        y.register_hook(hook)
        y.sum().backward()

    assert _caught(run) == [
        (RuntimeWarning, __file__, hook.op_line[1],
         "a hook run by the backward pass: invalid value encountered"),
        (RuntimeWarning, __file__, hook.numpy_line[1],
         "a hook run by the backward pass: invalid value encountered")]


# --------------------------------------------------------------------------- hookgrad's warnings
def test_hookgrads_warnings_name_the_users_line_through_its_own_layers():
    net = nn.WithLossCell(nn.Dense(3, 1), nn.MSELoss())

    def run():
        net(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones(4, np.float32)))
        run.line = here()[1] - 1

    (warning,) = _caught(run)
    assert warning[:3] == (UserWarning, __file__, run.line)
    assert "broadcast" in warning[3]


# --------------------------------------------------------------------------- the frame rule
def _frame(file, name='m'):
    return types.SimpleNamespace(f_code=types.SimpleNamespace(co_filename=file),
                                 f_globals={'__name__': name})


def test_which_frames_are_hookgrads():
    package = _frames._PACKAGE
    assert _frames.is_internal(_frame(package + 'ops/unary.py'))
    assert _frames.is_internal(_frame(package + 'a_module_added_later.py'))
    assert _frames.is_internal(_frame('<jit program 0x7f>'))
    assert not _frames.is_internal(_frame(package + 'vision/resnet.py'))       # a network
    assert not _frames.is_internal(_frame(package + 'demo.py', '__main__'))    # a program
    assert not _frames.is_internal(_frame(__file__))
