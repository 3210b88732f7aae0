"""``hookgrad.dataset``: datasets with MindSpore's pipeline API.

Sources: ``NumpySlicesDataset`` (arrays), ``GeneratorDataset`` (Python code), ``PaddedDataset``
and ``FakeImageDataset`` (made in memory); standard datasets read from their files as MindSpore
reads them: ``MnistDataset``, ``FashionMnistDataset``, ``KMnistDataset``, ``EMnistDataset``,
``QMnistDataset``, ``USPSDataset``, ``Cifar10Dataset``, ``Cifar100Dataset``,
``ImageFolderDataset``, ``ManifestDataset``, ``CelebADataset``, ``VOCDataset``, ``CocoDataset``,
``OmniglotDataset``, ``Caltech256Dataset``, ``Food101Dataset``, ``SBUDataset``,
``FlickrDataset``, ``SUN397Dataset``, ``RenderedSST2Dataset``, ``SemeionDataset``,
``TextFileDataset``, ``CSVDataset`` and the text sets (``AGNewsDataset``,
``WikiTextDataset``, ``SQuADDataset``, ``CLUEDataset``, ``Multi30kDataset``, ``IWSLT2016Dataset``
...), the image sets of vision_sets.py and scene_sets.py (``STL10Dataset``, ``SVHNDataset``,
``LFWDataset``, ``CityscapesDataset``, ``KITTIDataset``...), the audio sets of
audio_sources.py (``YesNoDataset``, ``SpeechCommandsDataset``, ``TedliumDataset``...);
``MindDataset`` (hookgrad MindRecord files) and ``TFRecordDataset``
(``tf.train.Example`` records). ``PKSampler`` draws rows class by class. ``batch``, ``shuffle``,
``map``, ``repeat``... build pipelines on them; ``create_tuple_iterator`` /
``create_dict_iterator`` (or a plain ``for`` loop) read them as Tensors, one epoch per pass.
Random order comes from the global generator, so ``ms.set_seed`` makes it repeat.
``zip`` joins datasets column-wise; ``sync_wait`` / ``sync_update`` let training hold rows back;
``DSCallback`` / ``WaitedDSCallback`` (given to ``map``) follow the pipeline's epochs and steps;
``serialize`` / ``deserialize`` / ``show`` / ``compare`` use MindSpore's JSON description;
``RandomDataset`` makes random rows of a ``Schema``.
"""
from .engine import Dataset, TupleIterator, DictIterator
from .samplers import (Sampler, SequentialSampler, RandomSampler, SubsetSampler,
                       SubsetRandomSampler, DistributedSampler, WeightedRandomSampler)
from .callbacks import DSCallback
from .combine import zip  # noqa: A004  (MindSpore's name)
from .random_source import RandomDataset
from .serializer import serialize, deserialize, show, compare
from .cloud_sources import OBSMindDataset, sync_wait_for_dataset
from .audio_sources import (YesNoDataset, SpeechCommandsDataset, LJSpeechDataset,
                            CMUArcticDataset, GTZANDataset, LibriTTSDataset, TedliumDataset)
from .text_corpora import (SQuADDataset, CLUEDataset, Multi30kDataset, IWSLT2016Dataset,
                           IWSLT2017Dataset)
from .vision_sets import (STL10Dataset, SVHNDataset, Caltech101Dataset, Flowers102Dataset,
                          LFWDataset, Places365Dataset, DIV2KDataset, PhotoTourDataset)
from .scene_sets import (CityscapesDataset, KITTIDataset, WIDERFaceDataset, SBDataset,
                         LSUNDataset)
from .sources import NumpySlicesDataset, GeneratorDataset
from .file_sources import Cifar10Dataset, Cifar100Dataset
from .image_folder import ImageFolderDataset
from .idx_sources import MnistDataset, FashionMnistDataset, KMnistDataset, EMnistDataset, QMnistDataset
from .text_sources import TextFileDataset, CSVDataset, USPSDataset
from .text_sets import (AGNewsDataset, AmazonReviewDataset, DBpediaDataset, SogouNewsDataset,
                        YahooAnswersDataset, YelpReviewDataset, PennTreebankDataset,
                        WikiTextDataset, SST2Dataset, EnWik9Dataset, CoNLL2000Dataset,
                        UDPOSDataset, IMDBDataset)
from .class_sampler import PKSampler
from .synthetic_sources import PaddedDataset, FakeImageDataset
from .manifest import ManifestDataset
from .detection_sources import VOCDataset, CocoDataset
from .celeba import CelebADataset
from .image_sets import (OmniglotDataset, Caltech256Dataset, Food101Dataset, SBUDataset,
                         SemeionDataset, FlickrDataset, SUN397Dataset, RenderedSST2Dataset)
from .mind_dataset import MindDataset
from .tfrecord import TFRecordDataset, Shuffle
from .schema import Schema
from .cache import DatasetCache
from .pipeline import BatchInfo
from . import config
from . import vision, transforms, text  # noqa: E402  (mindspore.dataset.vision / ...)

__all__ = ['Dataset', 'NumpySlicesDataset', 'GeneratorDataset', 'MnistDataset',
           'Cifar10Dataset', 'Cifar100Dataset', 'ImageFolderDataset', 'MindDataset',
           'TFRecordDataset', 'Shuffle', 'Schema', 'DatasetCache', 'Sampler',
           'SequentialSampler', 'RandomSampler', 'SubsetSampler', 'SubsetRandomSampler',
           'DistributedSampler', 'TupleIterator', 'DictIterator', 'BatchInfo', 'config',
           'FashionMnistDataset', 'KMnistDataset', 'EMnistDataset', 'TextFileDataset',
           'CSVDataset', 'PKSampler', 'PaddedDataset', 'FakeImageDataset',
           'ManifestDataset', 'VOCDataset', 'CocoDataset', 'CelebADataset',
           'QMnistDataset', 'USPSDataset', 'OmniglotDataset', 'Caltech256Dataset',
           'Food101Dataset', 'SBUDataset', 'SemeionDataset', 'AGNewsDataset',
           'AmazonReviewDataset', 'DBpediaDataset', 'SogouNewsDataset', 'YahooAnswersDataset',
           'YelpReviewDataset', 'PennTreebankDataset', 'WikiTextDataset', 'SST2Dataset',
           'EnWik9Dataset', 'CoNLL2000Dataset', 'UDPOSDataset', 'IMDBDataset', 'FlickrDataset',
           'SUN397Dataset', 'RenderedSST2Dataset', 'WeightedRandomSampler', 'DSCallback',
           'WaitedDSCallback', 'RandomDataset', 'zip', 'serialize', 'deserialize', 'show',
           'compare', 'OBSMindDataset', 'sync_wait_for_dataset', 'YesNoDataset',
           'SpeechCommandsDataset', 'LJSpeechDataset', 'CMUArcticDataset', 'GTZANDataset',
           'LibriTTSDataset', 'SQuADDataset', 'CLUEDataset', 'Multi30kDataset',
           'IWSLT2016Dataset', 'IWSLT2017Dataset', 'STL10Dataset', 'SVHNDataset',
           'Caltech101Dataset', 'Flowers102Dataset', 'LFWDataset', 'Places365Dataset',
           'DIV2KDataset', 'PhotoTourDataset', 'CityscapesDataset', 'KITTIDataset',
           'WIDERFaceDataset', 'SBDataset', 'TedliumDataset', 'LSUNDataset']


from ..compat.names import reporter as _reporter  # noqa: E402
_report = _reporter('mindspore.dataset')


def __getattr__(name):
    # WaitedDSCallback is also a training Callback, so it lives in hookgrad.train
    if name == 'WaitedDSCallback':
        from ..train.dataset_sync import WaitedDSCallback
        return WaitedDSCallback
    return _report(name)
