"""Writing and reading recorded statistics: JSON, CSV (long format), TensorBoard (the plot is
drawn by report_plots).

tensorboardX (extra ``tensorboard``) is imported only when its writer is called.
"""
import csv
import json
import math
import os

import numpy as np

from .._frames import warn
from .stats_report import CALLS, CELL_KINDS, PARAM_STATS, STATS, StatsHistory

FORMAT = 'hookgrad.debug.stats'
VERSION = 1


def _series(history):
    """Yield ``(name, kind, {'step': ..., stat: ...})`` for every series that has a value."""
    for name in history.cells:
        for kind in CELL_KINDS + ('calls',):
            s = history[name, kind]
            if len(s['step']):
                yield name, kind, s
    for name in history.params:
        s = history[name, 'param']
        if len(s['step']):
            yield name, 'param', s


def _number(v):
    """A float for JSON: non-finite values as the strings 'nan', 'inf', '-inf'."""
    v = float(v)
    return v if math.isfinite(v) else repr(v)


def to_document(history):
    """``history`` as a JSON-ready dict (non-finite values as 'nan', 'inf', '-inf')."""
    series = []
    for name, kind, s in _series(history):
        entry = {'name': name, 'kind': kind, 'step': [int(x) for x in s['step']]}
        for stat, values in s.items():
            if stat != 'step':
                entry[stat] = [_number(v) for v in values]
        series.append(entry)
    doc = {'format': FORMAT, 'version': VERSION, 'every': history.every,
           'steps': [int(x) for x in history.steps],
           'cells': [{'name': n, 'type': t} for n, t in zip(history.cells, history.cell_types)],
           'params': list(history.params), 'series': series}
    for key, values in _scalars(history):
        if values:
            steps = sorted(values)
            doc[key] = {'step': steps, 'value': [_number(values[k]) for k in steps]}
    return doc


def _scalars(history):
    """``(name, {step: value})`` of the values logged per step: the loss and learning rate."""
    return (('loss', history.losses), ('lr', history.lrs))


def write_json(history, path):
    """Write ``history`` as JSON; non-finite values are the strings 'nan', 'inf', '-inf'."""
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(to_document(history), f, allow_nan=False)


def write_csv(history, path):
    """Write ``history`` as CSV rows ``step,cell,kind,stat,value`` (one value per row); the
    logged loss and learning rate as rows of kind ``run`` (``step,,run,loss,value``)."""
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f)
        w.writerow(('step', 'cell', 'kind', 'stat', 'value'))
        for name, kind, s in _series(history):
            stats = [k for k in s if k != 'step']
            for i, step in enumerate(s['step']):
                for stat in stats:
                    w.writerow((int(step), name, kind, stat, repr(float(s[stat][i]))))
        for key, values in _scalars(history):
            for step in sorted(values):
                w.writerow((step, '', 'run', key, repr(float(values[step]))))


def load_stats(path):
    """Read statistics written by ``to_json`` or ``to_csv`` back into a ``StatsHistory``.

    The format is chosen by the file's extension (``.json`` or ``.csv``). A CSV file carries no
    cell types or recording interval; everything else reads back as it was written.

    Args:
        path: the file to read.

    Returns:
        StatsHistory: with ``report()``, ``plot()`` and the writers, as the recorder's.

    Raises:
        ValueError: for another extension or a file that is not in the expected format.
    """
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext == '.json':
        return _load_json(path)
    if ext == '.csv':
        return _load_csv(path)
    raise ValueError(f"load_stats: expected a .json or .csv file, got {path!r}")


def _load_json(path):
    with open(path, encoding='utf-8') as f:
        doc = json.load(f)
    return from_document(doc, path)


def from_document(doc, source='the document'):
    """The ``StatsHistory`` of a dict made by ``to_document`` (``source`` names it in errors)."""
    if not isinstance(doc, dict) or doc.get('format') != FORMAT:
        raise ValueError(f"load_stats: {source!r} is not a statistics file written by to_json "
                         f"(no 'format': {FORMAT!r})")
    if doc.get('version') != VERSION:
        raise ValueError(f"load_stats: {source!r} has version {doc.get('version')!r}, this "
                         f"reader understands version {VERSION}")
    cells = doc['cells']
    history = StatsHistory([c['name'] for c in cells], doc['params'],
                           [c['type'] for c in cells], doc['every'])
    rows = []
    for entry in doc['series']:
        for stat, values in entry.items():
            if stat not in ('name', 'kind', 'step'):
                for step, v in zip(entry['step'], values):
                    rows.append((step, entry['name'], entry['kind'], stat, float(v)))
    _fill(history, doc['steps'], rows, source)
    for key, values in _scalars(history):
        logged = doc.get(key) or {'step': [], 'value': []}
        values.update((int(k), float(v)) for k, v in zip(logged['step'], logged['value']))
    return history


def _load_csv(path):
    rows = []
    with open(path, newline='', encoding='utf-8') as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != ['step', 'cell', 'kind', 'stat', 'value']:
            raise ValueError(f"load_stats: {path!r} must start with the header "
                             f"step,cell,kind,stat,value, got {header!r}")
        for line, row in enumerate(reader, 2):
            if len(row) != 5:
                raise ValueError(f"load_stats: {path!r} line {line} has {len(row)} fields, "
                                 f"expected 5")
            try:
                rows.append((int(row[0]), row[1], row[2], row[3], float(row[4])))
            except ValueError:
                raise ValueError(f"load_stats: {path!r} line {line}: step must be an int and "
                                 f"value a number, got {row[0]!r} and {row[4]!r}") from None
    run = [r for r in rows if r[2] == 'run']
    rows = [r for r in rows if r[2] != 'run']
    cells, params = {}, {}
    for _, name, kind, _, _ in rows:
        (params if kind == 'param' else cells).setdefault(name, None)
    history = StatsHistory(list(cells), list(params))
    _fill(history, sorted({r[0] for r in rows}), rows, path)
    logged = dict(_scalars(history))
    for step, _, _, key, value in run:
        if key not in logged:
            raise ValueError(f"load_stats: {path!r} has an unknown entry: step {step}, kind "
                             f"'run', stat {key!r}")
        logged[key][step] = value
    return history


def _fill(history, steps, rows, path):
    """Build the tables from ``(step, name, kind, stat, value)`` rows and append them."""
    at = {s: i for i, s in enumerate(steps)}
    n, nc, npar = len(steps), len(history.cells), len(history.params)
    cell = np.full((n, nc, len(CELL_KINDS), len(STATS)), np.nan)
    calls = np.zeros((n, nc, len(CALLS)))
    param = np.full((n, npar, len(PARAM_STATS)), np.nan)
    for step, name, kind, stat, value in rows:
        try:
            i = at[step]
            if kind == 'param':
                param[i, history.params.index(name), PARAM_STATS.index(stat)] = value
            elif kind == 'calls':
                calls[i, history.cells.index(name), CALLS.index(stat)] = value
            else:
                cell[i, history.cells.index(name), CELL_KINDS.index(kind),
                     STATS.index(stat)] = value
        except (KeyError, ValueError):
            raise ValueError(f"load_stats: {path!r} has an unknown entry: step {step}, "
                             f"name {name!r}, kind {kind!r}, stat {stat!r}") from None
    for i, step in enumerate(steps):
        history.append(step, cell[i], calls[i], param[i])


# --------------------------------------------------------------------------- TensorBoard
def write_tensorboard(history, logdir, stats=None):
    """Write scalars ``<kind>.<stat>/<name>`` per recorded step with tensorboardX; return the
    new event file's path."""
    known = set(STATS) | set(PARAM_STATS)
    if stats is not None:
        stats = [stats] if isinstance(stats, str) else list(stats)
        unknown = [s for s in stats if s not in known]
        if unknown:
            raise ValueError(f"StatsHistory.to_tensorboard: unknown statistics {unknown}; "
                             f"expected some of {STATS + PARAM_STATS}")
    try:
        from tensorboardX import SummaryWriter
    except ImportError:
        raise ImportError("StatsHistory.to_tensorboard needs tensorboardX: pip install "
                          "tensorboardX") from None
    logdir = os.fspath(logdir)
    before = set(os.listdir(logdir)) if os.path.isdir(logdir) else set()
    writer = SummaryWriter(logdir=logdir)
    skipped = []
    try:
        for name, kind, s in _series(history):
            if kind == 'calls':
                continue
            for stat, values in s.items():
                if stat == 'step' or (stats is not None and stat not in stats):
                    continue
                tag = f"{kind}.{stat}/{name or '(root)'}"
                for step, v in zip(s['step'], values):
                    if math.isfinite(v):
                        writer.add_scalar(tag, float(v), int(step))
                    elif not math.isnan(v) or kind != 'param':  # a param NaN: not measured
                        skipped.append((tag, int(step)))
        if history.losses:
            for step, v in sorted(history.losses.items()):
                if math.isfinite(v):
                    writer.add_scalar('loss', v, step)
                else:
                    skipped.append(('loss', step))
    finally:
        writer.close()
    if skipped:
        tag, step = skipped[0]
        warn(f"StatsHistory.to_tensorboard: left out {len(skipped)} NaN or Inf "
             f"value(s), which TensorBoard cannot draw (the first: {tag} at step "
             f"{step}); to_json and to_csv keep them", RuntimeWarning)
    new = sorted(f for f in set(os.listdir(logdir)) - before if 'tfevents' in f)
    return os.path.join(logdir, new[-1]) if new else logdir
