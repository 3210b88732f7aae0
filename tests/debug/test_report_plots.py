"""The report's plots: one step axis for every panel (shared range, integer ticks), the last
healthy step marked, the learning rate drawn when recorded, the loss of step k drawn at step k,
the layers of the findings in colour whatever their size."""
import dataclasses
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import StatsRecorder, load_run, render_report, save_run
from hookgrad.debug.report import health_of
from hookgrad.debug.stats_report import FINDINGS
from tests.debug.test_stats import MLP
from tests.debug.test_stats_depth import sigmoid_stack, train as train_stack
from tests.debug.test_stats_steps import run

matplotlib = pytest.importorskip('matplotlib')
from hookgrad.debug.report_plots import MARKER_GID, figures, step_range  # noqa: E402

STEPS, NAN_STEP = 7, 4


@pytest.fixture(autouse=True)
def close_figures():
    yield
    matplotlib.pyplot.close('all')


def train(form='step_with_loss', lr=True, every=1, nan_step=NAN_STEP):
    """STEPS SGD steps at a small, decaying learning rate; the input of ``nan_step`` holds a
    NaN. Returns the recorder, nan_guard's reports as a run file holds them, and the losses."""
    rec, guard, computed = run(form, every, STEPS, nan_step, (lambda k: 0.01 / (k + 1)) if lr
                               else None, base_lr=0.01, poison=(0, 0))
    return rec, [dataclasses.asdict(a) for a in guard.reports], computed


def step_axes(figs):
    """Every axes with a step axis (colour bars have none), each figure drawn first."""
    out = []
    for _, fig in figs:
        fig.canvas.draw()
        out += [ax for ax in fig.axes if ax.get_xlabel() == 'step']
    return out


@pytest.fixture(scope='module')
def recorded():
    return train()


def test_every_panel_shares_one_range_of_integer_steps(recorded):
    rec, anomalies, _ = recorded
    ms.set_seed(0)
    short = train_stack(sigmoid_stack(1), steps=2).history      # a range of two steps
    for h, n_axes, lo, hi in ((rec.history, 2 + 4 + 1, -0.5, STEPS - 0.5),
                              (short, 1 + 4 + 1, -0.5, 1.5)):
        figs = figures(h, h.report(), health_of(h, h.report(), anomalies)[0])
        axes = step_axes(figs)
        assert len(axes) == n_axes      # loss (and lr), four statistics, the heat map
        assert step_range(h) == (lo, hi)
        for ax in axes:
            assert ax.get_xlim() == (lo, hi), ax.get_title()
            ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
            assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
            labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
            assert all(re.fullmatch(r'−?\d+', text) for text in labels), labels
        for _, fig in figs:
            matplotlib.pyplot.close(fig)


def test_a_sparse_recording_shares_the_range_of_every_logged_step():
    rec, _, _ = train(every=3)
    h = rec.history
    assert list(h.steps) == [0, 3, 6] and sorted(h.losses) == list(range(STEPS))
    # the heat map's columns are centred on 0, 3, 6 (1.5 either side); the loss spans 0-6
    assert step_range(h) == (-1.5, 7.5)
    axes = step_axes(figures(h))
    assert {ax.get_xlim() for ax in axes} == {(-1.5, 7.5)}
    heat = axes[-1]
    assert list(heat.collections[0].get_coordinates()[0, :, 0]) == [-1.5, 1.5, 4.5, 7.5]


def test_the_last_healthy_step_is_marked_on_every_panel_and_on_the_page(recorded, tmp_path):
    rec, anomalies, _ = recorded
    h = rec.history
    last, first, what = health_of(h, h.report(), anomalies)
    assert (last, first) == (NAN_STEP - 1, NAN_STEP)
    assert what == "forward NaN/Inf at op Dense in fc1 (nan_guard)"
    for ax in step_axes(figures(h, h.report(), last)):
        marks = [line for line in ax.get_lines() if line.get_gid() == MARKER_GID]
        assert len(marks) == 1 and list(marks[0].get_xdata()) == [last, last]
    path = save_run(tmp_path / 'run.json', rec, anomalies=[])
    page = open(render_report(path, tmp_path / 'r.html'), encoding='utf-8').read()
    # without nan_guard's reports, the loss tells first
    assert f"Last healthy step: <b>{last}</b>; at step {first}: NaN or Inf loss." in page
    healthy = train(nan_step=None)[0].history
    assert health_of(healthy, healthy.report()) == (None, None, None)
    assert not [line for ax in step_axes(figures(healthy, healthy.report(), None))
                for line in ax.get_lines() if line.get_gid() == MARKER_GID]


def test_the_learning_rate_panel_is_drawn_only_when_recorded(recorded, tmp_path):
    rec, _, _ = recorded
    path = save_run(tmp_path / 'run.json', rec)
    back = load_run(path)['history']
    assert back.lrs == rec.history.lrs == {k: 0.01 / (k + 1) for k in range(STEPS)}
    titles = [ax.get_title() for ax in step_axes(figures(back))]
    assert titles[:2] == ['training loss', 'learning rate']
    lr_line = step_axes(figures(back))[1].get_lines()[0]
    assert list(lr_line.get_ydata()) == [0.01 / (k + 1) for k in range(STEPS)]
    page = open(render_report(path, tmp_path / 'r.html'), encoding='utf-8').read()
    assert 'alt="Training loss and learning rate per step"' in page
    no_lr = train(lr=False)[0].history
    assert no_lr.lrs == {}
    titles = [ax.get_title() for ax in step_axes(figures(no_lr))]
    assert 'learning rate' not in titles and titles[0] == 'training loss'
    page = open(render_report(no_lr, tmp_path / 'n.html'), encoding='utf-8').read()
    assert 'alt="Training loss per step"' in page and 'learning rate per step' not in page
    no_lr.losses = {}
    titles = [ax.get_title() for ax in step_axes(figures(no_lr))]
    assert 'training loss' not in titles and len(titles) == 4 + 1


@pytest.mark.parametrize('form', ('step_with_loss', 'step_then_log', 'auto_step'))
def test_the_loss_curve_draws_the_loss_of_step_k_at_step_k(form):
    rec, _, computed = train(form)
    loss_axes = step_axes(figures(rec.history))[0]
    finite, nan = loss_axes.get_lines()[:2]
    steps = [k for k in range(STEPS) if k != NAN_STEP]
    assert list(finite.get_xdata()) == steps
    assert list(finite.get_ydata()) == [computed[k] for k in steps]
    assert list(nan.get_xdata()) == [NAN_STEP] and np.isnan(computed[NAN_STEP])


def test_flagged_layers_are_coloured_and_named_whatever_their_size(tmp_path):
    ms.set_seed(0)
    rec = train_stack(sigmoid_stack())
    report = rec.report()
    flagged = [name for name, _ in report.names('vanishing_depth')]
    figs = figures(rec.history, report)
    grad_panel = [ax for ax in step_axes(figs) if ax.get_title() ==
                  'gradient norm at the output'][0]
    labels = [t.get_text() for t in grad_panel.get_legend().get_texts()]
    assert labels[:len(flagged)] == [f"{n}: vanishing across depth" for n in flagged]
    # the flagged layers are the smallest norms: by size alone they would be grey
    by_label = {line.get_label(): line for line in grad_panel.get_lines()}
    for name in flagged:
        colour = matplotlib.colors.to_rgb(by_label[f"{name}: vanishing across depth"].get_color())
        assert colour != matplotlib.colors.to_rgb('0.75')
    assert grad_panel.get_legend().get_title().get_text() == 'flagged, then largest norm'
    out = rec.plot(tmp_path / 'p.png')                  # history.plot colours them too
    assert out.read_bytes()[:4] == b'\x89PNG'
    page = open(render_report(rec, tmp_path / 'r.html'), encoding='utf-8').read()
    depth = page[page.index('<h2>Gradient norm across depth'):page.index('<h2>Last recorded')]
    assert depth.count('<span class="flag">vanishing across depth</span>') == len(flagged)
    first = rec.depth_profile()[0]
    assert f'<td class="num">{first.ratio:.3g}</td>' in depth
    assert 'vanishing across depth</span>' in page and '0 exploding across depth' in page


def test_a_large_update_alone_does_not_end_the_healthy_steps():
    ms.set_seed(0)
    net = MLP()
    opt = nn.SGD(net.trainable_params(), learning_rate=1.0)
    grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, opt.parameters)
    rng = np.random.default_rng(0)
    with StatsRecorder(net) as rec:
        for _ in range(4):
            loss, grads = grad_fn(ms.Tensor(rng.standard_normal((8, 4)).astype(np.float32)))
            opt(grads)
            rec.step(loss=loss)
    report = rec.history.report()
    assert report.large_update and np.isfinite(list(rec.history.losses.values())).all()
    assert not any(getattr(report, k) for k in FINDINGS if k != 'large_update')
    assert health_of(rec.history, report) == (None, None, None)
