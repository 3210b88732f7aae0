"""Per-stream core limits: MindSpore's ``set_stream_limit`` / ``get_stream_limit`` /
``reset_stream_limit`` and ``StreamLimitCtx``.

On Ascend these cap the cube and vector cores a stream's kernels use. The CPU and GPU have no
such cores: the limits are checked as MindSpore checks them, kept per stream and reported by
``get_stream_limit`` (-1: not set), and limit nothing.
"""
from .settings import _check_limit
from .streams import Stream

__all__ = ['get_stream_limit', 'set_stream_limit', 'reset_stream_limit', 'StreamLimitCtx']

_limits = {}        # Stream -> (cube_num, vector_num)


def _check_stream(where, stream):
    if not isinstance(stream, Stream):
        raise TypeError(f"For '{where}', the argument 'stream' should be Stream, but got "
                        f"{type(stream)}.")


def get_stream_limit(stream):
    """``{'cube_core_num': c, 'vector_core_num': v}`` set for ``stream`` (-1: not set).

    Raises:
        TypeError: ``stream`` is not a Stream.
    """
    _check_stream('get_stream_limit', stream)
    cube, vector = _limits.get(stream, (-1, -1))
    return {"cube_core_num": cube, "vector_core_num": vector}


def set_stream_limit(stream, cube_num=-1, vector_num=-1):
    """Keep ``cube_num`` and ``vector_num`` as ``stream``'s core limits (-1: not set).

    Raises:
        TypeError: ``stream`` is not a Stream, or a count is not an int.
        ValueError: a count below -1.
    """
    _check_stream('set_stream_limit', stream)
    _limits[stream] = (_check_limit('set_stream_limit', 'cube_num', cube_num),
                       _check_limit('set_stream_limit', 'vector_num', vector_num))


def reset_stream_limit(stream):
    """Clear ``stream``'s core limits.

    Raises:
        TypeError: ``stream`` is not a Stream (MindSpore's message names 'set_stream_limit').
    """
    _check_stream('set_stream_limit', stream)
    _limits.pop(stream, None)


class StreamLimitCtx:
    """``with StreamLimitCtx(stream, cube_num, vector_num):`` sets ``stream``'s limits for the
    block and puts the previous ones back after it (it does not make ``stream`` current, as in
    MindSpore: ``StreamCtx`` does that).

    Raises:
        TypeError: ``stream`` is not a Stream.
    """

    def __init__(self, stream, cube_num=-1, vector_num=-1):
        _check_stream('StreamLimitCtx', stream)
        self.stream = stream
        self.cube_num = cube_num
        self.vector_num = vector_num
        self.prev_cube_num = -1
        self.prev_vector_num = -1

    def __enter__(self):
        self.prev_cube_num, self.prev_vector_num = _limits.get(self.stream, (-1, -1))
        set_stream_limit(self.stream, self.cube_num, self.vector_num)

    def __exit__(self, exc_type, exc_val, exc_tb):
        set_stream_limit(self.stream, self.prev_cube_num, self.prev_vector_num)
