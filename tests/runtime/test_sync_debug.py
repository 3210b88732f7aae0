"""Sync-debug mode (``HOOKGRAD_SYNC=warn|error``, ``hookgrad.runtime.set_sync_debug_mode``):
every read of GPU values by the host is reported at the user's line; a training step reads
nothing but what the user asks for."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn
from hookgrad.kernels import backend, fake_cuda, sync

GPU = backend.gpu()


@pytest.fixture
def mode():
    yield sync.set_mode
    sync.set_mode('default')


def _gpu_tensor():
    with backend.default_device(GPU):
        return ms.Tensor(np.float32([1.5, 2.5]))


@pytest.mark.parametrize('read, what', [
    (lambda t: t.asnumpy(), 'Tensor.asnumpy()'),
    (lambda t: t[0].item(), 'Tensor.item()'),
    (lambda t: float(t[1]), 'Tensor.item()'),
    (lambda t: bool(t[0] > 1), 'the truth value of a Tensor'),
    (lambda t: t.tolist(), 'Tensor.tolist()'),
    (lambda t: print(t, file=open(os.devnull, 'w')), 'printing a Tensor'),
    (lambda t: np.asarray(t), 'converting a Tensor to NumPy'),
    (lambda t: t.move_to('CPU'), 'a copy to the host'),
])
def test_each_kind_of_read_raises_in_error_mode_naming_the_line(mode, read, what):
    t = _gpu_tensor()
    mode('error')
    with pytest.raises(RuntimeError, match=f"{what.replace('(', '.').replace(')', '.')} reads "
                                           f"GPU values on the host at {__file__}:\\d+"):
        read(t)
    mode(0)
    read(t)


def test_warn_mode_warns_at_the_users_line(mode):
    t = _gpu_tensor()
    mode(1)
    assert sync.get_mode() == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        t.asnumpy()
        line = sys._getframe().f_lineno - 1
    assert [(w.category, w.filename, w.lineno) for w in caught] == \
        [(sync.SyncWarning, __file__, line)]
    assert "(a synchronisation)" in str(caught[0].message)


def test_cpu_tensors_are_never_reported(mode):
    mode('error')
    t = ms.Tensor(np.float32([1, 2]))
    assert t.asnumpy().tolist() == [1, 2] and float(t[0]) == 1 and bool(t[1] > 1)


def test_a_training_step_on_the_gpu_reads_nothing(mode):
    """In error mode a whole step (forward, backward, optimizer, hooks on every cell) runs;
    only reading the loss afterwards raises."""
    with backend.default_device(GPU):
        net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2))
        for _, cell in net.cells_and_names():
            cell.register_forward_hook(lambda c, args, out: out * 1.0)
            cell.register_backward_hook(lambda c, gin, gout: None)
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        step = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        x = ms.Tensor(np.ones((3, 4), np.float32))
        y = ms.Tensor(np.int32([0, 1, 0]))
        fake_cuda.host_reads.clear()
        mode('error')
        loss, grads = step(x, y)
        opt(grads)
        assert not fake_cuda.host_reads
        with pytest.raises(RuntimeError, match="Tensor.item.. reads GPU values"):
            float(loss)


def test_modes_are_checked(mode):
    with pytest.raises(ValueError, match="sync debug mode must be one of default, warn, error "
                                         "or 0, 1, 2; got 'loud'"):
        mode('loud')
    with pytest.raises(ValueError, match="got True"):
        mode(True)
    assert ms.runtime.set_sync_debug_mode is sync.set_mode
    assert ms.runtime.get_sync_debug_mode is sync.get_mode


@pytest.mark.parametrize('value, expected', [('warn', 1), ('ERROR', 2), ('', 0)])
def test_the_environment_variable_sets_the_starting_mode(value, expected):
    code = "from hookgrad.kernels import sync; print(sync.get_mode())"
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=dict(os.environ, HOOKGRAD_SYNC=value), check=True)
    assert out.stdout.strip() == str(expected)


def test_a_bad_environment_value_is_an_error_at_import():
    out = subprocess.run([sys.executable, '-c', 'import hookgrad'], capture_output=True,
                         text=True, env=dict(os.environ, HOOKGRAD_SYNC='sometimes'))
    assert out.returncode != 0
    assert "HOOKGRAD_SYNC must be one of default, warn, error; got 'sometimes'" in out.stderr
