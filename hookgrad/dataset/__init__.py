"""``hookgrad.dataset``: in-memory and Python-generated datasets with MindSpore's pipeline API.

``NumpySlicesDataset`` and ``GeneratorDataset`` are sources; ``batch``, ``shuffle``, ``map``,
``repeat``... build pipelines on them; ``create_tuple_iterator`` / ``create_dict_iterator`` (or a
plain ``for`` loop) read them as Tensors, one epoch per pass. Random order comes from the global
generator, so ``ms.set_seed`` makes it repeat.
"""
from .engine import Dataset, TupleIterator, DictIterator
from .samplers import (Sampler, SequentialSampler, RandomSampler, SubsetSampler,
                       SubsetRandomSampler, DistributedSampler)
from .sources import NumpySlicesDataset, GeneratorDataset

__all__ = ['Dataset', 'NumpySlicesDataset', 'GeneratorDataset', 'Sampler', 'SequentialSampler',
           'RandomSampler', 'SubsetSampler', 'SubsetRandomSampler', 'DistributedSampler',
           'TupleIterator', 'DictIterator']


from ..compat.names import reporter as _reporter  # noqa: E402
__getattr__ = _reporter('mindspore.dataset')
