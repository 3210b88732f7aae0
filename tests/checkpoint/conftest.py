"""Fixtures of the checkpoint tests."""
import pytest

import hookgrad as ms

from .nets import fresh_outer


@pytest.fixture
def st():
    """The safetensors package (a dependency of hookgrad), for tests that write files."""
    import safetensors
    return safetensors


@pytest.fixture
def saved(st, tmp_path):
    path = tmp_path / 'net.ckpt'
    ms.save_checkpoint(fresh_outer(20), path, append_dict={'tag': 'x'})
    return path, path.read_bytes()
