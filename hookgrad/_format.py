"""MindSpore's printed form of a tensor (``repr``); ``str`` is NumPy's."""
import numpy as np

from ._dtype import from_numpy


def _float_format(v):
    return f"{v: .8e}"


def tensor_repr(data):
    """``Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])``."""
    a = np.asarray(data)
    shape = '[' + ', '.join(str(n) for n in a.shape) + ']'
    head = f"Tensor(shape={shape}, dtype={from_numpy(a.dtype)}, value="
    if a.ndim == 0:
        v = a.item()
        if isinstance(v, float):
            text = f"{v:g}" if np.isfinite(v) else str(v)
        else:
            text = str(v)
        return f"{head} {text})"
    if a.dtype.kind == 'f':
        body = np.array2string(a, separator=', ', formatter={'float_kind': _float_format},
                               threshold=1000, edgeitems=3, max_line_width=10 ** 6)
    else:
        body = np.array2string(a, separator=', ', threshold=1000, edgeitems=3,
                               max_line_width=10 ** 6)
    if a.ndim > 2:
        body = '\n'.join(line for line in body.split('\n') if line.strip())
    sep = '\n' if a.ndim > 1 else ' '
    return f"{head}{sep}{body})"
