"""Networks and helpers shared by the checkpoint tests."""
import numpy as np

import hookgrad as ms
from hookgrad import nn


class Counter(nn.Cell):
    """A cell with Int64, Bool and Float16 parameters beside a Dense layer."""

    def __init__(self):
        super().__init__()
        self.steps = ms.Parameter(ms.Tensor(np.array([3, -7], np.int64)), requires_grad=False)
        self.mask = ms.Parameter(ms.Tensor(np.array([[True, False], [False, True]])),
                                 requires_grad=False)
        self.scale = ms.Parameter(ms.Tensor(np.array([1.5, -2.25], np.float16)))
        self.dense = nn.Dense(3, 2)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = Counter()
        self.head = nn.SequentialCell(nn.Dense(2, 4), nn.Dense(4, 1))


NAMES = ['body.steps', 'body.mask', 'body.scale', 'body.dense.weight', 'body.dense.bias',
         'head.0.weight', 'head.0.bias', 'head.1.weight', 'head.1.bias']


def values(net):
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def fresh_outer(seed):
    """An Outer whose every parameter differs from another seed's."""
    net = Outer()
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        a = p.asnumpy()
        if a.dtype == np.bool_:
            p.set_data(rng.random(a.shape) < 0.5)
        else:
            p.set_data(rng.integers(-50, 50, a.shape).astype(a.dtype))
    return net


def assert_same(got, want):
    assert list(got) == list(want)
    for name in want:
        assert got[name].dtype == want[name].dtype, name
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)


def P(array, name=None):
    return ms.Parameter(ms.Tensor(np.asarray(array)), name=name)


def nameless():
    return ms.Parameter(ms.Tensor([1.0]))


def save_hookgrad_file(save_obj, path, append_dict=None):
    """Write ``save_obj`` in hookgrad's older checkpoint format, which load_checkpoint reads."""
    import safetensors.numpy  # noqa: F401
    from hookgrad.checkpoint import files, hookgrad_format
    entries = files._collect(save_obj, None)
    files._append(entries, append_dict)
    path.write_bytes(hookgrad_format.encode(safetensors, entries))
    return path.read_bytes()
