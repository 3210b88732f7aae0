"""Checkpoints: ``save_checkpoint``, ``load_checkpoint`` and ``load_param_into_net``.

``files`` reads and writes the file format (safetensors with hookgrad's metadata), ``durable``
makes writes atomic and checks them (temporary files, fsync, CRC32), ``network`` copies a
checkpoint's entries into a network's parameters. See docs/checkpoints.md.
"""
from .files import load_checkpoint, save_checkpoint
from .network import load_param_into_net

__all__ = ['save_checkpoint', 'load_checkpoint', 'load_param_into_net']
