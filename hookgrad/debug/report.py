"""A report a person can look at: one self-contained HTML page of a recorded run.

A run is what the debugging tools recorded: a ``StatsRecorder``'s statistics, and optionally a
``summary`` of the network and the anomalies a ``nan_guard`` recorded. ``save_run`` writes them
to one JSON file; ``render_report`` turns a run (or such a file, or a statistics file written by
``to_json``) into an HTML page whose plots are embedded as PNG data, so the page needs nothing
else to display: ``python -m hookgrad.debug run.json -o report.html``.

Plots need matplotlib (extra ``plot``); without it the page has the tables and says so.
"""
import base64
import dataclasses
import html
import io
import json
import os
import tempfile

import numpy as np

from .stats_export import FORMAT as STATS_FORMAT, from_document, plot, to_document
from .stats_report import StatsHistory

__all__ = ['save_run', 'load_run', 'render_report']

FORMAT = 'hookgrad.debug.run'
VERSION = 1


# --------------------------------------------------------------------------- the run file
def save_run(path, stats, summary=None, anomalies=(), title='hookgrad run'):
    """Write a recorded run to one JSON file, atomically.

    Args:
        path: the file to write.
        stats: a ``StatsRecorder`` or ``StatsHistory``.
        summary: a ``Summary`` from ``hookgrad.debug.summary`` (optional).
        anomalies: ``AnomalyReport``s, e.g. a ``nan_guard(..., action='record')``'s ``reports``.
        title: the report's title.

    Returns:
        The path written.

    Raises:
        TypeError: for ``stats`` of another type.
    """
    doc = {'format': FORMAT, 'version': VERSION, 'title': str(title),
           'stats': to_document(_history(stats)),
           'summary': None if summary is None else _summary_document(summary),
           'anomalies': [_plain(dataclasses.asdict(a)) for a in anomalies]}
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.run-', suffix='.json', dir=folder)
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            json.dump(doc, f, allow_nan=False)
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
                'summary': None, 'anomalies': []}
    if kind != FORMAT:
        raise ValueError(f"load_run: {path!r} is neither a run written by save_run nor "
                         f"statistics written by to_json (format {kind!r})")
    if doc.get('version') != VERSION:
        raise ValueError(f"load_run: {path!r} has version {doc.get('version')!r}, this reader "
                         f"understands version {VERSION}")
    return {'title': doc['title'], 'history': from_document(doc['stats'], path),
            'summary': doc['summary'], 'anomalies': doc['anomalies']}


def _history(stats):
    if isinstance(stats, StatsHistory):
        return stats
    history = getattr(stats, 'history', None)
    if isinstance(history, StatsHistory):
        return history
    raise TypeError(f"stats must be a StatsRecorder or StatsHistory, got {type(stats).__name__}")


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
               'anomalies': []}
    history = run['history']
    title = title or run['title']
    findings = history.report()
    images, note = _plots(history)
    parts = [_header(title, history, findings, run['anomalies']),
             _section('Anomalies (nan_guard)', _anomaly_table(run['anomalies'])),
             _section('Findings', _findings_table(findings)),
             _section('Statistics over steps', note + ''.join(
                 f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
                 f'<figcaption>{html.escape(alt)}</figcaption></figure>'
                 for alt, data in images)),
             _section('Last recorded step, per layer', _last_step_table(history))]
    if run['summary'] is not None:
        parts.append(_section('Summary', _summary_table(run['summary'])))
    page = _PAGE.format(title=html.escape(title), style=_STYLE, body='\n'.join(parts),
                        script=_SCRIPT)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(page)
    return path


def _plots(history):
    """[(caption, base64 PNG)] and a note when matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return [], ('<p class="note">Plots need matplotlib: '
                    '<code>pip install matplotlib</code>.</p>')
    matplotlib.use('Agg', force=False)
    images = []
    buf = io.BytesIO()
    plot(history, buf)
    images.append(('Per-layer activation and gradient statistics over the steps',
                   base64.b64encode(buf.getvalue()).decode('ascii')))
    images.append(('Gradient norm at each layer\'s output (log10), layers by steps',
                   _heatmap(history)))
    return images, ''


def _heatmap(history):
    """log10 of every cell's output-gradient norm: a row per cell, a column per step."""
    import matplotlib.pyplot as plt
    names = [n for n in history.cells if len(history[n, 'grad_output']['step'])]
    grid = np.full((max(len(names), 1), max(len(history), 1)), np.nan)
    index = {s: i for i, s in enumerate(history.steps)}
    for r, name in enumerate(names):
        s = history[name, 'grad_output']
        with np.errstate(divide='ignore'):
            grid[r, [index[x] for x in s['step']]] = np.log10(s['norm'])
    fig, ax = plt.subplots(figsize=(12, 1.5 + 0.16 * len(names)), constrained_layout=True)
    shown = ax.imshow(np.ma.masked_invalid(grid), aspect='auto', cmap='magma',
                      interpolation='nearest')
    ax.set_yticks(range(len(names)), [n or '(root)' for n in names], fontsize=6)
    ax.set_xlabel('recorded step')
    fig.colorbar(shown, ax=ax, label='log10 gradient norm')
    buf = io.BytesIO()
    fig.savefig(buf, dpi=90)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode('ascii')


def _header(title, history, findings, anomalies):
    counts = {k: len(getattr(findings, k)) for k in ('dead', 'missing', 'exploding', 'vanishing')}
    badges = ''.join(f'<span class="badge {"bad" if n else "ok"}">{n} {k}</span>'
                     for k, n in [('anomalies', len(anomalies))] + list(counts.items()))
    return (f'<h1>{html.escape(title)}</h1><p>{len(history)} recorded steps, '
            f'{len(history.cells)} cells, {len(history.params)} parameters.</p>'
            f'<p>{badges}</p>')


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
    for what in ('exploding', 'vanishing', 'dead', 'missing'):
        for f in getattr(findings, what):
            groups.setdefault((what, f.kind, f.since), []).append((_cell(f.name), f.detail))
    if not groups:
        return '<p class="ok">No dead, missing, exploding or vanishing layer.</p>'
    rows = []
    for (what, kind, since), items in groups.items():
        details = sorted({d for _, d in items})
        if len(details) == 1:
            detail = html.escape(details[0])
        else:
            lines = ''.join(f'<li>{html.escape(n)}: {html.escape(d)}</li>' for n, d in items)
            detail = f'<details><summary>{len(items)} details</summary><ul>{lines}</ul></details>'
        rows.append((html.escape(what), html.escape(_names([n for n, _ in items])),
                     html.escape(kind), since, detail))
    return _table(('finding', 'cells or parameters', 'series', 'since step', 'detail'), rows,
                  numeric=(3,), escaped=True)


def _names(names, shown=6):
    if len(names) <= shown:
        return ', '.join(names)
    return f"{', '.join(names[:shown])} and {len(names) - shown} more ({len(names)} in all)"


def _last_step_table(history):
    rows = []
    for name, kind in zip(history.cells, history.cell_types):
        out, grad = history[name, 'output'], history[name, 'grad_output']
        if not len(out['step']):
            continue
        g = f"{grad['norm'][-1]:.4g}" if len(grad['step']) else '-'
        rows.append((_cell(name), kind, f"{out['mean'][-1]:.4g}", f"{out['std'][-1]:.4g}",
                     f"{out['zero_frac'][-1]:.1%}", int(out['nan'][-1] + out['inf'][-1]), g))
    return _table(('cell', 'type', 'output mean', 'output std', 'zeros', 'NaN/Inf',
                   'gradient norm'), rows, numeric=(2, 3, 4, 5, 6))


def _summary_table(summary):
    rows = [(('\u00a0\u00a0' * r['depth']) + _cell(r['path']), r['type'], r['input_shapes'],
             r['output_shapes'], f"{r['params']:,}", '-' if r['macs'] is None else
             f"{r['macs']:,}", f"{r['memory']:,}", r['calls']) for r in summary['rows']]
    rows.append(('total', '', '', '', f"{summary['total_params']:,}",
                 f"{summary['total_macs'] or 0:,}", f"{summary['activation_bytes']:,}", ''))
    return _table(('cell', 'type', 'input shapes', 'output shapes', 'parameters', 'MACs',
                   'activation bytes', 'calls'), rows, numeric=(4, 5, 6, 7))


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
.note{color:#8a6d3b}"""

# Marks the page once every embedded image has decoded, so a browser test can tell.
_SCRIPT = """window.addEventListener('load',function(){var imgs=document.images,n=0;
for(var i=0;i<imgs.length;i++){if(imgs[i].complete&&imgs[i].naturalWidth>0){n++;}}
document.body.setAttribute('data-images-decoded',n+'/'+imgs.length);});"""
