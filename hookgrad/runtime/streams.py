"""Streams and events: MindSpore's ``runtime.Stream`` / ``Event`` over CUDA's (through CuPy).

A stream is a queue of GPU work: ops queue their kernels on the current stream, and work on two
streams may overlap. An event marks a point in a stream's queue, to wait for it or to time the
work between two of them. On the CPU, which computes when called, every stream's work is done
when it is queued: waiting returns at once and an event's time is the host clock's.
"""
import threading
import time

from ..kernels import backend

__all__ = ['Stream', 'Event', 'current_stream', 'default_stream', 'set_cur_stream', 'StreamCtx',
           'communication_stream']

_local = threading.local()      # per thread: {device name: its current stream}


def _current():
    current = getattr(_local, 'current', None)
    if current is None:
        current = _local.current = {}
    return current


def _gpu_xp():
    """CuPy (or the stand-in) when new tensors go to the GPU, else None."""
    device = backend.current
    return None if device is backend.CPU else device.xp


class Stream:
    """A queue of device work (a CUDA stream on the GPU).

    Args:
        priority (int): lower numbers run first when streams compete (CUDA's rule); 0 default.
    """

    def __init__(self, priority=0, **kwargs):
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise TypeError(f"Stream: priority must be an int, got {type(priority).__name__}")
        stream = kwargs.pop('stream', None)
        if kwargs:
            raise TypeError(f"Stream: unexpected keyword arguments {sorted(kwargs)}")
        self.priority = priority
        xp = _gpu_xp()
        self.device_name = 'CPU' if xp is None else 'GPU'
        if stream is not None:
            self._cuda = stream._cuda
        elif xp is None:
            self._cuda = None
        else:
            self._cuda = xp.cuda.Stream(non_blocking=True, priority=priority or None)

    @classmethod
    def _of(cls, cuda, device_name):
        self = object.__new__(cls)
        self.priority, self._cuda, self.device_name = 0, cuda, device_name
        return self

    def synchronize(self):
        """Wait until the stream's queued work is done."""
        if self._cuda is not None:
            self._cuda.synchronize()

    def query(self):
        """Whether the stream's queued work is done."""
        return True if self._cuda is None else self._cuda.done

    def record_event(self, event=None):
        """Mark the current end of the stream's queue with ``event`` (a new one by default)."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event):
        """Make the stream's later work wait for ``event``."""
        if self._cuda is not None and event._cuda is not None:
            self._cuda.wait_event(event._cuda)

    def wait_stream(self, stream):
        """Make the stream's later work wait for the work queued on ``stream`` so far."""
        self.wait_event(stream.record_event())

    def __eq__(self, other):
        return isinstance(other, Stream) and (self is other or (
            self._cuda is not None and self._cuda is other._cuda))

    def __hash__(self):
        return id(self._cuda) if self._cuda is not None else id(self)

    def __repr__(self):
        return f"Stream(device_name={self.device_name}, device_id:0, stream id:{id(self):x})"


_CPU_DEFAULT = Stream._of(None, 'CPU')


class Event:
    """A point in a stream's queue: wait for it, or time the work between two events.

    Args:
        enable_timing (bool): whether ``elapsed_time`` may use the event.
        blocking (bool): whether ``synchronize`` sleeps the host thread rather than spins.
    """

    def __init__(self, enable_timing=False, blocking=False):
        self.enable_timing = enable_timing
        self.blocking = blocking
        xp = _gpu_xp()
        self._cuda = None if xp is None else xp.cuda.Event(
            block=blocking, disable_timing=not enable_timing)
        self._time = None
        self._recorded = False

    def record(self, stream=None):
        """Mark the end of ``stream``'s queue (the current stream by default)."""
        stream = current_stream() if stream is None else stream
        if self._cuda is not None:
            self._cuda.record(stream._cuda)
        self._time = time.perf_counter()
        self._recorded = True

    def synchronize(self):
        """Wait until the work before the event is done."""
        if self._cuda is not None:
            self._cuda.synchronize()

    def query(self):
        """Whether the work before the event is done."""
        return True if self._cuda is None else self._cuda.done

    def wait(self, stream=None):
        """Make ``stream``'s later work (the current stream's by default) wait for the event."""
        (current_stream() if stream is None else stream).wait_event(self)

    def elapsed_time(self, end_event):
        """Milliseconds from this event to ``end_event``, both recorded and timing.

        Raises:
            RuntimeError: an event without ``enable_timing`` or not recorded.
        """
        for event in (self, end_event):
            if not event.enable_timing:
                raise RuntimeError("Event.elapsed_time: both events need enable_timing=True")
            if not event._recorded:
                raise RuntimeError("Event.elapsed_time: both events must be recorded first")
        if self._cuda is not None:
            end_event.synchronize()
            return float(self._cuda_xp().cuda.get_elapsed_time(self._cuda, end_event._cuda))
        return (end_event._time - self._time) * 1e3

    def _cuda_xp(self):
        return backend.gpu().xp


def default_stream():
    """The stream ops use unless another is made current."""
    xp = _gpu_xp()
    return _CPU_DEFAULT if xp is None else Stream._of(xp.cuda.Stream.null, 'GPU')


def current_stream():
    """The stream the calling thread's ops are queued on (on the device new tensors go to)."""
    stream = _current().get('CPU' if _gpu_xp() is None else 'GPU')
    return default_stream() if stream is None else stream


def set_cur_stream(stream):
    """Queue the calling thread's ops on ``stream``'s device on ``stream`` from now on."""
    if not isinstance(stream, Stream):
        raise TypeError(f"set_cur_stream: expected a Stream, got {type(stream).__name__}")
    if stream._cuda is not None:
        stream._cuda.use()
    _current()[stream.device_name] = stream


class StreamCtx:
    """``with StreamCtx(stream):`` queues the block's ops on ``stream``, then goes back to the
    stream that was current."""

    def __init__(self, ctx_stream):
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(f"StreamCtx: expected a Stream or None, got "
                            f"{type(ctx_stream).__name__}")
        self.stream = ctx_stream

    def __enter__(self):
        if self.stream is not None:
            self._previous = _current().get(self.stream.device_name)
            set_cur_stream(self.stream)
        return self.stream

    def __exit__(self, *exc):
        if self.stream is not None:
            previous = self._previous
            if previous is None:
                if self.stream._cuda is not None:
                    type(self.stream._cuda).null.use()
                del _current()[self.stream.device_name]
            else:
                set_cur_stream(previous)


_communication = None


def communication_stream():
    """The stream collective communication is queued on (one per process)."""
    global _communication
    if _communication is None:
        _communication = Stream()
    return _communication
