"""Array kernels: arrays in, arrays out, no Tensor and no graph.

The floor below autograd: the array backend, convolution (im2col, Winograd, batch-last) and its
scratch memory, NumPy's floating-point error state, BLAS threads and malloc tuning. Nothing here
imports hookgrad above this package. Importing the package imports nothing (``blas`` must run
before NumPy loads).
"""
