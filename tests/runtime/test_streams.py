"""``mindspore.runtime`` streams and events: CUDA's on the GPU (the stand-in keeps CuPy's), and
on the CPU queues whose work is done when queued."""
import time

import numpy as np
import pytest

import hookgrad as ms
from hookgrad.kernels import backend

GPU = backend.gpu()
DEVICES = {'CPU': backend.CPU, 'GPU': GPU}


@pytest.mark.parametrize('device', sorted(DEVICES))
def test_a_stream_made_current_takes_the_ops_and_is_then_done(device):
    with backend.default_device(DEVICES[device]):
        stream = ms.runtime.Stream()
        assert repr(stream).startswith(f"Stream(device_name={device}, device_id:0")
        assert ms.runtime.current_stream() == ms.runtime.default_stream()
        with ms.runtime.StreamCtx(stream) as s:
            assert s is stream and ms.runtime.current_stream() is stream
            if device == 'GPU':
                assert GPU.xp.cuda.get_current_stream() is stream._cuda
            y = ms.ops.ones((3,), ms.float32) + 1
        assert ms.runtime.current_stream() == ms.runtime.default_stream()
        if device == 'GPU':
            assert GPU.xp.cuda.get_current_stream() is GPU.xp.cuda.Stream.null
        stream.synchronize()
        assert stream.query()
        np.testing.assert_array_equal(y.asnumpy(), [2, 2, 2])
        other = ms.runtime.Stream(priority=-1)
        other.wait_stream(stream)
        ms.runtime.set_cur_stream(other)
        assert ms.runtime.current_stream() is other
        ms.runtime.set_cur_stream(ms.runtime.default_stream())


@pytest.mark.parametrize('device', sorted(DEVICES))
def test_events_time_the_work_between_them(device):
    with backend.default_device(DEVICES[device]):
        start, end = ms.runtime.Event(enable_timing=True), ms.runtime.Event(enable_timing=True)
        start.record()
        time.sleep(0.02)
        end.record(ms.runtime.current_stream())
        end.synchronize()
        assert start.query() and end.query()
        assert 15 <= start.elapsed_time(end) < 2000
        untimed = ms.runtime.Event()
        untimed.record()
        with pytest.raises(RuntimeError, match="both events need enable_timing=True"):
            start.elapsed_time(untimed)
        with pytest.raises(RuntimeError, match="both events must be recorded first"):
            start.elapsed_time(ms.runtime.Event(enable_timing=True))
        event = ms.runtime.current_stream().record_event()
        event.wait()


def test_bad_arguments_are_refused():
    with pytest.raises(TypeError, match="priority must be an int, got float"):
        ms.runtime.Stream(priority=0.5)
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['device'\\]"):
        ms.runtime.Stream(device='GPU')
    with pytest.raises(TypeError, match="expected a Stream, got int"):
        ms.runtime.set_cur_stream(0)
    assert ms.runtime.communication_stream() is ms.runtime.communication_stream()
    assert ms.hal.Stream is ms.runtime.Stream
