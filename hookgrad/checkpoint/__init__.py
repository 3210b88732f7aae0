"""Checkpoints: ``save_checkpoint``, ``load_checkpoint`` and ``load_param_into_net``.

``files`` holds the two functions and tells formats apart; ``protobuf_ckpt`` and
``safetensors_ckpt`` read and write MindSpore's two file formats, ``hookgrad_format`` reads
hookgrad's older files; ``durable`` makes writes atomic (temporary files, fsync) and computes
CRC32s; ``network`` copies a checkpoint's entries into a network's parameters. See
docs/checkpoints.md.
"""
from .files import load_checkpoint, save_checkpoint
from .network import load_param_into_net

__all__ = ['save_checkpoint', 'load_checkpoint', 'load_param_into_net']
