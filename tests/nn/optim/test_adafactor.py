"""nn.AdaFactor step by step against MindSpore 2.10's recorded values, and its argument errors."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

from .adafactor_steps import CASES, G, P0

KWARGS = {
    'default': {},
    'manual': dict(learning_rate=0.1, relative_step=False, scale_parameter=False),
    'manual-scaled': dict(learning_rate=0.1, relative_step=False, clip_threshold=0.5,
                          decay_rate=0.5),
    'no-first-moment': dict(beta1=0.0),
    'decay-warmup': dict(weight_decay=0.1, warmup_init=True),
    'compression': dict(compression=True, beta1=0.5),
    'loss-scale': dict(loss_scale=8.0, learning_rate=0.1, relative_step=False),
    'groups': dict(groups=True, weight_decay=0.2),
    'tensor-lr': dict(learning_rate=ms.Tensor(0.1, ms.float32), relative_step=False),
}


def _params():
    return [ms.Parameter(ms.Tensor(np.array(p, np.float32)), name=n)
            for p, n in zip(P0, ['w', 'b', 'k'])]


def _run(groups=False, **kwargs):
    ps = _params()
    arg = [{'params': ps[:1], 'weight_decay': 0.5}, {'params': ps[1:]}] if groups else ps
    opt = nn.AdaFactor(arg, **kwargs)
    rows = []
    for gs in G:
        assert opt(tuple(ms.Tensor(np.array(g, np.float32)) for g in gs)) is True
        rows.append(np.concatenate([p.asnumpy().ravel() for p in ps]))
    return opt, np.array(rows)


@pytest.mark.parametrize('case', sorted(CASES))
def test_steps_match_mindspore(case):
    _, rows = _run(**KWARGS[case])
    np.testing.assert_allclose(rows, np.array(CASES[case]), rtol=1e-6, atol=1e-7)


def test_state_layout_and_step_count():
    opt, rows = _run(compression=True)
    np.testing.assert_allclose(rows, _run()[1], rtol=1e-3)    # only the rounding differs
    assert not np.array_equal(rows, _run()[1])
    assert opt.step.asnumpy().tolist() == [3.0]
    assert int(opt.global_step.asnumpy()[0]) == 3
    assert [p.name for p in opt.exp_avg] == ['exp_avg.w', 'exp_avg.b', 'exp_avg.k']
    assert [p.shape for p in opt.exp_avg_sq_row] == [(2,), (1,), (2, 2)]
    assert [p.shape for p in opt.exp_avg_sq_col] == [(3,), (1,), (2, 2)]
    assert [p.shape for p in opt.exp_avg_sq] == [(1,), (3,), (1,)]
    assert opt.exp_avg_sq[1].asnumpy().dtype == np.float16
    assert opt.exp_avg_sq_row[0].name == 'exp_avg_sq_row_w'
    names = {name for name, _ in opt.parameters_and_names()}
    assert {'exp_avg_sq_col_k', 'exp_avg_sq_b'} <= names
    assert opt.step.name == 'afactor_step'


def test_no_first_moment_has_no_exp_avg_state():
    opt, _ = _run(beta1=None)
    assert not opt.use_first_moment
    assert not any(name.startswith('exp_avg.') for name, _ in opt.parameters_and_names())


def test_schedule_turns_scale_parameter_off():
    opt = nn.AdaFactor(_params(), learning_rate=nn.ExponentialDecayLR(0.1, 0.9, 1),
                       relative_step=False)
    assert opt.scale_parameter is False and opt.scale_lr is False


@pytest.mark.parametrize('kwargs, error, message', [
    (dict(learning_rate=0.1), ValueError, 'Cannot combine manual lr and relative_step options'),
    (dict(relative_step=False), ValueError, 'Cannot learning_rate is None and relative_step=False'),
    (dict(warmup_init=True, relative_step=False, learning_rate=0.1), ValueError,
     'warmup_init requires relative_step=True'),
    (dict(eps=(1e-30,)), ValueError, r'eps must have 2 value: \(eps1, eps2\)'),
    (dict(eps=1e-30), TypeError, "the type of 'eps' should be one of"),
    (dict(eps=[1e-30, 1]), TypeError,
     "For 'AdaFactor', the type of 'eps1' should be 'float', but got type 'int'"),
    (dict(eps=(1e-30, -1.0)), ValueError,
     "For 'AdaFactor', the 'eps1' must be float and must >= 0, but got '-1.0'"),
    (dict(clip_threshold=1), TypeError, "the type of 'clip_threshold' should be 'float'"),
    (dict(clip_threshold=-1.0), ValueError, "the 'clip_threshold' must be float and must >= 0"),
    (dict(decay_rate=1.0), ValueError,
     r"the 'decay_rate' must be in range of \(0, 1\), but got 1.0"),
    (dict(decay_rate=1), TypeError, "the type of 'decay_rate' should be 'float'"),
    (dict(weight_decay=1.0), ValueError,
     r"the 'weight_decay' must be in range of \[0, 1\), but got 1.0"),
    (dict(scale_parameter=1), TypeError, "the type of 'scale_parameter' should be 'bool'"),
    (dict(relative_step=1), TypeError, "the type of 'relative_step' should be 'bool'"),
    (dict(compression=1), TypeError, "the type of 'compression' should be 'bool'"),
    (dict(beta1='a'), TypeError,
     r"the type of 'beta1' should be one of '\['int', 'float'\]', but got type 'str'"),
    (dict(beta1=-0.5), ValueError, "the 'beta1' must be float and must >= 0, but got '-0.5'"),
    (dict(loss_scale=0.0), ValueError, "the 'loss_scale' must be float and must > 0"),
])
def test_argument_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        nn.AdaFactor(_params(), **kwargs)
