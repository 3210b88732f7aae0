"""load_param_into_net: copy a checkpoint's entries into a network's parameters (MindSpore's
name and rules; see docs/checkpoints.md)."""
import numpy as np

from .._dtype import BFLOAT16
from .._frames import warn
from ..nn.cell import Cell
from ..nn.parameter import Parameter

__all__ = ['load_param_into_net']

# strict_load=False casts within these groups, as MindSpore does; anything else must match.
# Casts to bfloat16 round to nearest even (float64 through float32, as MindSpore rounds)
_CAST_GROUPS = ({np.dtype(t) for t in (np.float16, np.float32, np.float64)} | {BFLOAT16},
                {np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)})


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Copy values from ``parameter_dict`` into the parameters of ``net`` with the same names.

    Every pair is checked before anything changes: if one entry does not fit, a RuntimeError
    lists every problem and no parameter of ``net`` is modified. ``requires_grad`` of the
    network's parameters is kept.

    Args:
        net: the Cell to load into; its parameters are matched by ``Parameter.name``.
        parameter_dict: ``{name: Parameter | str}``, as ``load_checkpoint`` returns (str
            entries are never loaded).
        strict_load: False (MindSpore's default): a float entry (BFloat16 included) is cast
            into a float parameter of another precision and an int entry into an int
            parameter, and a parameter with no entry of its name takes the entry named
            ``prefix + name`` for a prefix found from the unmatched entries. True: names and
            dtypes must match.
        remove_redundancy: a bool; data-parallel redundancy does not arise in one process.

    Returns:
        ``(param_not_load, ckpt_not_load)``: the names of the network's parameters that
        were not loaded, and of the entries of ``parameter_dict`` that were not used.

    Warns:
        UserWarning: when some parameters of ``net`` were not loaded (MindSpore logs the same
            warning), naming them; when none was, saying that nothing was loaded.

    Raises:
        TypeError: for a ``net`` that is not a Cell, a non-dict ``parameter_dict``, keys that
            are not str or values that are not Parameters or str, or non-bool flags.
        RuntimeError: when an entry's shape differs from its parameter's, or its dtype
            differs beyond what ``strict_load`` allows.

    >>> import hookgrad as ms
    >>> net = ms.nn.Dense(2, 1)
    >>> ms.load_param_into_net(net, {'weight': ms.Parameter(ms.Tensor([[1.0, 2.0]])),
    ...                              'bias': ms.Parameter(ms.Tensor([0.5])), 'epoch': '3'})
    ([], ['epoch'])
    >>> print(net.weight.asnumpy())
    [[1. 2.]]
    """
    where = 'load_param_into_net'
    if not isinstance(net, Cell):
        raise TypeError(f"{where}: net must be a Cell, got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"{where}: parameter_dict must be a dict, got "
                        f"{type(parameter_dict).__name__}")
    wrong = [f"{k!r}: {type(v).__name__}" for k, v in parameter_dict.items()
             if not isinstance(k, str) or not isinstance(v, (Parameter, str))]
    if wrong:
        raise TypeError(f"{where}: parameter_dict must map str names to Parameters (or str), "
                        f"got {', '.join(wrong)}")
    check_bool(strict_load, where, 'strict_load')
    check_bool(remove_redundancy, where, 'remove_redundancy')

    unused = {k: v for k, v in parameter_dict.items() if isinstance(v, Parameter)}
    pairs, not_loaded = [], []
    for path, param in net.parameters_and_names():
        name = param.name if param.name is not None else path
        if name in unused:
            pairs.append((name, param, name, unused.pop(name)))
        else:
            not_loaded.append((name, param))
    if not strict_load:
        pairs.extend(_prefix_matches(not_loaded, unused))

    problems, updates = [], []
    for name, param, key, src in pairs:
        dst_dtype, src_arr = param.asnumpy().dtype, src.asnumpy()
        label = f"'{name}'" if key == name else f"'{name}' (from entry '{key}')"
        if src_arr.shape != param.shape:
            problems.append(f"{label}: the network has shape {param.shape}, the checkpoint "
                            f"{src_arr.shape}")
        elif src_arr.dtype != dst_dtype and (strict_load or not _castable(src_arr.dtype,
                                                                          dst_dtype)):
            problems.append(f"{label}: the network has dtype {param.dtype}, the checkpoint "
                            f"{src.dtype}")
        else:
            updates.append((param, _cast(src_arr, dst_dtype)))
    if problems:
        rule = ("with strict_load=True dtypes must match" if strict_load else
                "strict_load=False casts only float to float and int to int")
        raise RuntimeError(f"{where}: {len(problems)} of {len(pairs)} entries do not fit the "
                           f"network ({rule}); no parameter was changed:\n  "
                           + "\n  ".join(problems))
    for param, arr in updates:
        param.set_data(arr)
    param_not_load = [name for name, _ in not_loaded]
    if param_not_load:
        _warn_not_loaded(param_not_load, pairs, parameter_dict, strict_load)
    used = {key for _, _, key, _ in pairs}
    ckpt_not_load = [k for k in parameter_dict if k not in used]
    return param_not_load, ckpt_not_load


def _prefix_matches(not_loaded, unused):
    """MindSpore's strict_load=False fallback: find an entry named ``prefix + name`` for an
    unloaded parameter, then load every unloaded parameter whose ``prefix + name`` exists;
    repeat with the next prefix. Each entry is used at most once. Updates both arguments."""
    pairs = []
    while not_loaded:
        prefix = next((key[:-len(name)] for name, _ in not_loaded for key in unused
                       if len(key) > len(name) and key.endswith(name)), None)
        if prefix is None:
            break
        still = []
        for name, param in not_loaded:
            key = prefix + name
            if key in unused:
                pairs.append((name, param, key, unused.pop(key)))
            else:
                still.append((name, param))
        not_loaded[:] = still
    return pairs


def _cast(arr, dtype):
    """``arr`` as ``dtype``: NaN stays NaN, overflow gives inf, without NumPy's warnings."""
    with np.errstate(invalid='ignore', over='ignore'):
        if dtype == BFLOAT16 and arr.dtype == np.float64:
            arr = arr.astype(np.float32)        # MindSpore rounds twice, through float32
        return arr.astype(dtype, copy=False)


def _castable(src, dst):
    return any(src in group and dst in group for group in _CAST_GROUPS)


def _warn_not_loaded(param_not_load, pairs, parameter_dict, strict_load):
    """MindSpore's warning for parameters left unloaded; a clearer one when nothing loaded."""
    n = len(param_not_load)
    if not pairs:
        entries = [k for k, v in parameter_dict.items() if isinstance(v, Parameter)]
        warn(f"load_param_into_net: nothing was loaded: none of the {n} parameters "
             f"of the network ({_some(param_not_load)}) matches one of the "
             f"{len(entries)} Parameter entries of parameter_dict "
             f"({_some(entries)}); the checkpoint is probably of another network"
             + (" (strict_load=False also tries entries named prefix + name)"
                if strict_load else ""),
             UserWarning)
        return
    warn(f"For 'load_param_into_net', {n} parameters in the 'net' are not loaded, "
         f"because they are not in the 'parameter_dict', please check whether the "
         f"network structure is consistent when training and loading checkpoint. "
         f"{param_not_load} are not loaded.", UserWarning)



def _some(names, k=5):
    """The first ``k`` names, quoted, and how many more."""
    shown = ', '.join(f"'{n}'" for n in names[:k])
    return shown + (f" and {len(names) - k} more" if len(names) > k else '') if names else 'none'


def check_bool(value, where, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{where}: {arg} must be a bool, got {value!r}")
