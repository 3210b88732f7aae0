"""DatasetHelper, connect_network_with_dataset, data_sink, the THOR converters, the checkpoint
transforms and the MindIR functions (mindspore.train and the top level), against MindSpore
2.10's recorded behaviour and messages."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import dataset as ds, nn

DATA = {"x": np.arange(6, dtype=np.float32).reshape(3, 2), "y": np.arange(3, dtype=np.int32)}


def rows():
    return ds.NumpySlicesDataset(data=DATA, shuffle=False)


def as_lists(batches):
    return [[t.asnumpy().tolist() for t in batch] for batch in batches]


class SumNet(nn.Cell):
    def construct(self, x, y):
        return x.sum() + y


def test_helper_non_sink_yields_batches_per_epoch():
    helper = ms.DatasetHelper(rows(), dataset_sink_mode=False, epoch_num=2)
    expected = [[[0.0, 1.0], 0], [[2.0, 3.0], 1], [[4.0, 5.0], 2]]     # MindSpore's
    assert as_lists(helper) == expected
    assert as_lists(helper) == expected
    with pytest.raises(RuntimeError, match="read for all of its epoch_num=2 epochs"):
        list(helper)
    with pytest.raises(RuntimeError, match="only in sink mode"):
        helper.sink_size()


def test_helper_sink_mode_feeds_the_connected_network():
    helper = ms.DatasetHelper(rows(), dataset_sink_mode=True, sink_size=2, epoch_num=2)
    assert helper.sink_size() == 2
    net = SumNet()
    connected = ms.connect_network_with_dataset(net, helper)
    assert ms.connect_network_with_dataset(net, helper) is connected
    steps = [[connected(*inputs).asnumpy().item() for inputs in helper] for _ in range(3)]
    assert steps == [[1.0, 6.0], [11.0, 1.0], [6.0, 11.0]]      # x.sum() + y, row by row
    with pytest.raises(RuntimeError, match="read for all of its epoch_num=2 epochs"):
        list(helper)
    with pytest.raises(ValueError, match="The dataset has been connected to other network"):
        ms.connect_network_with_dataset(SumNet(), helper)
    types, shapes = helper.types_shapes()
    assert [np.dtype(t) for t in types] == [np.float32, np.int32] and shapes == [[2], []]


def test_helper_sink_size_minus_one_is_the_dataset_size():
    helper = ms.DatasetHelper(rows())
    assert helper.sink_size() == 3
    assert list(helper) == [(), (), ()]


def test_helper_bad_input():
    with pytest.raises(ValueError, match="The 'sink_size' must be -1 or positive, but got "
                                         "sink_size 0."):
        ms.DatasetHelper(rows(), dataset_sink_mode=False, sink_size=0)
    with pytest.raises(TypeError, match="The type of input value must be 'int', but got "
                                        "'float'."):
        ms.DatasetHelper(rows(), dataset_sink_mode=False, sink_size=1.5)
    helper = ms.DatasetHelper(rows(), dataset_sink_mode=False)
    with pytest.raises(RuntimeError, match="The API 'connect_network_with_dataset' should be "
                                           "called in dataset sink mode."):
        ms.connect_network_with_dataset(SumNet(), helper)


def test_connected_network_without_a_step():
    helper = ms.DatasetHelper(rows())
    connected = ms.connect_network_with_dataset(SumNet(), helper)
    with pytest.raises(RuntimeError, match="no step of data pending"):
        connected()


def test_data_sink_runs_sink_size_batches_per_call():
    sink = ms.data_sink(lambda x, y: x + y, rows(), sink_size=1)
    # MindSpore's docs: each call takes the next batch
    assert [sink().asnumpy().tolist() for _ in range(4)] == [[0.0, 1.0], [3.0, 4.0],
                                                              [6.0, 7.0], [0.0, 1.0]]
    seen = []
    sink2 = ms.data_sink(lambda x, y: seen.append(int(y)) or y, rows(), sink_size=2)
    assert int(sink2()) == 1 and int(sink2()) == 0
    assert seen == [0, 1, 2, 0]
    with pytest.raises(ValueError, match="The 'sink_size' must be positive, but got sink_size 0."):
        ms.data_sink(lambda x, y: x, rows(), sink_size=0)
    with pytest.raises(TypeError, match="For 'Data sink', the type of 'sink_size' should be "
                                        "'int', but got type 'float'."):
        ms.data_sink(lambda x, y: x, rows(), sink_size=1.0)


def test_build_train_network_is_amp_s():
    assert ms.build_train_network is ms.amp.build_train_network
    assert ms.train.build_train_network is ms.amp.build_train_network


def test_thor_converters():
    net = nn.Dense(2, 1)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert ms.train.ConvertModelUtils.convert_to_thor_model(model, net) is model
    with pytest.raises(NotImplementedError, match="no THOR layers"):
        ms.ConvertNetUtils().convert_to_thor_net(net)


def test_load_segmented_checkpoints(tmp_path):
    net = nn.Dense(2, 1)
    ms.save_checkpoint([{'name': 'a', 'data': ms.Tensor(np.ones(2, np.float32))}],
                       str(tmp_path / 'rank0.ckpt'))
    ms.save_checkpoint([{'name': 'b', 'data': ms.Tensor(np.full(3, 2.0, np.float32))},
                        {'name': 'weight', 'data': ms.Tensor(np.full((1, 2), 5.0, np.float32))},
                        {'name': 'bias', 'data': ms.Tensor(np.zeros(1, np.float32))}],
                       str(tmp_path / 'rank1.ckpt'))
    params = ms.load_segmented_checkpoints(str(tmp_path))
    assert sorted(params) == ['a', 'b', 'bias', 'weight']
    assert params['b'].asnumpy().tolist() == [2.0, 2.0, 2.0]
    with pytest.warns(UserWarning, match="nothing was loaded"):    # rank0.ckpt, as MindSpore
        ms.load_segmented_checkpoints(str(tmp_path), net)
    assert net.weight.asnumpy().tolist() == [[5.0, 5.0]]
    with pytest.raises(TypeError, match="The ckpt_file_dir should be a str."):
        ms.load_segmented_checkpoints(3)
    with pytest.raises(ValueError, match="doesn't exist. Or it's not a directory"):
        ms.load_segmented_checkpoints(str(tmp_path / 'none'))


def test_get_ckpt_path_with_strategy(tmp_path, monkeypatch):
    from hookgrad.communication.management import GlobalComm
    monkeypatch.setattr(GlobalComm, 'INITED', False)     # another test may have called init()
    with pytest.raises(RuntimeError, match="Distributed Communication has not been inited"):
        ms.get_ckpt_path_with_strategy('rank_0/net.ckpt', 'strategy.ckpt')   # as MindSpore
    monkeypatch.setattr(ms.communication, 'get_rank', lambda: 0)
    path = tmp_path / 'rank_0' / 'net.ckpt'
    path.parent.mkdir()
    path.write_bytes(b'')
    assert ms.get_ckpt_path_with_strategy(str(path), 'strategy.ckpt') == str(path)
    with pytest.raises(NotImplementedError, match="strategy file 'strategy.ckpt'"):
        ms.get_ckpt_path_with_strategy(str(tmp_path / 'rank_3' / 'net.ckpt'), 'strategy.ckpt')


@pytest.mark.parametrize('call, name', [
    (lambda: ms.shard(abs, ((1,),)), 'shard'),
    (lambda: ms.Layout((2, 2), ('dp', 'mp')), 'Layout'),
    (lambda: ms.sync_pipeline_shared_parameters(None), 'sync_pipeline_shared_parameters'),
    (lambda: ms.merge_pipeline_strategys('a', 'b'), 'merge_pipeline_strategys'),
    (lambda: ms.rank_list_for_transform(0), 'rank_list_for_transform'),
    (lambda: ms.transform_checkpoint_by_rank(0, {}, 'x'), 'transform_checkpoint_by_rank'),
    (lambda: ms.transform_checkpoints('a', 'b', 'c'), 'transform_checkpoints'),
    (lambda: ms.unified_safetensors('a', 'b', 'c'), 'unified_safetensors'),
    (lambda: ms.load_distributed_checkpoint(None), 'load_distributed_checkpoint'),
    (lambda: ms.parallel.load_distributed_checkpoint(None), 'load_distributed_checkpoint'),
])
def test_strategy_functions_raise(call, name):
    with pytest.raises(NotImplementedError, match=f"^{name}: .* data-parallel only"):
        call()


@pytest.mark.parametrize('call, text', [
    (lambda: ms.load_mindir('net.mindir'), "load_mindir: reading 'net.mindir'"),
    (lambda: ms.common.save_mindir(None, 'net.mindir'), "save_mindir: writing 'net.mindir'"),
    (lambda: ms.train.export_split_mindir('net.mindir'), "export_split_mindir"),
    (lambda: ms.obfuscate_ckpt(None, []), "obfuscate_ckpt: hookgrad does not obfuscate"),
    (lambda: ms.load_obf_params_into_net(None), "load_obf_params_into_net"),
])
def test_mindir_and_obfuscation_raise(call, text):
    with pytest.raises(NotImplementedError, match=text):
        call()
