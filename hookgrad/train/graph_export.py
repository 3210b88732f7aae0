"""``export`` and ``load``: a network for inference, written as a file of op steps and weights.

``export(net, *inputs, file_name=..., file_format='HOOKGRAD')`` runs ``net`` once in predict
mode, without gradients, under a graph-mode recorder (hookgrad/jit/recorder.py). The recording
is a list of op steps: the name of a primitive op, the slots it reads and fills, and its
parameters. The file keeps those steps as JSON and the tensors they read (the network's
Parameters and the constants made while it ran) as safetensors data, so loading it runs no code
from the file and needs no Python class of the network. ``load`` returns a ``FuncGraph``;
``GraphCell(graph)`` is the Cell that replays it (MindSpore's ``nn.GraphCell``). The format is
described in docs/checkpoints.md. MindIR, AIR and ONNX are not written or read.
"""
import json
import math
import os

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ..autograd.function import OPS
from ..autograd.grad_mode import no_grad
from ..checkpoint.files import (_crc32, _RESERVED, _safetensors, _write_atomic)
from ..nn.cell import Cell
from ..nn.parameter import Parameter
from ..ops.indexing import KeyInput

__all__ = ['export', 'load', 'FuncGraph', 'GraphCell']

FORMAT = 'hookgrad.export'
VERSION = '1'
FILE_FORMAT = 'HOOKGRAD'
SUFFIX = '.hookgrad'
_OTHER_FORMATS = {'MINDIR': 'MindIR (MindSpore IR)', 'AIR': 'AIR (Ascend IR)', 'ONNX': 'ONNX'}
_EXPORT_KWARGS = ('enc_key', 'enc_mode', 'dataset', 'incremental', 'custom_func')
_LOAD_KWARGS = ('dec_key', 'dec_mode', 'obf_func')


class NotExportable(ValueError):
    """A network whose forward an exported program cannot hold."""


# ----------------------------------------------------------------- export
def export(net, *inputs, file_name, file_format, **kwargs):
    """Write ``net``, traced on ``inputs`` in predict mode, to ``file_name`` for ``load``.

    The file holds the primitive ops the call ran, in order, with their parameters, and the
    Parameters and constants they read: it is replayed without the network's Python class,
    for inputs of the traced shapes and dtypes. The network's train/predict state is restored
    afterwards. See docs/checkpoints.md for the format.

    Args:
        net: a Cell or a function.
        inputs: the inputs of the traced call. Tensors become the program's inputs; other
            values (numbers, strings, None, tuples and lists of them) are fixed in it.
        file_name: the path; ``.hookgrad`` is appended unless it ends with it.
        file_format: 'HOOKGRAD', hookgrad's format. MindSpore's 'MINDIR', 'AIR' and 'ONNX' are
            not supported.
        kwargs: ``enc_key`` must be None (no encryption); ``enc_mode`` a str; ``incremental``
            a bool; ``dataset`` and ``custom_func`` must be None (no data preprocessing or
            MindIR proto to export).

    Raises:
        TypeError: for arguments of the wrong type or an unknown kwarg.
        ValueError: for another ``file_format``, ``enc_key``, ``dataset`` or ``custom_func``,
            or a forward that cannot be exported (it runs hooks, assigns in place, switches
            grad mode, reads tensor values in Python, or gives an op a parameter that cannot
            be written to a file): the message says which.
    """
    where = 'export'
    if not callable(net):
        raise TypeError(f"{where}: net must be a Cell or a function, got {type(net).__name__}")
    path = _export_path(file_name, file_format)
    _check_export_kwargs(kwargs)
    _check_inputs(inputs, [])
    tensor_inputs = []
    _flat_tensors(inputs, tensor_inputs)
    states = _predict_mode(net)
    try:
        recorder, result = _trace(net, inputs, tensor_inputs)
    finally:
        _restore_modes(states)
    program, arrays = _program(recorder, result, tensor_inputs)
    records = program['tensors']
    for rec in records:
        rec['crc32'] = _crc32(arrays[rec['name']])
    metadata = {'format': FORMAT, 'version': VERSION, 'program': json.dumps(program)}
    payload = _safetensors().numpy.save(
        {name: a if a.flags.c_contiguous else a.copy(order='C') for name, a in arrays.items()},
        metadata=metadata)
    _write_atomic(path, payload)


def _export_path(file_name, file_format):
    if not isinstance(file_format, str):
        raise TypeError(f"export: file_format must be a str, got {type(file_format).__name__}")
    if file_format in _OTHER_FORMATS:
        raise ValueError(f"export: file_format '{file_format}' is not supported: hookgrad does "
                         f"not write {_OTHER_FORMATS[file_format]} files (MindIR, AIR and ONNX "
                         f"are out of its scope); use file_format='{FILE_FORMAT}', hookgrad's "
                         f"own format, which ms.load reads back (docs/checkpoints.md)")
    if file_format != FILE_FORMAT:
        raise ValueError(f"export: file_format must be '{FILE_FORMAT}' (hookgrad's format), got "
                         f"'{file_format}'")
    path = os.fspath(file_name) if isinstance(file_name, os.PathLike) else file_name
    if not isinstance(path, str):
        raise TypeError(f"export: file_name must be a str or path-like, got "
                        f"{type(file_name).__name__}")
    if not path.endswith(SUFFIX):
        path += SUFFIX
    path = os.path.abspath(path)
    if os.path.isdir(path):
        raise IsADirectoryError(f"export: '{path}' is a directory, expected a file name")
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"export: the directory '{directory}' of '{path}' does not "
                                f"exist")
    return path


def _check_export_kwargs(kwargs):
    for key, value in kwargs.items():
        if key not in _EXPORT_KWARGS:
            raise TypeError(f"export: unexpected keyword argument '{key}' (accepted: "
                            f"{', '.join(_EXPORT_KWARGS)})")
    if kwargs.get('enc_key') is not None:
        raise ValueError("export: encryption is not supported (enc_key must be None)")
    if not isinstance(kwargs.get('enc_mode', 'AES-GCM'), str):
        raise TypeError(f"export: enc_mode must be a str, got "
                        f"{type(kwargs['enc_mode']).__name__}")
    if not isinstance(kwargs.get('incremental', False), bool):
        raise TypeError(f"export: incremental must be a bool, got {kwargs['incremental']!r}")
    if kwargs.get('dataset') is not None:
        raise ValueError("export: dataset is not supported: a hookgrad export holds the "
                         "network only, not data preprocessing")
    if kwargs.get('custom_func') is not None:
        raise ValueError("export: custom_func is not supported: it edits a MindIR proto, "
                         "which hookgrad does not write")


def _check_inputs(value, path):
    """Tensors are the program's inputs; numbers, str and None are fixed in it."""
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            _check_inputs(v, path + [i])
        return
    if value is None or isinstance(value, (Tensor, bool, int, float, str)):
        return
    where = ''.join(f'[{i}]' for i in path)
    raise TypeError(f"export: inputs{where} must be a Tensor, a number, a str, None, or a "
                    f"tuple/list of them, got {type(value).__name__}")


def _flat_tensors(value, out):
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _flat_tensors(v, out)


def _predict_mode(net):
    """Put ``net`` in predict mode; returns what ``_restore_modes`` needs to undo it."""
    if not isinstance(net, Cell):
        return []
    states = [(cell, cell.training) for _, cell in net.cells_and_names()]
    net.set_train(False)
    return states


def _restore_modes(states):
    for cell, training in states:   # parents come first: a parent's set_train reaches its
        if cell.training != training:   # children, which are then set right themselves
            cell.set_train(training)


def _trace(net, inputs, tensor_inputs):
    from ..jit.recorder import Recorder
    recorder = Recorder()
    for i, t in enumerate(tensor_inputs):
        recorder.argument(t, i)
    with no_grad():
        recorder.enable()
        try:
            result = net(*inputs)
        finally:
            recorder.disable()
    if recorder.failure is not None:
        why, where = recorder.failure
        place = f" (at {where[0]}:{where[1]})" if where else ''
        raise NotExportable(f"export: the forward cannot be exported: {why}{place}")
    return recorder, result


def _program(recorder, result, tensor_inputs):
    """The JSON program and the arrays of the recorded call."""
    from ..jit.program import DetachStep, EffectStep, GradModeStep, OpStep
    arrays = {}
    outputs = recorder.template(result)     # first: it gives returned constants their slots
    steps = []
    for step in recorder.steps:
        if type(step) is OpStep:
            _check_registered(step.op)
            params = {k: _encode(v, arrays, f"op '{step.op.name}' parameter '{k}'")
                      for k, v in step.params.items()}
            steps.append({'op': step.op.name, 'in': list(step.ins), 'out': list(step.outs),
                          'params': params})
        elif type(step) is DetachStep:
            steps.append({'detach': step.src, 'out': step.dst})
        elif type(step) is EffectStep:
            raise NotExportable(f"export: the forward cannot be exported: it runs "
                                f"{_effect_name(step.fn)}, which an exported program does not "
                                f"replay; remove hooks and in-place updates from the "
                                f"predict-mode forward")
        elif type(step) is GradModeStep:
            raise NotExportable("export: the forward cannot be exported: it switches grad mode "
                                "(no_grad / enable_grad), which an exported program does not "
                                "replay")
        if getattr(step, 'reload', ()):
            raise NotExportable("export: the forward cannot be exported: it replaces the data "
                                "of a tensor it reads (set_data, a moving statistic), which an "
                                "exported program does not replay")
    tensors = []
    names = {}
    for slot, t in recorder.externals:
        if isinstance(t, Parameter):
            name = t.name if t.name is not None else f'parameter.{slot}'
            kind = 'parameter'
        else:
            name, kind = f'constant.{slot}', 'constant'
        if name == _RESERVED:
            raise ValueError(f"export: the name '{_RESERVED}' is reserved by the file format")
        if names.get(name, t) is not t:
            raise ValueError(f"export: two different Parameters are named '{name}'; names must "
                             f"be unique")
        names[name] = t
        arrays[name] = np.asarray(t._data)
        tensors.append({'slot': slot, 'name': name, 'kind': kind, 'dtype': t.dtype.name,
                        'requires_grad': bool(t.requires_grad)})
    positions = {}
    for slot, position, _ in recorder.args:
        positions.setdefault(position, slot)
    return {
        'slots': len(recorder.arrays),
        'inputs': [{'slot': positions[i], 'shape': list(t.shape), 'dtype': t.dtype.name}
                   for i, t in enumerate(tensor_inputs)],
        'tensors': tensors,
        'steps': steps,
        'outputs': _output_template(outputs, arrays),
    }, arrays


def _effect_name(fn):
    """What an effect step does, for the message."""
    qualname = getattr(fn, '__qualname__', type(fn).__name__)
    full = f"'{getattr(fn, '__module__', '?')}.{qualname}'"
    if 'hook' in qualname.lower():
        return f"a hook ({full})"
    if 'assign' in qualname or qualname == '_write':
        return f"an in-place assignment ({full})"
    return f"an effect, a change of state outside ops ({full})"


def _check_registered(op):
    if OPS.get(op.name) is not op:
        raise NotExportable(f"export: op '{op.name}' ({op.__module__}.{op.__qualname__}) is not "
                            f"the op registered under its name; a file names ops by name")


def _output_template(template, arrays):
    from ..jit.program import Const, Mapping, Seq, TensorAt
    kind = type(template)
    if kind is TensorAt:
        return {'slot': template.slot}
    if kind is Seq:
        items = [_output_template(t, arrays) for t in template.items]
        if template.kind is tuple:
            return {'tuple': items}
        if template.kind is list:
            return items
        raise NotExportable(f"export: the forward returns a {template.kind.__name__}; an "
                            f"exported program returns Tensors in tuples, lists and dicts")
    if kind is Mapping:
        if not all(isinstance(k, str) for k in template.keys):
            raise NotExportable("export: the forward returns a dict with keys that are not str")
        return {'dict': {k: _output_template(t, arrays)
                         for k, t in zip(template.keys, template.items)}}
    if kind is Const:
        return {'const': _encode(template.value, arrays, 'the output')}
    raise NotExportable("export: the forward returns a value that is not a Tensor, a constant "
                        "or a tuple, list or dict of them")


# ----------------------------------------------------------------- the parameter codec
def _encode(value, arrays, what):
    """``value`` as JSON: plain JSON values as they are, everything else tagged in a
    one-key object; arrays go to ``arrays`` (the file's tensors) under a new name."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else {'float': repr(float(value))}
    if type(value) is list:
        return [_encode(v, arrays, what) for v in value]
    if type(value) is tuple:
        return {'tuple': [_encode(v, arrays, what) for v in value]}
    if type(value) is dict and all(isinstance(k, str) for k in value):
        return {'dict': {k: _encode(v, arrays, what) for k, v in value.items()}}
    if isinstance(value, slice):
        return {'slice': [_encode(v, arrays, what) for v in (value.start, value.stop,
                                                               value.step)]}
    if value is Ellipsis:
        return {'ellipsis': None}
    if isinstance(value, KeyInput):
        return {'key_input': value.i}
    if isinstance(value, _dtype.DType):
        return {'dtype': value.name}
    if isinstance(value, np.dtype):
        return {'numpy_dtype': value.str}
    if isinstance(value, type) and issubclass(value, np.generic):
        return {'numpy_dtype': np.dtype(value).str}
    if isinstance(value, np.generic) and value.dtype.kind in 'biufV':
        return {'numpy_scalar': [_encode(value.item(), arrays, what), value.dtype.str]}
    if isinstance(value, np.ndarray) and arrays is not None and value.dtype.kind in 'biufV':
        name = f'array.{len(arrays)}'
        arrays[name] = np.asarray(value)
        return {'array': name}
    raise NotExportable(f"export: the forward cannot be exported: {what} is a "
                        f"{type(value).__name__} ({value!r:.60}), which cannot be written to a "
                        f"file")


def _decode(value, arrays):
    if isinstance(value, list):
        return [_decode(v, arrays) for v in value]
    if not isinstance(value, dict):
        return value
    (tag, body), = value.items()
    if tag == 'tuple':
        return tuple(_decode(v, arrays) for v in body)
    if tag == 'dict':
        return {k: _decode(v, arrays) for k, v in body.items()}
    if tag == 'float':
        return float(body)
    if tag == 'slice':
        return slice(*(_decode(v, arrays) for v in body))
    if tag == 'ellipsis':
        return Ellipsis
    if tag == 'key_input':
        return KeyInput(body)
    if tag == 'dtype':
        return _dtype.to_dtype(body)
    if tag == 'numpy_dtype':
        return np.dtype(body)
    if tag == 'numpy_scalar':
        return np.dtype(body[1]).type(_decode(body[0], arrays))
    if tag == 'array':
        return arrays[body]
    raise ValueError(f"unknown tag {tag!r}")


from .graph_cell import FuncGraph, GraphCell, load  # noqa: E402,F401
