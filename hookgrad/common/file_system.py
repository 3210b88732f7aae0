"""MindSpore's MindIO checkpoint cache settings: ``set_mindio_server_info`` and
``mindio_preload``.

MindIO is Huawei's in-memory file system for checkpoints. hookgrad reads checkpoints from the
file system directly and never uses MindIO, which is what MindSpore does when MindIO is not
installed: the server setting is checked and kept, and ``mindio_preload`` returns False
(nothing preloaded).
"""
from ..compat.checkparam import GT, check_integral

__all__ = ['set_mindio_server_info', 'mindio_preload']

mindio_server_info = {"memfs.data_block_pool_capacity_in_gb": "100"}


def set_mindio_server_info(data_block_pool_capacity_in_gb=100):
    """Keep the MindIO data-block pool capacity (GB), as MindSpore keeps it (a str).

    Raises:
        TypeError: not an int. ValueError: not positive.
    """
    value = check_integral(data_block_pool_capacity_in_gb, 0, GT,
                           'data_block_pool_capacity_in_gb')
    mindio_server_info["memfs.data_block_pool_capacity_in_gb"] = str(value)


def mindio_preload(ckpt_file_name):
    """False: hookgrad has no MindIO to preload ``ckpt_file_name`` into.

    Raises:
        TypeError: ``ckpt_file_name`` is not a str.
    """
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'mindio_preload', the type of 'ckpt_file_name' should be 'str', "
                        f"but got type '{type(ckpt_file_name).__name__}'.")
    return False
