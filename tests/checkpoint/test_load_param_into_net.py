"""load_param_into_net: returned lists, dtype casts, the prefix fallback, and all-or-nothing
loading with every problem listed."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn

from .nets import P, assert_same, fresh_outer, values


def test_returns_parameters_not_loaded_and_entries_not_used():
    net = nn.SequentialCell(nn.Dense(2, 3), nn.Dense(3, 1))
    w = np.arange(6, dtype=np.float32).reshape(3, 2)
    with pytest.warns(UserWarning, match=r"^For 'load_param_into_net', 3 parameters in the "
                      r"'net' are not loaded, because they are not in the 'parameter_dict', "
                      r"please check whether the network structure is consistent when "
                      r"training and loading checkpoint\. \['0\.bias', '1\.weight', "
                      r"'1\.bias'\] are not loaded\.$"):
        out = ms.load_param_into_net(net, {'0.weight': P(w), 'extra': P([1.0]), 'note': 'text'})
    assert out == (['0.bias', '1.weight', '1.bias'], ['extra', 'note'])
    np.testing.assert_array_equal(net[0].weight.asnumpy(), w)


@pytest.mark.parametrize('src, dst', [
    (np.float64, np.float32), (np.float32, np.float16), (np.float16, np.float64),
    (np.int32, np.int64), (np.int64, np.int8)])
def test_strict_load_false_casts_within_float_and_int(src, dst):
    target = ms.Parameter(ms.Tensor(np.zeros((2,), dst)), name='x')
    holder = nn.Cell()
    holder.x = target
    ms.load_param_into_net(holder, {'x': P(np.array([3, -2], src))})
    assert target.asnumpy().dtype == dst
    np.testing.assert_array_equal(target.asnumpy(), [3, -2])
    with pytest.raises(RuntimeError, match="with strict_load=True dtypes must match"):
        ms.load_param_into_net(holder, {'x': P(np.array([5, 5], src))}, strict_load=True)
    np.testing.assert_array_equal(target.asnumpy(), [3, -2])


@pytest.mark.parametrize('src, dst', [
    (np.float32, np.int64), (np.int64, np.float32), (np.bool_, np.float32),
    (np.float32, np.bool_), (np.int32, np.uint8), (np.uint8, np.int64)])
def test_kind_changes_are_rejected_even_without_strict_load(src, dst):
    holder = nn.Cell()
    holder.x = ms.Parameter(ms.Tensor(np.zeros((2,), dst)), name='x')
    with pytest.raises(RuntimeError, match=r"'x': the network has dtype \w+, the checkpoint "
                                           r"\w+$"):
        ms.load_param_into_net(holder, {'x': P(np.ones(2, src))})
    np.testing.assert_array_equal(holder.x.asnumpy(), np.zeros(2, dst))


def test_every_problem_is_listed_and_nothing_changes():
    net = fresh_outer(13)
    before = values(net)
    bad = {
        'body.steps': P(np.zeros(2, np.float32)),                    # kind
        'body.mask': P(np.zeros((2, 2), np.bool_)),                  # fine
        'body.dense.weight': P(np.zeros((3, 2), np.float32)),        # shape
        'head.0.bias': P(np.zeros((4,), np.int64)),                  # kind
        'head.1.weight': P(np.zeros((1, 4), np.float32)),            # fine
        'head.1.bias': P(np.zeros((2,), np.float32)),                # shape
    }
    with pytest.raises(RuntimeError) as info:
        ms.load_param_into_net(net, bad)
    msg = str(info.value)
    assert msg.startswith("load_param_into_net: 4 of 6 entries do not fit the network "
                          "(strict_load=False casts only float to float and int to int); no "
                          "parameter was changed:")
    for line in ("'body.steps': the network has dtype Int64, the checkpoint Float32",
                 "'body.dense.weight': the network has shape (2, 3), the checkpoint (3, 2)",
                 "'head.0.bias': the network has dtype Float32, the checkpoint Int64",
                 "'head.1.bias': the network has shape (1,), the checkpoint (2,)"):
        assert f"\n  {line}" in msg
    assert_same(values(net), before)


def test_prefix_fallback_without_strict_load():
    net = nn.Dense(2, 1)
    w, b = np.array([[4.0, 5.0]], np.float32), np.array([6.0], np.float32)
    entries = {'backbone.weight': P(w), 'backbone.bias': P(b), 'other': P([0.0])}
    with pytest.warns(UserWarning, match=r"nothing was loaded: none of the 2 parameters of the "
                      r"network \('weight', 'bias'\) matches one of the 3 Parameter entries "
                      r"of parameter_dict \('backbone\.weight', 'backbone\.bias', 'other'\); "
                      r"the checkpoint is probably of another network \(strict_load=False "
                      r"also tries entries named prefix \+ name\)"):
        out = ms.load_param_into_net(net, dict(entries), strict_load=True)
    assert out == (['weight', 'bias'], ['backbone.weight', 'backbone.bias', 'other'])
    out = ms.load_param_into_net(net, dict(entries))
    assert out == ([], ['other'])
    np.testing.assert_array_equal(net.weight.asnumpy(), w)
    np.testing.assert_array_equal(net.bias.asnumpy(), b)


def test_wrong_network_warns_that_nothing_was_loaded_and_full_load_is_silent():
    import warnings
    src = nn.SequentialCell(*[nn.Dense(2, 2) for _ in range(7)])
    entries = {p.name: p for p in src.get_parameters()}
    net = nn.Dense(2, 2)
    net.weight.name, net.bias.name = 'fc.weight', 'fc.bias'
    before = values(net)
    with pytest.warns(UserWarning, match=r"^load_param_into_net: nothing was loaded: none of "
                      r"the 2 parameters of the network \('fc\.weight', 'fc\.bias'\) "
                      r"matches one of the 14 Parameter entries of parameter_dict "
                      r"\('0\.weight', '0\.bias', '1\.weight', '1\.bias', '2\.weight' "
                      r"and 9 more\); the checkpoint is probably of another network$"):
        out = ms.load_param_into_net(net, entries)
    assert out == (['fc.weight', 'fc.bias'], list(entries))
    assert_same(values(net), before)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert ms.load_param_into_net(src, entries) == ([], [])


def test_prefix_fallback_entries_are_checked_and_named_in_errors():
    net = nn.Dense(2, 1)
    with pytest.raises(RuntimeError, match=r"'weight' \(from entry 'm\.weight'\): the network "
                                           r"has shape \(1, 2\), the checkpoint \(2, 2\)"):
        ms.load_param_into_net(net, {'m.weight': P(np.zeros((2, 2), np.float32))})


def test_load_param_into_net_argument_errors():
    net = nn.Dense(1, 1)
    with pytest.raises(TypeError, match="load_param_into_net: net must be a Cell, got dict"):
        ms.load_param_into_net({}, {})
    with pytest.raises(TypeError, match="parameter_dict must be a dict, got list"):
        ms.load_param_into_net(net, [])
    with pytest.raises(TypeError, match=r"must map str names to Parameters \(or str\), got "
                                        r"'weight': Tensor, 3: Parameter"):
        ms.load_param_into_net(net, {'weight': ms.Tensor([[1.0]]), 3: P([1.0]), 'ok': 'x'})
    with pytest.raises(TypeError, match="load_param_into_net: strict_load must be a bool, got 1"):
        ms.load_param_into_net(net, {}, strict_load=1)
    with pytest.raises(TypeError, match="remove_redundancy must be a bool, got None"):
        ms.load_param_into_net(net, {}, remove_redundancy=None)
