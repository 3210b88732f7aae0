"""JiebaTokenizer against MindSpore 2.10 (expected tokens and offsets are MindSpore 2.10's
for the same dictionary, model and sentences)."""
import numpy as np
import pytest

import hookgrad.dataset.text as text

DICTIONARY = (
    '床 100 n\n'
    '前 200 f\n'
    '明月 300 n\n'
    '明月光 50 n\n'
    '月光 400 n\n'
    '光 80 n\n'
    '疑是 20 v\n'
    '地上 150 s\n'
    '霜 30 n\n'
    '举头 40 v\n'
    '望 90 v\n'
    '低头 60 v\n'
    '思 70 v\n'
    '故乡 500 n\n'
    '今天 800 t\n'
    '天气 600 n\n'
    '今天天气 5 n\n'
    '真 300 d\n'
    '好 900 a\n'
    '我们 1000 r\n'
    '中华 200 nz\n'
    '人民 700 n\n'
    '共和国 300 n\n'
    '中华人民共和国 100 ns\n'
    '北京 600 ns\n'
    '大学 500 n\n'
    '北京大学 300 nt\n'
    'ab 10 x\n'
)

HMM_MODEL = (
    '#prob_start\n'
    '-0.26268660809250016 -3.14e+100 -3.14e+100 -1.4652633398537678\n'
    '#prob_trans\n'
    '-3.14e+100 -0.510825623765990 -0.916290731874155 -3.14e+100\n'
    '-0.5897149736854513 -3.14e+100 -3.14e+100 -0.8085250474669937\n'
    '-3.14e+100 -0.33344856811948514 -1.2603623820268226 -3.14e+100\n'
    '-0.7211965654669841 -3.14e+100 -3.14e+100 -0.6658631448798212\n'
    '#prob_emit\n'
    '床:-8.1,前:-7.2,明:-6.0,月:-7.9,光:-9.1,疑:-7.5,是:-9.9,地:-6.4,上:-9.0,霜:-10.2'
    ',举:-6.9,头:-9.5,望:-7.7,低:-7.3,思:-8.4,故:-7.1,乡:-9.3,今:-6.5,天:-8.0,气:-9.7'
    ',真:-8.8,好:-8.2,我:-6.6,们:-12.0,中:-5.9,华:-8.6,人:-6.3,民:-8.7,北:-7.0,京:-9.'
    '2,大:-6.1,学:-8.9\n'
    '床:-9.0,前:-7.9,明:-8.8,月:-7.1,光:-6.9,疑:-11.0,是:-8.1,地:-8.4,上:-6.8,霜:-9.0'
    ',举:-10.1,头:-6.7,望:-8.3,低:-10.5,思:-7.4,故:-9.8,乡:-7.0,今:-10.0,天:-6.6,气:-'
    '6.9,真:-9.9,好:-7.6,我:-9.3,们:-5.5,中:-8.0,华:-7.3,人:-7.8,民:-6.5,北:-9.4,京:-'
    '6.2,大:-8.3,学:-6.4\n'
    '床:-9.5,前:-8.5,明:-7.9,月:-7.5,光:-8.2,疑:-10.5,是:-8.8,地:-8.1,上:-7.9,霜:-9.6'
    ',举:-9.9,头:-7.7,望:-8.0,低:-9.8,思:-8.1,故:-9.1,乡:-8.3,今:-9.7,天:-7.2,气:-8.1'
    ',真:-9.2,好:-8.1,我:-9.0,们:-8.9,中:-7.2,华:-7.9,人:-7.0,民:-7.5,北:-8.8,京:-8.0'
    ',大:-7.4,学:-7.6\n'
    '床:-7.0,前:-6.8,明:-8.0,月:-8.2,光:-7.5,疑:-8.9,是:-4.9,地:-7.0,上:-7.3,霜:-7.8,'
    '举:-8.5,头:-8.3,望:-6.9,低:-8.6,思:-7.2,故:-8.8,乡:-8.4,今:-8.3,天:-7.6,气:-8.5,'
    '真:-6.1,好:-5.8,我:-5.9,们:-9.5,中:-6.9,华:-9.0,人:-6.0,民:-9.4,北:-8.1,京:-8.6,'
    '大:-6.5,学:-8.2\n'
)

MIX = [
    ('床前明月光', ['床', '前', '明月光']),
    ('今天天气真好', ['今天', '天气', '真', '好']),
    ('中华人民共和国北京大学', ['中华人民共和国', '北京大学']),
    ('我们是abc123.45x的人', ['我们', '是', 'ab', 'c123', '.', '45', 'x', '的', '人']),
    ('举头望明月，低头思故乡。', ['举头', '望', '明月', '，', '低头', '思', '故乡', '。']),
    ('，中的低是北前中民.😀é床\t共',
     ['，', '中', '的', '低', '是', '北', '前', '中', '民', '.', '😀', 'é', '床', '\t', '共']),
    ('12.5思1是真前前前', ['12.5', '思', '1', '是', '真', '前', '前', '前']),
    (' 低民12.5前大思😀共北a思', [' ', '低民', '12.5', '前', '大思', '😀', '共', '北', 'a', '思']),
    ('思 思😀和天前人a，是', ['思', ' ', '思', '😀', '和', '天', '前', '人', 'a', '，', '是']),
    ('x12.5天地Hi9', ['x12', '.', '5', '天', '地', 'Hi9']),
    ('12.5ab京民京。望气天1', ['12.5', 'ab', '京民京', '。', '望气', '天', '1']),
]

MP = [
    ('床前明月光', ['床', '前', '明月光']),
    ('今天天气真好', ['今天', '天气', '真', '好']),
    ('中华人民共和国北京大学', ['中华人民共和国', '北京大学']),
    ('我们是abc123.45x的人', ['我们', '是', 'ab', 'c', '1', '2', '3', '.', '4', '5', 'x', '的', '人']),
    ('举头望明月，低头思故乡。', ['举头', '望', '明月', '，', '低头', '思', '故乡', '。']),
    ('，中的低是北前中民.😀é床\t共',
     ['，', '中', '的', '低', '是', '北', '前', '中', '民', '.', '😀', 'é', '床', '\t', '共']),
    ('12.5思1是真前前前', ['1', '2', '.', '5', '思', '1', '是', '真', '前', '前', '前']),
    (' 低民12.5前大思😀共北a思',
     [' ', '低', '民', '1', '2', '.', '5', '前', '大', '思', '😀', '共', '北', 'a', '思']),
    ('思 思😀和天前人a，是', ['思', ' ', '思', '😀', '和', '天', '前', '人', 'a', '，', '是']),
    ('x12.5天地Hi9', ['x', '1', '2', '.', '5', '天', '地', 'H', 'i', '9']),
    ('12.5ab京民京。望气天1', ['1', '2', '.', '5', 'ab', '京', '民', '京', '。', '望', '气', '天', '1']),
]

HMM = [
    ('床前明月光', ['床', '前', '明月光']),
    ('今天天气真好', ['今天', '天气', '真', '好']),
    ('中华人民共和国北京大学', ['中华', '人民', '共', '和', '国', '北', '京', '大', '学']),
    ('我们是abc123.45x的人', ['我们', '是', 'abc123', '.', '45', 'x', '的', '人']),
    ('举头望明月，低头思故乡。', ['举头', '望', '明月', '，', '低头', '思', '故乡', '。']),
    ('，中的低是北前中民.😀é床\t共',
     ['，', '中', '的', '低', '是', '北', '前', '中', '民', '.', '😀', 'é', '床', '\t', '共']),
    ('12.5思1是真前前前', ['12.5', '思', '1', '是', '真', '前', '前', '前']),
    (' 低民12.5前大思😀共北a思', [' ', '低民', '12.5', '前', '大思', '😀', '共', '北', 'a', '思']),
    ('思 思😀和天前人a，是', ['思', ' ', '思', '😀', '和', '天', '前', '人', 'a', '，', '是']),
    ('x12.5天地Hi9', ['x12', '.', '5', '天', '地', 'Hi9']),
    ('12.5ab京民京。望气天1', ['12.5', 'ab', '京民京', '。', '望气', '天', '1']),
]

# with add_word('光疑', 1000), add_word('的'), add_word('思故'), the user dict file below and
# add_dict({'大': 5, '上霜': 0})
USER_MIX = [
    ('床前明月光', ['床', '前', '明月光']),
    ('今天天气真好', ['今天', '天气', '真', '好']),
    ('中华人民共和国北京大学', ['中华人民共和国', '北京大学']),
    ('我们是abc123.45x的人', ['我们', '是', 'ab', 'c123', '.', '45', 'x', '的', '人']),
    ('举头望明月，低头思故乡。', ['举头', '望', '明月', '，', '低头', '思故乡', '。']),
    ('，中的低是北前中民.😀é床\t共',
     ['，', '中', '的', '低', '是', '北', '前', '中', '民', '.', '😀', 'é', '床', '\t', '共']),
    ('12.5思1是真前前前', ['12.5', '思', '1', '是', '真', '前', '前', '前']),
    (' 低民12.5前大思😀共北a思', [' ', '低民', '12.5', '前', '大思', '😀', '共', '北', 'a', '思']),
    ('思 思😀和天前人a，是', ['思', ' ', '思', '😀', '和', '天', '前', '人', 'a', '，', '是']),
    ('x12.5天地Hi9', ['x12', '.', '5', '天', '地', 'Hi9']),
    ('12.5ab京民京。望气天1', ['12.5', 'ab', '京民京', '。', '望气', '天', '1']),
]

# with add_word('光疑', 1000), add_word('的'), add_word('明月光', 1)
USER_MP = [
    ('床前明月光', ['床', '前', '明月', '光']),
    ('今天天气真好', ['今天', '天气', '真', '好']),
    ('中华人民共和国北京大学', ['中华人民共和国', '北京大学']),
    ('我们是abc123.45x的人', ['我们', '是', 'ab', 'c', '1', '2', '3', '.', '4', '5', 'x', '的', '人']),
    ('举头望明月，低头思故乡。', ['举头', '望', '明月', '，', '低头', '思', '故乡', '。']),
    ('，中的低是北前中民.😀é床\t共',
     ['，', '中', '的', '低', '是', '北', '前', '中', '民', '.', '😀', 'é', '床', '\t', '共']),
    ('12.5思1是真前前前', ['1', '2', '.', '5', '思', '1', '是', '真', '前', '前', '前']),
    (' 低民12.5前大思😀共北a思',
     [' ', '低', '民', '1', '2', '.', '5', '前', '大', '思', '😀', '共', '北', 'a', '思']),
    ('思 思😀和天前人a，是', ['思', ' ', '思', '😀', '和', '天', '前', '人', 'a', '，', '是']),
    ('x12.5天地Hi9', ['x', '1', '2', '.', '5', '天', '地', 'H', 'i', '9']),
    ('12.5ab京民京。望气天1', ['1', '2', '.', '5', 'ab', '京', '民', '京', '。', '望', '气', '天', '1']),
]


@pytest.fixture
def paths(tmp_path):
    hmm, mp = tmp_path / 'hmm_model.utf8', tmp_path / 'jieba.dict.utf8'
    hmm.write_text(HMM_MODEL, encoding='utf-8')
    mp.write_text(DICTIONARY, encoding='utf-8')
    return str(hmm), str(mp)


def _tokens(op, sentence):
    return op(np.array(sentence)).tolist()


@pytest.mark.parametrize('mode, cases', [(text.JiebaMode.MIX, MIX), (text.JiebaMode.MP, MP),
                                         (text.JiebaMode.HMM, HMM)])
def test_jieba_modes(paths, mode, cases):
    op = text.JiebaTokenizer(*paths, mode)
    for sentence, tokens in cases:
        assert _tokens(op, sentence) == tokens, sentence


def test_jieba_offsets_and_separators(paths):
    op = text.JiebaTokenizer(*paths, with_offsets=True)
    tokens, start, end = op(np.array('举头望明月，低头思故乡。'))
    assert start.dtype == np.uint32 and end.dtype == np.uint32
    assert tokens.tolist() == ['举头', '望', '明月', '，', '低头', '思', '故乡', '。']
    assert start.tolist() == [0, 6, 9, 15, 18, 24, 27, 33]
    assert end.tolist() == [6, 9, 15, 18, 24, 27, 33, 36]
    assert [x.tolist() for x in op(np.array(' '))] == [[' '], [0], [1]]
    assert [x.tolist() for x in op(np.array('，。'))] == [['，', '。'], [0, 3], [3, 6]]
    assert [x.tolist() for x in op(np.array(''))] == [[''], [], []]


def test_jieba_user_words(paths, tmp_path):
    user_file = tmp_path / 'user.dict'
    user_file.write_text('思故乡 8\n头 \n# bad line\n霜天 3 extra\n', encoding='utf-8')
    op = text.JiebaTokenizer(*paths)
    op.add_word('光疑', 1000)
    op.add_word('的')
    op.add_word('思故')
    op.add_dict(str(user_file))
    op.add_dict({'大': 5, '上霜': 0})
    for sentence, tokens in USER_MIX:
        assert _tokens(op, sentence) == tokens, sentence
    mp = text.JiebaTokenizer(*paths, text.JiebaMode.MP)
    mp.add_word('光疑', 1000)
    mp.add_word('的')
    mp.add_word('明月光', 1)
    for sentence, tokens in USER_MP:
        assert _tokens(mp, sentence) == tokens, sentence


def test_jieba_bad_arguments(paths):
    hmm, mp = paths
    with pytest.raises(ValueError, match='The dict of HMMSegment in cppjieba is not provided.'):
        text.JiebaTokenizer(None, mp)
    with pytest.raises(TypeError, match='Wrong input type for hmm_path, should be string.'):
        text.JiebaTokenizer(1, mp)
    with pytest.raises(ValueError, match='The dict of MPSegment in cppjieba is not provided.'):
        text.JiebaTokenizer(hmm, None)
    with pytest.raises(TypeError, match='Wrong input type for mp_path, should be string.'):
        text.JiebaTokenizer(hmm, 1)
    with pytest.raises(TypeError, match='Wrong input type for with_offsets, should be '
                                        'boolean.'):
        text.JiebaTokenizer(hmm, mp, with_offsets=1)
    with pytest.raises(TypeError, match='Wrong input type for mode, should be JiebaMode.'):
        text.JiebaTokenizer(hmm, mp, mode=1)
    with pytest.raises(ValueError, match=' jieba mode file .*x is not exist.'):
        text.JiebaTokenizer(hmm + 'x', mp)
    op = text.JiebaTokenizer(hmm, mp)
    for bad in (np.array(['床前']), np.array(1)):
        with pytest.raises(RuntimeError, match='JiebaTokenizerOp: the input shape should be '
                                               'scalar and the input datatype should be '
                                               'string.'):
            op(bad)
    for freq in (-1, 2 ** 32):
        with pytest.raises(ValueError, match=r'Input is not within the required interval of '
                                             r'\[0, 4294967295\].'):
            op.add_word('a', freq)
    with pytest.raises(TypeError, match='with value 1.5 is not of type'):
        op.add_word('a', 1.5)
    with pytest.raises(ValueError, match='word is not provided.'):
        op.add_word(None)
    with pytest.raises(TypeError, match='The type of user_dict must str or dict.'):
        op.add_dict(1)
    with pytest.raises(ValueError, match='user dict file .*nofile is not exist.'):
        op.add_dict(hmm + 'nofile')
