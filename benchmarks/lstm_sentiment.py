"""The model zoo's LSTM sentiment network, one training step: hookgrad against MindSpore CPU.

An embedding of a 20,000-word vocabulary (300 wide), a 2-layer bidirectional ``nn.LSTM``
(hidden 100) over sequences of 500 tokens, batch 64, a Dense layer on the first and last
outputs, softmax cross-entropy and Momentum. The same script runs under both frameworks: under
hookgrad through ``hookgrad run`` (``import mindspore`` resolves to hookgrad), under MindSpore
in an interpreter that has it (``--mindspore-python``, e.g. a scratch venv with
``pip install mindspore==2.10.0 "numpy<2"``). Each runs in its own process with 2 threads;
rounds alternate the two, and the median over rounds of each round's median step is reported.

Run: python benchmarks/lstm_sentiment.py --mindspore-python /path/to/python [--rounds 3]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

from timing import checkout_env, samples

VOCAB, SEQ, BATCH, EMB, HID = 20000, 500, 64, 300, 100


def child(steps, seq):
    import numpy as np
    import mindspore as ms
    from mindspore import nn, ops

    class SentimentNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(VOCAB, EMB)
            self.encoder = nn.LSTM(EMB, HID, num_layers=2, bidirectional=True)
            self.decoder = nn.Dense(HID * 4, 2)

        def construct(self, x):
            out, _ = self.encoder(self.embedding(x).transpose(1, 0, 2))
            return self.decoder(ops.concat((out[0], out[-1]), 1))

    ms.set_seed(0)
    net = SentimentNet()
    net.set_train()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.integers(0, VOCAB, (BATCH, seq)).astype(np.int32))
    y = ms.Tensor(rng.integers(0, 2, BATCH).astype(np.int32))

    def step():
        loss, grads = grad_fn(x, y)
        opt(grads)
        return float(loss.asnumpy())
    times = samples(step, steps, warmup=1)
    print(json.dumps({'median_s': statistics.median(times)}))


def spawn(cmd, args):
    env = dict(os.environ, OMP_NUM_THREADS='2', OPENBLAS_NUM_THREADS='2', MKL_NUM_THREADS='2',
               **checkout_env())
    cmd = cmd + [os.path.abspath(__file__), '--child', '--steps', str(args.steps),
                 '--seq', str(args.seq)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env,
                         cwd=os.path.dirname(os.path.abspath(__file__)))
    if out.returncode != 0:
        print(f"{cmd[0]} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])['median_s']


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--steps', type=int, default=3)
    parser.add_argument('--seq', type=int, default=SEQ)
    parser.add_argument('--mindspore-python', help="an interpreter that has MindSpore")
    parser.add_argument('--child', action='store_true')
    args = parser.parse_args()
    if args.child:
        child(args.steps, args.seq)
        return
    runs = {'hookgrad': [], 'mindspore': []}
    commands = {'hookgrad': [sys.executable, '-m', 'hookgrad', 'run']}
    if args.mindspore_python:
        commands['mindspore'] = [args.mindspore_python]
    for _ in range(args.rounds):
        for name, cmd in commands.items():
            t = spawn(cmd, args)
            if t is not None:
                runs[name].append(t)
    print(f"LSTM sentiment step (sequence {args.seq}, batch {BATCH}): median s per step over "
          f"{args.rounds} round(s)")
    medians = {k: statistics.median(v) for k, v in runs.items() if v}
    for name, t in medians.items():
        print(f"{name:<12}{t:8.2f} s")
    if len(medians) == 2:
        print(f"ratio hookgrad / MindSpore: {medians['hookgrad'] / medians['mindspore']:.2f}")


if __name__ == '__main__':
    main()
