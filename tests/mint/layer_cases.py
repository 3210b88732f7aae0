"""``mindspore.mint.nn`` layers on fixed inputs and parameters, shared by ``record_values.py``
(under MindSpore) and ``test_layers.py`` (under hookgrad).

Each case is ``name: (make, inputs, train)``: ``make(nn)`` builds the layer, its parameters are
then set from ``parameter_values`` (by name and shape), and it is called on ``inputs`` (NumPy
arrays) in training mode when ``train``.
"""
import numpy as np

try:
    from tests.mint.cases import IMG, LBL, P, SEQ, VOL, X, Y
except ImportError:         # the recorder runs this folder's files as top-level modules
    from cases import IMG, LBL, P, SEQ, VOL, X, Y

IDX = np.array([[0, 2, 4], [1, 0, 3]], np.int64)
YB = np.broadcast_to(Y, X.shape).copy()
COLUMNS = np.sin(np.arange(162, dtype=np.float32)).reshape(1, 18, 9)

LAYERS = {
    'Linear': (lambda nn: nn.Linear(4, 3), (X,), False),
    'Conv1d': (lambda nn: nn.Conv1d(3, 2, 3, stride=2, padding=1), (SEQ,), False),
    'Conv2d': (lambda nn: nn.Conv2d(4, 3, 3, padding=1, stride=(1, 2)), (IMG,), False),
    'ConvTranspose2d': (lambda nn: nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1), (IMG,),
                        False),
    'Conv2d#same': (lambda nn: nn.Conv2d(4, 4, 3, padding='same', dilation=2, groups=2,
                                         bias=False), (IMG,), False),
    'Conv1d#reflect': (lambda nn: nn.Conv1d(3, 2, 3, padding=2, padding_mode='replicate'),
                       (SEQ,), False),
    'BatchNorm1d#3d': (lambda nn: nn.BatchNorm1d(3, eps=1e-3, momentum=0.5), (SEQ,), True),
    'LayerNorm#plain': (lambda nn: nn.LayerNorm((3, 8), elementwise_affine=False), (SEQ,),
                        False),
    'LayerNorm#nobias': (lambda nn: nn.LayerNorm(8, bias=False), (SEQ,), False),
    'CrossEntropyLoss#weight': (lambda nn: nn.CrossEntropyLoss(weight=None, ignore_index=3),
                                (X, LBL), False),
    'NLLLoss#ignore': (lambda nn: nn.NLLLoss(ignore_index=0), (X, LBL), False),
    'GELU#none': (lambda nn: nn.GELU(), (X,), False),
    'Conv3d': (lambda nn: nn.Conv3d(2, 3, (2, 3, 3), padding=(0, 1, 1)), (VOL,), False),
    'Unfold': (lambda nn: nn.Unfold(3, padding=1, stride=2), (IMG,), False),
    'Fold': (lambda nn: nn.Fold((5, 5), 3, padding=1, stride=2), (COLUMNS,), False),
    'SyncBatchNorm': (lambda nn: nn.SyncBatchNorm(4), (IMG,), True),
    'BatchNorm1d': (lambda nn: nn.BatchNorm1d(3), (X.T.copy(),), True),
    'BatchNorm2d': (lambda nn: nn.BatchNorm2d(4, momentum=0.2), (IMG,), True),
    'BatchNorm2d_eval': (lambda nn: nn.BatchNorm2d(4), (IMG,), False),
    'BatchNorm3d': (lambda nn: nn.BatchNorm3d(2, affine=False), (VOL,), True),
    'LayerNorm': (lambda nn: nn.LayerNorm((4,)), (X,), False),
    'GroupNorm': (lambda nn: nn.GroupNorm(2, 4), (IMG,), False),
    'Embedding': (lambda nn: nn.Embedding(5, 3, padding_idx=0), (IDX,), False),
    'PReLU': (lambda nn: nn.PReLU(4), (IMG,), False),
    'ReLU': (lambda nn: nn.ReLU(), (X,), False),
    'ReLU6': (lambda nn: nn.ReLU6(), (X * 8,), False),
    'GELU': (lambda nn: nn.GELU(approximate='tanh'), (X,), False),
    'SiLU': (lambda nn: nn.SiLU(), (X,), False),
    'Sigmoid': (lambda nn: nn.Sigmoid(), (X,), False),
    'Tanh': (lambda nn: nn.Tanh(), (X,), False),
    'ELU': (lambda nn: nn.ELU(), (X,), False),
    'SELU': (lambda nn: nn.SELU(), (X,), False),
    'Mish': (lambda nn: nn.Mish(), (X,), False),
    'LogSigmoid': (lambda nn: nn.LogSigmoid(), (X,), False),
    'Hardshrink': (lambda nn: nn.Hardshrink(0.6), (X,), False),
    'Softshrink': (lambda nn: nn.Softshrink(0.6), (X,), False),
    'Hardsigmoid': (lambda nn: nn.Hardsigmoid(), (X * 4,), False),
    'Hardswish': (lambda nn: nn.Hardswish(), (X * 4,), False),
    'Hardtanh': (lambda nn: nn.Hardtanh(-0.5, 0.25), (X,), False),
    'Threshold': (lambda nn: nn.Threshold(0.1, 20.0), (X,), False),
    'GLU': (lambda nn: nn.GLU(), (X,), False),
    'Softmax': (lambda nn: nn.Softmax(dim=1), (X,), False),
    'LogSoftmax': (lambda nn: nn.LogSoftmax(dim=0), (X,), False),
    'Identity': (lambda nn: nn.Identity(), (X,), False),
    'Flatten': (lambda nn: nn.Flatten(), (IMG,), False),
    'Dropout': (lambda nn: nn.Dropout(0.3), (X,), False),
    'Dropout2d': (lambda nn: nn.Dropout2d(0.3), (IMG,), False),
    'MaxPool2d': (lambda nn: nn.MaxPool2d(2, 1), (IMG,), False),
    'AvgPool1d': (lambda nn: nn.AvgPool1d(2), (SEQ,), False),
    'AvgPool2d': (lambda nn: nn.AvgPool2d(2, 2, 1), (IMG,), False),
    'AvgPool3d': (lambda nn: nn.AvgPool3d(2), (VOL,), False),
    'AdaptiveAvgPool1d': (lambda nn: nn.AdaptiveAvgPool1d(4), (SEQ,), False),
    'AdaptiveAvgPool2d': (lambda nn: nn.AdaptiveAvgPool2d((1, 5)), (IMG,), False),
    'AdaptiveAvgPool3d': (lambda nn: nn.AdaptiveAvgPool3d(2), (VOL,), False),
    'AdaptiveMaxPool1d': (lambda nn: nn.AdaptiveMaxPool1d(4), (SEQ,), False),
    'AdaptiveMaxPool2d': (lambda nn: nn.AdaptiveMaxPool2d(1), (IMG,), False),
    'PixelShuffle': (lambda nn: nn.PixelShuffle(2), (IMG,), False),
    'Upsample': (lambda nn: nn.Upsample(scale_factor=2.0), (IMG,), False),
    'UpsamplingNearest2d': (lambda nn: nn.UpsamplingNearest2d(size=(7, 3)), (IMG,), False),
    'UpsamplingBilinear2d': (lambda nn: nn.UpsamplingBilinear2d(size=(7, 9)), (IMG,),
                             False),
    'ZeroPad1d': (lambda nn: nn.ZeroPad1d((1, 2)), (SEQ,), False),
    'ZeroPad2d': (lambda nn: nn.ZeroPad2d(1), (IMG,), False),
    'ZeroPad3d': (lambda nn: nn.ZeroPad3d(1), (VOL,), False),
    'ConstantPad1d': (lambda nn: nn.ConstantPad1d(2, 0.5), (SEQ,), False),
    'ConstantPad2d': (lambda nn: nn.ConstantPad2d((1, 0, 2, 1), -1.0), (IMG,), False),
    'ConstantPad3d': (lambda nn: nn.ConstantPad3d(1, 2.0), (VOL,), False),
    'ReflectionPad1d': (lambda nn: nn.ReflectionPad1d(2), (SEQ,), False),
    'ReflectionPad2d': (lambda nn: nn.ReflectionPad2d((1, 2, 0, 1)), (IMG,), False),
    'ReflectionPad3d': (lambda nn: nn.ReflectionPad3d(1), (VOL,), False),
    'ReplicationPad1d': (lambda nn: nn.ReplicationPad1d(2), (SEQ,), False),
    'ReplicationPad2d': (lambda nn: nn.ReplicationPad2d(1), (IMG,), False),
    'ReplicationPad3d': (lambda nn: nn.ReplicationPad3d(1), (VOL,), False),
    'CrossEntropyLoss': (lambda nn: nn.CrossEntropyLoss(label_smoothing=0.2), (X, LBL), False),
    'NLLLoss': (lambda nn: nn.NLLLoss(reduction='sum'), (X, LBL), False),
    'MSELoss': (lambda nn: nn.MSELoss(), (X, YB), False),
    'L1Loss': (lambda nn: nn.L1Loss(reduction='sum'), (X, YB), False),
    'SmoothL1Loss': (lambda nn: nn.SmoothL1Loss(beta=0.5), (X, YB), False),
    'BCELoss': (lambda nn: nn.BCELoss(), (P, P[::-1].copy()), False),
    'BCEWithLogitsLoss': (lambda nn: nn.BCEWithLogitsLoss(), (X, P), False),
    'KLDivLoss': (lambda nn: nn.KLDivLoss(reduction='sum'), (X - 1, P), False),
    'SoftMarginLoss': (lambda nn: nn.SoftMarginLoss(), (X, np.sign(X * Y)), False),
    'CosineEmbeddingLoss': (lambda nn: nn.CosineEmbeddingLoss(0.2),
                            (X, X[::-1].copy(), np.array([1, -1, 1], np.int64)), False),
}


def parameter_values(name, shape):
    """The fixed value a layer parameter is set to: small, varied, deterministic."""
    n = int(np.prod(shape))
    if name.endswith('num_batches_tracked'):
        return np.zeros(shape, np.int64)
    if name.endswith('running_var'):
        return (1.0 + np.arange(n) / 10).astype(np.float32).reshape(shape)
    return (np.sin(np.arange(n, dtype=np.float32) * 0.7 + len(name)) / 2).reshape(shape)


def _bn(ms, T, p, x, momentum, train, eps=1e-5):
    """MindSpore's ops.batch_norm with the layer's parameters; the statistics it moves."""
    c = x.shape[1]
    mean = ms.Parameter(T(p.get('running_mean', np.zeros(c, np.float32))), 'm')
    var = ms.Parameter(T(p.get('running_var', np.ones(c, np.float32))), 'v')
    w = T(p.get('weight', np.ones(c, np.float32)))
    b = T(p.get('bias', np.zeros(c, np.float32)))
    xs = T(x) if x.ndim != 5 else T(x.reshape(x.shape[0], c, -1, x.shape[-1]))
    y = ms.ops.batch_norm(xs, mean, var, w, b, train, momentum, eps).reshape(x.shape)
    return y, {'running_mean': mean, 'running_var': var,
               'num_batches_tracked': T(np.array(int(train), np.int64))}


def _pad(ms, T, x, pad, mode='constant', value=None):
    return ms.ops.pad(T(x), pad, mode, value)


# name: reference(ms, T, params, inputs) -> output or (output, {parameter: value after});
# MindSpore's ops computing what the mint layer computes, for the layers whose mint kernels
# MindSpore 2.10 has only on Ascend
REFERENCES = {
    'Conv1d': lambda ms, T, p, x: ms.ops.conv1d(T(x[0]), T(p['weight']), T(p['bias']), 2, 'pad',
                                               1),
    'Conv3d': lambda ms, T, p, x: ms.ops.conv3d(T(x[0]), T(p['weight']), T(p['bias']), 1, 'pad',
                                               (0, 1, 1)),
    'Unfold': lambda ms, T, p, x: ms.ops.unfold(T(x[0]), 3, padding=1, stride=2),
    'Fold': lambda ms, T, p, x: ms.ops.fold(T(x[0]), T(np.array([5, 5], np.int32)), 3, padding=1,
                                           stride=2),
    'Conv2d#same': lambda ms, T, p, x: ms.ops.conv2d(T(x[0]), T(p['weight']), None, 1, 'same',
                                                    0, 2, 2),
    'Conv1d#reflect': lambda ms, T, p, x: ms.ops.conv1d(
        ms.ops.pad(T(x[0]), (2, 2), 'replicate'), T(p['weight']), T(p['bias'])),
    'BatchNorm1d#3d': lambda ms, T, p, x: _bn(ms, T, p, x[0], 0.5, True, 1e-3),
    'LayerNorm#plain': lambda ms, T, p, x: ms.ops.LayerNorm(1, 1)(
        T(x[0]), T(np.ones((3, 8), np.float32)), T(np.zeros((3, 8), np.float32)))[0],
    'LayerNorm#nobias': lambda ms, T, p, x: ms.ops.LayerNorm(-1, -1)(
        T(x[0]), T(p['weight']), T(np.zeros(8, np.float32)))[0],
    'CrossEntropyLoss#weight': lambda ms, T, p, x: ms.ops.cross_entropy(
        T(x[0]), T(x[1]).astype(ms.int32), ignore_index=3),
    'NLLLoss#ignore': lambda ms, T, p, x: ms.ops.nll_loss(T(x[0]), T(x[1]).astype(ms.int32),
                                                         ignore_index=0),
    'GELU#none': lambda ms, T, p, x: ms.ops.gelu(T(x[0])),
    'Conv2d': lambda ms, T, p, x: ms.ops.conv2d(T(x[0]), T(p['weight']), T(p['bias']), (1, 2),
                                               'pad', 1),
    'ConvTranspose2d': lambda ms, T, p, x: ms.ops.Conv2DTranspose(
        2, 3, pad_mode='pad', pad=1, stride=2)(T(x[0]), T(p['weight']), (2, 2, 9, 9))
    + T(p['bias']).reshape(1, 2, 1, 1),
    'BatchNorm1d': lambda ms, T, p, x: _bn(ms, T, p, x[0], 0.1, True),
    'BatchNorm2d': lambda ms, T, p, x: _bn(ms, T, p, x[0], 0.2, True),
    'BatchNorm2d_eval': lambda ms, T, p, x: _bn(ms, T, p, x[0], 0.1, False)[0],
    'BatchNorm3d': lambda ms, T, p, x: _bn(ms, T, p, x[0], 0.1, True),
    'LayerNorm': lambda ms, T, p, x: ms.ops.LayerNorm(-1, -1, 1e-5)(
        T(x[0]), T(p['weight']), T(p['bias']))[0],
    'GroupNorm': lambda ms, T, p, x: ms.ops.group_norm(T(x[0]), 2, T(p['weight']),
                                                      T(p['bias'])),
    'Embedding': lambda ms, T, p, x: ms.ops.gather(T(p['weight']), T(x[0]), 0),
    'ReLU6': lambda ms, T, p, x: ms.ops.relu6(T(x[0])),
    'GELU': lambda ms, T, p, x: ms.ops.gelu(T(x[0]), 'tanh'),
    'ELU': lambda ms, T, p, x: ms.ops.elu(T(x[0])),
    'SELU': lambda ms, T, p, x: ms.ops.selu(T(x[0])),
    'Mish': lambda ms, T, p, x: ms.ops.mish(T(x[0])),
    'LogSigmoid': lambda ms, T, p, x: ms.ops.logsigmoid(T(x[0])),
    'Hardtanh': lambda ms, T, p, x: ms.ops.clamp(T(x[0]), -0.5, 0.25),
    'Threshold': lambda ms, T, p, x: ms.ops.where(T(x[0]) > 0.1, T(x[0]), 20.0),
    'LogSoftmax': lambda ms, T, p, x: ms.ops.log_softmax(T(x[0]), 0),
    'MaxPool2d': lambda ms, T, p, x: ms.ops.max_pool2d(T(x[0]), 2, 1),
    'AvgPool1d': lambda ms, T, p, x: ms.ops.avg_pool1d(T(x[0]), 2, 2),
    'AvgPool2d': lambda ms, T, p, x: ms.ops.avg_pool2d(T(x[0]), 2, 2, 1),
    'AvgPool3d': lambda ms, T, p, x: ms.ops.avg_pool3d(T(x[0]), 2, 2),
    'AdaptiveAvgPool1d': lambda ms, T, p, x: ms.ops.adaptive_avg_pool1d(T(x[0]), 4),
    'AdaptiveAvgPool2d': lambda ms, T, p, x: ms.ops.adaptive_avg_pool2d(T(x[0]), (1, 5)),
    'AdaptiveAvgPool3d': lambda ms, T, p, x: ms.ops.adaptive_avg_pool3d(T(x[0]), 2),
    'AdaptiveMaxPool1d': lambda ms, T, p, x: ms.ops.adaptive_max_pool1d(T(x[0]), 4),
    'UpsamplingBilinear2d': lambda ms, T, p, x: ms.ops.interpolate(
        T(x[0]), size=(7, 9), mode='bilinear', align_corners=True),
    'ZeroPad1d': lambda ms, T, p, x: _pad(ms, T, x[0], (1, 2)),
    'ZeroPad2d': lambda ms, T, p, x: _pad(ms, T, x[0], (1, 1, 1, 1)),
    'ZeroPad3d': lambda ms, T, p, x: _pad(ms, T, x[0], (1,) * 6),
    'ConstantPad1d': lambda ms, T, p, x: _pad(ms, T, x[0], (2, 2), value=0.5),
    'ConstantPad2d': lambda ms, T, p, x: _pad(ms, T, x[0], (1, 0, 2, 1), value=-1.0),
    'ConstantPad3d': lambda ms, T, p, x: _pad(ms, T, x[0], (1,) * 6, value=2.0),
    'ReflectionPad1d': lambda ms, T, p, x: _pad(ms, T, x[0], (2, 2), 'reflect'),
    'ReflectionPad2d': lambda ms, T, p, x: _pad(ms, T, x[0], (1, 2, 0, 1), 'reflect'),
    'ReflectionPad3d': lambda ms, T, p, x: _pad(ms, T, x[0], (1,) * 6, 'reflect'),
    'ReplicationPad1d': lambda ms, T, p, x: _pad(ms, T, x[0], (2, 2), 'replicate'),
    'ReplicationPad2d': lambda ms, T, p, x: _pad(ms, T, x[0], (1,) * 4, 'replicate'),
    'ReplicationPad3d': lambda ms, T, p, x: _pad(ms, T, x[0], (1,) * 6, 'replicate'),
    'CrossEntropyLoss': lambda ms, T, p, x: ms.ops.cross_entropy(T(x[0]), T(x[1]).astype(
        ms.int32), label_smoothing=0.2),
    'MSELoss': lambda ms, T, p, x: ms.ops.mse_loss(T(x[0]), T(x[1])),
    'L1Loss': lambda ms, T, p, x: ms.ops.l1_loss(T(x[0]), T(x[1]), 'sum'),
    'SmoothL1Loss': lambda ms, T, p, x: ms.ops.smooth_l1_loss(T(x[0]), T(x[1]), 0.5, 'mean'),
    'KLDivLoss': lambda ms, T, p, x: ms.ops.kl_div(T(x[0]), T(x[1]), 'sum'),
    'SoftMarginLoss': lambda ms, T, p, x: ms.ops.log1p(ms.ops.exp(-T(x[1]) * T(x[0]))).mean(),
    'CosineEmbeddingLoss': lambda ms, T, p, x: ms.ops.cosine_embedding_loss(
        T(x[0]), T(x[1]), T(x[2]).astype(ms.int32), 0.2),
}
