"""MindSpore's video decoding names (``DecodeVideo``, ``VideoDecoder``, ``read_video``,
``read_video_timestamps``): hookgrad bundles no video codec (MindSpore uses FFmpeg), so each
raises, saying how to decode frames instead."""
import os

__all__ = ['DecodeVideo', 'VideoDecoder', 'read_video', 'read_video_timestamps']

_ADVICE = ("hookgrad has no video codec (MindSpore decodes video with FFmpeg); decode the "
           "frames with a video library such as PyAV or OpenCV inside a GeneratorDataset")


def _check_file(filename, who):
    if not isinstance(filename, str):
        raise TypeError(f"{who}: filename must be a str, got {type(filename).__name__}")
    if not os.path.isfile(filename):
        raise ValueError(f"{who}: the file {filename} does not exist or permission denied!")


class DecodeVideo:
    """MindSpore's decoder of raw video bytes into (frames, audio): not available.

    Raises:
        RuntimeError: always, naming the alternative.
    """

    def __init__(self):
        raise RuntimeError(f"DecodeVideo is not supported: {_ADVICE}")


class VideoDecoder:
    """MindSpore's frame reader of H264/H265 video files: not available.

    Raises:
        TypeError, ValueError: for a ``source`` that is not a str naming a file.
        RuntimeError: otherwise, naming the alternative.
    """

    def __init__(self, source):
        _check_file(source, 'VideoDecoder')
        raise RuntimeError(f"VideoDecoder is not supported: {_ADVICE}")


def read_video(filename, start_pts=0, end_pts=None, pts_unit="pts"):
    """MindSpore's reader of a video file's frames, audio and metadata: not available.

    Raises:
        TypeError, ValueError: for a ``filename`` that is not a str naming a file.
        RuntimeError: otherwise, naming the alternative.
    """
    _check_file(filename, 'read_video')
    raise RuntimeError(f"read_video is not supported: {_ADVICE}")


def read_video_timestamps(filename, pts_unit="pts"):
    """MindSpore's reader of a video file's frame timestamps: not available.

    Raises:
        TypeError, ValueError: for a ``filename`` that is not a str naming a file.
        RuntimeError: otherwise, naming the alternative.
    """
    _check_file(filename, 'read_video_timestamps')
    raise RuntimeError(f"read_video_timestamps is not supported: {_ADVICE}")
