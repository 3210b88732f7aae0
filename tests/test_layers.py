"""The floor plan holds (docs/architecture.md): each floor imports only the floors below it, and
no knot of modules imports itself at module level."""
import pytest

from tests.import_graph import cycles, imports, modules

KNOWN = modules()
EDGES = imports(KNOWN)


def _floor(name):
    """The floor (a package below ``hookgrad``) a module belongs to."""
    parts = name.split('.')
    return parts[1] if len(parts) > 1 else ''


def _violations(importers, forbidden):
    """Imports (anywhere, function-local ones included) from modules matching ``importers``
    into modules matching ``forbidden``."""
    return sorted(f"{a} imports {b} (line {line})" for a, b, _, line in EDGES
                  if importers(a) and forbidden(b))


def test_the_graph_is_read():
    assert len(KNOWN) > 200 and len(EDGES) > 1000
    assert ('hookgrad.ops.arithmetic', 'hookgrad._tensor', True) in \
        {(a, b, top) for a, b, top, _ in EDGES}


def test_kernels_import_nothing_above_them():
    allowed = ('hookgrad.kernels', 'hookgrad._frames')
    assert _violations(lambda a: _floor(a) == 'kernels',
                       lambda b: not b.startswith(allowed)) == []


@pytest.mark.parametrize('floor', ['autograd', 'hooks'])
def test_autograd_and_hooks_import_neither_nn_nor_jit_nor_what_is_built_on_them(floor):
    above = {'nn', 'jit', 'train', 'debug', 'explain', 'dataset', 'amp', 'vision', 'checkpoint',
             'communication', 'numpy'}
    assert _violations(lambda a: _floor(a) == floor, lambda b: _floor(b) in above) == []


def test_op_families_do_not_import_the_primitive_classes():
    primitives = 'hookgrad.ops.operations'
    assert _violations(
        lambda a: _floor(a) == 'ops' and not a.startswith(primitives) and a != 'hookgrad.ops',
        lambda b: b == primitives or b.startswith(primitives + '.')) == []


def test_tensor_does_not_import_ops():
    assert _violations(lambda a: _floor(a) == '_tensor', lambda b: _floor(b) == 'ops') == []


def test_no_knot_of_more_than_four_modules_at_module_level():
    knots = cycles([(a, b) for a, b, top, _ in EDGES if top])
    assert [len(k) for k in knots if len(k) > 4] == [], knots[:2]
