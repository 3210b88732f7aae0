"""Fused element-wise kernels for the GPU: one kernel launch where whole-array NumPy calls would
launch one per operation and read and write every array each time.

Each kernel is CuPy's ``ElementwiseKernel`` (CUDA C), compiled on first use and cached per
array module; on the CUDA stand-in the same source runs on NumPy (fake_cuda_kernels.py). The
optimizer updates write the parameters and their state in place, and take the scalars the CPU
path computes in Python (``1 - b1``, the bias-corrected step); every kernel applies its
operations in the CPU path's order, so both round alike.
"""
_SOURCES = {
    # v = u * v + g;  w -= lr * v   (nesterov: w -= lr * (u * v + g))
    'momentum': ('T g, T lr, T u', 'T w, T v', 'v = u * v + g; w -= lr * v'),
    'momentum_nesterov': ('T g, T lr, T u', 'T w, T v',
                          'v = u * v + g; w -= lr * (v * u + g)'),
    # MindSpore's Adam kernel: m += (g - m) (1 - b1);  v += (g^2 - v) (1 - b2);
    # w -= step * m / (sqrt(v) + eps)  (nesterov: step * (m b1 + (1 - b1) g) / ...)
    'adam': ('T g, T step, T b1, T c1, T b2, T c2, T eps', 'T w, T m, T v',
             'm += (g - m) * c1; v += (g * g - v) * c2; '
             'w -= step * m / (sqrt(v) + eps)'),
    'adam_nesterov': ('T g, T step, T b1, T c1, T b2, T c2, T eps', 'T w, T m, T v',
                      'm += (g - m) * c1; v += (g * g - v) * c2; '
                      'w -= step * (m * b1 + c1 * g) / (sqrt(v) + eps)'),
    # batch norm on a device: y = xc * s + b, and its input gradient
    # gx = (gy - xc * k - shift) * ws, one pass each over the activation
    'scale_shift': ('T x, T s, T b', 'T y', 'y = x * s + b'),
    'batch_norm_input_grad': ('T xc, T gy, T k, T shift, T ws', 'T gx',
                              'gx = (gy - xc * k - shift) * ws'),
    # batch norm's per-channel vectors (ops/normalization_device.py), in the CPU path's order:
    # mean = T(sum) / n;  var = T(sum of squares) / n;  rstd = 1 / sqrt(var + eps)
    'subtract_mean': ('T x, float64 s, T n', 'T xc', 'xc = x - T(s) / n'),
    'batch_norm_statistics': ('float64 s2, T w, T n, T eps', 'T var, T rstd, T scale',
                              'var = T(s2) / n; rstd = T(1) / sqrt(var + eps); '
                              'scale = w * rstd'),
    'batch_norm_running': ('T rm, T rv, float64 s, T var, T n, T c1, T mom, T unb',
                           'T nrm, T nrv',
                           'nrm = rm * c1 + T(s) / n * mom; nrv = rv * c1 + var * unb * mom'),
    # gb = sum(gy); gw = sum(xc gy) rstd; k = rstd gw / n; shift = gb / n; ws = w rstd
    'batch_norm_grad_statistics': ('float64 s, float64 d, T r, T w, T n',
                                   'T gb, T gw, T k, T shift, T ws',
                                   'gb = T(s); gw = T(d) * r; k = r * gw / n; shift = gb / n; '
                                   'ws = w * r'),
    # AdamWeightDecay: w -= lr * (m / (sqrt(v) + eps) + decay * w)
    'adam_weight_decay': ('T g, T lr, T b1, T c1, T b2, T c2, T eps, T decay', 'T w, T m, T v',
                          'm = b1 * m + g * c1; v = b2 * v + g * g * c2; '
                          'w -= (m / (sqrt(v) + eps) + w * decay) * lr'),
}
_compiled = {}


def kernel(xp, name):
    """The fused kernel ``name`` for the array module ``xp`` (a GPU's)."""
    k = _compiled.get((xp, name))
    if k is None:
        ins, outs, body = _SOURCES[name]
        k = _compiled[xp, name] = xp.ElementwiseKernel(ins, outs, body, f'hookgrad_{name}')
    return k
