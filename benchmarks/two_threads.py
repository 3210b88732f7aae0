"""Imported first by a benchmark that times hookgrad alone in its process: two BLAS threads
(set before NumPy loads) and hookgrad from this checkout, imported before NumPy so that it
chooses OpenBLAS's kernels."""
import os
import sys

for _var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
    os.environ.setdefault(_var, '2')

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import hookgrad  # noqa: E402,F401
