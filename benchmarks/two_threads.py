"""Imported first by a benchmark that times hookgrad alone in its process (or beside PyTorch, in
the same process): two BLAS threads, set before NumPy loads, and hookgrad from this checkout."""
import os

for _var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
    os.environ.setdefault(_var, '2')

import checkout  # noqa: E402,F401
