"""SentencePiece subword models (MindSpore's ``text.SentencePieceVocab`` and
``text.SentencePieceTokenizer``), trained and applied by the ``sentencepiece`` package
(``pip install hookgrad[text]``), which is imported only when they are used.

Trainer arguments are passed as MindSpore passes them (``params`` add to or override the
others, except ``input``, ``vocab_size``, ``model_prefix``, ``character_coverage`` and
``model_type``).
"""
import enum
import io
import os

import numpy as np

from ..transforms import _checks
from ..transforms.transforms import TensorOperation

__all__ = ['SentencePieceModel', 'SentencePieceVocab', 'SentencePieceTokenizer',
           'SPieceTokenizerLoadType', 'SPieceTokenizerOutType']

_FIXED_TRAINER_ARGS = ('input', 'vocab_size', 'model_prefix', 'character_coverage',
                       'model_type')


class SentencePieceModel(enum.IntEnum):
    """The subword algorithm a ``SentencePieceVocab`` is trained with."""
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerLoadType(enum.IntEnum):
    """Where a SentencePiece model comes from: a file or a ``SentencePieceVocab``."""
    FILE = 0
    MODEL = 1


class SPieceTokenizerOutType(enum.IntEnum):
    """What ``SentencePieceTokenizer`` returns: the pieces or their ids."""
    STRING = 0
    INT = 1


def _sentencepiece():
    try:
        import sentencepiece
    except ImportError:
        raise ImportError("SentencePieceVocab and SentencePieceTokenizer need the "
                          "'sentencepiece' package: pip install hookgrad[text]") from None
    return sentencepiece


def _check_training_args(vocab_size, character_coverage, model_type, params, who):
    _checks.type_check(vocab_size, (int,), 'vocab_size')
    _checks.in_range(vocab_size, 0, 4294967295, 'vocab_size')
    _checks.type_check(character_coverage, (float,), 'character_coverage')
    _checks.type_check(model_type, (str, SentencePieceModel), 'model_type')
    if not isinstance(model_type, SentencePieceModel):
        raise TypeError(f"{who}(): incompatible function arguments: model_type should be a "
                        f"SentencePieceModel, got {model_type!r}.")
    _checks.type_check(params, (dict,), 'params')


def _train(vocab_size, character_coverage, model_type, params, **source):
    """The serialized model trained from ``source`` (``input`` or ``sentence_iterator``)."""
    args = {'vocab_size': vocab_size, 'model_prefix': '', 'minloglevel': 1,
            # MindSpore writes the coverage with six decimals
            'character_coverage': f'{character_coverage:.6f}',
            'model_type': model_type.name}
    args.update((k, v) for k, v in params.items() if k not in _FIXED_TRAINER_ARGS)
    model = io.BytesIO()
    try:
        _sentencepiece().SentencePieceTrainer.train(model_writer=model, **source, **args)
    except (RuntimeError, OSError) as e:
        raise RuntimeError(f"SentencePieceVocab: {e}") from None
    vocab = SentencePieceVocab()
    vocab._model = model.getvalue()
    return vocab


class SentencePieceVocab:
    """A trained SentencePiece model, built with ``from_file`` or ``from_dataset`` and saved
    with ``save_model``."""

    def __init__(self):
        self._model = None

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type,
                     params):
        """Train on the strings of ``col_names`` of ``dataset`` (one epoch)."""
        if col_names is not None:
            _checks.type_check(col_names, (list, tuple), 'col_names')
            for name in col_names:
                _checks.type_check(name, (str,), 'col_names')
        if vocab_size is None:
            raise TypeError("vocab_size must be provided.")
        _check_training_args(vocab_size, character_coverage, model_type, params, 'from_dataset')
        columns = list(col_names) if col_names else dataset.get_col_names()

        def sentences():
            for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
                for col in columns:
                    for s in np.asarray(row[col]).ravel().tolist():
                        yield s.decode('utf-8') if isinstance(s, bytes) else str(s)

        return _train(vocab_size, character_coverage, model_type, params,
                      sentence_iterator=sentences())

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Train on the lines of the text files ``file_path`` (a list of paths)."""
        _checks.type_check(file_path, (list,), 'file_path')
        _check_training_args(vocab_size, character_coverage, model_type, params, 'from_file')
        for path in file_path:
            if not os.path.isfile(path):
                raise RuntimeError(f'SentencePieceVocab: "{path}": No such file or directory '
                                   f'Error #2')
        return _train(vocab_size, character_coverage, model_type, params,
                      input=','.join(file_path))

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Write the model of ``vocab`` to ``path/filename`` (a file ``SentencePieceTokenizer``
        and the ``sentencepiece`` package load)."""
        _checks.type_check(vocab, (SentencePieceVocab,), 'vocab')
        _checks.type_check(path, (str,), 'path')
        _checks.type_check(filename, (str,), 'filename')
        if not os.path.exists(path):
            raise RuntimeError(f"Get real path failed, path={path}")
        with open(os.path.join(os.path.realpath(path), filename), 'wb') as f:
            f.write(vocab._model)


class SentencePieceTokenizer(TensorOperation):
    """Split a string into the pieces (or piece ids, int32) of a SentencePiece model:
    ``mode`` is a model file path or a ``SentencePieceVocab``."""

    def __init__(self, mode, out_type):
        _checks.type_check(mode, (str, SentencePieceVocab),
                           'mode is not an instance of str or text.SentencePieceVocab.')
        _checks.type_check(out_type, (SPieceTokenizerOutType,),
                           'out_type is not an instance of SPieceTokenizerOutType')
        self.mode, self.out_type = mode, out_type
        self._processor = None

    def _load(self):
        if self._processor is None:
            spm = _sentencepiece()
            if isinstance(self.mode, SentencePieceVocab):
                self._processor = spm.SentencePieceProcessor(model_proto=self.mode._model)
            else:
                if not os.path.isfile(self.mode):
                    raise RuntimeError(f"The file {self.mode} does not exist.")
                self._processor = spm.SentencePieceProcessor(model_file=self.mode)
        return self._processor

    def _apply(self, x):
        if x.ndim != 0 or x.dtype.kind != 'U':
            raise RuntimeError("SentencePieceTokenizer: the input shape should be scalar and "
                               "the input datatype should be string.")
        processor = self._load()
        if self.out_type == SPieceTokenizerOutType.INT:
            return np.array(processor.encode(x.item()), np.int32)
        return np.array(processor.encode(x.item(), out_type=str), dtype=str)
