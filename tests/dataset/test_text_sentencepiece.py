"""SentencePiece vocabularies and tokenizer against MindSpore 2.10 (expected pieces and ids
are MindSpore 2.10's for the same corpus and settings)."""
import random

import numpy as np
import pytest

import hookgrad.dataset as ds
import hookgrad.dataset.text as text

M, OUT = text.SentencePieceModel, text.SPieceTokenizerOutType
WORDS = ['hello', 'world', 'token', 'tokenizer', 'piece', 'sentence', 'mind', 'spore', 'data',
         'set', 'text', 'unigram', 'model', 'train', 'the', 'a', 'of', 'and', 'to', 'in']


@pytest.fixture
def corpus(tmp_path):
    pytest.importorskip('sentencepiece')
    rng = random.Random(3)
    lines = [' '.join(rng.choice(WORDS) for _ in range(rng.randint(3, 10))) for _ in range(300)]
    path = tmp_path / 'corpus.txt'
    path.write_text(''.join(line + '\n' for line in lines))
    return str(path)


def _pieces_and_ids(vocab, sentence):
    return (text.SentencePieceTokenizer(vocab, OUT.STRING)(np.array(sentence)).tolist(),
            text.SentencePieceTokenizer(vocab, OUT.INT)(np.array(sentence)).tolist())


def test_bpe_char_and_word_models(corpus):
    bpe = text.SentencePieceVocab.from_file([corpus], 45, 0.9995, M.BPE, {})
    assert _pieces_and_ids(bpe, 'hello world') == (
        ['▁', 'he', 'l', 'l', 'o', '▁', 'w', 'or', 'l', 'd'],
        [23, 10, 32, 32, 27, 23, 44, 14, 32, 31])
    assert _pieces_and_ids(bpe, 'Ünïcode 中文') == (
        ['▁', 'Ü', 'n', 'ï', 'c', 'o', 'd', 'e', '▁', '中文'], [23, 0, 26, 0, 37, 27, 31, 24, 23, 0])
    char = text.SentencePieceVocab.from_file([corpus], 20, 0.9995, M.CHAR, {})
    assert _pieces_and_ids(char, '  spaced   out ') == (
        ['▁', 's', 'p', 'a', 'c', 'e', 'd', '▁', 'o', 'u', 't'],
        [3, 14, 18, 8, 17, 4, 11, 3, 7, 0, 5])
    word = text.SentencePieceVocab.from_file([corpus], 23, 0.9995, M.WORD, {})
    assert _pieces_and_ids(word, 'tokenizer of sentence pieces') == (
        ['▁tokenizer', '▁of', '▁sentence', '▁pieces'], [7, 5, 12, 0])
    assert _pieces_and_ids(word, 'mindspore dataset text') == (
        ['▁mindspore▁dataset', '▁text'], [0, 6])
    ids = text.SentencePieceTokenizer(word, OUT.INT)(np.array(''))
    assert ids.dtype == np.int32 and ids.shape == (0,)


def test_trainer_params_from_dataset_and_saved_model(corpus, tmp_path):
    joined = text.SentencePieceVocab.from_file([corpus], 30, 0.9995, M.BPE,
                                               {'split_by_whitespace': 'false'})
    assert _pieces_and_ids(joined, 'hello world')[0] == \
        ['▁', 'h', 'e', 'l', 'l', 'o', '▁', 'w', 'o', 'r', 'l', 'd']
    data = ds.TextFileDataset(corpus, shuffle=False)
    vocab = text.SentencePieceVocab.from_dataset(data, ['text'], 30, 0.9995, M.BPE, {})
    want = ['▁', 'h', 'e', 'l', 'l', 'o', '▁', 'w', 'o', 'r', 'l', 'd', '▁to', 'k', 'en', 'i',
            'z', 'e', 'r']
    assert _pieces_and_ids(vocab, 'hello world tokenizer')[0] == want
    text.SentencePieceVocab.save_model(vocab, str(tmp_path), 'm.model')
    from_file = text.SentencePieceTokenizer(str(tmp_path / 'm.model'), OUT.STRING)
    assert from_file(np.array('hello world tokenizer')).tolist() == want


def test_unigram_pieces_cover_the_text(corpus):
    # unigram training follows the installed sentencepiece, whose scores differ from MindSpore
    # 2.10's trainer; its pieces still spell the text
    vocab = text.SentencePieceVocab.from_file([corpus], 45, 0.9995, M.UNIGRAM, {})
    pieces = _pieces_and_ids(vocab, 'hello tokenizer world')[0]
    assert ''.join(pieces) == '▁hello▁tokenizer▁world' and '▁tokenizer' in pieces


def test_sentencepiece_bad_arguments(corpus, tmp_path):
    vocab = text.SentencePieceVocab.from_file([corpus], 30, 0.9995, M.BPE, {})
    for bad in (np.array(['hello world', 'data set']), np.array([1])):
        with pytest.raises(RuntimeError, match='SentencePieceTokenizer: the input shape should '
                                               'be scalar and the input datatype should be '
                                               'string.'):
            text.SentencePieceTokenizer(vocab, OUT.STRING)(bad)
    with pytest.raises(TypeError, match='Argument mode is not an instance of str or '
                                        'text.SentencePieceVocab. with value 1 is not of type'):
        text.SentencePieceTokenizer(1, OUT.STRING)
    with pytest.raises(TypeError, match='Argument out_type is not an instance of '
                                        'SPieceTokenizerOutType with value 0 is not of type'):
        text.SentencePieceTokenizer(vocab, 0)
    with pytest.raises(RuntimeError, match='The file /nonexist.model does not exist.'):
        text.SentencePieceTokenizer('/nonexist.model', OUT.STRING)(np.array('a'))
    with pytest.raises(TypeError, match='Argument file_path with value .* is not of type '
                                        r"\[<class 'list'>\]"):
        text.SentencePieceVocab.from_file(corpus, 30, 0.9995, M.BPE, {})
    with pytest.raises(ValueError, match=r'Input vocab_size is not within the required '
                                         r'interval of \[0, 4294967295\].'):
        text.SentencePieceVocab.from_file([corpus], -1, 0.9995, M.BPE, {})
    with pytest.raises(TypeError, match='Argument character_coverage with value 1 is not of '
                                        'type'):
        text.SentencePieceVocab.from_file([corpus], 30, 1, M.BPE, {})
    with pytest.raises(RuntimeError, match='SentencePieceVocab: "nofile.txt": No such file or '
                                           'directory Error #2'):
        text.SentencePieceVocab.from_file(['nofile.txt'], 30, 0.9995, M.BPE, {})
    with pytest.raises(TypeError, match='Argument model_type with value 1 is not of type'):
        text.SentencePieceVocab.from_file([corpus], 30, 0.9995, 1, {})
    with pytest.raises(TypeError, match='Argument params with value'):
        text.SentencePieceVocab.from_file([corpus], 30, 0.9995, M.BPE, [])
    with pytest.raises(TypeError, match='Argument vocab with value 1 is not of type'):
        text.SentencePieceVocab.save_model(1, '.', 'x')
    with pytest.raises(RuntimeError, match='Get real path failed, path=/nonexist/dir'):
        text.SentencePieceVocab.save_model(vocab, '/nonexist/dir', 'x.model')
    data = ds.TextFileDataset(corpus, shuffle=False)
    with pytest.raises(TypeError, match='vocab_size must be provided.'):
        text.SentencePieceVocab.from_dataset(data, ['text'], None, 0.9995, M.BPE, {})
    with pytest.raises(TypeError, match='Argument col_names with value text is not of type'):
        text.SentencePieceVocab.from_dataset(data, 'text', 30, 0.9995, M.BPE, {})


def test_enums():
    assert [int(m) for m in (M.UNIGRAM, M.BPE, M.CHAR, M.WORD)] == [0, 1, 2, 3]
    assert [int(t) for t in (OUT.STRING, OUT.INT)] == [0, 1]
    load = text.SPieceTokenizerLoadType
    assert [int(t) for t in (load.FILE, load.MODEL)] == [0, 1]


def test_missing_sentencepiece_package_is_named(monkeypatch):
    monkeypatch.setitem(__import__('sys').modules, 'sentencepiece', None)
    with pytest.raises(ImportError, match="need the 'sentencepiece' package: pip install "
                                          r"hookgrad\[text\]"):
        text.SentencePieceTokenizer('/nonexist.model', OUT.STRING)(np.array('a'))
