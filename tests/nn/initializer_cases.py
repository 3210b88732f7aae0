"""The initial values whose MindSpore 2.10 results tests/nn/test_initializer_mindspore.py holds:
layers and initializers made right after ``set_seed``, and MindSpore's raw random fills.
``run(ms, nn, I, fills)`` computes them with either framework (``I``: its initializer module;
``fills``: (uniform, normal, truncated_normal) functions of (seed, shape, ...)) and returns
{case: first values}."""
import numpy as np

KEEP = 6        # values kept per case


def _layers(ms, nn, I):
    made = []
    ms.set_seed(1)
    d = nn.Dense(3, 2)
    made += [('dense.weight', d.weight), ('dense.bias', d.bias)]
    ms.set_seed(1)
    c = nn.Conv2d(2, 3, 3, has_bias=True)
    made += [('conv2d.weight', c.weight), ('conv2d.bias', c.bias)]
    ms.set_seed(2)
    made.append(('embedding', nn.Embedding(5, 3).embedding_table))
    ms.set_seed(16)
    made.append(('embedding_padding', nn.Embedding(4, 3, padding_idx=1).embedding_table))
    ms.set_seed(9)
    made.append(('conv2d_transpose', nn.Conv2dTranspose(2, 3, 2).weight))
    ms.set_seed(9)
    c1 = nn.Conv1d(2, 3, 2, has_bias=True)
    made += [('conv1d.weight', c1.weight), ('conv1d.bias', c1.bias)]
    ms.set_seed(13)
    made.append(('conv3d', nn.Conv3d(2, 2, 2).weight))
    mint = ms.mint.nn
    ms.set_seed(18)
    made += [('mint_linear.weight', mint.Linear(3, 2).weight), ('mint_conv2d.weight',
                                                                  mint.Conv2d(2, 3, 3).weight),
             ('mint_embedding', mint.Embedding(4, 3, padding_idx=0).weight)]
    for seed, name, make in ((4, 'lstm', lambda: nn.LSTM(3, 4, 1)),
                             (15, 'bilstm', lambda: nn.LSTM(2, 3, 2, bidirectional=True)),
                             (8, 'gru', lambda: nn.GRU(2, 3)),
                             (11, 'lstm_cell', lambda: nn.LSTMCell(3, 2)),
                             (12, 'gru_cell', lambda: nn.GRUCell(2, 2, has_bias=False)),
                             (5, 'attention', lambda: nn.MultiheadAttention(4, 2)),
                             (17, 'encoder_layer',
                              lambda: nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)),
                             (14, 'mlp', lambda: nn.SequentialCell([
                                 nn.Dense(4, 3, has_bias=False), nn.ReLU(), nn.Dense(3, 2)]))):
        ms.set_seed(seed)
        cell = make()
        after = nn.Dense(2, 2)          # the next initializer's seed follows the cell's draws
        made += [(f"{name}.{n}", p) for n, p in cell.parameters_and_names()]
        made.append((f"{name}/next_dense", after.weight))
    return made


def _initializers(ms, I):
    cases = [('normal', I.Normal(0.5, 1.0), (7,), ms.float32),
             ('truncated_normal', I.TruncatedNormal(0.5, 0.1, -0.3, 0.6), (7,), ms.float32),
             ('xavier_uniform', I.XavierUniform(), (4, 5), ms.float32),
             ('xavier_normal', I.XavierNormal(), (4, 5), ms.float32),
             ('he_normal', I.HeNormal(), (4, 5), ms.float32),
             ('he_uniform_relu', I.HeUniform(nonlinearity='relu'), (4, 5, 2), ms.float32),
             ('uniform_float64', I.Uniform(0.3), (4, 5), ms.float64),
             ('orthogonal', I.Orthogonal(), (3, 4), ms.float32),
             ('normal_by_name', 'normal', (5,), ms.float32),
             ('truncated_normal_by_name', 'truncatedNormal', (5,), ms.float32)]
    made = []
    for name, init, shape, dtype in cases:
        ms.set_seed(3)      # read at once: MindSpore draws a bare initializer's values lazily
        made.append((name, I.initializer(init, shape, dtype).asnumpy()))
    return made


def run(ms, nn, I, fills):
    out = {}
    for name, t in _layers(ms, nn, I) + _initializers(ms, I):
        values = t if isinstance(t, np.ndarray) else t.asnumpy()
        out[name] = np.asarray(values, np.float64).ravel()[:KEEP].tolist()
    ms.set_seed(6)
    out['numpy_after_set_seed'] = np.random.rand(3).tolist()
    uniform, normal, truncated = fills
    for seed, n in ((1, 12), (2, 5), (123456789012345, 9)):
        out[f"fill/uniform/{seed}"] = uniform(seed, (n,), -0.1, 0.3).astype(np.float64).tolist()
        out[f"fill/normal/{seed}"] = normal(seed, (n,), 1.5, 0.3).astype(np.float64).tolist()
        out[f"fill/truncated_normal/{seed}"] = \
            truncated(seed, (n,), -0.3, 0.9, 0.1, 0.7).astype(np.float64).tolist()
    return out
