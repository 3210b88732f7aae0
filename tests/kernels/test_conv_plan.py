"""The convolution planner (hookgrad/kernels/conv_plan.py) and its disk cache (plan_cache.py):
every candidate plan computes the same convolution, the rules' plan is kept unless another is
measured faster by the margin, plans are measured once and read back from disk, and the
profiler shows the kernels that ran."""
import json
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import conv as conv_kernels
from hookgrad.kernels import conv_plan
from hookgrad.kernels.conv_plan import Plan
from hookgrad.kernels.plan_cache import PlanCache, machine_fingerprint


@pytest.fixture
def planner(monkeypatch, tmp_path):
    """Measure every float32 layer, with a fresh cache in tmp_path; restored after."""
    monkeypatch.setenv('HOOKGRAD_CACHE_DIR', str(tmp_path))
    monkeypatch.setattr(conv_plan, 'CACHE', PlanCache('conv', conv_plan._SOURCES))
    monkeypatch.setattr(conv_plan, '_plans', {})
    monkeypatch.setattr(conv_plan, '_measured', {})
    monkeypatch.setattr(conv_plan, 'MIN_FLOPS', 0)
    monkeypatch.setattr(conv_plan, 'MODE', 'measure')
    monkeypatch.setattr(conv_plan, '_deterministic', False)
    monkeypatch.setattr(conv_kernels, 'ALGORITHM', 'auto')
    return tmp_path


def fake_timer(costs):
    """A ``_fastest`` that runs the pass once and returns ``costs`` of the kernel it ran
    (keyed 'forward:<kernel>', 'input:<kernel>', 'filter:<kernel>'; 1.0 when absent)."""
    def fastest(fn):
        conv_plan.take()
        fn()
        ran = conv_plan.take()
        (name, kernel), = ran.items()
        return costs.get(f'{name}:{kernel}', 1.0)
    return fastest


def layer(n=2, c=8, h=6, w=6, o=8, k=3, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, c, h, w)).astype(np.float32),
            rng.standard_normal((o, c, k, k)).astype(np.float32))


def reference(x, w, stride, padding):
    """conv2d and its gradients for gy = y, in float64 through im2col only."""
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    p = dict(stride=stride, padding=padding, dilation=(1, 1), groups=1)
    y = conv_kernels.conv_forward(x64, w64, plan=Plan('direct', 'col2im', 'direct'), **p)[0]
    gx = conv_kernels.input_grad(y, w64, x.shape[2:], how=Plan('direct', 'col2im', 'direct'),
                                 **p)
    gw = conv_kernels.filter_grad(y, x64, w.shape[2:], how=Plan('direct', 'col2im', 'direct'),
                                  **p)
    return y, gx, gw


def all_plans(w_shape, stride, padding):
    table, batch_last = conv_plan._candidates(w_shape, stride, padding, (1, 1))
    plans = [Plan(f, i, g) for f, (ins, fis) in table.items() for i in ins for g in fis]
    return plans + ([Plan(*('batch_last',) * 3)] if batch_last else [])


@pytest.mark.parametrize('k, stride, padding', [(3, (1, 1), (1, 1, 1, 1)),
                                                (3, (2, 2), (1, 1, 1, 1)),
                                                (3, (1, 1), (0, 0, 0, 0)),
                                                (5, (1, 1), (2, 1, 2, 1)),
                                                (1, (1, 1), (0, 0, 0, 0)),
                                                (1, (2, 2), (0, 0, 0, 0))])
def test_every_candidate_plan_computes_the_same_convolution(k, stride, padding):
    x, w = layer(k=k)
    want_y, want_gx, want_gw = reference(x, w, stride, padding)
    p = dict(stride=stride, padding=padding, dilation=(1, 1), groups=1)
    plans = all_plans(w.shape, stride, padding)
    assert len(plans) >= (1 if k == 1 else 2)
    for plan in plans:
        y, how, xh, rows, cols = conv_kernels.conv_forward(x, w, plan=plan, **p)
        assert how == plan
        gy = want_y.astype(np.float32)
        gyg = conv_kernels.grad_operand(gy, how, 1)
        gx = conv_kernels.input_grad(gy, w, x.shape[2:], how=how, gyg=gyg, rows=rows, **p)
        gw = conv_kernels.filter_grad(gy, x, w.shape[2:], how=how, xh=xh, gyg=gyg, cols=cols,
                                      **p)
        np.testing.assert_allclose(y, want_y, rtol=1e-4, atol=1e-4, err_msg=str(plan))
        np.testing.assert_allclose(gx, want_gx, rtol=1e-4, atol=1e-3, err_msg=str(plan))
        np.testing.assert_allclose(gw, want_gw, rtol=1e-4, atol=1e-3, err_msg=str(plan))


@pytest.mark.parametrize('w_shape, stride, padding, want', [
    ((64, 64, 3, 3), (1, 1), (1,) * 4, ('winograd', 'winograd', 'winograd')),
    ((32, 32, 3, 3), (1, 1), (1,) * 4, ('direct', 'direct', 'direct')),
    ((64, 32, 3, 3), (1, 1), (1,) * 4, ('direct', 'col2im', 'direct')),
    ((128, 64, 3, 3), (2, 2), (1,) * 4, ('direct', 'col2im', 'direct')),
    ((128, 64, 1, 1), (2, 2), (0,) * 4, ('pointwise',) * 3),
    ((16, 6, 5, 5), (1, 1), (0,) * 4, ('batch_last',) * 3),
])
def test_rules_plan(w_shape, stride, padding, want):
    assert conv_kernels.rules_plan(w_shape, stride, padding, (1, 1), 1, (8, 8),
                                   np.float32) == Plan(*want)


def test_a_forward_kernel_name_stands_for_the_rules_plan_after_it():
    """``how`` given as a forward kernel's name, as before plans existed: the gradients follow
    the rules for a layer whose forward ran that kernel."""
    args = ((64, 64, 3, 3), (1, 1), (1,) * 4, (1, 1), 1, (8, 8), np.float32, (2, 64, 8, 8),
            False)
    assert conv_kernels._plan('winograd', *args) == Plan('winograd', 'winograd', 'winograd')
    assert conv_kernels._plan('direct', *args) == Plan('direct', 'direct', 'winograd')
    assert conv_kernels._plan('batch_last', *args) == Plan(*('batch_last',) * 3)


def test_the_fastest_plan_is_measured_once_and_kept_on_disk(planner, monkeypatch):
    x, w = layer(c=8, o=8)
    p = ((1, 1), (1, 1, 1, 1), (1, 1), 1)
    costs = {'forward:winograd': 0.1, 'input:col2im': 0.1, 'filter:direct': 0.1}
    monkeypatch.setattr(conv_plan, '_fastest', fake_timer(costs))
    y, plan, *_ = conv_kernels.conv_forward(x, w, *p)
    assert plan == Plan('winograd', 'col2im', 'direct')
    files = os.listdir(planner)
    assert len(files) == 1 and files[0].startswith('conv-')
    with open(planner / files[0]) as f:
        entry, = json.load(f).values()
    assert entry['plan'] == ['winograd', 'col2im', 'direct']
    assert entry['ms']['chosen'] == pytest.approx(300.0)
    # kept: not measured again, in this process or (after forgetting it here) from the disk
    monkeypatch.setattr(conv_plan, '_measure', lambda *a: pytest.fail('measured again'))
    assert conv_kernels.conv_forward(x, w, *p)[1] == plan
    conv_plan._plans.clear()
    monkeypatch.setattr(conv_plan, 'CACHE', PlanCache('conv', conv_plan._SOURCES))
    assert conv_kernels.conv_forward(x, w, *p)[1] == plan
    # a pass run without its forward (a higher-order gradient) uses the kept plan
    conv_plan.take()
    conv_kernels.input_grad(y, w, x.shape[2:], *p)
    assert conv_plan.take() == {'input': 'col2im'}


def test_the_rules_plan_stays_unless_another_is_faster_by_the_margin(planner, monkeypatch):
    x, w = layer(c=32, o=32)
    p = ((1, 1), (1, 1, 1, 1), (1, 1), 1)
    rules = conv_kernels.rules_plan(w.shape, *p, (6, 6), np.float32)
    assert rules == Plan('direct', 'direct', 'direct')
    # batch-last 2% faster than the rules' plan: within the margin, the rules' plan stays
    costs = {'forward:direct': 1.0, 'input:direct': 1.0, 'filter:direct': 1.0,
             'forward:batch_last': 0.98, 'input:batch_last': 0.98, 'filter:batch_last': 0.98}
    monkeypatch.setattr(conv_plan, '_fastest', fake_timer(costs))
    assert conv_kernels.conv_forward(x, w, *p)[1] == rules
    # 10% faster: it replaces them
    conv_plan._plans.clear()
    conv_plan.CACHE.clear()
    costs.update({'forward:batch_last': 0.9, 'input:batch_last': 0.9, 'filter:batch_last': 0.9})
    assert conv_kernels.conv_forward(x, w, *p)[1] == Plan(*('batch_last',) * 3)


def test_only_the_gradients_backward_computes_are_timed(planner, monkeypatch):
    """The first layer's input needs no gradient: its input kernels are not timed, and the
    plan is kept apart from the same layer's plan with both gradients."""
    x, w = layer(c=8, o=8)
    timed = []

    def fastest(fn):
        conv_plan.take()
        fn()
        timed.extend(conv_plan.take())
        return 1.0
    monkeypatch.setattr(conv_plan, '_fastest', fastest)
    conv_kernels.conv_forward(x, w, (1, 1), (1,) * 4, (1, 1), 1, grads=(False, True))
    assert 'input' not in timed and 'filter' in timed
    conv_kernels.conv_forward(x, w, (1, 1), (1,) * 4, (1, 1), 1)
    assert 'input' in timed
    assert sorted(d.split('grads=')[1] for d in conv_plan.info()['plans']) == [
        'input,weight', 'weight']


def test_a_network_s_first_convolution_is_planned_without_its_input_gradient(planner,
                                                                             monkeypatch):
    # batch-last slow: the second layer's input stays channels-last, so it is planned too
    monkeypatch.setattr(conv_plan, '_fastest', fake_timer({'forward:batch_last': 9.0}))
    net = nn.SequentialCell(nn.Conv2d(3, 32, 3), nn.ReLU(), nn.Conv2d(32, 32, 3))
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype(np.float32))
    ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
    assert sorted(d.split('grads=')[1] for d in conv_plan.info()['plans']) == [
        'input,weight', 'weight']
    with ms._no_grad():
        net(x)
    assert 'none' in [d.split('grads=')[1] for d in conv_plan.info()['plans']]


@pytest.mark.parametrize('how', ['deterministic', 'rules', 'algorithm', 'float64', 'small'])
def test_layers_that_follow_the_rules_are_not_measured(planner, monkeypatch, how):
    monkeypatch.setattr(conv_plan, '_measure', lambda *a: pytest.fail('measured'))
    x, w = layer()
    if how == 'deterministic':
        ms.set_context(deterministic='ON')
        monkeypatch.setattr(conv_plan, '_deterministic', True)      # restored after
    elif how == 'rules':
        conv_plan.set_mode('rules')
    elif how == 'algorithm':
        monkeypatch.setattr(conv_kernels, 'ALGORITHM', 'direct')
    elif how == 'float64':
        x, w = x.astype(np.float64), w.astype(np.float64)
    else:
        monkeypatch.setattr(conv_plan, 'MIN_FLOPS', 10 ** 12)
    try:
        plan = conv_kernels.conv_forward(x, w, (1, 1), (1,) * 4, (1, 1), 1)[1]
    finally:
        ms.set_context(deterministic='OFF')
    assert plan == conv_kernels.rules_plan(w.shape, (1, 1), (1,) * 4, (1, 1), 1, (6, 6),
                                           x.dtype)
    assert conv_plan._plans == {}


def test_deterministic_context_turns_measuring_off_and_on():
    ms.set_context(deterministic='ON')
    try:
        assert not conv_plan.measuring()
    finally:
        ms.set_context(deterministic='OFF')
    assert conv_plan.measuring() == (conv_plan.MODE == 'measure')
    with pytest.raises(ValueError, match=r"the argument 'deterministic' must be one of "
                                         r"\['ON', 'OFF'\], but got yes"):
        ms.set_context(deterministic='yes')


def test_bad_modes_are_refused(monkeypatch):
    with pytest.raises(ValueError, match="conv plan mode must be 'measure' or 'rules', got 'x'"):
        conv_plan.set_mode('x')
    monkeypatch.setenv('HOOKGRAD_CONV_PLAN', 'fastest')
    with pytest.raises(ValueError, match="HOOKGRAD_CONV_PLAN must be 'measure' or 'rules', "
                                         "got 'fastest'"):
        conv_plan._mode_from_env()
    monkeypatch.setenv('HOOKGRAD_CONV_PLAN', ' Rules ')
    assert conv_plan._mode_from_env() == 'rules'


def test_profile_shows_the_kernel_each_convolution_ran(planner, monkeypatch, tmp_path):
    costs = {'forward:winograd': 0.1, 'input:col2im': 0.1, 'filter:direct': 0.1}
    monkeypatch.setattr(conv_plan, '_fastest', fake_timer(costs))
    net = nn.SequentialCell(nn.Conv2d(8, 8, 3, pad_mode='pad', padding=1), nn.ReLU(),
                            nn.Conv2d(8, 8, 3, pad_mode='pad', padding=1))
    x = ms.Tensor(np.random.default_rng(1).standard_normal((2, 8, 6, 6)).astype(np.float32))
    step = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())
    step(x)                                     # plans both layers
    with ms.debug.profile() as prof:
        step(x)
    names = [r.name for r in prof.by_kernel().rows]
    assert names == ['SequentialCell.0: Convolution2D filter=direct',
                     'SequentialCell.0: Convolution2D forward=winograd',
                     'SequentialCell.2: Convolution2D forward=winograd',
                     'SequentialCell.2: Convolution2D input=col2im, filter=direct']
    assert prof.by_kernel()[names[1]].calls == {'forward': 1, 'backward': 0}
    path = tmp_path / 'trace.json'
    prof.export_chrome_trace(str(path))
    kernels = {e['args'].get('kernel') for e in json.load(open(path))['traceEvents']}
    assert {'forward=winograd', 'input=col2im, filter=direct'} <= kernels


# ------------------------------------------------------------------ plan cache
def test_plan_cache_round_trip_and_merge(tmp_path, monkeypatch):
    monkeypatch.setenv('HOOKGRAD_CACHE_DIR', str(tmp_path))
    a, b = PlanCache('t'), PlanCache('t')
    assert a.get(('k', 1)) is None and b.get(('k', 2)) is None
    a.put(('k', 1), {'v': 1})
    b.put(('k', 2), [2])                # b merges a's entry when it writes
    fresh = PlanCache('t')
    assert fresh.get(('k', 1)) == {'v': 1} and fresh.get(('k', 2)) == [2]
    assert len(fresh) == 2 and fresh.info()['error'] is None
    fresh.clear()
    assert PlanCache('t').get(('k', 1)) is None


def test_plan_cache_survives_a_corrupt_or_unwritable_file(tmp_path, monkeypatch):
    monkeypatch.setenv('HOOKGRAD_CACHE_DIR', str(tmp_path))
    cache = PlanCache('t')
    with open(cache.path, 'w') as f:
        f.write('{not json')
    assert cache.get(('k',)) is None
    assert 'could not read' in cache.info()['error']
    blocker = tmp_path / 'file'
    blocker.write_text('')
    monkeypatch.setenv('HOOKGRAD_CACHE_DIR', str(blocker / 'sub'))
    cache = PlanCache('t')
    cache.put(('k',), 1)
    assert cache.get(('k',)) == 1
    assert 'could not write' in cache.info()['error'] and 'kept in memory' in cache.info()['error']


def test_fingerprint_follows_the_sources(tmp_path):
    src = tmp_path / 'kernel.py'
    src.write_text('a = 1\n')
    before = machine_fingerprint([str(src)])
    assert machine_fingerprint([str(src)]) == before
    src.write_text('a = 2\n')
    assert machine_fingerprint([str(src)]) != before


def test_blas_info_reports_how_convolutions_are_planned():
    info = ms.blas_info()
    assert info['conv_plan'] == ('measure' if conv_plan.measuring() else 'rules')
    assert info['conv_plan_cache'] == conv_plan.CACHE.path
    ms.set_context(deterministic='ON')
    try:
        assert ms.blas_info()['conv_plan'] == 'rules'
    finally:
        ms.set_context(deterministic='OFF')


def test_measuring_leaves_no_idle_scratch_behind(planner, monkeypatch):
    """The losing candidates' scratch buffers are not kept in the pool after measuring (they
    would raise the process's memory for good)."""
    from hookgrad.kernels.conv_layout import POOL
    x, w = layer(n=8, c=64, h=32, w=32, o=64)       # im2col and Winograd scratch over 1 MiB
    monkeypatch.setattr(POOL, 'idle', [])
    left = []
    measure = conv_plan._measure

    def spy(*args):
        out = measure(*args)
        left.extend(POOL.idle)
        return out
    monkeypatch.setattr(conv_plan, '_measure', spy)
    conv_kernels.conv_forward(x, w, (1, 1), (1,) * 4, (1, 1), 1)
    assert left                                         # measuring left buffers idle ...
    assert not [b for b in POOL.idle if any(b is a for a in left)]    # ... none stays


def test_a_batch_last_input_is_planned_apart_and_may_leave_that_layout(planner, monkeypatch):
    """A narrow layer leaves its output batch-last; the next layer is measured on that input
    (its channels-last candidates pay for the copy) and kept under its own key."""
    monkeypatch.setattr(conv_plan, '_fastest', fake_timer({'forward:direct': 0.1}))
    x, w = layer(c=8, o=8)
    xb = np.ascontiguousarray(x.transpose(1, 2, 3, 0)).transpose(3, 0, 1, 2)
    p = ((1, 1), (1,) * 4, (1, 1), 1)
    y_b, plan_b, *_ = conv_kernels.conv_forward(xb, w, *p)
    y_c, plan_c, *_ = conv_kernels.conv_forward(x, w, *p)
    assert plan_b.forward == plan_c.forward == 'direct'
    np.testing.assert_allclose(y_b, y_c, rtol=1e-5, atol=1e-5)
    layouts = sorted(d.split()[7] for d in conv_plan.info()['plans'])
    assert layouts == ['CHWN', 'NHWC']
