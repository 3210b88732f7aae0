"""Tests run the GPU path on the CUDA stand-in (hookgrad/kernels/fake_cuda.py) unless told
otherwise: ``HOOKGRAD_FAKE_GPU=0`` runs it on the machine's GPU through CuPy."""
import os

os.environ.setdefault('HOOKGRAD_FAKE_GPU', '1')
