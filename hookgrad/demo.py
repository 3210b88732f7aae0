"""A small end-to-end run: train a two-layer network by hand and show what the hooks saw.

Run with ``python -m hookgrad.demo``. A tensor hook on the hidden activations records the
gradient arriving there at every step; an ``ops.HookBackward`` before the tanh records the
gradient's norm there and clips it to ``max_norm``; the printout shows both next to the loss.
"""
import numpy as np

import hookgrad as ms
from hookgrad import ops


def make_data(rng, n=256):
    x = rng.uniform(-2, 2, size=(n, 2)).astype(np.float32)
    y = (np.sin(x[:, :1] * 1.5) + 0.5 * x[:, 1:] ** 2).astype(np.float32)
    return ms.Tensor(x), ms.Tensor(y)


def main(steps=300, lr=0.05, seed=0, max_norm=0.05):
    rng = np.random.default_rng(seed)
    x, y = make_data(rng)
    w1 = ms.Parameter(rng.standard_normal((2, 32)).astype(np.float32) * 0.7, name='w1')
    b1 = ms.Parameter(np.zeros(32, np.float32), name='b1')
    w2 = ms.Parameter(rng.standard_normal((32, 1)).astype(np.float32) * 0.2, name='w2')
    b2 = ms.Parameter(np.zeros(1, np.float32), name='b2')
    params = [w1, b1, w2, b2]
    clipped = []
    seen = {}

    def clip_hook(grads):
        g = grads[0]
        norm = float(np.linalg.norm(g.asnumpy()))
        seen['pre'] = norm
        clipped.append(norm > max_norm)
        return (g * (max_norm / norm),) if norm > max_norm else None

    clip = ops.HookBackward(clip_hook)
    print(f"{'step':>5} {'loss':>10} {'|grad| hidden':>14} {'|grad| pre-tanh':>16} {'clipped':>8}")
    for step in range(steps + 1):
        pre = clip(ops.matmul(x, w1) + b1)
        hidden = ops.tanh(pre)
        hidden.register_hook(lambda g: seen.__setitem__('hidden', float(np.linalg.norm(g.asnumpy()))))
        out = ops.matmul(hidden, w2) + b2
        loss = ops.mean((out - y) ** 2)
        loss.backward()
        if step % 50 == 0:
            print(f"{step:5d} {loss.item():10.5f} {seen['hidden']:14.5f} {seen['pre']:16.5f} "
                  f"{'yes' if clipped[-1] else 'no':>8}")
        with ms.no_grad():
            for p in params:
                ops.assign(p, p - lr * p.grad)
                p.grad = None
    print(f"gradient clipped by HookBackward in {sum(clipped)} of {len(clipped)} steps")
    return loss.item()


if __name__ == '__main__':
    main()
