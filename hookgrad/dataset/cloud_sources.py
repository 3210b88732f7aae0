"""Names of MindSpore's cloud-storage sources, which hookgrad does not read: each raises,
saying so and what to do instead."""

__all__ = ['OBSMindDataset', 'sync_wait_for_dataset']

_ADVICE = ("hookgrad reads local files only; download the files first and read them with "
           "MindDataset")


class OBSMindDataset:
    """MindSpore's reader of MindRecord files kept in Huawei OBS cloud storage: not available.

    Raises:
        RuntimeError: always, naming the local alternative.
    """

    def __init__(self, *args, **kwargs):
        raise RuntimeError(f"OBSMindDataset is not supported: it downloads MindRecord files "
                           f"from OBS cloud storage, and {_ADVICE}")


def sync_wait_for_dataset(rank_id, rank_size, current_epoch, obs_runtime=None):
    """MindSpore's wait for ``OBSMindDataset`` downloads on every device: not available.

    Raises:
        RuntimeError: always, as ``OBSMindDataset`` is not supported.
    """
    raise RuntimeError(f"sync_wait_for_dataset waits for OBSMindDataset downloads, which "
                       f"hookgrad does not make; {_ADVICE}")
