"""Tiny text dataset files in the layouts MindSpore's readers expect: SQuAD and CLUE JSON,
Multi30k and IWSLT parallel text."""
import json
import os


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def squad(root, version='1.1'):
    def doc(title, paras):
        return {'title': title, 'paragraphs': paras}
    train = {'version': version, 'data': [
        doc('A', [{'context': 'Alpha beta gamma.', 'qas': [
            {'id': 'q1', 'question': 'What follows alpha?',
             'answers': [{'text': 'beta', 'answer_start': 6}]},
            {'id': 'q2', 'question': 'Two answers?',
             'answers': [{'text': 'gamma', 'answer_start': 11},
                         {'text': 'gamma.', 'answer_start': 11}]}]}]),
        doc('B', [{'context': 'Delta.', 'qas': [
            {'id': 'q3', 'question': 'Nothing?', 'answers': [], 'is_impossible': True}]}])]}
    dev = {'version': version, 'data': [doc('C', [{'context': 'Epsilon zeta.', 'qas': [
        {'id': 'q4', 'question': 'Last word?', 'answers': [{'text': 'zeta', 'answer_start': 8}]}
    ]}])]}
    _write(os.path.join(root, f'train-v{version}.json'), json.dumps(train))
    _write(os.path.join(root, f'dev-v{version}.json'), json.dumps(dev))


def multi30k(root):
    for folder, name, count in (('training', 'train', 3), ('validation', 'val', 2),
                                ('mmt16_task1_test', 'test', 1)):
        _write(os.path.join(root, folder, f'{name}.en'),
               ''.join(f'{name} english {k}\n' for k in range(count)))
        _write(os.path.join(root, folder, f'{name}.de'),
               ''.join(f'{name} deutsch {k}\n' for k in range(count)))


def clue_afqmc(path, with_label=True):
    rows = [{'id': 0, 'sentence1': 'eins', 'sentence2': 'zwei', 'label': '0'},
            {'id': 1, 'sentence1': 'drei', 'sentence2': 'vier', 'label': '1'}]
    if not with_label:
        for r in rows:
            del r['label']
    _write(path, ''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows))


def clue_tnews(path, with_label=True):
    rows = [{'label': '102', 'label_desc': 'news_entertainment', 'sentence': 's one',
             'keywords': 'k1,k2'},
            {'label': '110', 'label_desc': 'news_military', 'sentence': 's two',
             'keywords': ''}]
    if not with_label:
        rows = [{'id': k, 'sentence': r['sentence'], 'keywords': r['keywords']}
                for k, r in enumerate(rows)]
    _write(path, ''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows))


def iwslt(root, year='2016', src='de', tgt='en'):
    pair = f'{src}-{tgt}'
    base = os.path.join(root, 'texts', src, tgt, pair) if year == '2016' else \
        os.path.join(root, 'texts', 'DeEnItNlRo', 'DeEnItNlRo', 'DeEnItNlRo-DeEnItNlRo')
    tag = '16' if year == '2016' else '17'
    for lang in (src, tgt):
        _write(os.path.join(base, f'train.tags.{pair}.{lang}'),
               f'<url>http://x</url>\n<talkid>1</talkid>\ntrain {lang} one\n'
               f'  train {lang} two  \n<title>T</title>\n')
        for part in ('dev2010', 'tst2010', 'tst2013', 'tst2014', 'tst2015'):
            _write(os.path.join(base, f'IWSLT{tag}.TED.{part}.{pair}.{lang}.xml'),
                   f'<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n<srcset>\n'
                   f'<doc docid="1">\n<url>u</url>\n'
                   f'<seg id="1"> {part} {lang} a </seg>\n<seg id="2">{part} {lang} b</seg>\n'
                   f'</doc>\n</srcset>\n</mteval>\n')
