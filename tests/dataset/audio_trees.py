"""Tiny audio dataset folders in the layouts MindSpore's audio readers expect, written with the
standard library's ``wave`` module: 16-bit PCM with known samples."""
import os
import wave

import numpy as np


def write_wav(path, samples, rate=8000, channels=1, width=2):
    """A PCM WAV file of int samples (shape (frames,) or (frames, channels))."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    dtype = {1: np.uint8, 2: '<i2', 4: '<i4'}[width]
    with wave.open(str(path), 'wb') as f:
        f.setnchannels(channels)
        f.setsampwidth(width)
        f.setframerate(rate)
        f.writeframes(np.asarray(samples).astype(dtype).tobytes())


def tone(k, n=6):
    """``n`` distinct int16 samples for file number ``k``."""
    return (np.arange(n) - 2) * 1000 + k * 7


def yes_no(root):
    for k, name in enumerate(['0_1_0_1_1_0_0_1', '1_1_1_0_0_0_1_1', '0_0_0_0_1_1_1_1']):
        write_wav(os.path.join(root, f'{name}.wav'), tone(k))


def speech_commands(root):
    files = ['cat/aa11_nohash_0.wav', 'cat/bb22_nohash_1.wav', 'dog/aa11_nohash_2.wav',
             'dog/cc33_nohash_0.wav', 'four/dd44_nohash_3.wav']
    for k, f in enumerate(files):
        write_wav(os.path.join(root, f), tone(k), rate=16000)
    write_wav(os.path.join(root, '_background_noise_', 'noise.wav'), tone(9), rate=16000)
    with open(os.path.join(root, 'validation_list.txt'), 'w') as f:
        f.write('dog/cc33_nohash_0.wav\n')
    with open(os.path.join(root, 'testing_list.txt'), 'w') as f:
        f.write('cat/bb22_nohash_1.wav\nfour/dd44_nohash_3.wav\n')


def lj_speech(root):
    lines = ['LJ001-0001|Printing, in the only sense|Printing, in the only sense',
             'LJ001-0002|in being comparatively modern.|in being comparatively modern.',
             'LJ002-0001|Mr. Smith 1|Mister Smith one']
    with open(os.path.join(root, 'metadata.csv'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    for k, line in enumerate(lines):
        write_wav(os.path.join(root, 'wavs', line.split('|')[0] + '.wav'), tone(k), 22050)


def cmu_arctic(root, name='aew'):
    base = os.path.join(root, f'cmu_us_{name}_arctic')
    ids = ['arctic_a0001', 'arctic_a0002', 'arctic_b0001']
    os.makedirs(os.path.join(base, 'etc'), exist_ok=True)
    with open(os.path.join(base, 'etc', 'txt.done.data'), 'w') as f:
        for k, i in enumerate(ids):
            f.write(f'( {i} "Sentence number {k}, with a comma." )\n')
    for k, i in enumerate(ids):
        write_wav(os.path.join(base, 'wav', f'{i}.wav'), tone(k), 16000)


def gtzan(root):
    # names from MindSpore's (torchaudio's) split lists: train, valid, test
    for k, name in enumerate(['blues.00000', 'blues.00029', 'blues.00012', 'disco.00000']):
        genre = name.split('.')[0]
        write_wav(os.path.join(root, genre, f'{name}.wav'), tone(k), 22050)


def libri_tts(root, usage='dev-clean'):
    for k, (spk, chap, utt) in enumerate([('116', '288045', '000003_000000'),
                                           ('116', '288045', '000004_000000'),
                                           ('1255', '74899', '000001_000000')]):
        folder = os.path.join(root, usage, spk, chap)
        uid = f'{spk}_{chap}_{utt}'
        write_wav(os.path.join(folder, f'{uid}.wav'), tone(k), 24000)
        with open(os.path.join(folder, f'{uid}.original.txt'), 'w') as f:
            f.write(f'Original "{k}".')
        with open(os.path.join(folder, f'{uid}.normalized.txt'), 'w') as f:
            f.write(f'Normalized {k}.')
        with open(os.path.join(folder, f'{spk}_{chap}.trans.tsv'), 'a') as f:
            f.write(f'{uid}\tOriginal "{k}".\tNormalized {k}.\n')


def write_sph(path, samples, rate=16000):
    """A NIST SPHERE file of 16-bit little-endian PCM samples, as TED-LIUM keeps its audio."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    samples = np.asarray(samples).astype('<i2')
    fields = (f"sample_count -i {len(samples)}\nsample_rate -i {rate}\nchannel_count -i 1\n"
              f"sample_n_bytes -i 2\nsample_byte_format -s2 01\nsample_coding -s3 pcm\n"
              f"end_head\n")
    header = f"NIST_1A\n   1024\n{fields}".encode().ljust(1024, b' ')
    with open(path, 'wb') as f:
        f.write(header + samples.tobytes())


def tedlium(root, release='release1'):
    """A TED-LIUM release folder: ``<part>/sph/*.sph`` and ``<part>/stm/*.stm``."""
    parts = ('data',) if release == 'release3' else ('train', 'test', 'dev')
    for p, part in enumerate(parts):
        folder = os.path.join(root, part)
        for t, talk in enumerate(('TalkA', 'TalkB')):
            samples = np.arange(64) * 10 + 1000 * p + 100 * t
            write_sph(os.path.join(folder, 'sph', f'{talk}.sph'), samples, rate=16)
            os.makedirs(os.path.join(folder, 'stm'), exist_ok=True)
            with open(os.path.join(folder, 'stm', f'{talk}.stm'), 'w') as f:
                f.write(f'{talk} 1 {talk}_spk 0.0 1.0 <o,f0,male> first words of {part}\n'
                        f'{talk} 1 {talk}_spk 1.5 2.25 <o,f0,male> second words\n')
