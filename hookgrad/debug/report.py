"""A report a person can look at: one self-contained HTML page of a recorded run.

A run is what the debugging tools recorded: a ``StatsRecorder``'s statistics, and optionally a
``summary`` of the network and the anomalies a ``nan_guard`` recorded. ``save_run`` writes them
to one JSON file; ``render_report`` turns a run (or such a file, or a statistics file written by
``to_json``) into an HTML page whose plots are embedded as PNG data, so the page needs nothing
else to display: ``python -m hookgrad.debug run.json -o report.html``.

Plots need matplotlib (extra ``plot``); without it the page has the tables and says so.
"""
import dataclasses
import datetime
import html
import json
import math
import os
import re
import tempfile

import numpy as np

from .report_plots import finding_title, plots
from .stats_export import FORMAT as STATS_FORMAT, from_document, to_document
from .stats_report import CELL_KINDS, FINDINGS, PARAM_STATS, STATS, StatsHistory
from .summary import _bytes

__all__ = ['save_run', 'load_run', 'render_report']

FORMAT = 'hookgrad.debug.run'
VERSION = 1


# --------------------------------------------------------------------------- the run file
def save_run(path, stats, summary=None, anomalies=(), title='hookgrad run', losses=None):
    """Write a recorded run to one JSON file, atomically, readable by everyone the umask
    allows (as ``open`` would create it).

    Args:
        path: the file to write.
        stats: a ``StatsRecorder`` or ``StatsHistory``.
        summary: a ``Summary`` from ``hookgrad.debug.summary`` (optional).
        anomalies: ``AnomalyReport``s, e.g. a ``nan_guard(..., action='record')``'s ``reports``.
        title: the report's title.
        losses: the training loss per step, for the loss curve: a sequence (one value per
            step from 0, numbers or one-element Tensors) or a dict ``{step: loss}``. They are
            added to those logged with ``StatsRecorder.log``.

    Returns:
        The path written.

    Raises:
        TypeError: for ``stats`` or ``losses`` of another type.
    """
    history = _history(stats)
    doc_stats = to_document(_with_losses(history, losses))
    doc = {'format': FORMAT, 'version': VERSION, 'title': str(title),
           'created': datetime.datetime.now().astimezone().isoformat(timespec='seconds'),
           'hookgrad_version': _version(), 'stats': doc_stats,
           'summary': None if summary is None else _summary_document(summary),
           'anomalies': [_plain(dataclasses.asdict(a)) for a in anomalies]}
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.run-', suffix='.json', dir=folder)
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            json.dump(doc, f, allow_nan=False)
        os.chmod(tmp, 0o666 & ~_umask())        # mkstemp makes it 0600
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return path


def load_run(path):
    """Read a run file (or a statistics file from ``to_json``) as a dict with the keys
    ``title``, ``history`` (a ``StatsHistory``), ``summary`` (a dict or None) and
    ``anomalies`` (a list of dicts).

    Raises:
        ValueError: for a file in neither format.
    """
    path = os.fspath(path)
    with open(path, encoding='utf-8') as f:
        try:
            doc = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"load_run: {path!r} is not JSON ({e})") from None
    kind = doc.get('format') if isinstance(doc, dict) else None
    if kind == STATS_FORMAT:
        return {'title': os.path.basename(path), 'history': from_document(doc, path),
                'summary': None, 'anomalies': [], 'created': None, 'hookgrad_version': None}
    if kind != FORMAT:
        raise ValueError(f"load_run: {path!r} is neither a run written by save_run nor "
                         f"statistics written by to_json (format {kind!r})")
    if doc.get('version') != VERSION:
        raise ValueError(f"load_run: {path!r} has version {doc.get('version')!r}, this reader "
                         f"understands version {VERSION}")
    return {'title': doc['title'], 'history': from_document(doc['stats'], path),
            'summary': doc['summary'], 'anomalies': doc['anomalies'],
            'created': doc.get('created'), 'hookgrad_version': doc.get('hookgrad_version')}


def _history(stats):
    if isinstance(stats, StatsHistory):
        return stats
    history = getattr(stats, 'history', None)
    if isinstance(history, StatsHistory):
        return history
    raise TypeError(f"stats must be a StatsRecorder or StatsHistory, got {type(stats).__name__}")


def _with_losses(history, losses):
    """``history``, or a copy of it with ``losses`` added to its logged losses."""
    if losses is None:
        return history
    if isinstance(losses, dict):
        items = list(losses.items())
    elif isinstance(losses, (list, tuple, np.ndarray)):
        items = list(enumerate(losses))
    else:
        raise TypeError(f"save_run: losses must be a sequence or a dict {{step: loss}}, got "
                        f"{type(losses).__name__}")
    copy = StatsHistory.__new__(StatsHistory)
    copy.__dict__.update(history.__dict__)
    copy.losses = dict(history.losses)
    for step, loss in items:
        copy.log(step, loss)
    return copy


def _version():
    from .. import __version__
    return __version__


def _umask():
    """The process's umask, read without changing it where /proc allows."""
    try:
        with open('/proc/self/status', encoding='ascii') as f:
            for line in f:
                if line.startswith('Umask:'):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _summary_document(summary):
    rows = [{'path': r.path, 'type': r.type, 'depth': r.depth, 'calls': r.calls,
             'input_shapes': _shapes(r.input_shapes), 'output_shapes': _shapes(r.output_shapes),
             'params': r.params, 'trainable_params': r.trainable_params, 'macs': r.macs,
             'memory': r.memory} for r in summary.rows]
    return {'rows': rows, 'total_params': summary.total_params,
            'trainable_params': summary.trainable_params, 'total_macs': summary.total_macs,
            'activation_bytes': summary.activation_bytes}


def _shapes(shapes):
    return '' if shapes is None else str(shapes)


def _plain(value):
    """JSON-ready: tuples as lists, NumPy scalars as Python numbers."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


# --------------------------------------------------------------------------- the page
def render_report(run, path, title=None):
    """Render a run into a self-contained HTML page.

    Args:
        run: a run file's path (``save_run``) or a statistics file's (``to_json``), or a
            ``StatsRecorder`` / ``StatsHistory``.
        path: the HTML file to write.
        title: the page title (default: the run's).

    Returns:
        The path written.
    """
    if isinstance(run, (str, os.PathLike)):
        run = load_run(run)
    else:
        run = {'title': 'hookgrad run', 'history': _history(run), 'summary': None,
               'anomalies': [], 'created': None, 'hookgrad_version': _version()}
    history = run['history']
    title = title or run['title']
    findings = history.report()
    health = health_of(history, findings, run['anomalies'])
    images, note = plots(history, findings, health[0])
    parts = [_header(title, history, findings, run, health),
             _section('Anomalies (nan_guard)', _anomaly_table(run['anomalies'])),
             _section('Findings', _findings_table(findings)),
             _section('Statistics over steps', note + ''.join(
                 f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
                 f'<figcaption>{html.escape(alt)}</figcaption></figure>'
                 for alt, data in images)),
             _section('Gradient norm across depth', _depth_table(history, findings)),
             _section('Last recorded step, per layer', _last_step_table(history))]
    if run['summary'] is not None:
        parts.append(_section('Summary', _summary_table(run['summary'])))
    page = _PAGE.format(title=html.escape(title), style=_STYLE, body='\n'.join(parts),
                        script=_SCRIPT)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(page)
    return path


def health_of(history, findings, anomalies=()):
    """``(last healthy step, first problem step, what it was)``: the first step with a NaN or
    Inf (a nan_guard anomaly, the loss, any recorded statistic) or from which a finding holds,
    and the last recorded or logged step before it (None when the problem came first).
    ``(None, None, None)`` when nothing went wrong. A large update is a warning about the
    learning rate, not a failure (training often goes on well past its first step), so it
    does not end the healthy steps."""
    problems = [(a['step'], f"{a['direction']} NaN/Inf at op {a['op']} in "
                            f"{_cell(a['cell'])} (nan_guard)") for a in anomalies]
    bad_loss = [k for k, v in history.losses.items() if not math.isfinite(v)]
    if bad_loss:
        problems.append((min(bad_loss), 'NaN or Inf loss'))
    steps = history.steps
    cells = history.cell_data[..., [STATS.index('nan'), STATS.index('inf')]]
    hit = np.argwhere(np.nan_to_num(cells).sum(axis=-1) > 0)      # (step, cell, kind) rows
    if len(hit):
        k, i, kind = hit[0]
        problems.append((int(steps[k]), f"NaN or Inf in {_cell(history.cells[i])}'s "
                                        f"{CELL_KINDS[kind]}"))
    grads = history.param_data[..., [PARAM_STATS.index('grad_nan'), PARAM_STATS.index('grad_inf')]]
    hit = np.argwhere(np.nan_to_num(grads).sum(axis=-1) > 0)
    if len(hit):
        k, j = hit[0]
        problems.append((int(steps[k]), f"NaN or Inf in the gradient of {history.params[j]}"))
    for key in FINDINGS:
        if key == 'large_update':
            continue
        for f in getattr(findings, key):
            problems.append((f.since, f"{finding_title(key)}: {_cell(f.name)} "
                                      f"{'gradient' if f.kind == 'param' else f.kind}"))
    if not problems:
        return None, None, None
    first, what = min(problems, key=lambda p: p[0])
    known = [s for s in {*map(int, steps), *history.losses, *history.lrs} if s < first]
    return (max(known) if known else None), first, what


def _header(title, history, findings, run, health):
    counts = {finding_title(k): len(getattr(findings, k)) for k in FINDINGS}
    badges = ''.join(f'<span class="badge {"bad" if n else "ok"}">{n} {k}</span>'
                     for k, n in [('anomalies', len(run['anomalies']))] + list(counts.items()))
    now = datetime.datetime.now().astimezone().isoformat(sep=' ', timespec='minutes')
    created = run.get('created')
    version = run.get('hookgrad_version')
    made = f" with hookgrad {html.escape(version)}" if version else ''
    when = (f"recorded {html.escape(created.replace('T', ' '))}{made}; rendered {now}"
            if created else f"rendered {now}{made}")
    last, first, what = health
    if first is None:
        state = '<p class="ok">No NaN, Inf or finding in the recorded steps.</p>'
    else:
        before = (f'Last healthy step: <b>{last}</b>' if last is not None else
                  'No healthy step before the first problem')
        state = f'<p class="health">{before}; at step {first}: {html.escape(what)}.</p>'
    return (f'<h1>{html.escape(title)}</h1><p class="meta">{when}.</p>'
            f'<p>{len(history)} recorded steps, {len(history.cells)} cells, '
            f'{len(history.params)} parameters.</p><p>{badges}</p>{state}')


def _section(name, body):
    return f'<section><h2>{html.escape(name)}</h2>{body}</section>'


def _table(head, rows, numeric=(), escaped=False):
    """An HTML table; cell values are escaped unless ``escaped`` says they already are."""
    th = ''.join(f'<th>{html.escape(h)}</th>' for h in head)
    text = str if escaped else (lambda v: html.escape(str(v)))
    body = ''.join('<tr>' + ''.join(
        f'<td class="{"num" if i in numeric else ""}">{text(v)}</td>'
        for i, v in enumerate(row)) + '</tr>' for row in rows)
    return f'<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _anomaly_table(anomalies):
    if not anomalies:
        return '<p class="ok">No NaN or Inf was recorded.</p>'
    rows = [(a['step'], a['direction'], a['op'], _cell(a['cell']), _short(a['source']),
             a['input_shapes'], a['output_shapes'], a['nan_count'],
             a['posinf_count'] + a['neginf_count']) for a in anomalies]
    return _table(('step', 'direction', 'op', 'cell', 'source', 'input shapes',
                   'output shapes', 'NaN', 'Inf'), rows, numeric=(0, 7, 8))


def _findings_table(findings):
    """One row per (finding, series, first step), listing every cell or parameter it holds
    for, each one's detail folded below: one NaN step poisons every layer's gradient, and
    dozens of near-identical rows would hide the rest."""
    groups = {}
    for what in ('exploding', 'exploding_depth', 'large_update', 'vanishing', 'vanishing_depth',
                 'dead', 'missing'):
        for f in getattr(findings, what):
            groups.setdefault((what, f.kind, f.since), []).append((_cell(f.name), f.detail))
    if not groups:
        return ('<p class="ok">No dead, missing, exploding or vanishing layer, and no too '
                'large update.</p>')
    rows = []
    for (what, kind, since), items in groups.items():
        details = sorted({d for _, d in items})
        if len(details) == 1:
            detail = html.escape(details[0])
        else:
            lines = ''.join(f'<li>{html.escape(n)}: {html.escape(d)}</li>' for n, d in items)
            detail = f'<details><summary>{len(items)} details</summary><ul>{lines}</ul></details>'
        rows.append((html.escape(finding_title(what)),
                     html.escape(_names([n for n, _ in items])),
                     html.escape(kind), since, detail))
    return _table(('finding', 'cells or parameters', 'series', 'since step', 'detail'), rows,
                  numeric=(3,), escaped=True)


def _names(names, shown=6):
    if len(names) <= shown:
        return ', '.join(names)
    return f"{', '.join(names[:shown])} and {len(names) - shown} more ({len(names)} in all)"


def _depth_table(history, findings):
    """``depth_profile()``: the cells in forward order with their gradient norm and its ratio
    to the last layer's; the flagged ones marked."""
    rows = history.depth_profile()
    if not any(math.isfinite(r.ratio) for r in rows):
        return '<p>No gradient at the cells\' outputs was recorded.</p>'
    flagged = {f.name: finding_title(key) for key in ('vanishing_depth', 'exploding_depth')
               for f in getattr(findings, key)}
    types = dict(zip(history.cells, history.cell_types))
    body = [(html.escape(_cell(r.name)), html.escape(types[r.name]), _num(r.norm),
             _num(r.ratio, '.3g'),
             f'<span class="flag">{flagged[r.name]}</span>' if r.name in flagged else '')
            for r in rows]
    rules = findings.rules
    return (f'<p>The gradient norm at each cell\'s output, cells in the order they ran (the '
            f'last one nearest the loss), at the last recorded step with gradients, and its '
            f'ratio to the last cell\'s; below {rules["depth_ratio_below"]:g} it vanishes '
            f'across depth, above {rules["depth_ratio_above"]:g} it explodes.</p>' +
            _table(('cell', 'type', 'gradient norm', 'ratio to the last layer', 'finding'),
                   body, numeric=(2, 3), escaped=True))


def _last_step_table(history):
    """The last recorded step per layer; a gradient that held NaN or Inf is shown as such
    with its counts (its norm over the finite values would read as a healthy 0)."""
    rows = []
    for name, kind in zip(history.cells, history.cell_types):
        out, grad = history[name, 'output'], history[name, 'grad_output']
        if not len(out['step']):
            continue
        if not len(grad['step']):
            g = '-'
        elif grad['nan'][-1] or grad['inf'][-1]:
            g = (f'<span class="nonfinite">non-finite: {int(grad["nan"][-1]):,} NaN, '
                 f'{int(grad["inf"][-1]):,} Inf</span>')
        else:
            g = f"{grad['norm'][-1]:.4g}"
        rows.append((html.escape(_cell(name)), html.escape(kind), _num(out['mean'][-1]),
                     _num(out['std'][-1]), _num(out['zero_frac'][-1], '.1%'),
                     int(out['nan'][-1] + out['inf'][-1]), g))
    return _table(('cell', 'type', 'output mean', 'output std', 'zeros', 'NaN/Inf',
                   'gradient norm'), rows, numeric=(2, 3, 4, 5, 6), escaped=True)


def _num(v, spec='.4g'):
    return format(v, spec) if math.isfinite(v) else 'NaN' if math.isnan(v) else str(v)


def _summary_table(summary):
    rows = [(('\u00a0\u00a0' * r['depth']) + _cell(r['path']), r['type'],
             shape_text(r['input_shapes']), shape_text(r['output_shapes']), f"{r['params']:,}",
             '-' if r['macs'] is None else f"{r['macs']:,}",
             _bytes(r['memory']) if r['calls'] else '-', r['calls']) for r in summary['rows']]
    rows.append(('total', '', '', '', f"{summary['total_params']:,}",
                 f"{summary['total_macs'] or 0:,}", _bytes(summary['activation_bytes']), ''))
    return _table(('cell', 'type', 'input shapes', 'output shapes', 'parameters', 'MACs',
                   'activation memory', 'calls'), rows, numeric=(4, 5, 6, 7))


_SHAPE = re.compile(r'\[(\d+(?:, \d+)*)?\]')


def shape_text(text):
    """A summary's shape structure as a person reads it: ``([2, 3, 32, 32],)`` becomes
    ``2×3×32×32``, ``([2, 4], [2, 4])`` becomes ``2×4, 2×4``, ``[]`` ``scalar``."""
    if not text:
        return text

    def one(m):
        return m.group(1).replace(', ', '\u00d7') if m.group(1) else 'scalar'
    out = _SHAPE.sub(one, text)
    if out.startswith('(') and out.endswith(')'):       # the tuple of positional inputs
        out = out[1:-1].rstrip(',')
    return out


_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _short(source):
    """``file:line`` with hookgrad's own files as ``hookgrad/...`` and others relative to the
    working directory when they lie below it."""
    if not source:
        return ''
    path, sep, line = source.rpartition(':')
    if not sep or not os.path.isabs(path):
        return source
    for root in (_PACKAGE_ROOT, os.getcwd()):
        rel = os.path.relpath(path, root)
        if not rel.startswith(os.pardir):
            return f"{rel}:{line}"
    return source


def _cell(name):
    return '(root)' if name == '' else ('-' if name is None else name)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{style}</style></head>
<body>{body}
<script>{script}</script></body></html>
"""

_STYLE = """body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1240px;color:#222}
h1{margin:0 0 4px}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:28px}
table{border-collapse:collapse;font-size:12px;width:100%}
th,td{border-bottom:1px solid #eee;padding:3px 8px;text-align:left}
th{background:#f5f5f5}td.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;border-radius:10px;padding:2px 10px;margin-right:6px;color:#fff}
.bad{background:#c0392b}.ok{color:#1e7e34}.badge.ok{background:#1e7e34;color:#fff}
figure{margin:12px 0}img{max-width:100%}figcaption{color:#666;font-size:12px}
.note{color:#8a6d3b}.meta{color:#666}.nonfinite{color:#00838f;font-weight:600}
.health{color:#a93226;font-weight:600}.flag{color:#c0392b;font-weight:600}"""

# Marks the page once every embedded image has decoded, so a browser test can tell.
_SCRIPT = """window.addEventListener('load',function(){var imgs=document.images,n=0;
for(var i=0;i<imgs.length;i++){if(imgs[i].complete&&imgs[i].naturalWidth>0){n++;}}
document.body.setAttribute('data-images-decoded',n+'/'+imgs.length);});"""
