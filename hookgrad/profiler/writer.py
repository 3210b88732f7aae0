"""The files ``Profiler.analyse`` writes, in MindSpore's CPU layout: a Chrome trace
(``ASCEND_PROFILER_OUTPUT/trace_view.json``) and the per-op tables of ``FRAMEWORK``. A backward
rule counts as an op of its own, named ``<Op>Grad`` as MindSpore names gradient kernels. The
script's mstx markers are instants (``ph: i``) and its ranges spans (``ph: X``), category
``mstx``, with their domain."""
import csv
import json
import os

_TYPE_HEADER = ['op_type', 'type_occurrences', 'execution_frequency(per-step)',
                'total_compute_time', 'avg_time(ms)', 'percent']
_DETAIL_HEADER = ['op_side', 'op_type', 'op_name', 'full_op_name', 'op_occurrences',
                  'op_total_time(ms)', 'op_avg_time(ms)', 'total_proportion', 'subgraph', 'pid']


def _kernel(phase, name, nested):
    """The kernel name of a recorded call: the op, or ``<op>Grad`` for a backward rule."""
    return f"{name}Grad" if phase == 'backward' and not nested else name


def write_analysis(recording, folder, pretty, metadata, steps=1, marks=()):
    """Write ``recording`` (a ``hookgrad.debug.profile`` over ``steps`` training steps) and the
    mstx ``marks`` (kind, message, domain, start, seconds) into ``folder``."""
    pid = os.getpid()
    out = os.path.join(folder, 'ASCEND_PROFILER_OUTPUT')
    framework = os.path.join(folder, 'FRAMEWORK')
    os.makedirs(out, exist_ok=True)
    os.makedirs(framework, exist_ok=True)
    events = recording.events
    starts = ([events[0][3]] if events else []) + [mark[3] for mark in marks]
    origin = min(starts) if starts else 0.0
    trace = [{'ph': 'M', 'name': 'process_name', 'pid': pid, 'tid': 0,
              'args': {'name': 'CPU OP'}},
             {'ph': 'M', 'name': 'thread_name', 'pid': pid, 'tid': 0,
              'args': {'name': 'Thread 0'}}]
    by_type, by_name = {}, {}
    for phase, name, cell, start, seconds, nested, algorithm in events:
        kernel = _kernel(phase, name, nested)
        args = {'type': 'HostCpuOps', 'cell': cell or '', 'inside_backward_rule': nested}
        if algorithm:
            args['algorithm'] = algorithm
        trace.append({'ph': 'X', 'name': kernel, 'pid': pid, 'tid': 0,
                      'ts': f"{(start - origin) * 1e6:.3f}", 'dur': f"{seconds * 1e6:.3f}",
                      'cat': phase, 'args': args})
        if nested:
            continue        # counted in the rule that ran it
        for table, key in ((by_type, kernel), (by_name, (kernel, cell or 'Default'))):
            entry = table.setdefault(key, [0, 0.0])
            entry[0] += 1
            entry[1] += seconds * 1e3
    for kind, message, domain, start, seconds in marks:
        event = {'ph': 'i' if kind == 'mark' else 'X', 'name': message, 'pid': pid, 'tid': 0,
                 'ts': f"{(start - origin) * 1e6:.3f}", 'cat': 'mstx',
                 'args': {'domain': domain}}
        if kind == 'mark':
            event['s'] = 't'
        else:
            event['dur'] = f"{seconds * 1e6:.3f}"
        trace.append(event)
    with open(os.path.join(out, 'trace_view.json'), 'w') as f:
        json.dump(trace, f, indent=1 if pretty else None)
    total = sum(ms for _, ms in by_type.values()) or 1.0
    with open(os.path.join(framework, 'cpu_op_type_info_0.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(_TYPE_HEADER)
        for kernel, (n, ms) in sorted(by_type.items(), key=lambda kv: -kv[1][1]):
            w.writerow([kernel, n, round(n / steps, 6), round(ms, 6), round(ms / n, 7),
                        round(ms / total, 7)])
    with open(os.path.join(framework, 'cpu_op_detail_info_0.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(_DETAIL_HEADER)
        for (kernel, cell), (n, ms) in sorted(by_name.items(), key=lambda kv: -kv[1][1]):
            w.writerow(['Host', kernel, kernel, f"{cell}/{kernel}", n, round(ms, 6),
                        round(ms / n, 7), round(ms / total, 7), 'Default', pid])
    if metadata:
        with open(os.path.join(folder, 'profiler_metadata.json'), 'w') as f:
            json.dump(metadata, f, indent=1)
