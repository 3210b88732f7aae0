"""Records MindSpore 2.10's FFT results for tests/ops/test_fft.py (run with MindSpore's Python:
``cd /tmp && python /work/main/tests/ops/make_fft_values.py``); writes
tests/ops/fft_mindspore_values.json: per case the input, arguments, output dtype, shape and
values (complex values as [real parts, imaginary parts]), and for some the gradient."""
import json
import os

import numpy as np

INPUTS = {
    'x1': np.array([1.0, 2.0, -1.0, 0.5, 3.0]),
    'x2': np.array([[1.0, 2.0, -1.0], [0.5, 3.0, -2.0]]),
}
INPUTS['z1'] = INPUTS['x1'] + 1j * np.array([0.5, -1.0, 2.0, 0.0, 1.0])
INPUTS['z2'] = INPUTS['x2'] + 1j * np.array([[0.5, -1.0, 2.0], [0.0, 1.0, 1.5]])
ONE = ['fft', 'ifft', 'rfft', 'irfft', 'hfft', 'ihfft']
ND = ['fft2', 'ifft2', 'fftn', 'ifftn', 'rfft2', 'irfft2', 'rfftn', 'irfftn', 'hfft2',
      'ihfft2', 'hfftn', 'ihfftn']
REAL_ONLY = {'rfft', 'ihfft', 'rfft2', 'ihfft2', 'rfftn', 'ihfftn'}


def plain(a):
    a = np.asarray(a)
    if a.dtype.kind == 'c':
        return [a.real.tolist(), a.imag.tolist()]
    return a.astype(np.float64).tolist()


def cases():
    for f in ONE:
        for dt in ('float16', 'bfloat16', 'float32', 'float64', 'int32', 'int64'):
            yield f, 'x1', dt, {}
        if f not in REAL_ONLY:
            yield f, 'z1', 'complex64', {}
            yield f, 'z1', 'complex128', {'n': 4}
            yield f, 'z1', 'complex128', {'n': 7, 'norm': 'ortho'}
            yield f, 'z2', 'complex128', {'dim': 0}
        yield f, 'x1', 'float64', {'n': 3, 'norm': 'forward'}
        yield f, 'x1', 'float64', {'n': 8, 'norm': 'ortho'}
        yield f, 'x2', 'float64', {'dim': 0, 'norm': 'backward'}
    for f in ND:
        yield f, 'x2', 'float32', {}
        yield f, 'x2', 'float64', {'s': (3, 4), 'norm': 'ortho'}
        yield f, 'x2', 'int32', {'s': (1, 2), 'norm': 'forward'}
        yield f, 'x2', 'float64', {'dim': (0,)} if f.endswith('n') else {'dim': (1, 0)}
        if f not in REAL_ONLY:
            yield f, 'z2', 'complex64', {}
            yield f, 'z2', 'complex128', {'s': (3, 4), 'norm': 'ortho'}
            yield f, 'z2', 'complex128', {'s': (1, 2), 'norm': 'forward'}
        if f.endswith('n'):
            yield f, 'x2', 'float64', {'s': (4,)}


PRIMITIVE = [
    ('z2', 'complex128', dict(signal_ndim=1, inverse=False, real=False)),
    ('z2', 'complex128', dict(signal_ndim=2, inverse=True, real=False, norm='ortho')),
    ('z2', 'complex64', dict(signal_ndim=1, inverse=False, real=False, norm='forward')),
    ('x2', 'float64', dict(signal_ndim=1, inverse=False, real=False)),
    ('x2', 'float64', dict(signal_ndim=1, inverse=False, real=True)),
    ('x2', 'float32', dict(signal_ndim=2, inverse=False, real=True, norm='forward')),
    ('x2', 'int32', dict(signal_ndim=1, inverse=False, real=True)),
    ('x2', 'float64', dict(signal_ndim=1, inverse=False, real=True, onesided=False)),
    ('z2', 'complex128', dict(signal_ndim=1, inverse=False, real=True)),
    ('z2', 'complex128', dict(signal_ndim=1, inverse=True, real=True)),
    ('z2', 'complex128', dict(signal_ndim=1, inverse=True, real=True, signal_sizes=[5])),
    ('z2', 'complex128', dict(signal_ndim=2, inverse=True, real=True, signal_sizes=[2, 4])),
    ('z2', 'complex128', dict(signal_ndim=1, inverse=True, real=True, onesided=False)),
    ('z2', 'complex64', dict(signal_ndim=1, inverse=True, real=True, norm='ortho')),
    ('x2', 'float64', dict(signal_ndim=1, inverse=True, real=True)),
]


STFT = [
    ('real', 'float64', {}),
    ('real', 'float32', {'return_complex': True}),
    ('real', 'float64', {'hop_length': 3, 'return_complex': True}),
    ('real', 'float64', {'win_length': 3, 'window': [0.5, 1.0, 0.25], 'return_complex': True}),
    ('real', 'float64', {'center': False, 'normalized': True, 'return_complex': True}),
    ('real', 'float64', {'pad_mode': 'CONSTANT', 'onesided': False, 'return_complex': True}),
    ('batch', 'float64', {'return_complex': True}),
    ('complex', 'complex128', {'return_complex': True}),
]


def grad_of(ms, ops, f, x, kw):
    def loss(t):
        out = getattr(ops, f)(t, **kw)
        if out.dtype in (ms.complex64, ms.complex128):
            return (ops.real(out) * 1.5 + ops.imag(out) * 0.5).sum()
        return (out * out).sum()
    return ms.grad(loss)(x).asnumpy()


def main():
    import mindspore as ms          # here: the test collection imports this file without it
    from mindspore import Tensor, ops
    dtypes = {name: getattr(ms, name) for name in (
        'float16', 'float32', 'float64', 'int32', 'int64', 'complex64', 'complex128',
        'bfloat16')}
    out = {'values': [], 'grads': [], 'freq': [], 'primitive': [], 'stft': []}
    for f, name, dt, kw in cases():
        x = Tensor(INPUTS[name]).astype(dtypes[dt])
        y = getattr(ops, f)(x, **kw)
        out['values'].append({'fn': f, 'input': name, 'dtype': dt,
                              'kwargs': {k: list(v) if isinstance(v, tuple) else v
                                         for k, v in kw.items()},
                              'out_dtype': str(y.dtype), 'shape': list(y.shape),
                              'values': plain(y.asnumpy())})
    for f, name, kw in [('fft', 'x1', {'n': 7}), ('rfft', 'x1', {}), ('rfft', 'x1', {'n': 8}),
                        ('irfft', 'z1', {}), ('irfft', 'z1', {'n': 7}), ('hfft', 'z1', {}),
                        ('ihfft', 'x1', {'norm': 'ortho'}), ('fft2', 'z2', {'s': (3, 2)}),
                        ('rfft2', 'x2', {}), ('irfft2', 'z2', {}), ('fftshift', 'x2', {}),
                        ('ifft', 'z1', {'norm': 'forward'})]:
        x = Tensor(INPUTS[name])
        try:
            g = plain(grad_of(ms, ops, f, x, kw))
        except Exception as e:      # noqa: BLE001  (recorded: MindSpore refuses it)
            g = f"{type(e).__name__}: {str(e).splitlines()[0]}"
        out['grads'].append({'fn': f, 'input': name,
                             'kwargs': {k: list(v) if isinstance(v, tuple) else v
                                        for k, v in kw.items()}, 'grad': g})
    for f in ('fftfreq', 'rfftfreq'):
        for n in (4, 5):
            for kw in ({}, {'d': 0.5}, {'dtype': ms.float64}):
                y = getattr(ops, f)(n, **kw)
                out['freq'].append({'fn': f, 'n': n, 'd': kw.get('d', 1.0),
                                    'dtype': 'float64' if 'dtype' in kw else None,
                                    'out_dtype': str(y.dtype), 'values': y.asnumpy().tolist()})
    for name, dt, args in PRIMITIVE:
        x = Tensor(INPUTS[name]).astype(dtypes[dt])
        try:
            y = ops.FFTWithSize(**{k: tuple(v) if isinstance(v, list) else v
                                   for k, v in args.items()})(x)
            got = {'out_dtype': str(y.dtype), 'shape': list(y.shape), 'values': plain(y.asnumpy())}
        except Exception as e:      # noqa: BLE001  (recorded: MindSpore refuses it)
            got = {'error': f"{type(e).__name__}: {str(e).splitlines()[0]}"}
        out['primitive'].append(dict(input=name, dtype=dt, args=args, **got))
    signal = np.array([1.0, 2.0, -1.0, 0.5, 3.0, -2.0, 0.25, 1.5, -0.5, 2.5])
    for form, dt, kw in STFT:
        x = {'real': signal, 'batch': np.stack([signal, signal[::-1]]),
             'complex': signal + 1j * signal[::-1]}[form]
        args = dict(kw)
        if 'window' in args:
            args['window'] = Tensor(np.array(args['window']))
        y = ops.stft(Tensor(x).astype(dtypes[dt]), 4, **args)
        out['stft'].append({'input': form, 'dtype': dt, 'kwargs': kw, 'out_dtype': str(y.dtype),
                            'shape': list(y.shape), 'values': plain(y.asnumpy())})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fft_mindspore_values.json')
    with open(path, 'w') as fh:
        json.dump(out, fh)


if __name__ == '__main__':
    main()
