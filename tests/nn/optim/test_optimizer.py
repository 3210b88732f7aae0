"""nn.Optimizer: arguments, parameter groups, learning-rate forms, gradient checks, atomicity,
state names and checkpoints, block layout, and MindSpore's helper methods (SGD and Momentum are
the vehicles; their own formulas are tested in test_sgd.py)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad.nn.optim import segment


def param(shape, name, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return ms.Parameter(rng.standard_normal(shape).astype(dtype), name=name)


def grads_for(params, seed=1):
    rng = np.random.default_rng(seed)
    return tuple(ms.Tensor(rng.standard_normal(p.shape).astype(p.asnumpy().dtype))
                 for p in params)


def values(params):
    return [p.asnumpy().copy() for p in params]


# ----------------------------------------------------------------- parameters and groups
def test_groups_use_their_own_learning_rate_and_weight_decay():
    a, b, c = param((3,), 'a', 0), param((2, 2), 'b', 1), param((2,), 'bn.gamma', 2)
    groups = [{'params': [a], 'lr': 0.5, 'weight_decay': 0.1},
              {'params': [b, c], 'weight_decay': 0.2}]
    opt = nn.Momentum(groups, learning_rate=0.25, momentum=0.0)
    before, gs = values([a, b, c]), grads_for([a, b, c])
    opt(gs)
    # with groups, decay applies to every parameter of a group with weight_decay > 0
    expected = [before[0] - 0.5 * (gs[0].asnumpy() + 0.1 * before[0]),
                before[1] - 0.25 * (gs[1].asnumpy() + 0.2 * before[1]),
                before[2] - 0.25 * (gs[2].asnumpy() + 0.2 * before[2])]
    for p, e in zip([a, b, c], expected):
        np.testing.assert_allclose(p.asnumpy(), e, rtol=1e-12)
    assert opt.is_group and opt.is_group_lr
    assert opt.weight_decay == (0.1, 0.2, 0.2) and opt.decay_flags == (True, True, True)
    assert [s.name for s in opt.learning_rate] == ['learning_rate_group_0', 'learning_rate',
                                                   'learning_rate']
    assert opt.get_lr_parameter(a).name == 'learning_rate_group_0'
    assert [float(x) for x in opt.get_lr_parameter([a, b])] == [0.5, 0.25]


def test_without_groups_weight_decay_skips_beta_and_gamma():
    w, gamma, beta = param((3,), 'fc.weight'), param((3,), 'bn.gamma', 1), param((3,), 'bn.beta', 2)
    opt = nn.Momentum([w, gamma, beta], learning_rate=1.0, momentum=0.0, weight_decay=0.5)
    assert opt.decay_flags == (True, False, False) and opt.weight_decay == 0.5
    before, zero = values([w, gamma, beta]), tuple(ms.Tensor(np.zeros(3)) for _ in range(3))
    opt(zero)
    np.testing.assert_allclose(w.asnumpy(), 0.5 * before[0])
    np.testing.assert_array_equal(gamma.asnumpy(), before[1])
    np.testing.assert_array_equal(beta.asnumpy(), before[2])


def test_order_params_sets_the_order_of_parameters_and_gradients():
    a, b = param((2,), 'a'), param((3,), 'b', 1)
    opt = nn.SGD([{'params': [a], 'lr': 1.0}, {'params': [b]}, {'order_params': [b, a]}],
                 learning_rate=0.0)
    assert list(opt.parameters) == [b, a]
    assert [s.name for s in opt.learning_rate] == ['learning_rate', 'learning_rate_group_0']
    before = values([a, b])
    opt((ms.Tensor(np.ones(3)), ms.Tensor(np.ones(2))))
    np.testing.assert_allclose(a.asnumpy(), before[0] - 1.0)
    np.testing.assert_array_equal(b.asnumpy(), before[1])


@pytest.mark.parametrize('parameters,error,match', [
    (None, ValueError, 'got None'),
    (3, TypeError, 'list of Parameters or of group dicts'),
    (ms.Parameter(ms.Tensor([1.0]), name='w'), TypeError, 'got Parameter'),
    ([], ValueError, 'must not be empty'),
    ([ms.Parameter(ms.Tensor([1.0]), name='w'), {'params': []}], TypeError, 'item 1 is a dict'),
    ([ms.Tensor([1.0])], TypeError, 'item 0 is a Tensor'),
    ([{'params': [ms.Parameter(ms.Tensor([1.0]), name='w')], 'momentum': 0.9}], KeyError,
     "unknown keys \\['momentum'\\]"),
    ([{'lr': 0.1}], KeyError, "group 0 has no 'params'"),
    ([{'params': []}], ValueError, "group 0 'params' must not be empty"),
    ([{'params': [1.0]}], TypeError, "group 0 'params' item 0 must be a Parameter"),
    ([{'params': 'w'}], TypeError, "group 0 'params' must be a list"),
    ([{'params': [ms.Parameter(ms.Tensor([1.0]), name='w')], 'grad_centralization': 1}],
     TypeError, "'grad_centralization' must be a bool"),
    ([{'params': [ms.Parameter(ms.Tensor([1.0]), name='w')], 'weight_decay': -1}], ValueError,
     "group 0 'weight_decay' must be a finite number >= 0"),
    ([{'params': [ms.Parameter(ms.Tensor([1.0]), name='w')], 'lr': 'fast'}], TypeError,
     "group 0 'lr' must be a float"),
    ([{'order_params': []}], ValueError, 'hold no parameters'),
    ([ms.Parameter(ms.Tensor([1, 2]), name='steps')], TypeError,
     "'steps' has dtype Int64; only floating point"),
])
def test_bad_parameters_are_rejected(parameters, error, match):
    with pytest.raises(error, match=match):
        nn.SGD(parameters)


def test_duplicates_and_order_params_errors():
    a, b = param((2,), 'a'), param((2,), 'b')
    with pytest.raises(ValueError, match="parameter 'a' is given twice"):
        nn.SGD([a, b, a])
    with pytest.raises(ValueError, match="parameter 'a' is given twice"):
        nn.SGD([{'params': [a]}, {'params': [a, b]}])
    with pytest.raises(ValueError, match="parameters 0 and 1 are both named 'a'"):
        nn.SGD([a, param((2,), 'a')])
    with pytest.raises(ValueError, match="lists 1 parameters, but the groups hold 2"):
        nn.SGD([{'params': [a, b]}, {'order_params': [a]}])
    with pytest.raises(ValueError, match="lists parameter 'c', which is in no group"):
        nn.SGD([{'params': [a, b]}, {'order_params': [a, param((2,), 'c')]}])
    with pytest.raises(ValueError, match='lists a parameter twice'):
        nn.SGD([{'params': [a, b]}, {'order_params': [a, a]}])
    with pytest.raises(ValueError, match="'order_params' must be alone"):
        nn.SGD([{'params': [a, b]}, {'order_params': [a, b], 'lr': 0.1}])
    with pytest.raises(TypeError, match="'order_params' must be a list of Parameters"):
        nn.SGD([{'params': [a, b]}, {'order_params': 3}])


@pytest.mark.parametrize('kwargs,error,match', [
    ({'weight_decay': -0.1}, ValueError, 'weight_decay must be a finite number >= 0'),
    ({'weight_decay': '0.1'}, TypeError, 'weight_decay must be a float or int'),
    ({'loss_scale': 0.0}, ValueError, 'loss_scale must be a finite number > 0'),
    ({'loss_scale': True}, TypeError, 'loss_scale must be a number'),
    ({'learning_rate': -0.1}, ValueError, 'learning_rate must be a finite number >= 0'),
    ({'learning_rate': True}, TypeError, 'learning_rate must be a float'),
    ({'learning_rate': 'fast'}, TypeError, 'learning_rate must be a float'),
    ({'learning_rate': nn.Dense(1, 1)}, TypeError, 'got Dense'),
    ({'learning_rate': []}, ValueError, 'must not be empty'),
    ({'learning_rate': [0.1, 'x']}, TypeError, 'must hold numbers'),
    ({'learning_rate': [0.1, -0.1]}, ValueError, 'every per-step value'),
    ({'learning_rate': ms.Tensor(np.ones((2, 2)))}, ValueError, 'got shape \\(2, 2\\)'),
])
def test_bad_hyperparameters_are_rejected(kwargs, error, match):
    with pytest.raises(error, match=match):
        nn.SGD([param((2,), 'w')], **kwargs)


def test_per_step_lists_in_groups_must_have_the_same_length():
    a, b = param((2,), 'a'), param((2,), 'b')
    with pytest.raises(ValueError, match=r'same length, got lengths \[2, 3\]'):
        nn.SGD([{'params': [a], 'lr': [0.1, 0.2]}, {'params': [b]}],
               learning_rate=[0.1, 0.2, 0.3])


# ----------------------------------------------------------------- learning-rate forms
def sgd_path(learning_rate, steps=3):
    """Positions of a parameter at 0 after SGD steps with gradient 1."""
    w = ms.Parameter(ms.Tensor(np.zeros(1)), name='w')
    opt = nn.SGD([w], learning_rate=learning_rate)
    out = []
    for _ in range(steps):
        opt((ms.Tensor(np.ones(1)),))
        out.append(float(w.asnumpy()[0]))
    return opt, out


@pytest.mark.parametrize('lr', [[0.1, 0.2, 0.4], (0.1, 0.2, 0.4), np.array([0.1, 0.2, 0.4]),
                                ms.Tensor(np.array([0.1, 0.2, 0.4], np.float32)),
                                iter([0.1, 0.2, 0.4])])
def test_a_per_step_list_gives_step_i_the_ith_value(lr):
    opt, path = sgd_path(lr)
    np.testing.assert_allclose(path, [-0.1, -0.3, -0.7], rtol=1e-6)
    assert opt.dynamic_lr and opt.global_step.asnumpy().tolist() == [3]
    assert opt.learning_rate.learning_rate.name == 'learning_rate'


def test_a_step_past_the_end_of_the_list_raises_and_changes_nothing():
    opt, _ = sgd_path([0.1, 0.2], steps=2)
    w = opt.parameters[0]
    before = w.asnumpy().copy()
    with pytest.raises(ValueError, match=r"has 2 values \(steps 0..1\), but this is step 2"):
        opt((ms.Tensor(np.ones(1)),))
    np.testing.assert_array_equal(w.asnumpy(), before)
    assert opt.global_step.asnumpy().tolist() == [2]


@pytest.mark.parametrize('lr', [0.25, 1, ms.Tensor(0.25), np.float32(0.25)])
def test_fixed_rates(lr):
    opt, path = sgd_path(lr, steps=2)
    step = float(np.float32(lr if not isinstance(lr, ms.Tensor) else 0.25))
    np.testing.assert_allclose(path, [-step, -2 * step], rtol=1e-6)
    assert not opt.dynamic_lr and opt.global_step.asnumpy().tolist() == [0]
    assert opt.get_lr() is opt.learning_rate and opt.learning_rate.name == 'learning_rate'


def test_the_learning_rate_parameter_can_be_changed_between_steps():
    w = ms.Parameter(ms.Tensor(np.zeros(1)), name='w')
    opt = nn.SGD([w], learning_rate=0.1)
    opt((ms.Tensor(np.ones(1)),))
    opt.learning_rate.set_data(ms.Tensor(np.float32(1.0)))
    opt((ms.Tensor(np.ones(1)),))
    np.testing.assert_allclose(w.asnumpy(), [-1.1], rtol=1e-6)


class Halving(nn.LearningRateSchedule):
    """A user schedule written with ops: 1, 0.5, 0.25..."""

    def construct(self, global_step):
        return ops.pow(ms.Tensor(0.5), ops.cast(global_step, ms.float32))


def test_a_schedule_is_called_with_the_global_step():
    opt, path = sgd_path(Halving())
    np.testing.assert_allclose(path, [-1.0, -1.5, -1.75])
    assert isinstance(opt.learning_rate, Halving)
    lr = opt.get_lr()            # step 3 of the schedule, and get_lr advances the step
    assert float(lr) == 0.125 and opt.global_step.asnumpy().tolist() == [4]


def test_group_rates_from_a_list_and_a_schedule():
    a, b = param((1,), 'a'), param((1,), 'b')
    opt = nn.SGD([{'params': [a], 'lr': [1.0, 2.0, 3.0, 4.0]}, {'params': [b]}],
                 learning_rate=nn.WarmUpLR(1.0, 2))
    before = values([a, b])
    for _ in range(3):
        opt((ms.Tensor(np.ones(1)), ms.Tensor(np.ones(1))))
    np.testing.assert_allclose(a.asnumpy(), before[0] - 6.0)
    np.testing.assert_allclose(b.asnumpy(), before[1] - (0.0 + 0.5 + 1.0))
    assert [float(r) for r in opt.get_lr()] == [4.0, 1.0]
    assert opt.get_lr_parameter(a).name == 'learning_rate_group_0'
    assert isinstance(opt.get_lr_parameter(b), nn.WarmUpLR)


def test_get_lr_with_group_rates_gives_one_rate_per_parameter():
    a, b = param((1,), 'a'), param((1,), 'b')
    opt = nn.SGD([{'params': [a], 'lr': [1.0, 2.0]}, {'params': [b], 'lr': [3.0, 4.0]}])
    assert [float(r) for r in opt.get_lr()] == [1.0, 3.0]
    assert [float(r) for r in opt.get_lr()] == [2.0, 4.0]
    with pytest.raises(ValueError, match='but this is step 2'):
        opt.get_lr()


def test_a_schedule_returning_a_non_scalar_is_an_error():
    class Bad(nn.LearningRateSchedule):
        def construct(self, global_step):
            return ms.Tensor(np.ones(2, np.float32))

    w = param((1,), 'w')
    opt = nn.SGD([w], learning_rate=Bad())
    before = w.asnumpy().copy()
    with pytest.raises(TypeError, match=r'must return a one-element Tensor, got \(2,\)'):
        opt((ms.Tensor(np.ones(1)),))
    np.testing.assert_array_equal(w.asnumpy(), before)


def test_get_lr_parameter_errors():
    w = param((1,), 'w')
    opt = nn.SGD([w])
    with pytest.raises(TypeError, match='expected a Parameter or a list'):
        opt.get_lr_parameter('w')
    with pytest.raises(ValueError, match="parameter 'x' is not updated by this optimizer"):
        opt.get_lr_parameter(param((1,), 'x'))


# ----------------------------------------------------------------- gradients and atomicity
def adam_with_history(dtype=np.float64):
    ps = [param((3, 4), 'fc.weight', 0, dtype), param((4,), 'fc.bias', 1, dtype),
          param((2,), 'out', 2, dtype)]
    opt = nn.Adam(ps, learning_rate=[0.1] * 10)
    opt(grads_for(ps, 5))
    return ps, opt


def snapshot(opt):
    return {name: p.asnumpy().copy() for name, p in opt.parameters_and_names()}


@pytest.mark.parametrize('make_grads,error,match', [
    (lambda ps, gs: gs[:2], ValueError, "got 2 gradients for 3 parameters; parameter 'out' has "
                                        "none"),
    (lambda ps, gs: gs + gs[:1], ValueError, 'got 4 gradients for 3 parameters$'),
    (lambda ps, gs: (gs[0], gs[1], ms.Tensor(np.ones(3))), ValueError,
     r"gradient for parameter 'out' has shape \(3,\), but the parameter has shape \(2,\)"),
    (lambda ps, gs: (gs[0], None, gs[2]), ValueError, "gradient for parameter 'fc.bias' is None"),
    (lambda ps, gs: (gs[0], gs[1], [1.0, 2.0]), TypeError,
     "gradient for parameter 'out' must be a Tensor, got list"),
    (lambda ps, gs: (gs[0], gs[1], ms.Tensor(np.array([1, 2]))), TypeError,
     "parameter 'out' must be floating point, got int64"),
    (lambda ps, gs: {'a': 1}, TypeError, 'expected a tuple of gradients'),
])
def test_a_bad_gradient_raises_and_leaves_every_parameter_and_state_unchanged(make_grads, error,
                                                                             match):
    ps, opt = adam_with_history()
    before = snapshot(opt)
    with pytest.raises(error, match=match):
        opt(make_grads(ps, grads_for(ps, 6)))
    after = snapshot(opt)
    assert before.keys() == after.keys()
    for name in before:
        np.testing.assert_array_equal(after[name], before[name], err_msg=name)


def test_numpy_arrays_and_lists_of_gradients_are_accepted():
    a, b = param((2,), 'a'), param((2,), 'b')
    opt = nn.SGD([a, b], learning_rate=1.0)
    before = values([a, b])
    opt([np.ones(2), ms.Tensor(np.ones(2))])
    np.testing.assert_allclose(a.asnumpy(), before[0] - 1)
    np.testing.assert_allclose(b.asnumpy(), before[1] - 1)


def test_the_base_class_cannot_step():
    w = param((1,), 'w')
    opt = nn.Optimizer(0.1, [w])
    before = w.asnumpy().copy()
    with pytest.raises(NotImplementedError, match='nn.Optimizer is a base class'):
        opt((ms.Tensor(np.ones(1)),))
    np.testing.assert_array_equal(w.asnumpy(), before)


# ----------------------------------------------------------------- state, names, checkpoints
def test_state_parameters_are_named_after_the_parameters_and_registered():
    ps = [param((2,), 'fc.weight'), param((2,), None, 1)]
    opt = nn.Adam(ps)
    assert [s.name for s in opt.moment1] == ['moment1.fc.weight', 'moment1.1']
    names = [n for n, _ in opt.parameters_and_names()]
    assert names == ['global_step', 'learning_rate', 'beta1_power', 'beta2_power',
                     'moment1.fc.weight', 'moment1.1', 'moment2.fc.weight', 'moment2.1']
    assert all(not p.requires_grad for _, p in opt.parameters_and_names())
    assert opt.trainable_params() == []
    assert list(opt.parameters) == ps


def test_state_loaded_with_set_data_is_used_by_the_next_step():
    w = ms.Parameter(ms.Tensor(np.zeros(2)), name='w')
    opt = nn.Momentum([w], learning_rate=1.0, momentum=0.5)
    opt((ms.Tensor(np.ones(2)),))
    opt.moments[0].set_data(ms.Tensor(np.array([10.0, 0.0])))
    opt((ms.Tensor(np.ones(2)),))
    np.testing.assert_allclose(opt.moments[0].asnumpy(), [6.0, 1.0])
    np.testing.assert_allclose(w.asnumpy(), [-7.0, -2.0])


def test_parameter_values_replaced_between_steps_are_updated():
    w = ms.Parameter(ms.Tensor(np.zeros((2, 3))), name='w')
    opt = nn.SGD([w], learning_rate=1.0)
    w.set_data(ms.Tensor(np.full((2, 3), 5.0)))
    opt((ms.Tensor(np.ones((2, 3))),))
    np.testing.assert_allclose(w.asnumpy(), np.full((2, 3), 4.0))


def test_large_parameters_are_split_into_blocks():
    """A 300x300 weight spans several blocks; a transposed (non-contiguous) gradient and a
    Fortran-ordered parameter array are handled; results equal the whole-array formula."""
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((300, 300))
    small = [rng.standard_normal(5) for _ in range(3)]
    g = rng.standard_normal((300, 300))
    ps = [ms.Parameter(small[0], name='a'), ms.Parameter(w0, name='w'),
          ms.Parameter(small[1], name='b'), ms.Parameter(small[2], name='c')]
    ps[1]._data = np.asfortranarray(ps[1]._data)
    opt = nn.Adam(ps, learning_rate=0.01)
    assert any(len(b.pieces) == 1 and not b.pieces[0][4] for s in opt._segments
               for b in s.blocks)
    grads = (ms.Tensor(np.ones(5)), ms.Tensor(np.ascontiguousarray(g.T)).T,
             ms.Tensor(np.ones(5)), ms.Tensor(np.ones(5)))
    assert not grads[1].asnumpy().flags.c_contiguous
    opt(grads)
    b1_power, b2_power = float(np.float32(0.9)), float(np.float32(0.999))
    step = float(np.float32(0.01)) * np.sqrt(1 - b2_power) / (1 - b1_power)  # float32 lr

    def adam(w, g):
        return w - step * (0.1 * g) / (np.sqrt((1 - 0.999) * g * g) + 1e-8)
    np.testing.assert_allclose(ps[1].asnumpy(), adam(w0, g), rtol=1e-12, atol=1e-15)
    for p, w in zip(ps[::2] + ps[3:], small):
        np.testing.assert_allclose(p.asnumpy(), adam(w, np.ones(5)), rtol=1e-12)


@pytest.mark.parametrize('make', [
    lambda ps: nn.Momentum(ps, learning_rate=0.1, momentum=0.9, weight_decay=0.01,
                           loss_scale=2.0),
    lambda ps: nn.SGD(ps, learning_rate=0.1, momentum=0.9, dampening=0.1, nesterov=False),
    lambda ps: nn.Adam(ps, learning_rate=0.01, weight_decay=0.01, use_nesterov=True),
    lambda ps: nn.AdamWeightDecay(ps, learning_rate=0.01, weight_decay=0.01)],
    ids=['momentum', 'sgd', 'adam', 'adamw'])
def test_blocks_shared_between_cores_give_the_numbers_of_one(monkeypatch, make):
    """A large segment's blocks run in ranges on several threads, each with its own scratch;
    three steps give the values of running every block in order on one."""
    from hookgrad.kernels import threads as _threads
    from hookgrad.nn.optim import optimizer

    def train(threaded):
        rng = np.random.default_rng(3)
        ps = [ms.Parameter(rng.standard_normal(s), name=f'p{i}.weight')
              for i, s in enumerate([(300, 300), (40,), (200, 700), (16, 32, 3, 3)])]
        ps[2]._data = np.asfortranarray(ps[2]._data)        # split and not C-ordered
        opt = make(ps)
        if not threaded:
            monkeypatch.setattr(optimizer, '_BLOCK_LOCAL_RULES', set())
        for step in range(3):
            opt(grads_for(ps, seed=10 + step))
        monkeypatch.undo()
        return values(ps), len({id(b.t.base) for s in opt._segments for b in s.blocks})

    ranges = []
    split = _threads.split

    def counting(fn, n, size):
        ranges.append(min(n, _threads.workers()) if size >= _threads.SPLIT_MIN else 1)
        return split(fn, n, size)
    monkeypatch.setattr(_threads, 'cores', lambda: 2)
    monkeypatch.setattr(_threads, 'workers', lambda: 2)
    monkeypatch.setattr(_threads, 'SPLIT_MIN', 1)
    monkeypatch.setattr(_threads, 'split', counting)
    threaded, scratch = train(True)
    assert max(ranges) == 2 and scratch == 2
    monkeypatch.setattr(_threads, 'cores', lambda: 2)
    monkeypatch.setattr(_threads, 'workers', lambda: 2)
    monkeypatch.setattr(_threads, 'SPLIT_MIN', 1)
    for got, want in zip(threaded, train(False)[0]):
        np.testing.assert_array_equal(got, want)


def test_a_rule_of_its_own_runs_its_blocks_in_order_on_one_thread(monkeypatch):
    """An optimizer subclass with its own ``_rule`` is never run on several threads."""
    from hookgrad.kernels import threads as _threads
    seen = []

    class Plain(nn.Momentum):
        def _rule(self, block, g, t, lr, u):
            seen.append(block.lo)
            super()._rule(block, g, t, lr, u)
    monkeypatch.setattr(_threads, 'SPLIT_MIN', 1)
    w = param((400, 400), 'w')
    Plain([w], learning_rate=0.1, momentum=0.9)(grads_for([w]))
    assert len(seen) > 1 and seen == sorted(seen)


def test_float32_and_float64_parameters_form_separate_segments():
    a, b = param((3,), 'a', 0, np.float32), param((3,), 'b', 1, np.float64)
    opt = nn.SGD([a, b], learning_rate=0.5, momentum=0.9)
    assert len(opt._segments) == 2
    before = values([a, b])
    opt((ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.ones(3))))
    assert a.asnumpy().dtype == np.float32 and opt.accum[0].asnumpy().dtype == np.float32
    np.testing.assert_allclose(a.asnumpy(), before[0] - 0.5, rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), before[1] - 0.5)


def test_blocks_cover_each_segment_in_order():
    runs = segment._runs((10, 70000, 5, 3, 200000), (False, False, False, True, False), 65536)
    covered = [(lo, hi) for lo, hi, _ in runs]
    assert covered[0] == (0, 10) and covered[-1][1] == 10 + 70000 + 5 + 3 + 200000
    assert all(a[1] == b[0] for a, b in zip(covered, covered[1:]))
    assert all(hi - lo <= 65536 for lo, hi in covered)
    packed = segment._runs((30000,) * 5, (False,) * 5, 65536)
    assert [[k for k, *_ in run] for _, _, run in packed] == [[0, 1], [2, 3], [4]]
    assert segment._runs((70000,), (True,), 65536) == [(0, 70000, [(0, 0, 70000, True)])]


# ----------------------------------------------------------------- loss scale, centralization
def test_loss_scale_divides_the_gradient():
    a, b = param((3,), 'a'), param((3,), 'a2')
    plain = nn.Momentum([a], learning_rate=0.1, momentum=0.9, weight_decay=0.01)
    scaled = nn.Momentum([b], learning_rate=0.1, momentum=0.9, weight_decay=0.01, loss_scale=8)
    b.set_data(a.value())
    for seed in range(3):
        g = grads_for([a], seed)
        plain(g)
        scaled((g[0] * 8,))
    np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-12)


def test_grad_centralization_applies_to_eligible_parameters_of_its_group():
    conv, dense, bias = param((4, 16, 3, 3), 'conv.weight'), param((4, 5), 'fc.weight', 1), \
        param((4,), 'fc.bias', 2)
    opt = nn.SGD([{'params': [conv, dense], 'grad_centralization': True}, {'params': [bias]}],
                 learning_rate=1.0)
    assert opt.grad_centralization
    before, gs = values([conv, dense, bias]), grads_for([conv, dense, bias])
    opt(gs)
    g = gs[0].asnumpy()
    centred = g - g.mean(axis=(1, 2, 3), keepdims=True)     # (4, 16, ...): 16 % 16 == 0
    np.testing.assert_allclose(conv.asnumpy(), before[0] - centred, rtol=1e-12)
    np.testing.assert_allclose(dense.asnumpy(), before[1] - gs[1].asnumpy())   # 5 % 16 != 0
    np.testing.assert_allclose(bias.asnumpy(), before[2] - gs[2].asnumpy())
    helper = opt.gradients_centralization(gs)
    np.testing.assert_allclose(helper[0].asnumpy(), centred, rtol=1e-12)
    np.testing.assert_array_equal(helper[1].asnumpy(), gs[1].asnumpy())


def test_helpers_for_optimizers_written_as_subclasses():
    w, gamma = param((2,), 'w'), param((2,), 'bn.gamma', 1)
    opt = nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=0.5, loss_scale=2.0)
    gs = grads_for([w, gamma])
    decayed = opt.decay_weight(gs)
    np.testing.assert_allclose(decayed[0].asnumpy(), gs[0].asnumpy() + 1.0 * w.asnumpy())
    np.testing.assert_array_equal(decayed[1].asnumpy(), gs[1].asnumpy())
    np.testing.assert_allclose(opt.scale_grad(gs)[1].asnumpy(), gs[1].asnumpy() / 2)


class PlainDescent(nn.Optimizer):
    """An optimizer written the MindSpore way: construct with get_lr and ops.assign."""

    def __init__(self, params, learning_rate):
        super().__init__(learning_rate, params)

    def construct(self, gradients):
        lr = self.get_lr()
        for p, g in zip(self.parameters, self.scale_grad(gradients)):
            ops.assign(p, p - lr * g)
        return True


def test_a_subclass_written_with_mindspore_helpers_trains():
    w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name='w')
    opt = PlainDescent([w], [0.5, 0.25])
    opt((ms.Tensor(np.ones(2, np.float32)),))
    opt((ms.Tensor(np.ones(2, np.float32)),))
    np.testing.assert_allclose(w.asnumpy(), [0.25, 1.25])
    assert opt.global_step.asnumpy().tolist() == [2]


class _RisingDecay(nn.Cell):
    """A weight-decay schedule: 0.01 * (global_step + 1)."""

    def construct(self, global_step):
        return 0.01 * (ms.ops.cast(global_step, ms.float32) + 1.0)


def test_a_weight_decay_schedule_is_called_with_the_global_step_each_step():
    # MindSpore 2.10's values: Momentum(lr 0.1, momentum 0.9, weight_decay=the schedule),
    # three steps; 'beta_b' is not decayed (its name holds 'beta')
    w = ms.Parameter(ms.Tensor(np.float32([[1.0, -2.0]])), name='w')
    b = ms.Parameter(ms.Tensor(np.float32([0.5])), name='beta_b')
    opt = nn.Momentum([w, b], learning_rate=0.1, momentum=0.9, weight_decay=_RisingDecay())
    assert opt.dynamic_weight_decay and opt.decay_flags == (True, False)
    for _ in range(3):
        opt((ms.Tensor(np.float32([[0.5, 0.25]])), ms.Tensor(np.float32([1.0]))))
    np.testing.assert_array_equal(w.asnumpy(), np.float32([[0.7106301784515381,
                                                            -2.1209487915039062]]))
    np.testing.assert_array_equal(b.asnumpy(), np.float32([-0.06099998950958252]))
    assert opt.global_step.asnumpy().tolist() == [3]
    assert opt.get_weight_decay() == pytest.approx(0.04)
