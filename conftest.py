"""Where the tests' GPU is: ``HOOKGRAD_TEST_DEVICE=gpu`` runs the device-parametrised tests on
the machine's GPU through CuPy; by default (``stand-in``) they run on the CUDA stand-in
(hookgrad/kernels/fake_cuda.py), which keeps CuPy's contract on the CPU, as CI does.

Measured kernel choices (convolution plans, the matrix-product library) go to a fresh directory
for the run, not the user's cache: each run measures again, as a fresh machine does."""
import atexit
import os
import shutil
import tempfile

_DEVICES = {'stand-in': '1', 'gpu': '0'}
_device = os.environ.get('HOOKGRAD_TEST_DEVICE', 'stand-in').strip().lower()
if _device not in _DEVICES:
    raise ValueError(f"HOOKGRAD_TEST_DEVICE must be 'stand-in' or 'gpu', got {_device!r}")
os.environ['HOOKGRAD_FAKE_GPU'] = _DEVICES[_device]

_plans = tempfile.mkdtemp(prefix='hookgrad-test-plans-')
os.environ['HOOKGRAD_CACHE_DIR'] = _plans
atexit.register(shutil.rmtree, _plans, ignore_errors=True)
