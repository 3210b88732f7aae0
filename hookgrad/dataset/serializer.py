"""``serialize`` / ``deserialize`` / ``show`` / ``compare``: a pipeline as MindSpore's JSON
description (``mindspore.dataset.serialize``).

Each node is a dict with ``op_type`` and ``children``: the operations use MindSpore's names and
keys (``Batch``: ``batch_size``, ``drop_remainder``; ``Map``: ``input_columns``,
``output_columns``, ``operations``; ``Shuffle``, ``Repeat``, ``Take``, ``Skip``, ``Project``,
``Rename``, ``Zip``...), a source is its class name with its constructor arguments and its
``sampler``. A map operation from ``hookgrad.dataset.transforms`` / ``vision`` / ``text`` is
``{"tensor_op_name", "tensor_op_params"}``. Python code (a ``GeneratorDataset``'s source, a
lambda, ``per_batch_map``) is described by name only, as MindSpore does; ``deserialize`` of
such a pipeline raises, naming the node.
"""
import enum
import inspect
import json
import logging
import numbers
import os

import numpy as np

from . import samplers as _samplers
from .combine import SyncWaitDataset, ZipDataset
from .engine import Dataset
from .schema import Schema
from .pipeline import (BatchDataset, MapDataset, ProjectDataset, RenameDataset, RepeatDataset,
                       ShuffleDataset, SkipDataset, TakeDataset)

__all__ = ['serialize', 'deserialize', 'show', 'compare']

_QUEUE = 16     # MindSpore's connector_queue_size, written for its readers
_SAMPLING = ('sampler', 'shuffle', 'num_shards', 'shard_id', 'num_samples')
_PYTHON = 'python_module'
logger = logging.getLogger('hookgrad.dataset')


def _plain(value, where):
    """``value`` as JSON data, or raise TypeError naming ``where``."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return {'enum': type(value).__name__, 'name': value.name}
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, np.ndarray) and value.dtype.kind in 'biufV':
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v, where) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: _plain(v, where) for k, v in value.items()}
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, Schema):
        return {'schema': json.loads(value.to_json())}
    raise TypeError(f"{where} is a {type(value).__name__}, which JSON cannot hold")


def _arguments(obj, skip=()):
    """``{parameter: value}`` of ``obj``'s constructor, read from the recorded call or from
    attributes of the same names; None when a parameter cannot be found."""
    recorded = getattr(obj, '_init_call', None)
    if recorded is not None:
        return {k: v for k, v in recorded.items() if k not in skip}
    out = {}
    for name, p in inspect.signature(type(obj).__init__).parameters.items():
        if name == 'self' or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or name in skip:
            continue
        if hasattr(obj, name):
            out[name] = getattr(obj, name)
        elif p.default is p.empty:
            return None
    return out


def _sampler_json(sampler):
    if sampler is None:
        return None
    params = _arguments(sampler) or {}
    out = {'sampler_name': type(sampler).__name__}
    for k, v in params.items():
        out[k] = _plain(v, f"{type(sampler).__name__}.{k}")
    if out.get('num_samples') is None and 'num_samples' in params:
        out['num_samples'] = 0          # MindSpore writes 0 for "all"
    return out


def _operation_json(op):
    name = getattr(op, '__name__', type(op).__name__)
    module = type(op).__module__
    if module.startswith('hookgrad.dataset.') and not inspect.isfunction(op):
        params = _arguments(op)
        if params is not None:
            try:
                return {'tensor_op_name': type(op).__name__,
                        'tensor_op_params': {k: _plain(v, f"{type(op).__name__}.{k}")
                                             for k, v in params.items()}}
            except TypeError:
                pass
    return {_PYTHON: getattr(op, '__module__', module), 'tensor_op_name': name}


def _node_json(node):
    kids = [_node_json(c) for c in node.children]
    if isinstance(node, BatchDataset):
        out = {'batch_size': node.batch_size, 'drop_remainder': node.drop_remainder,
               'input_columns': [], 'output_columns': [], 'op_type': 'Batch',
               'num_parallel_workers': node._workers or 1, 'connector_queue_size': _QUEUE}
        if node.per_batch_map is not None:
            out['per_batch_map'] = _operation_json(node.per_batch_map)
            out['input_columns'] = [node.children[0].get_col_names()[i]
                                    for i in node._layout[0]]
            out['output_columns'] = list(node._layout[1])
    elif isinstance(node, MapDataset):
        names = node.children[0].get_col_names()
        out = {'callback': [], 'op_type': 'Map', 'connector_queue_size': _QUEUE,
               'input_columns': [names[i] for i in node._in_idx],
               'output_columns': list(node._outs),
               'num_parallel_workers': node.num_parallel_workers or 1,
               'operations': [_operation_json(op) for op in node.operations]}
    elif isinstance(node, ShuffleDataset):
        out = {'buffer_size': node.buffer_size, 'op_type': 'Shuffle', 'reset_each_epoch': True}
    elif isinstance(node, (RepeatDataset, TakeDataset, SkipDataset)):
        out = {'count': node.count, 'op_type': type(node).__name__[:-len('Dataset')]}
    elif isinstance(node, ProjectDataset):
        out = {'columns': list(node._names), 'op_type': 'Project'}
    elif isinstance(node, RenameDataset):
        before = node.children[0].get_col_names()
        changed = [i for i, (a, b) in enumerate(zip(before, node._names)) if a != b]
        out = {'input_columns': [before[i] for i in changed],
               'output_columns': [node._names[i] for i in changed], 'op_type': 'Rename'}
    elif isinstance(node, ZipDataset):
        out = {'op_type': 'Zip', 'num_parallel_workers': 1, 'connector_queue_size': _QUEUE}
    elif isinstance(node, SyncWaitDataset):
        out = {'op_type': 'SyncWait', 'condition_name': node.condition_name,
               'num_batch': node.num_batch}
        if node.callback is not None:
            out['callback'] = _operation_json(node.callback)
    elif not node.children:
        out = _source_json(node)
    else:
        raise TypeError(f"serialize: {type(node).__name__} nodes have no JSON description")
    out['children'] = kids
    return out


def _source_json(node):
    name = type(node).__name__
    out = {'op_type': name, 'connector_queue_size': _QUEUE}
    params = _arguments(node, skip=_SAMPLING)
    python = params is None
    for k, v in (params or {}).items():
        try:
            out[k] = _plain(v, f"{name}.{k}")
        except TypeError:
            python = True           # data or code held in Python: described by name only
    if python:
        out = {'op_type': name, 'connector_queue_size': _QUEUE, _PYTHON: type(node).__module__}
    if out.get('num_parallel_workers') is None and not python:
        out['num_parallel_workers'] = 1
    sampler = getattr(node, '_sampler', None)
    if sampler is not None:
        out['sampler'] = _sampler_json(sampler)
    return out


def serialize(dataset, json_filepath=""):
    """The pipeline ending at ``dataset`` as MindSpore's JSON description (a dict), also
    written to ``json_filepath`` when it is not empty.

    Raises:
        TypeError: for something other than a Dataset, or a node with no description.
        OSError: when the file cannot be written.

    >>> import hookgrad as ms
    >>> ds = ms.dataset.RandomDataset(total_rows=4, shuffle=False).repeat(2)
    >>> d = ms.dataset.serialize(ds)
    >>> d['op_type'], d['count'], d['children'][0]['op_type']
    ('Repeat', 2, 'RandomDataset')
    """
    if not isinstance(dataset, Dataset):
        raise TypeError(f"serialize: dataset must be a Dataset, got {type(dataset).__name__}")
    if not isinstance(json_filepath, (str, os.PathLike)):
        raise TypeError(f"serialize: json_filepath must be a str, got {json_filepath!r}")
    out = _node_json(dataset)
    if json_filepath:
        with open(json_filepath, 'w') as f:
            json.dump(out, f, indent=2)
    return out


def show(dataset, indentation=2):
    """Log the pipeline's JSON description at INFO level (logger ``hookgrad.dataset``).

    Raises:
        TypeError: as ``serialize``, or for an ``indentation`` that is not None or an int.
    """
    if indentation is not None and (isinstance(indentation, bool) or
                                    not isinstance(indentation, int)):
        raise TypeError(f"show: indentation must be an int or None, got {indentation!r}")
    logger.info(json.dumps(serialize(dataset), indent=indentation))


def compare(pipeline1, pipeline2):
    """Whether two pipelines have the same JSON description."""
    return serialize(pipeline1) == serialize(pipeline2)


# ----------------------------------------------------------------------------- deserialize
def _decode(value, namespace):
    if isinstance(value, dict) and set(value) == {'enum', 'name'}:
        kind = getattr(namespace, value['enum'], None)
        if kind is None:
            raise ValueError(f"deserialize: unknown enum {value['enum']}")
        return kind[value['name']]
    if isinstance(value, dict) and set(value) == {'schema'}:
        schema = Schema()
        schema.from_json(value['schema'])
        return schema
    if isinstance(value, list):
        return [_decode(v, namespace) for v in value]
    return value


def _build(cls, params, where, namespace):
    """``cls(**params)``, keeping the parameters its constructor takes."""
    names = inspect.signature(cls.__init__).parameters
    kwargs = {k: _decode(v, namespace) for k, v in params.items() if k in names}
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as e:
        raise ValueError(f"deserialize: cannot rebuild {where}: {e}") from None


def _python_error(where, node):
    raise ValueError(f"deserialize: {where} holds Python code or data "
                     f"({node.get('tensor_op_name', node.get('op_type'))} from "
                     f"{node[_PYTHON]}), which a JSON description does not carry")


def _operation(op):
    from . import text, transforms, vision
    if _PYTHON in op:
        _python_error('a map operation', op)
    name = op.get('tensor_op_name')
    for namespace in (transforms, vision, text):
        cls = getattr(namespace, name, None)
        if isinstance(cls, type):
            return _build(cls, op.get('tensor_op_params', {}), name, namespace)
    raise ValueError(f"deserialize: unknown map operation {name!r}")


def _sampler(spec):
    if spec is None:
        return None
    name = spec.get('sampler_name')
    from . import class_sampler
    cls = getattr(_samplers, name, None) or getattr(class_sampler, name, None)
    if not isinstance(cls, type):
        raise ValueError(f"deserialize: unknown sampler {name!r}")
    params = dict(spec)
    if params.get('num_samples') == 0:
        params['num_samples'] = None
    return _build(cls, params, name, _samplers)


def _node(spec):
    from .. import dataset as package
    if not isinstance(spec, dict) or 'op_type' not in spec:
        raise ValueError(f"deserialize: a node must be a dict with 'op_type', got {spec!r}")
    kind = spec['op_type']
    kids = [_node(c) for c in spec.get('children', [])]
    simple = {'Shuffle': lambda c: c.shuffle(spec['buffer_size']),
              'Repeat': lambda c: c.repeat(spec['count']),
              'Take': lambda c: c.take(spec['count']),
              'Skip': lambda c: c.skip(spec['count']),
              'Project': lambda c: c.project(spec['columns']),
              'Rename': lambda c: c.rename(spec['input_columns'], spec['output_columns'])}
    if kind in simple:
        return simple[kind](kids[0])
    if kind == 'Batch':
        if 'per_batch_map' in spec:
            _python_error('a batch', spec['per_batch_map'])
        return kids[0].batch(spec['batch_size'], spec.get('drop_remainder', False))
    if kind == 'Map':
        workers = spec.get('num_parallel_workers')
        return kids[0].map([_operation(op) for op in spec['operations']],
                           spec.get('input_columns') or None,
                           spec.get('output_columns') or None, workers)
    if kind == 'Zip':
        return ZipDataset(tuple(kids))
    if kind == 'SyncWait':
        if 'callback' in spec:
            _python_error('a sync_wait', spec['callback'])
        return kids[0].sync_wait(spec['condition_name'], spec.get('num_batch', 1))
    cls = getattr(package, kind, None)
    if not (isinstance(cls, type) and issubclass(cls, Dataset)) or kids:
        raise ValueError(f"deserialize: unknown op_type {kind!r}")
    if _PYTHON in spec:
        _python_error(f"the source {kind}", spec)
    params = {k: v for k, v in spec.items()
              if k not in ('op_type', 'children', 'sampler', 'connector_queue_size')}
    sampler = _sampler(spec.get('sampler'))
    if 'sampler' in inspect.signature(cls.__init__).parameters:
        params['sampler'] = sampler
    elif sampler is not None:           # a source taking shuffle / shards, not a sampler
        params.update(_sampling_arguments(sampler, kind))
    return _build(cls, params, kind, package)


def _sampling_arguments(sampler, kind):
    """The ``shuffle`` / ``num_shards`` / ``num_samples`` arguments giving ``sampler``."""
    out = {'num_samples': sampler.num_samples}
    if isinstance(sampler, _samplers.DistributedSampler):
        out.update(num_shards=sampler.num_shards, shard_id=sampler.shard_id,
                   shuffle=sampler.shuffle)
    elif type(sampler) in (_samplers.RandomSampler, _samplers.SequentialSampler) and \
            not getattr(sampler, 'replacement', False) and \
            not getattr(sampler, 'start_index', 0):
        out['shuffle'] = isinstance(sampler, _samplers.RandomSampler)
    else:
        raise ValueError(f"deserialize: {kind} takes no sampler, and its "
                         f"{type(sampler).__name__} has no shuffle/num_shards equivalent")
    return out


def deserialize(input_dict=None, json_filepath=None):
    """The pipeline a ``serialize`` description (a dict, or a JSON file) describes.

    Returns:
        Dataset, or None when neither argument is given.

    Raises:
        OSError: when the file cannot be read.
        ValueError: for an unknown node, operation or sampler, or one that holds Python code
            or data (a ``GeneratorDataset``, a lambda), which the description does not carry.
    """
    spec = None
    if input_dict:
        spec = input_dict
    if json_filepath:
        with open(json_filepath) as f:
            spec = json.load(f)
    return None if spec is None else _node(spec)
