"""Fixtures of the checkpoint tests."""
import pytest

from .nets import fresh_outer, save_hookgrad_file


@pytest.fixture
def st():
    """The safetensors package (a dependency of hookgrad), for tests that write files."""
    import safetensors
    return safetensors


@pytest.fixture
def saved(st, tmp_path):
    """A checkpoint in hookgrad's older format, and its bytes."""
    path = tmp_path / 'net.ckpt'
    return path, save_hookgrad_file(fresh_outer(20), path, append_dict={'tag': 'x'})
