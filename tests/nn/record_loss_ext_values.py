"""Write mindspore_loss_ext_values.json: MindSpore 2.10's results for the calls ``CALLS`` lists
(CTCLoss, MultiClassDiceLoss, MultilabelMarginLoss, TripletMarginWithDistanceLoss,
SampledSoftmaxLoss and the math layers LGamma, DiGamma, IGamma, LBeta,
L1Regularizer) on the arrays ``inputs()`` builds; read by test_loss_ext.py and
test_layers_special.py, which run the same calls on hookgrad.

Run with a Python that has MindSpore 2.10 (CPU) installed, from outside the repository:
``python /path/to/tests/nn/record_loss_ext_values.py``. A call's value is recorded with the
gradient of the sum of its output with respect to the inputs named in its ``grad`` entry.
A call MindSpore cannot run on the CPU (no kernel) is recorded as its error; the tests check
those against the documented formula instead (L1LossExt, which has no CPU kernel either, is
not listed).
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
VALUES = os.path.join(HERE, 'mindspore_loss_ext_values.json')


def inputs():
    """The arrays of every call (NumPy's legacy generator: the same stream in every version)."""
    rs = np.random.RandomState(1)
    f = np.float32
    x, t = rs.randn(3, 5).astype(f), rs.randn(3, 5).astype(f)
    a, p, n = (rs.randn(3, 5).astype(f) for _ in range(3))
    lab = rs.randint(0, 3, size=(2, 4))
    hot = np.eye(3, dtype=f)[lab].transpose(0, 2, 1)
    logits4 = rs.randn(2, 3, 4).astype(f)
    weights, biases = rs.randn(7, 4).astype(f), rs.randn(7).astype(f)
    emb = rs.randn(3, 4).astype(f)
    raw = rs.randn(6, 2, 4)
    logp = (raw - np.log(np.exp(raw).sum(-1, keepdims=True))).astype(f)
    return dict(
        x=x, t=t, a=a, p=p, n=n, hot=hot, logits4=logits4,
        mlm_target=np.array([[3, 0, -1, 1, 2], [1, 2, 4, -1, 0], [0, 1, 2, 3, 4]], np.int32),
        w_col=np.array([[0.5], [1.0], [2.0]], f),
        weights=weights, biases=biases, emb=emb,
        labels1=np.array([[1], [3], [6]], np.int32), labels2=np.array([[1, 2], [3, 0], [6, 5]],
                                                                      np.int32),
        sampled=np.array([4, 0, 5], np.int32),
        true_count1=np.full((3, 1), 0.4, f), true_count2=np.full((3, 2), 0.4, f),
        sampled_count=np.array([0.3, 0.5, 0.2], f),
        logp=logp, ctc_targets=np.array([[1, 2, 2], [3, 1, 0]], np.int32),
        in_len=np.array([6, 5], np.int32), tgt_len=np.array([3, 2], np.int32),
        short_len=np.array([3, 5], np.int32), zero_tgt_len=np.array([3, 0], np.int32),
        gamma_x=np.array([-2.5, -1.0, -0.3, 0.0, 0.2, 0.5, 1.0, 1.5, 3.7, 9.0, 30.0], f),
        igamma_a=np.array([0.5, 1.0, 2.5, 3.0, 0.1, 7.0, 2.0, -1.0, 1.5], f),
        igamma_x=np.array([0.2, 1.0, 1.5, 5.0, 0.0, 3.0, 12.0, 1.0, -0.5], f),
        beta_x=np.array([0.5, 1.0, 2.0, 3.0, 9.0, 0.7, 10.0], f),
        beta_y=np.array([0.5, 2.0, 9.5, 3.0, 12.0, 20.0, 2.5], f),
    )


# name: (expression over the arrays (Tensors named as in inputs()), nn, ms), inputs to
# differentiate the sum of the output by)
CALLS = {
    'MultilabelMarginLoss/none': ("nn.MultilabelMarginLoss('none')(x, mlm_target)", ['x']),
    'MultilabelMarginLoss/mean': ("nn.MultilabelMarginLoss()(x, mlm_target)", ['x']),
    'MultilabelMarginLoss/sum': ("nn.MultilabelMarginLoss('sum')(x, mlm_target)", []),
    'MultilabelMarginLoss/1d': ("nn.MultilabelMarginLoss('none')(x[1], mlm_target[1])", []),
    'TripletMarginWithDistanceLoss/mean': ("nn.TripletMarginWithDistanceLoss()(a, p, n)",
                                           ['a', 'p', 'n']),
    'TripletMarginWithDistanceLoss/swap': (
        "nn.TripletMarginWithDistanceLoss(swap=True, reduction='none', margin=2.0)(a, p, n)",
        ['a', 'p', 'n']),
    'TripletMarginWithDistanceLoss/fn': (
        "nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: ((u - v) ** 2).sum(1),"
        " reduction='sum', margin=5.0)(a, p, n)", ['a']),
    'MultiClassDiceLoss/softmax': ("nn.MultiClassDiceLoss()(logits4, hot)", ['logits4']),
    'MultiClassDiceLoss/weights': (
        "nn.MultiClassDiceLoss(weights=w_col, ignore_indiex=1, activation='sigmoid')"
        "(logits4, hot)", ['logits4']),
    'MultiClassDiceLoss/none': ("nn.MultiClassDiceLoss(activation=None)(logits4.sigmoid(), hot)",
                                []),
    'SampledSoftmaxLoss/1': (
        "nn.SampledSoftmaxLoss(3, 7, sampled_values=(sampled, true_count1, sampled_count))"
        "(weights, biases, labels1, emb)", ['weights', 'biases', 'emb']),
    'SampledSoftmaxLoss/2': (
        "nn.SampledSoftmaxLoss(3, 7, num_true=2, reduction='mean', "
        "sampled_values=(sampled, true_count2, sampled_count))(weights, biases, labels2, emb)",
        ['weights', 'emb']),
    'CTCLoss/mean': ("nn.CTCLoss()(logp, ctc_targets, in_len, tgt_len)", ['logp']),
    'CTCLoss/none': ("nn.CTCLoss(blank=3, reduction='none')(logp, ctc_targets - 1 + "
                     "(ctc_targets == 0) * 3, in_len, tgt_len)", ['logp']),
    'CTCLoss/sum': ("nn.CTCLoss(reduction='sum')(logp, ctc_targets, in_len, tgt_len)", []),
    'CTCLoss/inf': ("nn.CTCLoss(reduction='none')(logp, ctc_targets, short_len, tgt_len)", []),
    'CTCLoss/zero_infinity': ("nn.CTCLoss(reduction='none', zero_infinity=True)"
                              "(logp, ctc_targets, short_len, tgt_len)", ['logp']),
    'ctc_loss/log_alpha': ("ms.ops.ctc_loss(logp, ctc_targets, in_len, zero_tgt_len, "
                           "reduction='none')[1]", []),
    'CTCLoss/2d': ("nn.CTCLoss()(logp[:, 0], ctc_targets[0], in_len[:1], tgt_len[:1])", []),
    'LGamma': ("nn.LGamma()(gamma_x)", []),
    'DiGamma': ("nn.DiGamma()(gamma_x)", []),
    'IGamma': ("nn.IGamma()(igamma_a, igamma_x)", []),
    'LBeta': ("nn.LBeta()(beta_x, beta_y)", []),
    'L1Regularizer': ("nn.L1Regularizer(0.5)(x)", ['x']),
}


def _encode(value):
    a = value.asnumpy()
    return {'dtype': str(value.dtype), 'shape': list(a.shape),
            'values': a.astype(np.float64).tolist()}


def record():
    """Every call's value (and gradients) under MindSpore, as a JSON-ready dict."""
    import mindspore as ms
    from mindspore import nn
    arrays = {k: ms.Tensor(v) for k, v in inputs().items()}
    out = {}
    for name, (expr, grad_of) in CALLS.items():
        env = dict(arrays, nn=nn, ms=ms)
        try:
            entry = {'value': _encode(eval(expr, env))}  # noqa: S307  (the expressions above)
        except RuntimeError as exc:                     # no CPU kernel: recorded as such
            out[name] = {'error': [ln for ln in str(exc).splitlines() if ln.strip('- ')][0][:200]}
            continue
        if grad_of:
            def fn(*args, expr=expr, grad_of=grad_of):
                scope = dict(env, **dict(zip(grad_of, args)))
                return eval(expr, scope).sum()  # noqa: S307
            grads = ms.grad(fn, grad_position=tuple(range(len(grad_of))))(
                *[arrays[k] for k in grad_of])
            grads = grads if isinstance(grads, tuple) else (grads,)
            entry['grads'] = {k: _encode(g) for k, g in zip(grad_of, grads)}
        out[name] = entry
    return out


if __name__ == '__main__':
    with open(VALUES, 'w') as fh:
        json.dump(record(), fh, indent=0, sort_keys=True)
        fh.write('\n')
