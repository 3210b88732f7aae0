"""What the optimizer tests share: a few named parameters, their gradients, and a runner."""
import numpy as np

import hookgrad as ms


def f32(x):
    """Learning rates and momentum are held as Float32 Parameters, as in MindSpore."""
    return float(np.float32(x))


def setup(shapes, seed=0, steps=4):
    """Start values, ``steps`` steps of gradients, and Parameters named as ``shapes``' keys."""
    rng = np.random.default_rng(seed)
    start = {n: rng.standard_normal(s) for n, s in shapes.items()}
    grads = [{n: rng.standard_normal(s) for n, s in shapes.items()} for _ in range(steps)]
    params = [ms.Parameter(np.array(v), name=n) for n, v in start.items()]
    return start, grads, params


def run(opt, params, grads):
    """Apply every step's gradients; return the parameters' final values by name."""
    for step in grads:
        assert opt(tuple(ms.Tensor(step[p.name]) for p in params)) is True
    return {p.name: p.asnumpy() for p in params}
