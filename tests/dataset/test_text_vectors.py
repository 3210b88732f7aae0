"""dataset.text word vectors against MindSpore 2.10 (expected values are MindSpore 2.10's
outputs for the same files and tokens)."""
import numpy as np
import pytest

import hookgrad.dataset as ds
import hookgrad.dataset.text as text


def _write(path, data):
    path.write_bytes(data)
    return str(path)


@pytest.fixture
def vector_file(tmp_path):
    return _write(tmp_path / 'vectors.txt', b'3 4\nthe 0.1 0.2 0.3 0.4\nHello 1 2 3 4\n'
                                            b'hello 5 6 7 8\nthe 9 9 9 9\n'
                                            b'w\xc3\xb6rld 1.5e1 -2 3abc x\n')


def _eq(got, want):
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, np.array(want, np.float32))


def test_vectors_from_file_and_lookup(vector_file):
    v = text.Vectors.from_file(vector_file)
    tokens = np.array(['the', 'Hello', 'HELLO', 'hello', 'x', 'wörld'])
    # the first line of a token wins; values read as C's atof reads them ('3abc' is 3)
    _eq(text.ToVectors(v)(tokens), [[0.1, 0.2, 0.3, 0.4], [1, 2, 3, 4], [0, 0, 0, 0],
                                    [5, 6, 7, 8], [0, 0, 0, 0], [15, -2, 3, 0]])
    # lower_case_backup looks the ASCII-lower-cased token up
    _eq(text.ToVectors(v, lower_case_backup=True)(np.array(['Hello', 'THE', 'WöRLD'])),
        [[5, 6, 7, 8], [0.1, 0.2, 0.3, 0.4], [15, -2, 3, 0]])
    _eq(text.ToVectors(v, unk_init=[1, 2, 3, 4])(np.array(['zz'])), [1, 2, 3, 4])
    _eq(text.ToVectors(v)(np.array('the')), [0.1, 0.2, 0.3, 0.4])
    _eq(text.ToVectors(v)(np.array(['zz'])), [0, 0, 0, 0])
    _eq(text.ToVectors(v)(np.array([['the', 'x'], ['hello', 'the']])),
        [[0.1, 0.2, 0.3, 0.4], [0, 0, 0, 0], [5, 6, 7, 8], [0.1, 0.2, 0.3, 0.4]])
    first_two = text.Vectors.from_file(vector_file, max_vectors=2)
    _eq(text.ToVectors(first_two)(np.array(['the', 'Hello', 'hello'])),
        [[0.1, 0.2, 0.3, 0.4], [1, 2, 3, 4], [0, 0, 0, 0]])
    _eq(text.ToVectors(text.Vectors.from_file(vector_file, max_vectors=0))(np.array('hello')),
        [5, 6, 7, 8])


def test_vector_file_formats(tmp_path):
    two_spaces = _write(tmp_path / 'a.txt', b'a 1 2 3\nb 4  5 6\n')
    _eq(text.ToVectors(text.Vectors.from_file(two_spaces))(np.array(['a', 'b'])),
        [[1, 2, 3], [4, 5, 6]])
    crlf = _write(tmp_path / 'b.txt', b'a 1 2\r\nb 3 4\r\n')
    _eq(text.ToVectors(text.Vectors.from_file(crlf))(np.array(['a', 'b'])), [[1, 2], [3, 4]])


def test_bad_vector_files(tmp_path):
    cases = {b'the 0.1 0.2 0.3\nbad 1 2\n': 'Vectors: all vectors must have the same number '
                                            'of dimensions, but got dim 2 while expecting 3',
             b'a 1\nb 2\n': 'Vectors: invalid file, file is empty.',
             b'': 'Vectors: invalid file, file is empty.',
             b'a 1 2\n\nb 3 4\n': 'Vectors: token with 1-dimensional vector.'}
    for i, (data, message) in enumerate(cases.items()):
        with pytest.raises(RuntimeError, match=message):
            text.Vectors.from_file(_write(tmp_path / f'{i}.txt', data))
    missing = str(tmp_path / 'none.txt')
    with pytest.raises(RuntimeError, match='Vectors: get real path failed, path: '):
        text.Vectors.from_file(missing)
    with pytest.raises(RuntimeError, match='Vectors: invalid file, file is empty.'):
        text.Vectors.from_file(str(tmp_path))
    with pytest.raises(ValueError, match=r'Input max_vectors is not within the required '
                                         r'interval of \[0, 2147483647\].'):
        text.Vectors.from_file(missing, max_vectors=-1)
    with pytest.raises(TypeError, match='Argument max_vectors with value 1.0 is not of type'):
        text.Vectors.from_file(missing, max_vectors=1.0)
    with pytest.raises(TypeError, match='Argument file_path with value 1 is not of type'):
        text.Vectors.from_file(1)


def test_glove_and_fasttext_file_names(tmp_path):
    data = b'3 4\nthe 0.1 0.2 0.3 0.4\nhello 5 6 7 8\n'
    glove = text.GloVe.from_file(_write(tmp_path / 'glove.6B.50d.txt', data))
    _eq(text.ToVectors(glove)(np.array(['hello'])), [5, 6, 7, 8])
    fast = text.FastText.from_file(_write(tmp_path / 'wiki.vec', data))
    _eq(text.ToVectors(fast)(np.array(['hello'])), [5, 6, 7, 8])
    plain = _write(tmp_path / 'vectors.txt', data)
    with pytest.raises(RuntimeError, match="GloVe: invalid file, can not find file "
                                           "'glove.6B.\\*.txt', but got: "):
        text.GloVe.from_file(plain)
    with pytest.raises(RuntimeError, match='GloVe: invalid file, failed to open GloVe file.'):
        text.GloVe.from_file(str(tmp_path / 'glove.6B.1d.txt'))
    with pytest.raises(RuntimeError, match="FastText: invalid file, can not find file "
                                           "'\\*.vec', but got: "):
        text.FastText.from_file(plain)
    with pytest.raises(RuntimeError, match='FastText: invalid file, failed to open FastText '
                                           'file.'):
        text.FastText.from_file(str(tmp_path / 'none.vec'))


def test_char_ngram(tmp_path):
    path = _write(tmp_path / 'charngram.txt',
                  b'2gram-#BEGIN#a 1 1\n2gram-ab 2 0\n3gram-abc 0 4\n4gram-bc#END# 3 3\n'
                  b'2gram-c#END# 1 1\n2gram-\xc3\xa4 5 5\n1gram-a 9 9\n')
    grams = text.CharNGram.from_file(path)
    _eq(text.ToVectors(grams)(np.array(['abc', 'a', 'ABC', 'zz', '', 'ä'])),
        [[1, 1.5], [1, 1], [0, 0], [0, 0], [0, 0], [5, 5]])
    _eq(text.ToVectors(grams, lower_case_backup=True)(np.array(['ABC'])), [1, 1.5])
    # grams whose vector equals unk_init do not count
    _eq(text.ToVectors(grams, unk_init=[1, 1])(np.array(['abc', 'q'])), [[1, 2], [1, 1]])


def test_to_vectors_bad_arguments(vector_file):
    v = text.Vectors.from_file(vector_file)
    with pytest.raises(RuntimeError, match='ToVectors: unk_init must be the same length as '
                                           'vectors, but got unk_init: 2 and vectors: 4'):
        text.ToVectors(v, unk_init=[1, 2])(np.array(['zz']))
    with pytest.raises(RuntimeError, match='ToVectors: input tensor type should be string.'):
        text.ToVectors(v)(np.array([1]))
    with pytest.raises(RuntimeError, match='Input Tensor has no data.'):
        text.ToVectors(v)(np.array([], dtype=str))
    with pytest.raises(TypeError, match='Argument vectors with value 1 is not of type'):
        text.ToVectors(1)
    with pytest.raises(TypeError, match=r"Argument unk_init with value 1 is not of type "
                                        r"\[<class 'list'>, <class 'tuple'>\]"):
        text.ToVectors(v, unk_init=1)
    with pytest.raises(TypeError, match=r"Argument unk_init\[0\] with value a is not of type"):
        text.ToVectors(v, unk_init=['a'])
    with pytest.raises(TypeError, match='Argument lower_case_backup with value 1 is not of '
                                        'type'):
        text.ToVectors(v, lower_case_backup=1)


def test_to_vectors_in_a_pipeline(vector_file):
    v = text.Vectors.from_file(vector_file)
    data = ds.NumpySlicesDataset({'t': np.array([['the', 'hello'], ['x', 'the']])},
                                 shuffle=False).map(text.ToVectors(v), 't')
    rows = [r['t'] for r in data.create_dict_iterator(output_numpy=True)]
    _eq(rows[1], [[0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4]])
    _eq(rows[0], [[0.1, 0.2, 0.3, 0.4], [5, 6, 7, 8]])


def test_values_read_as_atof_reads_them(tmp_path):
    path = _write(tmp_path / 'v.txt', b'a 0x1p3 -inf nan 1e 1.5E+2x\nb .5 +3 -0 abc infinityx\n')
    got = text.ToVectors(text.Vectors.from_file(path))(np.array(['a', 'b']))
    _eq(got, [[8, -np.inf, np.nan, 1, 150], [0.5, 3, -0.0, 0, np.inf]])
    assert np.signbit(got[1, 2])
