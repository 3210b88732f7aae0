"""Imported first by every benchmark: hookgrad from this checkout (not an installed copy),
imported before NumPy so that it chooses OpenBLAS's kernels and thread wait."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import hookgrad  # noqa: E402,F401
