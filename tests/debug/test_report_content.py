"""What the HTML report shows: loss curve, date and version, readable shapes and sizes,
non-finite gradients as such, too large updates; file mode; TensorBoard's non-finite values."""
import base64
import io
import os
import re
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.debug import StatsRecorder, load_run, render_report, save_run, summary
from hookgrad.debug.report import shape_text
from hookgrad.debug.report_plots import NONFINITE, _heatmap, _encode, step_range


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 2)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def record(steps, nan_step):
    """SGD steps at a learning rate of 5 (too large); the input of ``nan_step`` is all NaN."""
    ms.set_seed(0)
    net = Net()
    x = np.random.default_rng(0).standard_normal((6, 4)).astype(np.float32)
    opt = nn.SGD(net.trainable_params(), learning_rate=5.0)
    grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, opt.parameters)
    losses = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        with StatsRecorder(net) as rec:
            for i in range(steps):
                loss, grads = grad_fn(ms.Tensor(np.full_like(x, np.nan) if i == nan_step else x))
                if i != nan_step:
                    opt(grads)
                losses.append(float(loss.asnumpy()))
                rec.step()
    return net, rec, losses, summary(net, ms.Tensor(x), verbose=False)


@pytest.fixture(scope='module')
def recorded():
    return record(4, 2)


def test_run_file_holds_losses_date_version_and_is_world_readable(recorded, tmp_path):
    net, rec, losses, s = recorded
    old = os.umask(0o022)
    try:
        path = save_run(tmp_path / 'run.json', rec, s, losses=losses)
    finally:
        os.umask(old)
    assert os.stat(path).st_mode & 0o777 == 0o644
    run = load_run(path)
    assert run['hookgrad_version'] == ms.__version__
    assert re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d', run['created'])
    np.testing.assert_array_equal([run['history'].losses[k] for k in range(4)], losses)
    assert rec.history.losses == {}         # save_run's losses do not change the recorder's
    with pytest.raises(TypeError, match='save_run: losses must be a sequence or a dict'):
        save_run(tmp_path / 'bad.json', rec, losses=1.0)


def test_page_shows_what_a_person_needs(recorded, tmp_path):
    net, rec, losses, s = recorded
    path = save_run(tmp_path / 'run.json', rec, s, losses=losses, title='lr 5')
    page = open(render_report(path, tmp_path / 'r.html'), encoding='utf-8').read()
    assert f'with hookgrad {ms.__version__}' in page and 'recorded 20' in page
    assert 'alt="Training loss per step"' in page
    assert '<td class="">6×4</td><td class="">6×2</td>' in page          # the root's shapes
    assert '([6, 4],)' not in page and '192 B' in page
    # the last step had finite gradients; step 2's NaN shows in the findings with counts
    assert 'non-finite gradient at 1 step(s), at step 2: 12 NaN, 0 Inf' in page
    assert 'large update' in page and 'the learning rate is probably too large' in page
    assert 'no gradient arrived' not in page


def test_last_step_table_and_heat_map_show_non_finite_gradients(tmp_path):
    pytest.importorskip('matplotlib')
    import matplotlib.image
    history_upto_nan = record(3, 2)[1].history
    page = open(render_report(history_upto_nan, tmp_path / 'p.html'), encoding='utf-8').read()
    assert '<span class="nonfinite">non-finite: 12 NaN, 0 Inf</span>' in page      # fc2
    heatmap = _heatmap(history_upto_nan, step_range(history_upto_nan), None)
    image = matplotlib.image.imread(io.BytesIO(base64.b64decode(_encode(heatmap))))
    colour = np.array([int(NONFINITE[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    hits = np.all(np.abs(image[..., :3] - colour) < 0.02, axis=-1)
    assert hits.sum() > 1000                # the NaN step's column is drawn in its colour


def test_shape_text():
    assert shape_text('([2, 3, 32, 32],)') == '2×3×32×32'
    assert shape_text('([2, 4], [2, 4])') == '2×4, 2×4'
    assert shape_text('[2, 10]') == '2×10'
    assert shape_text('([],)') == 'scalar'
    assert shape_text('') == ''


def test_tensorboard_skips_non_finite_values_with_one_warning(recorded, tmp_path, capfd):
    pytest.importorskip('tensorboardX')
    net, rec, losses, s = recorded
    with pytest.warns(RuntimeWarning, match=r"StatsHistory.to_tensorboard: left out \d+ NaN or "
                                            r"Inf value\(s\), which TensorBoard cannot draw") \
            as caught:
        rec.to_tensorboard(tmp_path / 'tb')
    assert len([w for w in caught if 'to_tensorboard' in str(w.message)]) == 1
    assert 'NaN or Inf found in input tensor' not in capfd.readouterr().out
