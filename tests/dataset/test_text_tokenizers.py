"""dataset.text tokenizers against MindSpore 2.10 (expected values are MindSpore 2.10's
outputs for the same inputs, unless a comment says otherwise)."""
import numpy as np
import pytest

import hookgrad.dataset as ds
import hookgrad.dataset.text as text


def _lists(result):
    return [x.tolist() for x in result] if isinstance(result, tuple) else result.tolist()


def _check_offsets(result):
    tokens, start, end = result
    assert start.dtype == np.uint32 and end.dtype == np.uint32
    assert len(tokens) == len(start) == len(end)


def test_unicode_script_tokenizer():
    s = np.array('Hello, 世界! café123 привет мир 😀😀 ab-cd  x\ty')
    got = text.UnicodeScriptTokenizer(False, True)(s)
    _check_offsets(got)
    assert _lists(got) == [
        ['Hello', ',', '世界', '!', 'café', '123', 'привет', 'мир', '😀😀', 'ab', '-', 'cd', 'x',
         'y'],
        [0, 5, 7, 13, 15, 20, 24, 37, 44, 53, 55, 56, 60, 62],
        [5, 6, 13, 14, 20, 23, 36, 43, 52, 55, 56, 58, 61, 63]]
    s = np.array('ありがとう カタカナ 한국어 a\u0301b 1.5e3 __x__')
    assert _lists(text.UnicodeScriptTokenizer(True, True)(s)) == [
        ['ありがとう', ' ', 'カタカナ', ' ', '한국어', ' ', 'a', '\u0301', 'b', ' ', '1.5', 'e', '3',
         ' ', '__', 'x', '__'],
        [0, 15, 16, 28, 29, 38, 39, 40, 42, 43, 44, 47, 48, 49, 50, 52, 53],
        [15, 16, 28, 29, 38, 39, 40, 42, 43, 44, 47, 48, 49, 50, 52, 53, 55]]
    assert _lists(text.UnicodeScriptTokenizer()(np.array('Ⅻ½ x²'))) == ['Ⅻ', '½', 'x', '²']
    assert _lists(text.UnicodeScriptTokenizer(with_offsets=True)(np.array('  '))) == \
        [[''], [0], [0]]
    assert _lists(text.UnicodeScriptTokenizer(True, True)(np.array('  '))) == [['  '], [0], [2]]
    assert _lists(text.UnicodeScriptTokenizer()(np.array(''))) == ['']


def test_unicode_script_tokenizer_bad_arguments():
    with pytest.raises(TypeError, match='Wrong input type for keep_whitespace, should be '
                                        'boolean.'):
        text.UnicodeScriptTokenizer(1)
    with pytest.raises(TypeError, match='Wrong input type for with_offsets, should be '
                                        'boolean.'):
        text.UnicodeScriptTokenizer(False, 1)
    with pytest.raises(RuntimeError, match='UnicodeScriptTokenizerOp: the input shape should '
                                           'be scalar and the input datatype should be '
                                           'string.'):
        text.UnicodeScriptTokenizer()(np.array(['a']))


_WORDS = ['book', 'cholera', 'era', 'favor', '##ite', 'my', 'is', 'love', 'dur', '##ing', 'the',
          '##s', 'un', '##aff', '##able', '[UNK]', '中', '##文', '[CLS]', '!', '##!']


def test_wordpiece_tokenizer():
    vocab = text.Vocab.from_list(_WORDS)
    x = np.array(['my', 'favorite', 'book', 'is', 'love', 'during', 'the', 'cholera', 'era',
                  'unaffable', 'xyz', '中文', '!!', 'books'])
    got = text.WordpieceTokenizer(vocab, with_offsets=True)(x)
    _check_offsets(got)
    assert _lists(got) == [
        ['my', 'favor', '##ite', 'book', 'is', 'love', 'dur', '##ing', 'the', 'cholera', 'era',
         'un', '##aff', '##able', '[UNK]', '中', '##文', '!', '##!', 'book', '##s'],
        [0, 0, 5, 0, 0, 0, 0, 3, 0, 0, 0, 0, 2, 5, 0, 0, 3, 0, 1, 0, 4],
        [2, 5, 8, 4, 2, 4, 3, 6, 3, 7, 3, 2, 5, 9, 3, 3, 6, 1, 2, 4, 5]]
    assert _lists(text.WordpieceTokenizer(vocab, unknown_token='')(x))[14] == 'xyz'
    assert _lists(text.WordpieceTokenizer(vocab, max_bytes_per_token=5)(x)) == [
        'my', '[UNK]', 'book', 'is', 'love', '[UNK]', 'the', '[UNK]', 'era', '[UNK]', '[UNK]',
        '[UNK]', '!', '##!', 'book', '##s']
    # a word over max_bytes_per_token ends at its start plus the unknown token's length
    assert _lists(text.WordpieceTokenizer(vocab, max_bytes_per_token=2, with_offsets=True)(
        np.array(['my', 'era']))) == [['my', '[UNK]'], [0, 0], [2, 5]]
    assert _lists(text.WordpieceTokenizer(vocab, max_bytes_per_token=0)(
        np.array(['my', 'era']))) == ['[UNK]', '[UNK]']
    assert _lists(text.WordpieceTokenizer(vocab)(np.array(['', 'my']))) == ['my']
    assert _lists(text.WordpieceTokenizer(vocab)(np.array(['']))) == ['']


def test_wordpiece_tokenizer_unknown_word_offsets():
    vocab = text.Vocab.from_list(_WORDS)
    # tokens as MindSpore 2.10; offsets one pair per token (MindSpore 2.10 also keeps the
    # offsets of the pieces matched before the unknown part: [0, 0, 0] and [2, 3, 2])
    assert _lists(text.WordpieceTokenizer(vocab, with_offsets=True)(np.array(['myx', 'is']))) \
        == [['[UNK]', 'is'], [0, 0], [3, 2]]
    assert _lists(text.WordpieceTokenizer(vocab, unknown_token='')(np.array(['myx', 'is']))) \
        == ['myx', 'is']


def test_wordpiece_tokenizer_bad_arguments():
    vocab = text.Vocab.from_list(_WORDS)
    for bad in (np.array([['my', 'book']]), np.array([1])):
        with pytest.raises(RuntimeError, match='WordpieceTokenizer: The input shape should be '
                                               '1D scalar the input datatype should be '
                                               'string.'):
            text.WordpieceTokenizer(vocab)(bad)
    with pytest.raises(ValueError, match=r'Input is not within the required interval of '
                                         r'\[0, 4294967295\].'):
        text.WordpieceTokenizer(vocab, max_bytes_per_token=-1)
    with pytest.raises(TypeError, match='Wrong input type for vocab, should be text.Vocab '
                                        'object.'):
        text.WordpieceTokenizer(1)
    with pytest.raises(TypeError, match='Wrong input type for suffix_indicator, should be '
                                        'string.'):
        text.WordpieceTokenizer(vocab, suffix_indicator=1)
    with pytest.raises(TypeError, match='Wrong input type for unknown_token, should be '
                                        'string.'):
        text.WordpieceTokenizer(vocab, unknown_token=None)
    with pytest.raises(TypeError, match='Wrong input type for with_offsets, should be '
                                        'boolean.'):
        text.WordpieceTokenizer(vocab, with_offsets=1)


_BERT_WORDS = ['book', 'un', '##aff', '##able', '[UNK]', 'hello', ',', 'world', '!', '中', 'x',
               '##ii', 'ecole', 'e', '##cole', 'ü']


def test_bert_tokenizer():
    vocab = text.Vocab.from_list(_BERT_WORDS)
    got = text.BertTokenizer(vocab, lower_case=True, preserve_unused_token=False,
                             with_offsets=True)(np.array('Hello, WORLD! Ⅻ École unaffable 中文'))
    _check_offsets(got)
    assert _lists(got) == [
        ['hello', ',', 'world', '!', 'x', '##ii', 'ecole', 'un', '##aff', '##able', '中',
         '[UNK]'],
        [0, 5, 7, 12, 14, 15, 18, 24, 26, 29, 34, 37],
        [5, 6, 12, 13, 15, 17, 23, 26, 29, 33, 37, 40]]
    assert _lists(text.BertTokenizer(vocab, keep_whitespace=True, with_offsets=True)(
        np.array('hello\u3000world  中'))) == [['hello', '[UNK]', 'world', '[UNK]', '中'],
                                              [0, 5, 8, 13, 15], [5, 8, 13, 15, 18]]
    assert _lists(text.BertTokenizer(vocab, max_bytes_per_token=4, with_offsets=True)(
        np.array('hello book un'))) == [['[UNK]', 'book', 'un'], [0, 6, 11], [5, 10, 13]]
    assert _lists(text.BertTokenizer(vocab)(np.array('Hello, world! 中文 [CLS] [UNK] bookxs'))) \
        == ['[UNK]', ',', 'world', '!', '中', '[UNK]', '[UNK]', '[UNK]', '[UNK]']
    assert _lists(text.BertTokenizer(vocab, normalization_form=text.NormalizeForm.NFKC)(
        np.array('ü'))) == ['ü']
    assert _lists(text.BertTokenizer(vocab)(np.array(''))) == ['']


def test_bert_tokenizer_bad_arguments():
    vocab = text.Vocab.from_list(_BERT_WORDS)
    with pytest.raises(RuntimeError, match='BasicTokenizer: the input should be a scalar, but '
                                           'got a tensor with rank: 1'):
        text.BertTokenizer(vocab)(np.array(['a']))
    with pytest.raises(RuntimeError, match='BasicTokenizer: the input should be of type '
                                           'string.'):
        text.BertTokenizer(vocab)(np.array(1))
    with pytest.raises(TypeError, match='Wrong input type for lower_case, should be boolean.'):
        text.BertTokenizer(vocab, lower_case=1)
    with pytest.raises(TypeError, match='Wrong input type for vocab, should be text.Vocab '
                                        'object.'):
        text.BertTokenizer(1)
    with pytest.raises(TypeError, match="Wrong input type for normalization_form, should be "
                                        "enum of 'NormalizeForm'."):
        text.BertTokenizer(vocab, normalization_form=1)
    with pytest.raises(ValueError, match=r'Input is not within the required interval of '
                                         r'\[0, 4294967295\].'):
        text.BertTokenizer(vocab, max_bytes_per_token=-1)


def test_basic_tokenizer_white_space_and_folding():
    got = text.BasicTokenizer(keep_whitespace=True, with_offsets=True)(
        np.array('a\u3000b\xa0\xa0c\u200dd\te'))
    assert _lists(got) == [['a', '\u3000', 'b', '\xa0\xa0', 'c', ' ', 'd', ' ', 'e'],
                           [0, 1, 4, 5, 9, 10, 11, 12, 13], [1, 4, 5, 9, 10, 11, 12, 13, 14]]
    assert _lists(text.BasicTokenizer(lower_case=True, with_offsets=True)(
        np.array('Ⅻ² ÉCOLE ﬁx'))) == [['xii2', 'ecole', 'fix'], [0, 5, 11], [4, 10, 14]]
    assert _lists(text.BasicTokenizer(with_offsets=True)(np.array('a$b+c^d 〈x〉'))) == [
        ['a', '$', 'b', '+', 'c', '^', 'd', '〈', 'x', '〉'], [0, 1, 2, 3, 4, 5, 6, 8, 11, 12],
        [1, 2, 3, 4, 5, 6, 7, 11, 12, 15]]


def test_basic_tokenizer_keeps_unused_words_unfolded():
    # [CLS]-like words stay as they are while the rest is case-folded (MindSpore 2.10 also
    # repeats the folded text before each such word: '[CLS]', '[', 'cls', ']', 'hello', ...)
    got = text.BasicTokenizer(lower_case=True)(np.array('[CLS] Hello [unused3] [Unk]'))
    assert _lists(got) == ['[CLS]', 'hello', '[unused3]', '[', 'unk', ']']


def test_python_tokenizer():
    def my_tokenizer(line):
        return line.split()

    op = text.PythonTokenizer(my_tokenizer)
    assert _lists(op(np.array('Welcome     To   BeiJing!'))) == ['Welcome', 'To', 'BeiJing!']
    assert _lists(op(np.array(['a b']))) == [['a', 'b']]
    assert _lists(op(np.array(b'a b'))) == ['a', 'b']
    # rows after the first take its length by broadcasting, as np.vectorize does
    assert _lists(op(np.array([['a b', 'c']]))) == [[['a', 'b'], ['c', 'c']]]
    empty = text.PythonTokenizer(lambda s: [])(np.array('ab'))
    assert empty.shape == (0,) and empty.dtype.kind == 'U'
    assert _lists(text.PythonTokenizer(lambda s: [type(s).__name__])(np.array('ab'))) == \
        ['str_']
    with pytest.raises(RuntimeError, match=r"Error occurred in Pyfunc \[my_tokenizer\], error "
                                           r"message: 'numpy.int64' object has no attribute "
                                           r"'split'"):
        op(np.array([1]))
    with pytest.raises(TypeError, match='tokenizer is not a callable Python function.'):
        text.PythonTokenizer(1)
    with pytest.raises(TypeError, match="input should be a NumPy array. Got <class 'str'>."):
        op('a b')


def test_tokenizers_in_a_pipeline():
    vocab = text.Vocab.from_list(_BERT_WORDS)
    data = ds.NumpySlicesDataset({'t': np.array(['Hello world!', 'un book'])}, shuffle=False)
    data = data.map(text.BertTokenizer(vocab, lower_case=True), 't')
    rows = [r['t'].tolist() for r in data.create_dict_iterator(output_numpy=True)]
    assert rows == [['hello', 'world', '!'], ['un', 'book']]


def test_to_bytes_and_to_str():
    got = text.to_bytes(np.array(['中a', 'b']))
    assert got.dtype.kind == 'S' and got.tolist() == [b'\xe4\xb8\xada', b'b']
    assert text.to_bytes(np.array(['é']), 'latin-1').tolist() == [b'\xe9']
    back = text.to_str(np.array([b'\xe4\xb8\xad', b'b']))
    assert back.dtype.kind == 'U' and back.tolist() == ['中', 'b']
    with pytest.raises(ValueError, match='input should be a NumPy array.'):
        text.to_bytes(['a'])
    with pytest.raises(TypeError, match='input should be a NumPy array.'):
        text.to_str([b'a'])
