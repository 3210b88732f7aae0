"""Write the BFloat16 checkpoints that tests/checkpoint/test_bfloat16_files.py reads, with
MindSpore 2.10 itself, and record what MindSpore does with them.

Run with a Python that has the real MindSpore (not hookgrad):

    /tmp/msvenv/bin/python tools/make_mindspore_bf16_checkpoints.py tests/checkpoint/fixtures

It writes ``bf16.ckpt``, ``bf16_crc.ckpt`` and ``bf16.safetensors`` (BFloat16 entries whose
bits include NaNs with payloads, infinities, -0 and subnormals, next to a Float32 one) and
``bf16_expected.json``: for each file, what MindSpore's ``load_checkpoint`` gives back
(BFloat16 values as their 16 bits); the error MindSpore raises saving BFloat16 to safetensors
with ``crc_check=True``; and for ``load_param_into_net`` between BFloat16 and the other types,
the bits MindSpore stores in the network's parameter (or the error it raises).
"""
import json
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn
from mindspore.common import np_dtype

# bits of 1.5, NaN, -0, inf, -inf, the smallest subnormal, the largest finite, 1.0078125,
# a signalling NaN with a payload, a negative NaN
BF16_BITS = [0x3fc0, 0x7fc0, 0x8000, 0x7f80, 0xff80, 0x0001, 0x7f7f, 0x3f81, 0x7f81, 0xffff]
UINT = {ms.float16: np.uint16, ms.float32: np.uint32, ms.float64: np.uint64,
        ms.bfloat16: np.uint16}
# sources cast into a BFloat16 parameter: ties, NaN payloads, overflow, underflow, and a
# float64 value that rounds differently directly than through float32
CAST_SOURCES = {
    'Float32': np.array([0x3f808000, 0x3f818000, 0x3f80c000, 0x3f804000, 0x7fc00001,
                         0x7f800001, 0x7f7fffff, 0x00000001, 0x80010000, 0xff800000],
                        np.uint32).view(np.float32),
    'Float64': np.array([1 + 2 ** -8 + 2 ** -30, 1 + 2 ** -8, 1e300, 1e-300,
                         -1 - 2 ** -8 - 2 ** -40, 3.0, 0.1, -0.1, 65504.0, 1 / 3]),
    'Float16': np.array([1.0009765625, 65504, 6e-8, -0.0, np.inf, np.nan, 0.1, 1 / 3, 2049, 3],
                        np.float16),
}


def bf16(bits):
    return ms.Tensor(np.array(bits, np.uint16).view(np_dtype.bfloat16))


def entries():
    return {
        'w': ms.Parameter(bf16(np.reshape(BF16_BITS, (2, 5))), name='w'),
        'b': ms.Parameter(ms.Tensor(np.array([0.1, -3.14, 1e10], np.float32), ms.bfloat16),
                          name='b'),
        's': ms.Parameter(ms.Tensor(-2.5, ms.bfloat16), name='s'),
        'f': ms.Parameter(ms.Tensor(np.array([0.1, -7.0], np.float32)), name='f'),
    }


def bits_of(tensor):
    return tensor.asnumpy().reshape(-1).view(UINT[tensor.dtype]).tolist()


def describe(params):
    return [{'name': name, 'dtype': str(v.dtype), 'shape': list(v.shape), 'bits': bits_of(v),
             'requires_grad': v.requires_grad} for name, v in params.items()]


def load_into(dst, src, strict_load=False):
    """What load_param_into_net stores in a ``dst`` parameter from the entry ``src``."""
    net = nn.Cell()
    net.w = ms.Parameter(ms.Tensor(np.zeros(src.shape), dst), name='w')
    try:
        ms.load_param_into_net(net, {'w': ms.Parameter(src, name='w')}, strict_load=strict_load)
    except RuntimeError as e:
        return {'error': str(e)}
    return {'dtype': str(net.w.dtype), 'bits': bits_of(net.w)}


def casts():
    out = []
    source = bf16(BF16_BITS)
    for dst in (ms.float32, ms.float64, ms.float16, ms.int32):
        out.append({'src': 'BFloat16', 'src_bits': BF16_BITS, 'dst': str(dst),
                    'loose': load_into(dst, source),
                    'strict': load_into(dst, source, strict_load=True)})
    for name, values in CAST_SOURCES.items():
        source = ms.Tensor(values)
        out.append({'src': name, 'src_bits': bits_of(source), 'dst': 'BFloat16',
                    'loose': load_into(ms.bfloat16, source),
                    'strict': load_into(ms.bfloat16, source, strict_load=True)})
    source = ms.Tensor(np.arange(10, dtype=np.int32))
    out.append({'src': 'Int32', 'src_bits': list(range(10)),
                'dst': 'BFloat16', 'loose': load_into(ms.bfloat16, source),
                'strict': load_into(ms.bfloat16, source, strict_load=True)})
    return out


def main(folder):
    jobs = {
        'bf16.ckpt': {},
        'bf16_crc.ckpt': {'crc_check': True},
        'bf16.safetensors': {'format': 'safetensors'},
        'bf16_crc.safetensors': {'format': 'safetensors', 'crc_check': True},
    }
    expected, failed = {}, {}
    for file_name, kwargs in jobs.items():
        path = os.path.join(folder, file_name)
        if os.path.exists(path):
            os.chmod(path, 0o644)
            os.remove(path)
        try:
            ms.save_checkpoint(entries(), path, **kwargs)
        except ValueError as e:             # MindSpore's CRC code cannot take bfloat16
            failed[file_name] = f"{type(e).__name__}: {e}"
            if os.path.exists(path):
                os.chmod(path, 0o644)
                os.remove(path)
            continue
        os.chmod(path, 0o644)               # MindSpore leaves its files read-only
        expected[file_name] = describe(ms.load_checkpoint(path, **kwargs))
    with open(os.path.join(folder, 'bf16_expected.json'), 'w') as f:
        json.dump({'mindspore': ms.__version__, 'files': expected, 'save_fails': failed,
                   'casts': casts()}, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'tests/checkpoint/fixtures')
