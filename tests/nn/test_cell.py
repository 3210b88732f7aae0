"""Cell: registration, naming (SPEC 3), traversal, train state, containers, repr."""
import re

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops


def P(*v, name=None, requires_grad=True):
    return ms.Parameter(ms.Tensor(np.asarray(v, np.float32)), name=name,
                        requires_grad=requires_grad)


class Leaf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = P(1.0, 2.0)
        self.bias = P(0.5, name='explicit_bias')

    def construct(self, x):
        return x * self.weight + self.bias


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = Leaf()
        self.scale = P(3.0, requires_grad=False)

    def construct(self, x):
        return self.dense(x) * self.scale


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.seq = nn.SequentialCell(Leaf(), Leaf())

    def construct(self, x):
        return self.seq(self.inner(x))


def test_top_level_names_keep_explicit_names_and_name_the_rest_by_attribute():
    leaf = Leaf()
    assert leaf.weight.name == 'weight' and leaf.bias.name == 'explicit_bias'


def test_nested_parameters_are_named_by_attribute_path_from_the_root():
    net = Outer()
    names = [name for name, _ in net.parameters_and_names()]
    assert names == ['inner.scale', 'inner.dense.weight', 'inner.dense.bias',
                     'seq.0.weight', 'seq.0.bias', 'seq.1.weight', 'seq.1.bias']
    assert [p.name for _, p in net.parameters_and_names()] == names


def test_cells_and_names_and_direct_children():
    net = Outer()
    assert [n for n, _ in net.cells_and_names()] == ['', 'inner', 'inner.dense', 'seq', 'seq.0',
                                                      'seq.1']
    assert list(net.name_cells()) == ['inner', 'seq']
    assert net.cells() == [net.inner, net.seq]


def test_parameter_views():
    net = Outer()
    gen = net.get_parameters()
    assert hasattr(gen, '__next__') and not isinstance(gen, list)
    assert len(list(net.get_parameters())) == 7
    assert [p.name for p in net.untrainable_params()] == ['inner.scale']
    assert len(net.trainable_params()) == 6


def test_shared_parameters_and_cells_are_listed_once():
    class Shared(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Leaf()
            self.b = self.a

        def construct(self, x):
            return self.b(self.a(x))

    net = Shared()
    assert len(list(net.get_parameters())) == 2
    assert [n for n, _ in net.cells_and_names()] == ['', 'a']


def test_reassigning_and_deleting_attributes_updates_registration():
    net = Inner()
    net.scale = None
    assert [n for n, _ in net.parameters_and_names()] == ['dense.weight', 'dense.bias']
    net.scale = 4.0                     # a plain attribute now
    assert net.scale == 4.0
    del net.dense
    assert net.cells() == []


def test_insert_child_and_param_to_cell():
    net = nn.Cell()
    net.insert_child_to_cell('leaf', Leaf())
    net.insert_param_to_cell('extra', P(1.0))
    assert net.leaf.weight.name == 'leaf.weight' and net.extra.name == 'extra'
    with pytest.raises(KeyError, match="must not contain '.'"):
        net.insert_param_to_cell('a.b', P(1.0))
    with pytest.raises(TypeError, match="For 'insert_child_to_cell', the argument 'child_cell' "
                                        "must be 'Cell' if not None, but got type <class 'int'>."):
        net.insert_child_to_cell('x', 3)
    with pytest.raises(TypeError, match="insert_param_to_cell: expected a Parameter for 'y', got float"):
        net.insert_param_to_cell('y', 1.0)


def test_train_state_defaults_and_propagation():
    net = Outer()
    assert net.training is False and net.phase == 'train'
    net.set_train()
    assert all(c.training and c.phase == 'train' for _, c in net.cells_and_names())
    net.set_train(False)
    assert all(not c.training and c.phase == 'predict' for _, c in net.cells_and_names())


def test_apply_visits_children_first():
    net = Outer()
    seen = []
    assert net.apply(lambda c: seen.append(type(c).__name__)) is net
    assert seen == ['Leaf', 'Inner', 'Leaf', 'Leaf', 'SequentialCell', 'Outer']


def test_forward_is_a_synonym_of_construct():
    class Torchy(nn.Cell):
        def forward(self, x):
            return x + 1

    assert Torchy()(ms.Tensor([1.0])).asnumpy().tolist() == [2.0]


def test_cell_without_construct_raises():
    with pytest.raises(TypeError, match="Cell defines no construct"):
        nn.Cell()(ms.Tensor([1.0]))


def test_training_a_cell_updates_all_its_parameters():
    net = Outer()
    x = ms.Tensor([1.0, 2.0])
    out = ops.sum(net(x))
    out.backward()
    assert all(p.grad is not None for p in net.trainable_params())
    assert net.inner.scale.grad is None


def test_repr_shows_the_tree():
    assert repr(Outer()) == ("Outer(\n  (inner): Inner(\n    (dense): Leaf()\n  )\n"
                             "  (seq): SequentialCell(\n    (0): Leaf()\n    (1): Leaf()\n  )\n)")
    assert str(Outer()) == repr(Outer())


def test_sequential_cell_list_and_dict_containers():
    seq = nn.SequentialCell([Leaf(), Leaf()])
    assert len(seq) == 2 and isinstance(seq[0], Leaf) and isinstance(seq[-1], Leaf)
    assert len(seq[0:1]) == 1
    seq.append(Leaf())
    assert [n for n, _ in seq.parameters_and_names()][-1] == '2.bias'
    out = seq(ms.Tensor([1.0, 1.0]))
    assert out.shape == (2,)
    del seq[0]
    assert [n for n, _ in seq.cells_and_names()] == ['', '0', '1']
    cl = nn.CellList([Leaf()])
    cl.insert(0, Inner())
    assert isinstance(cl[0], Inner) and len(cl) == 2
    with pytest.raises(NotImplementedError, match="CellList is a container and cannot be called"):
        cl(ms.Tensor([1.0]))
    with pytest.raises(IndexError, match=r"For 'CellList', the value of 'index' must be a number "
                                         r"in range \[-2, 2\), but got 5."):
        cl[5]
    with pytest.raises(TypeError, match="For 'SequentialCell', each cell must be subclass of "
                                        "Cell, but got int."):
        nn.SequentialCell(Leaf(), 3)
    cd = nn.CellDict({'a': Leaf()})
    cd['b'] = Leaf()
    assert cd.keys() == ['a', 'b'] and 'a' in cd and len(cd) == 2
    holder = nn.Cell()
    holder.blocks = cd
    assert [n for n, _ in holder.parameters_and_names()][:2] == ['blocks.a.weight', 'blocks.a.bias']
    cd.pop('a')
    assert cd.keys() == ['b']
    with pytest.raises(TypeError, match="For 'CellDict', the type of key should be string but "
                                        "got int."):
        cd[1] = Leaf()


def test_auto_prefix_false_on_a_parent_leaves_its_childrens_names_alone():
    class Wrapper(nn.Cell):
        def __init__(self, net):
            super().__init__(auto_prefix=False)
            self.net = net

    class Named(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([1.0]), name='custom')

    assert [n for n, _ in Wrapper(nn.Dense(2, 2)).parameters_and_names()] == \
        ['net.weight', 'net.bias']      # paths are paths; the parameters' own names:
    assert [p.name for p in Wrapper(nn.Dense(2, 2)).get_parameters()] == ['weight', 'bias']
    assert [p.name for p in Wrapper(Named()).get_parameters()] == ['custom']

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.step = Wrapper(nn.Dense(2, 2))
            self.n = Named()

    # a rename from further up spells the whole attribute path (MindSpore 2.10)
    assert [p.name for p in Outer().get_parameters()] == ['step.net.weight', 'step.net.bias',
                                                          'n.w']


def test_cells_without_auto_prefix_appended_to_a_cell_list_get_full_paths():
    class Twin(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.linear1 = nn.Dense(4, 3)
            self.linear2 = nn.Dense(3, 2)

    cells = nn.CellList()
    cells.append(Twin())
    cells.append(Twin())
    assert [p.name for p in Twin().get_parameters()] == ['weight', 'bias', 'weight', 'bias']
    assert [p.name for p in cells[1].get_parameters()] == [      # MindSpore 2.10
        '1.linear1.weight', '1.linear1.bias', '1.linear2.weight', '1.linear2.bias']
    assert len(ms.ParameterTuple(cells[0].get_parameters())) == 4


def test_insert_child_to_cell_checks_names_and_takes_none_as_mindspore_does():
    net = nn.Cell()
    net.insert_child_to_cell('slot', None)              # MindSpore 2.10: an empty slot
    assert net.slot is None and net._cells == {'slot': None}
    assert [n for n, _ in net.cells_and_names()] == ['']
    for name, exc, match in [
            (1, TypeError, "the type of parameter 'child_name' must be str, but got <class 'int'>"),
            ('', KeyError, "'child_name' can not be None and can not contain '.'"),
            ('a.b', KeyError, "'child_name' can not be None and can not contain '.'"),
            ('training', KeyError, "the training child cell already exists in the network")]:
        with pytest.raises(exc, match=match):
            net.insert_child_to_cell(name, nn.ReLU())


@pytest.mark.parametrize('key, value, exc, match', [
    ('a.b', nn.ReLU(), KeyError, 'key can not contain ".", but got key a.b'),
    ('', nn.ReLU(), KeyError, 'key can not be empty string "", but got key '),
    ('training', nn.ReLU(), KeyError, "the key can not be same with the attributes of Cell, "
                                       "but got key training."),
    ('x', 3, TypeError, "For 'CellDict', the type of cell should be Cell, but got int."),
    ('x', None, TypeError, "For 'CellDict', cell can not be None."),
    ('x', nn.CellList(), TypeError, "the type of cell can not be CellDict, CellList or "
                                    "SequentialCell, but got CellList."),
])
def test_cell_dict_refuses_what_mindspore_refuses(key, value, exc, match):
    # messages of MindSpore 2.10's CellDict
    with pytest.raises(exc, match=re.escape(match)):
        nn.CellDict()[key] = value
