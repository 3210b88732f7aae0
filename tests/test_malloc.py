"""malloc's thresholds set at import (``hookgrad/kernels/malloc.py``)."""
import json
import platform
import subprocess
import sys

import pytest

from hookgrad.kernels import malloc as _malloc


def test_default_keeps_blocks_under_32_mib_and_256_mib_of_free_heap():
    settings, reason = _malloc.choose({})
    assert settings == {'mmap_threshold': 32 << 20, 'trim_threshold': 256 << 20}
    assert reason == "freed blocks under 32 MiB are reused; up to 256 MiB of free heap stays mapped"


@pytest.mark.parametrize('env, reason', [
    ({'MALLOC_MMAP_THRESHOLD_': '65536'},
     "MALLOC_MMAP_THRESHOLD_ set by the user; malloc kept its settings"),
    ({'MALLOC_TRIM_THRESHOLD_': '0'},
     "MALLOC_TRIM_THRESHOLD_ set by the user; malloc kept its settings"),
    ({'HOOKGRAD_MALLOC': 'OFF'}, "turned off by HOOKGRAD_MALLOC=off"),
])
def test_users_settings_and_the_switch_leave_malloc_alone(env, reason):
    assert _malloc.choose(env) == (None, reason)
    called = []
    assert _malloc.apply(env, find=lambda: lambda *a: called.append(a) or 1) == \
        {'malloc': None, 'malloc_reason': reason}
    assert called == []


def test_apply_sets_both_thresholds_through_mallopt():
    called = []
    got = _malloc.apply({}, find=lambda: lambda *a: called.append(a) or 1)
    assert called == [(-3, 32 << 20), (-1, 256 << 20)]      # M_MMAP_THRESHOLD, M_TRIM_THRESHOLD
    assert got['malloc'] == {'mmap_threshold': 32 << 20, 'trim_threshold': 256 << 20}


def test_no_mallopt_or_a_refusal_is_reported():
    assert _malloc.apply({}, find=lambda: None) == {
        'malloc': None,
        'malloc_reason': "the C library has no mallopt (not glibc); left as it is"}
    assert _malloc.apply({}, find=lambda: lambda *a: 0)['malloc_reason'] == \
        "mallopt refused a threshold; glibc's defaults may be in part"


def _info(env):
    code = "import json, hookgrad as ms; print(json.dumps(ms.blas_info()))"
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=dict(env, PATH=''), check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != 'glibc', reason="mallopt is glibc's")
def test_import_sets_them_and_blas_info_says_so():
    assert _info({})['malloc'] == {'mmap_threshold': 32 << 20, 'trim_threshold': 256 << 20}
    off = _info({'HOOKGRAD_MALLOC': 'off'})
    assert off['malloc'] is None and off['malloc_reason'] == "turned off by HOOKGRAD_MALLOC=off"
