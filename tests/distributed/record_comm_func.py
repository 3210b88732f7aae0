"""Record what MindSpore 2.10 gives for every case of ``comm_func_cases.py`` into
``comm_func_ms210.json``.

Run from /tmp under MindSpore: ``/tmp/msvenv/bin/python
/work/main/tests/distributed/record_comm_func.py``. MindSpore cannot start its communication
on this machine's CPU, so every case runs before ``init``: the errors of the argument checks
MindSpore makes before communicating, and the answers of its queries before ``init``.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comm_func_cases as cases  # noqa: E402


def main():
    import mindspore as ms
    from mindspore import ops
    names = cases.namespace(ops, ms.Tensor, ops.get_rank())
    found = {'before_init': {e: cases.outcome(e, names) for e in cases.BEFORE_INIT},
             'errors': {e: cases.outcome(e, names) for e in cases.ERRORS}}
    ops.set_comm_ops_inplace(False)
    found['functional_errors'] = {e: cases.outcome(e, names) for e in cases.FUNCTIONAL_ERRORS}
    ops.set_comm_ops_inplace(True)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'comm_func_ms210.json')
    with open(path, 'w') as f:
        json.dump(found, f, indent=1, sort_keys=True)
        f.write('\n')
    print(f"wrote {path}")


if __name__ == '__main__':
    main()
