"""Argument checks of the fused attention functions (hookgrad/ops/attention.py): types,
integer ranges, layouts, masks, sequence lengths and sparse modes, each raising the error that
names the function and the argument."""
import numbers

import numpy as np

from .._tensor import Tensor


def _of(kind, value, name, fn):
    """``value`` as a ``kind`` (Tensor, int or float); TypeError when it is not one."""
    if isinstance(value, bool) or not isinstance(value, kind):
        what = {Tensor: 'a Tensor', numbers.Integral: 'an int'}.get(kind, 'a float')
        raise TypeError(f"For '{fn}', '{name}' must be {what}, but got {type(value).__name__}.")
    return value if kind is Tensor else int(value) if kind is numbers.Integral else float(value)


def _int(value, name, fn, low=None):
    value = _of(numbers.Integral, value, name, fn)
    if low is not None and value < low:
        raise RuntimeError(f"For '{fn}', '{name}' must be at least {low}, but got {value}.")
    return value


def _refuse(fn, why, **args):
    """NotImplementedError naming the first given argument of ``args`` and why it cannot be
    honoured; nothing when all are None."""
    for name, value in args.items():
        if value is not None:
            raise NotImplementedError(f"For '{fn}', '{name}' is not supported: {why}.")


def _mask_array(mask, fn, name, kinds):
    _of(Tensor, mask, name, fn)
    a = mask.asnumpy()
    if a.dtype.name not in kinds:
        raise TypeError(f"For '{fn}', the dtype of '{name}' must be one of "
                        f"{', '.join(kinds)}, but got {mask.dtype}.")
    return a != 0


def _band(pre, nxt, s1, s2, fn):
    """MindSpore's documented checks: the pre/next band must not be empty."""
    bad = (pre < 0 and nxt < 0) or \
        (pre < 0 <= nxt and (nxt < -pre or -pre >= s2)) or \
        (nxt < 0 <= pre and (-nxt > pre or -nxt >= s1))
    if bad:
        raise ValueError(f"For '{fn}', pre_tokens {pre} and next_tokens {nxt} leave an empty "
                         f"band for S1={s1}, S2={s2}.")


def _sparse_mode(mode, fn, top=4):
    mode = _int(mode, 'sparse_mode', fn)
    if top < mode <= 8:
        raise NotImplementedError(
            f"For '{fn}', sparse_mode {mode} is not supported: 5 (prefix) combines its "
            f"'prefix' columns with the mask in a way MindSpore does not pin down, and 6-8 are "
            f"not implemented in MindSpore either.")
    if not 0 <= mode <= top:
        raise RuntimeError(f"For '{fn}', the specified value of sparse_mode is invalid: it "
                           f"must be in [0, {top}], but got {mode}.")
    return mode


def _lengths(value, fn, name, b, limit):
    """Per-batch lengths: a list, tuple or Tensor of B (or 1, repeated) ints in [0, limit]."""
    if isinstance(value, Tensor):
        value = value.asnumpy().reshape(-1).tolist()
    if not (isinstance(value, (list, tuple)) and
            all(isinstance(x, numbers.Integral) for x in value)):
        raise TypeError(f"For '{fn}', '{name}' must be a list, tuple or Tensor of ints, but "
                        f"got {value!r}.")
    a = np.asarray(value, np.int64).reshape(-1)
    if b is not None and a.size == 1:
        a = np.repeat(a, b)
    if b is not None and a.size != b:
        raise ValueError(f"For '{fn}', the size of '{name}' must be 1 or the batch size {b}, "
                         f"but got {a.size}.")
    if (a < 0).any() or (a > limit).any():
        raise ValueError(f"For '{fn}', every element of '{name}' must be in [0, {limit}], but "
                         f"got {a.tolist()}.")
    return a


def _layout(value, fn, allowed):
    if not isinstance(value, str):
        raise TypeError(f"For '{fn}', 'input_layout' must be a str, but got "
                        f"{type(value).__name__}.")
    if value not in allowed:
        raise ValueError(f"For '{fn}', 'input_layout' must be one of {', '.join(allowed)}, but "
                         f"got '{value}'.")
    return value


def _cumulative(value, fn, name, total):
    lens = _lengths(value, fn, name, None, total)
    if lens.size and ((np.diff(lens) < 0).any() or lens[-1] != total):
        raise ValueError(f"For '{fn}', '{name}' must be non-decreasing and end at {total} (the "
                         f"T axis), but got {lens.tolist()}.")
    return np.diff(np.concatenate([[0], lens]))


def _precise(value, fn, allowed):
    value = _int(value, 'inner_precise', fn)
    if value not in allowed:
        raise ValueError(f"For '{fn}', 'inner_precise' must be one of {allowed}, but got "
                         f"{value}.")
