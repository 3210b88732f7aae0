"""Readers of speech and music datasets kept as PCM audio files: ``YesNoDataset``,
``SpeechCommandsDataset``, ``LJSpeechDataset``, ``CMUArcticDataset``, ``GTZANDataset``,
``LibriTTSDataset`` (WAV) and ``TedliumDataset`` (NIST SPHERE), with MindSpore's columns and
dtypes.

Every ``waveform`` is float32 of shape (channels, frames). WAV samples are divided by the
largest value of their width (32767 for 16-bit, as MindSpore scales them) and read with the
standard library's ``wave`` module when their row is read. Files found by listing folders
are taken in sorted name order (MindSpore takes them in the file system's order).
"""
import os
import wave

import numpy as np

from .file_sources import FileSource, check_dir, check_str_choice
from .gtzan_splits import split_names

__all__ = ['read_wav', 'read_sphere', 'YesNoDataset', 'SpeechCommandsDataset',
           'LJSpeechDataset', 'CMUArcticDataset', 'GTZANDataset', 'LibriTTSDataset',
           'TedliumDataset']


def read_wav(path, who):
    """``(waveform, sample_rate)`` of a PCM WAV file: float32 (channels, frames), an int."""
    if not os.path.isfile(path):
        raise RuntimeError(f"{who}: invalid file, {path} does not exist")
    try:
        with wave.open(path, 'rb') as f:
            channels, width, rate = f.getnchannels(), f.getsampwidth(), f.getframerate()
            data = f.readframes(f.getnframes())
    except (wave.Error, EOFError) as e:
        raise RuntimeError(f"{who}: {path} is not a PCM WAV file: {e}") from None
    if width == 1:
        samples = np.frombuffer(data, np.uint8).astype(np.float32) - 128
    elif width == 3:
        raw = np.frombuffer(data, np.uint8).reshape(-1, 3)
        samples = (raw[:, 0].astype(np.int32) | raw[:, 1].astype(np.int32) << 8 |
                   raw[:, 2].astype(np.int8).astype(np.int32) << 16).astype(np.float32)
    else:
        samples = np.frombuffer(data, {2: '<i2', 4: '<i4'}[width]).astype(np.float32)
    scale = float(2 ** (8 * width - 1) - 1)
    wave_ = (samples / scale).astype(np.float32).reshape(-1, channels).T
    return np.ascontiguousarray(wave_), rate


def _read_lines(path, who, encoding='utf-8'):
    if not os.path.isfile(path):
        raise RuntimeError(f"{who}: invalid file, {path} does not exist")
    with open(path, encoding=encoding) as f:
        return [line.rstrip('\r\n') for line in f if line.strip()]


def _str(value):
    return np.array(value)


class _WavRows(FileSource):
    """Rows made from ``self._items``: ``(wav path, extra column arrays...)``; ``_rate_type``
    is the dtype of ``sample_rate``."""

    _rate_type = np.int32

    def _start(self, who, dataset_dir, num_samples, num_parallel_workers, shuffle, sampler,
               num_shards, shard_id, cache):
        dataset_dir = check_dir(dataset_dir, who)
        FileSource.__init__(self, who, num_samples, num_parallel_workers, shuffle, sampler,
                            num_shards, shard_id, cache)
        self.dataset_dir, self._who = dataset_dir, who
        return dataset_dir

    def _finish(self, items, names):
        if not items:
            raise RuntimeError(f"{self._who}: no audio file found under {self.dataset_dir}")
        self._items, self._n, self._names = items, len(items), names

    def _row(self, i):
        path, *extra = self._items[i]
        waveform, rate = read_wav(path, self._who)
        return (waveform, np.array(rate, self._rate_type)) + tuple(extra)


class YesNoDataset(_WavRows):
    """Yes/No: columns ``waveform`` (float32 (1, frames)), ``sample_rate`` (int32) and
    ``label`` (int32 (8,): the eight yes/no words of the file name ``0_1_0_0_1_0_1_1.wav``).

    Args:
        dataset_dir: the folder of the ``.wav`` files.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        ValueError: for a missing folder or conflicting sampling arguments.
        RuntimeError: when there is no ``.wav`` file or a name is not eight 0/1 labels.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'YesNoDataset'
        root = self._start(who, dataset_dir, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        items = []
        for name in sorted(os.listdir(root)):
            stem, ext = os.path.splitext(name)
            if ext != '.wav':
                continue
            parts = stem.split('_')
            if len(parts) != 8 or any(p not in ('0', '1') for p in parts):
                raise RuntimeError(f"{who}: the file name {name} is not eight 0/1 labels "
                                   f"joined by '_'")
            items.append((os.path.join(root, name), np.array(parts, np.int32)))
        self._finish(items, ['waveform', 'sample_rate', 'label'])


class SpeechCommandsDataset(_WavRows):
    """Speech Commands: columns ``waveform`` (float32 (1, frames)), ``sample_rate`` (int32),
    ``label`` (the word, str), ``speaker_id`` (str) and ``utterance_number`` (int32).

    Files are ``<word>/<speaker>_nohash_<n>.wav`` (``_background_noise_`` is skipped), words and
    files in sorted order. ``usage`` 'valid' and 'test' read the files listed in
    ``validation_list.txt`` / ``testing_list.txt``, 'train' the others, 'all' every file.

    Args:
        dataset_dir: the folder of the word folders and list files.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage``, a missing folder or conflicting sampling
            arguments.
        RuntimeError: for a missing list file, a badly named file or no file at all.
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'SpeechCommandsDataset'
        usage = check_str_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        root = self._start(who, dataset_dir, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage = usage
        lists = {'valid': 'validation_list.txt', 'test': 'testing_list.txt'}
        if usage in lists:
            wanted = _read_lines(os.path.join(root, lists[usage]), who)
        else:
            wanted = []
            for word in sorted(os.listdir(root)):
                folder = os.path.join(root, word)
                if word == '_background_noise_' or not os.path.isdir(folder):
                    continue
                wanted += [f"{word}/{f}" for f in sorted(os.listdir(folder))
                           if f.endswith('.wav')]
            if usage == 'train':
                held = set()
                for name in lists.values():
                    held.update(_read_lines(os.path.join(root, name), who))
                wanted = [w for w in wanted if w not in held]
        items = []
        for rel in wanted:
            word, name = rel.split('/', 1)
            speaker, _, number = os.path.splitext(name)[0].partition('_nohash_')
            if not number.isdigit():
                raise RuntimeError(f"{who}: the file name {rel} is not "
                                   f"<speaker>_nohash_<number>.wav")
            items.append((os.path.join(root, word, name), _str(word), _str(speaker),
                          np.array(int(number), np.int32)))
        self._finish(items, ['waveform', 'sample_rate', 'label', 'speaker_id',
                             'utterance_number'])


class LJSpeechDataset(_WavRows):
    """LJ Speech: columns ``waveform`` (float32 (1, frames)), ``sample_rate`` (int32),
    ``transcription`` and ``normalized_transcription`` (str), in ``metadata.csv``'s order.

    Args:
        dataset_dir: the folder holding ``metadata.csv`` (``id|text|normalized text`` lines)
            and ``wavs/<id>.wav``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        ValueError: for a missing folder or conflicting sampling arguments.
        RuntimeError: for a missing ``metadata.csv`` or a line without three fields.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'LJSpeechDataset'
        root = self._start(who, dataset_dir, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        items = []
        for line in _read_lines(os.path.join(root, 'metadata.csv'), who):
            fields = line.split('|')
            if len(fields) != 3:
                raise RuntimeError(f"{who}: metadata.csv line {line!r} does not have the three "
                                   f"fields id|transcription|normalized_transcription")
            items.append((os.path.join(root, 'wavs', fields[0] + '.wav'), _str(fields[1]),
                          _str(fields[2])))
        self._finish(items, ['waveform', 'sample_rate', 'transcription',
                             'normalized_transcription'])


_CMU_NAMES = ('aew', 'ahw', 'aup', 'awb', 'axb', 'bdl', 'clb', 'eey', 'fem', 'gka', 'jmk',
              'ksp', 'ljm', 'lnh', 'rms', 'rxr', 'slp', 'slt')


class CMUArcticDataset(_WavRows):
    """CMU Arctic: columns ``waveform`` (float32 (1, frames)), ``sample_rate`` (uint32),
    ``transcript`` and ``utterance_id`` (str, ``a0001`` for ``arctic_a0001``).

    Rows follow ``cmu_us_<name>_arctic/etc/txt.done.data`` (lines
    ``( arctic_a0001 "text" )``); audio is ``cmu_us_<name>_arctic/wav/arctic_a0001.wav``.

    Args:
        dataset_dir: the folder of the ``cmu_us_*_arctic`` folders.
        name: the speaker, one of 'aew', 'ahw', 'aup', 'awb', 'axb', 'bdl', 'clb', 'eey',
            'fem', 'gka', 'jmk', 'ksp', 'ljm', 'lnh', 'rms', 'rxr', 'slp', 'slt'
            (None: 'aew').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``name``, a missing folder or conflicting sampling
            arguments.
        RuntimeError: for a missing ``txt.done.data`` or a line not in its form.
    """

    _rate_type = np.uint32

    def __init__(self, dataset_dir, name=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'CMUArcticDataset'
        name = check_str_choice(name, _CMU_NAMES, who, 'name', 'aew')
        root = self._start(who, dataset_dir, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.name = name
        base = os.path.join(root, f'cmu_us_{name}_arctic')
        items = []
        for line in _read_lines(os.path.join(base, 'etc', 'txt.done.data'), who):
            body = line.strip()
            if not (body.startswith('(') and body.endswith(')')) or '"' not in body:
                raise RuntimeError(f"{who}: txt.done.data line {line!r} is not "
                                   f"( <id> \"<transcript>\" )")
            body = body[1:-1].strip()
            uid, _, text = body.partition(' ')
            text = text.strip()
            if text.startswith('"') and text.endswith('"'):
                text = text[1:-1]
            items.append((os.path.join(base, 'wav', uid + '.wav'), _str(text),
                          _str(uid.split('_', 1)[-1])))
        self._finish(items, ['waveform', 'sample_rate', 'transcript', 'utterance_id'])


class GTZANDataset(_WavRows):
    """GTZAN: columns ``waveform`` (float32 (1, frames)), ``sample_rate`` (uint32) and
    ``label`` (the genre, str).

    Files are ``<genre>/<genre>.<nnnnn>.wav``. ``usage`` 'train', 'valid' and 'test' read the
    files of MindSpore's fixed split lists (the filtered splits, in the lists' order) that are
    present; 'all' reads every ``.wav`` of every genre folder, in sorted order.

    Args:
        dataset_dir: the folder of the genre folders.
        usage: 'train', 'valid', 'test' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage``, a missing folder or conflicting sampling
            arguments.
        RuntimeError: when no file of ``usage`` is found.
    """

    _rate_type = np.uint32

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'GTZANDataset'
        usage = check_str_choice(usage, ('train', 'valid', 'test', 'all'), who, 'usage', 'all')
        root = self._start(who, dataset_dir, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage = usage
        if usage == 'all':
            stems = [os.path.splitext(f)[0] for genre in sorted(os.listdir(root))
                     if os.path.isdir(os.path.join(root, genre))
                     for f in sorted(os.listdir(os.path.join(root, genre)))
                     if f.endswith('.wav')]
        else:
            stems = split_names(usage)
        items = []
        for stem in stems:
            genre = stem.split('.')[0]
            path = os.path.join(root, genre, stem + '.wav')
            if usage == 'all' or os.path.isfile(path):
                items.append((path, _str(genre)))
        self._finish(items, ['waveform', 'sample_rate', 'label'])


_LIBRITTS_USAGES = ('dev-clean', 'dev-other', 'test-clean', 'test-other', 'train-clean-100',
                    'train-clean-360', 'train-other-500', 'all')


class LibriTTSDataset(_WavRows):
    """LibriTTS: columns ``waveform`` (float32 (1, frames)), ``sample_rate`` (uint32),
    ``original_text``, ``normalized_text`` (str), ``speaker_id``, ``chapter_id`` (uint32) and
    ``utterance_id`` (str).

    Each ``<usage>/<speaker>/<chapter>/<speaker>_<chapter>.trans.tsv`` lists
    ``<utterance id>\\t<original>\\t<normalized>`` lines, read in sorted folder order; the
    audio is ``<utterance id>.wav`` beside it.

    Args:
        dataset_dir: the folder of the usage folders.
        usage: 'dev-clean', 'dev-other', 'test-clean', 'test-other', 'train-clean-100',
            'train-clean-360', 'train-other-500' or 'all' (None: 'all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        TypeError, ValueError: for a bad ``usage``, a missing folder or conflicting sampling
            arguments.
        RuntimeError: for a line without three fields or when nothing is found.
    """

    _rate_type = np.uint32

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = 'LibriTTSDataset'
        usage = check_str_choice(usage, _LIBRITTS_USAGES, who, 'usage', 'all')
        root = self._start(who, dataset_dir, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.usage = usage
        parts = _LIBRITTS_USAGES[:-1] if usage == 'all' else (usage,)
        items = []
        for part in parts:
            top = os.path.join(root, part)
            if not os.path.isdir(top):
                continue
            for speaker in sorted(os.listdir(top)):
                for chapter in sorted(os.listdir(os.path.join(top, speaker))):
                    folder = os.path.join(top, speaker, chapter)
                    tsv = os.path.join(folder, f'{speaker}_{chapter}.trans.tsv')
                    if not os.path.isfile(tsv):
                        continue
                    for line in _read_lines(tsv, who):
                        fields = line.split('\t')
                        if len(fields) != 3:
                            raise RuntimeError(f"{who}: {tsv} line {line!r} does not have "
                                               f"three tab-separated fields")
                        uid = fields[0]
                        spk, chap = uid.split('_')[:2]
                        items.append((os.path.join(folder, uid + '.wav'), _str(fields[1]),
                                      _str(fields[2]), np.array(int(spk), np.uint32),
                                      np.array(int(chap), np.uint32), _str(uid)))
        self._finish(items, ['waveform', 'sample_rate', 'original_text', 'normalized_text',
                             'speaker_id', 'chapter_id', 'utterance_id'])


def read_sphere(path, who):
    """``(samples, sample_rate)`` of a NIST SPHERE file of 16-bit PCM (TED-LIUM's ``.sph``):
    int16 samples of shape (frames, channels)."""
    if not os.path.isfile(path):
        raise RuntimeError(f"{who}: invalid file, {path} does not exist")
    with open(path, 'rb') as f:
        data = f.read()
    lines = data[:1024].split(b'\n')
    if not lines or lines[0].strip() != b'NIST_1A' or len(lines) < 2:
        raise RuntimeError(f"{who}: {path} is not a NIST SPHERE file")
    header_size = int(lines[1])
    fields = {}
    for line in data[:header_size].split(b'\n')[2:]:
        parts = line.split()
        if parts and parts[0] == b'end_head':
            break
        if len(parts) >= 3:
            fields[parts[0].decode()] = parts[2].decode()
    width = int(fields.get('sample_n_bytes', 2))
    coding = fields.get('sample_coding', 'pcm')
    if width != 2 or not coding.startswith('pcm'):
        raise RuntimeError(f"{who}: {path} holds {coding} samples of {width} bytes; only "
                           f"16-bit PCM SPHERE files are read")
    order = '>' if fields.get('sample_byte_format') == '10' else '<'
    channels = int(fields.get('channel_count', 1))
    samples = np.frombuffer(data[header_size:], order + 'i2')
    return samples[:len(samples) // channels * channels].reshape(-1, channels), \
        int(fields.get('sample_rate', 16000))


class TedliumDataset(_WavRows):
    """TED-LIUM: one row per segment of the talks' ``.stm`` transcripts; columns ``waveform``
    (float32 (channels, frames): the segment's 16-bit samples / 32768), ``sample_rate``
    (int32), ``transcript``, ``talk_id``, ``speaker_id`` and ``identifier`` (str; the
    ``<o,f0,male>`` field).

    Each ``stm/<talk>.stm`` line is ``talk channel speaker start end identifier transcript``
    (``ignore_time_segment_in_scoring`` lines are skipped); the audio is ``sph/<talk>.sph``
    beside it, cut at ``start`` and ``end`` seconds. Rows come in MindSpore's order: by line
    number, then talk, then part.

    Args:
        dataset_dir: the release folder, holding ``train``, ``test`` and ``dev``
            ('release1', 'release2') or ``data`` ('release3').
        release: 'release1', 'release2' or 'release3'.
        usage: 'train', 'test', 'dev' or 'all' for releases 1 and 2; 'all' for release 3
            (None: 'all').
        extensions: the audio files' extension; only '.sph' (None: '.sph').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            ``MnistDataset``.

    Raises:
        ValueError: for a bad ``release``, ``usage`` or ``extensions``, a missing folder or
            conflicting sampling arguments.
        RuntimeError: for a missing ``stm`` folder or a malformed line; reading raises it for
            a missing or non-PCM ``.sph`` file.
    """

    def __init__(self, dataset_dir, release, usage=None, extensions=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        who = 'TedliumDataset'
        release = check_str_choice(release, ('release1', 'release2', 'release3'), who,
                                   'release', None)
        if release is None:
            raise ValueError(f"{who}: release is required: 'release1', 'release2' or "
                             f"'release3'")
        usages = ('all',) if release == 'release3' else ('train', 'test', 'dev', 'all')
        usage = check_str_choice(usage, usages, who, 'usage', 'all')
        if extensions not in (None, '.sph'):
            raise ValueError(f"{who}: extensions {extensions!r} is not within the valid set of "
                             f"['.sph']")
        root = self._start(who, dataset_dir, num_samples, num_parallel_workers, shuffle,
                           sampler, num_shards, shard_id, cache)
        self.release, self.usage = release, usage
        parts = ('data',) if release == 'release3' else \
            (('dev', 'test', 'train') if usage == 'all' else (usage,))
        keyed = []
        for p, part in enumerate(parts):
            stm_dir = os.path.join(root, part, 'stm')
            if not os.path.isdir(stm_dir):
                raise RuntimeError(f"{who}: invalid file, failed to open folder {stm_dir}")
            for name in sorted(os.listdir(stm_dir)):
                if not name.endswith('.stm'):
                    continue
                talk = name[:-4]
                for k, line in enumerate(_read_lines(os.path.join(stm_dir, name), who)):
                    fields = line.split(' ', 6)
                    if len(fields) < 6:
                        raise RuntimeError(f"{who}: {name} line {k + 1} is not 'talk channel "
                                           f"speaker start end identifier transcript'")
                    if fields[2] == 'inter_segment_gap' or \
                            'ignore_time_segment_in_scoring' in line:
                        continue
                    sph = os.path.join(root, part, 'sph', talk + '.sph')
                    keyed.append(((k, talk, p), (sph, float(fields[3]), float(fields[4]),
                                                 fields[6] if len(fields) > 6 else '',
                                                 fields[0], fields[2], fields[5])))
        items = [item for _, item in sorted(keyed, key=lambda kv: kv[0])]
        self._finish(items, ['waveform', 'sample_rate', 'transcript', 'talk_id', 'speaker_id',
                             'identifier'])

    def _row(self, i):
        sph, start, end, transcript, talk, speaker, identifier = self._items[i]
        samples, rate = read_sphere(sph, self._who)
        segment = samples[int(start * rate):int(end * rate)]
        waveform = np.ascontiguousarray((segment.astype(np.float32) / 32768).T)
        return (waveform, np.array(rate, np.int32), _str(transcript), _str(talk), _str(speaker),
                _str(identifier))
