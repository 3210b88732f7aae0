"""MindSpore's functions over MindIR files and obfuscated weights.

``load_mindir`` / ``save_mindir`` read and write MindSpore's MindIR protobuf model,
``export_split_mindir`` splits one for parallel inference, and ``obfuscate_ckpt`` /
``load_obf_params_into_net`` obfuscate a checkpoint's weights by rewriting a network's source.
hookgrad neither reads nor writes MindIR (``export`` / ``load`` use hookgrad's own graph file,
docs/checkpoints.md) and does not rewrite networks, so each raises ``NotImplementedError``.
"""

__all__ = ['load_mindir', 'save_mindir', 'export_split_mindir', 'obfuscate_ckpt',
           'load_obf_params_into_net']

_MINDIR = ("hookgrad does not read or write MindIR files; export and load write and read "
           "hookgrad's own graph file (file_format='HOOKGRAD')")
_OBFUSCATION = ("hookgrad does not obfuscate weights (MindSpore rewrites the network's source "
                "to do so)")


def load_mindir(file_name):
    """Raises NotImplementedError: see the module docstring."""
    raise NotImplementedError(f"load_mindir: reading '{file_name}': {_MINDIR}")


def save_mindir(model, file_name):
    """Raises NotImplementedError: see the module docstring."""
    raise NotImplementedError(f"save_mindir: writing '{file_name}': {_MINDIR}")


def export_split_mindir(file_name, device_num=8, rank_id=0, dynamic=True, sapp=True):
    """Raises NotImplementedError: see the module docstring."""
    raise NotImplementedError(f"export_split_mindir: splitting '{file_name}': {_MINDIR}")


def obfuscate_ckpt(network, ckpt_files, target_modules=None, obf_config=None, saved_path='./',
                   obfuscate_scale=100):
    """Raises NotImplementedError: see the module docstring."""
    raise NotImplementedError(f"obfuscate_ckpt: {_OBFUSCATION}")


def load_obf_params_into_net(network, target_modules=None, obf_ratios=None, obf_config=None,
                             data_parallel_num=1, **kwargs):
    """Raises NotImplementedError: see the module docstring."""
    raise NotImplementedError(f"load_obf_params_into_net: {_OBFUSCATION}")
