"""save_checkpoint / load_checkpoint: round trips, choosing entries, append_dict, loading
into a network, and atomic writes."""
import os

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.checkpoint import durable as ckpt_file
from hookgrad import nn

from .nets import NAMES, assert_same, fresh_outer, save_hookgrad_file, values


# ----------------------------------------------------------------- round trips
@pytest.mark.parametrize('fmt', ['ckpt', 'safetensors'])
def test_round_trip_restores_names_values_and_dtypes(st, tmp_path, fmt):
    net = fresh_outer(0)
    ms.save_checkpoint(net, str(tmp_path / 'net'), format=fmt)
    loaded = ms.load_checkpoint(str(tmp_path / f'net.{fmt}'))
    # safetensors files are read by name, as MindSpore reads them
    assert list(loaded) == (NAMES if fmt == 'ckpt' else sorted(NAMES))
    for name, p in loaded.items():
        src = dict((q.name, q) for q in net.get_parameters())[name]
        assert isinstance(p, ms.Parameter)
        assert p.name == name
        assert p.dtype == src.dtype
        assert p.requires_grad      # MindSpore's files keep no flag: True, as MindSpore loads
        np.testing.assert_array_equal(p.asnumpy(), src.asnumpy())
    assert loaded['body.steps'].dtype == ms.int64 and loaded['body.mask'].dtype == ms.bool_
    assert loaded['body.scale'].dtype == ms.float16


def test_older_hookgrad_files_restore_requires_grad(st, tmp_path):
    net = fresh_outer(0)
    save_hookgrad_file(net, tmp_path / 'old.ckpt')
    loaded = ms.load_checkpoint(tmp_path / 'old.ckpt')
    assert list(loaded) == NAMES
    assert_same({k: v.asnumpy() for k, v in loaded.items()}, values(net))
    assert [p.requires_grad for p in loaded.values()] == \
        [p.requires_grad for p in net.get_parameters()]
    assert not loaded['body.steps'].requires_grad and loaded['head.0.weight'].requires_grad


def test_loading_into_a_fresh_network_reproduces_it(st, tmp_path):
    src, dst = fresh_outer(1), fresh_outer(2)
    ms.save_checkpoint(src, tmp_path / 'net.ckpt')
    not_loaded, unused = ms.load_param_into_net(dst, ms.load_checkpoint(tmp_path / 'net.ckpt'))
    assert (not_loaded, unused) == ([], [])
    assert_same(values(dst), values(src))
    x = ms.Tensor(np.random.default_rng(3).standard_normal((5, 2)).astype(np.float32))
    np.testing.assert_array_equal(dst.head(x).asnumpy(), src.head(x).asnumpy())


def test_suffix_is_appended_unless_the_name_ends_with_the_format(st, tmp_path):
    net = nn.Dense(2, 2)
    ms.save_checkpoint(net, str(tmp_path / 'model'))
    ms.save_checkpoint(net, str(tmp_path / 'other.ckpt'))
    ms.save_checkpoint(net, str(tmp_path / 'netckpt'))         # MindSpore's rule: kept
    ms.save_checkpoint(net, str(tmp_path / 'model'), format='safetensors')
    ms.save_checkpoint(net, str(tmp_path / 'w.safetensors'), format='safetensors')
    assert sorted(os.listdir(tmp_path)) == ['model.ckpt', 'model.safetensors', 'netckpt',
                                            'other.ckpt', 'w.safetensors']


def test_the_content_tells_the_format_whatever_the_name(st, tmp_path):
    net = fresh_outer(6)
    ms.save_checkpoint(net, tmp_path / 'a.safetensors', format='safetensors')
    ms.save_checkpoint(net, tmp_path / 'b.ckpt')
    os.rename(tmp_path / 'a.safetensors', tmp_path / 'a.ckpt')
    os.rename(tmp_path / 'b.ckpt', tmp_path / 'b.weights')
    for name in ('a.ckpt', 'b.weights'):
        for fmt in ('ckpt', 'safetensors'):
            got = ms.load_checkpoint(tmp_path / name, format=fmt)
            assert_same({k: got[k].asnumpy() for k in NAMES}, values(net))


def test_list_of_parameters_tuple_and_list_of_dicts(st, tmp_path):
    net = fresh_outer(4)
    params = list(net.get_parameters())
    ms.save_checkpoint(params, tmp_path / 'list.ckpt')
    ms.save_checkpoint(ms.ParameterTuple(params), tmp_path / 'tuple.ckpt')
    dicts = [{'name': p.name, 'data': p} for p in params]
    ms.save_checkpoint(dicts, tmp_path / 'dicts.ckpt')
    want = values(net)
    for f in ('list', 'tuple', 'dicts'):
        got = ms.load_checkpoint(tmp_path / f'{f}.ckpt')
        assert_same({k: v.asnumpy() for k, v in got.items()}, want)


def test_dict_from_load_checkpoint_saves_again(st, tmp_path):
    net = fresh_outer(5)
    ms.save_checkpoint(net, tmp_path / 'a.ckpt', append_dict={'note': 'v1'})
    first = ms.load_checkpoint(tmp_path / 'a.ckpt')
    ms.save_checkpoint(first, tmp_path / 'b.ckpt')
    second = ms.load_checkpoint(tmp_path / 'b.ckpt')
    assert list(second) == NAMES + ['note'] and second['note'] == 'v1'
    assert_same({k: v.asnumpy() for k, v in second.items() if k != 'note'}, values(net))


def test_plain_tensor_data_saves_non_contiguous_values(st, tmp_path):
    base = np.arange(12, dtype=np.float64).reshape(3, 4)
    t = ms.Tensor(np.asfortranarray(base))
    ms.save_checkpoint([{'name': 'w', 'data': t}], tmp_path / 't.ckpt')
    got = ms.load_checkpoint(tmp_path / 't.ckpt')['w']
    assert got.dtype == ms.float64 and got.requires_grad
    np.testing.assert_array_equal(got.asnumpy(), base)


def test_same_parameter_listed_twice_is_saved_once(st, tmp_path):
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='p')
    ms.save_checkpoint([p, p], tmp_path / 'p.ckpt')
    assert list(ms.load_checkpoint(tmp_path / 'p.ckpt')) == ['p']


def test_flags_accepted_by_mindspore_change_nothing(st, tmp_path):
    net = fresh_outer(6)
    ms.save_checkpoint(net, tmp_path / 'a.ckpt', integrated_save=False, async_save=True,
                       incremental=True)
    assert_same({k: v.asnumpy() for k, v in ms.load_checkpoint(tmp_path / 'a.ckpt').items()},
                values(net))
    dst = fresh_outer(7)
    out = ms.load_param_into_net(dst, ms.load_checkpoint(tmp_path / 'a.ckpt'),
                                 remove_redundancy=True)
    assert out == ([], []) and values(dst).keys() == values(net).keys()


# ----------------------------------------------------------------- choosing entries
def test_choice_func_on_save_skips_parameters_but_not_append_dict(st, tmp_path):
    net = fresh_outer(8)
    ms.save_checkpoint(net, tmp_path / 'h.ckpt', append_dict={'epoch': 2},
                       choice_func=lambda name: name.startswith('head.'))
    assert list(ms.load_checkpoint(tmp_path / 'h.ckpt')) == NAMES[5:] + ['epoch']


@pytest.mark.parametrize('kwargs, want', [
    (dict(filter_prefix='body'), NAMES[5:]),
    (dict(filter_prefix=['body.steps', 'head.1']), NAMES[1:7]),
    (dict(specify_prefix='head.0'), NAMES[5:7]),
    (dict(specify_prefix=('body', 'head.1.b'), filter_prefix='body.dense'),
     NAMES[:3] + NAMES[8:]),
    (dict(choice_func=lambda n: n.endswith('bias')), [n for n in NAMES if n.endswith('bias')]),
    (dict(choice_func=lambda n: False, filter_prefix='head'), NAMES[:5]),   # prefix wins
])
def test_load_filters(st, tmp_path, kwargs, want):
    ms.save_checkpoint(fresh_outer(9), tmp_path / 'n.ckpt')
    assert list(ms.load_checkpoint(tmp_path / 'n.ckpt', **kwargs)) == want


def test_nothing_left_after_filtering_is_an_error(st, tmp_path):
    ms.save_checkpoint(fresh_outer(10), tmp_path / 'n.ckpt')
    with pytest.raises(ValueError, match=r"load_checkpoint: no entry of '.*n\.ckpt' is left "
                                         r"after filtering"):
        ms.load_checkpoint(tmp_path / 'n.ckpt', specify_prefix='tail')
    ms.save_checkpoint([], tmp_path / 'empty.ckpt')            # MindSpore writes 0 bytes too
    assert (tmp_path / 'empty.ckpt').read_bytes() == b''
    with pytest.raises(ValueError, match=r"'.*empty\.ckpt' is empty: it holds no entries"):
        ms.load_checkpoint(tmp_path / 'empty.ckpt')


def test_append_dict_entries(st, tmp_path):
    extra = {'epoch': 7, 'lr': 0.25, 'done': True, 'tag': 'best',
             'ema': ms.Tensor(np.array([0.5, 1.5], np.float64))}
    ms.save_checkpoint(nn.Dense(1, 1), tmp_path / 'a.ckpt', append_dict=extra)
    got = ms.load_checkpoint(tmp_path / 'a.ckpt')
    assert list(got) == ['weight', 'bias', 'epoch', 'lr', 'done', 'tag', 'ema']
    assert got['epoch'].dtype == ms.int64 and got['epoch'].shape == () and got['epoch'] == 7
    assert got['lr'].dtype == ms.float32 and float(got['lr']) == 0.25
    assert got['done'].dtype == ms.bool_ and bool(got['done'])
    assert got['tag'] == 'best'
    assert got['ema'].dtype == ms.float64
    np.testing.assert_array_equal(got['ema'].asnumpy(), [0.5, 1.5])


# ----------------------------------------------------------------- load_checkpoint(net=...)
def test_load_checkpoint_with_net_loads_it(st, tmp_path):
    src, dst = fresh_outer(11), fresh_outer(12)
    ms.save_checkpoint(src, tmp_path / 'n.ckpt', append_dict={'epoch': 1})
    got = ms.load_checkpoint(tmp_path / 'n.ckpt', net=dst)
    assert list(got) == NAMES + ['epoch']
    assert_same(values(dst), values(src))
    assert dst.body.steps.requires_grad is False and dst.body.scale.requires_grad is True


def test_load_checkpoint_with_net_passes_strict_load(st, tmp_path):
    w = ms.Parameter(ms.Tensor(np.ones((1, 2), np.float64)), name='weight')
    ms.save_checkpoint([w], tmp_path / 'w.ckpt')
    net = nn.Dense(2, 1)
    before = values(net)
    with pytest.raises(RuntimeError, match=r"'weight': the network has dtype Float32, the "
                                           r"checkpoint Float64"):
        ms.load_checkpoint(tmp_path / 'w.ckpt', net=net, strict_load=True)
    assert_same(values(net), before)
    with pytest.warns(UserWarning, match=r"\['bias'\] are not loaded") as record:
        ms.load_checkpoint(tmp_path / 'w.ckpt', net=net)
    assert record[0].filename == __file__       # the warning points at the caller's line
    np.testing.assert_array_equal(net.weight.asnumpy(), [[1, 1]])
    assert net.weight.dtype == ms.float32


# ----------------------------------------------------------------- atomic writes
def test_failed_write_keeps_old_file_and_leaves_no_temp(st, tmp_path, monkeypatch):
    old, new = fresh_outer(14), fresh_outer(15)
    path = tmp_path / 'net.ckpt'
    ms.save_checkpoint(old, path)
    original = path.read_bytes()

    def half_then_fail(f, payload):
        f.write(payload[:len(payload) // 2])
        raise OSError(28, 'No space left on device')

    monkeypatch.setattr(ckpt_file, 'write_payload', half_then_fail)
    with pytest.raises(OSError, match='No space left on device'):
        ms.save_checkpoint(new, path)
    assert os.listdir(tmp_path) == ['net.ckpt']
    assert path.read_bytes() == original
    assert_same({k: v.asnumpy() for k, v in ms.load_checkpoint(path).items()}, values(old))


def test_interrupted_replace_keeps_old_file_and_leaves_no_temp(st, tmp_path, monkeypatch):
    path = tmp_path / 'net.ckpt'
    ms.save_checkpoint(fresh_outer(16), path)
    original = path.read_bytes()

    def interrupted(src, dst):
        assert os.path.basename(src).startswith(f'.net.ckpt.{os.getpid()}.')
        assert src.endswith('.tmp-hookgrad')
        assert os.path.getsize(src) > 0
        raise KeyboardInterrupt

    monkeypatch.setattr(ckpt_file.os, 'replace', interrupted)
    with pytest.raises(KeyboardInterrupt):
        ms.save_checkpoint(fresh_outer(17), path)
    monkeypatch.undo()
    assert os.listdir(tmp_path) == ['net.ckpt'] and path.read_bytes() == original


def test_successful_save_replaces_the_file_and_syncs(st, tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(ckpt_file.os, 'fsync', lambda fd: synced.append(fd) or real_fsync(fd))
    path = tmp_path / 'net.ckpt'
    ms.save_checkpoint(fresh_outer(18), path)
    net = fresh_outer(19)
    ms.save_checkpoint(net, path)
    assert os.listdir(tmp_path) == ['net.ckpt']
    assert len(synced) == (4 if hasattr(os, 'O_DIRECTORY') else 2)    # file (+ directory)
    assert_same({k: v.asnumpy() for k, v in ms.load_checkpoint(path).items()}, values(net))
