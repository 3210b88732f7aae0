"""Hooks on cells: the call sequence of SPEC section 5, recorded as events and compared whole."""
import functools
import gc
import weakref

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn


def T(*v):
    return ms.Tensor(np.asarray(v, np.float32))


class Scale(nn.Cell):
    """y = x * k with a parameter k (so outputs are on the tape)."""

    def __init__(self, k=2.0):
        super().__init__()
        self.k = ms.Parameter(T(k), name='k')

    def construct(self, x):
        return x * self.k


class Pair(nn.Cell):
    """Two tensor inputs, a tuple of two outputs, and non-tensor inputs passed through."""

    def construct(self, a, b, scale=1.0, tag=None):
        return a * b * scale, a + b


class Parent(nn.Cell):
    def __init__(self):
        super().__init__()
        self.first = Scale(2.0)
        self.second = Scale(3.0)

    def construct(self, x):
        return self.second(self.first(x))


def record_all(cell, events, name):
    cell.register_forward_pre_hook(lambda c, inp: events.append((name, 'pre', _vals(inp))))
    cell.register_forward_hook(lambda c, inp, out: events.append((name, 'fwd', _vals(out))))
    cell.register_backward_pre_hook(lambda c, go: events.append((name, 'bpre', _vals(go))))
    cell.register_backward_hook(lambda c, gi, go: events.append((name, 'bwd', _vals(gi), _vals(go))))


def _vals(items):
    if isinstance(items, ms.Tensor):
        items = (items,)
    return tuple(None if t is None else (t.asnumpy().tolist() if isinstance(t, ms.Tensor) else t)
                 for t in items)


EXPECTED_PARENT_EVENTS = [
    ('parent', 'pre', ([1.0],)),
    ('first', 'pre', ([1.0],)),
    ('first', 'fwd', ([2.0],)),
    ('second', 'pre', ([2.0],)),
    ('second', 'fwd', ([6.0],)),
    ('parent', 'fwd', ([6.0],)),
    ('parent', 'bpre', ([1.0],)),
    ('second', 'bpre', ([1.0],)),
    ('second', 'bwd', ([3.0],), ([1.0],)),
    ('first', 'bpre', ([3.0],)),
    ('first', 'bwd', ([6.0],), ([3.0],)),
    ('parent', 'bwd', ([6.0],), ([1.0],)),
]


def hooked_parent():
    net = Parent()
    events = []
    record_all(net, events, 'parent')
    record_all(net.first, events, 'first')
    record_all(net.second, events, 'second')
    return net, events


def test_order_across_parent_and_children_with_backward():
    net, events = hooked_parent()
    x = T(1.0)
    x.requires_grad_()
    net(x).backward()
    assert events == EXPECTED_PARENT_EVENTS
    assert x.grad.asnumpy().tolist() == [6.0]


def test_order_is_the_same_through_grad_and_value_and_grad():
    net, events = hooked_parent()
    g = ms.grad(net)(T(1.0))
    assert events == EXPECTED_PARENT_EVENTS and g.asnumpy().tolist() == [6.0]
    events.clear()
    value, g = ms.value_and_grad(net)(T(1.0))
    assert events == EXPECTED_PARENT_EVENTS and value.asnumpy().tolist() == [6.0]


def test_order_does_not_depend_on_requires_grad_of_inputs():
    net, events = hooked_parent()
    net(T(1.0)).backward()      # the input does not require grad; k does
    assert events == EXPECTED_PARENT_EVENTS
    assert net.first.k.grad.asnumpy().tolist() == [3.0]


def test_forward_pre_hook_replacement_is_seen_by_the_next_hook_and_construct():
    cell = Scale(2.0)
    seen = []
    cell.register_forward_pre_hook(lambda c, inp: inp[0] * 10)          # non-tuple return
    cell.register_forward_pre_hook(lambda c, inp: seen.append(_vals(inp)))
    out = cell(T(1.0))
    assert seen == [([10.0],)] and out.asnumpy().tolist() == [20.0]


def test_backward_hooks_see_construct_only_not_forward_hook_ops():
    cell = Scale(2.0)
    events = []
    cell.register_forward_pre_hook(lambda c, inp: (inp[0] * 5,))
    cell.register_forward_hook(lambda c, inp, out: out * 7)
    cell.register_backward_pre_hook(lambda c, go: events.append(('bpre', _vals(go))))
    cell.register_backward_hook(lambda c, gi, go: events.append(('bwd', _vals(gi), _vals(go))))
    g = ms.grad(cell)(T(1.0))
    assert events == [('bpre', ([7.0],)), ('bwd', ([14.0],), ([7.0],))]
    assert g.asnumpy().tolist() == [70.0]


def test_brand_new_tensor_from_forward_pre_hook_cuts_the_gradient():
    cell = Scale(2.0)
    cell.register_forward_pre_hook(lambda c, inp: T(1.0))
    g = ms.grad(cell)(T(3.0))
    assert g.asnumpy().tolist() == [0.0]


def test_brand_new_tensor_from_forward_hook_cuts_the_gradient():
    cell = Scale(2.0)
    cell.register_forward_hook(lambda c, inp, out: T(4.0))
    g = ms.grad(cell)(T(3.0))
    assert g.asnumpy().tolist() == [0.0]


def test_several_inputs_and_outputs_and_non_tensor_inputs():
    cell = Pair()
    events = []
    cell.register_forward_pre_hook(lambda c, inp: events.append(('pre', len(inp), inp[2:])))
    cell.register_backward_pre_hook(lambda c, go: events.append(('bpre', _vals(go))))
    cell.register_backward_hook(lambda c, gi, go: events.append(('bwd', _vals(gi))))

    def f(a, b):
        p, s = cell(a, b, 2.0, 'tag')
        return p * 10 + s

    ga, gb = ms.grad(f, grad_position=(0, 1))(T(3.0), T(4.0))
    assert events == [('pre', 4, (2.0, 'tag')),
                      ('bpre', ([10.0], [1.0])),
                      ('bwd', ([81.0], [61.0], None, None))]
    assert ga.asnumpy().tolist() == [81.0] and gb.asnumpy().tolist() == [61.0]


def test_list_outputs_keep_their_type_and_unused_outputs_get_zeros():
    class ListOut(nn.Cell):
        def construct(self, a):
            return [a * 2, a * 3]

    cell = ListOut()
    seen = []
    cell.register_backward_pre_hook(lambda c, go: seen.append(_vals(go)))
    out = cell(T(1.0))
    assert isinstance(out, list)
    g = ms.grad(lambda a: cell(a)[0])(T(1.0))
    assert seen == [([1.0], [0.0])] and g.asnumpy().tolist() == [2.0]


def test_cell_called_twice_fires_each_call_with_its_own_values():
    cell = Scale(2.0)
    events = []
    cell.register_forward_hook(lambda c, inp, out: events.append(('fwd', _vals(out))))
    cell.register_backward_hook(lambda c, gi, go: events.append(('bwd', _vals(gi), _vals(go))))
    g = ms.grad(lambda x: cell(cell(x) + 1))(T(1.0))
    assert events == [('fwd', ([2.0],)), ('fwd', ([6.0],)),
                      ('bwd', ([2.0],), ([1.0],)), ('bwd', ([4.0],), ([2.0],))]
    assert g.asnumpy().tolist() == [4.0]


def test_backward_hooks_may_replace_gradients():
    cell = Scale(2.0)
    cell.register_backward_pre_hook(lambda c, go: (go[0] * 100,))
    cell.register_backward_hook(lambda c, gi, go: (gi[0] + 1,))
    g = ms.grad(cell)(T(1.0))
    assert g.asnumpy().tolist() == [201.0]


def test_bad_backward_hook_returns_name_cell_hook_and_expectation():
    net = Parent()

    def scale_grad(c, gi, go):
        return (gi[0], gi[0])

    net.second.register_backward_hook(scale_grad)
    with pytest.raises(TypeError, match=r"Cell 'Parent.second' backward hook '.*scale_grad' "
                                         r"returned 2 gradients, expected 1 \(grad_input\)"):
        ms.grad(net)(T(1.0))
    net.remove_hooks()

    def wrong_shape(c, go):
        return (T(1.0, 2.0),)

    net.first.register_backward_pre_hook(wrong_shape)
    with pytest.raises(ValueError, match=r"Cell 'Parent.first' backward pre hook '.*wrong_shape' "
                                         r"returned grad_output\[0\] of shape \(2,\), expected shape \(1,\)"):
        ms.grad(net)(T(1.0))
    net.remove_hooks()
    net.first.register_backward_pre_hook(lambda c, go: 3)
    with pytest.raises(TypeError, match="must return None or a tuple of 1 gradient, got int"):
        ms.grad(net)(T(1.0))


def test_exception_in_a_hook_names_hook_kind_and_cell_path():
    net = Parent()

    def broken(c, inp):
        raise RuntimeError("bad input")

    net.second.register_forward_pre_hook(broken)
    with pytest.raises(RuntimeError, match="bad input") as info:
        net(T(1.0))
    assert any("forward pre hook" in n and "broken" in n and "Parent.second" in n
               for n in info.value.__notes__)


def test_a_hook_that_cannot_take_its_arguments_fails_when_it_fires():
    # MindSpore 2.10 registers any callable and fails when the hook is called
    cell = Scale()

    def two(a, b):
        pass
    handle = cell.register_forward_hook(two)
    with pytest.raises(TypeError, match=r"Cell 'Scale' forward hook '.*two\(a, b\)' cannot be "
                                        r"called with 3 positional arguments"):
        cell(T(1.0))
    handle.remove()
    cell.register_forward_pre_hook(lambda c, i: None, with_kwargs=True).remove()
    with pytest.raises(TypeError, match="Expected a callable hook function, got str"):
        cell.register_backward_hook("not a function")
    cell.register_forward_hook(lambda *args: None)              # varargs fit anything
    cell.register_backward_hook(functools.partial(lambda tag, c, gi, go: None, 'tag'))
    cell(T(1.0))


def test_removed_hook_no_longer_fires_and_remove_is_idempotent():
    cell = Scale()
    calls = []
    h = cell.register_forward_hook(lambda c, i, o: calls.append(1))
    cell(T(1.0))
    h.remove()
    h.remove()
    cell(T(1.0))
    assert calls == [1]


def test_hook_removing_itself_during_the_call():
    cell = Scale()
    calls = []
    handles = {}

    def once(c, i, o):
        calls.append('once')
        handles['once'].remove()

    handles['once'] = cell.register_forward_hook(once)
    cell.register_forward_hook(lambda c, i, o: calls.append('always'))
    cell(T(1.0))
    cell(T(1.0))
    assert calls == ['once', 'always', 'always']


def test_handles_do_not_keep_the_cell_alive():
    cell = Scale()
    handle = cell.register_forward_hook(lambda c, i, o: None)
    ref = weakref.ref(cell)
    del cell
    gc.collect()
    assert ref() is None
    handle.remove()


def test_prepend_runs_first():
    cell = Scale()
    order = []
    cell.register_forward_pre_hook(lambda c, i: order.append('a'))
    cell.register_forward_pre_hook(lambda c, i: order.append('b'), prepend=True)
    cell(T(1.0))
    assert order == ['b', 'a']


def test_with_kwargs_hooks_see_and_replace_keyword_arguments():
    cell = Pair()
    seen = []

    def pre(c, args, kwargs):
        seen.append(dict(kwargs))
        return args, {**kwargs, 'scale': 10.0}

    cell.register_forward_pre_hook(pre, with_kwargs=True)
    cell.register_forward_hook(lambda c, args, kwargs, out: seen.append(kwargs['scale']),
                               with_kwargs=True)
    p, s = cell(T(1.0), T(2.0), scale=3.0)
    assert seen == [{'scale': 3.0}, 10.0] and p.asnumpy().tolist() == [20.0]


def test_keyword_arguments_reach_construct_untouched_without_with_kwargs():
    cell = Pair()
    seen = []
    cell.register_forward_pre_hook(lambda c, inputs: seen.append(len(inputs)))
    p, _ = cell(T(1.0), T(2.0), scale=5.0)
    assert seen == [2] and p.asnumpy().tolist() == [10.0]


def test_always_call_forward_hook_runs_when_construct_raises():
    class Failing(nn.Cell):
        def construct(self, x):
            raise ValueError("construct failed")

    cell = Failing()
    calls = []
    cell.register_forward_hook(lambda c, i, o: calls.append(('always', o)), always_call=True)
    cell.register_forward_hook(lambda c, i, o: calls.append('normal'))
    with pytest.raises(ValueError, match="construct failed"):
        cell(T(1.0))
    assert calls == [('always', None)]


def test_hooks_lists_every_hook_in_the_tree_and_remove_hooks_clears_them():
    net = Parent()

    def watch(c, i, o):
        pass

    net.register_forward_hook(watch)
    net.second.register_backward_pre_hook(lambda c, go: None)
    listed = [(h.kind, h.cell_path, h.name) for h in net.hooks()]
    assert listed == [('forward', 'Parent', watch.__qualname__),
                      ('backward_pre', 'Parent.second',
                       'test_hooks_lists_every_hook_in_the_tree_and_remove_hooks_clears_them.<locals>.<lambda>')]
    net.second.remove_hooks()
    assert [h.cell_path for h in net.hooks()] == ['Parent']
    net.remove_hooks(recurse=True)
    assert net.hooks() == []


def test_aliases_are_the_same_registration():
    cell = Scale()
    assert nn.Cell.register_forward_post_hook is nn.Cell.register_forward_hook
    assert nn.Cell.register_full_backward_hook is nn.Cell.register_backward_hook
    assert nn.Cell.register_full_backward_pre_hook is nn.Cell.register_backward_pre_hook
    calls = []
    cell.register_forward_post_hook(lambda c, i, o: calls.append(1))
    cell(T(1.0))
    assert calls == [1]


def test_registering_inside_construct_adds_a_hook_per_call():
    class SelfHooking(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Scale()
            self.calls = []

        def construct(self, x):
            self.inner.register_forward_hook(lambda c, i, o: self.calls.append(1))
            return self.inner(x)

    net = SelfHooking()
    net(T(1.0))
    net(T(1.0))
    assert len(net.calls) == 1 + 2


def test_cells_without_hooks_add_nothing_to_the_call():
    cell = Scale()
    out = cell(T(1.0))
    assert cell.__dict__['_hooks'] is None
    assert out.grad_fn.op.name == 'Mul'         # construct's own op, no boundary node
    h = cell.register_backward_hook(lambda c, gi, go: None)
    assert cell(T(1.0)).grad_fn.op.name == 'CellBoundary'
    h.remove()
    assert cell.__dict__['_hooks'] is None          # back on the hook-free path
    assert cell(T(1.0)).grad_fn.op.name == 'Mul'
    handles = [cell.register_forward_hook(lambda c, i, o: None) for _ in range(2)]
    handles[0].remove()
    assert cell.__dict__['_hooks'] is not None      # one hook left
    handles[1].remove()
    handles[1].remove()
    assert cell.__dict__['_hooks'] is None


def test_no_boundaries_under_no_grad():
    cell = Scale()
    cell.register_backward_hook(lambda c, gi, go: None)
    with ms.no_grad():
        out = cell(T(1.0))
    assert out.grad_fn is None


def test_missing_super_init_is_a_clear_error():
    class Forgot(nn.Cell):
        def __init__(self):
            self.k = ms.Parameter(T(1.0))

    with pytest.raises(RuntimeError, match=r"Forgot.__init__ must call super\(\).__init__\(\)"):
        Forgot()

    class ForgotQuietly(nn.Cell):
        def __init__(self):
            self.factor = 2

        def construct(self, x):
            return x * self.factor

    with pytest.raises(RuntimeError, match=r"ForgotQuietly.__init__ must call super\(\).__init__\(\)"):
        ForgotQuietly()(T(1.0))
