"""Write the MindSpore checkpoints that tests/checkpoint/ reads, with MindSpore 2.10 itself.

Run with a Python that has the real MindSpore (not hookgrad):

    /tmp/msvenv/bin/python tools/make_mindspore_checkpoints.py tests/checkpoint/fixtures

It writes small ``.ckpt`` (protobuf) and ``.safetensors`` files and ``expected.json``: for each
file, what MindSpore's own ``load_checkpoint`` gives back (names in order, dtypes, shapes and
values; str entries as str), so the tests compare hookgrad with MindSpore's reading.
"""
import json
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn


class ConvBN(nn.Cell):
    """A tiny conv net with BatchNorm (moving statistics are non-trainable parameters)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Dense(2, 3)

    def construct(self, x):
        return self.fc(self.bn(self.conv(x)).mean(axis=(2, 3)))


def filled(net, seed):
    """``net`` with every parameter set to small distinct values (exact in every dtype)."""
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        shape = p.shape
        p.set_data(ms.Tensor(rng.integers(-40, 40, shape).astype(np.float32) / 8))
    return net


def dtype_entries():
    """Parameters of every element type MindSpore's checkpoints load (BFloat16 included)."""
    values = np.array([[1.5, -2.25, 3.0], [0.0, 7.0, -0.5]])
    out = {}
    for dtype in (ms.float16, ms.float32, ms.float64, ms.bfloat16, ms.int8, ms.int16, ms.int32,
                  ms.int64, ms.uint8, ms.uint16, ms.uint32, ms.uint64, ms.bool_):
        data = np.abs(values) if dtype in (ms.uint8, ms.uint16, ms.uint32, ms.uint64) else values
        if dtype == ms.bool_:
            data = values > 0
        out[f"t_{str(dtype).lower()}"] = ms.Parameter(ms.Tensor(data, dtype), name=None)
    out['scalar'] = ms.Parameter(ms.Tensor(2.5, ms.float32))
    return out


APPEND = {'epoch': 7, 'lr': 0.125, 'done': True, 'note': 'hello, MindSpore'}


def describe(params):
    """What MindSpore's load_checkpoint returned, as JSON."""
    out = []
    for name, value in params.items():
        if isinstance(value, str):
            out.append({'name': name, 'kind': 'str', 'value': value})
            continue
        dtype = str(value.dtype)
        arr = value.float().asnumpy() if dtype == 'BFloat16' else value.asnumpy()
        out.append({'name': name, 'kind': 'tensor', 'dtype': dtype, 'shape': list(value.shape),
                    'values': arr.reshape(-1).tolist(), 'requires_grad': value.requires_grad})
    return out


def main(folder):
    os.makedirs(folder, exist_ok=True)
    ms.set_seed(0)
    jobs = {
        'dense.ckpt': dict(save_obj=filled(nn.Dense(3, 2), 1)),
        'convbn.ckpt': dict(save_obj=filled(ConvBN(), 2), append_dict=APPEND),
        'dtypes.ckpt': dict(save_obj=dtype_entries(), append_dict={'note': 'dtypes'}),
        'dense_crc.ckpt': dict(save_obj=filled(nn.Dense(3, 2), 1), crc_check=True),
        'convbn.safetensors': dict(save_obj=filled(ConvBN(), 2), format='safetensors',
                                   append_dict={'epoch': 7, 'lr': 0.125}),
        'dtypes.safetensors': dict(save_obj=dtype_entries(), format='safetensors'),
        'dense_crc.safetensors': dict(save_obj=filled(nn.Dense(3, 2), 1),
                                      format='safetensors', crc_check=True),
    }
    expected = {}
    for file_name, kwargs in jobs.items():
        path = os.path.join(folder, file_name)
        if os.path.exists(path):
            os.chmod(path, 0o644)
            os.remove(path)
        save_obj = kwargs.pop('save_obj')
        ms.save_checkpoint(save_obj, path, **kwargs)
        os.chmod(path, 0o644)               # MindSpore leaves its files read-only
        fmt = kwargs.get('format', 'ckpt')
        expected[file_name] = describe(ms.load_checkpoint(path, format=fmt,
                                                          crc_check=kwargs.get('crc_check', False)))
    with open(os.path.join(folder, 'expected.json'), 'w') as f:
        json.dump({'mindspore': ms.__version__, 'files': expected}, f, indent=1)
        f.write('\n')
    write_complex(os.path.join(folder, 'complex.ckpt'))


COMPLEX_ENTRIES = {'z': np.array([1 + 2j, -3.5 - 0.25j], np.complex64),
                   'w': np.array([[1j]], np.complex128)}


def write_complex(path):
    """Complex64 and Complex128 entries: MindSpore 2.10 writes them, but its own
    ``load_checkpoint`` cannot read them back (a KeyError on 'Complex64'), so the test compares
    with these values rather than with ``expected.json``."""
    if os.path.exists(path):
        os.chmod(path, 0o644)
        os.remove(path)
    ms.save_checkpoint([{'name': k, 'data': ms.Parameter(ms.Tensor(v), name=k)}
                        for k, v in COMPLEX_ENTRIES.items()], path)
    os.chmod(path, 0o644)


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'tests/checkpoint/fixtures')
