"""The WAV audio readers: columns, dtypes, shapes and values as MindSpore 2.10 gives them on
the same fixture folders (recorded from MindSpore; hookgrad lists folders in sorted order)."""
import os

import numpy as np
import pytest

import hookgrad.dataset as ds
from hookgrad.dataset.gtzan_splits import split_names

from . import audio_trees as trees


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True))


def _wave(k):
    # MindSpore scales 16-bit samples by 1/32767
    return (trees.tone(k) / 32767).astype(np.float32)[None]


def _check_audio(row, k, rate, rate_dtype):
    waveform, sample_rate = row[0], row[1]
    assert waveform.dtype == np.float32 and waveform.shape == (1, 6)
    np.testing.assert_allclose(waveform, _wave(k), rtol=1e-6)
    assert sample_rate.dtype == rate_dtype and sample_rate.shape == () and int(sample_rate) == rate


def test_yes_no(tmp_path):
    trees.yes_no(tmp_path)
    data = ds.YesNoDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ['waveform', 'sample_rate', 'label']
    rows = _rows(data)
    order = {'0_0_0_0_1_1_1_1': 2, '0_1_0_1_1_0_0_1': 0, '1_1_1_0_0_0_1_1': 1}
    for row, (name, k) in zip(rows, sorted(order.items())):
        _check_audio(row, k, 8000, np.int32)
        assert row[2].dtype == np.int32 and row[2].tolist() == [int(c) for c in name.split('_')]
    (tmp_path / '1_2.wav').write_bytes(b'')
    with pytest.raises(RuntimeError, match="1_2.wav is not eight 0/1 labels"):
        ds.YesNoDataset(str(tmp_path))


@pytest.mark.parametrize('usage, expected', [
    ('all', [(0, 'cat', 'aa11', 0), (1, 'cat', 'bb22', 1), (2, 'dog', 'aa11', 2),
             (3, 'dog', 'cc33', 0), (4, 'four', 'dd44', 3)]),
    ('train', [(0, 'cat', 'aa11', 0), (2, 'dog', 'aa11', 2)]),
    ('valid', [(3, 'dog', 'cc33', 0)]),
    ('test', [(1, 'cat', 'bb22', 1), (4, 'four', 'dd44', 3)])])
def test_speech_commands_usages_as_mindspore(tmp_path, usage, expected):
    trees.speech_commands(tmp_path)
    data = ds.SpeechCommandsDataset(str(tmp_path), usage=usage, shuffle=False)
    assert data.get_col_names() == ['waveform', 'sample_rate', 'label', 'speaker_id',
                                    'utterance_number']
    rows = _rows(data)
    assert data.get_dataset_size() == len(expected) == len(rows)
    for row, (k, label, speaker, number) in zip(rows, expected):
        _check_audio(row, k, 16000, np.int32)
        assert (str(row[2]), str(row[3])) == (label, speaker)
        assert row[4].dtype == np.int32 and int(row[4]) == number


def test_lj_speech(tmp_path):
    trees.lj_speech(tmp_path)
    rows = _rows(ds.LJSpeechDataset(str(tmp_path), shuffle=False))
    assert [(str(r[2]), str(r[3])) for r in rows] == [
        ('Printing, in the only sense', 'Printing, in the only sense'),
        ('in being comparatively modern.', 'in being comparatively modern.'),
        ('Mr. Smith 1', 'Mister Smith one')]
    for k, row in enumerate(rows):
        _check_audio(row, k, 22050, np.int32)
    os.remove(tmp_path / 'metadata.csv')
    with pytest.raises(RuntimeError, match="metadata.csv does not exist"):
        ds.LJSpeechDataset(str(tmp_path))


def test_cmu_arctic(tmp_path):
    trees.cmu_arctic(tmp_path)
    data = ds.CMUArcticDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ['waveform', 'sample_rate', 'transcript', 'utterance_id']
    rows = _rows(data)
    assert [str(r[3]) for r in rows] == ['a0001', 'a0002', 'b0001']
    assert str(rows[1][2]) == 'Sentence number 1, with a comma.'
    for k, row in enumerate(rows):
        _check_audio(row, k, 16000, np.uint32)
    with pytest.raises(ValueError, match="name 'xyz' is not within the valid set"):
        ds.CMUArcticDataset(str(tmp_path), name='xyz')
    with pytest.raises(RuntimeError, match="txt.done.data does not exist"):
        ds.CMUArcticDataset(str(tmp_path), name='bdl')


@pytest.mark.parametrize('usage, expected', [
    ('train', [(1, 'blues')]), ('valid', [(0, 'blues'), (3, 'disco')]),
    ('test', [(2, 'blues')]),
    ('all', [(0, 'blues'), (2, 'blues'), (1, 'blues'), (3, 'disco')])])
def test_gtzan_splits_as_mindspore(tmp_path, usage, expected):
    trees.gtzan(tmp_path)
    rows = _rows(ds.GTZANDataset(str(tmp_path), usage=usage, shuffle=False))
    assert len(rows) == len(expected)
    for row, (k, genre) in zip(rows, expected):
        _check_audio(row, k, 22050, np.uint32)
        assert str(row[2]) == genre


def test_gtzan_split_lists_have_mindspores_sizes():
    sizes = [len(split_names(u)) for u in ('train', 'valid', 'test')]
    assert sizes == [443, 197, 290]
    assert len(set(sum((split_names(u) for u in ('train', 'valid', 'test')), []))) == 930


def test_libri_tts(tmp_path):
    trees.libri_tts(tmp_path)
    data = ds.LibriTTSDataset(str(tmp_path), usage='dev-clean', shuffle=False)
    assert data.get_col_names() == ['waveform', 'sample_rate', 'original_text',
                                    'normalized_text', 'speaker_id', 'chapter_id',
                                    'utterance_id']
    rows = _rows(data)
    assert [(str(r[2]), str(r[3]), int(r[4]), int(r[5]), str(r[6])) for r in rows] == [
        ('Original "0".', 'Normalized 0.', 116, 288045, '116_288045_000003_000000'),
        ('Original "1".', 'Normalized 1.', 116, 288045, '116_288045_000004_000000'),
        ('Original "2".', 'Normalized 2.', 1255, 74899, '1255_74899_000001_000000')]
    assert rows[0][4].dtype == np.uint32 and rows[0][5].dtype == np.uint32
    for k, row in enumerate(rows):
        _check_audio(row, k, 24000, np.uint32)
    assert len(_rows(ds.LibriTTSDataset(str(tmp_path)))) == 3
    with pytest.raises(RuntimeError, match="no audio file found"):
        ds.LibriTTSDataset(str(tmp_path), usage='test-clean')


def test_sampling_and_folder_errors(tmp_path):
    trees.speech_commands(tmp_path)
    shard = ds.SpeechCommandsDataset(str(tmp_path), num_shards=2, shard_id=1, shuffle=False)
    assert [str(r[3]) for r in _rows(shard)] == ['bb22', 'cc33', 'aa11']     # wraps around
    assert ds.SpeechCommandsDataset(str(tmp_path), num_samples=2).get_dataset_size() == 2
    picked = ds.SpeechCommandsDataset(str(tmp_path), sampler=ds.SubsetSampler([4, 0]))
    assert [str(r[2]) for r in _rows(picked)] == ['four', 'cat']
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.YesNoDataset(str(tmp_path / 'missing'))
    with pytest.raises(ValueError, match="usage 'dev' is not within the valid set"):
        ds.SpeechCommandsDataset(str(tmp_path), usage='dev')


def test_wav_widths_and_channels(tmp_path):
    from hookgrad.dataset.audio_sources import read_wav
    path = str(tmp_path / 'a' / 'st.wav')
    trees.write_wav(path, np.array([[100, -100], [32767, -32767]]), rate=44100, channels=2)
    waveform, rate = read_wav(path, 'test')
    assert rate == 44100 and waveform.shape == (2, 2)
    np.testing.assert_allclose(waveform, [[100 / 32767, 1], [-100 / 32767, -1]], rtol=1e-6)
    (tmp_path / 'bad.wav').write_bytes(b'RIFFjunk')
    with pytest.raises(RuntimeError, match="bad.wav is not a PCM WAV file"):
        read_wav(str(tmp_path / 'bad.wav'), 'test')


def test_tedlium_rows_in_mindspores_order(tmp_path):
    trees.tedlium(tmp_path)
    data = ds.TedliumDataset(str(tmp_path), 'release1', usage='all', shuffle=False)
    assert data.get_col_names() == ['waveform', 'sample_rate', 'transcript', 'talk_id',
                                    'speaker_id', 'identifier']
    rows = _rows(data)
    # MindSpore 2.10's order: by line, then talk, then part (dev, test, train)
    assert [(str(r[2]), str(r[3])) for r in rows[:6]] == [
        ('first words of dev', 'TalkA'), ('first words of test', 'TalkA'),
        ('first words of train', 'TalkA'), ('first words of dev', 'TalkB'),
        ('first words of test', 'TalkB'), ('first words of train', 'TalkB')]
    assert [r[0].shape for r in rows] == [(1, 16)] * 6 + [(1, 12)] * 6
    first = rows[2]                    # train TalkA, 0.0 s to 1.0 s at 16 Hz
    assert int(first[1]) == 16 and first[1].dtype == np.int32
    assert str(first[4]) == 'TalkA_spk' and str(first[5]) == '<o,f0,male>'
    np.testing.assert_allclose(first[0][0], np.arange(16) * 10 / 32768, rtol=1e-6)
    second = rows[8]                   # train TalkA, 1.5 s to 2.25 s: samples 24..35
    np.testing.assert_allclose(second[0][0], np.arange(24, 36) * 10 / 32768, rtol=1e-6)


def test_tedlium_release3_and_errors(tmp_path):
    trees.tedlium(tmp_path / 'r3', 'release3')
    assert len(_rows(ds.TedliumDataset(str(tmp_path / 'r3'), 'release3'))) == 4
    with pytest.raises(ValueError, match="usage 'train' is not within the valid set"):
        ds.TedliumDataset(str(tmp_path / 'r3'), 'release3', usage='train')
    with pytest.raises(ValueError, match="extensions '.wav' is not within"):
        ds.TedliumDataset(str(tmp_path / 'r3'), 'release3', extensions='.wav')
    with pytest.raises(RuntimeError, match="failed to open folder"):
        ds.TedliumDataset(str(tmp_path / 'r3'), 'release1', usage='dev')
    (tmp_path / 'r3' / 'data' / 'sph' / 'TalkA.sph').write_bytes(b'RIFF....')
    with pytest.raises(RuntimeError, match="is not a NIST SPHERE file"):
        _rows(ds.TedliumDataset(str(tmp_path / 'r3'), 'release3', shuffle=False))
