"""The import graph of jqmagic, read from the source (module-level imports only): no cycle
inside jqmagic.core.jqlang nor inside jqmagic.core; the package's other cycles listed."""

from __future__ import annotations

import ast
from pathlib import Path

import jqmagic

ROOT = Path(jqmagic.__file__).parent


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each jqmagic module -> the jqmagic modules its top level imports (``from P import
    m`` of a submodule imports ``P.m``; a module's own packages are not counted)."""
    sources = {_module_of(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in sources.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(stmt, ast.Import):
                found.update(a.name for a in stmt.names)
            elif isinstance(stmt, ast.ImportFrom):
                base = stmt.module or ""
                if stmt.level:
                    up = package.split(".")[:len(package.split(".")) - stmt.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                subs = {f"{base}.{a.name}" for a in stmt.names} & sources.keys()
                found.update(subs if len(subs) == len(stmt.names) else {base, *subs})
        graph[name] = {m for m in found if m in sources and not (name + ".").startswith(m + ".")}
    return graph


def cycles(graph: dict[str, set[str]], prefix: str) -> list[list[str]]:
    """The strongly connected groups of more than one module under ``prefix`` (Tarjan)."""
    nodes = [n for n in graph if n == prefix or n.startswith(prefix + ".")]
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(n: str) -> None:
        index[n] = low[n] = len(index)
        stack.append(n)
        for m in graph[n]:
            if m not in nodes:
                continue
            if m not in index:
                visit(m)
                low[n] = min(low[n], low[m])
            elif m in stack:
                low[n] = min(low[n], index[m])
        if low[n] == index[n]:
            group = []
            while True:
                m = stack.pop()
                group.append(m)
                if m == n:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for n in nodes:
        if n not in index:
            visit(n)
    return groups


def test_the_graph_sees_known_imports():
    graph = import_graph()
    assert "jqmagic.core.jqlang.scope" in graph["jqmagic.core.jqlang.compiler"]
    assert "jqmagic.core.jqlang.compiler" in graph["jqmagic.core.jqlang.registry"]


def test_a_cycle_is_found():
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles(graph, "p") == [["p.a", "p.b", "p.c"]]


def test_no_cycle_in_jqlang():
    assert cycles(import_graph(), "jqmagic.core.jqlang") == []


def test_no_cycle_in_core():
    assert cycles(import_graph(), "jqmagic.core") == []


def test_other_cycles_in_jqmagic_are_listed(capsys):
    found = cycles(import_graph(), "jqmagic")
    with capsys.disabled():
        print(f"\nimport cycles elsewhere in jqmagic: {found}")
    assert all(not m.startswith("jqmagic.core.") for group in found for m in group)
