"""The OpenBLAS core-type choice: never overrides the user, never picks kernels the CPU lacks."""
import subprocess
import sys

from hookgrad.kernels import blas as _blas

AVX512 = frozenset({'fma', 'avx2', 'avx512f', 'avx512cd', 'avx512bw', 'avx512dq', 'avx512vl'})


def choose(environ=None, numpy_loaded=False, machine='x86_64', system='Linux', flags=AVX512):
    return _blas.choose(environ or {}, numpy_loaded, machine, system, flags)


def test_skylakex_only_with_every_avx512_subset():
    assert choose() == ('SkylakeX', 'the CPU has AVX-512 F/CD/BW/DQ/VL')
    core, reason = choose(flags=AVX512 - {'avx512bw', 'avx512vl'})
    assert core is None and reason == "the CPU lacks avx512bw, avx512vl; OpenBLAS kept its own choice"
    assert choose(flags=frozenset({'avx2', 'fma'}))[0] is None


def test_the_users_setting_wins():
    assert choose({'OPENBLAS_CORETYPE': 'Haswell'}) == (
        None, 'OPENBLAS_CORETYPE=Haswell set by the user')
    assert choose({'HOOKGRAD_BLAS_CORETYPE': 'off'})[0] is None
    assert choose({'HOOKGRAD_BLAS_CORETYPE': 'Zen'}, flags=frozenset()) == (
        'Zen', 'HOOKGRAD_BLAS_CORETYPE=Zen')


def test_nothing_changes_once_numpy_is_loaded_or_off_linux_x86():
    assert choose(numpy_loaded=True) == (
        None, 'NumPy was imported before hookgrad; OpenBLAS kept its own choice')
    assert choose(machine='aarch64')[0] is None
    assert choose(system='Darwin')[0] is None


def test_cpu_flags_reads_the_flags_line(tmp_path):
    info = tmp_path / 'cpuinfo'
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f\nbugs\t: none\n")
    assert _blas._cpu_flags(str(info)) == {'fpu', 'avx2', 'avx512f'}
    assert _blas._cpu_flags(str(tmp_path / 'missing')) == frozenset()


def test_a_fresh_process_applies_the_choice_before_numpy_loads():
    code = ("import os, hookgrad as ms; c = ms.blas_info()['openblas_coretype']; "
            "print(c, os.environ.get('OPENBLAS_CORETYPE'))")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env={'PATH': '', 'HOOKGRAD_BLAS_CORETYPE': 'Haswell'}, check=True)
    assert out.stdout.split() == ['Haswell', 'Haswell']
