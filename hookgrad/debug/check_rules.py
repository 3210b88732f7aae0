"""The rules of ``debug.check``: from the measurements of one pass to ``CheckFinding`` objects.

Each rule reads the host numbers ``check`` measured (check.py, ``_Measurements``) and the
thresholds given to ``check``; none touches a tensor.
"""
import math

from .check_report import CheckFinding

__all__ = ['findings']

_NAN_GUARD = "run the step under debug.nan_guard(net) to find the op that produced it"


def findings(m, rules):
    """Every finding of one checked pass, rule by rule."""
    out = _nonfinite(m) + _predict_mode(m) + _inputs(m, rules) + _missing(m) + \
        _activations(m, rules)
    if math.isfinite(m.loss):
        out += _depth(m, rules) + _updates(m, rules)
    return out


def _nonfinite(m):
    if not math.isfinite(m.loss):
        return [CheckFinding('nonfinite', f"the loss is {m.loss}", _NAN_GUARD, cell='',
                             value=m.loss)]
    bad = [(name, cell, g[2]) for (name, cell), g in zip(m.params, m.grads)
           if g is not None and g[2] > 0]
    if not bad:
        return []
    name, cell, count = bad[0]
    more = len(bad) - 1
    others = f" (and {more} more parameter{'s' if more > 1 else ''})" if more else ''
    return [CheckFinding('nonfinite', f"its gradient holds {int(count):,} NaN or Inf "
                         f"values{others}", _NAN_GUARD, cell=cell, param=name,
                         value=float(len(bad)))]


def _predict_mode(m):
    out = []
    for path, cell in m.mode_cells:
        kind = type(cell).__name__
        if hasattr(cell, 'moving_mean'):
            what = f"{kind} ran in predict mode: it normalizes with its moving statistics, " \
                   f"never updates them, and its gradient ignores the batch statistics"
        elif kind.startswith('Dropout'):
            what = f"{kind} ran in predict mode: it drops nothing"
        else:
            what = f"{kind} ran in predict mode, and its construct reads the mode " \
                   f"(self.training)"
        fix = "net.set_train() before training" if m.root_training is False else \
            f"call set_train() on '{path}' too: the network is in train mode, this cell is not"
        out.append(CheckFinding('predict_mode', what, fix, cell=path))
    return out


def _inputs(m, rules):
    out = []
    for i, mean, std in m.inputs:
        off = abs(mean) > rules['input_mean_above'] or std > rules['input_std_above'] or \
            0 < std < rules['input_std_below']
        if off:
            out.append(CheckFinding(
                'input_scale', f"mean {mean:.3g}, std {std:.3g}: far from mean 0 and std 1",
                "normalize it: (x - mean) / std with the training set's statistics, per "
                "channel for images (dataset.vision.Normalize; Rescale(1/255) first for 0..255 "
                "pixels)", input=i,
                value=std if abs(mean) <= rules['input_mean_above'] else mean))
    return out


def _missing(m):
    out = []
    for (name, cell), g in zip(m.params, m.grads):
        if g is None:
            out.append(CheckFinding(
                'no_gradient', "no gradient reaches it: the loss does not depend on it (unused, "
                "or cut off by ops.stop_gradient, asnumpy, an integer cast, argmax)",
                "use it in construct through differentiable ops, or set requires_grad=False "
                "if it is not meant to train", cell=cell, param=name))
        elif g[1] == 0 and g[2] == 0:
            out.append(CheckFinding(
                'zero_gradient', "its gradient is zero everywhere",
                "look downstream of it for what zeroes the gradient: a dead ReLU, a weight "
                "initialized to zeros, a mask", cell=cell, param=name, value=0.0))
    return out


def _activations(m, rules):
    out = []
    for path, op, hits, count in m.activations:
        frac = hits / count
        if op in ('ReLU', 'ReLU6') and frac > rules['dead_above']:
            at = 'zero' if op == 'ReLU' else 'at 0 or 6'
            out.append(CheckFinding(
                'dead', f"{frac:.1%} of its {op} outputs are {at}: no gradient flows through "
                f"them",
                "give the layer before it He initialization and zero bias, or BatchNorm before "
                "the ReLU; lower the learning rate if it died while training",
                cell=path, value=frac))
        elif op in ('Sigmoid', 'Tanh') and frac > rules['saturated_above']:
            bounds = '0 or 1' if op == 'Sigmoid' else '-1 or 1'
            out.append(CheckFinding(
                'saturated', f"{frac:.1%} of its {op} outputs are within "
                f"{rules['saturation_margin']:g} of {bounds}: their gradient is almost zero",
                "make its inputs smaller: Xavier initialization of the layer before it, or "
                "BatchNorm/LayerNorm before it", cell=path, value=frac))
    return out


def _depth(m, rules):
    """Vanishing and exploding gradients: the norm of the gradient w.r.t. each layer's outputs
    over the last layer's, layers in forward order (``StatsHistory.depth_profile``)."""
    if any(g is not None and g[2] > 0 for g in m.grads):
        return []
    rows = [r for r in m.depth if math.isfinite(r.ratio) and r.norm > 0]
    if len(rows) < 2:
        return []
    last = rows[-1]
    out = []
    for cell, norm, ratio in rows[:-1]:
        what = f"the gradient of its output has norm {norm:.3g}, {ratio:.3g} times the last " \
               f"layer's ('{last.name or '(root)'}', {last.norm:.3g})"
        if ratio < rules['vanish_below']:
            out.append(CheckFinding(
                'vanishing', what, "ReLU-family activations instead of sigmoid/tanh, He or "
                "Xavier initialization, BatchNorm, or residual connections", cell=cell,
                value=ratio))
        elif ratio > rules['explode_above']:
            out.append(CheckFinding(
                'exploding', what, "smaller initial weights (He or Xavier initialization), "
                "BatchNorm/LayerNorm, or gradient clipping (ops.clip_by_global_norm)",
                cell=cell, value=ratio))
    return out


def _updates(m, rules):
    """Large first updates and parameters the optimizer leaves out."""
    if m.lr is None:
        return []
    out = []
    who = m.optimizer or 'SGD'
    for (name, cell), g, w, (rule, rate, factor) in zip(m.params, m.grads, m.weight_norms,
                                                         m.lr):
        if rate is None:
            out.append(CheckFinding(
                'not_optimized', f"{who} does not update it",
                "build the optimizer from net.trainable_params()", cell=cell, param=name))
            continue
        if g is None or g[2] > 0 or w == 0:
            continue
        if rule == 'sgd':
            step = rate * math.sqrt(g[0])
        elif rule == 'sign':
            step = rate * math.sqrt(g[1])
        else:
            step = rate * w
        ratio = factor * step / w
        if ratio > rules['update_above']:
            out.append(CheckFinding(
                'large_update', f"the first {who} step would move it by {ratio:.3g} times its "
                f"norm (learning rate {rate:g})",
                f"lower the learning rate below about {rate * rules['update_above'] / ratio:.2g}"
                f", or warm it up", cell=cell, param=name, value=ratio))
    return out
