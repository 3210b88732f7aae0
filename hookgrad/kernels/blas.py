"""Choose OpenBLAS's AVX-512 kernels where the CPU has AVX-512 but OpenBLAS does not know it.

CPU only.

NumPy's wheels bundle an OpenBLAS built for many CPUs that picks its kernels by CPU model. On
CPUs it does not recognise (newer AMD EPYC among them) it falls back to its AVX2 kernels, about
half as fast for float32 matrix products, which are most of a network's time. OpenBLAS reads
``OPENBLAS_CORETYPE`` once, when it loads, so this module must run before NumPy is imported.

The rule (see docs/performance.md):
- a user's own ``OPENBLAS_CORETYPE`` is never touched;
- ``HOOKGRAD_BLAS_CORETYPE=off`` turns the choice off, any other value is used as the core type;
- otherwise ``SkylakeX`` is chosen only on Linux x86-64, when the kernel reports every AVX-512
  subset those kernels use (F, CD, BW, DQ, VL) in /proc/cpuinfo (the kernel lists them only
  when the OS saves the AVX-512 registers), so kernels the CPU lacks are never selected;
- when NumPy was imported before hookgrad, nothing can be changed and nothing is.

``CHOICE`` records what happened, for ``hookgrad.blas_info()``.
"""
import os
import platform
import sys

_SKYLAKEX_FLAGS = frozenset({'avx512f', 'avx512cd', 'avx512bw', 'avx512dq', 'avx512vl'})


def _cpu_flags(path='/proc/cpuinfo'):
    try:
        with open(path, encoding='ascii', errors='replace') as f:
            for line in f:
                if line.startswith('flags'):
                    return frozenset(line.split(':', 1)[1].split())
    except OSError:
        pass
    return frozenset()


def choose(environ=None, numpy_loaded=None, machine=None, system=None, flags=None):
    """Decide the core type; return ``(core_type or None, reason)``. Changes nothing."""
    environ = os.environ if environ is None else environ
    if environ.get('OPENBLAS_CORETYPE'):
        return None, f"OPENBLAS_CORETYPE={environ['OPENBLAS_CORETYPE']} set by the user"
    wanted = environ.get('HOOKGRAD_BLAS_CORETYPE', '')
    if wanted.lower() == 'off':
        return None, "turned off by HOOKGRAD_BLAS_CORETYPE=off"
    if numpy_loaded is None:
        numpy_loaded = 'numpy' in sys.modules
    if numpy_loaded:
        return None, "NumPy was imported before hookgrad; OpenBLAS kept its own choice"
    if wanted:
        return wanted, f"HOOKGRAD_BLAS_CORETYPE={wanted}"
    machine = platform.machine() if machine is None else machine
    system = platform.system() if system is None else system
    if system != 'Linux' or machine not in ('x86_64', 'AMD64'):
        return None, f"not Linux x86-64 ({system} {machine}); OpenBLAS kept its own choice"
    flags = _cpu_flags() if flags is None else flags
    missing = sorted(_SKYLAKEX_FLAGS - flags)
    if missing:
        return None, f"the CPU lacks {', '.join(missing)}; OpenBLAS kept its own choice"
    return 'SkylakeX', "the CPU has AVX-512 F/CD/BW/DQ/VL"


def apply():
    """Set ``OPENBLAS_CORETYPE`` for this process if ``choose`` says so; return the choice."""
    core, reason = choose()
    if core is not None:
        os.environ['OPENBLAS_CORETYPE'] = core
    return {'openblas_coretype': core, 'reason': reason}


CHOICE = apply()


def quiet_threads(environ=None, numpy_loaded=None):
    """Let idle OpenBLAS threads sleep at once instead of spinning (``OPENBLAS_THREAD_TIMEOUT=4``,
    the least OpenBLAS takes), unless the user set a timeout or ``HOOKGRAD_BLAS_THREADS=fixed``.

    A spinning thread holds a core for about 0.1 s after each product (OpenBLAS's default wait):
    beside another job it takes that job's core, or ours. OpenBLAS reads the setting when it
    loads, so like the core type it is set before NumPy is imported. Returns the value set or None.
    """
    environ = os.environ if environ is None else environ
    numpy_loaded = 'numpy' in sys.modules if numpy_loaded is None else numpy_loaded
    if (numpy_loaded or environ.get('OPENBLAS_THREAD_TIMEOUT')
            or environ.get('GOTO_THREAD_TIMEOUT')
            or environ.get('HOOKGRAD_BLAS_THREADS', '').strip().lower() == 'fixed'):
        return None
    environ['OPENBLAS_THREAD_TIMEOUT'] = '4'
    return '4'


THREAD_TIMEOUT = quiet_threads()


def blas_info():
    """What hookgrad chose for OpenBLAS and the C allocator in this process: the core type
    (``openblas_coretype``, ``reason``), the thread choice (``threads_*``,
    ``others_busy_cores``; hookgrad/kernels/threads.py) and malloc's thresholds (``malloc``,
    ``malloc_reason``; hookgrad/kernels/malloc.py) and the matrix-product library (``gemm``,
    ``gemm_reason`` with the GFLOP/s measured, ``gemm_cache``; hookgrad/kernels/gemm.py) and
    how convolution kernels are chosen (``conv_plan``: 'measure' or 'rules', ``conv_plan_cache``;
    hookgrad/kernels/conv_plan.py).

    >>> import hookgrad as ms
    >>> sorted(ms.blas_info())[:5]
    ['conv_plan', 'conv_plan_cache', 'gemm', 'gemm_cache', 'gemm_reason']
    """
    from . import conv_plan as _conv_plan
    from . import gemm as _gemm
    from . import malloc as _malloc
    from . import threads as _threads
    return dict(CHOICE, thread_timeout=os.environ.get('OPENBLAS_THREAD_TIMEOUT'),
                **_threads.info(), **_malloc.CHOICE, **_gemm.info(),
                conv_plan='measure' if _conv_plan.measuring() else 'rules',
                conv_plan_cache=_conv_plan.CACHE.path)
