"""``load``, ``FuncGraph`` and ``GraphCell``: replaying a file that ``export`` wrote.

A replay applies each recorded primitive op, by its registered name, to Tensors (op dispatch
as usual), so hooks, observers, graph mode and gradients see a loaded network like any other.
"""
import json
import os

from .. import _dtype
from .._tensor import Tensor
from ..autograd.function import OPS
from ..checkpoint.files import _crc32, _library_call, _safetensors
from ..nn.cell import Cell
from ..nn.parameter import Parameter

__all__ = ['load', 'FuncGraph', 'GraphCell']


def load(file_name, **kwargs):
    """Read a file written by ``export`` (MindSpore's ``load``); wrap the result in
    ``GraphCell`` to run it as a Cell.

    Args:
        file_name: the path of a ``.hookgrad`` file.
        kwargs: ``dec_key`` must be None (no decryption); ``dec_mode`` a str. ``obf_func``
            (model obfuscation) is not supported.

    Returns:
        FuncGraph: the loaded program, with the network's Parameters.

    Raises:
        ValueError: for a ``file_name`` that is not a str or does not exist, or ``dec_key``.
        TypeError: for an unknown kwarg or a non-str ``dec_mode``.
        NotImplementedError: for ``obf_func``.
        RuntimeError: for a file that is not a hookgrad export (a MindIR file, say), is
            damaged, or names an op this hookgrad does not have.
    """
    from .graph_export import FORMAT, VERSION, _LOAD_KWARGS
    where = 'load'
    path = os.fspath(file_name) if isinstance(file_name, os.PathLike) else file_name
    if not isinstance(path, str):
        raise ValueError(f"{where}: file_name must be a str or path-like, got "
                         f"{type(file_name).__name__}")
    for key in kwargs:
        if key not in _LOAD_KWARGS:
            raise TypeError(f"{where}: unexpected keyword argument '{key}' (accepted: "
                            f"{', '.join(_LOAD_KWARGS)})")
    if kwargs.get('dec_key') is not None:
        raise ValueError(f"{where}: decryption is not supported (dec_key must be None)")
    if not isinstance(kwargs.get('dec_mode', 'AES-GCM'), str):
        raise TypeError(f"{where}: dec_mode must be a str, got "
                        f"{type(kwargs['dec_mode']).__name__}")
    if kwargs.get('obf_func') is not None:
        raise NotImplementedError(f"{where}: model obfuscation (obf_func) is not supported")
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"{where}: the file '{path}' does not exist")
    safetensors = _safetensors()

    def bad(what):
        return RuntimeError(f"{where}: '{path}' {what}")

    try:
        with _library_call(lambda: safetensors.safe_open(path, 'numpy'), path) as f:
            metadata = _library_call(f.metadata, path) or {}
            names = set(_library_call(f.keys, path))
            if metadata.get('format') != FORMAT:
                raise bad("is not a network exported by hookgrad (MindIR, AIR and ONNX files "
                          "are not read); export it with ms.export(net, *inputs, file_name=..., "
                          "file_format='HOOKGRAD')")
            arrays = {name: _library_call(lambda n=name: f.get_tensor(n), path)
                      for name in names}
    except ValueError as e:     # a damaged or foreign file: the library could not read it
        raise bad(f"is not a readable hookgrad export (damaged or another format): "
                  f"{e.__cause__ or e}") from e
    if metadata.get('version') != VERSION:
        raise bad(f"has export format version {metadata.get('version')!r}; this hookgrad reads "
                  f"version {VERSION!r}")
    try:
        program = json.loads(metadata.get('program', ''))
        return FuncGraph(program, arrays, path)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise bad(f"is damaged: {type(e).__name__}: {e}") from e


class FuncGraph:
    """A network loaded by ``load``: its recorded ops, inputs and Parameters.

    Call it with the Tensor inputs of the exported call (same shapes and dtypes), or wrap it
    in ``GraphCell``. Unlike MindSpore's FuncGraph it is callable itself.

    Attributes:
        parameters: ``{name: Parameter}``, the network's Parameters (shared by every
            ``GraphCell`` of this graph).
        inputs: ``[(shape, dtype)]`` of the Tensor inputs it was exported for.
        file_name: the file it was read from.
    """

    def __init__(self, program, arrays, file_name):
        from .graph_export import _decode
        self.file_name = file_name
        self._n_slots = int(program['slots'])
        self.inputs = [(tuple(i['shape']), _dtype.to_dtype(i['dtype']))
                       for i in program['inputs']]
        self._input_slots = [int(i['slot']) for i in program['inputs']]
        self.parameters = {}
        self._tensors = []
        for rec in program['tensors']:
            arr = arrays[rec['name']]
            if _dtype.to_dtype(rec['dtype']).np_dtype != arr.dtype or \
                    _crc32(arr) != rec['crc32']:
                raise ValueError(f"tensor '{rec['name']}' does not match its record (dtype "
                                 f"{rec['dtype']}, CRC32)")
            if rec['kind'] == 'parameter':
                t = Parameter(arr, name=rec['name'], requires_grad=rec['requires_grad'])
                self.parameters[rec['name']] = t
            else:
                t = Tensor._wrap(arr)
            self._tensors.append((int(rec['slot']), t))
        self._steps = []
        for step in program['steps']:
            if 'detach' in step:
                self._steps.append((None, (step['detach'],), (step['out'],), {}))
                continue
            op = OPS.get(step['op'])
            if op is None:
                raise RuntimeError(f"load: '{file_name}' uses op '{step['op']}', which is not "
                                   f"registered in this hookgrad; import the module that "
                                   f"defines it before loading")
            params = {k: _decode(v, arrays) for k, v in step['params'].items()}
            self._steps.append((op, tuple(step['in']), tuple(step['out']), params))
        self._outputs = program['outputs']
        self._decode_output = lambda v: _decode(v, arrays)
        self._dead = _last_reads(self._steps, self._outputs)

    def __call__(self, *inputs):
        """Run the program on ``inputs`` (Tensors of the exported shapes and dtypes).

        Raises:
            TypeError: for an input that is not a Tensor.
            ValueError: for another number of inputs, or another shape or dtype.
        """
        self._check(inputs)
        slots = [None] * self._n_slots
        for slot, t in zip(self._input_slots, inputs):
            if slots[slot] is None:
                slots[slot] = t
        for slot, t in self._tensors:
            slots[slot] = t
        for (op, ins, outs, params), dead in zip(self._steps, self._dead):
            if op is None:
                slots[outs[0]] = slots[ins[0]].detach()
            else:
                ys = op.apply(*[slots[i] for i in ins], **params)
                if type(ys) is not tuple:
                    ys = (ys,)
                for slot, y in zip(outs, ys):
                    slots[slot] = y
            for slot in dead:
                slots[slot] = None
        return self._build(self._outputs, slots)

    def _check(self, inputs):
        n = len(self.inputs)
        if len(inputs) != n:
            raise ValueError(f"GraphCell: the network was exported with {n} Tensor input"
                             f"{'s' if n != 1 else ''}, got {len(inputs)}")
        for i, (t, (shape, dtype)) in enumerate(zip(inputs, self.inputs)):
            if not isinstance(t, Tensor):
                raise TypeError(f"GraphCell: input {i} must be a Tensor, got "
                                f"{type(t).__name__}")
            if t.shape != shape or t.dtype != dtype:
                raise ValueError(f"GraphCell: input {i} has shape {t.shape} and dtype "
                                 f"{t.dtype}, but the network was exported for shape {shape} "
                                 f"and dtype {dtype}; export it again for other inputs")

    def _build(self, template, slots):
        if isinstance(template, list):
            return [self._build(t, slots) for t in template]
        (tag, body), = template.items()
        if tag == 'slot':
            return slots[body]
        if tag == 'tuple':
            return tuple(self._build(t, slots) for t in body)
        if tag == 'dict':
            return {k: self._build(t, slots) for k, t in body.items()}
        return self._decode_output(body)

    def __repr__(self):
        return (f"<FuncGraph '{os.path.basename(self.file_name)}': {len(self._steps)} ops, "
                f"{len(self.parameters)} parameters, inputs {self.inputs}>")


def _last_reads(steps, outputs):
    """Per step, the slots no later step nor the output reads (freed after it)."""
    kept = set()
    _output_slots(outputs, kept)
    last = {}
    for index, (_, ins, _, _) in enumerate(steps):
        for slot in ins:
            last[slot] = index
    dead = [[] for _ in steps]
    for slot, index in last.items():
        if slot not in kept:
            dead[index].append(slot)
    return dead


def _output_slots(template, out):
    if isinstance(template, list):
        for t in template:
            _output_slots(t, out)
        return
    (tag, body), = template.items()
    if tag == 'slot':
        out.add(body)
    elif tag == 'tuple':
        for t in body:
            _output_slots(t, out)
    elif tag == 'dict':
        for t in body.values():
            _output_slots(t, out)


class GraphCell(Cell):
    """A Cell that runs a network loaded by ``load`` (MindSpore's ``nn.GraphCell``).

    Its parameters are the graph's, under their exported names; it takes the Tensor inputs of
    the exported call, with the same shapes and dtypes.

    Args:
        graph: a ``FuncGraph`` from ``load``.
        params_init: ``{name: Tensor | Parameter}`` values for the graph's parameters of those
            names (names the graph lacks are ignored). Default None.
        obf_random_seed: must be None: model obfuscation is not supported.

    Raises:
        TypeError: for a ``graph`` that is not a FuncGraph, or a ``params_init`` that is not a
            dict of str to Tensor.
        ValueError: for a ``params_init`` value whose shape differs from its parameter's, or
            whose values do not fit its dtype (nothing is changed then).
        NotImplementedError: for ``obf_random_seed`` not None.
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__()
        if not isinstance(graph, FuncGraph):
            raise TypeError(f"GraphCell: graph must be a FuncGraph loaded by load, got "
                            f"{type(graph).__name__}")
        if obf_random_seed is not None:
            raise NotImplementedError("GraphCell: model obfuscation (obf_random_seed) is not "
                                      "supported")
        if params_init is not None:
            _init_params(graph, params_init)
        self.__dict__['graph'] = graph
        for name, param in graph.parameters.items():
            self.insert_param_to_cell(name, param, check_name_contain_dot=False)

    def construct(self, *inputs):
        return self.graph(*inputs)


def _init_params(graph, params_init):
    if not isinstance(params_init, dict):
        raise TypeError(f"GraphCell: params_init must be a dict, got "
                        f"{type(params_init).__name__}")
    for key, value in params_init.items():
        if not isinstance(key, str) or not isinstance(value, Tensor):
            raise TypeError(f"GraphCell: params_init must map str names to Tensors or "
                            f"Parameters, got {key!r}: {type(value).__name__}")
    updates = [(graph.parameters[k], v) for k, v in params_init.items() if k in graph.parameters]
    for param, value in updates:
        if value.shape != param.shape:
            raise ValueError(f"GraphCell: params_init['{param.name}'] has shape {value.shape}, "
                             f"the parameter {param.shape}")
        if value.dtype.is_floating and not param.dtype.is_floating:
            raise ValueError(f"GraphCell: params_init['{param.name}'] has dtype {value.dtype}, "
                             f"which does not fit the {param.dtype} parameter")
    for param, value in updates:
        param.set_data(value)
