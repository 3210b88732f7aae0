"""Which algorithm each pass of a convolution runs: measured once per layer shape, kept on disk.

CPU only. A layer's plan names the kernel of each of its three passes (see conv.py):

- forward: 'pointwise' (1x1, no padding: one GEMM), 'winograd' (3x3, stride 1),
  'batch_last' (im2col on (C, H, W, N) arrays) or 'direct' (channels-last im2col + GEMM);
- input gradient: the same names, plus 'col2im' (one GEMM, then each kernel offset's slice
  added into the gradient) beside 'direct' (the zero-padded gradient convolved with the flipped
  kernel, stride 1 only);
- weight gradient: 'pointwise', 'winograd', 'batch_last' or 'direct'.

The rules (``conv.rules_plan``) choose from the channel counts, the kernel and the dtype, with
thresholds measured on one CPU; another CPU's caches and BLAS favour other choices. So, as
``torch.backends.cudnn.benchmark`` does for cuDNN, the first time a float32 layer shape runs
forward, every candidate plan is timed on the layer's own input (each pass run ``ROUNDS``
times, the fastest run counted) and the fastest plan is kept, in memory and on disk
(kernels/plan_cache.py), keyed by the input and weight shapes, stride, padding, dilation,
dtype, thread count and the input's layout (channels-last, or batch-last as a batch-last layer
leaves it: the channels-last kernels then pay for copying it). A plan replaces the rules' only
when at least ``MARGIN`` faster, so noise does not flip choices. A batch-last plan is
whole: its passes share one layout.

Not measured, and so following the rules: layers under ``MIN_FLOPS`` (timing them costs more
than they could gain), other dtypes than float32 (float16 runs as float32), grouped layers,
and every layer when ``MODE`` is 'rules' (``HOOKGRAD_CONV_PLAN=rules``) or the context is
deterministic (``set_context(deterministic='ON')``: a measured choice depends on the machine
and its load, and different kernels round differently), or when ``conv.ALGORITHM`` forces a
kernel. A pass run without its forward (a transposed convolution, a higher-order gradient) uses
its layer's plan when one is kept, else the rules.

``ran`` holds, per thread, the kernels the last convolution ran (``hookgrad.debug.profile``
reads it); ``info()`` what was planned.
"""
import collections
import os
import threading
import time

import numpy as np

from .conv_layout import POOL
from .plan_cache import PlanCache
from .threads import cores as _cores

__all__ = ['Plan', 'MODE', 'MIN_FLOPS', 'MARGIN', 'ROUNDS', 'plan_for', 'lookup', 'layer_plan',
           'key', 'info', 'describe', 'measuring', 'set_mode', 'set_deterministic', 'clear',
           'ran', 'take']

Plan = collections.namedtuple('Plan', 'forward input filter')
Plan.__doc__ = "The kernel of each pass of one convolution layer (see the module docstring)."

_MODES = ('measure', 'rules')
MIN_FLOPS = 5_000_000       # 2*N*Ho*Wo*O*C*kh*kw of the forward below which the rules choose
MARGIN = 0.05               # a measured plan must beat the rules' by this fraction
ROUNDS = 3                  # timed runs of each pass; the fastest counts


def _mode_from_env():
    wanted = os.environ.get('HOOKGRAD_CONV_PLAN', 'measure').strip().lower() or 'measure'
    if wanted not in _MODES:
        raise ValueError(f"HOOKGRAD_CONV_PLAN must be 'measure' or 'rules', got {wanted!r}")
    return wanted


MODE = _mode_from_env()

_HERE = os.path.dirname(os.path.abspath(__file__))
_SOURCES = tuple(os.path.join(_HERE, name) for name in (
    'conv.py', 'conv_plan.py', 'conv_batchlast.py', 'conv_layout.py', 'winograd.py',
    'winograd_fused.py', 'threads.py', 'fused.py'))
CACHE = PlanCache('conv', _SOURCES)
_plans = {}                 # key -> Plan, for layers planned or read in this process
_measured = {}              # key -> {'pass:kernel': ms}, for layers measured in this process
_lock = threading.Lock()
ran = threading.local()     # .forward, .input, .filter: the kernels the last passes ran
_deterministic = False


def set_deterministic(on):
    """Whether only the rules choose (``set_context(deterministic='ON')``), whatever ``MODE``."""
    global _deterministic
    _deterministic = bool(on)


def measuring():
    """Whether layers are measured and kept plans used (``MODE`` 'measure', not deterministic)."""
    return MODE == 'measure' and not _deterministic


def set_mode(mode):
    """'measure' (time candidates once per layer shape) or 'rules' (the fixed rules only)."""
    global MODE
    if mode not in _MODES:
        raise ValueError(f"conv plan mode must be 'measure' or 'rules', got {mode!r}")
    MODE = mode


def clear():
    """Forget every plan, in this process and on disk: layers are measured again."""
    with _lock:
        _plans.clear()
        _measured.clear()
        CACHE.clear()


def key(x_shape, w_shape, stride, padding, dilation, groups, dtype, batch_last_input=False):
    """The key of a layer: shapes, parameters, dtype, the input's layout and this process's
    thread count (a plan is kept under it plus which gradients backward computes)."""
    return ('conv2d', *x_shape, *w_shape, *stride, *padding, *dilation, groups,
            np.dtype(dtype).name, 'CHWN' if batch_last_input else 'NHWC', _cores())


def _plannable(x_shape, w_shape, out_hw, groups, dtype, algorithm):
    if not measuring() or algorithm != 'auto' or groups != 1:
        return False
    if np.dtype(dtype) != np.float32:
        return False
    n, c = x_shape[:2]
    o, _, kh, kw = w_shape
    return 2 * n * out_hw[0] * out_hw[1] * o * c * kh * kw >= MIN_FLOPS


def lookup(k):
    """The plan kept for key ``k`` (this process's, else the disk's), or None."""
    plan = _plans.get(k)
    if plan is None:
        entry = CACHE.get(k)
        if entry is not None:
            try:
                plan = _plans[k] = Plan(*entry['plan'])
            except (TypeError, KeyError):
                return None
    return plan


def layer_plan(k):
    """The plan kept for layer key ``k`` (``key``, the input channels-last) whichever input
    layout and gradients it was planned for, both gradients first; None if none is kept (for
    a pass run without its forward, which does not know the forward's input layout)."""
    for layout in ('NHWC', 'CHWN'):
        for grads in ((True, True), (False, True), (True, False), (False, False)):
            plan = lookup(k[:-2] + (layout, k[-1]) + grads)
            if plan is not None:
                return plan
    return None


def plan_for(conv, x, w, stride, padding, dilation, groups, out_hw, rules, grads=(True, True),
             batch_last_input=False):
    """The plan for running ``x`` through ``w``: kept, measured now (``conv`` is the kernels
    module: its passes are timed), or ``rules()`` (the rules' plan, asked for only when needed)
    where the layer is not measured. ``grads`` says which gradients backward will compute (the
    input's, the weight's): only the passes that run are timed, and a pass that does not keeps
    the rules' kernel. ``batch_last_input``: whether x is stored batch-last."""
    if not _plannable(x.shape, w.shape, out_hw, groups, x.dtype, conv.ALGORITHM):
        return rules()
    grads = (bool(grads[0]), bool(grads[1]))
    k = key(x.shape, w.shape, stride, padding, dilation, groups, x.dtype,
            batch_last_input) + grads
    plan = _plans.get(k) or lookup(k)
    if plan is not None:
        return plan
    with _lock:
        plan = _plans.get(k)
        if plan is None:
            try:
                plan, times = _measure(conv, x, w, (stride, padding, dilation, groups), rules(),
                                       grads)
            finally:
                # the losing candidates' scratch buffers would stay idle in the pool for good
                POOL.idle.clear()
            _plans[k] = plan
            _measured[k] = times
            CACHE.put(k, {'plan': list(plan), 'ms': times})
    return plan


def _fastest(fn):
    best = float('inf')
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _candidates(w_shape, stride, padding, dilation):
    """The candidate plans: {forward kernel: (input kernels, weight kernels)} run channels-last,
    and whether the batch-last plan is one."""
    kh, kw = w_shape[2:]
    if (kh, kw) == (1, 1) and not any(padding):
        return {'pointwise': (('pointwise',), ('pointwise',))}, False
    inputs = ('direct', 'col2im') if stride == (1, 1) else ('col2im',)
    if (kh, kw) == (3, 3) and stride == (1, 1) and dilation == (1, 1):
        return {'winograd': (('winograd',) + inputs, ('winograd', 'direct')),
                'direct': (inputs + ('winograd',), ('direct', 'winograd'))}, True
    return {'direct': (inputs, ('direct',))}, True


def _time_plan_passes(conv, x, w, p, forward, inputs, filters, grads):
    """Time the forward kernel, then each input and weight kernel after it (where ``grads``
    asks for that gradient): ({'input'|'filter': {kernel: s}}, forward s)."""
    stride, padding, dilation, groups = p
    params = {'stride': stride, 'padding': padding, 'dilation': dilation, 'groups': groups}
    first = Plan(forward, inputs[0], filters[0])
    out = {}

    def run_forward():
        out['f'] = conv.conv_forward(x, w, stride, padding, dilation, groups, plan=first)
    tf = _fastest(run_forward)
    y, how, xh, rows, cols = out.pop('f')
    gyg = conv.grad_operand(y, how, groups)
    times = {'input': {}, 'filter': {}}
    for kernel in inputs if grads[0] else ():
        plan = first._replace(input=kernel)
        times['input'][kernel] = _fastest(lambda: conv.input_grad(
            y, w, x.shape[2:], how=plan, gyg=gyg, rows=rows, **params))
    for kernel in filters if grads[1] else ():
        plan = first._replace(filter=kernel)
        times['filter'][kernel] = _fastest(lambda: conv.filter_grad(
            y, x, w.shape[2:], how=plan, xh=xh, gyg=gyg, cols=cols, **params))
    return times, tf


def _measure(conv, x, w, p, rules, grads):
    """Time every candidate plan on x and w; return (the plan to keep, {'pass:kernel': ms})."""
    table, batch_last = _candidates(w.shape, *p[:3])
    if batch_last:
        table['batch_last'] = (('batch_last',), ('batch_last',))
    ms = {}
    totals = {}
    for forward, (inputs, filters) in table.items():
        times, tf = _time_plan_passes(conv, x, w, p, forward, inputs, filters, grads)
        ms[f'{forward}:forward'] = round(tf * 1e3, 4)
        for name, runs in times.items():
            for kernel, t in runs.items():
                ms[f'{forward}:{name}:{kernel}'] = round(t * 1e3, 4)
        # a gradient backward does not compute keeps the rules' kernel (or batch-last's)
        ins = times['input'] or {(inputs[0] if forward == 'batch_last' else rules.input): 0.0}
        fis = times['filter'] or {(filters[0] if forward == 'batch_last' else rules.filter): 0.0}
        for i, t_i in ins.items():
            for g, t_g in fis.items():
                totals[Plan(forward, i, g)] = tf + t_i + t_g
    best = min(totals, key=totals.get)
    if rules in totals and totals[best] > (1 - MARGIN) * totals[rules]:
        best = rules
    ms['chosen'] = round(totals[best] * 1e3, 4)
    if rules in totals:
        ms['rules'] = round(totals[rules] * 1e3, 4)
    return best, ms


def take(passes=('forward', 'input', 'filter')):
    """The kernels ``passes`` ran since they were last taken, as {pass: kernel}; cleared."""
    out = {}
    for name in passes:
        value = getattr(ran, name, None)
        if value is not None:
            out[name] = value
            setattr(ran, name, None)
    return out


def describe(k):
    """A plan key as text: ``'x32x64x32x32 w64x64x3x3 s1x1 p1x1x1x1 d1x1 g1 float32 NHWC 2t
    grads=input,weight'`` (NHWC or CHWN: how the input was stored)."""
    (_, n, c, h, w, o, cg, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw, g, dtype, layout, threads,
     gx, gw) = k
    grads = ','.join(name for name, on in (('input', gx), ('weight', gw)) if on) or 'none'
    return (f"x{n}x{c}x{h}x{w} w{o}x{cg}x{kh}x{kw} s{sh}x{sw} p{pt}x{pb}x{pl}x{pr} "
            f"d{dh}x{dw} g{g} {dtype} {layout} {threads}t grads={grads}")


def info():
    """The mode, the cache file and the plans this process measured or read, by layer
    (``describe``): each plan's kernels and, where measured here, each candidate's ms."""
    return {'mode': MODE, 'deterministic': _deterministic, 'min_flops': MIN_FLOPS,
            'margin': MARGIN, 'cache': CACHE.info(),
            'plans': {describe(k): {'plan': dict(plan._asdict()), 'ms': _measured.get(k)}
                      for k, plan in _plans.items()}}
