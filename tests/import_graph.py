"""hookgrad's import graph, read from the source: which module imports which, at module level
(run when the importing module is imported) or inside a function (run when it is called)."""
import ast
import os

import hookgrad

PACKAGE = os.path.dirname(os.path.abspath(hookgrad.__file__))


def modules():
    """``{module name: file path}`` of every module of the package."""
    found = {}
    root = os.path.dirname(PACKAGE)
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d != '__pycache__']
        for f in files:
            if f.endswith('.py'):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, root)[:-3].replace(os.sep, '.')
                found[name[:-9] if name.endswith('.__init__') else name] = path
    return found


def _resolve(module, is_package, level, name):
    if level == 0:
        return name
    parts = module.split('.') if is_package else module.split('.')[:-1]
    parts = parts[:len(parts) - (level - 1)]
    return '.'.join(parts + ([name] if name else []))


def imports(known=None):
    """``[(importer, imported, at_module_level, line)]`` for every import of a hookgrad module.

    ``from X import a`` counts as an import of ``X.a`` when that is a module, else of ``X``;
    the root package itself (always imported first) is left out.
    """
    known = modules() if known is None else known
    edges = []
    for module, path in known.items():
        is_package = path.endswith('__init__.py')
        tree = ast.parse(open(path).read())

        def visit(nodes, top):
            for node in nodes:
                if isinstance(node, ast.Import):
                    targets = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = _resolve(module, is_package, node.level, node.module)
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                               for a in node.names]
                else:
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                        visit(ast.iter_child_nodes(node), False)
                    else:
                        visit(ast.iter_child_nodes(node), top)
                    continue
                for target in targets:
                    while target and target not in known:
                        target = target.rpartition('.')[0]
                    if target and target != module and target != 'hookgrad':
                        edges.append((module, target, top, node.lineno))

        visit(tree.body, True)
    return edges


def cycles(edges):
    """The strongly connected components of more than one module (lists of names), largest
    first (Tarjan's algorithm, without recursion)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found, key=len, reverse=True)
