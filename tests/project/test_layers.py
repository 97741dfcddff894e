"""The package's layers hold: no import circles, no import that runs back up a layer, no private
names across modules, and a core that imports no Jupyter, plotly or graphviz at module level.

Read from the source with :mod:`ast`, so the checks need nothing installed. Imports inside functions
count like the others between the package's own modules (a function-level import hides a circle,
it does not remove it); only imports of optional outside dependencies may be lazy.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"treeopt": ROOT / "treeopt", "widgets": ROOT / "widgets"}
FRONT_END = ("ipywidgets", "plotly", "graphviz", "IPython", "traitlets", "anywidget")


def _modules() -> dict:
    """Dotted module name → path, for every module of the two packages."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def _resolve(node, package: str):
    """(imported module, imported names) of one import statement, relative imports made absolute."""
    if isinstance(node, ast.Import):
        return [(alias.name, []) for alias in node.names]
    if node.level:
        base = package.split(".")
        base = base[:len(base) - node.level + 1]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return [(module, [alias.name for alias in node.names])]


def _package(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rsplit(".", 1)[0]


def _module_level_imports(name: str, path: Path):
    """(imported module, imported names) of each top-level import statement (also under if/try)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    statements = []
    for node in tree.body:
        if isinstance(node, (ast.If, ast.Try)):                # e.g. a guarded optional import
            statements.extend(n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            statements.append(node)
    for node in statements:
        yield from _resolve(node, _package(name, path))


def _all_imports(name: str, path: Path):
    """(imported module, imported names) of every import statement, at any depth of the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield from _resolve(node, _package(name, path))


def _graph(modules: dict, imports=None) -> dict:
    imports = imports or _all_imports
    graph = {}
    for name, path in modules.items():
        edges = set()
        for module, names in imports(name, path):
            for candidate in [f"{module}.{n}" for n in names] + [module]:
                if candidate in modules and candidate != name:
                    edges.add(candidate)
                    break
        graph[name] = edges
    return graph


def test_no_import_circles_even_through_imports_inside_functions():
    graph = _graph(_modules())
    state, stack, circles = {}, [], []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                # A package importing its own submodules is not a circle unless they import it back.
                circles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    real = [c for c in circles if not all(a.startswith(b + ".") or b.startswith(a + ".")
                                          for a, b in zip(c, c[1:]))]
    assert not real, "import circles: " + "; ".join(" -> ".join(c) for c in real)


def test_no_private_name_is_imported_from_another_module():
    modules = _modules()
    offenders = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):                   # imports inside functions count here too
            if isinstance(node, ast.ImportFrom):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                if private:
                    offenders.append(f"{name}: from {'.' * node.level}{node.module or ''} import {', '.join(private)}")
    assert not offenders, "private names imported across modules:\n" + "\n".join(offenders)


def test_the_core_imports_no_front_end_at_module_level():
    offenders = []
    for name, path in _modules().items():
        if not name.startswith("treeopt"):
            continue
        for module, _ in _module_level_imports(name, path):
            if module.split(".")[0] in FRONT_END:
                offenders.append(f"{name} imports {module}")
    assert not offenders, "\n".join(offenders)


#: The layers, bottom first (ARCHITECTURE.md): a module may import from its own layer and below.
#: A module is in the layer of the longest prefix listed here.
LAYERS = [
    ("data", ["treeopt.data", "treeopt.binarize", "treeopt.categorical", "treeopt.objectives", "treeopt.events",
              "treeopt.memory", "treeopt.progress", "treeopt.datasets", "treeopt.roc", "treeopt.metrics",
              "treeopt.nodes", "treeopt.render", "treeopt.guessing", "treeopt.encoding",
              "treeopt.table_columns", "treeopt.sorted_columns", "treeopt.input_validation",
              "treeopt.numeric_thresholds", "treeopt.regularization", "treeopt.setup_signals"]),
    ("trees", ["treeopt.tree", "treeopt.code_export", "treeopt.sklearn_export", "treeopt.model_json"]),
    ("protocol", ["treeopt.solvers.base", "treeopt.solvers.records", "treeopt.solvers.switches",
                  "treeopt.solvers.capabilities", "treeopt.solvers.interrupts",
                  "treeopt.solvers.memory_reserve"]),
    ("solvers", ["treeopt.solvers", "treeopt.greedy", "treeopt.frontier", "treeopt.rashomon",
                 "treeopt.bounds_lab"]),
    # a bound's check builds its solver through make_solver and sits beside it
    ("construction", ["treeopt.registry", "treeopt.building", "treeopt.bounds_lab.check"]),
    # the greedy estimators are front ends beside OptimalTreeClassifier
    ("front ends", ["treeopt.estimator", "treeopt.estimator_cv", "treeopt.fitted_tree", "treeopt.cli",
                    "treeopt.greedy_estimators", "treeopt.frontiers", "treeopt.rashomon_sets",
                    "treeopt.slow_certificate", "treeopt.ablations",
                    "treeopt.frontier_fitting"]),
    ("widgets", ["widgets"]),
]


def _layer(module: str) -> int:
    best, found = -1, None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    return found


def test_no_import_runs_back_up_a_layer():
    modules = _modules()
    graph = _graph(modules)
    upward = []
    for name, targets in graph.items():
        if modules[name].name == "__init__.py":          # a package's face re-exports its rooms
            continue
        source = _layer(name)
        for target in targets:
            # a package's face (its __init__) re-exports what lies below it; only real modules count
            if target in ("treeopt", "widgets"):
                continue
            if _layer(target) > source:
                upward.append(f"{name} ({LAYERS[source][0]}) -> {target} ({LAYERS[_layer(target)][0]})")
    assert not upward, "imports that run back up a layer:\n" + "\n".join(sorted(upward))


def test_every_module_has_a_layer():
    """A new module is placed in a layer on purpose (package faces excepted)."""
    modules = _modules()
    assert not [name for name, path in modules.items() if path.name != "__init__.py" and _layer(name) is None]
