"""The packages stay layered and acyclic: the core ``cgt`` imports nothing above it,
``solvers`` only the core, ``proofs`` the core and the solvers, and the application
``cgtapp`` sits on top; no module imports, even from inside a function, a module that
imports it back (directly or around a loop).

Every ``import`` statement of every module is read from its syntax tree, wherever it
stands (module level, inside a function, under ``TYPE_CHECKING``), so an import hidden in a
function counts like any other. ``from package import name`` is an edge to the submodule
``package.name`` when there is one, else to the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The layers, bottom up: a module may import from its own layer and those below.
LAYERS = ("cgt", "solvers", "proofs", "cgtapp")


def module_files(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for package in LAYERS:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def import_graph(modules: dict[str, Path]) -> nx.DiGraph:
    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = nx.DiGraph()
    for module, path in modules.items():
        graph.add_node(module)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in targets:
                found = known(target)
                if found is not None and found != module:
                    graph.add_edge(module, found)
    return graph


def uphill_imports(graph: nx.DiGraph) -> list[tuple[str, str]]:
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    return sorted((a, b) for a, b in graph.edges if rank[b.split(".")[0]] > rank[a.split(".")[0]])


def import_cycles(graph: nx.DiGraph) -> list[list[str]]:
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return import_graph(module_files())


def test_no_layer_imports_a_layer_above_it(graph: nx.DiGraph) -> None:
    assert uphill_imports(graph) == []


def test_no_module_imports_itself_back_around_a_loop(graph: nx.DiGraph) -> None:
    assert import_cycles(graph) == []


def test_the_checks_see_an_uphill_import_and_a_cycle_hidden_in_functions(tmp_path: Path) -> None:
    """The two checks refute a broken tree: a core module importing a solver inside a
    function, and two solver modules importing each other inside functions."""
    (tmp_path / "cgt").mkdir()
    (tmp_path / "solvers").mkdir()
    (tmp_path / "proofs").mkdir()
    (tmp_path / "cgtapp").mkdir()
    for package in LAYERS:
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "cgt" / "core.py").write_text("def f():\n    from solvers.a import g\n")
    (tmp_path / "solvers" / "a.py").write_text("def g():\n    from solvers import b\n")
    (tmp_path / "solvers" / "b.py").write_text("def h():\n    import solvers.a\n")
    broken = import_graph(module_files(tmp_path))
    assert uphill_imports(broken) == [("cgt.core", "solvers.a")]
    assert import_cycles(broken) == [["solvers.a", "solvers.b"]]
