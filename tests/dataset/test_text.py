"""dataset.text against MindSpore 2.10 (expected values computed with MindSpore)."""
import numpy as np
import pytest

import hookgrad as ms
import hookgrad.dataset as ds
import hookgrad.dataset.text as text


def _eq(got, want, dtype):
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, np.array(want, dtype=dtype))


def test_vocab_from_list_ids_and_tokens():
    v = text.Vocab.from_list(['a', 'b', 'c'], special_tokens=['<pad>', '<unk>'])
    assert v.vocab() == {'<pad>': 0, '<unk>': 1, 'a': 2, 'b': 3, 'c': 4}
    assert v.tokens_to_ids(['a', 'zz']) == [2, -1]
    assert v.tokens_to_ids('b') == 3
    assert v.ids_to_tokens([0, 4, 9]) == ['<pad>', 'c', '']
    assert v.ids_to_tokens(2) == 'a'
    assert text.Vocab.from_list([]).vocab() == {}
    last = text.Vocab.from_list(['a'], special_tokens=['<s>'], special_first=False)
    assert last.vocab() == {'a': 0, '<s>': 1}


def test_vocab_bad_lists():
    with pytest.raises(ValueError, match='word_list contains duplicate word: a.'):
        text.Vocab.from_list(['a', 'a'])
    with pytest.raises(ValueError, match="special_tokens and word_list contain duplicate word "
                                         r":\{'a'\}."):
        text.Vocab.from_list(['a', 'b'], special_tokens=['a'])
    with pytest.raises(ValueError, match=r'Input word_id is not within the required interval '
                                         r'of \[0, 2147483647\].'):
        text.Vocab.from_dict({'a': -1})


def test_vocab_from_dict_and_file(tmp_path):
    assert text.Vocab.from_dict({'x': 3, 'y': 1}).vocab() == {'x': 3, 'y': 1}
    path = tmp_path / 'vocab.txt'
    path.write_text('w1,x\nw2\nw3 y\nw1\n')
    assert text.Vocab.from_file(str(path), vocab_size=2).vocab() == {'w1,x': 0, 'w2': 1}
    with pytest.raises(RuntimeError, match='from_file: word_list contains duplicate word:w1'):
        text.Vocab.from_file(str(path), ',', special_tokens=['<unk>'], special_first=False)
    assert text.Vocab.from_file(str(path), ' ', vocab_size=3).vocab() == \
        {'w1,x': 0, 'w2': 1, 'w3': 2}


def test_vocab_from_dataset_frequency_order():
    data = ds.NumpySlicesDataset([['b', 'a', 'c'], ['a', 'b', 'd'], ['a', 'e', 'e']],
                                 column_names=['t'], shuffle=False)
    assert text.Vocab.from_dataset(data, columns=['t'], special_tokens=['<pad>']).vocab() == \
        {'<pad>': 0, 'a': 1, 'b': 2, 'e': 3, 'c': 4, 'd': 5}
    assert text.Vocab.from_dataset(data, top_k=2).vocab() == {'a': 0, 'b': 1}
    assert text.Vocab.from_dataset(data, freq_range=(2, 10)).vocab() == \
        {'a': 0, 'b': 1, 'e': 2}
    assert text.Vocab.from_dataset(data, freq_range=(1, 1)).vocab() == {'c': 0, 'd': 1}


def test_lookup():
    v = text.Vocab.from_list(['a', 'b', 'c'], special_tokens=['<pad>', '<unk>'])
    _eq(text.Lookup(v, unknown_token='<unk>')(np.array(['a', 'q', 'c'])), [2, 1, 4], np.int32)
    small = text.Vocab.from_list(['a', 'b'])
    _eq(text.Lookup(small, data_type=ms.int64)(np.array([['a', 'b'], ['b', 'a']])),
        [[0, 1], [1, 0]], np.int64)
    _eq(text.Lookup(small)(np.array('b')), 1, np.int32)
    with pytest.raises(RuntimeError, match='Lookup: invalid data, token: "q" doesn\'t exist in '
                                           'vocab and no unknown token is specified.'):
        text.Lookup(v)(np.array(['q']))
    with pytest.raises(RuntimeError, match='Lookup: input is not string datatype.'):
        text.Lookup(small)(np.array([1, 2]))


def test_lookup_in_a_pipeline():
    v = text.Vocab.from_list(['x', 'y'])
    data = ds.NumpySlicesDataset({'t': np.array([['y', 'x'], ['x', 'x']])}, shuffle=False)
    rows = [r['t'].tolist() for r in
            data.map(text.Lookup(v), 't').create_dict_iterator(output_numpy=True)]
    assert rows == [[1, 0], [0, 0]]


def test_sliding_window_and_truncate():
    _eq(text.SlidingWindow(2, 0)(np.array([1, 2, 3, 4])), [[1, 2], [2, 3], [3, 4]], np.int64)
    _eq(text.SlidingWindow(2, -1)(np.array([1, 2, 3])), [[1, 2], [2, 3]], np.int64)
    _eq(text.SlidingWindow(2)(np.array(['a', 'b', 'c'])), [['a', 'b'], ['b', 'c']], '<U1')
    assert text.SlidingWindow(5, 0)(np.array([1, 2, 3, 4])).shape == (0,)
    with pytest.raises(RuntimeError, match='SlidingWindow supports 1D input only for now, but '
                                           'got 2D.'):
        text.SlidingWindow(2, 1)(np.array([[1, 2, 3], [4, 5, 6]]))
    with pytest.raises(ValueError, match=r'Input width is not within the required interval of '
                                         r'\[1, 2147483647\].'):
        text.SlidingWindow(0, 0)
    _eq(text.Truncate(2)(np.array([1, 2, 3])), [1, 2], np.int64)
    _eq(text.Truncate(2)(np.array(['a', 'b', 'c'])), ['a', 'b'], '<U1')
    _eq(text.Truncate(2)(np.array([[1, 2, 3], [4, 5, 6]])), [[1, 2], [4, 5]], np.int64)
    _eq(text.Truncate(5)(np.array([1, 2])), [1, 2], np.int64)
    with pytest.raises(RuntimeError, match='Truncate: the input tensor should be of dimension '
                                           '1 or 2.'):
        text.Truncate(2)(np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match='Input max_seq_len is not within'):
        text.Truncate(0)


def test_to_number():
    _eq(text.ToNumber(ms.int32)(np.array(['1', '22', '-3'])), [1, 22, -3], np.int32)
    _eq(text.ToNumber(ms.float32)(np.array(['1.5', '2'])), [1.5, 2], np.float32)
    _eq(text.ToNumber(ms.uint8)(np.array([['1', '2'], ['3', '4']])), [[1, 2], [3, 4]], np.uint8)
    _eq(text.ToNumber(ms.float64)(np.array([' 3.5'])), [3.5], np.float64)
    _eq(text.ToNumber(ms.int32)(np.array(['3.5'])), [3], np.int32)
    with pytest.raises(RuntimeError, match=r'ToNumber: string input 1000 will be out of bounds '
                                           r'if cast to int8. The valid range is: \[-128, 127\].'):
        text.ToNumber(ms.int8)(np.array(['1000']))
    with pytest.raises(RuntimeError, match=r'string input -1 will be out of bounds if cast to '
                                           r'uint8. The valid range is: \[0, 255\].'):
        text.ToNumber(ms.uint8)(np.array(['-1']))
    with pytest.raises(RuntimeError, match='ToNumber: it is invalid to convert "a" to a '
                                           'number.'):
        text.ToNumber(ms.int32)(np.array(['a']))
    with pytest.raises(RuntimeError, match='ToNumber: input should be string datatype.'):
        text.ToNumber(ms.int32)(np.array([1, 2]))
    with pytest.raises(RuntimeError, match='outside of valid float16 range'):
        text.ToNumber(ms.float16)(np.array(['1e10']))


def test_whitespace_and_unicode_char_tokenizers():
    s = np.array('Hello  world\tfoo\nbar')
    _eq(text.WhitespaceTokenizer()(s), ['Hello', 'world', 'foo', 'bar'], '<U5')
    tokens, start, end = text.WhitespaceTokenizer(with_offsets=True)(s)
    _eq(start, [0, 7, 13, 17], np.uint32)
    _eq(end, [5, 12, 16, 20], np.uint32)
    _eq(text.WhitespaceTokenizer()(np.array('   ')), [''], '<U1')
    with pytest.raises(RuntimeError, match='WhitespaceTokenizerOp: the input shape should be '
                                           'scalar and the input datatype should be string.'):
        text.WhitespaceTokenizer()(np.array(['a b', 'c d']))
    with pytest.raises(TypeError, match='Wrong input type for with_offsets, should be '
                                        'boolean.'):
        text.WhitespaceTokenizer(with_offsets=1)
    tokens, start, end = text.UnicodeCharTokenizer(with_offsets=True)(np.array('héllo 世'))
    _eq(tokens, ['h', 'é', 'l', 'l', 'o', ' ', '世'], '<U1')
    _eq(start, [0, 1, 3, 4, 5, 6, 7], np.uint32)
    _eq(end, [1, 3, 4, 5, 6, 7, 10], np.uint32)
    _eq(text.UnicodeCharTokenizer()(np.array('')), [''], '<U1')


def test_regex_tokenizer():
    _eq(text.RegexTokenizer(r'\s+')(np.array('a b  c')), ['a', 'b', 'c'], '<U1')
    _eq(text.RegexTokenizer(r'\s+', r'\s+')(np.array('a b  c')), ['a', ' ', 'b', '  ', 'c'],
        '<U2')
    _eq(text.RegexTokenizer(r'\s+')(np.array('  a b  ')), ['a', 'b'], '<U1')
    _eq(text.RegexTokenizer(r'\s+', r'\s+')(np.array('  a b  ')), ['  ', 'a', ' ', 'b', '  '],
        '<U2')
    _eq(text.RegexTokenizer(r'[,.]', r',')(np.array('a,b.c')), ['a', ',', 'b', 'c'], '<U1')
    tokens, start, end = text.RegexTokenizer(r'\s+', with_offsets=True)(np.array('a b  c'))
    _eq(start, [0, 2, 5], np.uint32)
    _eq(end, [1, 3, 6], np.uint32)


def test_basic_tokenizer():
    s = np.array('Hello, World! 中文 Ünïcode')
    _eq(text.BasicTokenizer()(s), ['Hello', ',', 'World', '!', '中', '文', 'Ünïcode'], '<U7')
    _eq(text.BasicTokenizer(lower_case=True)(s),
        ['hello', ',', 'world', '!', '中', '文', 'unicode'], '<U7')
    _eq(text.BasicTokenizer(keep_whitespace=True)(np.array('a  b\tc')),
        ['a', '  ', 'b', ' ', 'c'], '<U2')
    _eq(text.BasicTokenizer()(np.array('[UNK] [CLS]x [MASK] a\u0301b \x00c')),
        ['[UNK]', '[CLS]', 'x', '[MASK]', 'a\u0301b', 'c'], '<U6')
    _eq(text.BasicTokenizer(lower_case=True, preserve_unused_token=False)(
        np.array('[UNK] [CLS]x [MASK]')),
        ['[', 'unk', ']', '[', 'cls', ']', 'x', '[', 'mask', ']'], '<U4')
    _eq(text.BasicTokenizer(normalization_form=text.NormalizeForm.NFKC)(np.array('ﬁ ①')),
        ['fi', '1'], '<U2')
    _eq(text.BasicTokenizer()(np.array("ﬁ ①  $5.00 don't")),
        ['ﬁ', '①', '$', '5', '.', '00', 'don', "'", 't'], '<U3')
    tokens, start, end = text.BasicTokenizer(lower_case=True, with_offsets=True)(
        np.array('Héllo, 中x!'))
    _eq(tokens, ['hello', ',', '中', 'x', '!'], '<U5')
    _eq(start, [0, 5, 7, 10, 11], np.uint32)
    _eq(end, [5, 6, 10, 11, 12], np.uint32)


def test_text_names_hookgrad_lacks_raise_attribute_error():
    with pytest.raises(AttributeError, match="mindspore.dataset.text.validators is not "
                                             "available in hookgrad"):
        text.validators
