"""Cell and Parameter behaviour checked against MindSpore 2.10: generated names, containers'
parameter names, set_grad, parameters_dict, init_parameters_data, Parameter's parallel flags,
and the printed form of networks. Expected values are what MindSpore 2.10 prints."""
import pickle
from collections import OrderedDict

import pytest

import hookgrad as ms
from hookgrad import nn


def P(value=1.0, name=None):
    return ms.Parameter(ms.Tensor([value]), name=name)


def names(cell):
    return [(path, p.name) for path, p in cell.parameters_and_names()]


# ----------------------------------------------------------------- generated names
def test_parameter_tuples_held_by_a_cell_are_registered_with_generated_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.ParameterTuple([P(), P()])
            self.b = ms.ParameterTuple([P(), P(2.0, 'w')])
            self.w2 = P(3.0)

    net = Net()
    assert names(net) == [('Parameter$1', 'Parameter$1'), ('Parameter$2', 'Parameter$2'),
                          ('Parameter$3', 'Parameter$3'), ('w', 'w'), ('w2', 'w2')]

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Net()

    assert names(Outer())[0] == ('inner.Parameter$1', 'inner.Parameter$1')


def test_reassigning_a_parameter_tuple_drops_its_old_parameters():
    net = nn.Cell()
    net.t = ms.ParameterTuple([P(1.0, 'a'), P(2.0, 'b')])
    net.t = ms.ParameterTuple([P(3.0, 'c')])
    assert [n for n, _ in names(net)] == ['c']
    del net.t
    assert names(net) == []


def test_parameters_in_lists_and_tuples_get_unique_generated_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.plist = [P(), P()]
            self.ptup = (P(), P(name='named'))

    net = Net()
    listed = [p.name for p in net.plist] + [p.name for p in net.ptup]
    assert all(n.startswith('Parameter#') for n in listed[:3]) and listed[3] == 'named'
    assert len(set(listed)) == 4
    assert names(net) == []             # as MindSpore: lists are not registered


def test_parameters_in_lists_must_have_distinct_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = [P(name='x')]
            self.b = [P(name='x')]

    with pytest.raises(ValueError, match="Cell 'Net': the parameter in 'b': its name 'x' "
                                         "already exists in this cell"):
        Net()
    with pytest.raises(ValueError, match="Cell 'Cell': two parameters of 't' are named 'x'"):
        nn.Cell().t = tuple.__new__(ms.ParameterTuple, [P(name='x'), P(name='x')])


def test_a_generated_name_gives_way_to_the_attribute_name():
    net = nn.Cell()
    net.keep = [P()]
    net.w = net.keep[0]
    assert net.w.name == 'w'


# ----------------------------------------------------------------- containers
def test_cells_appended_to_an_empty_container_are_named_by_position_only():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList()
            for _ in range(3):
                self.layers.append(nn.Dense(2, 2))
            self.seq = nn.SequentialCell()
            self.seq.append(nn.ReLU())
            self.seq.append(nn.Dense(2, 2))

    net = Net()
    assert names(net) == [
        ('layers.0.weight', '0.weight'), ('layers.0.bias', '0.bias'),
        ('layers.1.weight', '1.weight'), ('layers.1.bias', '1.bias'),
        ('layers.2.weight', '2.weight'), ('layers.2.bias', '2.bias'),
        ('seq.1.weight', '1.weight'), ('seq.1.bias', '1.bias')]

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = Net()

    assert [n for _, n in names(Outer())] == [
        'net.layers.0.weight', 'net.layers.0.bias', 'net.layers.1.weight', 'net.layers.1.bias',
        'net.layers.2.weight', 'net.layers.2.bias', 'net.seq.1.weight', 'net.seq.1.bias']


def test_cells_appended_after_named_ones_follow_their_prefix():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.seq = nn.SequentialCell(nn.Dense(2, 2))
            self.seq.append(nn.Dense(2, 2))

    assert [n for _, n in names(Net())] == ['seq.0.weight', 'seq.0.bias', 'seq.1.weight',
                                            'seq.1.bias']


def test_sequential_cell_setitem_delitem_and_slices_name_as_mindspore():
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    seq.append(nn.Dense(2, 3))
    assert [n for _, n in names(seq)] == ['0.weight', '0.bias', '2.weight', '2.bias']
    seq[1] = nn.Dense(2, 2)
    assert [n for _, n in names(seq)] == ['0.weight', '0.bias', '1.weight', '1.bias',
                                          '2.weight', '2.bias']
    assert repr(seq) == ("SequentialCell(\n"
                         "  (0): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
                         "  (1): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
                         "  (2): Dense(input_channels=2, output_channels=3, has_bias=True)\n)")
    del seq[0]
    assert [n for _, n in names(seq)] == ['0.weight', '0.bias', '1.weight', '1.bias']
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 2)])
    del seq[0]
    assert [n for _, n in names(seq)] == ['1.weight', '1.bias'] and len(seq) == 2
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 2)])
    part = seq[1:]
    assert [n for _, n in names(part)] == ['2.weight', '2.bias']
    assert list(part.name_cells()) == ['1', '2']


def test_sequential_cell_with_keys_keeps_them():
    seq = nn.SequentialCell(OrderedDict([('a', nn.Dense(2, 2)), ('b', nn.ReLU()),
                                         ('c', nn.Dense(2, 2))]))
    del seq[1]
    assert [n for _, n in names(seq)] == ['a.weight', 'a.bias', 'c.weight', 'c.bias']
    seq.append(nn.Dense(2, 2))
    assert list(seq.name_cells()) == ['a', 'c', '2']
    assert [n for _, n in names(seq)][-2:] == ['2.weight', '2.bias']
    seq[0] = nn.Dense(2, 2, has_bias=False)
    assert list(seq.name_cells()) == ['a', 'c', '2'] and not seq[0].has_bias
    assert seq[0].weight.name == 'a.weight'
    x = ms.ops.ones((1, 2))
    assert seq(x).shape == (1, 2)


def test_cell_list_iadd_extend_and_insert():
    cl = nn.CellList([nn.Dense(2, 2)])
    cl += [nn.Dense(2, 3)]
    assert type(cl) is nn.CellList and len(cl) == 2
    assert [n for _, n in names(cl)] == ['0.weight', '0.bias', '1.weight', '1.bias']
    cl.insert(0, nn.Dense(2, 4))
    assert [c.out_channels for c in cl] == [4, 2, 3]
    assert [n for _, n in names(cl)][::2] == ['0.weight', '1.weight', '2.weight']
    cl[1] = nn.Dense(2, 5)
    assert cl[1].out_channels == 5 and cl[1].weight.name == '1.weight'
    assert not nn.CellList() and bool(cl)


def test_set_grad_propagates_through_containers():
    seq = nn.SequentialCell(nn.Dense(2, 2), nn.CellList([nn.ReLU()]))
    assert seq.requires_grad is False
    assert seq.set_grad() is seq
    assert seq.requires_grad and seq[0].requires_grad and seq[1][0].requires_grad
    plain = nn.Cell()
    plain.d = nn.Dense(2, 2)
    plain.set_grad(True)
    assert plain.requires_grad and not plain.d.requires_grad      # a plain Cell: itself only
    with pytest.raises(TypeError, match="Cell 'Cell'.set_grad: requires_grad must be a bool"):
        plain.set_grad(1)


@pytest.mark.parametrize('call, error, message', [
    (lambda s: s.__setitem__(5, nn.ReLU()), IndexError,
     r"For 'SequentialCell', the value of 'index' must be a number in range \[-3, 3\), but got 5"),
    (lambda s: s.__setitem__('a', nn.ReLU()), TypeError,
     "For 'SequentialCell', the type of 'index' must be int, but got str"),
    (lambda s: s.__setitem__(0, 3), TypeError,
     "For 'SequentialCell', each cell must be subclass of Cell, but got int"),
    (lambda s: s['x'], TypeError, "For 'SequentialCell', the type of 'index' must be int"),
    (lambda s: s.__delitem__('x'), TypeError,
     "For 'SequentialCell', the type of 'index' must be int or slice, but got str"),
    (lambda s: nn.CellList([nn.ReLU()])['x'], TypeError,
     "For 'CellList', the type of 'index' must be int or slice, but got str"),
    (lambda s: nn.CellList([nn.ReLU()]).append(3), TypeError,
     "For 'CellList', each cell must be subclass of Cell, but got int"),
    (lambda s: nn.CellList((nn.ReLU(),)), TypeError,
     "For 'CellList', the new cells wanted to append should be instance of list, but got tuple"),
    (lambda s: nn.CellList([nn.CellDict()]), TypeError,
     "For 'CellList', the type of cell can not be CellDict"),
    (lambda s: nn.CellList([nn.ReLU()]).insert(3, nn.ReLU()), IndexError,
     r"For 'CellList', the value of 'index' must be a number in range \[-1, 1\], but got 3"),
])
def test_container_errors_are_mindspores(call, error, message):
    seq = nn.SequentialCell(nn.ReLU(), nn.ReLU(), nn.ReLU())
    with pytest.raises(error, match=message):
        call(seq)


# ----------------------------------------------------------------- parameters_dict & co
def test_parameters_dict_is_keyed_by_name():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2)
            self.scale = P(2.0)

    net = Net()
    d = net.parameters_dict()
    assert list(d) == ['scale', 'dense.weight', 'dense.bias'] and d['scale'] is net.scale
    assert list(net.parameters_dict(recurse=False)) == ['scale']


def test_init_parameters_data_maps_each_parameter_to_itself():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.BatchNorm1d(2))
    done = net.init_parameters_data()
    assert list(done) == list(net.get_parameters()) and all(k is v for k, v in done.items())
    with pytest.raises(ValueError, match="auto_parallel_mode=True cannot be honoured: hookgrad "
                                         "has no auto-parallel mode"):
        net.init_parameters_data(auto_parallel_mode=True)


def test_parameter_parallel_flags():
    p = ms.Parameter(ms.Tensor([1.0]), name='p', layerwise_parallel=True,
                     parallel_optimizer=False)
    assert (p.layerwise_parallel, p.parallel_optimizer) == (True, False)
    assert (p.clone().layerwise_parallel, p.clone().parallel_optimizer) == (True, False)
    back = pickle.loads(pickle.dumps(p))
    assert (back.layerwise_parallel, back.parallel_optimizer) == (True, False)
    q = ms.Parameter(ms.Tensor([1.0]), device='CPU')
    assert (q.layerwise_parallel, q.parallel_optimizer) == (False, True)
    q.parallel_optimizer = False
    assert q.parallel_optimizer is False and q.init_data() is q


@pytest.mark.parametrize('kwargs, error, message', [
    (dict(layerwise_parallel=1), TypeError, "Parameter: layerwise_parallel must be a bool, got 1"),
    (dict(parallel_optimizer='a'), TypeError,
     "Parameter: parallel_optimizer must be a bool, got 'a'"),
    (dict(storage_format='FRACTAL_NZ'), ValueError,
     "storage_format 'FRACTAL_NZ' selects an Ascend weight layout, which hookgrad cannot "
     "honour"),
    (dict(device='Remote'), ValueError, "Parameter: device must be None or 'CPU'"),
    (dict(name='n' * 1025), ValueError, "more than 1024"),
])
def test_parameter_argument_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        ms.Parameter(ms.Tensor([1.0]), **kwargs)


def test_init_data_rejects_a_layout():
    with pytest.raises(ValueError, match="a parallel layout cannot be honoured"):
        P(name='p').init_data(layout=[1, 2])


def test_a_deep_copy_names_its_sub_cells_by_the_copy():
    import copy
    net = nn.SequentialCell(nn.Dense(2, 3), nn.SequentialCell(nn.ReLU(), nn.Dense(3, 1)))
    clone = copy.deepcopy(net)
    inner = clone[1][1]
    assert inner.path() == 'SequentialCell.1.1'
    assert inner._parent[0]() is clone[1] and clone[1]._parent[0]() is clone
    del net
    assert inner.path() == 'SequentialCell.1.1'            # not cut short by the original's end
    alone = copy.deepcopy(clone[1])
    assert alone._parent is None and alone[1].path() == 'SequentialCell.1'
    assert [n for n, _ in clone.parameters_and_names()] == ['0.weight', '0.bias', '1.1.weight',
                                                           '1.1.bias']
