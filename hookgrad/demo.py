"""Train a small CNN on handwritten digits and show what the hooks saw.

Run: ``python -m hookgrad.demo`` (``--help`` for options). Needs the ``demo`` extra
(scikit-learn ships the digits data set, so nothing is downloaded; matplotlib draws the plot;
tqdm shows progress; safetensors writes the checkpoint).

Every watched layer gets a forward hook, which records the statistics of its output, and a
backward hook, which records the norm of the gradient arriving at its output; neither changes
anything. The run prints a table of what they saw, writes a PNG plot of it over the training
steps, saves a checkpoint and checks that the reloaded network scores the same.
"""
import argparse
import os
import sys
import time

import numpy as np

import hookgrad as ms
from hookgrad import nn

WATCHED = ('conv1', 'relu1', 'conv2', 'relu2', 'fc1', 'relu3', 'fc2')


class DigitsCNN(nn.Cell):
    """conv-bn-relu, conv-bn-relu, max-pool, dense-relu, dropout, dense: 8x8 digits -> 10."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, pad_mode='same')
        self.bn1 = nn.BatchNorm2d(16)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(16, 32, 3, pad_mode='same')
        self.bn2 = nn.BatchNorm2d(32)
        self.relu2 = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(32 * 4 * 4, 64)
        self.relu3 = nn.ReLU()
        self.dropout = nn.Dropout(p=0.25)
        self.fc2 = nn.Dense(64, 10)

    def construct(self, x):
        x = self.relu1(self.bn1(self.conv1(x)))
        x = self.pool(self.relu2(self.bn2(self.conv2(x))))
        x = self.dropout(self.relu3(self.fc1(self.flatten(x))))
        return self.fc2(x)


class LayerWatch:
    """Forward and backward hooks on the named sub-cells, recording per-step statistics.

    Only training calls are recorded (``cell.training``), so evaluation adds nothing.
    """

    def __init__(self, net, names):
        self.stats = {name: {'mean': [], 'std': [], 'zeros': [], 'grad_norm': []}
                      for name in names}
        self.handles = []
        cells = dict(net.cells_and_names())
        for name in names:
            self.handles.append(cells[name].register_forward_hook(self._forward(name)))
            self.handles.append(cells[name].register_backward_hook(self._backward(name)))

    def _forward(self, name):
        record = self.stats[name]

        def watch_output(cell, inputs, output):
            if cell.training:
                y = output.asnumpy()
                record['mean'].append(float(y.mean()))
                record['std'].append(float(y.std()))
                record['zeros'].append(float((y == 0).mean()))
        return watch_output

    def _backward(self, name):
        record = self.stats[name]

        def watch_gradient(cell, grad_input, grad_output):
            record['grad_norm'].append(float(np.linalg.norm(grad_output[0].asnumpy())))
        return watch_gradient

    def remove(self):
        for handle in self.handles:
            handle.remove()


def load_digits(seed):
    """scikit-learn's 8x8 digits as (N, 1, 8, 8) float32 in [0, 1], split 80/20 by class."""
    try:
        from sklearn.datasets import load_digits as _load
        from sklearn.model_selection import train_test_split
    except ImportError:
        sys.exit("the demo needs scikit-learn: pip install scikit-learn")
    digits = _load()
    x = (digits.images / 16.0).astype(np.float32)[:, None]
    y = digits.target.astype(np.int32)
    return train_test_split(x, y, test_size=0.2, random_state=seed, stratify=y)


def accuracy(net, x, y, batch_size=256):
    net.set_train(False)
    correct = 0
    for i in range(0, len(x), batch_size):
        logits = net(ms.Tensor(x[i:i + batch_size]))
        correct += int((logits.asnumpy().argmax(axis=1) == y[i:i + batch_size]).sum())
    return correct / len(x)


def _progress(total, quiet):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="step", disable=True if quiet else None, leave=False,
                file=sys.stdout)          # None: no bar when stdout is not a terminal


def train(epochs=12, batch_size=32, lr=3e-3, seed=0, quiet=False):
    """Train DigitsCNN with hooks watching; return (net, watch, history, data).

    Adam with a per-epoch cosine decay of the learning rate from ``lr`` to ``lr / 50``.
    """
    ms.set_seed(seed)
    x_train, x_test, y_train, y_test = load_digits(seed)
    net = DigitsCNN()
    watch = LayerWatch(net, WATCHED)
    loss_fn = nn.CrossEntropyLoss()
    dataset = ms.dataset.NumpySlicesDataset({'image': x_train, 'label': y_train},
                                            shuffle=True).batch(batch_size)
    steps = dataset.get_dataset_size()
    schedule = nn.cosine_decay_lr(lr / 50, lr, epochs * steps, steps, epochs)
    optimizer = nn.Adam(net.trainable_params(), learning_rate=schedule)

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
    history = []
    bar = _progress(epochs * steps, quiet)
    for epoch in range(1, epochs + 1):
        net.set_train()
        losses = []
        for image, label in dataset.create_tuple_iterator():
            loss, grads = grad_fn(image, label)
            optimizer(grads)
            losses.append(float(loss.asnumpy()))
            if bar is not None:
                bar.set_postfix(epoch=epoch, loss=f"{losses[-1]:.3f}")
                bar.update()
        history.append({'epoch': epoch, 'loss': float(np.mean(losses)),
                        'test_accuracy': accuracy(net, x_test, y_test)})
        if bar is not None:
            bar.write(f"epoch {epoch:2d}  loss {history[-1]['loss']:.4f}  "
                      f"test accuracy {history[-1]['test_accuracy']:.2%}")
        elif not quiet:
            print(f"epoch {epoch:2d}  loss {history[-1]['loss']:.4f}  "
                  f"test accuracy {history[-1]['test_accuracy']:.2%}")
    if bar is not None:
        bar.close()
    return net, watch, history, (x_test, y_test)


def hook_table(watch, steps_per_epoch):
    """What the hooks saw, first epoch against last: one row per watched layer."""
    lines = [f"{'layer':<8}{'out mean':>10}{'out std':>10}{'zeros':>8}"
             f"{'grad norm (first epoch -> last)':>34}"]
    for name, s in watch.stats.items():
        g = np.asarray(s['grad_norm'])
        first, last = g[:steps_per_epoch].mean(), g[-steps_per_epoch:].mean()
        lines.append(f"{name:<8}{np.mean(s['mean'][-steps_per_epoch:]):>10.3f}"
                     f"{np.mean(s['std'][-steps_per_epoch:]):>10.3f}"
                     f"{np.mean(s['zeros'][-steps_per_epoch:]):>8.1%}"
                     f"{first:>20.4f} -> {last:.4f}")
    return '\n'.join(lines)


def _smooth(values, window=15):
    """A centred moving average (the ends average over what exists)."""
    v = np.asarray(values, dtype=np.float64)
    kernel = np.ones(window)
    return np.convolve(v, kernel, 'same') / np.convolve(np.ones_like(v), kernel, 'same')


def plot(watch, history, path):
    """Activation spread, dead-unit fraction and gradient norm per layer over the steps."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    (ax_std, ax_grad), (ax_zero, ax_loss) = axes
    for name, s in watch.stats.items():
        if name.startswith('relu'):
            ax_zero.plot(s['zeros'], label=name, lw=1)
        else:
            ax_std.plot(s['std'], label=name, lw=1)
            line, = ax_grad.plot(s['grad_norm'], lw=0.6, alpha=0.3)
            ax_grad.plot(_smooth(s['grad_norm']), color=line.get_color(), label=name, lw=1.4)
    ax_std.set(title='output std per layer (forward hooks)', xlabel='step',
               ylabel='std of the layer output')
    ax_grad.set(title='gradient norm at layer output (backward hooks; smoothed)', xlabel='step',
                ylabel='L2 norm of the gradient (log scale)', yscale='log')
    ax_zero.set(title='fraction of zero ReLU outputs (forward hooks)', xlabel='step',
                ylabel='fraction of outputs that are 0')
    epochs = [h['epoch'] for h in history]
    ax_loss.plot(epochs, [h['loss'] for h in history], 'o-', color='tab:blue', label='train loss')
    ax_acc = ax_loss.twinx()
    ax_acc.plot(epochs, [h['test_accuracy'] for h in history], 's-', color='tab:green',
                label='test accuracy')
    ax_loss.set(xlabel='epoch', ylabel='mean train loss')
    ax_loss.set_title('loss and test accuracy', pad=20)
    ax_loss.yaxis.label.set_color('tab:blue')
    ax_acc.set_ylabel('test accuracy', color='tab:green')
    ax_acc.set_ylim(0.8, 1.0)
    for ax in (ax_std, ax_grad, ax_zero):
        ax.legend(fontsize=8, loc='best')
    # one legend for both axes, above the plot area, so it covers neither line
    lines = ax_loss.get_lines() + ax_acc.get_lines()
    ax_loss.legend(lines, [line.get_label() for line in lines], fontsize=8, ncol=2,
                   loc='lower center', bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.suptitle('hookgrad demo: what the hooks saw while a CNN learned the digits')
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m hookgrad.demo',
                                     description=__doc__.splitlines()[0])
    parser.add_argument('--epochs', type=int, default=12)
    parser.add_argument('--batch-size', type=int, default=32)
    parser.add_argument('--lr', type=float, default=3e-3)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--out', default='hookgrad-demo', help='folder for the plot and checkpoint')
    parser.add_argument('--no-plot', action='store_true', help='skip the PNG plot')
    parser.add_argument('--quiet', action='store_true', help='no progress bar or epoch lines')
    args = parser.parse_args(argv)
    start = time.perf_counter()
    net, watch, history, (x_test, y_test) = train(args.epochs, args.batch_size, args.lr,
                                                  args.seed, args.quiet)
    seconds = time.perf_counter() - start
    watch.remove()
    steps_per_epoch = len(watch.stats['fc2']['grad_norm']) // args.epochs
    acc = history[-1]['test_accuracy']
    print(f"\ntrained {args.epochs} epochs in {seconds:.1f} s; test accuracy {acc:.2%}\n")
    print("what the hooks saw (last epoch, and the gradient norm's change):")
    print(hook_table(watch, steps_per_epoch))
    os.makedirs(args.out, exist_ok=True)
    ckpt = os.path.join(args.out, 'digits_cnn.ckpt')
    ms.save_checkpoint(net, ckpt)
    fresh = DigitsCNN()
    ms.load_param_into_net(fresh, ms.load_checkpoint(ckpt))
    reloaded = accuracy(fresh, x_test, y_test)
    print(f"\ncheckpoint: {ckpt} (reloaded: test accuracy {reloaded:.2%})")
    png = None
    if not args.no_plot:
        png = os.path.join(args.out, 'hooks.png')
        plot(watch, history, png)
        print(f"plot:       {png}")
    return {'test_accuracy': acc, 'reloaded_accuracy': reloaded, 'seconds': seconds,
            'checkpoint': ckpt, 'plot': png, 'history': history, 'stats': watch.stats}


if __name__ == '__main__':
    main()
