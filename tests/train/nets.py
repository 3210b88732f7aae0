"""Small data sets and networks shared by the training tests."""
import numpy as np

import hookgrad as ms
from hookgrad import nn


def blobs(n=240, seed=0, classes=3, dim=4):
    """A linearly separable classification problem: (x float32, y int32)."""
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((classes, dim)) * 3
    y = rng.integers(0, classes, n).astype(np.int32)
    x = (centers[y] + rng.standard_normal((n, dim)) * 0.5).astype(np.float32)
    return x, y


def dataset(x, y, batch_size=24, shuffle=True):
    return ms.dataset.NumpySlicesDataset({'x': x, 'y': y}, shuffle=shuffle).batch(batch_size)


def classifier(hidden=None, dim=4, classes=3):
    if hidden is None:
        return nn.Dense(dim, classes)
    return nn.SequentialCell([nn.Dense(dim, hidden), nn.ReLU(), nn.Dense(hidden, classes)])


def xent():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')


def model(net=None, lr=0.1, metrics=None):
    net = classifier() if net is None else net
    return ms.Model(net, xent(), nn.SGD(net.trainable_params(), learning_rate=lr),
                    metrics=metrics)


class Recorder(ms.Callback):
    """Records every callback event as (event, epoch, step)."""

    def __init__(self):
        self.events = []

    def _add(self, event, run_context):
        cb = run_context.original_args()
        self.events.append((event, cb.get('cur_epoch_num'), cb.get('cur_step_num')))

    def on_train_begin(self, run_context):
        self._add('train_begin', run_context)

    def on_train_epoch_begin(self, run_context):
        self._add('epoch_begin', run_context)

    def on_train_step_begin(self, run_context):
        self._add('step_begin', run_context)

    def on_train_step_end(self, run_context):
        self._add('step_end', run_context)

    def on_train_epoch_end(self, run_context):
        self._add('epoch_end', run_context)

    def on_train_end(self, run_context):
        self._add('train_end', run_context)

    def on_eval_begin(self, run_context):
        self._add('eval_begin', run_context)

    def on_eval_step_end(self, run_context):
        self._add('eval_step_end', run_context)

    def on_eval_end(self, run_context):
        self._add('eval_end', run_context)
