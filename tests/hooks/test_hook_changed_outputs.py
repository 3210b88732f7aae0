"""A forward hook (or pre-hook) whose changed value breaks the code consuming it is named in the
error that code raises: the hook, where it is defined, its cell and what it returned."""
import functools
import gc
import inspect
import re
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops
from hookgrad._frames import add_note, note_in_message
from hookgrad.hooks.handle import hook_site


def x0():
    return ms.Tensor(np.ones((2, 4), np.float32))


def full_text(error):
    """The message and the notes, as a traceback shows them."""
    return '\n'.join([str(error)] + list(getattr(error, '__notes__', ())))


def where(fn):
    return f"{inspect.getsourcefile(fn)}:{inspect.getsourcelines(fn)[1]}"


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3)
        self.fc2 = nn.Dense(3, 2)
        self.other = nn.Dense(5, 2)
        self.w = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)))

    def construct(self, x, then='fc2'):
        h = self.fc1(x)
        if then == 'fc2':
            return self.fc2(h)
        if then == 'matmul':
            return ops.matmul(h, self.w)
        if then == 'check':
            if h.shape[1] != 3:
                raise ValueError('fc1 must give 3 features')
            return h
        if then == 'other':
            return self.other(x)    # fails on its own: x has 4 features, not 5
        if then == 'square':
            return ops.matmul(h, h)
        return h


def narrow(cell, inputs, output):
    return output[:, :2]


def test_a_hook_that_changes_a_shape_is_named_in_the_next_layers_error():
    net = Net()
    net.fc1.register_forward_hook(narrow)
    with pytest.raises(ValueError, match=r"nn.Dense 'Net.fc2': input of shape \(2, 2\)") as info:
        net(x0())
    notes = [n for n in info.value.__notes__ if 'forward hook' in n]
    assert notes == [f"(a value used here was returned by Cell 'Net.fc1' forward hook 'narrow' "
                     f"(defined at {where(narrow)}) in place of the cell's output: a Tensor of "
                     f"shape (2, 2) and dtype Float32, where construct returned shape (2, 3) and "
                     f"dtype Float32)"]


@pytest.mark.parametrize('then, error', [('matmul', r"ops.matmul: shapes \(2, 2\) and \(3, 2\)"),
                                         ('check', 'fc1 must give 3 features')])
def test_an_op_or_the_users_own_check_consuming_the_value_names_the_hook(then, error):
    net = Net()
    net.fc1.register_forward_hook(narrow)
    with pytest.raises(ValueError, match=error) as info:
        net(x0(), then)
    text = full_text(info.value)
    assert "Cell 'Net.fc1' forward hook 'narrow'" in text and 'shape (2, 2)' in text


def test_a_hook_keeping_shapes_and_dtypes_adds_nothing():
    net = Net()
    net.fc1.register_forward_hook(lambda cell, inputs, output: output * 2.0)
    assert net(x0()).shape == (2, 2)
    with pytest.raises(ValueError, match=r"ops.matmul: shapes \(2, 3\) and \(2, 3\)") as info:
        net(x0(), 'square')         # fails on the hook's value, but not for its shape or dtype
    assert 'forward hook' not in full_text(info.value)


def test_an_error_the_changed_value_plays_no_part_in_adds_nothing():
    net = Net()
    net.fc1.register_forward_hook(narrow)
    with pytest.raises(ValueError, match=r"nn.Dense 'Net.other'") as info:
        net(x0(), 'other')          # the user's construct holds the value; 'other' never gets it
    assert 'forward hook' not in full_text(info.value)


def test_a_changed_output_of_a_tuple_and_a_hook_in_a_sequential_cell():
    class Two(nn.Cell):
        def construct(self, x):
            return x, x * 2.0

    class UseTwo(nn.Cell):
        def __init__(self):
            super().__init__()
            self.two = Two()
            self.fc = nn.Dense(4, 2)

        def construct(self, x):
            a, b = self.two(x)
            return self.fc(a) + self.fc(b)

    def cut(n, cell, inputs, outputs):
        return outputs[0], outputs[1][:, :n]

    net = UseTwo()
    net.two.register_forward_hook(functools.partial(cut, 3))
    with pytest.raises(ValueError) as info:
        net(x0())
    assert re.search(r"Cell 'UseTwo.two' forward hook 'partial\(.*cut\)' \(defined at .*:\d+\) in "
                     r"place of the cell's output 1: a Tensor of shape \(2, 3\)",
                     full_text(info.value)), full_text(info.value)
    seq = nn.SequentialCell([nn.Dense(4, 3), nn.BatchNorm1d(3)])
    seq[0].register_forward_hook(lambda cell, inputs, output: output.astype(ms.int32))
    with pytest.raises(TypeError, match='must be a floating tensor') as info:
        seq(x0())
    assert re.search(r"Cell 'SequentialCell.0' forward hook '.*<lambda>' .* a Tensor of shape "
                     r"\(2, 3\) and dtype Int32, where construct returned shape \(2, 3\) and dtype "
                     r"Float32", full_text(info.value)), full_text(info.value)


def test_a_pre_hook_that_changes_an_input_is_named_in_the_cells_error():
    net = Net()
    net.fc2.register_forward_pre_hook(lambda cell, inputs: inputs[0][:, :1])
    with pytest.raises(ValueError, match=r"nn.Dense 'Net.fc2'") as info:
        net(x0())
    assert re.search(r"Cell 'Net.fc2' forward pre hook '.*<lambda>' .* in place of the cell's "
                     r"input 0: a Tensor of shape \(2, 1\) and dtype Float32, where the cell was "
                     r"given shape \(2, 3\)", full_text(info.value)), full_text(info.value)


def test_the_record_holds_no_tensor():
    net = Net()
    kept = []
    net.fc1.register_forward_hook(lambda cell, inputs, output: kept.append(output[:, :2]) or
                                  kept[-1])
    out = net(x0(), 'fc1 only')
    assert out.shape == (2, 2)
    ref = weakref.ref(kept.pop())
    del out
    gc.collect()
    assert ref() is None


# --------------------------------------------------------------------------- helpers
def test_notes_are_added_once_and_shown_in_the_message_without_native_notes():
    e = ValueError('bad shape', 3)
    add_note(e, 'first')
    add_note(e, 'first')
    assert e.__notes__ == ['first']
    old = KeyError('k')
    note_in_message(old, '(raised in a hook)')          # what Python 3.10 gets
    assert old.args == ("k\n(raised in a hook)",) and old.__notes__ == ['(raised in a hook)']
    no_text = RuntimeError(5)
    note_in_message(no_text, 'n')
    assert no_text.args == (5,) and no_text.__notes__ == ['n']


def test_hook_site_for_each_kind_of_callable():
    class Scale:
        def __call__(self, cell, inputs, output):
            return output

        def method(self, cell, inputs, output):
            return output

    s = Scale()
    assert hook_site(narrow) == where(narrow)
    assert hook_site(functools.partial(functools.partial(narrow), None)) == where(narrow)
    assert hook_site(s) == where(Scale.__call__)
    assert hook_site(s.method) == where(Scale.method)
    assert hook_site(print) is None


def test_a_change_that_reaches_the_failing_layer_through_a_relu_is_named_as_earlier():
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2))
    net[0].register_forward_hook(narrow)
    with pytest.raises(ValueError, match=r"nn.Dense 'SequentialCell.2': input of shape \(2, 2\)") \
            as info:
        net(x0())
    notes = [n for n in info.value.__notes__ if 'forward hook' in n]
    assert notes == [f"(earlier in this network, Cell 'SequentialCell.0' forward hook 'narrow' "
                     f"(defined at {where(narrow)}) replaced the cell's output with a Tensor of "
                     f"shape (2, 2) and dtype Float32, where construct returned shape (2, 8) and "
                     f"dtype Float32: a layer after it may not expect that)"]


def test_a_change_on_another_network_or_not_shown_in_the_error_adds_nothing():
    hooked = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU())
    hooked[0].register_forward_hook(narrow)
    hooked(x0())                                       # recorded: a change to (2, 2)
    other = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(4, 1))
    with pytest.raises(ValueError, match=r"input of shape \(2, 2\)") as info:
        other(ms.Tensor(np.ones((2, 2), np.float32)))   # the hook's shape, in another network
    assert 'forward hook' not in full_text(info.value)
    with pytest.raises(ValueError, match=r"input of shape \(2, 3\)") as info:
        nn.SequentialCell(hooked, nn.Dense(2, 3), nn.Dense(4, 1))(x0())
    assert 'forward hook' not in full_text(info.value)     # the error does not show (2, 2)
    hooked.append(nn.Dense(5, 1))                      # fails on (2, 2), which the hook made
    with pytest.raises(ValueError) as info:
        hooked(x0())
    assert full_text(info.value).count('forward hook') == 1
